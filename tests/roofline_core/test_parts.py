"""Parts: every estimate's time breaks into parts from one vocabulary that add up to it."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from roofline_core.estimates.inference import (
    EXPERT,
    PARALLELISMS,
    PIPELINE,
    decode_step,
    estimate_decode,
    estimate_prefill,
)
from roofline_core.estimates.operations import OPERATION_KINDS, operations_catalogue
from roofline_core.estimates.parts import (
    ATTENTION,
    COMMUNICATION_LATENCY,
    COMMUNICATION_TRANSFER,
    COMPUTE,
    DRAFT_STEPS,
    EFFICIENCY,
    KV_CACHE,
    LABEL_TEXT,
    LABELS,
    PIPELINE_IDLE,
    WEIGHTS,
    Part,
    adds_up,
)
from roofline_core.estimates.speculative import DRAFT_KINDS, DRAFT_MODEL, estimate_speculative_decode
from roofline_core.hardware import ACCELERATORS, CustomAccelerator
from roofline_core.hardware.dtypes import STORAGE_DTYPES
from roofline_core.models import MODELS, CustomModel
from roofline_core.roofline import op_time_s

MOE = [slug for slug, m in MODELS.items() if m.is_moe]
# Enough of each to cover dense, MoE, MLA and sliding-window models, chips with and without links.
MODEL_SLUGS = sorted(MODELS)
ACCELERATOR_SLUGS = sorted(ACCELERATORS)


def _check(parts: tuple[Part, ...], working: tuple[tuple[str, str], ...], total: float) -> None:
    assert parts, "a time has at least one part"
    assert all(p.label in LABEL_TEXT for p in parts)
    assert all(p.seconds >= 0 for p in parts), parts
    assert adds_up(parts, total), (sum(p.seconds for p in parts), total, parts)
    # One formula per part, in the same order, each with numbers in it.
    assert [label for label, _ in working] == [p.label for p in parts]
    assert all(text and any(ch.isdigit() for ch in text) for _, text in working)
    # Listed in the vocabulary's order, each once.
    order = [LABELS.index(p.label) for p in parts]
    assert order == sorted(set(order)), [p.label for p in parts]


def test_adds_up_by_hand() -> None:
    assert adds_up((Part(WEIGHTS, 3e-3), Part(KV_CACHE, 1e-3)), 4e-3)
    assert adds_up((Part(WEIGHTS, 3e-3), Part(KV_CACHE, 1e-3)), 4.003e-3)  # within 0.1%
    assert not adds_up((Part(WEIGHTS, 3e-3), Part(KV_CACHE, 1e-3)), 4.01e-3)
    assert not adds_up((Part(WEIGHTS, 5e-3), Part(EFFICIENCY, -1e-3)), 4e-3)  # a negative part


def test_the_issue_example_weights_and_all_reduces() -> None:
    # Llama 3 70B on 8 H100s at batch 1: 139 GB / 8 / 3.35 TB/s of weights, then the all-reduces.
    e = estimate_decode(model=MODELS["llama-3-70b"], accelerator=ACCELERATORS["h100-sxm"], devices=8)
    labels = [p.label for p in e.parts]
    assert labels == [WEIGHTS, COMMUNICATION_LATENCY, COMMUNICATION_TRANSFER]
    assert e.parts[0].seconds == pytest.approx(e.weight_bytes_streamed / 8 / 3.35e12)
    assert e.parts[1].seconds + e.parts[2].seconds == pytest.approx(e.communication.time_s)
    working = dict(e.working)
    assert working[WEIGHTS] == "139 GB ÷ 8 devices ÷ 3.35 TB/s"
    assert working[COMMUNICATION_LATENCY] == "160 all-reduces × 14 steps × 1 µs"


def test_the_public_decode_step_splits_weights_and_kv() -> None:
    step = decode_step(params=8e9, peak_flop_per_s=989e12, bandwidth_bytes_per_s=3.35e12, kv_cache_bytes=4e9)
    assert step.parts == (Part(WEIGHTS, 16e9 / 3.35e12), Part(KV_CACHE, 4e9 / 3.35e12))


def test_a_sustained_bandwidth_adds_an_efficiency_part() -> None:
    model, h100 = MODELS["llama-3.1-8b"], ACCELERATORS["h100-sxm"]
    peak = estimate_decode(model=model, accelerator=h100)
    real = estimate_decode(model=model, accelerator=h100, bandwidth_efficiency=0.5)
    assert [p.label for p in real.parts] == [WEIGHTS, EFFICIENCY]
    assert real.parts[0] == peak.parts[0]
    assert real.parts[1].seconds == pytest.approx(peak.step_time_s)


def test_a_compute_bound_step_splits_the_excess_by_flops() -> None:
    e = estimate_prefill(model=MODELS["llama-3.1-8b"], accelerator=ACCELERATORS["h100-sxm"], prompt_tokens=32_768)
    parts = dict(e.parts)
    beyond = e.compute_time_s - e.memory_time_s
    assert parts[COMPUTE] + parts[ATTENTION] == pytest.approx(beyond)
    assert parts[ATTENTION] / beyond == pytest.approx(e.attention_flops / e.flops)


def test_a_pipeline_with_fewer_micro_batches_than_stages_idles() -> None:
    e = estimate_decode(
        model=MODELS["llama-3.1-70b"], accelerator=ACCELERATORS["h100-sxm"], devices=4, parallelism=PIPELINE
    )
    parts = dict(e.parts)
    # Batch 1 over 4 stages: each stage works one stage time in four.
    assert parts[PIPELINE_IDLE] == pytest.approx(0.75 * (e.step_time_s - parts[COMMUNICATION_LATENCY]))
    assert parts[COMMUNICATION_LATENCY] == pytest.approx(3e-6)


accelerators = st.one_of(
    st.sampled_from(ACCELERATOR_SLUGS).map(ACCELERATORS.__getitem__),
    st.builds(
        lambda peak, bw: CustomAccelerator(peak_flop_per_s={"fp16": peak}, bandwidth_bytes_per_s=bw),
        st.floats(1e12, 5e15),
        st.floats(1e10, 2e13),
    ),
)
efficiency = st.one_of(st.just(1.0), st.floats(0.05, 1.0))


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    slug=st.sampled_from(MODEL_SLUGS),
    accelerator=accelerators,
    batch=st.integers(1, 2048),
    context=st.integers(0, 262_144),
    devices=st.integers(1, 72),
    weight_dtype=st.sampled_from(STORAGE_DTYPES),
    kv_dtype=st.sampled_from(("fp16", "fp8")),
    parallelism=st.sampled_from(PARALLELISMS),
    bandwidth_efficiency=efficiency,
    compute_dtype=st.sampled_from((None, "fp16", "fp8")),
)
def test_every_decode_estimate_adds_up(
    slug, accelerator, batch, context, devices, weight_dtype, kv_dtype, parallelism, bandwidth_efficiency, compute_dtype
) -> None:
    model = MODELS[slug]
    if parallelism == EXPERT and not model.is_moe:
        parallelism = PIPELINE
    try:
        e = estimate_decode(
            model=model,
            accelerator=accelerator,
            weight_dtype=weight_dtype,
            kv_dtype=kv_dtype,
            batch=batch,
            context_tokens=context,
            devices=devices,
            bandwidth_efficiency=bandwidth_efficiency,
            parallelism=parallelism,
            compute_dtype=compute_dtype,
        )
    except (ValueError, KeyError):
        return  # a combination the estimate refuses (a format the chip lacks)
    _check(e.parts, e.working, e.step_time_s)
    assert e.step.parts == e.parts


@settings(max_examples=120, deadline=None)
@given(
    slug=st.sampled_from(MODEL_SLUGS),
    accelerator=accelerators,
    prompt=st.integers(1, 131_072),
    batch=st.integers(1, 64),
    devices=st.integers(1, 16),
    weight_dtype=st.sampled_from(STORAGE_DTYPES),
    bandwidth_efficiency=efficiency,
    fused=st.booleans(),
    expert=st.booleans(),
)
def test_every_prefill_estimate_adds_up(
    slug, accelerator, prompt, batch, devices, weight_dtype, bandwidth_efficiency, fused, expert
) -> None:
    model = MODELS[slug]
    try:
        e = estimate_prefill(
            model=model,
            parallelism=EXPERT if expert and model.is_moe else "tensor",
            accelerator=accelerator,
            prompt_tokens=prompt,
            weight_dtype=weight_dtype,
            batch=batch,
            devices=devices,
            bandwidth_efficiency=bandwidth_efficiency,
            fused_attention=fused,
        )
    except (ValueError, KeyError):
        return
    _check(e.parts, e.working, e.step_time_s)


@settings(max_examples=60, deadline=None)
@given(
    params=st.floats(1e6, 2e12),
    accelerator=accelerators,
    batch=st.integers(1, 4096),
    devices=st.integers(1, 64),
    bandwidth_efficiency=efficiency,
)
def test_a_model_known_by_its_size_adds_up(params, accelerator, batch, devices, bandwidth_efficiency) -> None:
    e = estimate_decode(
        model=CustomModel(streamed_params_per_token=params),
        accelerator=accelerator,
        batch=batch,
        devices=devices,
        bandwidth_efficiency=bandwidth_efficiency,
    )
    _check(e.parts, e.working, e.step_time_s)


@settings(max_examples=40, deadline=None)
@given(
    slug=st.sampled_from(MODEL_SLUGS),
    accelerator=st.sampled_from(ACCELERATOR_SLUGS),
    kind=st.sampled_from(DRAFT_KINDS),
    k=st.integers(1, 16),
    rate=st.floats(0, 1),
    batch=st.integers(1, 512),
    context=st.integers(0, 131_072),
    devices=st.integers(1, 16),
    weight_dtype=st.sampled_from(("fp16", "fp8", "int4")),
)
def test_every_speculative_cycle_adds_up(
    slug, accelerator, kind, k, rate, batch, context, devices, weight_dtype
) -> None:
    try:
        e = estimate_speculative_decode(
            model=MODELS[slug],
            accelerator=ACCELERATORS[accelerator],
            draft_kind=kind,
            draft_model=MODELS["llama-3.2-1b"] if kind == DRAFT_MODEL else None,
            draft_tokens=k,
            acceptance_rate=rate,
            batch=batch,
            context_tokens=context,
            devices=devices,
            weight_dtype=weight_dtype,
        )
    except (ValueError, KeyError):
        return
    _check(e.parts, e.working, e.cycle_s)
    assert (DRAFT_STEPS in dict(e.parts)) == (e.draft_step_s > 0)


#: Calculators whose main result is a time (or a rate that inverts one), and that output's id.
TIMED_CALCULATORS = {
    "decode-speed-of-light": "step_time",
    "prefill-ttft": "ttft",
    "speculative-decoding": "tokens_per_s",
    "operations-table": "time",
    "reconcile": "bound",
}


@pytest.mark.parametrize("calculator", sorted(TIMED_CALCULATORS))
@pytest.mark.parametrize(
    "inputs",
    [
        {},
        {"model": "llama-3.1-70b", "devices": "8", "bandwidth_efficiency": "70"},
        {"model": "qwen3-235b-a22b", "devices": "8", "batch": "64", "weight_dtype": "fp8"},
        {"operation": "prefill-attention-unfused", "prompt_tokens": "8192"},
        {"operation": "decode-attention-gqa", "model": "llama-3.1-70b"},
    ],
)
def test_every_timed_calculator_shows_parts_that_add_up(calculator: str, inputs: dict[str, str]) -> None:
    from roofline_core.calculators import compute

    result = compute(calculator, inputs)
    assert not result["errors"]
    parts = result["parts"]
    assert parts["output"] == TIMED_CALCULATORS[calculator] and parts["output"] in result["outputs"]
    total = parts["total"]["value"]
    items = parts["items"]
    assert adds_up((Part(i["label"], i["seconds"]) for i in items), total)
    assert all(i["phrase"] == LABEL_TEXT[i["label"]] and i["working"] and i["text"] for i in items)
    assert sum(i["share"] for i in items) == pytest.approx(1)
    shown = result["outputs"][parts["output"]]["value"]
    if parts["inverts"]:
        assert shown == pytest.approx(result["outputs"]["expected_tokens"]["value"] / total)
    else:
        assert shown == pytest.approx(total)


@pytest.mark.parametrize("slug", sorted(OPERATION_KINDS))
def test_every_operation_breaks_its_time_into_parts(slug: str) -> None:
    h100 = ACCELERATORS["h100-sxm"]
    (op,) = [o for o in operations_catalogue(accelerator=h100, model=MODELS["llama-3-70b"]) if o.slug == slug]
    peak, bandwidth = h100.peak_for("fp16"), h100.bandwidth_bytes_per_s
    step = op.step(peak_flop_per_s=peak, bandwidth_bytes_per_s=bandwidth)
    time_s = op_time_s(
        flops=op.flops, bytes_moved=op.bytes_moved, peak_flop_per_s=peak, bandwidth_bytes_per_s=bandwidth
    )
    _check(step.parts, step.working, time_s)
    labels = {p.label for p in step.parts}
    assert (KV_CACHE in labels) == slug.startswith("decode-attention")
    assert (WEIGHTS in labels) == (slug in ("decode-gemv", "decode-gemm-batched", "prefill-gemm"))
