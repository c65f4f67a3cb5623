"""Place point labels where they cover nothing: other labels, markers, curves, the axes' edge.

Each label comes with candidate positions around its anchor (offsets in points and an
alignment), in order of preference. Once the layout is fixed, labels are placed one by one:
each takes the candidate with the lowest cost (leaving the axes, covering a placed label,
covering a marker, crossing a curve), the earliest on a tie. Greedy and deterministic, which is
all a figure with a handful of labels needs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from matplotlib.transforms import Bbox

#: (dx points, dy points, horizontal alignment, vertical alignment)
Candidate = tuple[float, float, str, str]

BELOW_RIGHT: Candidate = (6, -8, "left", "top")
BELOW_LEFT: Candidate = (-6, -8, "right", "top")
ABOVE_RIGHT: Candidate = (6, 8, "left", "bottom")
ABOVE_LEFT: Candidate = (-6, 8, "right", "bottom")
BELOW: Candidate = (0, -9, "center", "top")
ABOVE: Candidate = (0, 9, "center", "bottom")

# Costs: leaving the axes is worst, then hiding another label, a marker, a curve.
_OUTSIDE = 1000
_LABEL = 100
_MARKER = 50
_CURVE = 10
#: Markers are kept clear by this many points around their centre.
_MARKER_RADIUS_PT = 5


@dataclass
class PendingLabel:
    """A label to place: its anchor (data coordinates), text and candidate positions."""

    x: float
    y: float
    text: str
    candidates: tuple[Candidate, ...]
    style: dict[str, Any] = field(default_factory=dict)


def place_labels(ax, labels: list[PendingLabel], renderer, *, obstacles: list[Bbox] | None = None) -> list[Bbox]:
    """Annotate ``ax`` with ``labels``; returns the boxes of everything placed (and ``obstacles``)."""
    placed = list(obstacles or [])
    axes_box = ax.get_window_extent(renderer)
    points_to_pixels = renderer.points_to_pixels(1.0)
    markers = _marker_boxes(ax, points_to_pixels)
    curves = [
        line.get_transform().transform_path(line.get_path()) for line in ax.get_lines() if line.get_gid() == "series"
    ]
    for label in labels:
        anchor = ax.transData.transform((label.x, label.y))
        own_marker = Bbox.from_bounds(anchor[0] - 1, anchor[1] - 1, 2, 2)
        text = ax.annotate(label.text, (label.x, label.y), textcoords="offset points", xytext=(0, 0), **label.style)
        best: tuple[float, int, Bbox] | None = None
        for order, (dx, dy, ha, va) in enumerate(label.candidates):
            text.set_position((dx, dy))
            text.set_horizontalalignment(ha)
            text.set_verticalalignment(va)
            box = text.get_window_extent(renderer).padded(2 * points_to_pixels)
            cost = 0.0
            if not _inside(box, axes_box):
                cost += _OUTSIDE
            cost += _LABEL * sum(box.overlaps(other) for other in placed)
            cost += _MARKER * sum(box.overlaps(m) for m in markers if not m.overlaps(own_marker))
            cost += _CURVE * sum(curve.intersects_bbox(box, filled=False) for curve in curves)
            if best is None or (cost, order) < (best[0], best[1]):
                best = (cost, order, box)
        dx, dy, ha, va = label.candidates[best[1]]
        text.set_position((dx, dy))
        text.set_horizontalalignment(ha)
        text.set_verticalalignment(va)
        placed.append(best[2])
    return placed


def _inside(box: Bbox, outer: Bbox) -> bool:
    return box.x0 >= outer.x0 and box.x1 <= outer.x1 and box.y0 >= outer.y0 and box.y1 <= outer.y1


def _marker_boxes(ax, points_to_pixels: float) -> list[Bbox]:
    """Small boxes around every single-point marker drawn on ``ax``."""
    radius = _MARKER_RADIUS_PT * points_to_pixels
    boxes = []
    for line in ax.get_lines():
        xs, ys = line.get_xdata(), line.get_ydata()
        if line.get_marker() in (None, "None", "", " ") or len(xs) != 1:
            continue
        cx, cy = ax.transData.transform((xs[0], ys[0]))
        boxes.append(Bbox.from_bounds(cx - radius, cy - radius, 2 * radius, 2 * radius))
    return boxes
