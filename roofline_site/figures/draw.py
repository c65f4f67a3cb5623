"""Draw figure data from :mod:`roofline_core.figures` as SVG with matplotlib.

This is the only module that imports matplotlib, and it is imported only when the cache misses
(see :mod:`roofline_site.figures.cache`), so a warm build never loads matplotlib.

Output is deterministic: a fixed ``svg.hashsalt`` (clip-path ids), no date in the metadata,
glyphs drawn as paths (no dependence on the reader's fonts), no pyplot global state. Colours are
sentinels that :mod:`roofline_site.figures.theme` turns into CSS variables.
"""

from __future__ import annotations

import io
import math
from typing import Any

import matplotlib
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.backends.backend_svg import FigureCanvasSVG
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch
from matplotlib.ticker import NullFormatter, NullLocator

from roofline_site.figures.labels import (
    ABOVE,
    ABOVE_LEFT,
    ABOVE_RIGHT,
    BELOW,
    BELOW_LEFT,
    BELOW_RIGHT,
    PendingLabel,
    place_labels,
)
from roofline_site.figures.theme import SENTINEL, SERIES, theme_svg

FG = SENTINEL["fg"]
MUTED = SENTINEL["muted"]
GRID = SENTINEL["grid"]
BG = SENTINEL["bg"]
BOUND_COLOUR = {"memory": SENTINEL["memory"], "compute": SENTINEL["compute"]}
BOUND_MARKER = {"memory": "o", "compute": "s"}

#: Width of every figure, in inches (72 SVG units each). Sized so that 10-11 pt text stays
#: readable when the SVG is scaled to a 390 px phone (about 0.9x) and to the desktop column.
WIDTH_IN = 4.4
PANEL_HEIGHT_IN = 3.0
#: Height of each panel when a figure has several.
STACKED_PANEL_HEIGHT_IN = 2.3
ROW_HEIGHT_IN = 0.4
#: Dash patterns for vertical lines named in a legend, in order.
VLINE_DASHES = ((0, (2, 2)), (0, (6, 2)), (0, (6, 2, 1, 2)), (0, (1, 1)))

RC = {
    # Fixed salt: matplotlib derives clip-path ids from it (random per run otherwise).
    "svg.hashsalt": "roofline-glossary",
    "svg.fonttype": "path",
    "font.family": "DejaVu Sans",
    "font.size": 10,
    "axes.labelsize": 10,
    "xtick.labelsize": 9.5,
    "ytick.labelsize": 9.5,
    "legend.fontsize": 9.5,
    "axes.linewidth": 0.8,
    "axes.edgecolor": MUTED,
    "axes.labelcolor": FG,
    "text.color": FG,
    "xtick.color": MUTED,
    "ytick.color": MUTED,
    "xtick.labelcolor": FG,
    "ytick.labelcolor": FG,
    "grid.color": GRID,
    "grid.linewidth": 0.7,
    "hatch.color": FG,
    "hatch.linewidth": 0.8,
    "figure.facecolor": "none",
    "axes.facecolor": "none",
    "savefig.facecolor": "none",
    "savefig.edgecolor": "none",
    "legend.frameon": False,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "lines.solid_capstyle": "round",
}

_HALO = {"boxstyle": "round,pad=0.18", "facecolor": BG, "edgecolor": "none", "alpha": 0.85}


def draw_svg(data: dict[str, Any]) -> str:
    """Draw ``data`` (a figure dict from :mod:`roofline_core.figures`) and return themed SVG text."""
    with matplotlib.rc_context(RC):
        figure = _figure(data)
        buffer = io.StringIO()
        FigureCanvasSVG(figure)
        figure.savefig(buffer, format="svg", metadata={"Date": None})
    return theme_svg(buffer.getvalue())


