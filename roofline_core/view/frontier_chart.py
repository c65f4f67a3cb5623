"""The capacity calculator's frontier chart laid out in pixels: tokens/s per device against per user.

The data (``roofline_core.figures.frontier``) arrives computed: one line per tensor-parallel
size through its batches, the frontier through the points no other beats, and the marked
points with their labels. This module places them on log axes; each line is named at its
fastest-per-user end, and each label sits where it meets no marker and no other label.
"""

from __future__ import annotations

from typing import Any

from roofline_core.formatting import format_whole
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
LEFT_PX = 64
RIGHT_PX = 24
TOP_PX = UNIT_TOP_PX
BOTTOM_PX = 52
X_TITLE = "Interactivity (tok/s per user)"
Y_TITLE = "Throughput (tok/s per device)"
_GAP_PX = 8
_LINE_PX = 26


def frontier_drawing(
    chart: dict[str, Any], *, element_id: str, measurements_url: str = "../../model-vs-measurement/"
) -> Node:
    """The chart as an ``<svg>`` element tree; with cited measurements on it, a ``<div>`` of the
    ``<svg>`` and a line under it that names each measured point and links its table row.

    The links sit outside the drawing: an ``<svg role="img">`` is one image to assistive
    technology, and a link inside it could be neither named nor reached by keyboard.

    Args:
        chart: ``roofline_core.figures.frontier.frontier_chart`` data (both axes in tokens/s).
        element_id: Prefix for ids inside the SVG (unique on the page).
        measurements_url: The measurements page, relative to the page (rows are its anchors).
    """
    svg = _svg(chart, element_id=element_id)
    measured = chart.get("measured") or []
    if not measured:
        return svg
    # Short (two lines in an embed's results column): the line sits in the chart's box, which
    # keeps the first screen. Each concurrency links its row; its name says the figures,
    # beginning with the number shown.
    items: list[Node] = []
    for index, group in enumerate(measured):
        items.append(("; " if index else "") + f"{group['run']}: ")
        for n, run in enumerate(group["lengths"]):
            items.append("; " if n else "")
            for k, point in enumerate(run["points"]):
                shown = format_whole(point["concurrency"])
                name = f"{shown} at once: {point['text']} ({group['run']}, {run['lengths']} tokens in and out)"
                link = {"href": f"{measurements_url}#{point['row']}", "aria-label": name, "title": name}
                items += [", " if k else "", node("a", link, shown)]
            items.append(f" at once ({run['lengths']} tokens)" if n == 0 else f" ({run['lengths']})")
    note = node(
        "p",
        {"class": "roofline-chart__measured"},
        node("span", {"class": "roofline-chart__measured-key", "aria-hidden": "true"}, "□ "),
        "Measured: ",
        *items,
    )
    return node("div", {"class": "roofline-chart__with-measured"}, svg, note)


def _svg(chart: dict[str, Any], *, element_id: str) -> Node:
    frame = frame_of(chart, width_px=WIDTH_PX, height_px=HEIGHT_PX, margins_px=(LEFT_PX, RIGHT_PX, TOP_PX, BOTTOM_PX))
    grid, ticks = grid_and_ticks(frame, x_label=tick_label, y_label=tick_label)
    left, right, top, bottom = frame.plot_left_px, frame.plot_right_px, frame.plot_top_px, frame.plot_bottom_px
    marks = chart["points"]
    placed: list[Box] = [marker_box(frame.x_px(p["x"]), frame.y_px(p["y"]), _radius(p)) for p in marks]
    lines: list[Node] = []
    names: list[Node] = []
    for index, series in enumerate(chart["series"]):
        lines.append(
            node(
                "path",
                {
                    "class": f"roofline-chart__tp-line roofline-chart__tp-line--{index % 4}",
                    "d": polyline_path(frame, series["points"]),
                },
            )
        )
        # Named at its fastest-per-user end (batch 1), where the lines stand apart.
        x, y = frame.x_px(series["points"][0][0]), frame.y_px(series["points"][0][1])
        spots = [
            (x + dx, y + dy, anchor) for dy in (-_GAP_PX, _GAP_PX + 18) for dx, anchor in ((8, "start"), (-8, "end"))
        ]
        names.append(place_label(series["label"], spots, placed, frame, css_class="roofline-chart__legend-text"))
    points: list[Node] = []
    for point in marks:
        x, y = frame.x_px(point["x"]), frame.y_px(point["y"])
        group = node("g", {"class": f"roofline-chart__point roofline-chart__point--{point['role']}"})
        r = _radius(point)
        if point["role"] == "measured":
            # A square, so a measurement never reads as one of the model's circles.
            square = {"x": coordinate(x - r), "y": coordinate(y - r), "width": 2 * r, "height": 2 * r}
            group["children"].append(node("rect", square))
        else:
            group["children"].append(node("circle", {"cx": coordinate(x), "cy": coordinate(y), "r": r}))
        if point["label"]:
            spots = [
                (x + dx, y + dy + direction * lines_up * _LINE_PX, anchor)
                for lines_up in range(5)
                for direction, dy in ((-1, -_GAP_PX), (1, _GAP_PX + 18))
                for dx, anchor in ((12, "start"), (-12, "end"), (0, "middle"), (28, "start"), (-28, "end"))
            ]
            group["children"].append(place_label(point["label"], spots, placed, frame))
        points.append(group)
    return node(
        "svg",
        {
            "class": "roofline-chart roofline-chart--frontier",
            "viewBox": f"0 0 {WIDTH_PX} {HEIGHT_PX}",
            "role": "img",
            "aria-labelledby": f"{element_id}-title",
            "data-chart": "frontier",
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
        node("path", {"class": "roofline-chart__frontier", "d": polyline_path(frame, chart["frontier"])}),
        *points,
        *names,
    )


def _radius(point: dict[str, Any]) -> int:
    """A marker's radius (a square's half side) in pixels: the reader's plan is drawn larger."""
    return {"plan": 7, "measured": 5}.get(point["role"], 4)
