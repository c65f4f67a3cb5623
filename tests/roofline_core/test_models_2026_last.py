"""The last 2025-26 model types and presets (issue 38): GLM-5's sparse attention, ..., each read
from its published config and checked against its publisher's counts and a hand derivation."""

from __future__ import annotations

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


# DeepSeek-V4 (deepseek_v4): refused, naming what is not modelled ------------------------------

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
def test_deepseek_v4_is_refused_for_its_compressed_attention(extra: dict) -> None:
    # With an intermediate_size its fields would pass for a DeepSeek-style MoE with one KV head
    # of 512 on every layer: a cache 4 to 128 times the compressed one. Refused instead.
    with pytest.raises(ConfigError, match=r"it has 'compress_ratios', a field of layers no known layout reads"):
        from_hf_config({**DEEPSEEK_V4_FLASH, **extra})


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
