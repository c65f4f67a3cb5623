"""Render a calculator's HTML from its definition, with its results at the defaults prerendered.

The page is complete without JavaScript: every input shows its starting value, every output its
value computed by roofline_core at build time, and the table and chart are drawn. The browser
module (``site_assets/calculators/``) takes over the same elements; this DOM is its contract:

- root: ``data-calculator="<id>"`` (plus the asset URLs it needs for Pyodide);
- each input: ``name="<input id>"``, labelled with its unit, ``aria-describedby`` naming its
  help and its (empty until needed) error message;
- each output: ``data-output="<output id>"`` inside an ``aria-live="polite"`` region;
- ``data-table`` and ``data-chart-box``: replaced by the trees of ``roofline_core.view`` for
  each live result (the same trees this module writes as markup);
- ``data-notice``: a dismissable notice, hidden until a link names a choice the calculator
  does not have;
- ``data-failure`` (with ``data-retry``): at the top, hidden until live recalculation cannot
  start or stops; ``data-results-for``: above the results, hidden until they are for other
  inputs than the fields hold;
- ``data-compare-summary-box`` (A -> B of the main number while comparing) and ``data-pin``
  beside the headline; ``data-scenario`` names the scenario's inputs folded elsewhere;
- on an embed page, ``data-size="compact"`` and its ``data-size-toggle`` ("More").
"""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from html import escape
from typing import Any

from roofline_core.version import data_version
from roofline_core.view import CalculatorView, box_text, calculator_view
from roofline_site.calculators.embed import embed_code
from roofline_site.calculators.markup import markup
from roofline_site.calculators.placement import Resolved
from roofline_site.calculators.runtime_manifest import TOKEN_SLOT
from roofline_site.downloads import data_file, download_bar, download_button, download_link

__all__ = [
    "PRECOMPUTED_STATUS",
    "AssetUrls",
    "box_text",
    "render_calculator",
    "slider_attributes",
    "slider_scale",
    "slider_stops",
]

PRECOMPUTED_STATUS = "Computed at build time by roofline_core for the inputs shown. Changing them needs JavaScript."


@dataclass(frozen=True)
class AssetUrls:
    """URLs the browser needs, relative to the page that shows the calculator.

    Attributes:
        embed: The calculator's embed page (``embed/<id>/``).
        glossary: The glossary's folder (``glossary/``), for links to terms in results.
        share_page: Absolute address that "Copy link" gives (the page, or for an embed page
            the calculator's full page); the browser adds the scenario's query.
        share_embed: Absolute address of the embed page, for "Copy embed code".
        own_term: The glossary term whose page shows the calculator, if any: labels do not
            link to the page they are on.
        install: The line "Copy as Python" starts with: where pip gets roofline_core
            (:func:`roofline_site.wheel.install_comment`).
        previews: ``(query, address)`` of the scenarios with a preview page, which "Copy link"
            gives instead of the page's address with that query
            (:mod:`roofline_site.scenario_cards`); only where the link is to the calculator's page.
        on_embed_page: Rendered for an embed page (``embed/<id>/``): compact unless its link
            says ``size=full``, with a "More" control for the rest.
    """

    embed: str
    glossary: str
    share_page: str = ""
    share_embed: str = ""
    own_term: str = ""
    on_embed_page: bool = False
    install: str = ""
    previews: tuple[tuple[str, str], ...] = ()


#: The inputs that say which scenario an answer is for (model, chip, devices, batch, context),
#: in the form's order wherever a calculator has them: the results name them in a line at their
#: top, so a folded "More inputs" or a compact embed never hides what the answer is about.
SCENARIO_FIELDS = ("model", "accelerator", "devices", "batch", "context_tokens")


def slider_scale(field: dict[str, Any]) -> str:
    """How a number field's slider moves: ``log2`` (whole powers of two), ``log10`` or ``linear``."""
    if not field["log_slider"]:
        return "linear"
    return "log2" if field["integer"] and field["min"] >= 1 else "log10"


