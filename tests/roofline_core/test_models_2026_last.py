"""The last 2025-26 model types and presets (issue 38): GLM-5's sparse attention, ..., each read
from its published config and checked against its publisher's counts and a hand derivation."""

from __future__ import annotations

import json

import pytest

from roofline_core.estimates.engine_memory import vllm_layout
from roofline_core.models import MODELS
from roofline_core.models.hf_config import ConfigError, from_hf_config
from roofline_core.models.layer_kinds import SparseAttention
from roofline_core.models.preset_records import PRESET_RECORDS
from tests.roofline_core.test_hf_config import SOURCES, _within
from tests.support.hf_configs import config

# GLM-5 (glm_moe_dsa) ----------------------------------------------------------------------------


def test_glm_5_reads_as_deepseek_sparse_attention_at_its_own_sizes() -> None:
    m = from_hf_config(config("glm-5"))
    assert (m.family, m.notes, m.attention) == ("GLM", (), "mla")
    assert m.sparse_attention == SparseAttention(index_heads=32, index_head_dim=128, top_k=2048)
    assert (m.dense_layers, m.moe_layers, m.experts, m.experts_per_token, m.shared_experts) == (3, 75, 256, 8, 1)
    # MLA's no-rotary width, not the config's head_dim (64), is the query-key head.
    assert (m.head_dim, m.mla_v_head_dim, m.mla_latent_dim, m.mla_rope_dim) == (192, 256, 512, 64)
    assert m.mtp_layers == 1


def test_glm_5_counts_match_the_readme() -> None:
    m, entry = MODELS["glm-5"], SOURCES["glm-5"]
    assert _within(m.total_params, entry["published_total_params"]["value"]), m.total_params / 1e9
    # GLM counts the decoder layers only, as for GLM-4.5: no embedding, no output head.
    decoder = m.streamed_params_per_token - m.vocab_size * m.hidden_size
    assert _within(decoder, entry["published_active_params"]["value"]), decoder / 1e9
    assert m == from_hf_config(config("glm-5"), slug="glm-5", name="GLM-5", source=m.source)


def test_glm_5_cache_and_sparse_reads_by_hand() -> None:
    m = MODELS["glm-5"]
    # Per layer and token: the 512-wide latent and 64-wide rotary key in 16 bits, plus the
    # indexer's 128 FP8 values and one FP32 scale; 78 layers, no fixed state.
    per_token = 78 * ((512 + 64) * 2 + 128 + 4)
    assert m.kv_bytes_per_token("fp16") == per_token == 100_152
    assert m.state_bytes_per_sequence == 0
    assert m.kv_cache_bytes(context_tokens=131_072) == 131_072 * per_token
    # At 128k a decode step reads 2,048 latents per layer and every token's indexer key.
    read = m.decode_cache_read_bytes(context_tokens=131_072, kv_dtype="fp16")
    assert read == 78 * ((512 + 64) * 2 * 2048 + 132 * 131_072)
    # The indexer's weights per layer: its query from the 2,048-wide compressed query, one key
    # head and its norm, and one weight per head.
    indexer = 2048 * 32 * 128 + 6144 * 128 + 2 * 128 + 6144 * 32
    assert m.sparse_attention.params(6144, 2048) == indexer
    dense_twin = from_hf_config({**config("glm-5"), "model_type": "deepseek_v3"})
    assert m.total_params - dense_twin.total_params == 78 * indexer


# DeepSeek-V4's fields under a type this project does not know: refused --------------------------
# (deepseek_v4 itself is read: tests/roofline_core/test_deepseek_v4.py)

#: DeepSeek-V4-Flash's architecture fields, from NVIDIA's NVFP4 checkpoint of it
#: (https://github.com/ai-dynamo/aiconfigurator/blob/7b359652cc600f4e157258117719c380aaadfb47/aic-core/src/aiconfigurator_core/model_configs/nvidia--DeepSeek-V4-Flash-NVFP4_config.json).
DEEPSEEK_V4_FLASH = {
    "model_type": "deepseek_v4",
    "compress_ratios": [0, 0] + [4, 128] * 20 + [4, 0],
    "hc_mult": 4,
    "head_dim": 512,
    "hidden_size": 4096,
    "index_head_dim": 128,
    "index_n_heads": 64,
    "index_topk": 512,
    "moe_intermediate_size": 2048,
    "n_routed_experts": 256,
    "n_shared_experts": 1,
    "num_attention_heads": 64,
    "num_experts_per_tok": 6,
    "num_hidden_layers": 43,
    "num_key_value_heads": 1,
    "o_lora_rank": 1024,
    "q_lora_rank": 1024,
    "qk_rope_head_dim": 64,
    "sliding_window": 128,
    "vocab_size": 129280,
}


