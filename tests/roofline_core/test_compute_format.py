"""Which peak a quantised format runs on: W8A8 where the chip has the 8-bit peak, else weight-only."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from roofline_core.calculators import compute
from roofline_core.estimates.inference import estimate_decode, estimate_prefill
from roofline_core.hardware import ACCELERATORS
from roofline_core.hardware.compute_format import compute_scheme, engine_compute_dtype
from roofline_core.models import MODELS


@pytest.mark.parametrize(
    ("weights", "chip", "math"),
    [
        ("fp16", "h100-sxm", "fp16"),
        ("bf16", "tpu-v5e", "bf16"),
        ("fp8", "h100-sxm", "fp8"),  # Hopper: W8A8 on the FP8 tensor cores
        ("fp8", "l40s", "fp8"),  # Ada: W8A8
        ("fp8", "a100-sxm-80gb", "fp16"),  # Ampere has no FP8 peak: weight-only FP8 (Marlin)
        # INT8 checkpoints are mostly weight-only: W8A16 by default, W8A8 only when asked.
        ("int8", "a100-sxm-80gb", "fp16"),
        ("int8", "h100-sxm", "fp16"),
        # gpt-oss's MXFP4 experts: vLLM's default Blackwell kernel is MXFP4 x BF16 (W4A16).
        ("mxfp4", "b200", "fp16"),
        ("mxfp4", "h100-sxm", "fp16"),
        ("nvfp4", "b200", "fp4"),  # NVFP4 is W4A4 on Blackwell's FP4 tensor cores
        ("int4", "h100-sxm", "fp16"),  # AWQ/GPTQ: W4A16
        ("fp4", "b200", "fp4"),  # Blackwell's FP4 peak
        ("fp4", "h100-sxm", "fp16"),  # no FP4 peak: widened
        ("fp8", "tpu-v5e", "bf16"),
    ],
)
def test_engines_compute_format(weights: str, chip: str, math: str) -> None:
    assert engine_compute_dtype(weights, ACCELERATORS[chip]) == math


def test_schemes_in_words() -> None:
    assert compute_scheme("fp8", "fp8") == "W8A8 on the FP8 peak"
    assert compute_scheme("int4", "fp16") == "weight-only: INT4 widened to FP16 on its peak"
    assert compute_scheme("bf16", "fp16") == "BF16 weights on the FP16 peak"
    assert compute_scheme("fp16", "fp8") == "FP16 weights with the math in FP8, on its peak"
    assert compute_scheme("int8", "int8") == "W8A8 on the INT8 peak"
    assert compute_scheme("int8", "fp16") == "weight-only: INT8 widened to FP16 on its peak"
    assert compute_scheme("mxfp4", "fp8") == "W4A8 on the FP8 peak (MXFP4 blocks)"


def test_mxfp4_and_int8_defaults_follow_the_engines_and_overrides_still_win() -> None:
    # gpt-oss-120b on a B200: the default is the 16-bit peak (W4A16), not the FP4 one; an
    # explicit compute_dtype picks W4A8 or W4A4 instead.
    model, b200 = MODELS["gpt-oss-120b"], ACCELERATORS["b200"]
    prefill = estimate_prefill(model=model, accelerator=b200, prompt_tokens=8192, weight_dtype="mxfp4")
    assert prefill.peak_flop_per_s == b200.peak_for("fp16")
    for math in ("fp8", "fp4"):
        asked = estimate_prefill(
            model=model, accelerator=b200, prompt_tokens=8192, weight_dtype="mxfp4", compute_dtype=math
        )
        assert asked.peak_flop_per_s == b200.peak_for(math)
    h100 = ACCELERATORS["h100-sxm"]
    int8 = estimate_decode(model=MODELS["llama-3.1-8b"], accelerator=h100, weight_dtype="int8", batch=512)
    assert int8.step.peak_flop_per_s == h100.peak_for("fp16")
    w8a8 = estimate_decode(
        model=MODELS["llama-3.1-8b"], accelerator=h100, weight_dtype="int8", compute_dtype="int8", batch=512
    )
    assert w8a8.step.peak_flop_per_s == h100.peak_for("int8")
    result = compute("prefill-ttft", {"weight_dtype": "int8"})
    assert result["outputs"]["math"]["text"].startswith("weight-only: INT8 widened to FP16")


def test_fp8_prefill_on_hopper_runs_on_the_fp8_peak_and_on_ampere_on_the_16_bit_one() -> None:
    model = MODELS["llama-3.1-70b"]
    h100 = estimate_prefill(
        model=model, accelerator=ACCELERATORS["h100-sxm"], prompt_tokens=8192, weight_dtype="fp8", devices=2
    )
    assert h100.peak_flop_per_s == ACCELERATORS["h100-sxm"].peak_for("fp8")
    a100 = estimate_prefill(
        model=model, accelerator=ACCELERATORS["a100-sxm-80gb"], prompt_tokens=8192, weight_dtype="fp8", devices=2
    )
    assert a100.peak_flop_per_s == ACCELERATORS["a100-sxm-80gb"].peak_for("fp16")


@settings(max_examples=60, deadline=None)
@given(
    chip=st.sampled_from(sorted(a for a in ACCELERATORS if ACCELERATORS[a].supports("fp8"))),
    batch=st.integers(1, 4096),
    context=st.integers(0, 32_768),
    prompt=st.integers(1, 32_768),
)
def test_fp8_compute_never_exceeds_the_fp8_peak(chip, batch, context, prompt) -> None:
    accelerator = ACCELERATORS[chip]
    model = MODELS["llama-3.1-8b"]
    decode = estimate_decode(
        model=model, accelerator=accelerator, weight_dtype="fp8", batch=batch, context_tokens=context
    )
    prefill = estimate_prefill(model=model, accelerator=accelerator, weight_dtype="fp8", prompt_tokens=prompt)
    for step in (decode.step, prefill):
        assert step.flops / step.step_time_s <= accelerator.peak_for("fp8") * step.devices * (1 + 1e-9)


def test_calculators_show_the_math_and_refuse_a_format_the_chip_lacks() -> None:
    result = compute("prefill-ttft", {"weight_dtype": "fp8"})
    assert result["outputs"]["math"]["text"].startswith("W8A8 on the FP8 peak")
    refused = compute("decode-speed-of-light", {"compute_dtype": "fp4"})
    assert "has no peak on the NVIDIA H100 SXM" in refused["errors"]["compute_dtype"]


def test_block_scaled_weights_count_their_scales_and_use_the_fp4_peak_where_there_is_one() -> None:
    model = MODELS["llama-3.1-8b"]
    h100, b200 = ACCELERATORS["h100-sxm"], ACCELERATORS["b200"]
    mx = estimate_decode(model=model, accelerator=h100, weight_dtype="mxfp4")
    # 17 bytes per 32 weights (block_mxfp4), not 16.
    assert mx.weight_bytes_streamed == pytest.approx(model.streamed_params_per_token * 17 / 32)
    assert mx.step.peak_flop_per_s == h100.peak_for("fp16")  # widened: no FP4 units on Hopper
    nv = estimate_prefill(model=model, accelerator=b200, prompt_tokens=4096, weight_dtype="nvfp4")
    assert nv.peak_flop_per_s == b200.peak_for("fp4")
    assert compute_scheme("nvfp4", "fp4") == "W4A4 on the FP4 peak (NVFP4 blocks)"
    assert engine_compute_dtype("q4_k", h100) == "fp16"
