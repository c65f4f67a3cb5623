"""What a calculator shows, as data: element trees for its chart and table, texts for its outputs.

The build serialises these trees to HTML/SVG markup (``roofline_site.calculators``); the browser
creates the same elements from the same trees, which Pyodide computes with this code. So every
presentation rule (pixels on log axes, tick labels, which table column is a sentence, which row
is the current one, how a number is written in a box) is written once, here, in Python.
Standard library only, like the rest of ``roofline_core``.

It may import: ``roofline_core.calculators``, ``roofline_core.figures``, ``roofline_core.questions``,
``roofline_core.estimates``, ``roofline_core.vocabulary``, ``roofline_core.models``,
``roofline_core.hardware``, ``roofline_core.formatting``, ``roofline_core.roofline``,
``roofline_core.sources``, ``roofline_core.version``.
"""

from __future__ import annotations

from roofline_core.view.calculator import CalculatorView, calculator_view, compute_view_json
from roofline_core.view.chart import is_roofline_chart, roofline_drawing, tick_label
from roofline_core.view.downloads import chart_csv, figure_csv, table_csv
from roofline_core.view.kv_chart import kv_cache_drawing
from roofline_core.view.nodes import Node, box_text, node
from roofline_core.view.prose import PROSE_CHARS, is_prose

__all__ = [
    "PROSE_CHARS",
    "CalculatorView",
    "Node",
    "box_text",
    "chart_csv",
    "figure_csv",
    "calculator_view",
    "compute_view_json",
    "is_prose",
    "is_roofline_chart",
    "kv_cache_drawing",
    "node",
    "roofline_drawing",
    "table_csv",
    "tick_label",
]
