"""Hybrid, state-space and sparse-attention models: state bytes derived by hand per family, the
cache that grows only with the attention layers, sparse decode reads, and the config readers."""

from __future__ import annotations

import dataclasses
import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from roofline_core.calculators import compute
from roofline_core.estimates.inference import estimate_decode
from roofline_core.estimates.parts import KV_CACHE
from roofline_core.formatting import format_bytes, format_count
from roofline_core.hardware import ACCELERATORS
from roofline_core.models import MODELS
from roofline_core.models.attention import decode_attention_cost, prefill_attention_cost
from roofline_core.models.config_code import decode, model_from_code, read_model_config
from roofline_core.models.hf_config import ConfigError, from_hf_config
from roofline_core.models.layer_kinds import GATED_DELTANET, KDA, LIGHTNING, MAMBA1, MAMBA2
from roofline_core.models.preset_records import PRESET_RECORDS
from roofline_core.questions.pitfalls import linear_layers_as_attention, recurrent_state_as_kv_cache
from tests.support.hf_configs import config, config_text

# Kimi-Linear-48B-A3B's config.json fields (moonshotai/Kimi-Linear-48B-A3B-Instruct).
KIMI_LINEAR = {
    "model_type": "kimi_linear",
    "num_hidden_layers": 27,
    "hidden_size": 2304,
    "num_attention_heads": 32,
    "num_key_value_heads": 32,
    "intermediate_size": 9216,
    "vocab_size": 163840,
    "tie_word_embeddings": False,
    "kv_lora_rank": 512,
    "q_lora_rank": None,
    "qk_nope_head_dim": 128,
    "qk_rope_head_dim": 64,
    "v_head_dim": 128,
    "linear_attn_config": {
        "full_attn_layers": [4, 8, 12, 16, 20, 24, 27],
        "head_dim": 128,
        "kda_layers": [1, 2, 3, 5, 6, 7, 9, 10, 11, 13, 14, 15, 17, 18, 19, 21, 22, 23, 25, 26],
        "num_heads": 32,
        "short_conv_kernel_size": 4,
    },
    "num_experts": 256,
    "num_experts_per_token": 8,
    "num_shared_experts": 1,
    "moe_intermediate_size": 1024,
    "first_k_dense_replace": 1,
}

# A Granite 4.0-H-shaped config (the fields GraniteMoeHybridConfig names): 4 layers, one attends.
GRANITE_HYBRID = {
    "model_type": "granitemoehybrid",
    "num_hidden_layers": 4,
    "hidden_size": 1024,
    "num_attention_heads": 8,
    "num_key_value_heads": 2,
    "intermediate_size": 512,
    "shared_intermediate_size": 2048,
    "vocab_size": 1000,
    "layer_types": ["mamba", "mamba", "mamba", "attention"],
    "mamba_n_heads": 32,
    "mamba_d_head": 64,
    "mamba_n_groups": 1,
    "mamba_d_state": 128,
    "mamba_d_conv": 4,
    "num_local_experts": 8,
    "num_experts_per_tok": 2,
}

# A Falcon-H1-shaped config: every layer attends and runs Mamba-2 beside it.
FALCON_H1 = {
    "model_type": "falcon_h1",
    "num_hidden_layers": 4,
    "hidden_size": 1024,
    "num_attention_heads": 8,
    "num_key_value_heads": 2,
    "head_dim": 128,
    "intermediate_size": 2048,
    "vocab_size": 1000,
    "mamba_n_heads": 16,
    "mamba_d_head": 64,
    "mamba_n_groups": 1,
    "mamba_d_state": 256,
    "mamba_d_conv": 4,
}

JAMBA = MODELS["jamba-1.5-mini"]


# State bytes per sequence, derived by hand ----------------------------------------------------


