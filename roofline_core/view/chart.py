"""A calculator's roofline chart laid out in pixels: an SVG element tree.

The chart data (``roofline_core.figures.roofline_curve``) arrives computed: the roof, the ridge
and the placed points are numbers. This module only decides where they go on a fixed-size
canvas with log axes, which decades get a grid line and what their labels read, and where each
point's label sits: beside its point, clear of every marker, the legend and the other labels. The build writes the tree as SVG markup and the browser builds the same
elements from it, so the prerendered and the live chart are one drawing.
"""

from __future__ import annotations

from typing import Any

from roofline_core.view.axes import (
    UNIT_TOP_PX,
    Box,
    LogFrame,
    axis_titles,
    boxes_overlap,
    frame_of,
    grid_and_ticks,
    marker_box,
    place_label,
    polyline_path,
    text_box,
)
from roofline_core.view.axes import coordinate as _n
from roofline_core.view.nodes import Node, node

__all__ = [
    "boxes_overlap",
    "is_roofline_chart",
    "label_position",
    "label_spots",
    "roofline_drawing",
    "text_box",
    "tick_label",
]

WIDTH_PX = 640
HEIGHT_PX = 380
LEFT_PX = 64
RIGHT_PX = 24
TOP_PX = UNIT_TOP_PX  # room for the vertical axis's unit above its ticks
BOTTOM_PX = 52
PLOT_WIDTH_PX = WIDTH_PX - LEFT_PX - RIGHT_PX
PLOT_HEIGHT_PX = HEIGHT_PX - TOP_PX - BOTTOM_PX
X_TITLE = "Arithmetic intensity (FLOP/byte)"
Y_TITLE = "Attainable throughput (FLOP/s)"
#: Points of a list at most this long are all labelled (when none is highlighted).
MAX_LABELLED_POINTS = 3
#: Height of a legend line, in view-box units (the narrow layout's 23-unit type fits in it).
LEGEND_LINE_PX = 26
_PREFIXES = {3: "k", 6: "M", 9: "G", 12: "T", 15: "P", 18: "E"}


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


def roofline_drawing(chart: dict[str, Any], *, element_id: str) -> Node:
    """The chart as an ``<svg>`` element tree.

    Args:
        chart: ``roofline_core.figures.roofline_curve`` data (x in FLOP/byte, y in FLOP/s).
        element_id: Prefix for ids inside the SVG (unique on the page).

    Returns:
        A :class:`~roofline_core.view.nodes.Node`; coordinates are pixels of a
        ``WIDTH_PX`` x ``HEIGHT_PX`` view box, written with one decimal.
    """
    axes = frame_of(chart, width_px=WIDTH_PX, height_px=HEIGHT_PX, margins_px=(LEFT_PX, RIGHT_PX, TOP_PX, BOTTOM_PX))
    bottom = axes.plot_bottom_px
    grid, ticks = grid_and_ticks(axes, x_label=tick_label, y_label=tick_label)
    ridge_x = axes.x_px(chart["ridge_flop_per_byte"])
    # At the foot of the ridge line: points and their labels sit up on the roof.
    ridge_label = node(
        "text",
        {
            "class": "roofline-chart__ridge-label",
            "x": _n(float(_n(ridge_x)) + 4),
            "y": bottom - 6,
            "text-anchor": "start",
        },
        "ridge",
    )
    other = chart.get("other_roof")
    legend = _legend(chart["points"], chart.get("dots"), other["label"] if other else None)
    # What a point's label must not cover: every marker, the legend and the ridge's label.
    obstacles = [*_marker_boxes(chart["points"], axes), text_box(ridge_label), *_legend_boxes(legend)]
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
        *axis_titles(axes, x_title=X_TITLE, y_title=Y_TITLE),
        *_other_roof(other, axes),
        node("path", {"class": "roofline-chart__roof", "d": polyline_path(axes, chart["roof"])}),
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
        ridge_label,
        legend,
        node("g", {"class": "roofline-chart__points"}, *_points(chart["points"], axes, obstacles)),
    )


def _other_roof(other: dict[str, Any] | None, axes: LogFrame) -> list[Node]:
    """The chip's other memory roof, dashed under the main one (none without it)."""
    if not other:
        return []
    return [node("path", {"class": "roofline-chart__other-roof", "d": polyline_path(axes, other["roof"])})]


