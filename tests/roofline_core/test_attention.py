"""Attention arithmetic and traffic, against hand derivations from the models' config.json."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from roofline_core.estimates.inference import estimate_decode, estimate_prefill
from roofline_core.hardware import ACCELERATORS
from roofline_core.models import MODELS, CustomModel
from roofline_core.models.attention import decode_attention_cost, prefill_attention_cost


def test_decode_attention_of_gqa_mla_and_sliding_layers() -> None:
    # Llama 3.1 8B: 32 layers x 4 x 32 heads x 128 per cached token.
    assert (
        decode_attention_cost(MODELS["llama-3.1-8b"], context_tokens=4096, batch=3).flops
        == 32 * 4 * 32 * 128 * 4096 * 3
    )
    # DeepSeek-V3, absorbed MLA: 61 layers x 2 x 128 heads x (2 x 512 + 64) per cached token.
    assert decode_attention_cost(MODELS["deepseek-v3"], context_tokens=1000).flops == 61 * 2 * 128 * 1088 * 1000
    # Gemma 2 9B: 21 full layers over 32,768 tokens, 21 sliding ones over 4,096; 16 heads of 256.
    gemma = decode_attention_cost(MODELS["gemma-2-9b"], context_tokens=32_768).flops
    assert gemma == 4 * 16 * 256 * (21 * 32_768 + 21 * 4096)
    assert decode_attention_cost(CustomModel(streamed_params_per_token=8e9), context_tokens=100).flops == 0


def test_mla_decode_does_several_times_the_flops_per_cached_byte_of_gqa() -> None:
    mla = MODELS["deepseek-v3"]
    gqa = MODELS["llama-3.1-70b"]
    per_byte_mla = decode_attention_cost(mla, context_tokens=1).flops / mla.kv_cache_bytes(context_tokens=1)
    per_byte_gqa = decode_attention_cost(gqa, context_tokens=1).flops / gqa.kv_cache_bytes(context_tokens=1)
    # 278,528 FLOPs over 1,152 bytes per layer against 32,768 over 4,096.
    assert per_byte_mla == pytest.approx(278_528 / 1152)
    assert per_byte_gqa == pytest.approx(32_768 / 4096)
    assert per_byte_mla > 25 * per_byte_gqa


def test_prefill_attention_is_causal_and_tiled_traffic_is_linear() -> None:
    llama = MODELS["llama-3.1-8b"]
    p = 4096
    tiled = prefill_attention_cost(llama, prompt_tokens=p)
    # Half the square (p (p + 1) / 2 pairs), 4 x 32 heads x 128 FLOPs per pair, 32 layers.
    assert tiled.flops == pytest.approx(32 * 4 * 32 * 128 * p * (p + 1) / 2)
    # Q and O of 32 heads, K and V of 8 heads, each 128 wide, 2 bytes, once per layer.
    assert tiled.bytes_moved == pytest.approx(32 * p * (32 * 256 + 8 * 256) * 2)
    unfused = prefill_attention_cost(llama, prompt_tokens=p, tiled=False)
    assert unfused.bytes_moved == pytest.approx(tiled.bytes_moved + 32 * 4 * 32 * p * p * 2)


def test_sliding_prefill_counts_at_most_the_window() -> None:
    gemma = MODELS["gemma-2-9b"]
    p, w = 32_768, 4096
    pairs_full = p * (p + 1) / 2
    pairs_window = w * (w + 1) / 2 + (p - w) * w
    expected = 4 * 16 * 256 * (21 * pairs_full + 21 * pairs_window)
    assert prefill_attention_cost(gemma, prompt_tokens=p).flops == pytest.approx(expected)


def test_long_context_decode_reports_the_attention_share() -> None:
    est = estimate_decode(
        model=MODELS["llama-3.1-8b"], accelerator=ACCELERATORS["h100-sxm"], batch=8, context_tokens=131_072
    )
    assert 0.5 < est.attention_share_of_flops < 1


@settings(max_examples=50, deadline=None)
@given(
    slug=st.sampled_from(["llama-3.1-8b", "gemma-2-9b", "deepseek-v3", "mixtral-8x7b", "gpt-oss-20b"]),
    batch=st.integers(1, 512),
    short=st.integers(0, 65_536),
    extra=st.integers(0, 65_536),
)
def test_more_context_never_speeds_decode(slug, batch, short, extra) -> None:
    kwargs = {"model": MODELS[slug], "accelerator": ACCELERATORS["h200"], "batch": batch, "weight_dtype": "fp8"}
    shorter = estimate_decode(context_tokens=short, **kwargs)
    longer = estimate_decode(context_tokens=short + extra, **kwargs)
    assert longer.step_time_s >= shorter.step_time_s


@settings(max_examples=50, deadline=None)
@given(
    slug=st.sampled_from(["llama-3.1-8b", "gemma-2-9b", "deepseek-v3", "qwen3-30b-a3b"]),
    batch=st.integers(1, 1024),
    context=st.integers(0, 131_072),
    prompt=st.integers(1, 65_536),
    accelerator=st.sampled_from(["h100-sxm", "mi300x", "tpu-v5e", "apple-m4-max"]),
)
def test_nothing_exceeds_the_roofline(slug, batch, context, prompt, accelerator) -> None:
    chip = ACCELERATORS[accelerator]
    dtype = "bf16" if "bf16" in chip.peak_flop_per_s else "fp16"
    decode = estimate_decode(
        model=MODELS[slug], accelerator=chip, batch=batch, context_tokens=context, compute_dtype=dtype
    )
    prefill = estimate_prefill(model=MODELS[slug], accelerator=chip, prompt_tokens=prompt, compute_dtype=dtype)
    for step in (decode.step, prefill):
        achieved_flop_per_s = step.flops / step.step_time_s
        achieved_bytes_per_s = step.bytes_moved / step.step_time_s
        assert achieved_flop_per_s <= chip.peak_for(dtype) * (1 + 1e-9)
        assert achieved_bytes_per_s <= chip.bandwidth_bytes_per_s * (1 + 1e-9)
