"""Render a calculator's HTML from its definition, with its results at the defaults prerendered.

The page is complete without JavaScript: every input shows its starting value, every output its
value computed by roofline_core at build time, and the table and chart are drawn. The browser
module (``site_assets/calculators/``) takes over the same elements; this DOM is its contract:

- root: ``data-calculator="<id>"`` (plus the asset URLs it needs for Pyodide);
- each input: ``name="<input id>"``, labelled with its unit, ``aria-describedby`` naming its
  help and its (empty until needed) error message;
- each output: ``data-output="<output id>"`` inside an ``aria-live="polite"`` region.
"""

from __future__ import annotations

import json
import math
from decimal import Decimal
from dataclasses import dataclass
from html import escape
from typing import Any

from roofline_site.calculators.chart_svg import is_roofline_chart, roofline_svg
from roofline_site.calculators.placement import Resolved

#: Texts longer than this are sentences (the operations table's "why"), laid out as prose:
#: full-width output cards, wide table cells. Mirrored in site_assets/calculators/calculator.mjs.
PROSE_CHARS = 80

PRECOMPUTED_STATUS = "Computed at build time by roofline_core for the inputs shown. Changing them needs JavaScript."


@dataclass(frozen=True)
class AssetUrls:
    """URLs the browser needs, relative to the page that shows the calculator.

    Attributes:
        pyodide_index: Folder of the self-hosted Pyodide runtime (ends with ``/``).
        core_zip: The content-hashed ``roofline_core`` zip.
        embed: The calculator's embed page (``embed/<id>/``).
    """

    pyodide_index: str
    core_zip: str
    embed: str


def box_text(value: Any) -> str:
    """A value as it appears in an input box: ``989``, ``3.35``, ``h100-sxm``.

    Numbers are written the way the browser's ``String(number)`` writes them (ECMAScript's
    Number::toString: shortest round-trip digits, exponent only below 1e-6 or from 1e21), so a
    preset's filled value reads the same whether the build or the browser put it in the box.
    """
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, (int, float)):
        return _js_number(float(value))
    return str(value)


def _js_number(value: float) -> str:
    if value == 0 or not math.isfinite(value):
        return "0" if value == 0 else {math.inf: "Infinity", -math.inf: "-Infinity"}.get(value, "NaN")
    sign = "-" if value < 0 else ""
    # repr gives the shortest digits that round-trip, as ECMAScript does.
    parts = Decimal(repr(abs(value))).normalize().as_tuple()
    digits = "".join(str(d) for d in parts.digits)
    k = len(digits)
    n = parts.exponent + k  # the decimal point sits after n digits
    if k <= n <= 21:
        text = digits + "0" * (n - k)
    elif 0 < n <= 21:
        text = digits[:n] + "." + digits[n:]
    elif -6 < n <= 0:
        text = "0." + "0" * (-n) + digits
    else:
        exponent = n - 1
        mantissa = digits if k == 1 else digits[0] + "." + digits[1:]
        text = f"{mantissa}e{'+' if exponent > 0 else '-'}{abs(exponent)}"
    return sign + text


def slider_scale(field: dict[str, Any]) -> str:
    """How a number field's slider moves: ``log2`` (whole powers of two), ``log10`` or ``linear``."""
    if not field["log_slider"]:
        return "linear"
    return "log2" if field["integer"] and field["min"] >= 1 else "log10"


def slider_attributes(field: dict[str, Any], value: float) -> dict[str, str]:
    """``min``, ``max``, ``step`` and ``value`` of the range input for ``field`` at ``value``.

    Log sliders move through exponents; the box beside them holds the value itself.
    """
    scale = slider_scale(field)
    if scale == "log2":
        low, high = math.ceil(math.log2(field["min"])), math.floor(math.log2(field["max"]))
        position: float = min(high, max(low, round(math.log2(value))))
        return {"min": str(low), "max": str(high), "step": "1", "value": str(position)}
    if scale == "log10":
        smallest = field["min"] if field["min"] > 0 else field["step"]
        low, high = round(math.log10(smallest), 2), round(math.log10(field["max"]), 2)
        position = min(high, max(low, round(math.log10(value), 2)))
        return {"min": box_text(low), "max": box_text(high), "step": "0.01", "value": box_text(position)}
    return {"min": box_text(field["min"]), "max": box_text(field["max"]), "step": box_text(field["step"]), "value": box_text(value)}


