"""Prefill/decode disaggregation (roofline_core.questions.disaggregation)."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from roofline_core.hardware import ACCELERATORS
from roofline_core.models import MODELS
from roofline_core.questions.capacity import Scenario, cheapest_plan
from roofline_core.questions.disaggregation import (
    DEFAULT_LINK_BYTES_PER_S,
    PhaseSteps,
    Split,
    decode_instance,
    disaggregated_plan,
    prefill_instance,
)

H100 = ACCELERATORS["h100-sxm"]
LLAMA_8B = MODELS["llama-3.1-8b"]
LLAMA_70B = MODELS["llama-3.1-70b"]


class _FixedSteps(PhaseSteps):
    """A prefill of 0.25 s and a decode step of 20 ms at any size, so the pools work out by hand."""

    def prefill_s(self, tp: int, tokens: int) -> float:
        return 0.25

    def step_s(self, tp: int, batch: int, chunk: int) -> float:
        return 0.02


def _scenario(**changes) -> Scenario:
    base = Scenario(
        model=LLAMA_8B,
        accelerator=H100,
        rate_per_s=2.0,
        prompt_tokens=1000,
        prompt_tokens_high=1000,
        output_tokens=100,
        output_tokens_high=100,
        ttft_target_s=1.0,
        tpot_target_s=0.05,
    )
    return replace(base, **changes)


def test_a_steady_state_worked_by_hand():
    s = _scenario()
    split = Split(s)
    steps = _FixedSteps(s)
    # One prefill instance: u = 2/s x 0.25 s = 0.5; M/D/1 mean wait u S / (2 (1 - u)) = 0.125 s;
    # at p90 (W / u) ln(u / 0.1) = 0.25 ln 5 = 0.4024 s; TTFT = 0.4024 + 0.25 = 0.6524 s <= 1 s.
    one = prefill_instance(split, steps, tp=1, instances=1)
    assert one.utilisation == pytest.approx(0.5)
    assert one.wait_s == pytest.approx(0.125)
    assert one.wait_high_s == pytest.approx(0.25 * math.log(5))
    assert one.ttft_high_s == pytest.approx(0.25 * math.log(5) + 0.25)
    # Decode: Little's law 2/s x 100 tokens x 20 ms = 4 sequences; p90 of Poisson(4) is 7
    # (P(X <= 6) = 0.889, P(X <= 7) = 0.949); p99 is 9 (P(X <= 8) = 0.979, P(X <= 9) = 0.992).
    decode = decode_instance(s, steps, tp=1, instances=1)
    assert decode.batch == pytest.approx(4.0)
    assert (decode.batch_high, decode.max_sequences) == (7, 9)
    assert decode.tpot_high_s == 0.02
    plan = disaggregated_plan(split, steps=steps)
    assert (plan.prefill.tp, plan.prefill.instances, plan.decode.tp, plan.decode.instances) == (1, 1, 1, 1)
    assert plan.devices == 2
    # Llama 3.1 8B, FP8 cache: 2 x 32 layers x 8 KV heads x 128 x 1 byte = 65,536 bytes a token.
    assert plan.kv_bytes_per_request == 1000 * 65_536
    assert plan.link_bytes_per_s_needed == 2 * 1000 * 65_536
    assert plan.transfer_s == pytest.approx(65_536_000 / DEFAULT_LINK_BYTES_PER_S)
    # A tighter TTFT target (0.5 s) needs two instances: u = 0.25, W = 0.0417 s, at p90
    # 0.1667 ln 2.5 = 0.1527 s, TTFT 0.4027 s.
    tight = disaggregated_plan(Split(replace(s, ttft_target_s=0.5)), steps=steps)
    assert tight.prefill.instances == 2
    assert tight.prefill.ttft_high_s == pytest.approx(0.25 / 6 / 0.25 * math.log(2.5) + 0.25)


def test_a_slow_link_adds_prefill_instances():
    s = _scenario(rate_per_s=2.0)
    # 131 MB a second must cross; a 20 MB/s link per device needs 7 devices' links.
    plan = disaggregated_plan(Split(s, link_bytes_per_s=20e6), steps=_FixedSteps(s))
    assert plan.prefill.devices == 7
    assert plan.prefill.link_share <= 1


def test_the_colocated_fleet_is_the_capacity_planners():
    s = Scenario(model=LLAMA_70B, accelerator=H100)
    plan = disaggregated_plan(Split(s))
    colocated = cheapest_plan(s)
    assert plan.colocated.devices == colocated.devices and plan.colocated.tp == colocated.tp
    assert plan.prefill is not None and plan.decode is not None


def test_a_bad_link_is_refused():
    with pytest.raises(ValueError):
        Split(_scenario(), link_bytes_per_s=0)


_rates = st.floats(0.1, 60)


@settings(max_examples=12, deadline=None)
@given(_rates, _rates)
def test_a_higher_rate_never_needs_fewer_devices(a, b):
    low, high = sorted((a, b))
    base = Scenario(model=LLAMA_8B, accelerator=H100)
    steps = PhaseSteps(base)
    fewer = disaggregated_plan(Split(replace(base, rate_per_s=low)), steps=steps)
    more = disaggregated_plan(Split(replace(base, rate_per_s=high)), steps=steps)
    assert more.prefill.devices >= fewer.prefill.devices
    assert more.decode.devices >= fewer.decode.devices


@settings(max_examples=12, deadline=None)
@given(st.floats(0.3, 5), st.floats(0.3, 5), st.floats(0.008, 0.1), st.floats(0.008, 0.1))
def test_a_looser_target_never_costs_more(ttft_a, ttft_b, tpot_a, tpot_b):
    base = Scenario(model=LLAMA_8B, accelerator=H100, rate_per_s=20, price_per_device_hour=2)
    steps = PhaseSteps(base)
    tight = Split(replace(base, ttft_target_s=min(ttft_a, ttft_b), tpot_target_s=min(tpot_a, tpot_b)))
    loose = Split(replace(base, ttft_target_s=max(ttft_a, ttft_b), tpot_target_s=max(tpot_a, tpot_b)))
    tight_plan, loose_plan = disaggregated_plan(tight, steps=steps), disaggregated_plan(loose, steps=steps)
    if tight_plan.devices is not None:
        assert loose_plan.devices is not None
        assert loose_plan.cost_per_hour <= tight_plan.cost_per_hour