def _figure(data: dict[str, Any]) -> Figure:
    panels = data["panels"]
    heights = [_panel_height(p, stacked=len(panels) > 1) for p in panels]
    has_legend = any(p.get("legend") or p.get("row_labels") for p in panels)
    figure = Figure(figsize=(WIDTH_IN, sum(heights) + (0.5 if has_legend else 0)), layout="constrained")
    figure.get_layout_engine().set(h_pad=0.06, w_pad=0.04)
    axes = figure.subplots(len(panels), 1, squeeze=False, height_ratios=heights)[:, 0]
    handles: dict[str, Any] = {}
    pending: list[list[PendingLabel]] = []
    for ax, panel in zip(axes, panels):
        pending.append(_draw_panel(ax, panel, handles))
    if has_legend and handles:
        long_labels = any(len(label) > 24 for label in handles)
        figure.legend(
            list(handles.values()),
            list(handles.keys()),
            loc="outside lower center",
            ncols=1 if long_labels or len(handles) == 1 else 2,
            handlelength=2.2,
            columnspacing=1.2,
        )
    # Labels that depend on the axes' final shape (slope angles, what fits) come last. Text is
    # measured with an Agg renderer; the layout is in points, the same in the SVG.
    renderer = FigureCanvasAgg(figure).get_renderer()
    figure.draw_without_rendering()
    for ax, panel, labels in zip(axes, panels, pending):
        fixed = _draw_fixed_labels(ax, panel, renderer)
        placed = place_labels(ax, labels + _note_labels(panel), renderer, obstacles=fixed)
        _draw_region_labels(ax, panel, renderer, placed)
    return figure


def _panel_height(panel: dict[str, Any], *, stacked: bool) -> float:
    if panel.get("row_labels"):
        return ROW_HEIGHT_IN * len(panel.get("points", [])) + 0.7
    return STACKED_PANEL_HEIGHT_IN if stacked else PANEL_HEIGHT_IN


def _draw_panel(ax, panel: dict[str, Any], handles: dict[str, Any]) -> list[PendingLabel]:
    """Draw everything but the labels whose place depends on the layout; return those labels."""
    _axes_setup(ax, panel)
    for region in panel.get("regions", []):
        _draw_region(ax, panel, region)
    for index, series in enumerate(panel.get("series", [])):
        # A reference line (the diagonal of a measured-against-estimate chart) is drawn quietly.
        colour = (FG if not series.get("dashed") else MUTED) if series.get("reference") else SERIES[index % len(SERIES)]
        (line,) = ax.plot(
            [p[0] for p in series["points"]],
            [p[1] for p in series["points"]],
            color=colour,
            linewidth=1.2 if series.get("reference") else 2.0,
            linestyle=(0, (5, 3)) if series.get("dashed") else "-",
            zorder=3,
            gid="series",
        )
        if panel.get("legend"):
            handles.setdefault(series["label"], line)
    if "bars" in panel:
        _draw_bars(ax, panel["bars"], handles)
    for index, group in enumerate(panel.get("scatter", [])):
        _draw_scatter(ax, group, index, handles)
    for index, vline in enumerate(panel.get("vlines", [])):
        _draw_vline(ax, vline, index, handles if (panel.get("legend") or panel.get("row_labels")) else None)
    for hline in panel.get("hlines", []):
        _draw_hline(ax, hline)
    labels = [label for point in panel.get("points", []) if (label := _draw_point(ax, panel, point))]
    if panel.get("row_labels"):
        _legend_bounds(handles, panel)
    return labels