def slider_stops(field: dict[str, Any]) -> tuple[list[str], list[float]]:
    """What each position of a log slider stands for, so the browser does no log arithmetic.

    Returns the box text at every position from ``min`` to ``max`` (whole powers of two for
    whole-number fields; hundredths of a decade otherwise, at three significant figures, as
    precisely as a slider can point) and the thresholds between neighbouring positions: a
    value at or above the i-th threshold sits at position i + 1 or beyond. Thresholds are the
    geometric midpoints, so a typed value goes to its nearest position on the log scale.
    Linear sliders have no stops: their position is the value itself.
    """
    scale = slider_scale(field)
    if scale == "log2":
        exponents = range(math.ceil(math.log2(field["min"])), math.floor(math.log2(field["max"])) + 1)
        texts = [box_text(2**e) for e in exponents]
        thresholds = [2 ** (e - 0.5) for e in exponents[1:]]
        return texts, thresholds
    if scale == "log10":
        smallest = field["min"] if field["min"] > 0 else field["step"]
        hundredths = range(round(math.log10(smallest) * 100), round(math.log10(field["max"]) * 100) + 1)
        texts = []
        for k in hundredths:
            value = float(f"{10 ** (k / 100):.3g}")
            texts.append(box_text(round(value) if field["integer"] else value))
        thresholds = [10 ** ((k - 0.5) / 100) for k in hundredths[1:]]
        return texts, thresholds
    return [], []


def slider_attributes(field: dict[str, Any], value: float) -> dict[str, str]:
    """``min``, ``max``, ``step`` and ``value`` of the range input for ``field`` at ``value``.

    Log sliders move through exponents (their stops, :func:`slider_stops`, say what each one
    stands for); the box beside them holds the value itself.
    """
    scale = slider_scale(field)
    if scale == "log2":
        low, high = math.ceil(math.log2(field["min"])), math.floor(math.log2(field["max"]))
        position: float = low + sum(value >= t for t in slider_stops(field)[1])
        return {"min": str(low), "max": str(high), "step": "1", "value": str(position)}
    if scale == "log10":
        smallest = field["min"] if field["min"] > 0 else field["step"]
        low, high = round(math.log10(smallest), 2), round(math.log10(field["max"]), 2)
        position = round(low + sum(value >= t for t in slider_stops(field)[1]) / 100, 2)
        return {"min": box_text(low), "max": box_text(high), "step": "0.01", "value": box_text(position)}
    return {
        "min": box_text(field["min"]),
        "max": box_text(field["max"]),
        "step": box_text(field["step"]),
        "value": box_text(value),
    }


def _options_html(choices: list[dict[str, Any]], selected: Any) -> str:
    """A select's options, each run of one group under its ``<optgroup>`` (vendor, model family)."""
    parts: list[str] = []
    for group, run in itertools.groupby(choices, key=lambda choice: choice.get("group") or ""):
        options = "".join(
            f'<option value="{escape(c["value"])}"{" selected" if c["value"] == selected else ""}>{escape(c["label"])}</option>'
            for c in run
        )
        parts.append(f'<optgroup label="{escape(group)}">{options}</optgroup>' if group else options)
    return "".join(parts)


def view_for(resolved: Resolved, *, dom_id: str, assets: AssetUrls) -> CalculatorView:
    """What :mod:`roofline_core.view` lays out for ``resolved`` on a page (outputs, chart, table)."""
    return calculator_view(resolved.definition["id"], resolved.result, dom_id=dom_id, glossary_url=assets.glossary)


