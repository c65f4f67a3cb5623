"""What a calculator's result looks like on the page: output texts, the table, the chart.

:func:`calculator_view` is called by the build for the prerendered page and, through Pyodide,
by the browser for every live result (:func:`compute_view_json`), so both show a result the
same way: the browser copies texts and builds elements from the trees, and decides nothing.
"""

from __future__ import annotations

import json
from typing import Any, TypedDict

from roofline_core.calculators import CALCULATORS, compute, linked_inputs
from roofline_core.calculators.base import Calculator
from roofline_core.calculators.compare import compare
from roofline_core.calculators.kv_cache_chart import is_kv_cache_chart
from roofline_core.calculators.session_chart import is_session_chart
from roofline_core.figures.frontier import is_frontier_chart
from roofline_core.models.config_code import decode, pretty_json
from roofline_core.version import data_version
from roofline_core.view.chart import is_roofline_chart, roofline_drawing
from roofline_core.view.compare import comparison_summary, comparison_tree
from roofline_core.view.downloads import chart_csv, scenario_text, table_csv
from roofline_core.view.frontier_chart import frontier_drawing
from roofline_core.view.kv_chart import kv_cache_drawing
from roofline_core.view.nodes import Node, box_text, node
from roofline_core.view.parts import parts_tree
from roofline_core.view.prose import is_prose
from roofline_core.view.session_chart import session_drawing
from roofline_core.view.tornado import tornado_tree
from roofline_core.vocabulary import ModelConfig


class OutputView(TypedDict):
    """One output as shown: its text, whether it is a sentence (laid out full width), a
    drawing of it or None (the tornado chart of a "what moves it" output; the text stays the
    accessible version), and what it is made of or None (a time's parts, or the parts of the
    time a rate inverts: :func:`roofline_core.view.parts.parts_tree`, shown under the text)."""

    text: str
    prose: bool
    figure: Node | None
    parts: Node | None


class CalculatorView(TypedDict):
    """A result as the page shows it.

    Attributes:
        errors: ``{input id: message}``; when not empty, the rest is empty (the page keeps
            its last good values).
        outputs: ``{output id: OutputView}``.
        table: The result table (a ``div[data-table]`` tree), or None.
        chart: The chart (an ``svg`` tree: the roofline, or the KV cache against context), or None.
        table_csv: The table's values as CSV text in SI units, with the scenario and data
            version in ``#`` lines (:func:`roofline_core.view.downloads.table_csv`), or None:
            what the table's "Download CSV" gives.
        chart_csv: The chart's numbers as CSV text (:func:`roofline_core.view.downloads.chart_csv`),
            or None.
        configs: For each pasted config.json read: ``{"code": ..., "text": ...}``, the short
            code a link carries instead of the file, and the fields read, as JSON text (what
            the box shows when the code came from a link).
        compare: A comparison with a pinned scenario (:mod:`roofline_core.view.compare`), or
            None; :func:`compute_view_json` fills it when it is given one.
        compare_summary: That comparison's main number in A and B with the ratio, for the top
            of the results (:func:`roofline_core.view.compare.comparison_summary`), or None.
        fills: ``{input id: text}`` of the inputs a paste proposes (the reconciler's pasted
            benchmark output), written as the input boxes show them; the page puts each in its
            box, marked as the paste's, and computes again.
        fills_from: The id of the pasted field the fills were read from, or None when the
            result read no paste (its errors stopped it, or the calculator has none). The page
            hands a field back to its earlier value when that field's paste changes.
    """

    errors: dict[str, str]
    outputs: dict[str, OutputView]
    table: Node | None
    chart: Node | None
    table_csv: str | None
    chart_csv: str | None
    configs: dict[str, dict[str, str]]
    compare: Node | None
    compare_summary: Node | None
    fills: dict[str, str]
    fills_from: str | None