@pytest.mark.parametrize("extra", [{}, {"intermediate_size": 2048}])
def test_deepseek_v4_fields_under_an_unknown_type_are_refused(extra: dict) -> None:
    # With an intermediate_size its fields would pass for a DeepSeek-style MoE with one KV head
    # of 512 on every layer: a cache 4 to 128 times the compressed one. A type the reader does not
    # know is refused instead (deepseek_v4 itself is read by its own reader).
    unknown = {**DEEPSEEK_V4_FLASH, "model_type": "deepseek_v4_next", **extra}
    with pytest.raises(ConfigError, match=r"it has 'compress_ratios', a field of layers no known layout reads"):
        from_hf_config(unknown)


# Kimi Linear 48B-A3B (kimi_linear) ----------------------------------------------------------------


def test_kimi_linear_preset_is_its_config_and_matches_the_readme() -> None:
    from tests.roofline_core.test_layer_kinds import KIMI_LINEAR

    m = MODELS["kimi-linear-48b-a3b"]
    assert m == from_hf_config(KIMI_LINEAR, slug=m.slug, name=m.name, source=m.source)
    record = next(r for r in PRESET_RECORDS if r["slug"] == m.slug)
    # Moonshot's 48B and 3B leave out the embedding table and the output head (0.75B together).
    tables = 2 * 163_840 * 2304
    assert _within(m.total_params - tables, record["total"]["value"]), (m.total_params - tables) / 1e9
    assert _within(m.active_params_per_token - tables, record["active"]["value"])
    assert m.family == "Kimi" and (m.recurrent_layers, m.attention_layers, m.moe_layers) == (20, 7, 26)


def test_kimi_linear_state_and_vllm_page_by_hand() -> None:
    m = MODELS["kimi-linear-48b-a3b"]
    # One KDA layer: 32 heads x 128 x 128 in FP32, and the last 3 inputs of q, k and v (3 x 4,096
    # channels) in BF16.
    per_layer = 32 * 128 * 128 * 4 + 3 * 4096 * 3 * 2
    assert per_layer == 2_170_880 and m.state_bytes_per_sequence == 20 * per_layer
    # At 8k and 128k the 7 MLA layers add 576 BF16 values per token each; the state stays.
    for context in (8192, 131_072):
        assert m.kv_cache_bytes(context_tokens=context) == 20 * per_layer + 7 * 576 * 2 * context
    # vLLM: an MLA hybrid's attention block is the smallest multiple of 64 tokens whose page
    # (1,152 bytes a token) holds one layer's state: 64 x ceil(2,170,880 / 73,728) = 1,920 tokens.
    layout = vllm_layout(m)
    assert (layout.block_tokens, layout.page_bytes) == (1920, 1920 * 1152)
    # A GQA hybrid still rounds to 16 tokens (Qwen3-Next: 544).
    assert vllm_layout(MODELS["qwen3-next-80b-a3b"]).block_tokens == 544


# Hunyuan dense (hunyuan_v1_dense) ------------------------------------------------------------------

#: Hunyuan-7B's architecture fields (tencent/Hunyuan-7B-Instruct config.json).
HUNYUAN_7B = {
    "model_type": "hunyuan_v1_dense",
    "hidden_size": 4096,
    "num_hidden_layers": 32,
    "num_attention_heads": 32,
    "num_key_value_heads": 8,
    "head_dim": 128,
    "intermediate_size": 14336,
    "vocab_size": 128167,
    "tie_word_embeddings": True,
}


def test_hunyuan_dense_reads_as_its_own_family_without_a_fallback_note() -> None:
    m = from_hf_config(HUNYUAN_7B)
    assert (m.family, m.notes, m.is_moe) == ("Hunyuan", (), False)
    # A Llama layout: GQA attention, a gated MLP, one tied table.
    h = 4096
    layer = 2 * h * 32 * 128 + 2 * h * 8 * 128 + 3 * h * 14336 + 2 * h
    assert m.total_params == 128167 * h + 32 * layer + h
    assert m.kv_bytes_per_token("fp16") == 2 * 32 * 8 * 128 * 2


# Gemma 3n (gemma3n) --------------------------------------------------------------------------------


def test_gemma_3n_shares_its_last_15_layers_caches() -> None:
    m = MODELS["gemma-3n-e4b"]
    assert m == from_hf_config(config("gemma-3n-e4b"), slug=m.slug, name=m.name, source=m.source)
    assert (m.family, m.notes, m.sliding_layers, m.sliding_window) == ("Gemma", (), 28, 512)
    # Layers 21-35 (three periods of four sliding and one full) hold no cache: 16 sliding and 4
    # full layers do, each 2 x 2 KV heads x 256 x 2 bytes = 2,048 bytes a token.
    assert (m.kv_shared_layers, m.kv_shared_sliding_layers) == (15, 12)
    assert (m.cached_full_layers, m.cached_sliding_layers) == (4, 16)
    assert m.kv_bytes_per_token("fp16") == 20 * 2048
    for context in (8192, 32_768):
        assert m.kv_cache_bytes(context_tokens=context) == (4 * context + 16 * 512) * 2048
    # A decode step still reads a cache in all 35 layers: the sharing ones read their target's.
    assert m.kv_read_bytes(context_tokens=32_768) == (7 * 32_768 + 28 * 512) * 2048
    # vLLM gives the sharing layers no pages of their own.
    layout = vllm_layout(m)
    assert [(g.kind, g.layers) for g in layout.groups] == [("full attention", 4)] + [("sliding window", 4)] * 4