def render_calculator(
    resolved: Resolved,
    *,
    dom_id: str,
    assets: AssetUrls,
    view: CalculatorView | None = None,
    downloads: Mapping[str, str] | None = None,
) -> str:
    """The calculator's HTML.

    Args:
        resolved: Definition, starting inputs and results (from ``placement.resolve``).
        dom_id: Unique id of the root on its page; ids inside derive from it.
        assets: URLs relative to the page.
        view: :func:`view_for` these, when the caller has it already.
        downloads: URLs (relative to the page) of the files of this scenario's ``"table"`` and
            ``"chart"`` CSV (:func:`csv_files`); a table or chart without one gets no CSV link.
    """
    downloads = downloads or {}
    spec = resolved.definition
    parts = [
        # data-search-exclude: a search excerpt is the page's prose, not option lists and result
        # cards. A <section>, because Material's search parser ends an exclusion at the first
        # closing tag of the same name, and no <section> is nested inside.
        f'<section class="roofline-calc" id="{escape(dom_id)}" data-calculator="{escape(spec["id"])}" data-state="precomputed" data-search-exclude'
        # The runtime's addresses are not here: the browser takes them from the build's manifest
        # (runtime_manifest.py), and mounts only a root carrying the build's token.
        f' data-build-token="{TOKEN_SLOT}"'
        f' data-embed-url="{escape(assets.embed)}" data-glossary-url="{escape(assets.glossary)}"'
        f' data-share-url="{escape(assets.share_page)}" data-embed-src="{escape(assets.share_embed)}"'
        f' data-embed-code="{escape(embed_code(assets.share_embed, spec["title"]))}"'
        f' data-data-version="{escape(data_version())}"' + (' data-size="compact">' if assets.on_embed_page else ">"),
        # An embed page starts compact (the browser shows everything for ``size=full``).
        # Filled by the browser when a link names a choice the calculator does not have.
        '<div class="roofline-calc__notice" data-notice role="status" hidden>'
        '<p class="roofline-calc__notice-text" data-notice-text></p>'
        '<button type="button" class="roofline-calc__dismiss" data-notice-dismiss aria-label="Dismiss this notice">Dismiss</button>'
        "</div>",
        # Filled by the browser when live recalculation cannot start or stops: at the top, with
        # its Retry, so a phone shows it with the answer rather than below the table.
        '<div class="roofline-calc__failure" data-failure role="alert" hidden>'
        '<p class="roofline-calc__failure-text" data-failure-text></p>'
        '<button type="button" class="md-button roofline-calc__retry" data-retry hidden>Retry</button>'
        "</div>",
        '<div class="roofline-calc__layout">',
    ]
    key, more = _split_inputs(spec)
    inputs = resolved.inputs
    fields = {
        f["id"]: _field_html(
            f, inputs[f["id"]], dom_id, hidden=not is_shown(spec, f["id"], inputs), term=term_of(spec, f["id"], assets)
        )
        for f in spec["inputs"]
    }
    title = escape(spec["title"])
    parts.append(
        f'<div class="roofline-calc__inputs roofline-calc__inputs--key" role="group" aria-label="{title}: main inputs">'
    )
    parts.extend(fields[name] for name in key)
    parts.append("</div>")
    view = view or view_for(resolved, dom_id=dom_id, assets=assets)
    parts.append(
        _answer_html(
            spec, view, assets, scenario=_scenario_html(spec, inputs, key, dom_id), csv_url=downloads.get("chart")
        )
    )
    if more:
        # Open in the markup (a page without JavaScript shows every input); the browser folds it
        # on a narrow screen so the answer stays in the first screen.
        parts.append(
            '<details class="roofline-calc__more" open data-more-inputs><summary>More inputs</summary>'
            f'<div class="roofline-calc__inputs" role="group" aria-label="{title}: more inputs">'
        )
        parts.extend(fields[name] for name in more)
        parts.append("</div></details>")
    # The layout holds inputs and answer only: the answer sticks in view while inputs scroll,
    # and a sticky box never leaves its container, so the table and footer sit below it.
    parts.append("</div>")
    if assets.on_embed_page:
        # A compact embed keeps the other inputs, results and the table behind this control.
        parts.append(
            '<button type="button" class="md-button roofline-calc__size" data-size-toggle aria-expanded="false" hidden>'
            "More: every input, result and the table</button>"
        )
    # Scenario A, pinned by the reader, against the form's B: drawn by the browser from
    # roofline_core.view.compare's tree; empty until a reader pins (or a link carries a pin).
    parts.append('<div class="roofline-calc__compare-box" data-compare-box hidden></div>')
    if view["table"] is not None:
        parts.append(markup(view["table"]))
        if "table" in downloads:
            link = download_link(
                downloads["table"],
                filename=f"{spec['id']}-table.csv",
                label="Download CSV",
                name="Download CSV of the table",
                kind="table-csv",
            )
            parts.append(download_bar([link], name=f"{spec['title']}: download the table"))
    parts.append(
        '<div class="roofline-calc__footer">'
        f'<p class="roofline-calc__status" data-status>{escape(PRECOMPUTED_STATUS)}</p>'
        '<button type="button" class="md-button roofline-calc__copy" data-copy-link hidden>Copy link</button>'
        '<button type="button" class="md-button roofline-calc__copy" data-copy-embed hidden>Copy embed code</button>'
        '<button type="button" class="md-button roofline-calc__copy" data-copy-python hidden>Copy as Python</button>'
        '<button type="button" class="md-button roofline-calc__copy" data-copy-cite hidden>Cite</button>'
        '<span class="roofline-calc__copied" data-copy-feedback role="status"></span>'
        # Where copying is not allowed (some cross-origin frames), the text to select by hand.
        '<textarea class="roofline-calc__copy-text" data-copy-text readonly hidden rows="4"'
        ' aria-label="Text to copy"></textarea>'
        "</div>"
    )
    island = {
        "definition": browser_definition(spec),
        "inputs": {name: box_text(value) for name, value in resolved.inputs.items()},
        # The calculator's own defaults, as its embed page starts: an embed code names what
        # differs from them (a page link names what differs from this page's inputs).
        "defaults": {field["id"]: box_text(field["default"]) for field in spec["inputs"]},
        "install": assets.install,
    }
    if assets.previews:
        island["previews"] = dict(assets.previews)
    # A data attribute, not a <script type="application/json"> island: Material's instant
    # navigation re-creates every <script> of the new page without its type and runs it.
    parts.append(f'<div hidden data-calculator-data="{escape(_json(island))}"></div>')
    parts.append("</section>")
    return "".join(parts)


