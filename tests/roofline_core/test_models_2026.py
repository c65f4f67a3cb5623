"""The 2025-26 (non-hybrid) model types: their configs read, the new presets against their
publishers, Llama 4's chunks, gpt-oss's sinks, multi-token-prediction modules, and the reader's
fallback for a model_type it does not know."""

from __future__ import annotations

import dataclasses
import json

import pytest

from roofline_core.estimates.inference import estimate_decode
from roofline_core.estimates.speculative import DRAFT_HEAD, estimate_speculative_decode
from roofline_core.hardware import get_accelerator
from roofline_core.models import MODELS
from roofline_core.models.attention import decode_attention_cost, prefill_attention_cost
from roofline_core.models.config_code import read_model_config
from roofline_core.models.hf_config import FALLBACK_FAMILY, ConfigError, from_hf_config
from tests.roofline_core.test_hf_config import _within
from tests.support.hf_configs import config as _config

# Configs of the other 2025-26 types, read field for field ----------------------------------

#: GLM-4.5-Air's published config.json (zai-org/GLM-4.5-Air), the fields the reader takes.
GLM_45_AIR = {
    "model_type": "glm4_moe",
    "num_hidden_layers": 46,
    "hidden_size": 4096,
    "num_attention_heads": 96,
    "num_key_value_heads": 8,
    "head_dim": 128,
    "intermediate_size": 10944,
    "vocab_size": 151552,
    "tie_word_embeddings": False,
    "attention_bias": True,
    "n_routed_experts": 128,
    "num_experts_per_tok": 8,
    "moe_intermediate_size": 1408,
    "n_shared_experts": 1,
    "first_k_dense_replace": 1,
    "num_nextn_predict_layers": 1,
}
#: ERNIE-4.5-21B-A3B (baidu/ERNIE-4.5-21B-A3B-PT): experts on layers 1 to 27.
ERNIE_45_21B = {
    "model_type": "ernie4_5_moe",
    "hidden_size": 2560,
    "intermediate_size": 12288,
    "moe_intermediate_size": 1536,
    "num_hidden_layers": 28,
    "num_attention_heads": 20,
    "num_key_value_heads": 4,
    "head_dim": 128,
    "moe_num_experts": 64,
    "moe_num_shared_experts": 2,
    "moe_k": 6,
    "moe_layer_start_index": 1,
    "moe_layer_end_index": 27,
    "moe_layer_interval": 1,
    "vocab_size": 103424,
    "tie_word_embeddings": True,
    "use_bias": False,
}
#: SmolLM3-3B (HuggingFaceTB/SmolLM3-3B): a Llama layout, every fourth layer without RoPE.
SMOLLM3_3B = {
    "model_type": "smollm3",
    "num_hidden_layers": 36,
    "hidden_size": 2048,
    "intermediate_size": 11008,
    "num_attention_heads": 16,
    "num_key_value_heads": 4,
    "vocab_size": 128256,
    "tie_word_embeddings": True,
    "no_rope_layers": [1, 1, 1, 0] * 9,
    "use_sliding_window": False,
}
#: MiMo-7B-Base (XiaomiMiMo/MiMo-7B-Base): Qwen2's attention and one MTP layer.
MIMO_7B = {
    "model_type": "mimo",
    "num_hidden_layers": 36,
    "hidden_size": 4096,
    "num_attention_heads": 32,
    "num_key_value_heads": 8,
    "head_dim": 128,
    "intermediate_size": 11008,
    "vocab_size": 151680,
    "attention_bias": True,
    "sliding_window": 32768,
    "use_sliding_window": False,
    "num_nextn_predict_layers": 1,
    "tie_word_embeddings": False,
}
#: Ministral 3 3B (mistralai/Ministral-3-3B-Instruct-2512): the language model inside a wrapper.
MINISTRAL_3_3B = {
    "model_type": "mistral3",
    "text_config": {
        "model_type": "ministral3",
        "head_dim": 128,
        "hidden_size": 3072,
        "intermediate_size": 9216,
        "num_attention_heads": 32,
        "num_hidden_layers": 26,
        "num_key_value_heads": 8,
        "sliding_window": None,
        "tie_word_embeddings": True,
        "vocab_size": 131072,
    },
    "vision_config": {"model_type": "pixtral", "hidden_size": 1024, "num_hidden_layers": 24},
}
#: OLMo 3 7B (allenai/Olmo-3-1025-7B): three sliding layers of four, over 4,096 tokens.
OLMO_3_7B = {
    "model_type": "olmo3",
    "num_hidden_layers": 32,
    "hidden_size": 4096,
    "num_attention_heads": 32,
    "num_key_value_heads": 32,
    "intermediate_size": 11008,
    "vocab_size": 100278,
    "tie_word_embeddings": False,
    "sliding_window": 4096,
    "layer_types": ["sliding_attention", "sliding_attention", "sliding_attention", "full_attention"] * 8,
}