def test_gemma_3n_parameters_by_hand_and_against_googles_4b_core() -> None:
    m = MODELS["gemma-3n-e4b"]
    h, layers, ple, streams, rank = 2048, 35, 256, 4, 64
    decoder = layers * (2 * h * 8 * 256 + 2 * h * 2 * 256 + 3 * h * 16_384) + (2 * layers + 1) * h
    per_layer_table = 262_144 * layers * ple
    altup = 2 * h + streams**2 + streams**3 + h * streams
    auxiliary = h * layers * ple + ple + 2 * 3 * h * h + layers * (altup + 2 * h * rank + h + 2 * h * ple + h)
    assert (m.per_layer_embedding_params, m.auxiliary_params) == (per_layer_table, auxiliary)
    assert m.total_params == 262_400 * h + per_layer_table + decoder + auxiliary == 6_866_535_408
    # The per-layer table is gathered a row per token, never streamed.
    assert m.streamed_params_per_token == 262_400 * h + decoder + auxiliary
    assert m.weight_bytes("bf16") == 2 * m.total_params
    # "the core transformer weights (approximately ... 4B for E4B)": neither table.
    core = m.total_params - per_layer_table - m.embedding_params
    assert _within(core, SOURCES["gemma-3n-e4b"]["published_active_params"]["value"]), core / 1e9


def test_gemma_3n_survives_a_link_and_refuses_what_it_cannot_count() -> None:
    from roofline_core.models.config_code import model_from_code, read_model_config

    text = json.dumps(config("gemma-3n-e4b"))
    code = read_model_config(text)[0]
    assert ".ks-15." in code and ".vp-262144." in code and ".an-4." in code and ".lr-64" in code
    assert model_from_code(code) == from_hf_config(config("gemma-3n-e4b"))
    wrapped = config("gemma-3n-e4b")
    wrapped["text_config"]["num_kv_shared_layers"] = 35
    with pytest.raises(ConfigError, match="field 'num_kv_shared_layers' is 35; expected fewer than"):
        from_hf_config(wrapped)
    mixed = config("gemma-3n-e4b")
    mixed["text_config"]["intermediate_size"] = [8192] * 20 + [16_384] * 15  # a Mix-n-Match slice
    with pytest.raises(ConfigError, match="field 'intermediate_size' lists 35 values; expected one value"):
        from_hf_config(mixed)


def test_gemma_3n_without_a_window_shares_full_layers_only() -> None:
    text = {
        k: v for k, v in config("gemma-3n-e4b")["text_config"].items() if k not in ("sliding_window", "layer_types")
    }
    m = from_hf_config(text)
    assert (m.sliding_layers, m.kv_shared_layers, m.kv_shared_sliding_layers, m.cached_full_layers) == (0, 15, 0, 20)


def test_the_config_explainer_says_which_gemma_3n_layers_keep_a_cache() -> None:
    from roofline_core.calculators import compute

    result = compute("config-explainer", {"model_config": json.dumps(config("gemma-3n-e4b"))})
    text = json.dumps(result.outputs if hasattr(result, "outputs") else result, default=str)
    assert (
        "the last 15 read the KV cache of an earlier layer of their kind instead of their own, so 20 keep one" in text
    )


# Nemotron 3.5 (nemotron_h with layers_block_type) -------------------------------------------------