def calculator_view(
    calculator_id: str, result: dict[str, Any], *, dom_id: str, glossary_url: str = "../../glossary/"
) -> CalculatorView:
    """How the page shows ``result`` (from :func:`roofline_core.calculators.compute`).

    Args:
        calculator_id: The calculator that computed ``result``.
        result: Its result.
        dom_id: Id of the calculator's root element on its page; ids inside derive from it.
        glossary_url: The glossary's folder, relative to the page (calculator, embed and term
            pages all sit two folders deep, hence the default), for cells that name a term.
    """
    calc = CALCULATORS[calculator_id]
    chart = result.get("chart")
    scenario = scenario_text(calc, result["inputs"]) if not result["errors"] else ""
    return {
        "errors": dict(result["errors"]),
        "outputs": {
            key: {
                "text": str(shown["text"]),
                "prose": is_prose(shown["text"]),
                "figure": output_figure(key, result),
                "parts": output_parts(calc, key, result),
            }
            for key, shown in result["outputs"].items()
        },
        "table": (
            table_tree(calc, result["table"], result["inputs"], glossary_url=glossary_url)
            if result.get("table")
            else None
        ),
        "chart": (
            chart_drawing(
                calculator_id,
                chart,
                element_id=f"{dom_id}-chart",
                measurements_url=_beside_glossary(glossary_url, "model-vs-measurement/"),
            )
            if chart
            else None
        ),
        "table_csv": (
            table_csv(calc, result["table"], result["inputs"], data_version=data_version())
            if result.get("table")
            else None
        ),
        "chart_csv": (
            chart_csv(chart, title=calc.title, scenario=scenario, data_version=data_version()) if chart else None
        ),
        "configs": {
            field.id: {"code": result["inputs"][field.id], "text": pretty_json(decode(result["inputs"][field.id]))}
            for field in calc.applicable_fields(result["inputs"])
            if isinstance(field, ModelConfig) and field.id in result["inputs"]
        },
        "compare": None,
        "compare_summary": None,
        "fills": {field_id: box_text(filled) for field_id, filled in result.get("fills", {}).items()},
        "fills_from": result.get("fills_from"),
    }


def output_figure(output_id: str, result: dict[str, Any]) -> Node | None:
    """The drawing of an output, if it has one: the tornado chart of the result's sensitivity."""
    sensitivity = result.get("sensitivity")
    if not sensitivity or sensitivity["output"] != output_id:
        return None
    return tornado_tree(sensitivity["factors"], measure=sensitivity["measure"], bound=sensitivity["bound"])


def output_parts(calc: Calculator, output_id: str, result: dict[str, Any]) -> Node | None:
    """What an output is made of, if the result breaks it into parts: its main time, or a rate
    that inverts one (:func:`roofline_core.calculators._common.parts_result`: ``{"output",
    "inverts", "total": value(...), "items": [{"label", "seconds", "working", ...}]}``).

    The page shows it under the headline and chart, where the chart may stand between it and its
    number, so the drawing opens with the output's label.
    """
    broken = result.get("parts")
    if not broken or broken["output"] != output_id:
        return None
    items = broken["items"]
    tree = parts_tree(
        broken["total"]["value"],
        [(item["label"], item["seconds"]) for item in items],
        [(item["label"], item["working"]) for item in items],
        inverts=broken["inverts"],
    )
    if tree is None:
        return None
    label = next(output.label for output in calc.outputs if output.id == output_id)
    title = node("p", {"class": "roofline-calc__parts-title"}, f"{label}, part by part")
    return node("div", {"class": "roofline-calc__parts-drawing"}, title, tree)


def _beside_glossary(glossary_url: str, page: str) -> str:
    """The address of a top-level ``page`` from the glossary folder's (``../../glossary/`` ->
    ``../../model-vs-measurement/``): both sit at the site's root."""
    parent = glossary_url.rstrip("/").rpartition("/")[0]
    return f"{parent}/{page}" if parent else page


def chart_drawing(
    calculator_id: str,
    chart: dict[str, Any],
    *,
    element_id: str,
    measurements_url: str = "../../model-vs-measurement/",
) -> Node:
    """The drawing of a result's chart: the KV cache chart, the capacity frontier, or the roofline.

    ``measurements_url`` is the measurements page, relative to the page, which the frontier's
    cited measurements link to.

    Raises:
        ValueError: naming the calculator, for chart data of neither shape.
    """
    if is_kv_cache_chart(chart):
        return kv_cache_drawing(chart, element_id=element_id)
    if is_frontier_chart(chart):
        return frontier_drawing(chart, element_id=element_id, measurements_url=measurements_url)
    if is_session_chart(chart):
        return session_drawing(chart, element_id=element_id)
    if is_roofline_chart(chart):
        return roofline_drawing(chart, element_id=element_id)
    raise ValueError(
        f"calculator {calculator_id!r}: chart has keys {sorted(chart)}; expected "
        "roofline_core.figures.roofline_curve data (x_range, y_range, roof, points) or "
        'roofline_core.calculators.kv_cache_chart data (kind "kv-cache") or '
        'roofline_core.figures.frontier data (kind "frontier") or '
        'roofline_core.calculators.session_chart data (kind "session")'
    )


