"""Calculators on pages: fence parsing, build-time rendering and the Pyodide assets they use.

``hooks/calculators.py`` and ``hooks/pyodide_assets.py`` call into this package; everything
here is plain Python that tests call without MkDocs.
"""

from __future__ import annotations

from roofline_site.calculators.fence import FenceError, Placement, find_placements
from roofline_site.calculators.page import fill_slots, place_calculators, source_line_offset
from roofline_site.calculators.render import AssetUrls, render_calculator

__all__ = [
    "AssetUrls",
    "FenceError",
    "Placement",
    "fill_slots",
    "find_placements",
    "place_calculators",
    "render_calculator",
    "source_line_offset",
]