_BLOCKS = {"M": "mamba", "*": "attention", "-": "mlp", "E": "moe"}
#: NVIDIA-Nemotron-3.5-Lightning-30B-A3B's architecture fields, from NVIDIA's NVFP4 checkpoint
#: (https://github.com/ai-dynamo/aiconfigurator/blob/095f58a51c4ca8e61b66ec108d86f223f8d559ce/aic-core/src/aiconfigurator_core/model_configs/nvidia--NVIDIA-Nemotron-3.5-Lightning-30B-A3B-NVFP4_config.json):
#: the blocks listed by name, not as Nemotron 3 Nano's hybrid_override_pattern string.
NEMOTRON_35_LIGHTNING = {
    "model_type": "nemotron_h",
    "num_hidden_layers": 52,
    "layers_block_type": [_BLOCKS[c] for c in "MEMEM*EMEMEM*EMEMEM*EMEMEM*EMEMEM*EMEMEMEM*EMEMEMEME"],
    "hidden_size": 2688,
    "num_attention_heads": 32,
    "num_key_value_heads": 2,
    "head_dim": 128,
    "mamba_num_heads": 64,
    "mamba_head_dim": 64,
    "n_groups": 8,
    "ssm_state_size": 128,
    "conv_kernel": 4,
    "use_conv_bias": True,
    "n_routed_experts": 128,
    "num_experts_per_tok": 6,
    "moe_intermediate_size": 1856,
    "moe_shared_expert_intermediate_size": 3712,
    "n_shared_experts": 1,
    "intermediate_size": 1856,
    "vocab_size": 131072,
    "tie_word_embeddings": False,
    "mamba_ssm_cache_dtype": "float32",
    "mlp_hidden_act": "relu2",
    "moe_latent_size": None,
}


def test_nemotron_blocks_listed_by_name_read_as_the_pattern_string() -> None:
    from roofline_core.models.config_code import model_from_code, read_model_config

    m = from_hf_config(NEMOTRON_35_LIGHTNING)
    assert (m.family, m.recurrent_layers, m.attention_layers, m.moe_layers) == ("Nemotron", 23, 6, 23)
    as_string = {k: v for k, v in NEMOTRON_35_LIGHTNING.items() if k != "layers_block_type"}
    as_string["hybrid_override_pattern"] = "MEMEM*EMEMEM*EMEMEM*EMEMEM*EMEMEM*EMEMEMEM*EMEMEMEME"
    assert m == from_hf_config(as_string)
    # 23 Mamba-2 layers of 64 heads x 64 x 128 in FP32, convolution over x, B and C in BF16.
    assert m.state_bytes_per_sequence == 23 * (64 * 64 * 128 * 4 + (64 * 64 + 2 * 8 * 128) * 3 * 2)
    code = read_model_config(json.dumps(NEMOTRON_35_LIGHTNING))[0]
    assert model_from_code(code) == m
    with pytest.raises(ConfigError, match="field 'layers_block_type' holds 'ssm'"):
        from_hf_config({**NEMOTRON_35_LIGHTNING, "layers_block_type": ["ssm"] * 52})


def test_mimo_v2_flash_is_refused_for_its_own_sliding_layers() -> None:
    # XiaomiMiMo/MiMo-V2-Flash: 39 of 48 layers slide over 128 tokens with their own head counts
    # (https://github.com/ai-dynamo/aiconfigurator/blob/095f58a51c4ca8e61b66ec108d86f223f8d559ce/aic-core/src/aiconfigurator_core/model_configs/XiaomiMiMo--MiMo-V2-Flash_config.json).
    flash = {
        "model_type": "mimo_v2_flash",
        "num_hidden_layers": 48,
        "hidden_size": 4096,
        "num_attention_heads": 64,
        "num_key_value_heads": 4,
        "head_dim": 192,
        "intermediate_size": 16384,
        "vocab_size": 152576,
        "n_routed_experts": 256,
        "num_experts_per_tok": 8,
        "moe_intermediate_size": 2048,
        "sliding_window": 128,
        "hybrid_layer_pattern": [0, 1, 1, 1, 1, 0] + [1, 1, 1, 1, 1, 0] * 7,
        "swa_num_key_value_heads": 8,
    }
    with pytest.raises(ConfigError, match="it has 'hybrid_layer_pattern', a field of layers no known layout reads"):
        from_hf_config(flash)


def test_kimi_k3_is_refused_for_what_kimi_linear_does_not_have() -> None:
    # moonshotai/Kimi-K3 (kimi_k3 wrapping a kimi_linear text_config): 7,168 wide with 96 heads,
    # latent experts and attention residuals
    # (https://github.com/ai-dynamo/aiconfigurator/blob/095f58a51c4ca8e61b66ec108d86f223f8d559ce/aic-core/src/aiconfigurator_core/model_configs/moonshotai--Kimi-K3_config.json).
    from tests.roofline_core.test_layer_kinds import KIMI_LINEAR

    k3 = {**KIMI_LINEAR, "hidden_size": 7168, "num_attention_heads": 96, "num_key_value_heads": 96}
    k3 = {"model_type": "kimi_k3", "text_config": {**k3, "routed_expert_hidden_size": 3584, "attn_res_block_size": 12}}
    with pytest.raises(ConfigError, match=r"field 'routed_expert_hidden_size' \(latent experts\) is not modelled"):
        from_hf_config(k3)
    # Without them it reads: latent attention needs no hidden / heads head width.
    plain = {
        key: value
        for key, value in k3["text_config"].items()
        if key not in ("routed_expert_hidden_size", "attn_res_block_size")
    }
    assert from_hf_config(plain).head_dim == 128