def test_gated_deltanet_state_by_hand():
    # Qwen3.5 35B-A3B: 30 of 40 layers are Gated DeltaNet, 32 value heads of 128 x 128 in FP32
    # (mamba_ssm_dtype float32), plus the convolution's last 3 inputs over q, k and v
    # (2 x 16 x 128 + 32 x 128 channels) in BF16.
    model = MODELS["qwen3.5-35b-a3b"]
    assert model.recurrent.kind == GATED_DELTANET
    assert (model.recurrent_layers, model.attention_layers) == (30, 10)
    per_layer = 32 * 128 * 128 * 4 + (2 * 16 * 128 + 32 * 128) * 3 * 2
    assert model.state_bytes_per_sequence == 30 * per_layer == 64_389_120
    # Only the 10 gated-attention layers cache keys and values: 2 x 10 x 2 x 256 x 2 bytes.
    assert model.kv_bytes_per_token("fp16") == 2 * 10 * 2 * 256 * 2


def test_mamba2_state_by_hand():
    # Nemotron-H 56B: 54 Mamba-2 blocks (M) of 256 heads x 64 x state 256 in BF16, convolution over
    # x, B and C (256 x 64 + 2 x 8 x 256 channels) x 3; 10 attention blocks (*) with 8 KV heads.
    model = MODELS["nemotron-h-56b"]
    assert model.recurrent.kind == MAMBA2
    assert (model.layers, model.recurrent_layers, model.attention_layers) == (118, 54, 10)
    per_layer = 256 * 64 * 256 * 2 + (256 * 64 + 2 * 8 * 256) * 3 * 2
    assert model.state_bytes_per_sequence == 54 * per_layer == 459_620_352
    assert model.kv_bytes_per_token("fp16") == 2 * 10 * 8 * 128 * 2
    # Nemotron 3 Nano asks for an FP32 SSM state (mamba_ssm_cache_dtype float32).
    nano = MODELS["nemotron-3-nano-30b-a3b"]
    assert nano.state_bytes_per_sequence == 23 * (64 * 64 * 128 * 4 + (64 * 64 + 2 * 8 * 128) * 3 * 2)


def test_mamba1_state_by_hand():
    # Jamba 1.5 Mini: 28 of 32 layers are Mamba; inner width 2 x 4096, state 16, kernel 4, BF16.
    assert JAMBA.recurrent.kind == MAMBA1
    assert (JAMBA.recurrent_layers, JAMBA.attention_layers, JAMBA.moe_layers) == (28, 4, 16)
    assert JAMBA.state_bytes_per_sequence == 28 * (8192 * 16 * 2 + 8192 * 3 * 2) == 8_716_288


def test_kimi_delta_attention_state_by_hand():
    # Kimi Linear: 20 KDA layers of 32 heads x 128 x 128 in FP32 (vLLM's kda_state_dtype keeps
    # this state in float32 whatever the model's dtype), q, k and v convolved apiece in BF16;
    # 7 MLA layers.
    model = from_hf_config(KIMI_LINEAR)
    assert model.recurrent.kind == KDA
    assert (model.recurrent_layers, model.attention_layers) == (20, 7)
    assert model.state_bytes_per_sequence == 20 * (32 * 128 * 128 * 4 + 3 * 32 * 128 * 3 * 2)
    assert model.kv_bytes_per_token("fp16") == 7 * (512 + 64) * 2


def test_lightning_attention_state_by_hand():
    # MiniMax-Text-01: 70 of 80 layers are lightning attention, 64 heads of 128 x 128 in BF16 (vLLM
    # keeps this state in the model's dtype), with no convolution.
    model = MODELS["minimax-text-01"]
    assert model.recurrent.kind == LIGHTNING
    assert (model.recurrent_layers, model.attention_layers) == (70, 10)
    assert model.state_bytes_per_sequence == 70 * 64 * 128 * 128 * 2 == 146_800_640
    # "456 billion total parameters, of which 45.9 billion are activated": the activated count
    # leaves out the embedding table and the output head.
    assert model.total_params / 1e9 == pytest.approx(456, rel=0.01)
    activated = model.streamed_params_per_token - model.vocab_size * model.hidden_size
    assert abs(activated / 1e9 - 45.9) <= 0.05


