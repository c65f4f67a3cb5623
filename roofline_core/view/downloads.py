"""The data a reader takes away: a calculator's table, a chart's or figure's numbers, as CSV text.

Every CSV here comes from the same data the page draws (a result's table rows, a chart's data, a
figure's panels), with numbers in SI units as ``roofline_core`` holds them: the header row names
each column's unit, and ``#`` comment lines above it say what the numbers are for (the
calculator and its scenario, the data version). The browser receives the text with the result
(:func:`roofline_core.view.calculator.compute_view_json`) and only turns it into a file.

Cells written by people (a pasted config's fields, a measurement's notes, a preset's name) are
untrusted. A spreadsheet runs a cell that begins with ``=``, ``+``, ``-`` or ``@`` (and, in some,
a tab or carriage return) as a formula, so such a *text* cell gets a leading ``'`` (OWASP, "CSV
Injection": https://owasp.org/www-community/attacks/CSV_Injection). Numbers are written as
numbers (``-0.5`` stays a number); the csv module quotes cells holding commas, quotes or line
breaks (RFC 4180). A comment line is one cell in a spreadsheet, so it holds no comma, quote or
line break and always begins with ``#``.
"""

from __future__ import annotations

import csv
import io
import math
import re
from collections.abc import Iterable, Sequence
from typing import Any

from roofline_core.calculators.base import Calculator
from roofline_core.formatting import box_text

__all__ = [
    "FORMULA_STARTS",
    "chart_csv",
    "csv_text",
    "figure_csv",
    "safe_cell",
    "table_csv",
    "unit_label",
]

#: First characters that make a spreadsheet read a cell as a formula (OWASP's list).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
#: Longest scenario value a comment line repeats (a pasted file is summarised, not copied).
MAX_COMMENT_VALUE_CHARS = 80

_UNIT_WORDS = {"1": "ratio", "B": "bytes"}
_COMMENT_UNSAFE = re.compile(r"[\x00-\x1f\x7f,\"]+")


def unit_label(unit: str) -> str:
    """How a header names an SI unit: ``"s"`` -> ``"s"``, ``"B"`` -> ``"bytes"``, ``"1"`` -> ``"ratio"``."""
    return _UNIT_WORDS.get(unit, unit)


def safe_cell(cell: Any) -> str | int | float:
    """A cell as the CSV writes it: numbers as numbers, text guarded against formula injection.

    Raises:
        ValueError: for a number that is not finite (no CSV reader agrees on how to read one).
    """
    if isinstance(cell, bool):
        return "true" if cell else "false"
    if isinstance(cell, int | float):
        if isinstance(cell, float) and not math.isfinite(cell):
            raise ValueError(f"a CSV cell must be a finite number or text; received {cell!r}")
        return cell
    text = "" if cell is None else str(cell)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def comment_line(text: str) -> str:
    """``# text`` on one line: control characters, commas and quotes become spaces or ``;``."""
    cleaned = _COMMENT_UNSAFE.sub(lambda m: "; " if "," in m.group(0) else " ", text)
    return "# " + " ".join(cleaned.split())


def csv_text(header: Sequence[str], rows: Iterable[Sequence[Any]], *, comments: Sequence[str] = ()) -> str:
    """Comment lines, a header row and the rows, as CSV text (RFC 4180, CRLF line ends)."""
    out = io.StringIO()
    for comment in comments:
        out.write(comment_line(comment) + "\r\n")
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow([safe_cell(name) for name in header])
    for row in rows:
        writer.writerow([safe_cell(cell) for cell in row])
    return out.getvalue()


def scenario_text(calc: Calculator, inputs: dict[str, Any]) -> str:
    """The inputs that matter to a result, ``name=value`` each, as the boxes show them."""
    parts = []
    for field in calc.applicable_fields(inputs):
        if field.id not in inputs:
            continue
        shown = " ".join(box_text(inputs[field.id]).split())
        if len(shown) > MAX_COMMENT_VALUE_CHARS:
            shown = f"({len(shown):,} characters)"
        parts.append(f"{field.id}={shown}")
    return "; ".join(parts)


