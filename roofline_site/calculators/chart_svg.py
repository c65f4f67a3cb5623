"""Draw a calculator's roofline chart as static SVG, from the figure data roofline_core returns.

The page ships this SVG so the chart is right before any JavaScript runs. The browser redraws
it from the same data (``site_assets/calculators/chart.mjs``) with the same layout: the
constants and rules below are mirrored there, and a browser test compares the two drawings.
Mapping numbers to pixels on log axes is presentation, so it lives here and not in
roofline_core; no roofline formula is evaluated (the roof and points arrive computed).
"""

from __future__ import annotations

import math
from html import escape
from typing import Any

WIDTH_PX = 640
HEIGHT_PX = 380
LEFT_PX = 64
RIGHT_PX = 24
TOP_PX = 16
BOTTOM_PX = 52
X_TITLE = "Arithmetic intensity (FLOP/byte)"
Y_TITLE = "Attainable throughput (FLOP/s)"
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


def roofline_svg(chart: dict[str, Any], *, element_id: str) -> str:
    """The chart as an ``<svg>`` element.

    Args:
        chart: ``roofline_core.figures.roofline_curve`` data (x in FLOP/byte, y in FLOP/s).
        element_id: Prefix for ids inside the SVG (unique on the page).
    """
    plot_w = WIDTH_PX - LEFT_PX - RIGHT_PX
    plot_h = HEIGHT_PX - TOP_PX - BOTTOM_PX
    x_lo, x_hi = (math.log10(v) for v in chart["x_range"])
    y_lo, y_hi = (math.log10(v) for v in chart["y_range"])

    def px_x(value: float) -> float:
        return LEFT_PX + (math.log10(value) - x_lo) / (x_hi - x_lo) * plot_w

    def px_y(value: float) -> float:
        return TOP_PX + plot_h - (math.log10(value) - y_lo) / (y_hi - y_lo) * plot_h

    bottom = TOP_PX + plot_h
    right = LEFT_PX + plot_w
    out = [
        f'<svg class="roofline-chart" viewBox="0 0 {WIDTH_PX} {HEIGHT_PX}" role="img" aria-labelledby="{element_id}-title" data-chart="roofline">',
        f'<title id="{element_id}-title">{escape(chart_title(chart))}</title>',
        '<g class="roofline-chart__grid">',
    ]
    ticks = []
    for exponent in range(math.ceil(x_lo - 1e-9), math.floor(x_hi + 1e-9) + 1):
        x = _n(px_x(10.0**exponent))
        out.append(f'<line x1="{x}" y1="{TOP_PX}" x2="{x}" y2="{bottom}"></line>')
        ticks.append(f'<text class="roofline-chart__tick" x="{x}" y="{bottom + 18}" text-anchor="middle">{tick_label(exponent)}</text>')
    for exponent in range(math.ceil(y_lo - 1e-9), math.floor(y_hi + 1e-9) + 1):
        y = _n(px_y(10.0**exponent))
        out.append(f'<line x1="{LEFT_PX}" y1="{y}" x2="{right}" y2="{y}"></line>')
        ticks.append(f'<text class="roofline-chart__tick" x="{LEFT_PX - 8}" y="{y}" text-anchor="end" dominant-baseline="middle">{tick_label(exponent)}</text>')
    out.append("</g>")
    out.append(f'<rect class="roofline-chart__frame" x="{LEFT_PX}" y="{TOP_PX}" width="{plot_w}" height="{plot_h}"></rect>')
    out.extend(ticks)
    out.append(f'<text class="roofline-chart__axis-title" x="{_n(LEFT_PX + plot_w / 2)}" y="{HEIGHT_PX - 8}" text-anchor="middle">{X_TITLE}</text>')
    out.append(
        f'<text class="roofline-chart__axis-title" x="14" y="{_n(TOP_PX + plot_h / 2)}" text-anchor="middle" '
        f'transform="rotate(-90 14 {_n(TOP_PX + plot_h / 2)})">{Y_TITLE}</text>'
    )
    roof = " L ".join(f"{_n(px_x(x))} {_n(px_y(y))}" for x, y in chart["roof"])
    out.append(f'<path class="roofline-chart__roof" d="M {roof}"></path>')
    ridge_x = _n(px_x(chart["ridge_flop_per_byte"]))
    ridge_y = _n(px_y(chart["peak_flop_per_s"]))
    out.append(f'<line class="roofline-chart__ridge" x1="{ridge_x}" y1="{ridge_y}" x2="{ridge_x}" y2="{bottom}"></line>')
    # At the foot of the ridge line: points and their labels sit up on the roof.
    out.append(f'<text class="roofline-chart__ridge-label" x="{_n(float(ridge_x) + 4)}" y="{bottom - 6}" text-anchor="start">ridge</text>')
    out.append('<g class="roofline-chart__points">')
    labelled = _labelled(chart["points"])
    for index, point in enumerate(chart["points"]):
        x, y = px_x(point["x"]), px_y(point["y"])
        classes = f"roofline-chart__point roofline-chart__point--{escape(point['bound'])}"
        if point.get("highlight"):
            classes += " roofline-chart__point--highlight"
        out.append(f'<g class="{classes}">')
        out.append(f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{7 if point.get("highlight") else 5}"><title>{escape(point["label"])}</title></circle>')
        if index in labelled:
            lx, ly, anchor = label_position(x, y)
            out.append(f'<text class="roofline-chart__label" x="{_n(lx)}" y="{_n(ly)}" text-anchor="{anchor}">{escape(point["label"])}</text>')
        out.append("</g>")
    out.append("</g></svg>")
    return "".join(out)


def label_position(x: float, y: float) -> tuple[float, float, str]:
    """Where a point's label goes: right of it, or left near the right edge; below near the top."""
    right_side = x < LEFT_PX + (WIDTH_PX - LEFT_PX - RIGHT_PX) * 0.6
    lx = x + 10 if right_side else x - 10
    ly = y + 20 if y < TOP_PX + 24 else y - 10
    return lx, ly, "start" if right_side else "end"


def _labelled(points: list[dict[str, Any]]) -> set[int]:
    """Label the highlighted points when there are any, else every point of a short list."""
    highlighted = {i for i, p in enumerate(points) if p.get("highlight")}
    if highlighted:
        return highlighted
    return set(range(len(points))) if len(points) <= 3 else set()


def _n(value: float) -> str:
    """A coordinate with one decimal (the browser's ``toFixed(1)``)."""
    return f"{value:.1f}"