def render_calculator(resolved: Resolved, *, dom_id: str, assets: AssetUrls) -> str:
    """The calculator's HTML.

    Args:
        resolved: Definition, starting inputs and results (from ``placement.resolve``).
        dom_id: Unique id of the root on its page; ids inside derive from it.
        assets: URLs relative to the page.
    """
    spec = resolved.definition
    result = resolved.result
    parts = [
        f'<div class="roofline-calc" id="{escape(dom_id)}" data-calculator="{escape(spec["id"])}" data-state="precomputed"'
        f' data-pyodide-index-url="{escape(assets.pyodide_index)}" data-core-zip-url="{escape(assets.core_zip)}"'
        f' data-embed-url="{escape(assets.embed)}">',
        f'<div class="roofline-calc__inputs" role="group" aria-label="{escape(spec["title"])}: inputs">',
    ]
    for field in spec["inputs"]:
        parts.append(_field_html(field, resolved.inputs[field["id"]], dom_id))
    parts.append("</div>")
    parts.append(_outputs_html(spec, result))
    if result.get("table"):
        parts.append(table_html(spec, result["table"], resolved.result["inputs"]))
    if result.get("chart"):
        parts.append(_chart_html(result["chart"], dom_id))
    parts.append(
        '<div class="roofline-calc__footer">'
        f'<p class="roofline-calc__status" data-status>{escape(PRECOMPUTED_STATUS)}</p>'
        '<button type="button" class="md-button roofline-calc__copy" data-copy-link hidden>Copy link</button>'
        '<span class="roofline-calc__copied" data-copy-feedback role="status"></span>'
        "</div>"
    )
    island = {
        "definition": spec,
        "inputs": {name: box_text(value) for name, value in resolved.inputs.items()},
    }
    # A data attribute, not a <script type="application/json"> island: Material's instant
    # navigation re-creates every <script> of the new page without its type and runs it.
    parts.append(f'<div hidden data-calculator-data="{escape(_json(island))}"></div>')
    parts.append("</div>")
    return "".join(parts)


def _field_html(field: dict[str, Any], value: Any, dom_id: str) -> str:
    field_id = f"{dom_id}-{field['id']}"
    help_id, error_id, label_id = f"{field_id}-help", f"{field_id}-error", f"{field_id}-label"
    help_text = field.get("help") or ""
    described = f"{help_id} {error_id}" if help_text else error_id
    unit = field.get("unit") or ""
    label = escape(field["label"]) + (f' <span class="roofline-calc__unit">({escape(unit)})</span>' if unit else "")
    parts = [
        f'<div class="roofline-calc__field roofline-calc__field--{field["kind"]}" data-field="{escape(field["id"])}">',
        f'<label id="{label_id}" for="{field_id}">{label}</label>',
    ]
    if field["kind"] == "choice":
        options = "".join(
            f'<option value="{escape(choice["value"])}"{" selected" if choice["value"] == value else ""}>{escape(choice["label"])}</option>'
            for choice in field["choices"]
        )
        parts.append(f'<select id="{field_id}" name="{escape(field["id"])}" aria-describedby="{described}">{options}</select>')
    else:
        parts.append('<div class="roofline-calc__control">')
        parts.append(
            f'<input type="text" inputmode="decimal" id="{field_id}" name="{escape(field["id"])}" value="{escape(box_text(value))}"'
            f' autocomplete="off" spellcheck="false" aria-describedby="{described}">'
        )
        if field["slider"]:
            attrs = slider_attributes(field, float(value))
            value_text = f"{box_text(value)} {unit}".strip()
            parts.append(
                f'<input type="range" class="roofline-calc__slider" data-slider-for="{escape(field["id"])}" data-scale="{slider_scale(field)}"'
                f' min="{attrs["min"]}" max="{attrs["max"]}" step="{attrs["step"]}" value="{attrs["value"]}"'
                f' aria-labelledby="{label_id}" aria-valuetext="{escape(value_text)}"' + (f' aria-describedby="{help_id}">' if help_text else ">")
            )
        parts.append("</div>")
    if help_text:
        parts.append(f'<p class="roofline-calc__help" id="{help_id}">{escape(help_text)}</p>')
    parts.append(f'<p class="roofline-calc__error" id="{error_id}" data-error-for="{escape(field["id"])}"></p>')
    parts.append("</div>")
    return "".join(parts)


