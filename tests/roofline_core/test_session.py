"""Agentic sessions turn by turn (roofline_core.questions.session)."""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from roofline_core.estimates.inference import estimate_prefill, memory_fit
from roofline_core.hardware import ACCELERATORS
from roofline_core.models import MODELS
from roofline_core.questions import session as session_module
from roofline_core.questions.session import (
    CPU,
    DISK,
    NONE,
    PCIE5_X16_BYTES_PER_S,
    Session,
    prefix_prefill_step,
    run_session,
)

H100 = ACCELERATORS["h100-sxm"]
LLAMA_8B = MODELS["llama-3.1-8b"]
LLAMA_70B = MODELS["llama-3.1-70b"]


def test_three_turns_worked_by_hand(monkeypatch):
    # A prefill takes 0.1 ms a token and a decode step 10 ms, whatever the context, so every
    # number below follows from the bookkeeping alone.
    monkeypatch.setattr(
        session_module, "prefill_after_prefix_s", lambda s, new_tokens, cached_tokens: 1e-4 * new_tokens
    )
    monkeypatch.setattr(session_module, "estimate_decode", lambda **kw: SimpleNamespace(expected_step_time_s=0.01))
    s = Session(
        model=LLAMA_8B,
        accelerator=H100,
        devices=2,
        turns=3,
        prompt_tokens=1000,
        tool_tokens=200,
        output_tokens=100,
        hit_rate=0.5,
        concurrent=2,
        tool_time_s=3.0,
        price_per_device_hour=3.6,
    )
    result = run_session(s)
    assert not result.failure
    # Turn 1: 1,000 prompt tokens, nothing cached. Turn 2: 1,100 before it, half found (550),
    # so 550 + 200 tool tokens are prefilled. Turn 3: 1,400 before it, 700 found, 700 + 200.
    assert [t.previous_tokens for t in result.turns] == [0, 1100, 1400]
    assert [t.cached_tokens for t in result.turns] == [0, 550, 700]
    assert [t.prefill_tokens for t in result.turns] == [1000, 750, 900]
    assert [t.context_tokens for t in result.turns] == [1000, 1300, 1600]
    # Nothing overflows 8B's room on two H100s.
    assert all(t.overflow_share == 0 and t.transfer_s == 0 for t in result.turns)
    # TTFT = 0.1 ms x prefill tokens; a turn adds 99 steps of 10 ms = 0.99 s.
    assert [t.ttft_s for t in result.turns] == pytest.approx([0.1, 0.075, 0.09])
    assert [t.turn_s for t in result.turns] == pytest.approx([1.09, 1.065, 1.08])
    # Two tool calls of 3 s between three turns.
    assert result.task_time_s == pytest.approx(3.235 + 6.0)
    # Device-seconds: 2 devices x (prefill + 0.99 s shared by 2 sessions).
    assert [t.device_s for t in result.turns] == pytest.approx([2 * 0.595, 2 * 0.57, 2 * 0.585])
    assert result.device_s == pytest.approx(3.5)
    assert result.cost == pytest.approx(3.5 * 3.6 / 3600)
    assert result.energy_j == pytest.approx(3.5 * H100.board_power_w)
    assert result.prefill_tokens == 2650 and result.cached_tokens == 1250


def _overflowing(tier: str) -> Session:
    # 70B in FP8 on two H100s: 64 sessions' caches outgrow the room after a few turns.
    return Session(model=LLAMA_70B, accelerator=H100, devices=2, turns=12, concurrent=64, hit_rate=0.9, tier=tier)


def test_an_overflowing_cache_is_brought_back_over_the_tier_link():
    s = _overflowing(CPU)
    result = run_session(s)
    room = (
        memory_fit(
            model=LLAMA_70B, accelerator=H100, weight_dtype="fp8", kv_dtype="fp8", batch=64, context_tokens=1, devices=2
        ).free_bytes
        / 64
    )
    last = result.turns[-1]
    kv_previous = LLAMA_70B.kv_cache_bytes(context_tokens=last.previous_tokens, kv_dtype="fp8")
    assert last.kv_room_bytes == pytest.approx(room)
    share = 1 - room / kv_previous
    assert share > 0
    assert last.overflow_share == pytest.approx(share)
    offloaded = kv_previous * last.cached_tokens / last.previous_tokens * share
    assert last.offloaded_bytes == pytest.approx(offloaded)
    # Each of the two devices fetches its half over its own PCIe 5.0 x16 link.
    assert last.transfer_s == pytest.approx(offloaded / (2 * PCIE5_X16_BYTES_PER_S))
    assert last.ttft_s == pytest.approx(last.transfer_s + last.prefill_s)
    # A disk is slower to bring the same bytes back; with no tier they are recomputed instead.
    disk = run_session(_overflowing(DISK)).turns[-1]
    assert disk.transfer_s > last.transfer_s and disk.prefill_tokens == last.prefill_tokens
    dropped = run_session(_overflowing(NONE)).turns[-1]
    assert dropped.transfer_s == 0
    assert dropped.cached_tokens == int(last.cached_tokens * (1 - share))
    assert dropped.prefill_s > last.prefill_s


