"""roofline_core.view.kv_chart: the KV cache chart laid out, every label readable without hover."""

from __future__ import annotations

import itertools

import pytest

from roofline_core.calculators import compute
from roofline_core.view import calculator_view
from roofline_core.view.axes import boxes_overlap, text_box
from roofline_core.view.calculator import chart_drawing
from roofline_core.view.kv_chart import WIDTH_PX, kv_cache_drawing
from tests.roofline_core.test_view import _elements
from tests.support.view_tree import tree_text

SCENARIOS = [
    {"model": model, "devices": devices, "context_tokens": context, "batch": batch}
    for model, devices, context, batch in itertools.product(
        ("llama-3-8b", "llama-3-70b", "gemma-3-27b", "phi-4"), (1, 4), (100, 4096, 200_000, 480_000), (1, 16)
    )
]


def _drawing(inputs):
    result = compute("kv-cache", {key: str(value) for key, value in inputs.items()})
    return result["chart"], kv_cache_drawing(result["chart"], element_id="c")


@pytest.mark.parametrize("inputs", SCENARIOS, ids=lambda i: "-".join(str(v) for v in i.values()))
def test_every_line_and_point_is_labelled_and_no_two_labels_overlap(inputs):
    chart, svg = _drawing(inputs)
    texts = [t for t in _elements(svg, "text") if "axis-title" not in t["attrs"]["class"]]
    shown = [tree_text(t) for t in texts]
    for marked in [*chart["lines"], *chart["points"]]:
        assert marked["label"] in shown
    if chart["note"]:
        assert chart["note"] in shown
    boxes = [text_box(t) for t in texts]
    for i, j in itertools.combinations(range(len(boxes)), 2):
        assert not boxes_overlap(boxes[i], boxes[j]), (shown[i], shown[j])
    for text, box in zip(shown, boxes):
        assert 0 <= box[0] and box[2] <= WIDTH_PX, text


def test_axes_read_in_tokens_and_bytes_and_the_title_is_the_svgs_label():
    chart, svg = _drawing({"model": "llama-3-8b"})
    ticks = [tree_text(t) for t in _elements(svg, "text") if t["attrs"]["class"] == "roofline-chart__tick"]
    assert ticks[:4] == ["1k", "10k", "100k", "1M"]
    assert all(tick.endswith("B") for tick in ticks[4:]) and "1 GB" in ticks
    assert svg["attrs"]["data-chart"] == "kv-cache" and "roofline-chart" in svg["attrs"]["class"].split()
    (title,) = _elements(svg, "title")
    assert tree_text(title) == chart["title"] and title["attrs"]["id"] == svg["attrs"]["aria-labelledby"]


def test_the_calculators_view_draws_its_chart():
    view = calculator_view("kv-cache", compute("kv-cache", {}), dom_id="calc")
    assert view["chart"]["attrs"]["data-chart"] == "kv-cache"


def test_chart_data_of_neither_shape_is_refused_with_what_was_expected():
    with pytest.raises(ValueError, match=r"calculator 'x': chart has keys \['curve'\]; expected .*kind \"kv-cache\""):
        chart_drawing("x", {"curve": []}, element_id="c")
