"""Fleet capacity under latency targets (roofline_core.questions.capacity)."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from roofline_core.estimates.inference import estimate_decode
from roofline_core.estimates.mixed_step import MixedSteps
from roofline_core.hardware import ACCELERATORS
from roofline_core.models import MODELS
from roofline_core.questions import capacity
from roofline_core.questions.capacity import (
    MEMORY,
    NONE,
    TPOT,
    TTFT,
    Scenario,
    cheapest_plan,
    largest_rate,
    misses,
    poisson_quantile,
    replica_state,
    tightest_tpot,
)

H100 = ACCELERATORS["h100-sxm"]
LLAMA_8B = MODELS["llama-3.1-8b"]
LLAMA_70B = MODELS["llama-3.1-70b"]


class _FixedSteps(MixedSteps):
    """Step times that do not depend on the batch, so a steady state can be worked by hand."""

    def __init__(self, scenario: Scenario, decode_s: float, chunk_s: float) -> None:
        super().__init__(
            model=scenario.model,
            accelerator=scenario.accelerator,
            weight_dtype=scenario.weight_dtype,
            kv_dtype=scenario.kv_dtype,
            context_tokens=scenario.decode_context_tokens,
            prompt_tokens=scenario.prompt_tokens,
        )
        self.decode_s, self.chunk_s = decode_s, chunk_s

    def step_s(self, tp: int, batch: int, chunk: int) -> float:
        return self.chunk_s if chunk else self.decode_s


def test_a_steady_state_worked_by_hand():
    # 2 requests/s of 1,000-token prompts and 100-token outputs, one 1,000-token chunk a prompt;
    # a decode step takes 20 ms, one with a chunk 40 ms.
    s = Scenario(
        model=LLAMA_8B,
        accelerator=H100,
        rate_per_s=2.0,
        prompt_tokens=1000,
        prompt_tokens_high=1000,
        output_tokens=100,
        output_tokens_high=100,
        percentile=0.9,
    )
    state = replica_state(s, tp=1, chunk_tokens=1000, replicas=1, steps=_FixedSteps(s, 0.020, 0.040))
    # 2 chunk steps a second take 80 ms of each second; the other 920 ms hold 46 decode steps:
    # 48 tokens a second for each decoding sequence.
    assert state.prefill_utilisation == pytest.approx(0.08)
    assert state.tpot_s == pytest.approx(1 / 48)
    # Little's law: 2/s x 100 tokens x 1/48 s.
    assert state.decode_batch == pytest.approx(200 / 48)
    # Poisson(4.1667): P(X <= 6) = 0.871, P(X <= 7) = 0.938.
    assert state.decode_batch_high == 7
    assert state.tpot_high_s == pytest.approx(1 / 48)
    assert state.interference_s == pytest.approx(1 / 48 - 0.020)
    # M/D/1: u S / (2 (1 - u)) with S = 40 ms; only 8 % wait, fewer than the 10 % tail.
    assert state.queue_wait_s == pytest.approx(0.08 * 0.040 / (2 * 0.92))
    assert state.queue_wait_high_s == 0
    assert state.ttft_high_s == pytest.approx(0.040)
    assert state.concurrency == pytest.approx(2 * (0.040 + state.queue_wait_s + 100 / 48))


def test_the_wait_at_the_percentile_follows_the_exponential_tail():
    # 8 requests/s: u = 8 x 40 ms = 0.32, so 32 % of prompts wait, more than the 10 % tail.
    s = Scenario(model=LLAMA_8B, accelerator=H100, rate_per_s=8.0, prompt_tokens=1000, prompt_tokens_high=1000)
    state = replica_state(s, tp=1, chunk_tokens=1000, replicas=1, steps=_FixedSteps(s, 0.020, 0.040))
    u = 0.32
    wait = u * 0.040 / (2 * (1 - u))
    assert state.queue_wait_s == pytest.approx(wait)
    assert state.queue_wait_high_s == pytest.approx(wait / u * math.log(u / 0.1))


def test_a_full_chunk_slot_is_unstable():
    s = Scenario(model=LLAMA_8B, accelerator=H100, rate_per_s=30.0, prompt_tokens=1000, prompt_tokens_high=1000)
    state = replica_state(s, tp=1, chunk_tokens=1000, replicas=1, steps=_FixedSteps(s, 0.020, 0.040))
    assert state.failure.startswith("ttft")
    assert misses(s, state) == (TTFT,)


def test_step_times_are_the_decode_estimates_realistic_step():
    s = Scenario(model=LLAMA_70B, accelerator=H100)
    step = estimate_decode(
        model=LLAMA_70B,
        accelerator=H100,
        weight_dtype="fp8",
        kv_dtype="fp8",
        batch=32,
        context_tokens=2250,
        devices=4,
    )
    # One rule for a realistic step: a step without a prefill chunk is the decode estimate's own.
    expected = step.expected_step_time_s
    assert capacity.scenario_steps(s).step_s(4, 32, 0) == pytest.approx(expected)
    # A chunk adds arithmetic to the same weight read: never faster.
    assert capacity.scenario_steps(s).step_s(4, 32, 2048) > expected


def test_poisson_quantile_matches_the_cumulative_sum():
    for mean in (0.3, 4.0, 57.5, 900.0):
        k = poisson_quantile(mean, 0.9)
        cdf = sum(math.exp(-mean + i * math.log(mean) - math.lgamma(i + 1)) for i in range(k + 1))
        below = cdf - math.exp(-mean + k * math.log(mean) - math.lgamma(k + 1))
        assert cdf >= 0.9 > below
    assert poisson_quantile(0, 0.9) == 0


def test_the_closing_note_plan():
    # Llama 3.1 70B FP8 on H100s at 10 requests/s, 2,000 in and 500 out, TTFT <= 2 s and
    # TPOT <= 50 ms at p90.
    s = Scenario(model=LLAMA_70B, accelerator=H100, price_per_device_hour=2.0)
    plan = cheapest_plan(s)
    assert plan is not None
    # With the regime's realistic steps (fixed cost per layer, engines' all-reduce), 3 x TP=2.
    assert (plan.tp, plan.replicas, plan.devices) == (2, 3, 6)
    assert plan.replica.ttft_high_s <= 2.0 and plan.replica.tpot_high_s <= 0.05
    assert plan.binds == TTFT
    assert plan.tokens_per_s_per_device == pytest.approx(10 * 500 / 6)
    assert plan.cost_per_million_output_tokens == pytest.approx(6 * 2.0 / 3600 / 5000 * 1e6)
    # One replica fewer misses: that is what "binds" means.
    fewer = replica_state(s, tp=2, chunk_tokens=plan.chunk_tokens, replicas=2)
    assert misses(s, fewer)
    # TP=1 holds the weights but too little cache: it needs many more devices.
    per_tp = dict(plan.per_tp)
    assert per_tp[1] is not None and per_tp[1].devices > plan.devices


def test_a_light_load_binds_nothing():
    s = Scenario(model=LLAMA_8B, accelerator=H100, rate_per_s=0.5)
    plan = cheapest_plan(s)
    assert (plan.tp, plan.replicas, plan.binds) == (1, 1, NONE)


def test_a_model_one_device_cannot_hold_binds_memory():
    s = Scenario(model=LLAMA_70B, accelerator=H100, weight_dtype="fp16", kv_dtype="fp16", rate_per_s=0.2)
    plan = cheapest_plan(s)
    assert plan.replicas == 1 and plan.tp > 1 and plan.binds == MEMORY


def test_an_unreachable_target_has_no_plan():
    s = Scenario(model=LLAMA_70B, accelerator=H100, tpot_target_s=0.001)
    assert cheapest_plan(s) is None


def test_largest_rate_is_the_edge_of_the_plan():
    s = Scenario(model=LLAMA_70B, accelerator=H100)
    plan = cheapest_plan(s)
    rate, binds = largest_rate(s, tp=plan.tp, replicas=plan.replicas, chunk_tokens=plan.chunk_tokens)
    assert rate >= s.rate_per_s
    assert binds in (TTFT, TPOT, MEMORY)
    at = replace(s, rate_per_s=rate)
    assert not misses(at, replica_state(at, tp=plan.tp, chunk_tokens=plan.chunk_tokens, replicas=plan.replicas))
    above = replace(s, rate_per_s=rate * 1.01)
    assert misses(above, replica_state(above, tp=plan.tp, chunk_tokens=plan.chunk_tokens, replicas=plan.replicas))


def test_tightest_tpot_is_no_looser_than_the_cheapest_plan():
    s = Scenario(model=LLAMA_70B, accelerator=H100)
    plan = cheapest_plan(s)
    tight = tightest_tpot(s, devices=plan.devices)
    assert tight.devices <= plan.devices
    assert tight.replica.tpot_high_s <= plan.replica.tpot_high_s
    # Asking for that TPOT is met with the same devices.
    met = cheapest_plan(replace(s, tpot_target_s=tight.replica.tpot_high_s * 1.0001))
    assert met is not None and met.devices <= plan.devices


def test_scenario_refuses_nonsense():
    with pytest.raises(ValueError, match="rate_per_s"):
        Scenario(model=LLAMA_8B, accelerator=H100, rate_per_s=0)
    with pytest.raises(ValueError, match="high-percentile"):
        Scenario(model=LLAMA_8B, accelerator=H100, prompt_tokens=2000, prompt_tokens_high=100)
    with pytest.raises(ValueError, match="percentile"):
        Scenario(model=LLAMA_8B, accelerator=H100, percentile=1.0)
    with pytest.raises(ValueError, match="prefix_hit_rate"):
        Scenario(model=LLAMA_8B, accelerator=H100, prefix_hit_rate=1.0)


_PROPERTY = settings(max_examples=8, deadline=None, derandomize=True)


@_PROPERTY
@given(rate=st.floats(0.5, 40), factor=st.floats(1.0, 3.0))
def test_a_higher_rate_never_needs_fewer_devices(rate, factor):
    s = Scenario(model=LLAMA_8B, accelerator=H100, rate_per_s=rate)
    low, high = cheapest_plan(s), cheapest_plan(replace(s, rate_per_s=rate * factor))
    assert low is not None and high is not None
    assert high.devices >= low.devices


@_PROPERTY
@given(ttft=st.floats(0.3, 3.0), tpot=st.floats(0.012, 0.08), looser=st.floats(1.0, 2.0))
def test_a_looser_target_never_costs_more(ttft, tpot, looser):
    s = Scenario(model=LLAMA_8B, accelerator=H100, rate_per_s=20.0, ttft_target_s=ttft, tpot_target_s=tpot)
    tight = cheapest_plan(s)
    loose = cheapest_plan(replace(s, ttft_target_s=ttft * looser, tpot_target_s=tpot * looser))
    if tight is not None:
        assert loose is not None and loose.devices <= tight.devices