def _header_comments(title: str, scenario: str, data_version: str) -> list[str]:
    return [
        f"Roofline Glossary: {title}",
        f"scenario: {scenario}" if scenario else "scenario: the defaults",
        f"data version: {data_version}",
        "numbers in SI units; each header names its column's unit",
    ]


def table_csv(calc: Calculator, table: list[dict[str, Any]], inputs: dict[str, Any], *, data_version: str) -> str:
    """A result table (rows ``{column id: value(...)}``) as CSV, in SI units.

    A column whose rows share one unit names it in its header (``Step time (s)``); a column
    whose rows differ (the what-fits answers: tokens, sequences, devices) is followed by a
    ``<label> unit`` column. Text cells are the text the page shows.

    Args:
        calc: The calculator that made the table.
        table: The result's ``"table"``.
        inputs: The result's ``"inputs"`` (the scenario, written in a comment line).
        data_version: :func:`roofline_core.version.data_version` of the code that computed it.
    """
    header: list[str] = []
    getters: list[Any] = []
    for column in calc.table_columns:
        numbers = [row[column.id] for row in table if _is_number(row[column.id]["value"])]
        units = {cell["unit"] for cell in numbers}
        if not numbers:
            header.append(column.label)
            getters.append(lambda row, key=column.id: str(row[key]["text"]))
        elif len(numbers) == len(table) and len(units) == 1:
            (unit,) = units
            header.append(f"{column.label} ({unit_label(unit)})" if unit else column.label)
            getters.append(lambda row, key=column.id: row[key]["value"])
        else:
            # Rows of different units (or some not numbers): each row names its own.
            header += [column.label, f"{column.label} unit"]
            getters.append(lambda row, key=column.id: _number_or_text(row[key]))
            getters.append(
                lambda row, key=column.id: unit_label(row[key]["unit"]) if _is_number(row[key]["value"]) else ""
            )
    rows = [[get(row) for get in getters] for row in table]
    comments = _header_comments(calc.title, scenario_text(calc, inputs), data_version)
    return csv_text(header, rows, comments=comments)


def _number_or_text(cell: dict[str, Any]) -> Any:
    return cell["value"] if _is_number(cell["value"]) else str(cell["text"])


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def chart_csv(chart: dict[str, Any], *, title: str, scenario: str, data_version: str) -> str:
    """A calculator chart's numbers as CSV: every line's points and every marked point.

    Args:
        chart: ``roofline_core.figures.roofline_curve`` data (FLOP/byte against FLOP/s) or
            ``roofline_core.calculators.kv_cache_chart`` data (tokens against bytes), or
            ``roofline_core.figures.frontier`` data (tokens/s per user against per device), or
            ``roofline_core.calculators.session_chart`` data (tokens against seconds).
        title: What the chart belongs to (the calculator's title).
        scenario: The scenario in words (:func:`scenario_text`).
        data_version: The data version of the code that computed it.
    """
    rows: list[list[Any]] = []
    if chart.get("kind") == "kv-cache":
        x_unit, y_unit = "tokens", "bytes"
        rows += [["KV cache curve", "", x, y] for x, y in chart["curve"]]
        rows += [[line["role"], line["label"], "", line["y"]] for line in chart["lines"]]
        rows += [[point["role"], point["label"], point["x"], point["y"]] for point in chart["points"]]
        header = ["element", "label", "context (tokens)", "KV cache (bytes)"]
    elif chart.get("kind") == "frontier":
        x_unit, y_unit = "tokens/s per user", "tokens/s per device"
        rows += [[series["label"], "", x, y] for series in chart["series"] for x, y in series["points"]]
        rows += [["frontier", "", x, y] for x, y in chart["frontier"]]
        rows += [[point["role"], point["label"], point["x"], point["y"]] for point in chart["points"]]
        header = ["element", "label", "tokens/s per user", "tokens/s per device"]
    elif chart.get("kind") == "session":
        x_unit, y_unit = "tokens", "s"
        rows += [[series["label"], "", x, y] for series in chart["series"] for x, y in series["points"]]
        rows += [[point["role"], point["label"], point["x"], point["y"]] for point in chart["points"]]
        header = ["element", "label", "context at the turn's start (tokens)", "time (s)"]
    else:
        x_unit, y_unit = "FLOP/byte", "FLOP/s"
        rows += [["roof", "", x, y] for x, y in chart["roof"]]
        rows.append(["ridge", "", chart["ridge_flop_per_byte"], chart["peak_flop_per_s"]])
        other = chart.get("other_roof")
        if other:
            rows += [["other roof", other["label"], x, y] for x, y in other["roof"]]
        rows += [["point", point["label"], point["x"], point["y"]] for point in chart["points"]]
        header = ["element", "label", "arithmetic intensity (FLOP/byte)", "attainable (FLOP/s)"]
    comments = [*_header_comments(title, scenario, data_version)[:3], f"x in {x_unit}, y in {y_unit}"]
    return csv_text(header, rows, comments=comments)


