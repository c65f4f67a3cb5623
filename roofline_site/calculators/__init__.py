"""Calculators on pages: fence parsing, build-time rendering and the Pyodide assets they use.

``hooks/fences.py`` places calculator fences through :class:`CalculatorFences`;
``hooks/pyodide_assets.py`` adds the Pyodide runtime and the packed roofline_core;
``hooks/calculators.py`` adds the embed pages. Everything here is plain Python that tests call
without MkDocs.
"""

from __future__ import annotations

from roofline_site.calculators.fence import FenceError, Placement, parse_placement
from roofline_site.calculators.page import CalculatorFences
from roofline_site.calculators.render import AssetUrls, render_calculator

__all__ = [
    "AssetUrls",
    "CalculatorFences",
    "FenceError",
    "Placement",
    "parse_placement",
    "render_calculator",
]
