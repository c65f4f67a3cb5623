"""The KV cache calculator's chart laid out in pixels: cache bytes against context, under the memory.

The data (``roofline_core.calculators.kv_cache_chart``) arrives computed: the curve, the memory
lines and the marked points, each with its label text. This module places them on log axes
and puts every label where it can be read without hover: beside its line or point, at the
first of a few spots that meets no label already placed and no marker, and stays inside the
chart.
"""

from __future__ import annotations

from typing import Any

from roofline_core.formatting import format_bytes
from roofline_core.view.axes import (
    UNIT_TOP_PX,
    Box,
    axis_titles,
    coordinate,
    frame_of,
    grid_and_ticks,
    marker_box,
    place_label,
    polyline_path,
)
from roofline_core.view.chart import tick_label
from roofline_core.view.nodes import Node, node

WIDTH_PX = 640
HEIGHT_PX = 380
# Wider than the roofline's: the byte ticks ("100 GB") are longer than "10T".
LEFT_PX = 96
RIGHT_PX = 24
TOP_PX = UNIT_TOP_PX  # room for the vertical axis's unit above its ticks
BOTTOM_PX = 52
X_TITLE = "Context (tokens per sequence)"
Y_TITLE = "KV cache (bytes)"
#: Gap between a label and its line or point, in pixels.
_GAP_PX = 8
#: One line of label text at its largest size, in pixels (a label moved a line up or down).
_LINE_PX = 26


def kv_cache_drawing(chart: dict[str, Any], *, element_id: str) -> Node:
    """The chart as an ``<svg>`` element tree.

    Args:
        chart: ``roofline_core.calculators.kv_cache_chart`` data (x in tokens, y in bytes).
        element_id: Prefix for ids inside the SVG (unique on the page).
    """
    frame = frame_of(chart, width_px=WIDTH_PX, height_px=HEIGHT_PX, margins_px=(LEFT_PX, RIGHT_PX, TOP_PX, BOTTOM_PX))
    grid, ticks = grid_and_ticks(frame, x_label=tick_label, y_label=lambda e: format_bytes(10.0**e))
    left, right, top, bottom = frame.plot_left_px, frame.plot_right_px, frame.plot_top_px, frame.plot_bottom_px
    # Every marker is an obstacle from the start: a label placed before a later point's marker
    # would otherwise be drawn under it.
    placed: list[Box] = [marker_box(frame.x_px(p["x"]), frame.y_px(p["y"]), _radius(p)) for p in chart["points"]]
    lines: list[Node] = []
    for line in chart["lines"]:
        y = frame.y_px(line["y"])
        drawn = node("g", {"class": f"roofline-chart__level roofline-chart__level--{line['role']}"})
        drawn["children"].append(
            node("line", {"x1": coordinate(left), "y1": coordinate(y), "x2": coordinate(right), "y2": coordinate(y)})
        )
        spots = [(left + _GAP_PX, y - _GAP_PX, "start"), (left + _GAP_PX, y + _GAP_PX + 18, "start")]
        spots += [(right - _GAP_PX, y - _GAP_PX, "end"), (right - _GAP_PX, y + _GAP_PX + 18, "end")]
        drawn["children"].append(place_label(line["label"], spots, placed, frame))
        lines.append(drawn)
    points: list[Node] = []
    for point in chart["points"]:
        x, y = frame.x_px(point["x"]), frame.y_px(point["y"])
        group = node("g", {"class": f"roofline-chart__point roofline-chart__point--{point['role']}"})
        if point["role"] == "limit":
            # Down to the context axis: where the reader reads the longest context that fits.
            group["children"].append(
                node(
                    "line",
                    {"x1": coordinate(x), "y1": coordinate(y), "x2": coordinate(x), "y2": coordinate(bottom)},
                )
            )
        group["children"].append(node("circle", {"cx": coordinate(x), "cy": coordinate(y), "r": _radius(point)}))
        # Beside the point, then centred over or under it, then a line further up or down each time.
        spots = [
            (x + dx, y + dy + direction * lines * _LINE_PX, anchor)
            for lines in range(3)
            for direction, dy in ((-1, -_GAP_PX), (1, _GAP_PX + 18))
            for dx, anchor in ((12, "start"), (-12, "end"), (0, "middle"))
        ]
        group["children"].append(place_label(point["label"], spots, placed, frame))
        points.append(group)
    extras = []
    if chart["note"]:
        # Top left, else bottom right, moving inwards a line at a time.
        spots = [
            spot
            for lines in range(4)
            for spot in (
                (left + _GAP_PX, top + 26 + lines * _LINE_PX, "start"),
                (right - _GAP_PX, bottom - _GAP_PX - lines * _LINE_PX, "end"),
            )
        ]
        extras.append(place_label(chart["note"], spots, placed, frame, css_class="roofline-chart__note"))
    return node(
        "svg",
        {
            "class": "roofline-chart roofline-chart--kv",
            "viewBox": f"0 0 {WIDTH_PX} {HEIGHT_PX}",
            "role": "img",
            "aria-labelledby": f"{element_id}-title",
            "data-chart": "kv-cache",
        },
        node("title", {"id": f"{element_id}-title"}, chart["title"]),
        grid,
        node(
            "rect",
            {
                "class": "roofline-chart__frame",
                "x": coordinate(left),
                "y": coordinate(top),
                "width": coordinate(right - left),
                "height": coordinate(bottom - top),
            },
        ),
        *ticks,
        *axis_titles(frame, x_title=X_TITLE, y_title=Y_TITLE),
        *lines,
        node("path", {"class": "roofline-chart__kv-curve", "d": polyline_path(frame, chart["curve"])}),
        *points,
        *extras,
    )


def _radius(point: dict[str, Any]) -> int:
    """A marker's radius in pixels: the reader's own scenario is drawn larger."""
    return 7 if point["role"] == "current" else 5