def test_sparse_attention_cache_by_hand():
    # DeepSeek-V3.2: the MLA latent and rotary key per layer, plus the indexer's FP8 key of 128
    # values and one FP32 scale, in all 61 layers.
    model = MODELS["deepseek-v3.2"]
    assert model.kv_bytes_per_token("fp16") == 61 * ((512 + 64) * 2 + 128 + 4)
    assert model.state_bytes_per_sequence == 0
    # A decode step at 100k tokens reads 2,048 latents and every indexer key per layer.
    read = model.decode_cache_read_bytes(context_tokens=100_000, kv_dtype="fp16")
    assert read == 61 * ((512 + 64) * 2 * 2048 + 132 * 100_000)


def test_granite_and_falcon_layer_plans():
    granite = from_hf_config(GRANITE_HYBRID)
    assert (granite.recurrent_layers, granite.attention_layers) == (3, 1)
    assert granite.ffn_size == 2048 and granite.shared_experts == 1 and granite.moe_ffn_size == 512
    assert granite.state_bytes_per_sequence == 3 * (32 * 64 * 128 * 2 + (32 * 64 + 2 * 128) * 3 * 2)
    falcon = from_hf_config(FALCON_H1)
    assert falcon.parallel_hybrid and (falcon.recurrent_layers, falcon.attention_layers) == (4, 4)
    assert falcon.kv_bytes_per_token("fp16") == 2 * 4 * 2 * 128 * 2


# Parameter counts: the mixers' weights ------------------------------------------------------------


def test_a_hybrid_model_counts_its_recurrent_layers_weights_not_attention_ones():
    model = MODELS["qwen3.5-27b"]
    as_dense = dataclasses.replace(model, recurrent=None, recurrent_layers=0)
    # The dense twin has 64 gated-attention layers; the real model 16, and 48 Gated DeltaNets.
    assert model.mixer_params == 16 * model.attention_params_per_layer + 48 * model.recurrent.params(5120)
    assert as_dense.mixer_params == 64 * model.attention_params_per_layer
    # Gated attention: the query projection is twice as wide (query and output gate).
    assert model.attention_params_per_layer == 5120 * 24 * 256 * 3 + 2 * 5120 * 4 * 256


@pytest.mark.parametrize(
    ("slug", "total_billion", "active_billion"),
    [("qwen3-next-80b-a3b", 80, None), ("jamba-1.5-mini", None, 12)],
)
def test_presets_without_a_stored_config_match_their_quotes(slug, total_billion, active_billion):
    model = MODELS[slug]
    if total_billion is not None:
        assert model.total_params / 1e9 == pytest.approx(total_billion, rel=0.01)
    if active_billion is not None:
        # Published rounding: "12B" is 11.5 to 12.5.
        assert abs(model.active_params_per_token / 1e9 - active_billion) <= 0.5


# The cache grows with the attention layers only --------------------------------------------------

HYBRIDS = [
    "qwen3.5-35b-a3b",
    "qwen3.5-27b",
    "qwen3-next-80b-a3b",
    "nemotron-h-56b",
    "nemotron-3-nano-30b-a3b",
    "jamba-1.5-mini",
    "minimax-text-01",
]


@settings(max_examples=80, deadline=None)
@given(slug=st.sampled_from(HYBRIDS), tokens=st.integers(0, 2_000_000), batch=st.integers(1, 64))
def test_cache_and_state_grow_by_the_attention_layers_share_per_token(slug, tokens, batch):
    model = MODELS[slug]
    before = model.kv_cache_bytes(context_tokens=tokens, batch=batch)
    after = model.kv_cache_bytes(context_tokens=tokens + 1, batch=batch)
    # One more token adds exactly what the attention layers cache for it; the state stays.
    assert math.isclose(after - before, model.kv_bytes_per_token() * batch, rel_tol=1e-9)
    assert model.kv_cache_bytes(context_tokens=0, batch=batch) == model.state_bytes_per_sequence * batch
    share = model.attention_layers / model.layers
    assert math.isclose(model.kv_bytes_per_token(), share * 2 * model.layers * model.kv_heads * model.head_dim * 2)
    # The inverse takes the fixed state off first.
    if tokens:
        assert math.isclose(model.context_for_kv_bytes(kv_bytes=after, batch=batch), tokens + 1, rel_tol=1e-9)


