"""A calculator's roofline chart as static SVG markup, so the page shows it before any script runs.

Where everything goes is decided by ``roofline_core.view.chart`` (which the browser runs too,
in Pyodide); this module only writes that drawing as markup.
"""

from __future__ import annotations

from typing import Any

from roofline_core.view import roofline_drawing
from roofline_site.calculators.markup import markup


def roofline_svg(chart: dict[str, Any], *, element_id: str) -> str:
    """The chart as an ``<svg>`` element.

    Args:
        chart: ``roofline_core.figures.roofline_curve`` data (x in FLOP/byte, y in FLOP/s).
        element_id: Prefix for ids inside the SVG (unique on the page).
    """
    return markup(roofline_drawing(chart, element_id=element_id))
