"""The pitfalls gallery's numbers, against hand derivations from each model's config.json."""

from __future__ import annotations

import pytest

from roofline_core.calculators import compute
from roofline_core.hardware import ACCELERATORS
from roofline_core.hardware.block_formats import BLOCK_FORMATS
from roofline_core.models import MODELS
from roofline_core.questions.pitfalls import (
    block_scales_ignored,
    gib_read_as_gb,
    kv_with_query_heads,
    moe_memory_from_active,
    sliding_window_ignored,
    sparse_peak_for_dense_model,
)


def test_block_formats_cost_their_struct_bytes_per_weight() -> None:
    # ggml-common.h: block_mxfp4 is 1 + 16 bytes per 32 weights, block_nvfp4 4 + 32 per 64,
    # block_q4_0 2 + 16 per 32, block_q4_K 2 + 2 + 12 + 128 per 256, block_q8_0 2 + 32 per 32.
    expected_bits = {
        "mxfp4": 17 * 8 / 32,
        "nvfp4": 36 * 8 / 64,
        "q4_0": 18 * 8 / 32,
        "q4_k": 144 * 8 / 256,
        "q8_0": 34 * 8 / 32,
    }
    assert {slug: f.bits_per_weight for slug, f in BLOCK_FORMATS.items()} == expected_bits
    assert "Effectively 4.5 bits per weight" in BLOCK_FORMATS["q4_k"].source.states


def test_kv_with_query_heads_on_gqa_is_the_head_ratio() -> None:
    # Llama 3.1 8B: 32 layers, 8 KV heads of 128: 2 * 32 * 8 * 128 * 2 bytes = 131,072 B/token.
    p = kv_with_query_heads(MODELS["llama-3.1-8b"], context_tokens=8192, kv_dtype="fp16")
    assert p.right == 131_072 * 8192
    assert p.wrong == 4 * p.right and p.applies


def test_kv_with_query_heads_on_mla_is_the_uncompressed_cache() -> None:
    # DeepSeek-V3: 61 layers cache 512 + 64 elements (70,272 B/token in FP16); uncompressed,
    # 128 heads keep a key of 128 + 64 and a value of 128.
    p = kv_with_query_heads(MODELS["deepseek-v3"], context_tokens=1000, kv_dtype="fp16")
    assert p.right == 70_272 * 1000
    assert p.wrong == pytest.approx(61 * 128 * (192 + 128) * 2 * 1000)
    assert p.factor == pytest.approx(40_960 / 576)


def test_kv_with_query_heads_does_not_apply_to_multi_head_attention() -> None:
    mha = next(m for m in MODELS.values() if m.attention == "mha")
    p = kv_with_query_heads(mha, context_tokens=100, kv_dtype="fp16")
    assert not p.applies and p.factor == 1


def test_moe_memory_from_active_parameters() -> None:
    mixtral = MODELS["mixtral-8x7b"]
    p = moe_memory_from_active(mixtral, weight_bytes_per_param=2)
    assert p.right == mixtral.total_params * 2 and p.applies
    # Published: 47B total, 13B active per token.
    assert p.factor == pytest.approx(13 / 47, rel=0.03)
    dense = moe_memory_from_active(MODELS["llama-3.1-8b"], weight_bytes_per_param=2)
    assert not dense.applies and dense.factor == 1


def test_gib_read_as_gb_is_seven_percent_low() -> None:
    p = gib_read_as_gb(needed_bytes=141e9)
    assert p.factor == pytest.approx(1e9 / 2**30)
    # 141 GB of bytes is 131.3 GiB; printed as "131.3 GB", it is 9.7 GB short.
    assert p.wrong == pytest.approx(131.316e9, rel=1e-4)


def test_sparse_peak_halves_a_compute_bound_prefill_only() -> None:
    model, h100 = MODELS["llama-3.1-8b"], ACCELERATORS["h100-sxm"]
    long = sparse_peak_for_dense_model(model, h100, prompt_tokens=8192, weight_bytes_per_param=2, compute_dtype="fp16")
    assert long.applies and long.factor == pytest.approx(0.5)
    # One token reads every weight for two FLOPs each: memory-bound, the peak does not matter.
    short = sparse_peak_for_dense_model(model, h100, prompt_tokens=1, weight_bytes_per_param=2, compute_dtype="fp16")
    assert short.applies and short.factor == 1
    tpu = sparse_peak_for_dense_model(
        model, ACCELERATORS["tpu-v5e"], prompt_tokens=8192, weight_bytes_per_param=2, compute_dtype="bf16"
    )
    assert not tpu.applies and tpu.factor == 1


def test_sliding_window_ignored_on_gemma_2() -> None:
    # Gemma 2 9B: 21 of 42 layers slide over 4,096 tokens.
    gemma = MODELS["gemma-2-9b"]
    p = sliding_window_ignored(gemma, context_tokens=32_768, kv_dtype="fp16")
    assert p.factor == pytest.approx(42 * 32_768 / (21 * 32_768 + 21 * 4096))
    within = sliding_window_ignored(gemma, context_tokens=4096, kv_dtype="fp16")
    assert within.applies and within.factor == 1
    assert not sliding_window_ignored(MODELS["llama-3.1-8b"], context_tokens=32_768, kv_dtype="fp16").applies


@pytest.mark.parametrize(
    ("slug", "factor"), [("mxfp4", 4 / 4.25), ("nvfp4", 4 / 4.5), ("q4_k", 4 / 4.5), ("q8_0", 8 / 8.5)]
)
def test_block_scales_left_out(slug: str, factor: float) -> None:
    p = block_scales_ignored(MODELS["gpt-oss-20b"], block_format=BLOCK_FORMATS[slug])
    assert p.factor == pytest.approx(factor)


def test_the_calculator_opens_on_a_scenario_that_runs_and_ranks_the_largest_error() -> None:
    result = compute("pitfalls", {})
    assert result["errors"] == {}
    assert result["outputs"]["fits"]["value"] is True
    assert len(result["table"]) == 8
    factors = [row["error"]["value"] for row in result["table"]]
    worst = max(factors, key=lambda f: max(f, 1 / f))
    worst_row = next(row for row in result["table"] if row["error"]["value"] == worst)
    assert result["outputs"]["worst"]["value"] == worst_row["pitfall"]["value"] == "moe-active-memory"
