"""``roofline capacity``: the capacity planner on the command line."""

from __future__ import annotations

import json

from roofline_core.cli import main
from roofline_core.hardware import ACCELERATORS
from roofline_core.models import MODELS
from roofline_core.questions.capacity import Scenario, cheapest_plan

CLOSING_NOTE = (
    "capacity",
    "--model",
    "llama-3.1-70b",
    "--accelerator",
    "h100-sxm",
    "--rate",
    "10",
    "--prompt-tokens",
    "2000",
    "--output-tokens",
    "500",
    "--ttft-target-ms",
    "2000",
    "--tpot-target-ms",
    "50",
    "--percentile",
    "90",
)


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_capacity_prints_the_plan_its_parts_and_the_commands(capsys) -> None:
    code, out, err = run(capsys, *CLOSING_NOTE)
    assert code == 0 and err == ""
    plan = cheapest_plan(Scenario(model=MODELS["llama-3.1-70b"], accelerator=ACCELERATORS["h100-sxm"]))
    assert f"{plan.replicas} × TP={plan.tp} = {plan.devices} devices" in out
    assert "waiting for the prefill slot (M/D/1" in out
    assert "vllm serve meta-llama/Llama-3.1-70B --tensor-parallel-size 2" in out
    assert "(the plan)" in out


def test_capacity_json_has_a_row_per_tp_size(capsys) -> None:
    code, out, _err = run(capsys, *CLOSING_NOTE, "--price-per-device-hour", "2", "--json")
    assert code == 0
    result = json.loads(out)
    assert [row["tp"]["text"] for row in result["rows"]] == ["TP=1", "TP=2", "TP=4", "TP=8"]
    assert result["outputs"]["cost"]["value"] > 0


def test_a_bad_rate_names_its_option(capsys) -> None:
    code, _out, err = run(capsys, *CLOSING_NOTE, "--rate", "0")
    assert code == 2
    assert err.startswith("roofline: error: --rate: Request rate:")