def _gqa_attention(h: int, heads: int, kv: int, d: int, *, qkv_bias: bool = False) -> int:
    return 2 * h * heads * d + 2 * h * kv * d + ((heads + 2 * kv) * d if qkv_bias else 0)


def test_glm_45_air_reads_as_a_deepseek_style_moe_with_grouped_query_attention() -> None:
    m = from_hf_config(GLM_45_AIR)
    assert (m.family, m.attention, m.experts, m.experts_per_token, m.shared_experts) == ("GLM", "gqa", 128, 8, 1)
    assert (m.dense_layers, m.moe_layers, m.mtp_layers) == (1, 45, 1)
    # attention_bias covers q, k and v only: GLM's output projection has no bias.
    assert m.qkv_bias and not m.out_bias
    assert m.attention_params_per_layer == _gqa_attention(4096, 96, 8, 128, qkv_bias=True)
    # "106 billion total parameters and 12 billion active" (transformers glm4_moe docs).
    assert _within(m.total_params, "106B")
    assert _within(m.streamed_params_per_token - m.vocab_size * m.hidden_size, "12B")
    assert m.kv_bytes_per_token() == 2 * 46 * 8 * 128 * 2


def test_ernie_45_experts_sit_on_their_layer_range_with_wide_shared_experts() -> None:
    m = from_hf_config(ERNIE_45_21B)
    assert (m.family, m.moe_layers, m.dense_layers, m.experts, m.experts_per_token) == ("ERNIE", 27, 1, 64, 6)
    h = 2560
    per_moe_layer = 6 * 3 * h * 1536 + 2 * 3 * h * 1536 + h * 64
    hand = 103424 * h + 28 * _gqa_attention(h, 20, 4, 128) + 3 * h * 12288 + 27 * per_moe_layer + (2 * 28 + 1) * h
    assert m.active_params_per_token == hand  # tied: the table is the head, counted once
    # -1 means "to the last layer", as an absent end index does.
    assert from_hf_config({**ERNIE_45_21B, "moe_layer_end_index": -1}) == m
    assert (
        read_model_config(json.dumps({**ERNIE_45_21B, "moe_layer_end_index": -1}))[0]
        == read_model_config(json.dumps({k: v for k, v in ERNIE_45_21B.items() if k != "moe_layer_end_index"}))[0]
    )


@pytest.mark.parametrize(
    ("config", "family", "total"),
    [
        (SMOLLM3_3B, "SmolLM", "3.08B"),
        (MINISTRAL_3_3B, "Mistral", "3.4B"),
        (OLMO_3_7B, "OLMo", "7.3B"),
    ],
)
def test_dense_2025_types_read_as_llama_style_decoders(config: dict, family: str, total: str) -> None:
    m = from_hf_config(config)
    assert m.family == family and not m.is_moe and not m.notes
    assert _within(m.total_params, total), m.total_params / 1e9


def test_olmo_3_slides_three_layers_of_four() -> None:
    m = from_hf_config(OLMO_3_7B)
    assert (m.sliding_layers, m.sliding_window, m.chunked_attention) == (24, 4096, False)
    per_layer_token = 2 * 32 * 128 * 2
    assert m.kv_cache_bytes(context_tokens=65536) == (8 * 65536 + 24 * 4096) * per_layer_token


