"""Log-log axes in pixels, shared by the calculators' charts: frame, grid, tick labels that keep apart.

A chart module (``chart`` for the roofline, ``kv_chart`` for the KV cache) says how big its
margins are and how a decade is labelled; where a value lands, which decades get a grid line,
and which tick labels would collide (the bottom-left corner, where both axes start) is decided
here once.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from roofline_core.view.nodes import Node, node

Box = tuple[float, float, float, float]

#: The largest size calculators.css sets chart text at, in view-box units: 23 in a chart drawn
#: at about half its 640 units (a phone, or beside the inputs), so it reads at 11 px there.
TEXT_UNITS = 23.0
#: Width of a character of chart text, in em: generous for digits, SI prefixes and lower-case
#: words in the sans fonts the site uses, so a box estimated with it holds the drawn label.
_CHAR_WIDTH_EM = 0.62
# Tolerance on a decade's exponent, so a range edge at exactly 10**n gets its tick.
_EXPONENT_SLACK = 1e-9


def coordinate(value_px: float) -> str:
    """A coordinate in pixels, written with one decimal."""
    return f"{value_px:.1f}"


def polyline_path(frame: LogFrame, points: list[list[float]]) -> str:
    """An SVG path's ``d`` through ``points`` (data units, ``[x, y]`` each) on ``frame``."""
    return "M " + " L ".join(f"{coordinate(frame.x_px(x))} {coordinate(frame.y_px(y))}" for x, y in points)


@dataclass(frozen=True)
class LogFrame:
    """A plot area with log axes: margins in pixels of the view box, ranges in the data's units."""

    width_px: float
    height_px: float
    left_px: float
    right_px: float
    top_px: float
    bottom_px: float
    x_range: tuple[float, float]
    y_range: tuple[float, float]

    @property
    def plot_left_px(self) -> float:
        return self.left_px

    @property
    def plot_right_px(self) -> float:
        return self.width_px - self.right_px

    @property
    def plot_top_px(self) -> float:
        return self.top_px

    @property
    def plot_bottom_px(self) -> float:
        return self.height_px - self.bottom_px

    def x_px(self, x: float) -> float:
        lo, hi = (math.log10(v) for v in self.x_range)
        return self.plot_left_px + (math.log10(x) - lo) / (hi - lo) * (self.plot_right_px - self.plot_left_px)

    def y_px(self, y: float) -> float:
        lo, hi = (math.log10(v) for v in self.y_range)
        return self.plot_bottom_px - (math.log10(y) - lo) / (hi - lo) * (self.plot_bottom_px - self.plot_top_px)

    def x_decades(self) -> range:
        return _decades(*self.x_range)

    def y_decades(self) -> range:
        return _decades(*self.y_range)


def frame_of(
    chart: dict[str, Any], *, width_px: float, height_px: float, margins_px: tuple[float, float, float, float]
) -> LogFrame:
    """The log frame of chart data with ``x_range`` and ``y_range``; margins are (left, right,
    top, bottom) in pixels of the view box."""
    left, right, top, bottom = margins_px
    return LogFrame(
        width_px=width_px,
        height_px=height_px,
        left_px=left,
        right_px=right,
        top_px=top,
        bottom_px=bottom,
        x_range=tuple(chart["x_range"]),
        y_range=tuple(chart["y_range"]),
    )


#: Baseline of the vertical axis's unit above its tick labels, in view-box units: the text at
#: its largest (:data:`TEXT_UNITS`) stays clear of the top tick label when the plot starts at
#: :data:`UNIT_TOP_PX` or lower.
UNIT_BASELINE_PX = 20
UNIT_TOP_PX = 40


def axis_titles(frame: LogFrame, *, x_title: str, y_title: str) -> list[Node]:
    """The two axis titles: under the plot, and turned along the left edge; and the vertical
    axis's unit alone above its tick labels, which a narrow chart shows in place of the turned
    title (that one needs the margin the tick labels take at the larger text size)."""
    middle = coordinate((frame.plot_top_px + frame.plot_bottom_px) / 2)
    unit = y_title[y_title.rindex("(") + 1 : -1] if y_title.endswith(")") else y_title
    return [
        node(
            "text",
            {
                "class": "roofline-chart__axis-title",
                "x": coordinate((frame.plot_left_px + frame.plot_right_px) / 2),
                "y": frame.height_px - 8,
                "text-anchor": "middle",
            },
            x_title,
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
            y_title,
        ),
        node("text", {"class": "roofline-chart__axis-unit", "x": 4, "y": UNIT_BASELINE_PX}, unit),
    ]


