"""The cited serving measurements a throughput chart draws (roofline_core.evidence.serving_points),
held equal to the measurement table, and drawn on the capacity planner's frontier."""

from __future__ import annotations

from pathlib import Path

import pytest

from roofline_core.calculators import compute
from roofline_core.evidence.measurements import load_measurements_file
from roofline_core.evidence.serving_points import SERVING_POINTS, ServingPoint, serving_points
from roofline_core.view.calculator import calculator_view

TABLE = Path(__file__).resolve().parents[2] / "measurements" / "measurements.toml"


def _from_table() -> list[ServingPoint]:
    """The points as the table gives them: one per run with an output rate, its time per output
    token from the run's own row where there is one."""
    rows = [m for m in load_measurements_file(str(TABLE)).rows if m.metric.startswith("serving_") and not m.exclude]

    def run(m):
        return (m.engine, m.engine_version, m.model_slug, m.accelerator_slug, m.weight_format.slug, m.devices) + (
            m.batch,
            m.input_tokens,
            m.output_tokens,
        )

    tpot = {run(m): m.value for m in rows if m.metric == "serving_tpot_ms"}
    return [
        ServingPoint(
            m.id,
            m.model_slug,
            m.accelerator_slug,
            m.weight_format.slug,
            m.devices,
            m.batch,
            m.input_tokens,
            m.output_tokens,
            m.value,
            tpot.get(run(m)),
            m.engine,
            m.engine_version,
        )  # fmt: skip
        for m in rows
        if m.metric == "serving_output_tokens_per_s"
    ]


def test_the_copy_is_the_table_row_for_row():
    assert list(SERVING_POINTS) == _from_table()


def test_per_user_and_per_device_by_hand():
    nim = next(p for p in SERVING_POINTS if p.row_id == "nim-18-llama33-70b-fp8-tp2-5000-500-c25-tput")
    # 623.4 tok/s over 2 devices; 1 / 38.75 ms a token.
    assert nim.tokens_per_s_per_device == pytest.approx(311.7)
    assert nim.tokens_per_s_per_user == pytest.approx(1000 / 38.75)
    vllm = next(p for p in SERVING_POINTS if p.row_id == "vllm-rtx4090-mistral-7b-256-128-c16-tput")
    # No time per output token in the source: 644 tok/s shared by 16 requests.
    assert vllm.tpot_ms is None and vllm.tokens_per_s_per_user == pytest.approx(644 / 16)


def test_the_capacity_frontier_draws_the_matching_measurements_as_squares_linked_to_their_rows():
    result = compute("capacity", {})
    chart = result["chart"]
    wanted = serving_points(model="llama-3.1-70b", accelerator="h100-sxm", weight_format="fp8")
    measured = [p for p in chart["points"] if p["role"] == "measured"]
    assert len(wanted) == 5 and [p["row"] for p in measured] == [w.row_id for w in wanted]
    assert [(p["x"], p["y"]) for p in measured] == [
        (w.tokens_per_s_per_user, w.tokens_per_s_per_device) for w in wanted
    ]
    assert chart["points"][-1]["role"] == "plan" and "Squares: 5 cited measurements" in chart["title"]
    drawing = calculator_view("capacity", result, dom_id="c")["chart"]
    svg, note = drawing["children"]
    squares = [g for g in svg["children"] if g["attrs"].get("class", "").endswith("point--measured")]
    assert len(squares) == 5 and all(g["children"][0]["tag"] == "rect" for g in squares)
    links = [c for c in note["children"] if isinstance(c, dict) and c["tag"] == "a"]
    assert [a["attrs"]["href"] for a in links] == [f"../../model-vs-measurement/#{w.row_id}" for w in wanted]
    assert links[2]["children"] == ["25"] and links[2]["attrs"]["aria-label"].startswith("25 at once: 25.8 tokens/s")


def test_a_scenario_nobody_measured_draws_the_frontier_alone():
    chart = compute("capacity", {"weight_dtype": "bf16"})["chart"]
    assert chart["measured"] == [] and all(p["role"] != "measured" for p in chart["points"])
    drawing = calculator_view("capacity", compute("capacity", {"weight_dtype": "bf16"}), dom_id="c")["chart"]
    assert drawing["tag"] == "svg"


def test_the_line_under_the_chart_is_short_enough_for_an_embeds_first_500px():
    # Two lines of the results column in a 700 px embed (measured in Chromium: the chart's box
    # ends at 492 px with this line); a longer line pushed it to 540.
    drawing = calculator_view("capacity", compute("capacity", {}), dom_id="c")["chart"]

    def text(n):
        return n if isinstance(n, str) else "".join(text(c) for c in n["children"])

    line = text(drawing["children"][1])
    assert line == ("□ Measured: NVIDIA NIM 1.8.0 on 2 devices: 1, 5, 25, 50 at once (5,000/500 tokens); 1 (500/2,000)")
