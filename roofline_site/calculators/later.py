"""A calculator on a term page arrives as its own file, when the reader comes near it.

A calculator's form, results and data are 40 to 65 kB of HTML: more than the rest of a term page.
On a term page the calculator is therefore written to a content-named file
(``assets/roofline/calculators/part/calculator.<hash>.json``, cached for good by hosts and the
service worker; JSON rather than an ``.html`` file, because it is part of a page, not a document
of its own: its links are relative to the page), and the page holds a short summary in its place: the calculator's title, its
headline results at the page's scenario (computed here by :mod:`roofline_core`, so they are right
before any script runs) and the key inputs they are for. ``site_assets/calculators/later.mjs``
puts the whole calculator in place of the summary a screen before it scrolls into view, at the
first touch of the summary, or at once when the address names a scenario or the calculator.
Without scripts, or if the file cannot be fetched, the summary stays, with a link to the
calculator's own page.
"""

from __future__ import annotations

import hashlib
import json
from html import escape
from typing import Any

from roofline_core.view import CalculatorView, box_text
from roofline_site.calculators.placement import Resolved
from roofline_site.calculators.render import AssetUrls, is_shown, outputs_html, term_of

FRAGMENTS_DIR = "assets/roofline/calculators/part/"
# Hex digits of the SHA-256 in a fragment's name (as the figures' files).
NAME_DIGITS = 16


def fragment_file(calculator_html: str, *, dom_id: str) -> tuple[str, bytes]:
    """``(file name, bytes)`` of a rendered calculator: JSON named by its content."""
    data = json.dumps({"id": dom_id, "html": calculator_html}, ensure_ascii=False, separators=(",", ":")).encode()
    return f"calculator.{hashlib.sha256(data).hexdigest()[:NAME_DIGITS]}.json", data


def summary_html(
    resolved: Resolved, *, view: CalculatorView, dom_id: str, assets: AssetUrls, src: str, full_page: str
) -> str:
    """The summary a term page holds until the calculator at ``src`` takes its place.

    Args:
        resolved: The calculator at the page's inputs, as :func:`render_calculator` renders it.
        view: Its layout (:func:`~roofline_site.calculators.render.view_for`), as the calculator
            shows it.
        dom_id: The calculator's id (the summary has it too, so links to it still land).
        assets: The calculator's URLs (for the terms its labels link to).
        src: URL of the calculator's file, relative to the page.
        full_page: URL of the calculator's own page, relative to the page.
    """
    spec = resolved.definition
    headline = [o for o in spec["outputs"] if o["id"] in spec["headline"]]
    title = escape(spec["title"])
    return (
        f'<section class="roofline-calc roofline-calc--later" id="{escape(dom_id)}" aria-label="{title}"'
        f' data-calculator-later="{escape(src)}" data-search-exclude>'
        f'<p class="roofline-calc__later-title">{title}</p>'
        + outputs_html(headline, view, headline=True, terms=lambda output_id: term_of(spec, output_id, assets))
        + f'<p class="roofline-calc__later-inputs">For {escape(_inputs_text(spec, resolved.inputs))}.</p>'
        + '<p class="roofline-calc__later-status" data-later-status>'
        f'<a href="{escape(full_page)}">Open the {title} calculator</a></p>'
        "</section>"
    )


def _inputs_text(spec: dict[str, Any], inputs: dict[str, Any]) -> str:
    """``Model: Llama 3 8B, Context length: 8192 tokens, ...``: every input the form shows at
    these inputs (a custom model's sizes only under Custom), in its order, as it shows them. All
    of them, since any may move the results (the memory verdict counts the devices)."""
    shown = []
    for field in spec["inputs"]:
        field_id, value = field["id"], inputs[field["id"]]
        chosen = is_shown(spec, field_id, inputs)
        # A pasted config or benchmark is the reader's text, not a setting to list.
        if not chosen or field["kind"] not in ("choice", "number"):
            continue
        if field["kind"] == "choice":
            text = next((c["label"] for c in field["choices"] if c["value"] == value), str(value))
        else:
            number = box_text(value)
            text = " ".join(part for part in (number, _unit_for(number, field.get("unit") or "")) if part)
        shown.append(f"{field['label']}: {text}")
    return ", ".join(shown)


def _unit_for(number: str, unit: str) -> str:
    """``unit`` as it reads after ``number``: one sequence, one accelerator (``ms`` stays)."""
    if number == "1" and len(unit) > 2 and unit.isalpha() and unit.endswith("s"):
        return unit[:-1]
    return unit
