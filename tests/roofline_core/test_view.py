"""roofline_core.view: a result as the page shows it, decided once for the build and the browser."""

from __future__ import annotations

import json
import math

import pytest

from roofline_core.calculators import CALCULATORS, compute
from roofline_core.figures import roofline_curve
from roofline_core.view import (
    PROSE_CHARS,
    box_text,
    calculator_view,
    compute_view_json,
    node,
    roofline_drawing,
    tick_label,
)
from roofline_core.view import chart as chart_layout
from tests.support.hf_configs import config_text
from tests.support.view_tree import tree_text


def _elements(tree, tag=None):
    """Every element of ``tree`` in document order (optionally only ``tag``)."""
    found = []
    if isinstance(tree, dict):
        if tag is None or tree["tag"] == tag:
            found.append(tree)
        for child in tree["children"]:
            found.extend(_elements(child, tag))
    return found


def test_node_turns_attribute_values_into_text():
    assert node("line", {"x1": 64, "y1": "1.5"}, "t") == {
        "tag": "line",
        "attrs": {"x1": "64", "y1": "1.5"},
        "children": ["t"],
    }


@pytest.mark.parametrize("calculator_id", sorted(CALCULATORS))
def test_outputs_are_the_results_texts_with_a_prose_flag(calculator_id):
    result = compute(calculator_id, {})
    view = calculator_view(calculator_id, result, dom_id="c")
    assert view["errors"] == {}
    assert {key: shown["text"] for key, shown in view["outputs"].items()} == {
        key: str(v["text"]) for key, v in result["outputs"].items()
    }
    assert all(shown["prose"] == (len(shown["text"]) > PROSE_CHARS) for shown in view["outputs"].values())
    assert (view["table"] is None) == (not result.get("table"))
    assert (view["chart"] is None) == (not result.get("chart"))


def test_an_invalid_result_shows_only_its_errors():
    view = calculator_view("kv-cache", compute("kv-cache", {"batch": "0"}), dom_id="c")
    assert set(view["errors"]) == {"batch"}
    assert view["outputs"] == {} and view["table"] is None and view["chart"] is None


def test_table_rows_choose_their_input_mark_the_current_one_and_put_sentences_under_the_row():
    result = compute("operations-table", {"operation": "prefill-gemm"})
    table = calculator_view("operations-table", result, dom_id="c")["table"]
    assert table["attrs"]["data-prose-columns"] == "why"
    headers = [tree_text(th) for th in _elements(table, "th")]
    assert headers == [c.label for c in CALCULATORS["operations-table"].table_columns if c.id != "why"]
    buttons = _elements(table, "button")
    assert [b["attrs"]["data-value"] for b in buttons] == [row["operation"]["value"] for row in result["table"]]
    assert [b["attrs"]["data-value"] for b in buttons if b["attrs"]["aria-pressed"] == "true"] == ["prefill-gemm"]
    rows = _elements(table, "tr")[1:]  # after the head
    current = [r for r in rows if "data-current" in r["attrs"]]
    assert len(current) == 2  # the chosen row and its sentence line
    prose = [tree_text(r) for r in rows if r["attrs"].get("class") == "roofline-calc__prose-row"]
    assert prose == [f"Why: {row['why']['text']}" for row in result["table"]]


def test_a_numeric_chooser_matches_the_input_as_the_box_writes_it():
    result = compute("decode-speed-of-light", {"batch": "16"})
    table = calculator_view("decode-speed-of-light", result, dom_id="c")["table"]
    pressed = [b["attrs"]["data-value"] for b in _elements(table, "button") if b["attrs"]["aria-pressed"] == "true"]
    assert pressed == [box_text(16)] == ["16"]


def test_chart_title_names_each_point_and_is_the_svgs_label():
    result = compute("roofline-explorer", {"intensity": "64"})
    svg = calculator_view("roofline-explorer", result, dom_id="calc")["chart"]
    assert svg["tag"] == "svg" and svg["attrs"]["aria-labelledby"] == "calc-chart-title"
    (title,) = [e for e in svg["children"] if isinstance(e, dict) and e["tag"] == "title"]
    assert title["attrs"]["id"] == "calc-chart-title"
    assert tree_text(title).startswith("Roofline chart. ") and "memory-bound" in tree_text(title)


def test_chart_ticks_cover_every_decade_of_both_axes():
    chart = roofline_curve(
        peak_flop_per_s=1e15,
        bandwidth_bytes_per_s=1e12,
        points=[{"label": "p", "intensity_flop_per_byte": 1.0}],
        x_min_flop_per_byte=0.1,
        x_max_flop_per_byte=1e4,
    )
    svg = roofline_drawing(chart, element_id="c")
    ticks = [tree_text(t) for t in _elements(svg, "text") if t["attrs"].get("class") == "roofline-chart__tick"]
    # x from 0.1 to 10k FLOP/byte: six decades; then y, a decade per tick in FLOP/s, but for
    # the lowest one, which sits on the x axis beside the "0.1" and gives way to it.
    assert ticks[:6] == ["0.1", "1", "10", "100", "1k", "10k"]
    assert ticks[6:] == [
        tick_label(e)
        for e in range(round(math.log10(chart["y_range"][0])) + 1, round(math.log10(chart["y_range"][1])) + 1)
    ]
    # Every coordinate is a final text with one decimal or a whole number: nothing left to compute.
    for element in _elements(svg):
        for name in ("x", "y", "x1", "y1", "cx", "cy"):
            if name in element["attrs"]:
                float(element["attrs"][name])