def test_too_little_memory_for_the_state_fits_no_context():
    model = MODELS["nemotron-h-56b"]
    assert model.context_for_kv_bytes(kv_bytes=model.state_bytes_per_sequence * 2 - 1, batch=2) == 0


# Sparse attention reads less than its dense twin --------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(context=st.integers(4_096, 1_000_000), batch=st.integers(1, 32))
def test_sparse_decode_reads_less_than_its_dense_twin_at_long_context(context, batch):
    # Per layer and token the dense twin reads a 1,152-byte latent; the sparse model 1,152 bytes
    # for each of 2,048 tokens plus a 132-byte indexer key for every token: below the dense read
    # from about 2,300 tokens on.
    sparse = MODELS["deepseek-v3.2"]
    dense = dataclasses.replace(sparse, sparse_attention=None)
    h100 = ACCELERATORS["h100-sxm"]
    sparse_step = estimate_decode(model=sparse, accelerator=h100, batch=batch, context_tokens=context, devices=8)
    dense_step = estimate_decode(model=dense, accelerator=h100, batch=batch, context_tokens=context, devices=8)
    kv = dict(sparse_step.step.byte_parts)[KV_CACHE]
    assert kv < dict(dense_step.step.byte_parts)[KV_CACHE]
    if context >= 32_768:
        # The indexer's own weights (about 0.85B) cost less than the reads it saves by then.
        assert sparse_step.step.step_time_s < dense_step.step.step_time_s
    # The memory held is the same cache (plus the indexer keys): sparse attention saves reads, not memory.
    assert sparse.kv_cache_bytes(context_tokens=context) > dense.kv_cache_bytes(context_tokens=context)


def test_sparse_and_dense_agree_within_top_k():
    sparse = MODELS["deepseek-v3.2"]
    dense = dataclasses.replace(sparse, sparse_attention=None)
    # Below top_k every token is read; the sparse model also reads its indexer keys.
    assert sparse.decode_cache_read_bytes(context_tokens=2048) == sparse.growing_kv_cache_bytes(context_tokens=2048)
    assert dense.decode_cache_read_bytes(context_tokens=2048) < sparse.decode_cache_read_bytes(context_tokens=2048)


def test_sparse_attention_flops_by_hand():
    model = MODELS["deepseek-v3.2"]
    cost = decode_attention_cost(model, context_tokens=10_000)
    # Absorbed MLA over the top 2,048 tokens, and the indexer's 64 heads x 128 over all 10,000.
    assert cost.flops == 61 * (2 * 128 * (2 * 512 + 64) * 2048 + 2 * 64 * 128 * 10_000)


# A recurrent layer costs a decode step its state, read and written, at any context -----------------


def test_decode_reads_and_writes_the_state_every_step():
    model = MODELS["nemotron-h-56b"]
    h100 = ACCELERATORS["h100-sxm"]
    at_zero = estimate_decode(model=model, accelerator=h100, batch=4, context_tokens=0, devices=2)
    assert dict(at_zero.step.byte_parts)[KV_CACHE] == 2 * model.state_bytes_per_sequence * 4
    at_8k = model.decode_cache_read_bytes(context_tokens=8192, batch=4)
    assert at_8k == model.growing_kv_cache_bytes(context_tokens=8192, batch=4) + 2 * model.state_bytes_per_sequence * 4


