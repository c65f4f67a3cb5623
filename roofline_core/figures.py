"""Figure data: the lines, points, labels and axis ranges the site draws.

Plain Python data only (no plotting here): ``hooks/figures.py`` draws it with matplotlib at
build time, and the live calculators send the same data to the browser for their charts.
"""

from __future__ import annotations

import math
from typing import Any

from roofline_core.roofline import attainable_flop_per_s, bound, ridge_point


def _decade_range(low: float, high: float) -> tuple[float, float]:
    """Widen ``[low, high]`` to whole powers of ten, for log axes."""
    return 10.0 ** math.floor(math.log10(low)), 10.0 ** math.ceil(math.log10(high))


def roofline_curve(
    *,
    peak_flop_per_s: float,
    bandwidth_bytes_per_s: float,
    points: list[dict[str, Any]] | None = None,
    x_min_flop_per_byte: float | None = None,
    x_max_flop_per_byte: float | None = None,
) -> dict[str, Any]:
    """One accelerator's roofline and workload points on it.

    Args:
        peak_flop_per_s: Dense peak compute, in FLOP/s.
        bandwidth_bytes_per_s: Memory bandwidth, in bytes/s.
        points: Workloads as ``{"label": str, "intensity_flop_per_byte": float}``, optionally
            with ``"highlight": True`` for the one the reader chose (drawn emphasised).
        x_min_flop_per_byte: Left edge of the intensity axis (default: a decade below the
            smallest point, at most 0.1).
        x_max_flop_per_byte: Right edge (default: a decade past the ridge or the largest point).

    Returns:
        ``{"ridge_flop_per_byte", "peak_flop_per_s", "bandwidth_bytes_per_s", "x_range",
        "y_range", "roof": [[x, y], ...], "points": [{"label", "x", "y", "bound", "highlight"}]}`` with x in
        FLOP/byte and y in FLOP/s. The roof is three points: it is straight on log-log axes.
    """
    ridge = ridge_point(peak_flop_per_s=peak_flop_per_s, bandwidth_bytes_per_s=bandwidth_bytes_per_s)
    points = points or []
    xs = [p["intensity_flop_per_byte"] for p in points if p["intensity_flop_per_byte"] > 0]
    low = min([0.1, *xs]) / 10 if x_min_flop_per_byte is None else x_min_flop_per_byte
    high = max([ridge * 10, *(x * 10 for x in xs)]) if x_max_flop_per_byte is None else x_max_flop_per_byte
    x_lo, x_hi = _decade_range(low, high)
    roof = [
        [x_lo, attainable_flop_per_s(intensity_flop_per_byte=x_lo, peak_flop_per_s=peak_flop_per_s, bandwidth_bytes_per_s=bandwidth_bytes_per_s)],
        [ridge, peak_flop_per_s],
        [x_hi, peak_flop_per_s],
    ]
    placed = [
        {
            "label": p["label"],
            "x": p["intensity_flop_per_byte"],
            "y": attainable_flop_per_s(
                intensity_flop_per_byte=p["intensity_flop_per_byte"],
                peak_flop_per_s=peak_flop_per_s,
                bandwidth_bytes_per_s=bandwidth_bytes_per_s,
            ),
            "bound": bound(
                intensity_flop_per_byte=p["intensity_flop_per_byte"],
                peak_flop_per_s=peak_flop_per_s,
                bandwidth_bytes_per_s=bandwidth_bytes_per_s,
            ),
            "highlight": bool(p.get("highlight", False)),
        }
        for p in points
    ]
    y_lo, y_hi = _decade_range(roof[0][1], peak_flop_per_s * 2)
    return {
        "ridge_flop_per_byte": ridge,
        "peak_flop_per_s": peak_flop_per_s,
        "bandwidth_bytes_per_s": bandwidth_bytes_per_s,
        "x_range": [x_lo, x_hi],
        "y_range": [y_lo, y_hi],
        "roof": roof,
        "points": placed,
    }