@pytest.mark.parametrize("peak_flop_per_s", [1e14, 3e14, 1e15, 989e12, 5e15])
@pytest.mark.parametrize("x_min_flop_per_byte", [0.01, 0.1, 1.0])
def test_no_two_tick_labels_overlap_even_at_the_corner(peak_flop_per_s, x_min_flop_per_byte):
    # The decode calculator's frame: the lowest y decade (100G) sits on the x axis, where the
    # first x label (0.1) is; at the phone's text size their boxes met.
    chart = roofline_curve(
        peak_flop_per_s=peak_flop_per_s,
        bandwidth_bytes_per_s=3.35e12,
        points=[{"label": "p", "intensity_flop_per_byte": 1.0}],
        x_min_flop_per_byte=x_min_flop_per_byte,
        x_max_flop_per_byte=1e4,
    )
    svg = roofline_drawing(chart, element_id="c")
    ticks = [t for t in _elements(svg, "text") if t["attrs"].get("class") == "roofline-chart__tick"]
    boxes = [chart_layout.text_box(t) for t in ticks]
    for i, a in enumerate(boxes):
        for j, b in enumerate(boxes[:i]):
            assert not chart_layout.boxes_overlap(a, b), (tree_text(ticks[i]), tree_text(ticks[j]))
    # Only a colliding label gives way: every x decade keeps its label, and every y decade
    # whose grid line is clear of the x labels keeps its own.
    x_labels = [tree_text(t) for t in ticks if t["attrs"]["text-anchor"] == "middle"]
    assert x_labels[0] == tick_label(round(math.log10(x_min_flop_per_byte)))
    y_lines = [g for g in _elements(svg, "line") if g["attrs"].get("x1") == str(chart_layout.LEFT_PX)]
    y_labels = [t for t in ticks if t["attrs"]["text-anchor"] == "end"]
    assert len(y_lines) - len(y_labels) <= 1


def test_the_decode_calculators_corner_label_gives_way():
    view = calculator_view("decode-speed-of-light", compute("decode-speed-of-light", {}), dom_id="c")
    ticks = [
        tree_text(t) for t in _elements(view["chart"], "text") if t["attrs"].get("class") == "roofline-chart__tick"
    ]
    assert "0.1" in ticks and "100G" not in ticks and "1T" in ticks


def test_compute_view_json_is_the_view_of_compute_as_json():
    inputs = {"model": "llama-3-8b", "batch": "8"}
    text = compute_view_json("decode-speed-of-light", inputs, "calc")
    assert json.loads(text) == calculator_view(
        "decode-speed-of-light", compute("decode-speed-of-light", inputs), dom_id="calc"
    )


def test_a_pasted_config_comes_back_as_the_code_a_link_carries_and_as_json():
    pasted = config_text("mixtral-8x7b")
    view = json.loads(compute_view_json("decode-speed-of-light", {"model": "config", "model_config": pasted}, "c"))
    shown = view["configs"]["model_config"]
    assert shown["code"].startswith("t-mixtral.l-32.h-4096") and len(shown["code"]) < 100
    assert json.loads(shown["text"])["num_local_experts"] == 8
    # The same numbers as the preset the config describes.
    preset = json.loads(compute_view_json("decode-speed-of-light", {"model": "mixtral-8x7b"}, "c"))
    # Only the weight-format line tells them apart: the config has no quantization_config.
    assert view["outputs"].pop("weight_format_read")["text"].startswith("none: the config.json has no")
    assert preset["outputs"].pop("weight_format_read")["text"] == "none: the model is not a pasted config.json"
    # And the vLLM and SGLang commands: a preset names its repository, a pasted config.json does
    # not (llama.cpp's names a local file either way).
    for command in ("vllm_command", "sglang_command"):
        assert view["outputs"].pop(command)["text"] != preset["outputs"].pop(command)["text"]
    assert view["outputs"] == preset["outputs"]
    # No config read while a preset is chosen, and a bad paste is an error under its field.
    assert preset["configs"] == {}
    bad = calculator_view(
        "kv-cache", compute("kv-cache", {"model": "config", "model_config": '{"model_type": "llama"}'}), dom_id="c"
    )
    assert bad["errors"] == {
        "model_config": "Model config.json: field 'num_hidden_layers' is missing; expected a whole number >= 1"
    }
    assert bad["configs"] == {}


def _texts(tree) -> list[str]:
    if isinstance(tree, str):
        return [tree]
    if tree["tag"] == "title":  # hover text does not count: the rule is "readable without hover"
        return []
    return [text for child in tree["children"] for text in _texts(child)]


@pytest.mark.parametrize(
    "calculator_id", ["decode-speed-of-light", "prefill-ttft", "operations-table", "roofline-explorer"]
)
def test_every_dot_is_labelled_or_explained_by_the_legend(calculator_id):
    result = compute(calculator_id, {})
    drawing = calculator_view(calculator_id, result, dom_id="c")["chart"]
    texts = _texts(drawing)
    unlabelled = [p["label"] for p in result["chart"]["points"] if p["label"] not in texts]
    # Too many to label (a table's rows): the legend says what they are, in the drawing itself.
    assert not unlabelled or f"other dots: {result['chart']['dots']}" in texts
    for bound in {p["bound"] for p in result["chart"]["points"]}:
        assert f"{bound}-bound" in texts
