"""Speculative decoding estimates: the expected-tokens formula and the cycle's costs."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from roofline_core.calculators import compute
from roofline_core.estimates.speculative import (
    DRAFT_HEAD,
    DRAFT_MODEL,
    DRAFT_NGRAM,
    estimate_speculative_decode,
    expected_tokens_per_verify,
)
from roofline_core.hardware import ACCELERATORS
from roofline_core.models import MODELS


def test_expected_tokens_by_hand() -> None:
    # (1 - 0.8^5) / 0.2 = (1 - 0.32768) / 0.2 = 3.3616
    assert expected_tokens_per_verify(acceptance_rate=0.8, draft_tokens=4) == pytest.approx(3.3616)
    assert expected_tokens_per_verify(acceptance_rate=0.5, draft_tokens=1) == pytest.approx(1.5)
    assert expected_tokens_per_verify(acceptance_rate=1.0, draft_tokens=4) == 5
    assert expected_tokens_per_verify(acceptance_rate=0.0, draft_tokens=7) == 1


@pytest.mark.parametrize(("rate", "k"), [(-0.1, 4), (1.1, 4), (0.5, -1)])
def test_expected_tokens_refuses_out_of_range(rate: float, k: int) -> None:
    with pytest.raises(ValueError):
        expected_tokens_per_verify(acceptance_rate=rate, draft_tokens=k)


def _estimate(**overrides):
    args = {
        "model": MODELS["llama-3.1-8b"],
        "accelerator": ACCELERATORS["h100-sxm"],
        "draft_kind": DRAFT_MODEL,
        "draft_model": MODELS["llama-3.2-1b"],
        "draft_tokens": 4,
        "acceptance_rate": 0.7,
        "batch": 1,
        "context_tokens": 4096,
    } | overrides
    return estimate_speculative_decode(**args)


def test_a_free_draft_that_is_always_rejected_changes_nothing_while_memory_bound() -> None:
    e = _estimate(draft_kind=DRAFT_NGRAM, draft_model=None, acceptance_rate=0.0)
    assert e.verify_bound == "memory" and e.speedup == pytest.approx(1.0)


def test_verify_step_reads_once_and_computes_k_plus_one_times() -> None:
    # Batch 1: the verify step reads the same weights and KV as a plain step, so on the
    # memory roof it takes exactly as long.
    e = _estimate()
    assert e.verify_step_s == pytest.approx(e.plain_step_s)
    # The draft step is Llama 3.2 1B's own decode step at the same context.
    draft_alone = _estimate(model=MODELS["llama-3.2-1b"], draft_kind=DRAFT_NGRAM, draft_model=None)
    assert e.draft_step_s == pytest.approx(draft_alone.plain_step_s)
    assert e.speedup == pytest.approx(e.expected_tokens * e.plain_step_s / (4 * e.draft_step_s + e.verify_step_s))


def test_a_large_batch_makes_the_verify_step_compute_bound() -> None:
    e = _estimate(batch=512, context_tokens=1, draft_kind=DRAFT_NGRAM, draft_model=None, acceptance_rate=0.0)
    assert e.verify_bound == "compute" and e.speedup < 1


@settings(max_examples=60, deadline=None)
@given(
    rate=st.floats(min_value=0, max_value=1),
    k=st.integers(min_value=1, max_value=16),
    batch=st.integers(min_value=1, max_value=1024),
    context=st.integers(min_value=0, max_value=131_072),
    kind=st.sampled_from([DRAFT_MODEL, DRAFT_HEAD, DRAFT_NGRAM]),
)
def test_speedup_never_exceeds_the_tokens_per_verify(rate, k, batch, context, kind) -> None:
    e = _estimate(
        acceptance_rate=rate,
        draft_tokens=k,
        batch=batch,
        context_tokens=context,
        draft_kind=kind,
        draft_model=MODELS["llama-3.2-1b"] if kind == DRAFT_MODEL else None,
    )
    assert 1 <= e.expected_tokens <= k + 1
    assert e.verify_step_s >= e.plain_step_s * (1 - 1e-12)
    assert e.speedup <= e.expected_tokens * (1 + 1e-12)
    if rate == 0:
        assert e.speedup <= 1 + 1e-12


@settings(max_examples=40, deadline=None)
@given(low=st.floats(min_value=0, max_value=1), high=st.floats(min_value=0, max_value=1), k=st.integers(1, 16))
def test_more_acceptance_never_lowers_the_tokens_per_verify(low, high, k) -> None:
    low, high = sorted((low, high))
    assert expected_tokens_per_verify(acceptance_rate=low, draft_tokens=k) <= expected_tokens_per_verify(
        acceptance_rate=high, draft_tokens=k
    ) * (1 + 1e-12)


def test_the_calculator_opens_on_a_scenario_that_runs() -> None:
    result = compute("speculative-decoding", {})
    assert result["errors"] == {}
    assert result["outputs"]["fits"]["value"] is True
    assert result["outputs"]["speedup"]["value"] > 1


@settings(max_examples=40, deadline=None)
@given(
    slug=st.sampled_from(sorted(MODELS)),
    accelerator=st.sampled_from([a for a, chip in ACCELERATORS.items() if chip.interconnect_bandwidth_bytes_per_s]),
    devices=st.integers(min_value=1, max_value=16),
    batch=st.integers(min_value=1, max_value=256),
    context=st.integers(min_value=0, max_value=32_768),
    k=st.integers(min_value=1, max_value=8),
    kind=st.sampled_from([DRAFT_MODEL, DRAFT_HEAD, DRAFT_NGRAM]),
)
def test_nothing_accepted_is_never_faster_on_any_device_count(slug, accelerator, devices, batch, context, k, kind):
    # The verify step is a forward pass on the same devices as a plain step, so it pays the
    # same tensor-parallel all-reduces (on k + 1 tokens per sequence); it once skipped them,
    # and 0% acceptance showed a speed-up on 8 devices.
    e = _estimate(
        model=MODELS[slug],
        accelerator=ACCELERATORS[accelerator],
        devices=devices,
        batch=batch,
        context_tokens=context,
        draft_tokens=k,
        acceptance_rate=0.0,
        draft_kind=kind,
        draft_model=MODELS["llama-3.2-1b"] if kind == DRAFT_MODEL else None,
    )
    assert e.speedup <= 1 + 1e-9
    assert e.verify_step_s >= e.plain_step_s * (1 - 1e-12)


def test_the_verify_step_pays_the_all_reduces_of_its_tokens() -> None:
    # Llama 3.1 70B on 8 H100s, nothing accepted: before, the verify step skipped the 160
    # all-reduces and ran 1.43x faster than plain decoding.
    e = _estimate(
        model=MODELS["llama-3.1-70b"],
        devices=8,
        draft_kind=DRAFT_NGRAM,
        draft_model=None,
        acceptance_rate=0.0,
    )
    assert e.verify is not None and e.verify.communication.collectives == 160
    assert e.speedup == pytest.approx(0.995, abs=5e-3)
