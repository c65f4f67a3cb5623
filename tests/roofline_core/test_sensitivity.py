"""roofline_core.questions.sensitivity: what moves a decode estimate, and by how much."""

from __future__ import annotations

import dataclasses
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from roofline_core.calculators import compute
from roofline_core.formatting import format_bandwidth
from roofline_core.hardware import ACCELERATORS
from roofline_core.models import MODELS
from roofline_core.questions.sensitivity import STEP, decode_sensitivity, describe

H100 = ACCELERATORS["h100-sxm"]
LLAMA_8B = MODELS["llama-3.1-8b"]


def _by_name(factors):
    return {factor.name: factor for factor in factors}


def test_a_memory_bound_step_moves_with_bandwidth_alone():
    # One sequence, nothing cached: the step is the weights over the bandwidth, so tokens/s
    # moves exactly with bandwidth (and efficiency) and not at all with compute.
    factors = _by_name(decode_sensitivity(model=LLAMA_8B, accelerator=H100))
    assert factors["Memory bandwidth"].high_change == pytest.approx(STEP)
    assert factors["Memory bandwidth"].low_change == pytest.approx(-STEP)
    assert factors["Peak compute"].swing == 0
    assert factors["Bandwidth efficiency"].low_change == pytest.approx(-STEP)
    # FP8 weights: half the bytes of the linear layers (the output head and norms stay 16-bit),
    # so the tokens/s grow by the ratio of the bytes read.
    ratio = LLAMA_8B.streamed_weight_bytes("fp16") / LLAMA_8B.streamed_weight_bytes("fp8")
    assert factors["Weight format"].high_change == pytest.approx(ratio - 1) == pytest.approx(0.869, abs=1e-3)


def test_a_compute_bound_step_moves_with_compute_alone():
    factors = _by_name(decode_sensitivity(model=LLAMA_8B, accelerator=H100, batch=8192))
    assert factors["Peak compute"].high_change == pytest.approx(STEP)
    assert factors["Memory bandwidth"].swing == 0


def test_every_factor_format_steps_included_is_ranked_by_swing():
    # Issue 30 changed this: format steps used to be listed after the 10 % moves whatever their
    # effect; now one ranking holds them all, so the largest effect is on top.
    factors = decode_sensitivity(model=LLAMA_8B, accelerator=H100, batch=64, context_tokens=8192)
    names = [factor.name for factor in factors]
    # At 8,192 tokens the cache outweighs the weights: halving it moves the step most.
    assert names[0] == "KV cache format"
    swings = [factor.swing for factor in factors]
    assert swings == sorted(swings, reverse=True)


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(sorted(MODELS)),
    st.sampled_from(sorted(ACCELERATORS)),
    st.integers(1, 512),
    st.integers(0, 65_536),
    st.integers(1, 8),
)
def test_more_hardware_never_slows_and_more_context_never_speeds(model, accelerator, batch, context, devices):
    factors = _by_name(
        decode_sensitivity(
            model=MODELS[model],
            accelerator=ACCELERATORS[accelerator],
            batch=batch,
            context_tokens=context,
            devices=devices,
        )
    )
    for name in ("Memory bandwidth", "Peak compute"):
        assert -STEP - 1e-9 <= factors[name].low_change <= 1e-9
        assert -1e-9 <= factors[name].high_change <= STEP + 1e-9
    # Chunked attention (Llama 4) reads only the tokens of the current chunk, so one more token
    # can start a new chunk and read less: its step time is a sawtooth in the context.
    if "Context" in factors and not MODELS[model].chunked_attention:
        assert factors["Context"].high_change <= 1e-9 <= factors["Context"].low_change + 2e-9
    for name in ("Weight format", "KV cache format"):
        if name in factors:
            assert factors[name].high_change >= -1e-9


def test_the_line_a_reader_sees_names_the_moves_and_their_effects():
    text = describe(decode_sensitivity(model=LLAMA_8B, accelerator=H100))
    # Ranked by effect: halving the bytes of the linear layers nearly doubles a memory-bound step's speed.
    assert text.startswith("Weight format FP16 \u2192 FP8: +86.9%; ")
    assert (
        "Memory bandwidth 3.35 \u2192 3.02 TB/s (\u221210%) / 3.35 \u2192 3.69 TB/s (+10%): \u221210.0% / +10.0%"
        in text
    )
    # Compute does not move a memory-bound step: it is left out.
    assert "Peak compute" not in text


def test_the_decode_calculator_shows_what_moves_it():
    shown = compute("decode-speed-of-light", {"batch": "8192", "context_tokens": "0"})["outputs"]["what_moves"]
    # Compute-bound: the FP8 step (FP8 math, twice the peak) now outranks the 10 % moves.
    assert shown["value"] in ("Weight format", "Batch", "Peak compute")
    assert "Peak compute 989 \u2192 890 TFLOP/s (\u221210%) / 989 TFLOP/s \u2192 1.09 PFLOP/s (+10%): " in shown["text"]


def test_a_compute_bound_prefill_waits_less_with_more_compute_and_no_less_with_bandwidth():
    from roofline_core.questions.sensitivity import prefill_sensitivity

    # A 2,048-token prompt on an 8B model is far past the ridge point: the time to first token
    # is the FLOPs over the peak, so +10 % compute shortens it to 1/1.1 and bandwidth does nothing.
    factors = _by_name(prefill_sensitivity(model=LLAMA_8B, accelerator=H100, prompt_tokens=2048))
    assert factors["Peak compute"].high_change == pytest.approx(1 / (1 + STEP) - 1)
    assert factors["Peak compute"].low_change == pytest.approx(1 / (1 - STEP) - 1)
    assert factors["Memory bandwidth"].swing == 0
    # Twice the prompts, twice the work, twice the wait.
    assert factors["Batch"].high_change == pytest.approx(1.0)