# What site_assets/calculators/calculator.mjs reads of a definition: each input's kind, label
# and unit, each choice's value, label and the fields it fills, which inputs show under which
# choice, and the title. Help, limits and groups are in the form already; Python checks the rest.
_BROWSER_INPUT_KEYS = ("id", "kind", "label", "unit")
_BROWSER_CHOICE_KEYS = ("value", "label", "fills")


def browser_definition(spec: dict[str, Any]) -> dict[str, Any]:
    """The part of a calculator definition the page's script uses (a third of the whole)."""

    def slim(field: dict[str, Any]) -> dict[str, Any]:
        kept = {key: field[key] for key in _BROWSER_INPUT_KEYS if field.get(key)}
        if field.get("linked") is False:
            # A pasted field: url-state.mjs never reads it from a link and links never carry it.
            kept["linked"] = False
        if "choices" in field:
            kept["choices"] = [
                {key: choice[key] for key in _BROWSER_CHOICE_KEYS if choice.get(key)} for choice in field["choices"]
            ]
        return kept

    return {
        "title": spec["title"],
        "inputs": [slim(f) for f in spec["inputs"]],
        # "Copy as Python" prints each result under the label the page gives it.
        "outputs": [{"id": o["id"], "label": o["label"]} for o in spec["outputs"]],
        "conditions": spec.get("conditions", {}),
    }


def term_of(spec: dict[str, Any], item_id: str, assets: AssetUrls) -> tuple[str, str] | None:
    """``(slug, href)`` of the glossary term that explains an input or output, if one does."""
    slug = spec.get("terms", {}).get(item_id)
    if not slug or slug == assets.own_term:
        return None
    return slug, f"{assets.glossary.rstrip('/')}/{slug}/"


def _term_link(term: tuple[str, str] | None, text: str, *, label: str = "") -> str:
    """A link to a glossary term (the site's hover preview reads ``data-glossary-term``)."""
    if term is None:
        return text
    slug, href = term
    named = f' aria-label="{escape(label)}"' if label else ""
    # data-glossary-role: a label's link is the calculator's, not the page's, so it does not
    # make the page a "Mentioned in" of the term (roofline_site/glossary/links.py).
    return (
        f'<a class="roofline-calc__term" href="{escape(href)}" data-glossary-term="{escape(slug)}"'
        f' data-glossary-role="calculator"{named}>{text}</a>'
    )