def figure_csv(figure: dict[str, Any], *, data_version: str) -> str:
    """A build-time figure's plotted numbers (``roofline_core.figures.figure_data``) as CSV.

    One row per drawn number, panel by panel: each line's points, each marker, each bar segment,
    each scatter point and each reference line, with the panel's axis units (``x_unit``,
    ``y_unit``: SI, as the coordinates are) in columns of their own, since panels differ.
    """
    header = ["panel", "layer", "label", "x", "x unit", "y", "y unit", "bound"]
    rows: list[list[Any]] = []
    for number, panel in enumerate(figure["panels"], start=1):
        xu, yu = unit_label(panel.get("x_unit", "")), unit_label(panel.get("y_unit", ""))
        # An axis drawn without a scale (the intensity figure's rows) has no number to give.
        yu_shown = "" if panel["y_scale"] == "none" else yu

        def y_of(value: float, scale: str = panel["y_scale"]) -> Any:
            return "" if scale == "none" else value

        categories = panel["bars"]["categories"] if panel["x_scale"] == "category" and "bars" in panel else None

        def x_of(value: float, names: list[str] | None = categories) -> Any:
            # On a category axis a line's x is the bar's place (0, 1, ...): name its category.
            return names[int(value)] if names is not None else value

        for series in panel.get("series", []):
            rows += [[number, "line", series["label"], x_of(x), xu, y_of(y), yu_shown, ""] for x, y in series["points"]]
        for point in panel.get("points", []):
            rows.append(
                [number, point["role"], point["label"], point["x"], xu, y_of(point["y"]), yu_shown, point["bound"]]
            )
        bars = panel.get("bars")
        if bars:
            for stack in bars["stacks"]:
                rows += [
                    [number, "bar", stack["label"], category, "", value, yu, ""]
                    for category, value in zip(bars["categories"], stack["values"], strict=True)
                ]
        for group in panel.get("scatter", []):
            rows += [[number, "scatter", group["label"], x, xu, y, yu, ""] for x, y in group["points"]]
        rows += [
            [number, "vertical line", line["label"], line["x"], xu, "", "", ""] for line in panel.get("vlines", [])
        ]
        rows += [
            [number, "horizontal line", line["label"], "", "", line["y"], yu, ""] for line in panel.get("hlines", [])
        ]
    comments = [
        f"Roofline Glossary figure: {figure['title']}",
        f"data version: {data_version}",
        "numbers in SI units; the x unit and y unit columns name each row's units",
    ]
    return csv_text(header, rows, comments=comments)