def _axes_setup(ax, panel: dict[str, Any]) -> None:
    if panel["x_scale"] == "log":
        ax.set_xscale("log")
    if panel["y_scale"] == "log":
        ax.set_yscale("log")
    ax.set_xlim(*panel["x_range"])
    ax.set_ylim(*panel["y_range"])
    ax.set_xticks([t[0] for t in panel["x_ticks"]], [t[1] for t in panel["x_ticks"]])
    ax.xaxis.set_minor_locator(NullLocator())
    ax.xaxis.set_minor_formatter(NullFormatter())
    if panel["y_scale"] == "none":
        ax.yaxis.set_visible(False)
        ax.spines["left"].set_visible(False)
    else:
        ax.set_yticks([t[0] for t in panel["y_ticks"]], [t[1] for t in panel["y_ticks"]])
        ax.yaxis.set_minor_locator(NullLocator())
        ax.yaxis.set_minor_formatter(NullFormatter())
        ax.grid(True, axis="y", which="major")
    if panel["x_scale"] != "category":
        ax.grid(True, axis="x", which="major")
    ax.set_axisbelow(True)
    ax.set_xlabel(panel["x_label"])
    ax.set_ylabel(panel["y_label"])
    ax.tick_params(length=3)
    if panel["x_scale"] == "category":
        ax.tick_params(axis="x", length=0)


def _middle(panel: dict[str, Any], low: float, high: float) -> float:
    return math.sqrt(low * high) if panel["x_scale"] == "log" else (low + high) / 2


def _draw_region(ax, panel: dict[str, Any], region: dict[str, Any]) -> None:
    ax.axvspan(region["x0"], region["x1"], facecolor=BOUND_COLOUR[region["bound"]], alpha=0.09, linewidth=0, zorder=0)


def _draw_region_labels(ax, panel: dict[str, Any], renderer, placed: list) -> None:
    """Name the regions beside the boundary between them, at the bottom of the panel (at the
    top when a curve or a label is in the way there).

    A label sits on the side of its region that touches the other region (memory-bound to the
    left of the ridge, compute-bound to its right); one too wide for its region is broken after
    its hyphen.
    """
    regions = [r for r in panel.get("regions", []) if r.get("label")]
    if len(regions) != 2:
        for region in regions:
            ax.text(
                _middle(panel, region["x0"], region["x1"]),
                0.03,
                region["label"],
                transform=ax.get_xaxis_transform(),
                ha="center",
                va="bottom",
                color=BOUND_COLOUR[region["bound"]],
                fontsize=9,
                fontstyle="italic",
                zorder=4,
            )
        return
    left, right = sorted(regions, key=lambda r: r["x0"])
    axes_box = ax.get_window_extent(renderer)
    curves = [
        line.get_transform().transform_path(line.get_path()) for line in ax.get_lines() if line.get_gid() == "series"
    ]
    for region, x, ha, dx in ((left, left["x1"], "right", -4), (right, right["x0"], "left", 4)):
        # At the bottom of the panel unless a curve runs through the label there; then at the top.
        for y, va in ((0.03, "bottom"), (0.97, "top")):
            text = ax.annotate(
                region["label"],
                (x, y),
                xycoords=ax.get_xaxis_transform(),
                xytext=(dx, 0),
                textcoords="offset points",
                ha=ha,
                va=va,
                color=BOUND_COLOUR[region["bound"]],
                fontsize=9,
                fontstyle="italic",
                zorder=4,
            )
            box = text.get_window_extent(renderer)
            if box.x0 < axes_box.x0 or box.x1 > axes_box.x1:
                text.set_text(region["label"].replace("-", "-\n", 1))
                box = text.get_window_extent(renderer)
            clear = not any(curve.intersects_bbox(box, filled=False) for curve in curves) and not any(
                box.overlaps(b) for b in placed
            )
            if clear or va == "top":
                break
            text.remove()


def _draw_vline(ax, vline: dict[str, Any], index: int, handles: dict[str, Any] | None) -> None:
    """A vertical marker: named in the legend when the panel has one, else along the line."""
    dashes = VLINE_DASHES[index % len(VLINE_DASHES)] if handles is not None else VLINE_DASHES[0]
    line = ax.axvline(vline["x"], color=MUTED, linewidth=1.2, linestyle=dashes, zorder=2)
    if handles is not None:
        if vline.get("label"):
            handles.setdefault(vline["label"], line)
        return
    if vline.get("label"):
        ax.annotate(
            vline["label"],
            (vline["x"], 0.97),
            xycoords=ax.get_xaxis_transform(),
            xytext=(-4, 0),
            textcoords="offset points",
            ha="right",
            va="top",
            fontsize=9,
            color=FG,
            bbox=_HALO,
            zorder=5,
        )