def test_the_prefix_adds_the_cross_attention_and_its_cache_read():
    s = Session(model=LLAMA_8B, accelerator=H100)
    step, kv = prefix_prefill_step(s, new_tokens=1000, cached_tokens=3000)
    alone = estimate_prefill(model=LLAMA_8B, accelerator=H100, weight_dtype="fp8", prompt_tokens=1000)
    # Each of 1,000 new queries meets 3,000 cached keys: QK and PV, 2 FLOPs a multiply-add each,
    # per head and layer.
    cross = 4 * LLAMA_8B.heads * LLAMA_8B.head_dim * LLAMA_8B.layers * 1000 * 3000
    assert step.flops - alone.flops == pytest.approx(cross)
    assert kv == pytest.approx(LLAMA_8B.kv_cache_bytes(context_tokens=3000, kv_dtype="fp8"))
    assert step.bytes_moved - alone.bytes_moved == pytest.approx(kv)


def test_a_session_that_cannot_fit_says_so():
    result = run_session(Session(model=LLAMA_70B, accelerator=H100, devices=1, weight_dtype="fp16"))
    assert result.turns == () and "does not fit" in result.failure


@pytest.mark.parametrize(
    "bad", [{"turns": 0}, {"hit_rate": 1.5}, {"tier": "tape"}, {"tool_tokens": -1}, {"tier_bandwidth_bytes_per_s": 0}]
)
def test_bad_inputs_are_refused(bad):
    with pytest.raises(ValueError):
        Session(model=LLAMA_8B, accelerator=H100, **bad)


_sessions = st.builds(
    lambda turns, prompt, tool, output, concurrent, tier: Session(
        model=LLAMA_8B,
        accelerator=H100,
        turns=turns,
        prompt_tokens=prompt,
        tool_tokens=tool,
        output_tokens=output,
        concurrent=concurrent,
        tier=tier,
        price_per_device_hour=2.0,
    ),
    st.integers(1, 6),
    st.integers(1, 20_000),
    st.integers(0, 8_000),
    st.integers(1, 1_000),
    st.sampled_from([1, 8, 64, 256]),
    st.sampled_from([CPU, DISK, NONE]),
)


@settings(max_examples=25, deadline=None)
@given(_sessions, st.floats(0, 1), st.floats(0, 1))
def test_a_higher_hit_rate_never_costs_more(s, a, b):
    low, high = sorted((a, b))
    worse, better = run_session(replace(s, hit_rate=low)), run_session(replace(s, hit_rate=high))
    assert better.device_s <= worse.device_s * (1 + 1e-9)
    assert better.cost <= worse.cost * (1 + 1e-9)
    assert better.prefill_tokens <= worse.prefill_tokens
    if s.tier == NONE:
        # Nothing to bring back over a link: only the prefill changes.
        assert better.task_time_s <= worse.task_time_s * (1 + 1e-9)


@settings(max_examples=25, deadline=None)
@given(_sessions, st.floats(0, 1))
def test_more_turns_never_cost_less(s, hit_rate):
    s = replace(s, hit_rate=hit_rate)
    shorter, longer = run_session(s), run_session(replace(s, turns=s.turns + 1))
    if longer.failure:
        return
    assert longer.device_s >= shorter.device_s
    assert longer.task_time_s >= shorter.task_time_s
    assert longer.cost >= shorter.cost


def test_a_full_hit_with_no_new_tokens_still_computes_one():
    # No tool output and everything cached: the turn still runs one token to get its logits.
    s = Session(model=LLAMA_8B, accelerator=H100, turns=2, tool_tokens=0, hit_rate=1.0)
    second = run_session(s).turns[1]
    assert second.prefill_tokens == 1 and second.cached_tokens == second.previous_tokens - 1
    assert second.prefill_s > 0
