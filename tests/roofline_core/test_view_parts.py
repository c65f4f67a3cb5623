"""The drawing of a time's parts (roofline_core.view.parts): a stacked bar and the equation."""

from __future__ import annotations

import math
import re

import pytest

from roofline_core.estimates.parts import LABEL_TEXT, LABELS, Part
from roofline_core.view.parts import BAR_WIDTH, parts_tree
from tests.support.view_tree import nodes_where, nodes_with_class, tree_text

STEP = (
    (Part("weights", 5.19e-3), Part("communication_latency", 1.6e-3), Part("communication_transfer", 0.65e-3)),
    (
        ("weights", "69.5 GB ÷ 8 devices ÷ 3.35 TB/s"),
        ("communication_latency", "160 all-reduces × 10 µs"),
        ("communication_transfer", "160 × 8.19 MB ÷ 450 GB/s"),
    ),
)


def test_segments_fill_the_bar_in_order_with_widths_by_share():
    parts, working = STEP
    tree = parts_tree(7.44e-3, parts, working)
    rects = nodes_where(tree, lambda n: n["tag"] == "rect")
    assert [r["attrs"]["class"].split()[1] for r in rects] == [
        "roofline-parts--weights",
        "roofline-parts--communication_latency",
        "roofline-parts--communication_transfer",
    ]
    xs = [float(r["attrs"]["x"]) for r in rects]
    widths = [float(r["attrs"]["width"]) for r in rects]
    total = sum(p.seconds for p in parts)
    for part, width in zip(parts, widths, strict=True):
        assert width == pytest.approx(part.seconds / total * BAR_WIDTH, abs=1e-3)
    # Each segment starts where the one before ends, and the last ends at the bar's end.
    assert xs[0] == 0
    for x, previous, width in zip(xs[1:], xs, widths, strict=False):
        assert x == pytest.approx(previous + width, abs=2e-3)
    assert xs[-1] + widths[-1] == pytest.approx(BAR_WIDTH, abs=1e-9)
    svg = nodes_where(tree, lambda n: n["tag"] == "svg")[0]
    assert svg["attrs"]["viewBox"] == f"0 0 {BAR_WIDTH} 10"
    assert svg["attrs"]["preserveAspectRatio"] == "none"
    # No inline style anywhere: the page's CSP forbids them.
    assert not nodes_where(tree, lambda n: "style" in n["attrs"])


def test_equation_reads_total_equals_each_part_with_its_working():
    parts, working = STEP
    equation = nodes_with_class(parts_tree(7.44e-3, parts, working), "roofline-parts__equation")[0]
    assert tree_text(equation) == (
        "7.44 ms = 5.19 ms weights read (69.5 GB ÷ 8 devices ÷ 3.35 TB/s)"
        " + 1.60 ms communication latency (160 all-reduces × 10 µs)"
        " + 650 µs communication transfer (160 × 8.19 MB ÷ 450 GB/s)"
    )


def test_every_part_is_named_in_text_not_by_colour_alone():
    parts, working = STEP
    tree = parts_tree(7.44e-3, parts, working)
    svg = nodes_where(tree, lambda n: n["tag"] == "svg")[0]
    assert svg["attrs"]["role"] == "img"
    assert svg["attrs"]["aria-label"] == (
        "What 7.44 ms is made of: weights read 69.8%, communication latency 21.5%, communication transfer 8.74%"
    )
    titles = [tree_text(t) for t in nodes_where(tree, lambda n: n["tag"] == "title")]
    assert titles == [
        "weights read: 5.19 ms, 69.8%",
        "communication latency: 1.60 ms, 21.5%",
        "communication transfer: 650 µs, 8.74%",
    ]
    # Each term's swatch carries its segment's colour class, and is hidden from screen readers
    # (the term's words say the same).
    keys = nodes_with_class(tree, "roofline-parts__key")
    assert [k["attrs"]["class"].split()[1] for k in keys] == [
        r["attrs"]["class"].split()[1] for r in nodes_where(tree, lambda n: n["tag"] == "rect")
    ]
    assert all(k["attrs"]["aria-hidden"] == "true" for k in keys)


def test_shares_add_up_to_the_whole():
    parts, working = STEP
    shares = re.findall(
        r"([0-9.]+)%",
        nodes_where(parts_tree(7.44e-3, parts, working), lambda n: n["tag"] == "svg")[0]["attrs"]["aria-label"],
    )
    assert sum(float(s) for s in shares) == pytest.approx(100, abs=0.05)


def test_a_rate_says_which_time_it_inverts():
    parts, working = STEP
    tree = parts_tree(7.44e-3, parts, working, inverts="decode step time")
    assert tree_text(nodes_with_class(tree, "roofline-parts__inverts")[0]) == "The time it inverts: decode step time."
    assert not nodes_with_class(parts_tree(7.44e-3, parts, working), "roofline-parts__inverts")