def compute_view_json(
    calculator_id: str,
    raw_inputs: dict[str, Any] | None,
    dom_id: str,
    glossary_url: str = "../../glossary/",
    pinned: dict[str, Any] | None = None,
) -> str:
    """Compute and lay out in one call, as JSON: the browser's one round trip into Python.

    Args:
        calculator_id: Which calculator.
        raw_inputs: What the form holds (untrusted strings), as for ``compute``.
        dom_id: Id of the calculator's root element on the page.
        glossary_url: The glossary's folder, relative to the page.
        pinned: The inputs of a scenario the reader pinned as A (untrusted, as ``raw_inputs``),
            or None. With it, and valid inputs, the view's ``compare`` is the comparison of A
            with the form's scenario B (:mod:`roofline_core.view.compare`).
    """
    result = compute(calculator_id, raw_inputs)
    view = calculator_view(calculator_id, result, dom_id=dom_id, glossary_url=glossary_url)
    if pinned is not None and not result["errors"]:
        # A pin comes from a link: what a link may not set (a paste) is not read from it.
        comparison = compare(calculator_id, linked_inputs(calculator_id, pinned), raw_inputs)
        view["compare"] = comparison_tree(comparison)
        view["compare_summary"] = comparison_summary(comparison)
    return json.dumps(view, separators=(",", ":"), allow_nan=False)


def chooser_column(calc: Calculator) -> str | None:
    """The table column whose id names an input, if any: its rows then choose that input.

    The operations table's ``operation`` column picks the ``operation`` input; the decode
    table's ``batch`` column picks the ``batch``.
    """
    inputs = {field.id for field in calc.inputs}
    return next((column.id for column in calc.table_columns if column.id in inputs), None)


def table_tree(
    calc: Calculator, table: list[dict[str, Any]], inputs: dict[str, Any], *, glossary_url: str = "../../glossary/"
) -> Node:
    """A result table (rows ``{column id: value(...)}``) as a ``div[data-table]`` tree.

    When a column names an input, its cells are buttons that set that input, and the row of
    the current value is marked (``aria-pressed``, ``data-current``). Columns holding sentences
    (the operations table's "why") would make the table too wide to read, so each of their
    cells goes on a full-width line under its row; ``data-prose-columns`` names them.
    """
    chooser = chooser_column(calc)
    prose = [c for c in calc.table_columns if any(is_prose(row[c.id]["text"]) for row in table)]
    columns = [c for c in calc.table_columns if c not in prose]
    rows: list[Node] = []
    for row in table:
        current = chooser is not None and box_text(row[chooser]["value"]) == box_text(inputs[chooser])
        marker = {"data-current": ""} if current else {}
        cells = []
        for column in columns:
            text = str(row[column.id]["text"])
            if column.id == chooser:
                button = {
                    "type": "button",
                    "data-choose": chooser,
                    "data-value": box_text(row[column.id]["value"]),
                    "aria-pressed": "true" if current else "false",
                }
                cells.append(node("td", {}, node("button", button, text)))
            elif row[column.id].get("term"):
                # A cell that names a glossary term links to it.
                href = f"{glossary_url.rstrip('/')}/{row[column.id]['term']}/"
                cells.append(node("td", {}, node("a", {"href": href}, text)))
            else:
                cells.append(node("td", {}, text))
        rows.append(node("tr", marker, *cells))
        for column in prose:
            label = node("span", {"class": "roofline-calc__prose-label"}, f"{column.label}: ")
            # A block of its own, so the sentence can stay in the table's visible box while the
            # columns scroll sideways under it on a phone (calculators.css).
            sentence = node("div", {"class": "roofline-calc__prose"}, label, str(row[column.id]["text"]))
            cell = node("td", {"colspan": len(columns)}, sentence)
            rows.append(node("tr", {"class": "roofline-calc__prose-row", **marker}, cell))
    head = node("tr", {}, *(node("th", {"scope": "col"}, column.label) for column in columns))
    return node(
        "div",
        {"class": "roofline-calc__table", "data-table": "", "data-prose-columns": " ".join(c.id for c in prose)},
        # Focusable: a table wider than the calculator's column scrolls sideways in the box
        # Material wraps it in, and a keyboard reader scrolls it from the focused table.
        node("table", {"tabindex": "0"}, node("thead", {}, head), node("tbody", {}, *rows)),
    )