def test_recurrent_layers_add_flops_linear_in_the_prompt():
    model = MODELS["qwen3.5-35b-a3b"]
    short = prefill_attention_cost(model, prompt_tokens=1000)
    dense = dataclasses.replace(model, recurrent=None, recurrent_layers=0)
    # Four times the attention layers in the dense twin: its quadratic term dominates a long prompt.
    assert (
        prefill_attention_cost(dense, prompt_tokens=100_000).flops
        > 3 * prefill_attention_cost(model, prompt_tokens=100_000).flops
    )
    recurrent = 30 * model.recurrent.prefill_flops_per_token() * 1000
    no_recurrent = dataclasses.replace(model, recurrent=None, recurrent_layers=0, mixer_free_layers=30)
    attention_only = prefill_attention_cost(no_recurrent, prompt_tokens=1000)
    assert short.flops == pytest.approx(recurrent + attention_only.flops)


# The calculators say which part is fixed -----------------------------------------------------------


def test_kv_calculator_names_the_fixed_state_and_the_growing_part():
    result = compute("kv-cache", {"model": "qwen3.5-35b-a3b", "context_tokens": 32768, "devices": 1})
    outputs = result["outputs"]
    assert outputs["state_bytes_per_sequence"]["value"] == MODELS["qwen3.5-35b-a3b"].state_bytes_per_sequence
    assert "whatever the context" in outputs["state_bytes_per_sequence"]["text"]
    assert "10 of 40 layers that attend" in outputs["kv_bytes_per_token"]["text"]
    dense = compute("kv-cache", {"model": "llama-3.1-8b"})["outputs"]["state_bytes_per_sequence"]
    assert dense["value"] == 0 and dense["text"].startswith("none")


def test_the_chart_bends_for_a_hybrid_model():
    result = compute("kv-cache", {"model": "nemotron-h-56b", "context_tokens": 8192, "devices": 4})
    curve = result["chart"]["curve"]
    # The curve starts at the fixed state, not at zero, then grows linearly.
    state = MODELS["nemotron-h-56b"].state_bytes_per_sequence
    (t0, y0), (t1, y1) = curve[0], curve[-1]
    assert y0 > state * 0.99 and (y1 - y0) / (t1 - t0) < y0 / t0


def test_config_explainer_describes_recurrent_and_sparse_layers():
    rows = compute("config-explainer", {"model_config": config_text("nemotron-h-56b")})["table"]
    plan = next(r for r in rows if r["field"]["text"] == "hybrid_override_pattern")
    assert plan["sets"]["text"].startswith("54 of 118 layers are Mamba-2")
    # 64 blocks mix tokens (54 Mamba-2, 10 attention); the other 54 are MLPs and would cache nothing.
    model = MODELS["nemotron-h-56b"]
    as_attention = format_bytes(model.kv_bytes_per_token() / 10 * 64 * 32768)
    assert f"against {as_attention} if every layer kept keys and values" in plan["effect"]["text"]
    # 54 '-' blocks hold a squared-ReLU MLP of two matrices; the M and * blocks none.
    mlp = next(r for r in rows if r["field"]["text"] == "intermediate_size")
    assert mlp["effect"]["text"].startswith(f"54 dense MLP layers × {format_count(2 * 8192 * 32768)}")
    rows = compute("config-explainer", {"model_config": config_text("deepseek-v3.2")})["table"]
    sparse = next(r for r in rows if r["field"]["text"].startswith("index_topk"))
    assert "best 2,048" in sparse["sets"]["text"]


def test_pitfalls_on_a_hybrid_model():
    model = MODELS["qwen3.5-27b"]
    counted = linear_layers_as_attention(model, context_tokens=262_144, kv_dtype="fp16")
    assert counted.applies and counted.factor == pytest.approx(
        (4 * model.growing_kv_cache_bytes(context_tokens=262_144)) / model.kv_cache_bytes(context_tokens=262_144)
    )
    state = recurrent_state_as_kv_cache(model, context_tokens=262_144, kv_dtype="fp16")
    assert state.applies and state.factor > 1
    dense = MODELS["llama-3.1-8b"]
    assert not linear_layers_as_attention(dense, context_tokens=1000, kv_dtype="fp16").applies
    assert not recurrent_state_as_kv_cache(dense, context_tokens=1000, kv_dtype="fp16").applies