def _draw_hline(ax, hline: dict[str, Any]) -> None:
    ax.axhline(hline["y"], color=FG, linewidth=1.4, linestyle=(0, (6, 2, 1, 2)), zorder=2)
    ax.text(
        0.02,
        hline["y"],
        hline["label"],
        transform=ax.get_yaxis_transform(),
        ha="left",
        va="bottom",
        fontsize=9,
        color=FG,
        bbox=_HALO,
        zorder=5,
    )


_POINT_LABEL = {"fontsize": 9, "color": FG, "bbox": _HALO, "zorder": 9}
# Preferred spots: a workload on the bandwidth slope reads best below and right of its dot (the
# roof rises away from it); one on the flat compute roof, below or above it; a ridge, up-left.
_SLOPE_SPOTS = (BELOW_RIGHT, ABOVE_LEFT, BELOW_LEFT, ABOVE_RIGHT, BELOW, ABOVE)
_FLAT_SPOTS = (BELOW, ABOVE, BELOW_LEFT, ABOVE_LEFT, BELOW_RIGHT, ABOVE_RIGHT)
_RIDGE_SPOTS = (ABOVE_LEFT, ABOVE, BELOW_RIGHT, ABOVE_RIGHT)


def _draw_bound_marker(ax, point: dict[str, Any], bound: str) -> None:
    """A workload's or operation's marker: coloured and shaped by its bound, outlined in the background colour."""
    ax.plot(
        [point["x"]],
        [point["y"]],
        marker=BOUND_MARKER[bound],
        markersize=8,
        markerfacecolor=BOUND_COLOUR[bound],
        markeredgecolor=BG,
        markeredgewidth=1.2,
        linestyle="none",
        zorder=8,
    )


def _draw_point(ax, panel: dict[str, Any], point: dict[str, Any]) -> PendingLabel | None:
    """Draw a point's marker; return its label for :func:`place_labels` (None if unlabelled)."""
    role = point.get("role", "sample")
    bound = point.get("bound", "memory")
    if role == "ridge":
        ax.plot([point["x"]], [point["y"]], marker="D", markersize=6, color=FG, zorder=6, linestyle="none")
        ax.plot(
            [point["x"], point["x"]],
            [panel["y_range"][0], point["y"]],
            color=MUTED,
            linewidth=1,
            linestyle=(0, (2, 2)),
            zorder=2,
        )
        if not point.get("label"):
            return None
        return PendingLabel(point["x"], point["y"], point["label"], _RIDGE_SPOTS, dict(_POINT_LABEL, zorder=7))
    if role == "workload":
        _draw_bound_marker(ax, point, bound)
        spots = _SLOPE_SPOTS if bound == "memory" else _FLAT_SPOTS
        return PendingLabel(point["x"], point["y"], point["label"], spots, dict(_POINT_LABEL))
    if role == "operation":
        ax.axhline(point["y"], color=GRID, linewidth=0.7, zorder=1)
        _draw_bound_marker(ax, point, bound)
        # The name sits above its dot's row, from the left edge: long names need the full width.
        ax.text(
            0.01,
            point["y"] + 0.16,
            point["label"],
            transform=ax.get_yaxis_transform(),
            ha="left",
            va="bottom",
            fontsize=9,
            bbox=_HALO,
            zorder=9,
        )
        return None
    # A sample on a series: the series colour, its shape telling the bound.
    colour = SERIES[point.get("series", 0) % len(SERIES)]
    ax.plot(
        [point["x"]],
        [point["y"]],
        marker=BOUND_MARKER[bound],
        markersize=4.5,
        markerfacecolor=colour,
        markeredgecolor=colour,
        linestyle="none",
        zorder=4,
    )
    return None


