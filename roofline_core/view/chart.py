"""A calculator's roofline chart laid out in pixels: an SVG element tree.

The chart data (``roofline_core.figures.roofline_curve``) arrives computed: the roof, the ridge
and the placed points are numbers. This module only decides where they go on a fixed-size
canvas with log axes, which decades get a grid line and what their labels read, and where each
point's label sits. The build writes the tree as SVG markup and the browser builds the same
elements from it, so the prerendered and the live chart are one drawing.
"""

from __future__ import annotations

import math
from typing import Any

from roofline_core.view.nodes import Node, node

WIDTH_PX = 640
HEIGHT_PX = 380
LEFT_PX = 64
RIGHT_PX = 24
TOP_PX = 16
BOTTOM_PX = 52
PLOT_WIDTH_PX = WIDTH_PX - LEFT_PX - RIGHT_PX
PLOT_HEIGHT_PX = HEIGHT_PX - TOP_PX - BOTTOM_PX
X_TITLE = "Arithmetic intensity (FLOP/byte)"
Y_TITLE = "Attainable throughput (FLOP/s)"
#: Points of a list at most this long are all labelled (when none is highlighted).
MAX_LABELLED_POINTS = 3
_PREFIXES = {3: "k", 6: "M", 9: "G", 12: "T", 15: "P", 18: "E"}
# Tolerance on a decade's exponent, so a range edge at exactly 10**n gets its tick.
_EXPONENT_SLACK = 1e-9
#: The largest size calculators.css sets tick text at, in view-box units: 23 in a chart drawn at
#: about half its 640 units (a phone, or beside the inputs), so it reads at 11 px there.
TICK_FONT_UNITS = 23.0
#: Width of a character of tick text, in em: generous for digits and SI prefixes in the sans
#: fonts the site uses, so a box estimated with it holds the drawn label.
_CHAR_WIDTH_EM = 0.62


def text_box(text: Node, font_units: float = TICK_FONT_UNITS) -> tuple[float, float, float, float]:
    """Estimated box ``(left, top, right, bottom)`` of a ``text`` node, in view-box units.

    From its anchor point, ``text-anchor`` and ``dominant-baseline``: what lets the layout keep
    labels apart without a browser to measure them.
    """
    attrs = text["attrs"]
    width = len("".join(c for c in text["children"] if isinstance(c, str))) * _CHAR_WIDTH_EM * font_units
    x, y = float(attrs["x"]), float(attrs["y"])
    left = {"start": x, "middle": x - width / 2, "end": x - width}[attrs.get("text-anchor", "start")]
    if attrs.get("dominant-baseline") == "middle":
        top = y - font_units / 2
    else:  # alphabetic baseline: most of the glyph above it
        top = y - 0.8 * font_units
    return left, top, left + width, top + font_units


def boxes_overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    """Whether two ``(left, top, right, bottom)`` boxes share any area."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def is_roofline_chart(chart: Any) -> bool:
    """Whether ``chart`` has the shape of ``roofline_core.figures.roofline_curve``'s data."""
    return isinstance(chart, dict) and all(key in chart for key in ("x_range", "y_range", "roof", "points"))


