"""The agentic-session calculator's chart laid out in pixels: each turn's times against its context.

The data (``roofline_core.calculators.session_chart``) arrives computed: one line a time through
the turns and the marked turns. This module places them on log axes, names each line at its
right-hand end and each marked turn where the label meets no marker and no other label.
"""

from __future__ import annotations

from typing import Any

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
LEFT_PX = 72
RIGHT_PX = 24
TOP_PX = UNIT_TOP_PX
BOTTOM_PX = 52
X_TITLE = "Context at the turn's start (tokens)"
Y_TITLE = "Time (s)"
_GAP_PX = 8
_LINE_PX = 26


def session_drawing(chart: dict[str, Any], *, element_id: str) -> Node:
    """The chart as an ``<svg>`` element tree.

    Args:
        chart: ``roofline_core.calculators.session_chart.session_chart`` data (x in tokens, y in s).
        element_id: Prefix for ids inside the SVG (unique on the page).
    """
    frame = frame_of(chart, width_px=WIDTH_PX, height_px=HEIGHT_PX, margins_px=(LEFT_PX, RIGHT_PX, TOP_PX, BOTTOM_PX))
    grid, ticks = grid_and_ticks(frame, x_label=tick_label, y_label=tick_label)
    left, right, top, bottom = frame.plot_left_px, frame.plot_right_px, frame.plot_top_px, frame.plot_bottom_px
    marks = chart["points"]
    placed: list[Box] = [marker_box(frame.x_px(p["x"]), frame.y_px(p["y"]), _radius(p)) for p in marks]
    lines: list[Node] = []
    names: list[Node] = []
    for index, series in enumerate(chart["series"]):
        if not series["points"]:
            continue
        css = "roofline-chart__frontier" if series["id"] == "turn" else f"roofline-chart__tp-line--{index % 4}"
        lines.append(
            node("path", {"class": f"roofline-chart__tp-line {css}", "d": polyline_path(frame, series["points"])})
        )
        # Named at its right-hand end (the last turn), above or below the line.
        x, y = frame.x_px(series["points"][-1][0]), frame.y_px(series["points"][-1][1])
        spots = [(x + dx, y + dy, "end") for dy in (-_GAP_PX - 4, _GAP_PX + 18, -_GAP_PX - 30) for dx in (-10, -60)]
        names.append(place_label(series["label"], spots, placed, frame, css_class="roofline-chart__legend-text"))
    points: list[Node] = []
    for point in marks:
        x, y = frame.x_px(point["x"]), frame.y_px(point["y"])
        role = "plan" if point["role"] == "offload" else "frontier"
        group = node("g", {"class": f"roofline-chart__point roofline-chart__point--{role}"})
        group["children"].append(node("circle", {"cx": coordinate(x), "cy": coordinate(y), "r": _radius(point)}))
        if point["label"]:
            spots = [
                (x + dx, y + dy + direction * lines_up * _LINE_PX, anchor)
                for lines_up in range(3)
                for direction, dy in ((-1, -_GAP_PX - 4), (1, _GAP_PX + 18))
                for dx, anchor in ((12, "start"), (-12, "end"), (0, "middle"))
            ]
            group["children"].append(place_label(point["label"], spots, placed, frame))
        points.append(group)
    return node(
        "svg",
        {
            "class": "roofline-chart roofline-chart--frontier roofline-chart--session",
            "viewBox": f"0 0 {WIDTH_PX} {HEIGHT_PX}",
            "role": "img",
            "aria-labelledby": f"{element_id}-title",
            "data-chart": "session",
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
        *points,
        *names,
    )


def _radius(point: dict[str, Any]) -> int:
    """A marker's radius in pixels: a turn that waited on the offload tier is drawn larger."""
    return 6 if point["role"] == "offload" else 4