def _field_html(
    field: dict[str, Any], value: Any, dom_id: str, *, hidden: bool = False, term: tuple[str, str] | None = None
) -> str:
    """One input with its label, help and error line; ``hidden`` while no chosen option uses it.

    With a ``term``, a small link beside the label leads to (and previews) its glossary entry;
    the label itself stays a label, so a tap on it focuses the field instead of leaving.
    """
    field_id = f"{dom_id}-{field['id']}"
    help_id, error_id, label_id = f"{field_id}-help", f"{field_id}-error", f"{field_id}-label"
    help_text = field.get("help") or ""
    described = f"{help_id} {error_id}" if help_text else error_id
    unit = field.get("unit") or ""
    label = escape(field["label"]) + (f' <span class="roofline-calc__unit">({escape(unit)})</span>' if unit else "")
    parts = [
        f'<div class="roofline-calc__field roofline-calc__field--{field["kind"]}" data-field="{escape(field["id"])}"'
        + (" hidden>" if hidden else ">"),
    ]
    label_html = f'<label id="{label_id}" for="{field_id}">{label}</label>'
    if term is None:
        parts.append(label_html)
    else:
        link = _term_link(term, "?", label=f"{field['label']}: glossary entry")
        parts.append(f'<div class="roofline-calc__label-row">{label_html}{link}</div>')
    if field["kind"] == "choice":
        options = _options_html(field["choices"], value)
        parts.append(
            f'<select id="{field_id}" name="{escape(field["id"])}" aria-describedby="{described}">{options}</select>'
        )
    elif field["kind"] == "config":
        parts.append(_config_control_html(field, value, field_id, described))
    elif field["kind"] == "paste":
        # Pasted text (a benchmark's summary): a plain box, its lines kept. No maxlength: the
        # browser would cut a long paste silently, where roofline_core says it is too long.
        parts.append(
            f'<div class="roofline-calc__control roofline-calc__control--paste">'
            f'<textarea id="{field_id}" name="{escape(field["id"])}" rows="6" autocomplete="off" spellcheck="false"'
            f' aria-describedby="{described}">{escape(str(value))}</textarea></div>'
        )
    else:
        parts.append('<div class="roofline-calc__control">')
        parts.append(
            f'<input type="text" inputmode="decimal" id="{field_id}" name="{escape(field["id"])}" value="{escape(box_text(value))}"'
            f' autocomplete="off" spellcheck="false" aria-describedby="{described}">'
        )
        if field["slider"]:
            attrs = slider_attributes(field, float(value))
            texts, thresholds = slider_stops(field)
            stops = (
                f' data-stops="{escape(json.dumps(texts, separators=(",", ":")))}"'
                f' data-thresholds="{escape(json.dumps([float(f"{t:.6g}") for t in thresholds], separators=(",", ":")))}"'
                if texts
                else ""
            )
            value_text = f"{box_text(value)} {unit}".strip()
            parts.append(
                f'<input type="range" class="roofline-calc__slider" data-slider-for="{escape(field["id"])}" data-scale="{slider_scale(field)}"'
                f' min="{attrs["min"]}" max="{attrs["max"]}" step="{attrs["step"]}" value="{attrs["value"]}"{stops}'
                f' aria-labelledby="{label_id}" aria-valuetext="{escape(value_text)}"'
                + (f' aria-describedby="{help_id}">' if help_text else ">")
            )
        parts.append("</div>")
    if help_text:
        parts.append(f'<p class="roofline-calc__help" id="{help_id}">{escape(help_text)}</p>')
    parts.append(f'<p class="roofline-calc__error" id="{error_id}" data-error-for="{escape(field["id"])}"></p>')
    parts.append("</div>")
    return "".join(parts)


#: What the empty config box suggests: the opening of a real config (Llama 3.1 8B's).
_CONFIG_PLACEHOLDER = '{\n  "model_type": "llama",\n  "hidden_size": 4096,\n  "num_hidden_layers": 32,\n  ...\n}'


def _config_control_html(field: dict[str, Any], value: Any, field_id: str, described: str) -> str:
    """A box to paste a config.json into, and a file picker; dropping a file on the box reads it too.

    The browser reads at most ``max_chars + 1`` characters of a JSON file, so an oversized one
    gets roofline_core's own message instead of stalling the page. A GGUF file or a safetensors
    shard is read from its header only (``roofline_core.view.model_file``); what it held is said
    in the note under the box, which starts empty.
    """
    name = escape(field["id"])
    return (
        f'<div class="roofline-calc__control roofline-calc__control--config" data-drop-for="{name}">'
        f'<textarea id="{field_id}" name="{name}" rows="8" autocomplete="off" spellcheck="false"'
        f' placeholder="{escape(_CONFIG_PLACEHOLDER)}" aria-describedby="{described}">{escape(str(value))}</textarea>'
        f'<span class="roofline-calc__file"><label for="{field_id}-file">Or open the file (config.json, .gguf or .safetensors):</label> '
        f'<input type="file" id="{field_id}-file" accept="{MODEL_FILE_TYPES}"'
        f' data-file-for="{name}" data-max-chars="{int(field["max_chars"])}"></span>'
        f'<p class="roofline-calc__file-note" data-file-note-for="{name}" role="status" hidden></p>'
        "</div>"
    )