def test_the_tornado_draws_each_noticeable_factor_scaled_to_the_largest():
    from roofline_core.calculators import compute
    from roofline_core.view.tornado import HALF_WIDTH, tornado_tree

    shown = compute("decode-speed-of-light", {"batch": "32", "context_tokens": "8192"})["sensitivity"]
    tree = tornado_tree(shown["factors"], measure=shown["measure"], bound=shown["bound"])
    rows = [child for child in tree["children"] if child["attrs"].get("class") == "roofline-tornado__row"]
    moving = [f for f in shown["factors"] if max(abs(f["low_change"]), abs(f["high_change"])) >= 0.005]
    assert [row["children"][0]["children"][0] for row in rows] == [f["name"] for f in moving]
    widths = [
        float(bar["attrs"]["width"]) for row in rows for bar in row["children"][1]["children"] if bar["tag"] == "rect"
    ]
    assert max(widths) == pytest.approx(HALF_WIDTH)
    # A bar for a negative change ends at the centre line; a positive one starts there.
    for row, factor in zip(rows, moving, strict=True):
        for bar in [b for b in row["children"][1]["children"] if b["tag"] == "rect"]:
            kind = bar["attrs"]["class"].rsplit("--", 1)[1]
            x, width = float(bar["attrs"]["x"]), float(bar["attrs"]["width"])
            if factor[f"{kind}_change"] < 0:
                assert x + width == pytest.approx(0, abs=1e-6) and x < 0
            else:
                assert x == 0
    caption = tree["children"][-1]["children"][0]
    assert "memory-bound" in caption and "peak compute" in caption


@pytest.mark.parametrize("calculator_id", ["decode-speed-of-light", "prefill-ttft"])
@pytest.mark.parametrize("math", ["fp8", "int8", "fp4", "tf32"])
def test_a_custom_chip_with_one_math_peak_still_says_what_moves(calculator_id, math):
    # A custom chip has only the peak typed for its math format; stepping the formats must not
    # ask it for another (this raised a KeyError out of compute before).
    result = compute(calculator_id, {"accelerator": "custom", "compute_dtype": math, "context_tokens": "1024"})
    assert result["errors"] == {} and result["sensitivity"]["factors"]


def test_a_smaller_kv_cache_keeps_the_math_format_the_reader_chose():
    from roofline_core.estimates.inference import estimate_decode

    inputs = {"model": LLAMA_8B, "accelerator": H100, "batch": 32, "context_tokens": 8192, "compute_dtype": "fp8"}
    factors = _by_name(decode_sensitivity(**inputs))
    rate = lambda **c: estimate_decode(**{**inputs, **c}).tokens_per_s_per_sequence  # noqa: E731
    assert factors["KV cache format"].high_change == pytest.approx(rate(kv_dtype="fp8") / rate() - 1)


@settings(max_examples=30, deadline=None)
@given(
    st.sampled_from(sorted(MODELS)),
    st.sampled_from(["h100-sxm", "a100-sxm-80gb", "mi300x"]),
    st.integers(1, 512),
    st.integers(0, 65_536),
)
def test_factors_are_ranked_by_effect_and_name_their_real_moves(model, accelerator, batch, context):
    # Issue 30: one ranking for every factor (format steps included), and each move labelled by
    # the values it went between, not only "-10%".
    factors = decode_sensitivity(
        model=MODELS[model], accelerator=ACCELERATORS[accelerator], batch=batch, context_tokens=context
    )
    swings = [f.swing for f in factors]
    assert swings == sorted(swings, reverse=True)
    by_name = _by_name(factors)
    bandwidth = ACCELERATORS[accelerator].bandwidth_bytes_per_s
    assert by_name["Memory bandwidth"].low.startswith(format_bandwidth(bandwidth).rpartition(" ")[0] + " \u2192 ")
    assert by_name["Memory bandwidth"].low.endswith("(\u221210%)")
    more = math.ceil(batch * (1 + STEP))
    assert by_name["Batch"].high == f"{batch:,} \u2192 {more:,}"
    assert by_name["Weight format"].high == "FP16 \u2192 FP8"
    if context:
        assert by_name["Context"].low.startswith(f"{context:,} \u2192 ") and by_name["Context"].low.endswith(" tokens")


def test_a_chip_measured_close_to_its_datasheet_still_says_what_moves():
    """Scaling the bandwidth 10 % down scales the measured roof too: a chip whose copy run
    reached more than 90 % of its datasheet is not refused halfway through the sensitivity."""
    h100 = ACCELERATORS["h100-sxm"]
    close = dataclasses.replace(h100, measured_bandwidth_bytes_per_s=0.95 * h100.bandwidth_bytes_per_s)
    factors = decode_sensitivity(model=MODELS["llama-3-8b"], accelerator=close)
    assert _by_name(factors)["Memory bandwidth"].low_change == pytest.approx(-STEP)
    assert compute("prefill-ttft", {"accelerator": "rtx-4090"})["outputs"]["ttft"]["value"] > 0