def _outputs_html(spec: dict[str, Any], result: dict[str, Any]) -> str:
    items = []
    for output in spec["outputs"]:
        shown = result["outputs"][output["id"]]
        prose = " roofline-calc__output--prose" if len(str(shown["text"])) > PROSE_CHARS else ""
        items.append(
            f'<div class="roofline-calc__output{prose}">'
            f'<dt>{escape(output["label"])}</dt>'
            f'<dd data-output="{escape(output["id"])}">{escape(str(shown["text"]))}</dd>'
            "</div>"
        )
    return f'<div class="roofline-calc__results" aria-live="polite"><dl class="roofline-calc__outputs">{"".join(items)}</dl></div>'


def chooser_column(spec: dict[str, Any]) -> str | None:
    """The table column whose id names an input, if any: its rows then choose that input.

    The operations table's ``operation`` column picks the ``operation`` input; the decode
    table's ``batch`` column picks the ``batch``. The browser mirrors this rule.
    """
    inputs = {field["id"] for field in spec["inputs"]}
    return next((column["id"] for column in spec.get("table_columns", []) if column["id"] in inputs), None)


def table_html(spec: dict[str, Any], table: list[dict[str, Any]], inputs: dict[str, Any]) -> str:
    """A result table (``result["table"]``, columns from ``spec["table_columns"]``) as HTML.

    When a column names an input, its cells are buttons that set that input, and the row of
    the current value is marked (``aria-pressed``, ``data-current``). Columns holding sentences
    (the operations table's "why") would make the table too wide to read, so each of their
    cells goes on a full-width line under its row; ``data-prose-columns`` tells the browser.
    """
    chooser = chooser_column(spec)
    prose = [c["id"] for c in spec["table_columns"] if any(len(str(row[c["id"]]["text"])) > PROSE_CHARS for row in table)]
    columns = [c for c in spec["table_columns"] if c["id"] not in prose]
    labels = {c["id"]: c["label"] for c in spec["table_columns"]}
    head = "".join(f'<th scope="col">{escape(column["label"])}</th>' for column in columns)
    rows = []
    for row in table:
        current = chooser is not None and box_text(row[chooser]["value"]) == box_text(inputs[chooser])
        cells = []
        for column in columns:
            cell = row[column["id"]]
            text = escape(str(cell["text"]))
            if column["id"] == chooser:
                value = escape(box_text(cell["value"]))
                text = f'<button type="button" data-choose="{escape(chooser)}" data-value="{value}" aria-pressed="{"true" if current else "false"}">{text}</button>'
            cells.append(f"<td>{text}</td>")
        marker = " data-current" if current else ""
        rows.append(f"<tr{marker}>" + "".join(cells) + "</tr>")
        for column_id in prose:
            rows.append(
                f'<tr class="roofline-calc__prose-row"{marker}><td colspan="{len(columns)}">'
                f'<span class="roofline-calc__prose-label">{escape(labels[column_id])}: </span>{escape(str(row[column_id]["text"]))}</td></tr>'
            )
    return (
        f'<div class="roofline-calc__table" data-table data-prose-columns="{escape(" ".join(prose))}">'
        f'<table><thead><tr>{head}</tr></thead><tbody>{"".join(rows)}</tbody></table></div>'
    )


def _chart_html(chart: dict[str, Any], dom_id: str) -> str:
    if not is_roofline_chart(chart):
        raise ValueError(f"calculator chart has keys {sorted(chart)}; expected roofline_core.figures.roofline_curve data (x_range, y_range, roof, points)")
    return f'<figure class="roofline-calc__chart" data-chart-box>{roofline_svg(chart, element_id=dom_id + "-chart")}</figure>'


def _json(data: Any) -> str:
    return json.dumps(data, separators=(",", ":"), allow_nan=False)
