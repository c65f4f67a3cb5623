"""The capacity calculator, its frontier data (figures/frontier.py) and the frontier's drawing."""

from __future__ import annotations

import pytest

from roofline_core.calculators import compute
from roofline_core.estimates.inference import estimate_decode, memory_fit
from roofline_core.figures.frontier import FrontierPoint, frontier_chart, frontier_points, pareto, reading
from roofline_core.hardware import ACCELERATORS
from roofline_core.models import MODELS
from roofline_core.questions.capacity import Scenario, scenario_steps
from roofline_core.view.calculator import chart_drawing
from roofline_core.view.downloads import chart_csv

H100 = ACCELERATORS["h100-sxm"]
LLAMA_70B = MODELS["llama-3.1-70b"]


@pytest.fixture(scope="module")
def result():
    return compute("capacity", {})


def test_the_default_is_the_closing_note_plan(result):
    out = result["outputs"]
    assert result["errors"] == {}
    assert out["plan"]["value"] == 6
    assert out["plan"]["text"] == "3 × TP=2 = 6 devices"
    assert out["binds"]["value"] == "ttft"
    assert out["tokens_per_s_per_device"]["value"] == pytest.approx(5000 / 6)
    # No price given: the cost is a multiple of it, 6 devices / 3,600 s / 5,000 tokens/s x 1e6.
    assert out["cost"]["text"] == "0.333 device-hours"
    assert "6 devices ÷ 3,600 s ÷ 5,000 tokens/s × 10⁶ = 0.333 device-hours" in out["working"]["text"]
    priced = compute("capacity", {"price_per_device_hour": 2})["outputs"]
    assert priced["cost"]["value"] == pytest.approx(6 * 2 / 3600 / 5000 * 1e6)


def test_each_time_is_the_sum_of_the_parts_it_names(result):
    plan_state = _plan_state()
    assert result["outputs"]["ttft"]["value"] == pytest.approx(plan_state.queue_wait_high_s + plan_state.prefill_high_s)
    assert result["outputs"]["tpot"]["value"] == pytest.approx(plan_state.decode_step_s + plan_state.interference_s)
    assert "waiting for the prefill slot (M/D/1" in result["outputs"]["ttft"]["text"]
    assert "prefill chunks interleaved" in result["outputs"]["tpot"]["text"]


def _plan_state():
    from roofline_core.questions.capacity import cheapest_plan

    return cheapest_plan(Scenario(model=LLAMA_70B, accelerator=H100)).replica


def test_the_engine_commands_carry_the_plan(result):
    vllm = result["outputs"]["vllm"]["text"]
    state = _plan_state()
    assert vllm.startswith("vllm serve meta-llama/Llama-3.1-70B --tensor-parallel-size 2 --max-model-len 2500")
    assert f"--max-num-seqs {state.max_sequences}" in vllm
    assert f"--max-num-batched-tokens {state.chunk_tokens + state.max_sequences}" in vllm
    assert "--tp-size 2" in result["outputs"]["sglang"]["text"]


def test_the_table_has_a_row_per_tp_size_and_marks_the_plan(result):
    rows = result["table"]
    assert [row["tp"]["value"] for row in rows] == [1, 2, 4, 8]
    assert [row["fleet"]["text"].endswith("(the plan)") for row in rows] == [False, True, False, False]


def test_a_length_at_the_percentile_below_the_mean_is_read_as_the_mean():
    low = compute("capacity", {"prompt_tokens_high": 100})
    assert low["errors"] == {}
    assert low["outputs"]["ttft"]["value"] == pytest.approx(compute("capacity", {})["outputs"]["ttft"]["value"])


def test_an_unreachable_target_says_so():
    out = compute("capacity", {"tpot_target_ms": 1})["outputs"]
    assert "No tensor-parallel size" in out["working"]["text"]
    assert out["binds"]["text"] == "no plan meets both targets"


# --- The frontier -------------------------------------------------------------------------------


def _scenario_steps():
    return scenario_steps(Scenario(model=LLAMA_70B, accelerator=H100))


def test_every_frontier_point_is_the_decode_model():
    steps = _scenario_steps()
    points = frontier_points(steps)
    assert points
    for point in points:
        decode = estimate_decode(
            model=LLAMA_70B,
            accelerator=H100,
            weight_dtype="fp8",
            kv_dtype="fp8",
            batch=point.batch,
            context_tokens=2250,
            devices=point.tp,
        )
        step_s = decode.expected_step_time_s
        assert point.tokens_per_s_per_user == pytest.approx(1 / step_s)
        assert point.tokens_per_s_per_device == pytest.approx(point.batch / step_s / point.tp)
        assert decode.memory.fits


def test_batches_stop_where_memory_does():
    steps = _scenario_steps()
    points = frontier_points(steps)
    largest = max(p.batch for p in points if p.tp == 2)
    assert memory_fit(
        model=LLAMA_70B,
        accelerator=H100,
        weight_dtype="fp8",
        kv_dtype="fp8",
        batch=largest,
        context_tokens=2250,
        devices=2,
    ).fits
    assert not memory_fit(
        model=LLAMA_70B,
        accelerator=H100,
        weight_dtype="fp8",
        kv_dtype="fp8",
        batch=largest * 2,
        context_tokens=2250,
        devices=2,
    ).fits


def test_the_frontier_is_what_no_point_beats():
    points = frontier_points(_scenario_steps())
    edge = pareto(points)
    for p in edge:
        assert not any(
            q.tokens_per_s_per_user >= p.tokens_per_s_per_user
            and q.tokens_per_s_per_device >= p.tokens_per_s_per_device
            and q != p
            for q in points
        )
    for p in points:
        if p not in edge:
            assert any(
                q.tokens_per_s_per_user >= p.tokens_per_s_per_user
                and q.tokens_per_s_per_device >= p.tokens_per_s_per_device
                for q in edge
            )


def test_the_reading_names_where_a_size_takes_over():
    edge = [
        FrontierPoint(tp=2, batch=64, step_s=1 / 40),
        FrontierPoint(tp=4, batch=32, step_s=1 / 60),
        FrontierPoint(tp=8, batch=1, step_s=1 / 150),
    ]
    assert reading(edge) == (
        "Above 60 tokens/s per user, TP=4 replicas beat TP=2 on tokens/s per device; above 150 tokens/s per "
        "user, TP=8 replicas beat TP=4; no configuration serves more than 150 tokens/s per user (TP=8 × 1)."
    )
    assert reading(edge[:1]).startswith("TP=2 replicas give the most tokens/s per device")


def test_the_frontier_is_drawn_and_downloadable():
    chart = frontier_chart(_scenario_steps(), accelerator_name="H100", operating_point=(30.0, 1250.0, "the plan"))
    svg = chart_drawing("capacity", chart, element_id="c")
    assert svg["attrs"]["data-chart"] == "frontier"
    text = chart_csv(chart, title="Capacity", scenario="", data_version="x")
    assert "tokens/s per user" in text and "the plan" in text
    assert chart["points"][-1]["role"] == "plan"
