"""A measurement under its roofline: hand-derived splits, and the properties every split keeps."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from roofline_core.estimates.inference import estimate_decode
from roofline_core.hardware import ACCELERATORS, CustomAccelerator
from roofline_core.models import MODELS, CustomModel
from roofline_core.questions.reconcile import (
    _DECODE_PARTS,
    _FASTER,
    _PREFILL_PARTS,
    MS_PER_TOKEN,
    TOKENS_PER_S_PER_SEQUENCE,
    TOTAL_TOKENS_PER_S,
    measured_step_time_s,
    reconcile_decode,
    reconcile_prefill,
)
from tests.support.site_build import PROJECT_ROOT

# One H100 SXM as its sheet states it, dense FP16: 989 TFLOP/s and 3.35 TB/s.
H100 = CustomAccelerator(peak_flop_per_s={"fp16": 989e12}, bandwidth_bytes_per_s=3.35e12)
EIGHT_B = CustomModel(streamed_params_per_token=8e9)


def _parts(result) -> dict[str, float]:
    return {part.id: part.time_s for part in result.parts}


# --- Measurements -------------------------------------------------------------------------------


def test_the_three_decode_measurements_state_the_same_step() -> None:
    assert measured_step_time_s(kind=MS_PER_TOKEN, value=12.5) == pytest.approx(0.0125)
    assert measured_step_time_s(kind=TOKENS_PER_S_PER_SEQUENCE, value=80) == pytest.approx(0.0125)
    # 16 sequences together make 1,280 tokens/s: each waits 12.5 ms per token.
    assert measured_step_time_s(kind=TOTAL_TOKENS_PER_S, value=1280, batch=16) == pytest.approx(0.0125)


@pytest.mark.parametrize(
    ("kind", "value", "batch", "message"),
    [
        (MS_PER_TOKEN, 0, 1, "a measurement must be a number > 0, got 0"),
        (MS_PER_TOKEN, 5, 0, "batch must be a whole number >= 1, got 0"),
        ("furlongs", 5, 1, "unknown measurement 'furlongs'; expected one of ms_per_token"),
    ],
)
def test_measurement_errors_say_what_was_expected(kind, value, batch, message) -> None:
    with pytest.raises(ValueError, match=message):
        measured_step_time_s(kind=kind, value=value, batch=batch)


def test_a_time_that_is_not_positive_is_refused() -> None:
    with pytest.raises(ValueError, match="a measured time must be a number of seconds > 0, got -1"):
        reconcile_decode(model=EIGHT_B, accelerator=H100, measured_time_s=-1)


# --- Hand-derived decode ------------------------------------------------------------------------


def test_weights_dominate_a_dense_single_sequence_step() -> None:
    # 8e9 FP16 weights are 16 GB: 16e9 / 3.35e12 = 4.776 ms at the speed of light. Measured 8 ms.
    result = reconcile_decode(model=EIGHT_B, accelerator=H100, measured_time_s=0.008)
    assert result.bound_time_s == pytest.approx(16e9 / 3.35e12)
    assert result.bound_tokens_per_s == pytest.approx(3.35e12 / 16e9)
    # MBU = weight bytes / (measured time x bandwidth); MFU = 2 x 8e9 FLOPs / (8 ms x 989 TFLOP/s).
    assert result.mbu == pytest.approx(16e9 / (0.008 * 3.35e12))
    assert result.mfu == pytest.approx(16e9 / (0.008 * 989e12))
    assert result.share_of_bound == pytest.approx(16e9 / 3.35e12 / 0.008)
    parts = _parts(result)
    assert parts == pytest.approx(
        {
            "weights": 16e9 / 3.35e12,
            "kv_cache": 0,
            "arithmetic": 0,
            "communication": 0,
            "remainder": 0.008 - 16e9 / 3.35e12,
        }
    )
    assert not result.faster_than_bound


def test_arithmetic_counts_only_the_compute_time_above_memory_time() -> None:
    # 1e9 FP16 weights at batch 1,000 on a 100 TFLOP/s, 1 TB/s chip: 2e12 FLOPs take 20 ms,
    # 2e9 bytes take 2 ms; the roofline overlaps them, so arithmetic adds 18 ms to the 2 ms read.
    chip = CustomAccelerator(peak_flop_per_s={"fp16": 100e12}, bandwidth_bytes_per_s=1e12)
    result = reconcile_decode(
        model=CustomModel(streamed_params_per_token=1e9), accelerator=chip, measured_time_s=0.025, batch=1000
    )
    assert _parts(result) == pytest.approx(
        {"weights": 0.002, "kv_cache": 0, "arithmetic": 0.018, "communication": 0, "remainder": 0.005}
    )
    assert result.mfu == pytest.approx(2e12 / (0.025 * 100e12))  # 0.8
    assert result.mbu == pytest.approx(2e9 / (0.025 * 1e12))  # 0.08


def test_kv_cache_and_communication_are_the_estimates_own() -> None:
    model, chip = MODELS["llama-3.1-70b"], ACCELERATORS["h100-sxm"]
    estimate = estimate_decode(model=model, accelerator=chip, batch=8, context_tokens=8192, devices=4)
    result = reconcile_decode(
        model=model, accelerator=chip, measured_time_s=0.05, batch=8, context_tokens=8192, devices=4
    )
    parts = _parts(result)
    # Four devices read the cache together: its bytes over four times the bandwidth.
    assert parts["kv_cache"] == pytest.approx(estimate.kv_bytes / (4 * chip.bandwidth_bytes_per_s))
    assert parts["communication"] == pytest.approx(estimate.communication.time_s) and parts["communication"] > 0
    assert result.bound_time_s == pytest.approx(estimate.step_time_s)


def test_pipeline_parallelism_shows_its_idle_stages() -> None:
    model, chip = MODELS["llama-3.1-70b"], ACCELERATORS["h100-sxm"]
    estimate = estimate_decode(model=model, accelerator=chip, batch=1, devices=4, parallelism="pipeline")
    result = reconcile_decode(model=model, accelerator=chip, measured_time_s=0.1, devices=4, parallelism="pipeline")
    assert _parts(result)["pipeline_idle"] > 0
    assert result.bound_time_s == pytest.approx(estimate.step_time_s)


def test_a_measurement_faster_than_the_bound_is_named_an_inconsistency() -> None:
    result = reconcile_decode(model=EIGHT_B, accelerator=H100, measured_time_s=0.002)
    assert result.faster_than_bound
    remainder = result.parts[-1]
    assert remainder.id == "remainder" and remainder.time_s < 0
    assert "inconsistent" in remainder.label and remainder.term == "speed-of-light"
    assert sum(part.time_s for part in result.parts) == pytest.approx(0.002)


# --- Hand-derived prefill -----------------------------------------------------------------------


def test_prefill_is_reconciled_against_its_compute_bound() -> None:
    # 1,000 prompt tokens through 8e9 parameters: 1.6e13 FLOPs, 16.18 ms at 989 TFLOP/s; the
    # 16 GB of weights take 4.78 ms and hide under it. A 32.36 ms TTFT is half the peak.
    bound = 2 * 8e9 * 1000 / 989e12
    result = reconcile_prefill(model=EIGHT_B, accelerator=H100, ttft_s=2 * bound, prompt_tokens=1000)
    assert result.bound_time_s == pytest.approx(bound)
    assert result.mfu == pytest.approx(0.5)
    assert _parts(result) == pytest.approx(
        {
            "weights": 16e9 / 3.35e12,
            "kv_cache": 0,
            "arithmetic": bound - 16e9 / 3.35e12,
            "communication": 0,
            "remainder": bound,
        }
    )
    assert result.tokens == 1000 and result.measured_tokens_per_s == pytest.approx(1000 / (2 * bound))


# --- Properties ---------------------------------------------------------------------------------

DENSE = ["llama-3.1-8b", "llama-3.1-70b", "qwen2.5-7b", "gemma-2-9b", "mistral-7b-v0.3"]
scenarios = st.fixed_dictionaries(
    {
        "model": st.sampled_from([*DENSE, "mixtral-8x7b", "deepseek-v3"]).map(MODELS.__getitem__),
        "accelerator": st.sampled_from(sorted(ACCELERATORS)).map(ACCELERATORS.__getitem__),
        "weight_dtype": st.sampled_from(["fp16", "fp8", "int4", "q4_k"]),
        "kv_dtype": st.sampled_from(["fp16", "fp8"]),
        "batch": st.integers(1, 512),
        "context_tokens": st.integers(0, 65_536),
        "devices": st.sampled_from([1, 2, 4, 8]),
        "parallelism": st.sampled_from(["tensor", "pipeline"]),
    }
)


def _bound(scenario) -> float:
    return reconcile_decode(measured_time_s=1.0, **scenario).bound_time_s


@settings(max_examples=120, deadline=None)
@given(scenario=scenarios, factor=st.floats(0.05, 50))
def test_parts_add_up_to_the_measured_step(scenario, factor) -> None:
    measured = _bound(scenario) * factor
    result = reconcile_decode(measured_time_s=measured, **scenario)
    assert math.fsum(part.time_s for part in result.parts) == pytest.approx(measured, rel=1e-9)
    assert math.fsum(part.share for part in result.parts) == pytest.approx(1.0, rel=1e-9)
    # Only the remainder may be negative, and only when the measurement beats the bound.
    assert all(part.time_s >= 0 for part in result.parts if part.id != "remainder")
    assert (result.parts[-1].time_s < 0) == result.faster_than_bound


@settings(max_examples=80, deadline=None)
@given(scenario=scenarios)
def test_a_measurement_at_the_bound_leaves_nothing_unexplained(scenario) -> None:
    bound = _bound(scenario)
    result = reconcile_decode(measured_time_s=bound, **scenario)
    parts = _parts(result)
    assert parts["remainder"] == pytest.approx(0, abs=bound * 1e-12)
    # MBU at the bound is the memory reads' share of the modelled step.
    assert result.mbu == pytest.approx((parts["weights"] + parts["kv_cache"]) / bound)
    assert result.share_of_bound == pytest.approx(1)


def test_the_rows_are_the_estimates_parts_and_a_pipelines_weight_rereads_are_not_idle() -> None:
    # Two stages, two sequences: each stage reads its half of the weights once per micro-batch
    # and is never idle. The table once called half the step "pipeline idle" and halved the MBU.
    scenario = {
        "model": MODELS["llama-3.1-8b"],
        "accelerator": ACCELERATORS["a10"],
        "batch": 2,
        "devices": 2,
        "parallelism": "pipeline",
    }
    estimate = estimate_decode(**scenario)
    result = reconcile_decode(measured_time_s=estimate.step_time_s, **scenario)
    rows = _parts(result)
    assert "pipeline_idle" not in rows
    assert rows["weights"] == pytest.approx(sum(p.seconds for p in estimate.parts if p.label == "weights"))
    assert result.bound_time_s == pytest.approx(estimate.step_time_s)
    assert result.mbu == pytest.approx(rows["weights"] / estimate.step_time_s)
    assert result.mbu > 0.99


@settings(max_examples=80, deadline=None)
@given(scenario=scenarios, first=st.floats(1e-4, 10), more=st.floats(1e-6, 10))
def test_a_slower_measurement_never_raises_mbu_or_mfu(scenario, first, more) -> None:
    faster = reconcile_decode(measured_time_s=first, **scenario)
    slower = reconcile_decode(measured_time_s=first + more, **scenario)
    assert slower.mbu <= faster.mbu and slower.mfu <= faster.mfu
    assert slower.parts[-1].time_s >= faster.parts[-1].time_s


# --- Glossary links -----------------------------------------------------------------------------


def test_every_part_links_an_existing_glossary_entry() -> None:
    slugs = {term for _, _, term in (*_DECODE_PARTS.values(), *_PREFILL_PARTS.values(), _FASTER)}
    missing = sorted(slug for slug in slugs if not (PROJECT_ROOT / "glossary" / f"{slug}.md").is_file())
    assert missing == []
    for label, closes, _ in (*_DECODE_PARTS.values(), *_PREFILL_PARTS.values(), _FASTER):
        assert label and closes.endswith(".")


def test_mbu_is_also_reported_against_what_the_chip_measurably_reaches() -> None:
    from roofline_core import get_accelerator, get_model
    from roofline_core.hardware import CustomAccelerator
    from roofline_core.questions.reconcile import reconcile_decode

    h100 = get_accelerator("h100-sxm")
    run = reconcile_decode(model=get_model("llama-3-8b"), accelerator=h100, measured_time_s=0.008, devices=2)
    assert run.measured_roof_bytes_per_s == 2 * 2.97e12
    assert run.mbu_of_measured_roof == pytest.approx(run.mbu * 3.35 / 2.97)
    custom = CustomAccelerator(peak_flop_per_s={"fp16": 1e15}, bandwidth_bytes_per_s=3e12)
    bare = reconcile_decode(model=get_model("llama-3-8b"), accelerator=custom, measured_time_s=0.008)
    assert bare.measured_roof_bytes_per_s is None and bare.mbu_of_measured_roof is None


def test_the_reconciler_states_mbu_as_a_share_of_both_roofs() -> None:
    from roofline_core.calculators import compute

    outputs = compute("reconcile", {"accelerator": "h100-sxm"})["outputs"]
    assert outputs["mbu"]["text"].endswith(" of 3.35 TB/s")
    assert outputs["mbu_measured"]["text"].endswith(" of 2.97 TB/s (measured)")
    assert outputs["mbu_measured"]["value"] == pytest.approx(outputs["mbu"]["value"] * 3.35 / 2.97, rel=1e-3)
    l4 = compute("reconcile", {"accelerator": "l4"})["outputs"]
    assert l4["mbu"]["text"].endswith(" of 300 GB/s")
    assert l4["mbu_measured"]["text"] == "no cited bandwidth measurement of this chip"
