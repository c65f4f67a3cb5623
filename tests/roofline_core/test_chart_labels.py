"""Every chart axis names its unit, and no label is drawn under a marker (issue 30).

The calculators' charts are checked from the drawn SVG tree (what the build writes and the
browser builds), the build-time figures from their data's axis labels.
"""

from __future__ import annotations

import itertools
import re

import pytest

from roofline_core.calculators import CALCULATORS, compute
from roofline_core.figures import FIGURES, figure_data
from roofline_core.view.axes import boxes_overlap, text_box
from roofline_core.view.calculator import chart_drawing
from tests.roofline_core.test_view import _elements
from tests.support.view_tree import tree_text

#: The units an axis may be read in: SI quantities as the site writes them, counts, or none.
UNITS = {
    "FLOP/byte",
    "FLOP/s",
    "TFLOP/s",
    "tok/s",
    "tok/s per user",
    "tok/s per device",
    "s",
    "ms",
    "bytes",
    "tokens",
    "sequences",
    "tokens per sequence",
    "dimensionless",
}
_TITLED = re.compile(r".+ \((?P<unit>[^()]+)\)")


def _unit(title: str) -> str | None:
    match = _TITLED.fullmatch(title)
    return match["unit"] if match else None


# --- The build-time figures ----------------------------------------------------------------------


@pytest.mark.parametrize("kind", sorted(FIGURES))
def test_every_figure_axis_names_its_unit(kind):
    for index, panel in enumerate(figure_data(kind)["panels"]):
        for axis in ("x", "y"):
            if panel[f"{axis}_scale"] == "none":
                continue  # a hidden axis (the intensity figure's rows): no label to read
            title = panel[f"{axis}_label"]
            assert _unit(title) in UNITS, (kind, index, axis, title)


@pytest.mark.parametrize("kind", sorted(FIGURES))
def test_every_figure_tick_reads_as_a_number(kind):
    # The step-time bars' axis began at "0." (a zero with its decimals stripped).
    for panel in figure_data(kind)["panels"]:
        for _, label in panel["x_ticks"] + panel["y_ticks"]:
            assert label and not label.endswith("."), (kind, label)


# --- The calculators' charts ----------------------------------------------------------------------

#: Scenarios that move the points around: the defaults, and batches and prompts that put points
#: near each other, the legend and the ridge.
_SCENARIOS = {
    "decode-speed-of-light": [
        {"batch": str(b), "context_tokens": str(c)} for b in (1, 16, 256, 4096) for c in (0, 8192)
    ],
    "prefill-ttft": [{"prompt_tokens": str(p), "batch": str(b)} for p in (1, 16, 512, 32768) for b in (1, 8)],
    "roofline-explorer": [{"intensity": str(i)} for i in (0.1, 1, 64, 295, 5000)],
    "operations-table": [{"batch": str(b)} for b in (1, 32, 512)],
    "capacity": [{"rate_per_s": str(r)} for r in (0.5, 20)],
    "agentic-session": [
        {"turns": str(n), "concurrent": str(c), "tier": t}
        for n, c, t in ((1, 1, "cpu"), (40, 64, "disk"), (20, 128, "none"))
    ],
    "kv-cache": [
        {"model": m, "devices": str(d), "context_tokens": str(c)}
        for m, d, c in itertools.product(("llama-3-8b", "llama-3-70b"), (1, 4), (100, 8192, 480_000))
    ],
}


def _charts():
    for calculator_id, scenarios in sorted(_SCENARIOS.items()):
        for inputs in [{}, *scenarios]:
            result = compute(calculator_id, inputs)
            if result.get("chart"):
                yield calculator_id, inputs, chart_drawing(calculator_id, result["chart"], element_id="c")


_DRAWN = list(_charts())


def test_every_calculator_with_a_chart_is_covered():
    with_charts = {cid for cid in CALCULATORS if compute(cid, {}).get("chart")}
    assert with_charts <= set(_SCENARIOS)


@pytest.mark.parametrize(("calculator_id", "inputs", "svg"), _DRAWN, ids=[f"{c}-{i}" for c, i, _ in _DRAWN])
def test_every_calculator_chart_axis_names_its_unit(calculator_id, inputs, svg):
    titles = [tree_text(t) for t in _elements(svg, "text") if "axis-title" in t["attrs"]["class"]]
    assert len(titles) == 2
    for title in titles:
        assert _unit(title) in UNITS, title


@pytest.mark.parametrize(("calculator_id", "inputs", "svg"), _DRAWN, ids=[f"{c}-{i}" for c, i, _ in _DRAWN])
def test_a_narrow_chart_keeps_the_vertical_unit_clear_of_the_ticks(calculator_id, inputs, svg):
    # A narrow chart hides the turned title (its margin is the tick labels' at 23 units); the
    # unit alone stands above the tick labels instead (calculators.css), boxes at that size.
    (turned,) = [t for t in _elements(svg, "text") if "transform" in t["attrs"]]
    (unit,) = [t for t in _elements(svg, "text") if t["attrs"]["class"] == "roofline-chart__axis-unit"]
    assert tree_text(unit) == _unit(tree_text(turned)) and tree_text(unit) in UNITS
    box = text_box(unit)
    assert box[1] >= 0
    for tick in [t for t in _elements(svg, "text") if t["attrs"]["class"] == "roofline-chart__tick"]:
        assert not boxes_overlap(box, text_box(tick)), tree_text(tick)


@pytest.mark.parametrize(("calculator_id", "inputs", "svg"), _DRAWN, ids=[f"{c}-{i}" for c, i, _ in _DRAWN])
def test_no_chart_label_is_under_a_marker_or_another_label(calculator_id, inputs, svg):
    markers = []
    for circle in _elements(svg, "circle"):
        cx, cy, r = (float(circle["attrs"][name]) for name in ("cx", "cy", "r"))
        markers.append((cx - r, cy - r, cx + r, cy + r))
    labels = [
        t
        for t in _elements(svg, "text")
        if t["attrs"]["class"] in ("roofline-chart__label", "roofline-chart__note", "roofline-chart__ridge-label")
    ]
    assert labels, "a chart without labels checks nothing"
    boxes = [text_box(t) for t in labels]
    for label, box in zip(labels, boxes):
        for marker in markers:
            assert not boxes_overlap(box, marker), (tree_text(label), marker)
    for i, j in itertools.combinations(range(len(boxes)), 2):
        assert not boxes_overlap(boxes[i], boxes[j]), (tree_text(labels[i]), tree_text(labels[j]))