def test_mimo_is_qwen2_attention_with_one_mtp_layer() -> None:
    m = from_hf_config(MIMO_7B)
    h = 4096
    attention = _gqa_attention(h, 32, 8, 128, qkv_bias=True)
    assert (m.family, m.qkv_bias, m.out_bias, m.sliding_layers) == ("MiMo", True, False, 0)
    # One module: a dense layer (attention, MLP, two norms), the 2h -> h projection, three norms.
    module = attention + 3 * h * 11008 + 2 * h + 2 * h * h + 3 * h
    assert m.mtp_params == module
    assert m.held_params == m.total_params + module
    assert m.weight_bytes("bf16") == 2 * m.held_params
    assert (
        m.streamed_params_per_token
        == from_hf_config({**MIMO_7B, "num_nextn_predict_layers": 0}).streamed_params_per_token
    )


# Multi-token prediction: held, not streamed, drafted with ------------------------------------


def test_deepseek_v3_mtp_module_is_held_and_matches_the_685b_checkpoint() -> None:
    full = from_hf_config(_config("deepseek-v3"))  # the published config: num_nextn_predict_layers 1
    preset = MODELS["deepseek-v3"]
    assert full.mtp_layers == 1 and preset.mtp_layers == 0
    # "671B" stays the main model; the module is one MoE layer plus its projection and norms.
    assert full.total_params == preset.total_params
    h = 7168
    module = full.attention_params_per_layer + 256 * 3 * h * 2048 + 3 * h * 2048 + h * 256 + 2 * h + 2 * h * h + 3 * h
    assert full.mtp_params == module
    # The README's 685B also holds the module's own copies of the embedding and head (2 x 0.93B).
    assert _within(full.held_params + 2 * 129280 * h, "685B")
    assert full.streamed_params_per_token == preset.streamed_params_per_token
    # Memory holds the module: 16-bit weights, and FP8 ones with the router and norms in 16 bits.
    assert full.weight_bytes("bf16") - preset.weight_bytes("bf16") == 2 * module
    plain = from_hf_config({k: v for k, v in _config("deepseek-v3").items() if k != "quantization_config"})
    sixteen_bit = 256 * h + 5 * h
    assert plain.weight_bytes("fp8") - preset.weight_bytes("fp8") == (module - sixteen_bit) + 2 * sixteen_bit


def test_an_mtp_draft_reads_its_module_not_an_average_layer() -> None:
    mimo = from_hf_config(MIMO_7B)
    assert mimo.mtp_streamed_params_per_draft == mimo.mtp_params + 151680 * 4096
    chip = get_accelerator("h100-sxm")
    common = {"accelerator": chip, "draft_kind": DRAFT_HEAD, "draft_tokens": 2, "acceptance_rate": 0.7}
    with_mtp = estimate_speculative_decode(model=mimo, **common)
    without = estimate_speculative_decode(model=from_hf_config({**MIMO_7B, "num_nextn_predict_layers": 0}), **common)
    assert with_mtp.draft_step_s > without.draft_step_s  # the module carries its own projection
    assert with_mtp.draft_step_s == pytest.approx(
        mimo.mtp_streamed_params_per_draft * 2 / chip.bandwidth_bytes_per_s, rel=1e-9
    )


# Attention sinks ------------------------------------------------------------------------------


def test_gpt_oss_holds_one_sink_per_query_head_per_layer() -> None:
    model = MODELS["gpt-oss-120b"]
    assert model.attention_sinks and from_hf_config(_config("gpt-oss-120b")).attention_sinks
    without = dataclasses.replace(model, attention_sinks=False)
    assert model.total_params - without.total_params == 36 * 64  # 36 layers, 64 query heads
    assert model.streamed_params_per_token - without.streamed_params_per_token == 36 * 64
    # Sinks are logits, not tokens: the cache is unchanged.
    assert model.kv_bytes_per_token() == without.kv_bytes_per_token()


# Llama 4's chunks -----------------------------------------------------------------------------

SCOUT_TOKEN_LAYER_BYTES = 2 * 8 * 128 * 2  # K and V, 8 KV heads of 128, 2 bytes


