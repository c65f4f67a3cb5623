"""``roofline session``: an agentic session on the command line."""

from __future__ import annotations

import json

from roofline_core.calculators import CALCULATORS, compute
from roofline_core.cli import main
from roofline_core.formatting import format_number, format_time
from roofline_core.hardware import ACCELERATORS
from roofline_core.models import MODELS
from roofline_core.questions.session import Session, run_session

ARGS = ("session", "--model", "llama-3.1-70b", "--accelerator", "h100-sxm", "--devices", "2", "--turns", "3")


def test_session_prints_the_totals_and_a_row_per_turn(capsys) -> None:
    assert main([*ARGS, "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    expected = run_session(
        Session(model=MODELS["llama-3.1-70b"], accelerator=ACCELERATORS["h100-sxm"], devices=2, turns=3, concurrent=48)
    )
    assert [row["turn"]["value"] for row in result["rows"]] == [1, 2, 3]
    assert [row["ttft"]["value"] for row in result["rows"]] == [t.ttft_s for t in expected.turns]
    assert result["outputs"]["task_time"]["value"] == expected.task_time_s


def test_a_bad_tier_names_its_option(capsys) -> None:
    assert main([*ARGS, "--tier", "tape"]) == 2
    assert capsys.readouterr().err.startswith("roofline: error: --tier: Offload tier:")


def test_the_calculator_answers_with_two_short_figures_and_their_working_below() -> None:
    # Two short headline cards keep the answer and the chart in the first screen (and an embed's
    # first 500 px); the task's time is worked out in an output under the chart.
    result = compute("agentic-session", {"turns": 3, "price_per_device_hour": 2.5})
    expected = run_session(
        Session(
            model=MODELS["llama-3.1-70b"],
            accelerator=ACCELERATORS["h100-sxm"],
            devices=2,
            turns=3,
            concurrent=48,
            price_per_device_hour=2.5,
        )
    )
    assert CALCULATORS["agentic-session"].headline == ("task_time", "cost")
    outputs = result["outputs"]
    assert outputs["task_time"]["text"] == format_time(expected.task_time_s)
    assert outputs["cost"]["text"] == f"${format_number(expected.cost)}"
    assert outputs["task_parts"]["text"] == (
        f"{format_time(expected.task_time_s)} = {format_time(expected.model_time_s)} in the model + 2 tool calls × 2 s"
    )
    assert outputs["device_seconds"]["text"].endswith(f"= ${format_number(expected.cost)} a task")