#: What the config box's file picker offers: a config.json, a GGUF file or a safetensors shard.
MODEL_FILE_TYPES = ".json,application/json,.gguf,.safetensors"


def _split_inputs(spec: dict[str, Any]) -> tuple[list[str], list[str]]:
    """Input ids before the answer (the key inputs, and any field one of their choices uses,
    such as the config box under the model) and those folded under "More inputs"."""
    key = set(spec["key_inputs"])
    key |= {target for target, condition in spec["conditions"].items() if condition["select"] in key}
    ordered = [field["id"] for field in spec["inputs"]]
    return [name for name in ordered if name in key], [name for name in ordered if name not in key]


def is_shown(spec: dict[str, Any], field_id: str, inputs: dict[str, Any]) -> bool:
    """Whether a field is shown for ``inputs`` (a field a choice uses only under that choice)."""
    condition = spec["conditions"].get(field_id)
    return condition is None or inputs[condition["select"]] in condition["values"]


def outputs_html(
    outputs: list[dict[str, Any]], view: CalculatorView, *, headline: bool, terms: Callable[[str], Any]
) -> str:
    items = []
    for output in outputs:
        shown = view["outputs"][output["id"]]
        prose = " roofline-calc__output--prose" if shown["prose"] else ""
        figure = ""
        if shown["figure"] is not None:
            # The drawing repeats the text, which assistive technology reads instead; on screen
            # the drawing stands for it.
            prose += " roofline-calc__output--drawn"
            # A second <dd> of the same term: a <dl> group holds only <dt> and <dd>.
            figure = f'<dd class="roofline-calc__figure" data-figure-for="{escape(output["id"])}">{markup(shown["figure"])}</dd>'
        items.append(
            f'<div class="roofline-calc__output{prose}">'
            f"<dt>{_term_link(terms(output['id']), escape(output['label']))}</dt>"
            f'<dd data-output="{escape(output["id"])}">{escape(shown["text"])}</dd>'
            f"{figure}</div>"
        )
    kind = " roofline-calc__outputs--headline" if headline else ""
    return f'<dl class="roofline-calc__outputs{kind}">{"".join(items)}</dl>'


def parts_html(outputs: list[dict[str, Any]], view: CalculatorView) -> str:
    """What the main time is made of (:func:`roofline_core.view.parts.parts_tree`), under the
    headline and chart: after them, so the answer keeps the first screen and a compact embed's
    first 500 px (the drawing opens with its output's label). The browser redraws it from every
    result (``data-parts-for``); empty when no output has parts."""
    blocks = []
    for output in outputs:
        tree = view["outputs"][output["id"]]["parts"]
        if tree is not None:
            blocks.append(
                f'<div class="roofline-calc__parts" data-parts-for="{escape(output["id"])}">{markup(tree)}</div>'
            )
    return "".join(blocks)


def scenario_text(field: dict[str, Any], value: Any) -> str:
    """How the scenario line names one input's value: a choice's label, or the number as its box
    shows it (the label names the quantity; a unit would need "1 device" against "4 devices")."""
    if field["kind"] == "choice":
        return next((c["label"] for c in field["choices"] if c["value"] == value), str(value))
    return box_text(value)