@pytest.mark.parametrize(
    ("context", "chunk_tokens"),
    [
        (1000, 1000),  # inside the first chunk: like a window
        (8191, 8191),  # the last token of the first chunk sees 8,191 earlier ones
        (8192, 0),  # the token after a full chunk starts a new one: it sees none
        (65536, 0),
        (70000, 70000 - 8 * 8192),
    ],
)
def test_llama_4_reads_only_the_current_chunk(context: int, chunk_tokens: int) -> None:
    scout = MODELS["llama-4-scout"]
    assert scout.chunked_attention and scout.local_tokens_read(context) == chunk_tokens
    read = (12 * context + 36 * chunk_tokens) * SCOUT_TOKEN_LAYER_BYTES
    assert scout.kv_read_bytes(context_tokens=context) == read
    # Memory still allows a whole chunk per layer: the most the sequence has held.
    held = (12 * context + 36 * min(context, 8192)) * SCOUT_TOKEN_LAYER_BYTES
    assert scout.kv_cache_bytes(context_tokens=context) == held
    flops = decode_attention_cost(scout, context_tokens=context).flops
    assert flops == 4 * 40 * 128 * (12 * context + 36 * chunk_tokens)
    estimate = estimate_decode(model=scout, accelerator=get_accelerator("h100-sxm"), context_tokens=context)
    assert estimate.kv_bytes == read


def test_llama_4_prefill_is_a_causal_square_per_chunk() -> None:
    scout = MODELS["llama-4-scout"]
    prompt, chunk = 20_000, 8192
    chunked_pairs = 2 * chunk * (chunk + 1) / 2 + (prompt - 2 * chunk) * (prompt - 2 * chunk + 1) / 2
    full_pairs = prompt * (prompt + 1) / 2
    per_pair = 2 * 40 * (128 + 128)
    cost = prefill_attention_cost(scout, prompt_tokens=prompt)
    assert cost.flops == per_pair * (12 * full_pairs + 36 * chunked_pairs)


def test_a_layer_types_list_with_chunks_marks_them_chunked_and_refuses_a_mix() -> None:
    base = {**_config("llama-3.1-8b"), "sliding_window": 4096}
    chunked = from_hf_config({**base, "layer_types": ["chunked_attention", "full_attention"] * 16})
    assert chunked.chunked_attention and chunked.sliding_layers == 16
    mixed = ["chunked_attention", "sliding_attention"] * 16
    with pytest.raises(ConfigError, match="mixes sliding_attention and chunked_attention; expected one kind"):
        from_hf_config({**base, "layer_types": mixed})


# A model_type this project does not know --------------------------------------------------------


def test_an_unknown_llama_style_type_is_read_as_llama_with_a_note() -> None:
    base = _config("llama-3.1-8b")
    known = from_hf_config(base)
    unknown = from_hf_config({**base, "model_type": "acme_decoder"})
    assert unknown.total_params == known.total_params
    assert unknown.kv_bytes_per_token() == known.kv_bytes_per_token()
    assert unknown.family == FALLBACK_FAMILY
    assert len(unknown.notes) == 1 and "'acme_decoder' is not one this project knows" in unknown.notes[0]
    assert "read as llama" in unknown.notes[0]
    assert not known.notes


def test_an_unknown_deepseek_style_moe_is_read_by_that_layout() -> None:
    renamed = {**GLM_45_AIR, "model_type": "glm4_5_next"}
    model = from_hf_config(renamed)
    assert model.total_params == from_hf_config(GLM_45_AIR).total_params
    assert "read as glm4_moe" in model.notes[0]
    mla = {**_config("deepseek-v3"), "model_type": "deepseek_v9"}
    assert from_hf_config(mla).kv_bytes_per_token() == MODELS["deepseek-v3"].kv_bytes_per_token()


@pytest.mark.parametrize(
    ("config", "message"),
    [
        ({"model_type": "bert"}, "it lacks num_hidden_layers, hidden_size"),
        (
            {**_config("llama-3.1-8b"), "model_type": "acme_hybrid", "mamba_d_state": 128},
            "it has 'mamba_d_state', a field of layers no known layout reads",
        ),
        (
            # An unknown type with Gemma 3n's alternating updates and per-layer embeddings (Gemma
            # 3n itself is read since issue 38's last models).
            {
                "model_type": "acme_matformer",
                "text_config": {
                    **{k: v for k, v in _config("llama-3.1-8b").items() if k != "model_type"},
                    "model_type": "acme_matformer_text",
                    "altup_num_inputs": 4,
                    "laurel_rank": 64,
                    "hidden_size_per_layer_input": 256,
                },
            },
            "it has 'altup_num_inputs', a field of layers no known layout reads",
        ),
    ],
)
def test_a_config_matching_no_layout_is_refused_saying_why(config: dict, message: str) -> None:
    with pytest.raises(ConfigError) as caught:
        from_hf_config(config)
    text = str(caught.value)
    assert "is not supported, and its fields match no known layout" in text and message in text
    assert "expected one of" in text and "Llama-style decoder" in text