# Reading configs, and links that carry them ---------------------------------------------------------


def _record(slug: str) -> dict:
    """A preset's stored config fields."""
    return dict(next(r for r in PRESET_RECORDS if r["slug"] == slug)["config"])


@pytest.mark.parametrize(
    "fields",
    [
        KIMI_LINEAR,
        GRANITE_HYBRID,
        FALCON_H1,
        config("nemotron-h-56b"),
        _record("jamba-1.5-mini"),
        _record("minimax-text-01"),
    ],
)
def test_a_hybrid_config_survives_a_link(fields):
    code, read = read_model_config(json.dumps(fields))
    assert decode(code) == read
    shape = dataclasses.asdict(model_from_code(code))
    expected = dataclasses.asdict(from_hf_config(fields))
    for key in ("slug", "name", "source"):
        shape.pop(key), expected.pop(key)
    assert shape == expected


def test_jamba_dt_rank_auto_is_hidden_over_16():
    fields = {**_record("jamba-1.5-mini"), "mamba_dt_rank": "auto"}
    assert from_hf_config(fields).recurrent.dt_rank == 4096 // 16
    code, _ = read_model_config(json.dumps(fields))
    assert "dr-auto" in code and model_from_code(code).recurrent.dt_rank == 256


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"hybrid_override_pattern": "M-M"}, "field 'hybrid_override_pattern' is 'M-M'; expected 118 characters"),
        ({"moe_latent_size": 1024}, "field 'moe_latent_size' (latent experts) is not modelled"),
        ({"mamba_ssm_cache_dtype": "float8"}, "field 'mamba_ssm_cache_dtype' is 'float8'; expected one of"),
    ],
)
def test_bad_nemotron_fields_are_named(change, message):
    with pytest.raises(ConfigError, match=message.replace("(", r"\(").replace(")", r"\)")):
        from_hf_config({**config("nemotron-h-56b"), **change})


@pytest.mark.parametrize(
    ("base", "change", "message"),
    [
        (
            KIMI_LINEAR,
            {"linear_attn_config": {"head_dim": 128, "num_heads": 32, "kda_layers": [0, 99]}},
            "must list layer numbers 1..27",
        ),
        (KIMI_LINEAR, {"linear_attn_config": None}, "field 'linear_attn_config' is missing"),
        (GRANITE_HYBRID, {"layer_types": ["mamba"] * 3 + ["cross"]}, "holds 'cross'; expected mamba or attention"),
        (GRANITE_HYBRID, {"layer_types": None}, "field 'layer_types' is missing"),
        (_record("minimax-text-01"), {"attn_type_list": [0, 2] * 40}, "must list 80 layers of 0 (lightning) or 1"),
        (GRANITE_HYBRID, {"layer_types": ["mamba"] * 5}, "lists 5 layers; expected num_hidden_layers (4)"),
    ],
)
def test_bad_hybrid_fields_are_named(base, change, message):
    with pytest.raises(ConfigError) as caught:
        from_hf_config({**base, **change})
    assert message in str(caught.value)


def test_figure_labels_name_the_layer_kinds():
    from roofline_core.figures._common import model_label

    assert model_label(MODELS["qwen3.5-35b-a3b"]) == "Qwen3.5 35B-A3B (GQA + Gated DeltaNet)"
    assert model_label(MODELS["nemotron-h-56b"]) == "Nemotron-H 56B (GQA + Mamba-2)"
    assert model_label(MODELS["deepseek-v3.2"]) == "DeepSeek-V3.2 (MLA + DSA)"
    assert model_label(MODELS["llama-3-8b"]) == "Llama 3 8B (GQA)"