def _scenario_html(spec: dict[str, Any], inputs: dict[str, Any], key: list[str], dom_id: str) -> str:
    """The line under the headline and chart naming the scenario's inputs that are not key inputs
    (those are in view already), each a link to its field; empty when there are none.

    The browser rewrites each value as the reader changes the field (``data-scenario-for``).
    """
    fields = {f["id"]: f for f in spec["inputs"]}
    named = [name for name in SCENARIO_FIELDS if name in fields and name not in key]
    if not named:
        return ""
    items = [
        f'<li><a href="#{escape(dom_id)}-{escape(name)}" data-scenario-for="{escape(name)}">'
        f'<span class="roofline-calc__scenario-label">{escape(fields[name]["label"])}:</span> '
        f"<span data-scenario-value>{escape(scenario_text(fields[name], inputs[name]))}</span></a></li>"
        for name in named
    ]
    return (
        f'<ul class="roofline-calc__scenario" data-scenario aria-label="Scenario" aria-live="off">{"".join(items)}</ul>'
    )


def _answer_html(
    spec: dict[str, Any], view: CalculatorView, assets: AssetUrls, *, scenario: str = "", csv_url: str | None = None
) -> str:
    """The results: which inputs they are for if not the fields', comparing, the headline
    outputs, the chart, the scenario line, then the other outputs, in one live region.

    The chart is inside the region (so it sits beside the headline on a wide screen and right
    under it on a phone) but not announced: its changes are the numbers already read out. So is
    the scenario line, which repeats the fields. On a phone the stylesheet moves "Pin as A" from
    above the headline to under the scenario line, so the headline and chart keep the first screen.
    """
    headline = [o for o in spec["outputs"] if o["id"] in spec["headline"]]
    others = [o for o in spec["outputs"] if o["id"] not in spec["headline"]]

    def terms(output_id: str) -> tuple[str, str] | None:
        return term_of(spec, output_id, assets)

    parts = [
        '<div class="roofline-calc__results" aria-live="polite">',
        # Shown by the browser when the results on screen are not for the inputs in the fields
        # (live recalculation could not start for a link's scenario): which inputs they are for.
        '<p class="roofline-calc__results-for" data-results-for hidden></p>',
        # Comparing sits with the answer it compares: while a scenario is pinned, A -> B of the
        # main number (roofline_core.view.compare's summary) first, and "Pin as A" by the headline.
        '<div class="roofline-calc__compare-summary-box" data-compare-summary-box hidden></div>',
        '<div class="roofline-calc__compare-bar">'
        '<button type="button" class="md-button roofline-calc__copy" data-pin hidden>Pin as A to compare</button>'
        '<button type="button" class="md-button roofline-calc__copy" data-unpin hidden>Stop comparing</button>'
        "</div>",
        outputs_html(headline, view, headline=True, terms=terms),
    ]
    if view["chart"] is not None:
        parts.append(
            f'<figure class="roofline-calc__chart" data-chart-box aria-live="off">{markup(view["chart"])}</figure>'
        )
        parts.append(chart_downloads(spec, csv_url))
    parts.append(parts_html(spec["outputs"], view))
    parts.append(scenario)
    if others:
        parts.append(outputs_html(others, view, headline=False, terms=terms))
    parts.append("</div>")
    return "".join(parts)


def csv_files(calculator_id: str, view: CalculatorView) -> dict[str, tuple[str, bytes]]:
    """The CSV files of a view's table and chart, by what they are (``"table"``, ``"chart"``):
    ``(site path, bytes)`` each, named by content (:func:`roofline_site.downloads.data_file`)."""
    texts = {"table": view["table_csv"], "chart": view["chart_csv"]}
    return {kind: data_file(f"{calculator_id}-{kind}", text) for kind, text in texts.items() if text}


def chart_downloads(spec: dict[str, Any], csv_url: str | None) -> str:
    """The chart's downloads: its SVG and PNG, which the browser makes from the chart on the
    page (site_assets/downloads.mjs), and its numbers' CSV file, a plain link."""
    stem = f"{spec['id']}-chart"
    links = [
        download_button(label="Download SVG", name="Download SVG of the chart", kind="chart-svg"),
        download_button(label="Download PNG", name="Download PNG of the chart", kind="chart-png"),
    ]
    if csv_url:
        links.append(
            download_link(
                csv_url,
                filename=f"{stem}.csv",
                label="Download CSV",
                name="Download CSV of the chart",
                kind="chart-csv",
            )
        )
    return download_bar(links, name=f"{spec['title']}: download the chart")


def _json(data: Any) -> str:
    return json.dumps(data, separators=(",", ":"), allow_nan=False)