# Gemma 4: full-attention layers of their own shape ------------------------------------------------

#: Gemma 4 26B-A4B's text_config (google/gemma-4-26B-A4B): experts beside a dense MLP.
GEMMA_4_26B_A4B = {
    "model_type": "gemma4",
    "text_config": {
        "model_type": "gemma4_text",
        "num_hidden_layers": 30,
        "hidden_size": 2816,
        "num_attention_heads": 16,
        "num_key_value_heads": 8,
        "head_dim": 256,
        "global_head_dim": 512,
        "num_global_key_value_heads": 2,
        "attention_k_eq_v": True,
        "intermediate_size": 2112,
        "moe_intermediate_size": 704,
        "enable_moe_block": True,
        "num_experts": 128,
        "top_k_experts": 8,
        "vocab_size": 262144,
        "tie_word_embeddings": True,
        "sliding_window": 1024,
        "layer_types": (["sliding_attention"] * 5 + ["full_attention"]) * 5,
        "num_kv_shared_layers": 0,
        "hidden_size_per_layer_input": 0,
    },
}


def test_gemma_4_31b_full_layers_have_wider_heads_fewer_kv_heads_and_no_value_projection() -> None:
    m = MODELS["gemma-4-31b"]
    h = 5376
    sliding = 2 * h * 32 * 256 + 2 * h * 16 * 256  # q and o; k and v
    full = 2 * h * 32 * 512 + h * 4 * 512  # q and o; k alone (values come from the keys)
    assert (m.sliding_layers, m.full_layer_head_dim, m.full_layer_kv_heads) == (50, 512, 4)
    assert m.attention_params == 50 * sliding + 10 * full
    assert m.total_params == 262144 * h + 50 * sliding + 10 * full + 60 * 3 * h * 21504 + (2 * 60 + 1) * h
    # The cache still holds keys and values: 2 x 4 x 512 per full layer, 2 x 16 x 256 per sliding one.
    assert m.kv_bytes_per_token() == (10 * 2 * 4 * 512 + 50 * 2 * 16 * 256) * 2
    assert m.kv_cache_bytes(context_tokens=32768) == (10 * 2 * 4 * 512 * 32768 + 50 * 2 * 16 * 256 * 1024) * 2
    size = m.kv_cache_bytes(context_tokens=100_000, batch=3)
    assert m.context_for_kv_bytes(kv_bytes=size, batch=3) == pytest.approx(100_000)
    flops = decode_attention_cost(m, context_tokens=32768).flops
    assert flops == 10 * 4 * 32 * 512 * 32768 + 50 * 4 * 32 * 256 * 1024
    prefill = prefill_attention_cost(m, prompt_tokens=2048).flops
    full_pairs, window_pairs = 2048 * 2049 / 2, 1024 * 1025 / 2 + 1024 * 1024
    assert prefill == 10 * 2 * 32 * (512 + 512) * full_pairs + 50 * 2 * 32 * (256 + 256) * window_pairs


def test_gemma_4_26b_a4b_keeps_its_dense_mlp_beside_the_experts() -> None:
    m = from_hf_config(GEMMA_4_26B_A4B)
    h = 2816
    assert (m.family, m.experts, m.experts_per_token, m.moe_layers) == ("Gemma", 128, 8, 30)
    per_layer_active = 3 * h * 2112 + 8 * 3 * h * 704 + h * 128  # dense MLP, 8 experts, router
    attention = 25 * (2 * h * 16 * 256 + 2 * h * 8 * 256) + 5 * (2 * h * 16 * 512 + h * 2 * 512)
    assert m.streamed_params_per_token == 262144 * h + attention + 30 * per_layer_active + 61 * h
    # "26B-A4B": 3.8B of it active; the language model alone is 25.2B (the vision tower is not counted).
    assert _within(m.active_params_per_token, "4B")
    assert 25.0e9 < m.total_params < 25.5e9