def test_zero_parts_are_left_out_and_no_parts_draw_nothing():
    tree = parts_tree(4e-3, [("weights", 4e-3), ("efficiency", 0.0)])
    assert len(nodes_where(tree, lambda n: n["tag"] == "rect")) == 1
    assert "below peak" not in tree_text(tree)
    assert parts_tree(4e-3, []) is None
    assert parts_tree(0.0, [("weights", 0.0)]) is None


def test_a_part_without_working_shows_no_brackets():
    tree = parts_tree(5e-3, [("weights", 4e-3), ("kv_cache", 1e-3)], [("weights", "16 GB ÷ 4 TB/s")])
    assert tree_text(nodes_with_class(tree, "roofline-parts__equation")[0]) == (
        "5 ms = 4 ms weights read (16 GB ÷ 4 TB/s) + 1 ms KV cache read"
    )


def test_unknown_label_is_refused_with_the_vocabulary_named():
    with pytest.raises(ValueError, match=r"\['memory'\].*LABEL_TEXT"):
        parts_tree(1e-3, [("memory", 1e-3)])


def test_every_label_has_a_colour_in_both_palettes():
    from pathlib import Path

    css = (Path(__file__).parents[2] / "site_assets/calculators/calculators.css").read_text()
    for label in LABELS:
        assert re.search(rf"^\.roofline-parts--{label} \{{\n  --roofline-part: #", css, re.M), label
        assert re.search(
            rf'^\[data-md-color-scheme="slate"\] \.roofline-parts--{label} \{{\n  --roofline-part: #', css, re.M
        ), label
    assert set(LABELS) == set(LABEL_TEXT)


def test_tiny_parts_still_sum_exactly():
    parts = [("weights", 1.0), ("kv_cache", 1e-9), ("compute", 1e-12)]
    rects = nodes_where(parts_tree(1.0, parts), lambda n: n["tag"] == "rect")
    end = float(rects[-1]["attrs"]["x"]) + float(rects[-1]["attrs"]["width"])
    assert math.isclose(end, BAR_WIDTH)


# Under a calculator's main time ---------------------------------------------------------


@pytest.mark.parametrize(
    ("calculator", "inputs", "output"),
    [
        ("decode-speed-of-light", {}, "step_time"),
        ("decode-speed-of-light", {"model": "llama-3-70b", "devices": "4", "batch": "8"}, "step_time"),
        ("prefill-ttft", {}, "ttft"),
    ],
)
def test_a_calculators_main_time_shows_its_parts_under_it(calculator, inputs, output):
    from roofline_core.calculators import CALCULATORS, compute
    from roofline_core.view import calculator_view

    result = compute(calculator, inputs)
    view = calculator_view(calculator, result, dom_id="c")
    drawn = [key for key, shown in view["outputs"].items() if shown["parts"] is not None]
    assert drawn == [output]  # one drawing, under the main time (not again under its rate)
    tree = view["outputs"][output]["parts"]
    # Shown under the headline and chart, it opens with the label of the number it breaks down.
    label = next(o.label for o in CALCULATORS[calculator].outputs if o.id == output)
    assert tree_text(nodes_with_class(tree, "roofline-calc__parts-title")[0]) == f"{label}, part by part"
    equation = tree_text(nodes_with_class(tree, "roofline-parts__equation")[0])
    assert equation.startswith(f"{result['outputs'][output]['text']} = ")
    items = result["parts"]["items"]
    assert len(nodes_where(tree, lambda n: n["tag"] == "rect")) == len([i for i in items if i["seconds"] > 0])
    for item in items:
        assert f"{item['phrase']}" in equation


def test_a_calculators_rate_names_the_time_it_inverts():
    from roofline_core.calculators import compute
    from roofline_core.view import calculator_view

    result = compute("speculative-decoding", {})
    view = calculator_view("speculative-decoding", result, dom_id="c")
    tree = view["outputs"]["tokens_per_s"]["parts"]
    assert tree_text(nodes_with_class(tree, "roofline-parts__inverts")[0]).startswith(
        "The time it inverts: a draft-and-verify cycle"
    )
    assert "draft steps" in tree_text(nodes_with_class(tree, "roofline-parts__equation")[0])


def test_a_calculator_without_a_main_time_draws_no_parts():
    from roofline_core.calculators import compute
    from roofline_core.view import calculator_view

    view = calculator_view("kv-cache", compute("kv-cache", {}), dom_id="c")
    assert all(shown["parts"] is None for shown in view["outputs"].values())