def _legend_bounds(handles: dict[str, Any], panel: dict[str, Any]) -> None:
    present = {p.get("bound", "memory") for p in panel.get("points", [])}
    bounds = [b for b in ("memory", "compute") if b in present]
    where = f" on {panel['bound_on']}" if panel.get("bound_on") else ""
    for bound in bounds:
        handles[f"{bound}-bound{where}"] = Line2D(
            [],
            [],
            marker=BOUND_MARKER[bound],
            markersize=8,
            markerfacecolor=BOUND_COLOUR[bound],
            markeredgecolor=BG,
            linestyle="none",
        )


#: Marker of each scatter group, in order (with its colour, so a group reads without colour too).
SCATTER_MARKERS = ("o", "s", "^", "D", "v", "P")


def _draw_scatter(ax, group: dict[str, Any], index: int, handles: dict[str, Any]) -> None:
    """One group of unlabelled points, named once in the legend."""
    (markers,) = ax.plot(
        [p[0] for p in group["points"]],
        [p[1] for p in group["points"]],
        marker=SCATTER_MARKERS[index % len(SCATTER_MARKERS)],
        markersize=5.5,
        markerfacecolor=SERIES[index % len(SERIES)],
        markeredgecolor=BG,
        markeredgewidth=0.6,
        linestyle="none",
        zorder=6,
    )
    handles.setdefault(group["label"], markers)


def _draw_bars(ax, bars: dict[str, Any], handles: dict[str, Any]) -> None:
    positions = list(range(len(bars["categories"])))
    bottoms = [0.0] * len(positions)
    hatched = bars.get("hatched", [False] * len(positions))
    for index, stack in enumerate(bars["stacks"]):
        colour = SERIES[index % len(SERIES)]
        patches = ax.bar(positions, stack["values"], bottom=bottoms, width=0.62, color=colour, linewidth=0, zorder=2)
        for patch, hatch in zip(patches, hatched):
            if hatch:
                patch.set_hatch("///")
                patch.set_hatchcolor(BG)
        handles.setdefault(stack["label"], Patch(facecolor=colour, linewidth=0))
        bottoms = [b + v for b, v in zip(bottoms, stack["values"])]
    if any(hatched):
        handles.setdefault(bars["hatch_label"], Patch(facecolor="none", edgecolor=FG, hatch="///", linewidth=0))


def _draw_fixed_labels(ax, panel: dict[str, Any], renderer) -> list:
    """Labels with one right place, drawn first: a note along a slope, turned to its angle."""
    boxes = []
    for note in panel.get("notes", []):
        if not note.get("slope"):
            continue
        # The roof's angle on screen: from its data slope through the axes' transform.
        x, y = note["x"], note["y"]
        (x0, y0), (x1, y1) = ax.transData.transform([(x, y), (x * 2, y * 2)])
        text = ax.annotate(
            note["text"],
            (x, y),
            xytext=(0, 6),
            textcoords="offset points",
            rotation=math.degrees(math.atan2(y1 - y0, x1 - x0)),
            rotation_mode="anchor",
            ha="center",
            va="bottom",
            fontsize=9,
            color=FG,
            bbox=_HALO,
            zorder=7,
        )
        boxes.append(text.get_window_extent(renderer))
    return boxes


def _note_labels(panel: dict[str, Any]) -> list[PendingLabel]:
    """Notes on a flat line (the compute roof): above it, or below when that is crowded."""
    return [
        PendingLabel(
            note["x"], note["y"], note["text"], (ABOVE, BELOW, ABOVE_LEFT, BELOW_LEFT), dict(_POINT_LABEL, zorder=7)
        )
        for note in panel.get("notes", [])
        if not note.get("slope")
    ]
