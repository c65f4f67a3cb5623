"""The disaggregation calculator and ``roofline disaggregate``."""

from __future__ import annotations

import json

from roofline_core.calculators import CALCULATORS, compute
from roofline_core.cli import main
from roofline_core.hardware import ACCELERATORS
from roofline_core.models import MODELS
from roofline_core.questions.capacity import Scenario
from roofline_core.questions.disaggregation import Split, disaggregated_plan


def test_the_defaults_are_the_plan_of_the_capacity_scenario():
    result = compute("disaggregation", {})
    plan = disaggregated_plan(Split(Scenario(model=MODELS["llama-3.1-70b"], accelerator=ACCELERATORS["h100-sxm"])))
    assert result["outputs"]["split"]["value"] == plan.devices
    assert result["outputs"]["link_needed"]["value"] == plan.link_bytes_per_s_needed
    assert [row["pool"]["value"] for row in result["table"]] == ["prefill", "decode", "colocated"]
    assert result["table"][2]["fleet"]["value"] == plan.colocated.devices


def test_disaggregate_on_the_command_line(capsys):
    code = main(["disaggregate", "--model", "llama-3.1-8b", "--accelerator", "h100-sxm", "--link-gbs", "25", "--json"])
    assert code == 0
    result = json.loads(capsys.readouterr().out)
    assert result["inputs"]["link_gb_per_s"]["value"] == 25
    assert "prefill to decode devices" in result["outputs"]["ratio"]["text"]


def test_the_answer_is_two_short_figures_and_the_shapes_are_below():
    # Two short headline cards keep the answer in the first screen and an embed's first 500 px.
    calc = CALCULATORS["disaggregation"]
    result = compute("disaggregation", {})
    plan = disaggregated_plan(Split(Scenario(model=MODELS["llama-3.1-70b"], accelerator=ACCELERATORS["h100-sxm"])))
    assert calc.headline == ("split", "colocated")
    assert result["outputs"]["split"]["text"] == f"{plan.devices} devices"
    assert result["outputs"]["colocated"]["value"] == plan.colocated.devices
    assert result["outputs"]["colocated"]["text"] == f"{plan.colocated.devices} devices"
    assert f"TP={plan.prefill.tp}" in result["table"][0]["config"]["text"]
    assert f"TP={plan.colocated.tp}" in result["outputs"]["versus"]["text"]