@pytest.mark.parametrize("key", ["num_kv_shared_layers", "hidden_size_per_layer_input"])
def test_the_small_gemma_4_models_are_refused_saying_what_is_not_counted(key: str) -> None:
    config = json.loads(json.dumps(GEMMA_4_26B_A4B))
    config["text_config"][key] = 20
    with pytest.raises(ConfigError, match=rf"field '{key}' is 20; expected 0 \(the smaller Gemma 4 models"):
        from_hf_config(config)


# The config explainer says what the reader found ----------------------------------------------------


def _explained(config: dict, context: int = 70000) -> dict[str, dict]:
    from roofline_core.calculators import compute

    result = compute("config-explainer", {"model_config": json.dumps(config), "context_tokens": str(context)})
    assert result["errors"] == {}
    return {row["field"].get("term") or row["field"]["text"]: row for row in result["table"]}


def test_the_explainer_says_chunks_mtp_sinks_and_the_fallback() -> None:
    chunks = _explained(_config("llama-4-scout"))["sliding-window-attention"]
    assert chunks["sets"]["text"].startswith("36 of 48 layers attend within chunks of 8,192 tokens")
    assert "its chunk holding 4,464 tokens" in chunks["effect"]["text"]
    mtp = _explained(_config("deepseek-v3"))["multi-token-prediction"]
    assert mtp["sets"]["text"].startswith("1 multi-token-prediction module:")
    assert "reads none of it unless it drafts" in mtp["effect"]["text"]
    assert "attention-sinks" in _explained(_config("gpt-oss-20b"))
    fallback = _explained({**_config("llama-3.1-8b"), "model_type": "acme_decoder"})["model_type"]
    assert "'acme_decoder' is not one this project knows" in fallback["sets"]["text"]


#: Hunyuan-A13B (tencent/Hunyuan-A13B-Instruct): expert fields repeated per layer.
HUNYUAN_A13B = {
    "model_type": "hunyuan_v1_moe",
    "hidden_size": 4096,
    "num_hidden_layers": 32,
    "num_attention_heads": 32,
    "num_key_value_heads": 8,
    "head_dim": 128,
    "intermediate_size": 3072,
    "vocab_size": 128167,
    "num_experts": 64,
    "moe_intermediate_size": [3072] * 32,
    "moe_topk": [8] * 32,
    "num_shared_expert": [1] * 32,
    "use_mixed_mlp_moe": True,
    "tie_word_embeddings": True,
}


def test_hunyuan_a13b_reads_its_per_layer_expert_fields() -> None:
    m = from_hf_config(HUNYUAN_A13B)
    assert (m.family, m.experts, m.experts_per_token, m.shared_experts, m.moe_layers) == ("Hunyuan", 64, 8, 1, 32)
    h = 4096
    per_layer = 64 * 3 * h * 3072 + 3 * h * 3072 + h * 64
    assert m.total_params == 128167 * h + 32 * _gqa_attention(h, 32, 8, 128) + 32 * per_layer + 65 * h
    assert _within(m.total_params, "80B")  # "80B total" (the card's 13B active counts more than this)
    # A link carries one value for a field repeated per layer, and gives the same model.
    code, fields = read_model_config(json.dumps(HUNYUAN_A13B))
    assert fields["moe_topk"] == 8 and "ht-8" in code
    varied = {**HUNYUAN_A13B, "moe_topk": [8] * 31 + [4]}
    with pytest.raises(ConfigError, match="field 'moe_topk' lists 32 values; expected one value repeated"):
        from_hf_config(varied)


def test_the_sliding_window_pitfall_says_chunks_for_llama_4() -> None:
    from roofline_core.questions.pitfalls import sliding_window_ignored

    scout = sliding_window_ignored(MODELS["llama-4-scout"], context_tokens=65536, kv_dtype="fp16")
    assert scout.why == "36 of 48 layers attend within 8,192-token chunks, so they hold one chunk at most"
    short = sliding_window_ignored(MODELS["llama-4-scout"], context_tokens=4096, kv_dtype="fp16")
    assert "fits in the 8,192-token chunk" in short.why
    gemma = sliding_window_ignored(MODELS["gemma-3-27b"], context_tokens=65536, kv_dtype="fp16")
    assert gemma.why == "52 of 62 layers keep only the last 1,024 tokens"