def tick_label(exponent: int) -> str:
    """Label of the decade ``10**exponent``: ``0.01``, ``1``, ``100``, ``10k``, ``1T``."""
    if -3 <= exponent < 3:
        return str(10**exponent) if exponent >= 0 else "0." + "0" * (-exponent - 1) + "1"
    base = 3 * (exponent // 3)
    if base in _PREFIXES:
        return f"{10 ** (exponent - base)}{_PREFIXES[base]}"
    return f"1e{exponent}"


def chart_title(chart: dict[str, Any]) -> str:
    """Text alternative: the points and where each lands."""
    parts = [f"{point['label']}: {point['bound']}-bound" for point in chart["points"]]
    return "Roofline chart" + (". " + "; ".join(parts) if parts else "")


class _Axes:
    """Pixel positions of values on the chart's two log axes."""

    def __init__(self, chart: dict[str, Any]) -> None:
        self.x_lo, self.x_hi = (math.log10(v) for v in chart["x_range"])
        self.y_lo, self.y_hi = (math.log10(v) for v in chart["y_range"])

    def x_px(self, flop_per_byte: float) -> float:
        return LEFT_PX + (math.log10(flop_per_byte) - self.x_lo) / (self.x_hi - self.x_lo) * PLOT_WIDTH_PX

    def y_px(self, flop_per_s: float) -> float:
        return TOP_PX + PLOT_HEIGHT_PX - (math.log10(flop_per_s) - self.y_lo) / (self.y_hi - self.y_lo) * PLOT_HEIGHT_PX

    @staticmethod
    def decades(lo: float, hi: float) -> range:
        return range(math.ceil(lo - _EXPONENT_SLACK), math.floor(hi + _EXPONENT_SLACK) + 1)


def roofline_drawing(chart: dict[str, Any], *, element_id: str) -> Node:
    """The chart as an ``<svg>`` element tree.

    Args:
        chart: ``roofline_core.figures.roofline_curve`` data (x in FLOP/byte, y in FLOP/s).
        element_id: Prefix for ids inside the SVG (unique on the page).

    Returns:
        A :class:`~roofline_core.view.nodes.Node`; coordinates are pixels of a
        ``WIDTH_PX`` x ``HEIGHT_PX`` view box, written with one decimal.
    """
    axes = _Axes(chart)
    bottom = TOP_PX + PLOT_HEIGHT_PX
    right = LEFT_PX + PLOT_WIDTH_PX
    grid = node("g", {"class": "roofline-chart__grid"})
    x_ticks: list[Node] = []
    for exponent in axes.decades(axes.x_lo, axes.x_hi):
        x = _n(axes.x_px(10.0**exponent))
        grid["children"].append(node("line", {"x1": x, "y1": TOP_PX, "x2": x, "y2": bottom}))
        x_ticks.append(x_tick(x, tick_label(exponent)))
    y_ticks: list[Node] = []
    for exponent in axes.decades(axes.y_lo, axes.y_hi):
        y = _n(axes.y_px(10.0**exponent))
        grid["children"].append(node("line", {"x1": LEFT_PX, "y1": y, "x2": right, "y2": y}))
        y_ticks.append(y_tick(y, tick_label(exponent)))
    ticks = [*x_ticks, *clear_of(y_ticks, x_ticks)]
    middle = _n(TOP_PX + PLOT_HEIGHT_PX / 2)
    roof = " L ".join(f"{_n(axes.x_px(x))} {_n(axes.y_px(y))}" for x, y in chart["roof"])
    ridge_x = axes.x_px(chart["ridge_flop_per_byte"])
    return node(
        "svg",
        {
            "class": "roofline-chart",
            "viewBox": f"0 0 {WIDTH_PX} {HEIGHT_PX}",
            "role": "img",
            "aria-labelledby": f"{element_id}-title",
            "data-chart": "roofline",
        },
        node("title", {"id": f"{element_id}-title"}, chart_title(chart)),
        grid,
        node(
            "rect",
            {
                "class": "roofline-chart__frame",
                "x": LEFT_PX,
                "y": TOP_PX,
                "width": PLOT_WIDTH_PX,
                "height": PLOT_HEIGHT_PX,
            },
        ),
        *ticks,
        node(
            "text",
            {
                "class": "roofline-chart__axis-title",
                "x": _n(LEFT_PX + PLOT_WIDTH_PX / 2),
                "y": HEIGHT_PX - 8,
                "text-anchor": "middle",
            },
            X_TITLE,
        ),
        node(
            "text",
            {
                "class": "roofline-chart__axis-title",
                "x": 14,
                "y": middle,
                "text-anchor": "middle",
                "transform": f"rotate(-90 14 {middle})",
            },
            Y_TITLE,
        ),
        node("path", {"class": "roofline-chart__roof", "d": f"M {roof}"}),
        node(
            "line",
            {
                "class": "roofline-chart__ridge",
                "x1": _n(ridge_x),
                "y1": _n(axes.y_px(chart["peak_flop_per_s"])),
                "x2": _n(ridge_x),
                "y2": bottom,
            },
        ),
        # At the foot of the ridge line: points and their labels sit up on the roof.
        node(
            "text",
            {
                "class": "roofline-chart__ridge-label",
                "x": _n(float(_n(ridge_x)) + 4),
                "y": bottom - 6,
                "text-anchor": "start",
            },
            "ridge",
        ),
        node("g", {"class": "roofline-chart__points"}, *_points(chart["points"], axes)),
    )


def x_tick(x: str, label: str) -> Node:
    """A horizontal axis's tick label, centred under its grid line at ``x`` (pixels)."""
    return node(
        "text",
        {"class": "roofline-chart__tick", "x": x, "y": TOP_PX + PLOT_HEIGHT_PX + 18, "text-anchor": "middle"},
        label,
    )


def y_tick(y: str, label: str) -> Node:
    """A vertical axis's tick label, left of the plot beside its grid line at ``y`` (pixels)."""
    return node(
        "text",
        {
            "class": "roofline-chart__tick",
            "x": LEFT_PX - 8,
            "y": y,
            "text-anchor": "end",
            "dominant-baseline": "middle",
        },
        label,
    )


def clear_of(labels: list[Node], kept: list[Node]) -> list[Node]:
    """``labels`` without those whose box meets one of ``kept``.

    The lowest y tick and the first x tick both sit at the plot's bottom-left corner; where
    they would collide the y label goes (its grid line stays, and the decade above names the
    scale).
    """
    kept_boxes = [text_box(k) for k in kept]
    return [label for label in labels if not any(boxes_overlap(text_box(label), box) for box in kept_boxes)]


def _points(points: list[dict[str, Any]], axes: _Axes) -> list[Node]:
    labelled = _labelled(points)
    drawn = []
    for index, point in enumerate(points):
        x, y = axes.x_px(point["x"]), axes.y_px(point["y"])
        classes = f"roofline-chart__point roofline-chart__point--{point['bound']}"
        if point.get("highlight"):
            classes += " roofline-chart__point--highlight"
        marker = node(
            "circle",
            {"cx": _n(x), "cy": _n(y), "r": 7 if point.get("highlight") else 5},
            node("title", {}, point["label"]),
        )
        group = node("g", {"class": classes}, marker)
        if index in labelled:
            lx, ly, anchor = label_position(x, y)
            group["children"].append(
                node(
                    "text",
                    {"class": "roofline-chart__label", "x": _n(lx), "y": _n(ly), "text-anchor": anchor},
                    point["label"],
                )
            )
        drawn.append(group)
    return drawn


def label_position(x: float, y: float) -> tuple[float, float, str]:
    """Where a point's label goes: right of it, or left near the right edge; below near the top."""
    right_side = x < LEFT_PX + PLOT_WIDTH_PX * 0.6
    lx = x + 10 if right_side else x - 10
    ly = y + 20 if y < TOP_PX + 24 else y - 10
    return lx, ly, "start" if right_side else "end"


def _labelled(points: list[dict[str, Any]]) -> set[int]:
    """Label the highlighted points when there are any, else every point of a short list."""
    highlighted = {i for i, p in enumerate(points) if p.get("highlight")}
    if highlighted:
        return highlighted
    return set(range(len(points))) if len(points) <= MAX_LABELLED_POINTS else set()


def _n(value: float) -> str:
    """A coordinate in pixels with one decimal."""
    return f"{value:.1f}"