def _legend(points: list[dict[str, Any]], dots: str | None, other_roof: str | None = None) -> Node:
    """What the dots mean, readable without hover, in the plot's top-left corner (the roof
    rises from the bottom-left, so that corner is empty): a swatch per bound drawn, what the
    unlabelled dots are (``dots``, from the calculator: "table rows") and, with a second memory
    roof, a dashed swatch naming it."""
    # (bound of the swatch, "roof" for the dashed line's, or None for text alone; the text)
    rows: list[tuple[str | None, str]] = [
        (bound, f"{bound}-bound") for bound in ("memory", "compute") if any(p["bound"] == bound for p in points)
    ]
    if other_roof:
        rows.append(("roof", other_roof))
    if dots and len(_labelled(points)) < len(points):
        rows.append((None, f"other dots: {dots}"))
    lines: list[Node] = []
    for row, (bound, text) in enumerate(rows):
        y = TOP_PX + LEGEND_LINE_PX * (row + 1)
        x = _n(LEFT_PX + (26 if bound else 8))
        label = node("text", {"class": "roofline-chart__legend-text", "x": x, "y": _n(y)}, text)
        if bound is None:
            lines.append(node("g", {}, label))
            continue
        if bound == "roof":
            swatch = node(
                "line",
                {
                    "class": "roofline-chart__other-roof",
                    "x1": _n(LEFT_PX + 6),
                    "x2": _n(LEFT_PX + 22),
                    "y1": _n(y - 4),
                    "y2": _n(y - 4),
                },
            )
            lines.append(node("g", {"class": "roofline-chart__legend-roof"}, swatch, label))
            continue
        swatch = node("circle", {"r": "7", "cx": _n(LEFT_PX + 14), "cy": _n(y - 4)})
        lines.append(node("g", {"class": f"roofline-chart__point roofline-chart__point--{bound}"}, swatch, label))
    return node("g", {"class": "roofline-chart__legend"}, *lines)


def _radius(point: dict[str, Any]) -> int:
    """A marker's radius in pixels: a highlighted point (the reader's scenario) is larger."""
    return 7 if point.get("highlight") else 5


def _marker_boxes(points: list[dict[str, Any]], axes: LogFrame) -> list[Box]:
    return [marker_box(axes.x_px(p["x"]), axes.y_px(p["y"]), _radius(p)) for p in points]


def _legend_boxes(legend: Node) -> list[Box]:
    """The legend's text and swatches, as boxes a label keeps clear of."""
    boxes = []
    for row in legend["children"]:
        for child in row["children"]:
            if child["tag"] == "text":
                boxes.append(text_box(child))
            elif child["tag"] == "circle":
                attrs = child["attrs"]
                boxes.append(marker_box(float(attrs["cx"]), float(attrs["cy"]), float(attrs["r"])))
            elif child["tag"] == "line":
                attrs = child["attrs"]
                boxes.append(marker_box((float(attrs["x1"]) + float(attrs["x2"])) / 2, float(attrs["y1"]), 8))
    return boxes


def _points(points: list[dict[str, Any]], axes: LogFrame, obstacles: list[Box]) -> list[Node]:
    labelled = _labelled(points)
    placed = list(obstacles)
    drawn = []
    for index, point in enumerate(points):
        x, y = axes.x_px(point["x"]), axes.y_px(point["y"])
        classes = f"roofline-chart__point roofline-chart__point--{point['bound']}"
        if point.get("highlight"):
            classes += " roofline-chart__point--highlight"
        marker = node(
            "circle",
            {"cx": _n(x), "cy": _n(y), "r": _radius(point)},
            node("title", {}, point["label"]),
        )
        group = node("g", {"class": classes}, marker)
        if index in labelled:
            group["children"].append(place_label(point["label"], label_spots(x, y), placed, axes))
        drawn.append(group)
    return drawn


def label_position(x: float, y: float) -> tuple[float, float, str]:
    """A point's preferred label spot: right of it, or left near the right edge; below near the top."""
    right_side = x < LEFT_PX + PLOT_WIDTH_PX * 0.6
    lx = x + 10 if right_side else x - 10
    ly = y + 20 if y < TOP_PX + 24 else y - 10
    return lx, ly, "start" if right_side else "end"


def label_spots(x: float, y: float) -> list[tuple[float, float, str]]:
    """Where a point's label may go, best first: :func:`label_position`, then the other sides of
    the point, then a line further up or down each time (x, baseline y, anchor)."""
    preferred = label_position(x, y)
    around = [
        (x + dx, y + dy + direction * lines * LEGEND_LINE_PX, anchor)
        for lines in range(4)
        for direction, dy in ((-1, -10), (1, 24))
        for dx, anchor in ((10, "start"), (-10, "end"), (0, "middle"))
    ]
    return [preferred, *around]


def _labelled(points: list[dict[str, Any]]) -> set[int]:
    """Label the highlighted points when there are any, else every point of a short list."""
    if len(points) <= MAX_LABELLED_POINTS:
        return set(range(len(points)))
    return {i for i, p in enumerate(points) if p.get("highlight")}