def _decades(lo: float, hi: float) -> range:
    return range(math.ceil(math.log10(lo) - _EXPONENT_SLACK), math.floor(math.log10(hi) + _EXPONENT_SLACK) + 1)


def grid_and_ticks(
    frame: LogFrame, *, x_label: Callable[[int], str], y_label: Callable[[int], str]
) -> tuple[Node, list[Node]]:
    """A grid line per decade of each axis, and their tick labels (``x_label(exponent)``...).

    The lowest y tick and the first x tick both sit at the plot's bottom-left corner; where
    they would collide the y label goes (its grid line stays, and the decade above names the
    scale).
    """
    grid = node("g", {"class": "roofline-chart__grid"})
    x_ticks: list[Node] = []
    for exponent in frame.x_decades():
        x = coordinate(frame.x_px(10.0**exponent))
        grid["children"].append(node("line", {"x1": x, "y1": frame.plot_top_px, "x2": x, "y2": frame.plot_bottom_px}))
        x_ticks.append(
            node(
                "text",
                {"class": "roofline-chart__tick", "x": x, "y": frame.plot_bottom_px + 18, "text-anchor": "middle"},
                x_label(exponent),
            )
        )
    y_ticks: list[Node] = []
    for exponent in frame.y_decades():
        y = coordinate(frame.y_px(10.0**exponent))
        grid["children"].append(node("line", {"x1": frame.plot_left_px, "y1": y, "x2": frame.plot_right_px, "y2": y}))
        y_ticks.append(
            node(
                "text",
                {
                    "class": "roofline-chart__tick",
                    "x": frame.plot_left_px - 8,
                    "y": y,
                    "text-anchor": "end",
                    "dominant-baseline": "middle",
                },
                y_label(exponent),
            )
        )
    return grid, [*x_ticks, *clear_of(y_ticks, x_ticks)]


def text_box(text: Node, font_units: float = TEXT_UNITS) -> Box:
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


def boxes_overlap(a: Box, b: Box) -> bool:
    """Whether two ``(left, top, right, bottom)`` boxes share any area."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def clear_of(labels: list[Node], kept: list[Node]) -> list[Node]:
    """``labels`` without those whose box meets one of ``kept``."""
    kept_boxes = [text_box(k) for k in kept]
    return [label for label in labels if not any(boxes_overlap(text_box(label), box) for box in kept_boxes)]


def marker_box(cx: float, cy: float, radius: float) -> Box:
    """The box a circular marker covers, in view-box units."""
    return cx - radius, cy - radius, cx + radius, cy + radius


def place_label(
    text: str,
    spots: Iterable[tuple[float, float, str]],
    placed: list[Box],
    frame: LogFrame,
    *,
    css_class: str = "roofline-chart__label",
) -> Node:
    """A label at the best of ``spots`` (x, baseline y, anchor), and its box added to ``placed``.

    ``placed`` holds what a label must not cover: the labels placed so far and every marker's
    box (a marker drawn over a label hides it). The first spot whose box stays in the chart and
    meets none of them wins; when none does (a crowded corner), the one that covers the least,
    so a label is never dropped.
    """
    candidates = [
        node("text", {"class": css_class, "x": coordinate(x), "y": coordinate(y), "text-anchor": anchor}, text)
        for x, y, anchor in spots
    ]
    chosen = min(candidates, key=lambda label: _crowding(text_box(label), placed, frame))
    placed.append(text_box(chosen))
    return chosen


def _crowding(box: Box, placed: list[Box], frame: LogFrame) -> float:
    """How badly a label's box sits: 0 when clear; area over placed boxes; any overflow of the
    chart's edges (or onto the tick labels under the plot) counts as far worse."""
    inside = (0.0, 0.0, frame.width_px, frame.plot_bottom_px)
    spill = sum(max(0.0, inside[i] - box[i]) for i in (0, 1)) + sum(max(0.0, box[i] - inside[i]) for i in (2, 3))
    covered = sum(_overlap_area(box, other) for other in placed)
    return spill * 1e6 + covered


def _overlap_area(a: Box, b: Box) -> float:
    return max(0.0, min(a[2], b[2]) - max(a[0], b[0])) * max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
