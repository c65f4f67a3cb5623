"""The "Model vs measurement" page: Markdown generated from :mod:`roofline_core.evidence.validation`.

A page places the generated parts with lines holding only :data:`SUMMARY_MARKER` (what a
reader wants first: the error by regime and the measured-against-estimate chart,
:func:`render_summary`) and :data:`MARKER` (the fit, the full table and the sources,
:func:`render_markdown`); the hook ``hooks/measurements.py`` swaps them at build time, so every
number on the page is computed, none typed. Text from the data file (quotes, conditions) is
escaped: it is shown as written, never interpreted as Markdown or HTML.
"""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any

from roofline_core.estimates import efficiency
from roofline_core.evidence.measurements import METRICS, Measurement, MeasurementTable
from roofline_core.evidence.validation import (
    EXCLUDED,
    FIT,
    HELD_BACK,
    REGIMES,
    Comparison,
    ValidationReport,
    engine_family,
    errors_by_regime,
    fit_row_counts,
    held_back_by_regime,
    row_name,
    worst_held_back,
)
from roofline_core.formatting import format_number, format_percent
from roofline_core.version import package_digest
from roofline_core.view.downloads import csv_text
from roofline_site.node_artifacts import input_key

#: The line a page writes where the generated comparison goes.
MARKER = "<!-- roofline:measurements -->"
#: The line a page writes where the summary (error by regime, the chart) goes.
SUMMARY_MARKER = "<!-- roofline:measurements-summary -->"
#: Where the full table starts (its heading's id), for the summary's link to it.
TABLE_ANCHOR = "every-row-beside-the-roofline"
#: Stands for the table's download links in the generated Markdown; the hook writes them with
#: URLs relative to the page that shows the table.
DOWNLOADS_MARKER = "<!-- roofline:measurements-downloads -->"
#: The table's files in the site: stable addresses, so a notebook can read them by URL.
TABLE_FILES = {"csv": "assets/roofline/data/measurements.csv", "json": "assets/roofline/data/measurements.json"}

#: The columns of the downloadable table: (name, what it holds), in order.
TABLE_COLUMNS: tuple[tuple[str, str], ...] = (
    ("id", "the row's id in measurements/measurements.toml"),
    ("model", "model name"),
    ("model_slug", "model as the row names it"),
    ("accelerator", "accelerator name"),
    ("accelerator_slug", "accelerator as the row names it"),
    ("devices", "devices the model runs on"),
    ("parallelism", "how the devices share it"),
    ("weight_format", "storage format of the weights"),
    ("bits_per_weight", "stored bits per weight, block scales included"),
    ("kv_format", "number format of the KV cache"),
    ("compute_format", "number format of the matrix math"),
    ("batch", "sequences run together"),
    ("input_tokens", "prompt tokens per sequence"),
    ("output_tokens", "generated tokens per sequence"),
    ("engine", "inference engine"),
    ("engine_version", "its version"),
    ("date", "date of the source"),
    ("metric", "what was measured"),
    ("unit", "unit of measured, speed_of_light and estimate (as the source gives it)"),
    ("measured", "the published number"),
    ("speed_of_light", "roofline_core's bound (empty when excluded)"),
    ("estimate", "the realistic estimate of the row's regime (empty when excluded)"),
    ("estimate_low", "the slow end of the estimate's 80% interval (empty when excluded)"),
    ("estimate_high", "the fast end of the estimate's 80% interval (empty when excluded)"),
    ("one_share_estimate", "the estimate at one bandwidth and compute share for every row (the model before regimes)"),
    ("ratio", "measured speed as a fraction of the speed of light"),
    ("error", "the estimate's error relative to the measurement (a fraction)"),
    ("role", "fit, held-back or excluded"),
    ("exclude", "why the row is not compared"),
    ("source_kind", "kind of source"),
    ("source_url", "address of the source"),
    ("source_quote", "what the source states"),
    ("conditions", "other conditions of the run"),
)

METRIC_LABELS = {
    "decode_tokens_per_s_per_sequence": "decode, tok/s per sequence",
    "decode_ms_per_token": "decode, ms per token",
    "prefill_tokens_per_s": "prefill, tok/s",
    "ttft_ms": "time to first token, ms",
    "static_batch_output_tokens_per_s_per_device": "static batch, output tok/s per device",
    "serving_output_tokens_per_s": "serving, output tok/s (server)",
    "serving_tpot_ms": "serving, mean ms per output token",
    "serving_ttft_ms": "serving, mean time to first token, ms",
}


def page_cache_key(data: bytes) -> str:
    """Key of the page made from the data file's bytes ``data``: they, roofline_core (formulas,
    presets, the fit) and this module, its writer."""
    return input_key([data, package_digest().encode(), Path(__file__).read_bytes()])


class MarkerError(ValueError):
    """The marker line is missing or repeated in a page that should hold it once."""


def replace_marker(markdown: str, generated: str, *, page: str, marker: str = MARKER) -> str:
    """``markdown`` with its one ``marker`` line replaced by ``generated``.

    Raises:
        MarkerError: ``<page>:<line>: ...`` if the marker appears more than once.
    """
    lines = markdown.split("\n")
    found = [i for i, line in enumerate(lines) if line.strip() == marker]
    if len(found) > 1:
        raise MarkerError(f"{page}:{found[1] + 1}: a second {marker} line; expected it once per page")
    if not found:
        return markdown
    lines[found[0]] = generated
    return "\n".join(lines)


def render_markdown(report: ValidationReport, table: MeasurementTable) -> str:
    """The comparison as Markdown: fit, errors, every row, exclusions, sources, closing note.

    Args:
        report: The comparison of ``table``'s rows.
        table: The loaded data file, for the models, accelerators and formats it declares.
    """
    parts = [
        _summary(report),
        _held_back_regimes(report),
        _constants(report),
        _worst(report),
        _groups(report),
        _source_kinds(report),
        _comparison_table(report),
        _exclusions(report),
        _sources(report),
        _declarations(table),
        _closing_note(report),
    ]
    return "\n\n".join(part for part in parts if part) + "\n"


def render_summary(report: ValidationReport, figure_html: str) -> str:
    """What the page leads with: the held-back error in one sentence, the chart of measured
    against estimated speed (``figure_html``, drawn by the hook from
    :func:`roofline_core.figures.measured.measured_vs_predicted_figure`) and the error by regime.
    """
    single, multi = report.median_abs_error(HELD_BACK, "single"), report.median_abs_error(HELD_BACK, "multi")
    lede = (
        f"On the {report.count(HELD_BACK)} rows the fit never saw, the realistic estimate is off by a median "
        f"**{_error_text(report.median_abs_error(HELD_BACK))}**: {_error_text(single)} on one device, "
        f"{_error_text(multi)} on several, where communication the model does not fully count adds to the gap. "
        f"Every row is in [the full table](#{TABLE_ANCHOR}), which you can filter."
    )
    return "\n\n".join(["## At a glance", lede, figure_html, _regimes(report)])


def table_records(report: ValidationReport) -> list[dict[str, Any]]:
    """Every row of the comparison (excluded ones too) as ``{column: value}``, in file order,
    with the columns of :data:`TABLE_COLUMNS`; numbers stay numbers, a missing one is None."""
    records = []
    for c in report.comparisons:
        m = c.measurement
        values = {
            "id": m.id,
            "model": m.model.name,
            "model_slug": m.model_slug,
            "accelerator": m.accelerator.name,
            "accelerator_slug": m.accelerator_slug,
            "devices": m.devices,
            "parallelism": m.parallelism,
            "weight_format": m.weight_format.slug,
            "bits_per_weight": m.weight_format.bits_per_weight,
            "kv_format": m.kv_format,
            "compute_format": m.compute_format,
            "batch": m.batch,
            "input_tokens": m.input_tokens,
            "output_tokens": m.output_tokens,
            "engine": m.engine,
            "engine_version": m.engine_version,
            "date": m.date,
            "metric": m.metric,
            "unit": METRICS[m.metric][0],
            "measured": m.value,
            "speed_of_light": c.speed_of_light,
            "estimate": c.estimate,
            "estimate_low": None if c.expected_range is None else c.expected_range[0],
            "estimate_high": None if c.expected_range is None else c.expected_range[1],
            "one_share_estimate": c.uniform_estimate,
            "ratio": c.ratio,
            "error": c.error,
            "role": c.role,
            "exclude": m.exclude,
            "source_kind": m.source_kind,
            "source_url": m.source.url,
            "source_quote": m.source.states,
            "conditions": m.conditions,
        }
        records.append({name: values[name] for name, _ in TABLE_COLUMNS})
    return records


def table_files(report: ValidationReport, *, version: str) -> dict[str, str]:
    """The table as downloads: ``{"csv": text, "json": text}`` (:data:`TABLE_FILES` says where).

    Both hold the same records (:func:`table_records`); the CSV guards its text cells against
    spreadsheet formulas (``roofline_core.view.downloads``), the JSON adds what each column holds.
    """
    records = table_records(report)
    names = [name for name, _ in TABLE_COLUMNS]
    comments = [
        "Roofline Glossary: published LLM-inference measurements beside the roofline",
        f"data version: {version}",
        "measured and the estimates are in each row's unit (tok/s or ms); ratio and error are fractions",
    ]
    rows = [["" if record[name] is None else record[name] for name in names] for record in records]
    document = {
        "data_version": version,
        "columns": [{"name": name, "description": about} for name, about in TABLE_COLUMNS],
        "rows": records,
    }
    return {
        "csv": csv_text(names, rows, comments=comments),
        "json": json.dumps(document, ensure_ascii=False, indent=1, allow_nan=False) + "\n",
    }


# Helper functions ----------------------------------------------------------------------


def _cell(text: str) -> str:
    """Text shown literally in a Markdown table cell or paragraph."""
    escaped = html.escape(text, quote=False)
    for char in ("\\", "|", "`", "*", "_", "[", "]"):
        escaped = escaped.replace(char, "\\" + char)
    return escaped.replace("\n", " ")


def _error_text(value: float | None) -> str:
    return "n/a" if value is None else format_percent(value)


def _signed_percent(value: float) -> str:
    return ("+" if value > 0 else "") + format_percent(value)


def _value(value: float) -> str:
    return format_number(value)


def _summary(report: ValidationReport) -> str:
    e = report.efficiencies
    overall = held_back_by_regime(report).get("all held-back rows")
    rows = [
        "| rows | count | median absolute error of the estimate |",
        "|---|---|---|",
        f"| fit on | {report.count(FIT)} | {_error_text(report.median_abs_error(FIT))} |",
        f"| held back, all | {report.count(HELD_BACK)} | {_error_text(report.median_abs_error(HELD_BACK))} |",
        f"| held back, one device | {report.count(HELD_BACK, 'single')} "
        f"| {_error_text(report.median_abs_error(HELD_BACK, 'single'))} |",
        f"| held back, several devices | {report.count(HELD_BACK, 'multi')} "
        f"| {_error_text(report.median_abs_error(HELD_BACK, 'multi'))} |",
        f"| excluded | {report.count(EXCLUDED)} | not compared |",
    ]
    return (
        "## Fitted efficiencies by regime\n\n"
        f"Fitted on {report.count(FIT)} rows, regime by regime. Each row's realistic estimate is its speed of "
        "light with the weights read at the bandwidth share of its weight format and kernel, the KV cache at "
        "its own share, the math at the compute share, a fixed cost per layer (smaller where decode runs as a "
        "CUDA graph), and tensor parallelism's all-reduces at measured latencies: "
        "`max(compute / compute share, weights / bandwidth share + KV cache / KV share) + layers × fixed cost "
        "+ all-reduces` (`roofline_core/estimates/efficiency.py`). The range beside each estimate is an 80% "
        "prediction interval from the held-back rows of its regime.\n\n"
        f"Before regimes, one share for every row fits {format_percent(e.bandwidth)} of peak memory bandwidth "
        f"and {format_percent(e.compute)} of peak compute"
        + (
            ""
            if overall is None
            else f"; on the held-back rows it is off by a median {format_percent(overall.uniform_median_abs_error)} "
            f"and within 25% on {format_percent(overall.uniform_within_close)} of them, against "
            f"{format_percent(overall.median_abs_error)} and {format_percent(overall.within_close)} by regime"
        )
        + ".\n\n"
        + "\n".join(rows)
    )


def _held_back_regimes(report: ValidationReport) -> str:
    rows = [
        "| regime | held-back rows | median error, one share → by regime | within 25%, one share → by regime "
        "| inside the 80% interval |",
        "|---|---|---|---|---|",
    ]
    for regime in (None, *REGIMES):
        if regime is not None:
            rows.append(f"| **by {regime}** | | | | |")
        for value, e in held_back_by_regime(report, regime).items():
            coverage = "n/a" if e.coverage is None else format_percent(e.coverage)
            rows.append(
                f"| {_cell(value)} | {e.rows} | {format_percent(e.uniform_median_abs_error)} → "
                f"{format_percent(e.median_abs_error)} | {format_percent(e.uniform_within_close)} → "
                f"{format_percent(e.within_close)} | {coverage} |"
            )
    return (
        "### Held-back rows by regime, before and after\n\n"
        "Only rows the fit never saw. *Inside the 80% interval* is cross-validated: each row against the "
        "interval built from the other held-back rows of its regime, so about 8 in 10 should fall inside.\n\n"
        + '<div class="measurements-regimes" markdown>\n\n'
        + "\n".join(rows)
        + "\n\n</div>"
    )


def _constants(report: ValidationReport) -> str:
    counts = fit_row_counts(report)
    c = report.constants
    rows = ["| constant | regime | value | fit rows |", "|---|---|---|---|"]
    for title, table, members in (
        ("bandwidth share, weights", c.bandwidth_share, counts["bandwidth"]),
        ("bandwidth share, KV cache", c.kv_share, counts["kv"]),
        ("compute share", c.compute_share, counts["compute"]),
    ):
        rows += [
            f"| {title} | {_cell(key)} | {format_percent(v)} | {members.get(key, 0)} |" for key, v in table.items()
        ]
    rows += [
        f"| fixed cost per layer | {_cell(key)} | {format_number(v * 1e6)} µs | {counts['fixed'].get(key, 0)} |"
        for key, v in c.fixed_layer_s.items()
    ]
    fallbacks = [f"{_cell(key)} ({rows_} fit rows)" for key, rows_ in c.fallbacks.items()]
    links = (
        "one-shot all-reduce over NVLink: "
        + ", ".join(f"{format_number(t * 1e6)} µs on {n}" for n, t in efficiency.ONE_SHOT_LATENCY_S.items())
        + " devices ([vLLM's custom all-reduce on H100, SGLang PR 2904](https://github.com/sgl-project/sglang/pull/2904)); "
        f"large messages as a ring at {format_percent(efficiency.RING_LINK_SHARE)} of the NVLink line rate "
        "([NCCL's maintainer](https://github.com/NVIDIA/nccl-tests/issues/212)); PCIe-only cards fall back to "
        f"NCCL's ring, {format_number(efficiency.PCIE_STEP_LATENCY_S * 1e6)} µs a step "
        "([8 × RTX 4090](https://github.com/NVIDIA/nccl/issues/1530)) and "
        f"{format_number(efficiency.PCIE_BUS_BYTES_PER_S / 1e9)} GB/s "
        "([RTX 4090s over PCIe 4.0](https://github.com/tinygrad/open-gpu-kernel-modules/issues/17))."
    )
    return (
        "### The constants and what they were fitted on\n\n"
        "A regime is keyed by weight format family, then the engine's kernel or backend, then the kind of "
        "memory (HBM or other). Each value is fitted on the fit rows under its key; a key with fewer than "
        f"{efficiency.MIN_FIT_ROWS} fit rows falls back to its parent's value. Fell back: "
        + ("; ".join(fallbacks) if fallbacks else "none")
        + ".\n\nCommunication is not fitted (the split holds every multi-device row back) but measured: "
        + links
        + "\n\n"
        + '<div class="measurements-regimes" markdown>\n\n'
        + "\n".join(rows)
        + "\n\n</div>"
    )


def _worst(report: ValidationReport) -> str:
    items = [
        f"- [{_cell(row_name(c.measurement))}](#{c.measurement.id}), "
        f"{METRIC_LABELS[c.measurement.metric]}, {c.measurement.input_tokens} / {c.measurement.output_tokens} "
        f"tokens: estimate {_signed_percent(c.error or 0.0)}"
        for c in worst_held_back(report)
    ]
    return "### Explained worst\n\nThe five held-back rows the estimate misses most.\n\n" + "\n".join(items)


def _regimes(report: ValidationReport) -> str:
    rows = ["| regime | rows (held back) | median error | estimate leans |", "|---|---|---|---|"]
    for regime in REGIMES:
        rows.append(f"| **by {regime}** | | | |")
        for value, e in errors_by_regime(report, regime).items():
            direction = "fast" if e.median_error > 0 else "slow"
            rows.append(
                f"| {_cell(value)} | {e.rows} ({e.held_back}) | {format_percent(e.median_abs_error)} "
                f"| {format_percent(abs(e.median_error))} {direction} |"
            )
    return (
        "### Error by regime\n\n"
        "The median error of the estimate on the compared rows (fitted on and held back) of each kind. "
        "The last column is the median signed error on speed: *fast* means the estimate promises more "
        "speed than was measured.\n\n"
        # A class to size the table for a phone's width (site.css).
        + '<div class="measurements-regimes" markdown>\n\n'
        + "\n".join(rows)
        + "\n\n</div>"
    )


def _groups(report: ValidationReport) -> str:
    rows = ["| kind of row | rows | median share of the speed of light |", "|---|---|---|"]
    rows += [
        f"| {group} | {count} | {format_percent(ratio)} |" for group, (count, ratio) in report.ratios_by_group().items()
    ]
    return (
        "## How far below the bound, by kind of row\n\n"
        "Decode on one device is where the roofline is sharpest; rows on several devices also pay for "
        "communication the bound leaves out, and a short prefill is dominated by fixed costs the bound "
        "does not count.\n\n" + "\n".join(rows)
    )


def _source_kinds(report: ValidationReport) -> str:
    rows = ["| kind of source | rows |", "|---|---|"]
    rows += [f"| {kind} | {count} |" for kind, count in report.rows_by_source_kind().items()]
    return "## Rows by kind of source\n\n" + "\n".join(rows)


def _hardware(m: Measurement) -> str:
    return f"{m.devices} × {_cell(m.accelerator.name)}" if m.devices > 1 else _cell(m.accelerator.name)


def _formats(m: Measurement) -> str:
    return f"{m.weight_format.slug} / {m.kv_format} / {m.compute_format}"


def _comparison_row(c: Comparison) -> str:
    m = c.measurement
    unit = METRICS[m.metric][0]
    sol = "n/a" if c.speed_of_light is None else _value(c.speed_of_light)
    estimate = "n/a" if c.estimate is None else _value(c.estimate)
    ratio = "n/a" if c.ratio is None else format_percent(c.ratio)
    error = "n/a" if c.error is None else _signed_percent(c.error)
    return (
        f"| {_row_label(m)} | {METRIC_LABELS[m.metric]} | {_value(m.value)} {unit} | {sol} | {estimate} "
        f"| {ratio} | {error} | {c.role} | {_cell(_formats(m))} | {m.input_tokens} / {m.output_tokens} |"
    )


def _row_label(m: Measurement) -> str:
    """A row named by model, chip, engine and batch, one per line, linked to its source."""
    return f"[{_cell(m.model.name)}](#{m.id})<br>{_hardware(m)}<br>{_cell(engine_family(m))}, batch {m.batch}"


def _comparison_table(report: ValidationReport) -> str:
    header = [
        "| model, hardware, engine | metric | measured | speed of light | estimate | ratio | error | role "
        "| weights / KV / math | in / out tokens |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    body = [_comparison_row(c) for c in report.comparisons if c.role != EXCLUDED]
    return (
        f"## Every row beside the roofline {{#{TABLE_ANCHOR}}}\n\n"
        "*Ratio* is the measured speed as a share of the speed of light (for milliseconds, the "
        "bound's time over the measured time), so 100% would be a perfect run. *Error* is the "
        "estimate's difference from the measurement, relative to the measurement. The speed of light and "
        "the estimate are in the unit of the measured column. Each row's name links to its source.\n\n"
        f"{DOWNLOADS_MARKER}\n\n" + _unsearched(_filterable("\n".join(header + body), rows=len(body)))
    )


def _filterable(table: str, *, rows: int) -> str:
    """``table`` in its own horizontal scroller, with a filter box that
    ``site_assets/measurements/table.mjs`` shows and runs (without scripts the box stays hidden
    and every row is shown). The script also adds a scroll bar above the table, kept in step
    with the one below, so the table scrolls sideways without first scrolling to its end."""
    return (
        f'<div class="measurements-table" data-measurements-table="{rows}" markdown>\n'
        '<div class="measurements-table__filter" hidden>\n'
        '<label class="measurements-table__label" for="measurements-filter-input">Filter rows</label>\n'
        '<input class="measurements-table__input" id="measurements-filter-input" type="search" autocomplete="off"'
        ' spellcheck="false" placeholder="Words that must all appear, e.g. H100 fp8 decode">\n'
        '<p class="measurements-table__status" aria-live="polite"></p>\n'
        "</div>\n"
        '<div class="measurements-table__scroll" tabindex="0" role="region" aria-label="Every row beside the roofline"'
        f" markdown>\n\n{table}\n\n</div>\n</div>"
    )


def _unsearched(markdown: str) -> str:
    """``markdown`` kept out of the site's search index: rows of figures and citations, which
    every page would otherwise download in the index (Material skips ``data-search-exclude``)."""
    return f'<div class="measurements-unsearched" data-search-exclude markdown>\n\n{markdown}\n\n</div>'


def _exclusions(report: ValidationReport) -> str:
    excluded = [c.measurement for c in report.comparisons if c.role == EXCLUDED]
    if not excluded:
        return ""
    items = [f"- [{_cell(row_name(m))}](#{m.id}): {_cell(m.exclude)}" for m in excluded]
    return "## Listed but not compared\n\n" + "\n".join(items)


def _sources(report: ValidationReport) -> str:
    blocks = []
    for c in report.comparisons:
        m = c.measurement
        unit = METRICS[m.metric][0]
        blocks.append(
            f'<a id="{m.id}"></a>\n\n'
            f"**{_cell(m.model.name)}, {_hardware(m)}, batch {m.batch}** (`{m.id}`): "
            f"{_value(m.value)} {unit} ({METRIC_LABELS[m.metric]}), "
            f"{_cell(m.engine)} {_cell(m.engine_version)}, {_cell(m.date)}. "
            f"[Source]({m.source.url}): “{_cell(m.source.states)}” Conditions: {_cell(m.conditions)}"
        )
    return "## Sources\n\n" + _unsearched("\n\n".join(blocks))


def _declarations(table: MeasurementTable) -> str:
    items = [
        f"- Model `{slug}`: [source]({src.url}): “{_cell(src.states)}”" for slug, src in table.declared_models.items()
    ]
    items += [
        f"- Accelerator `{slug}`: [source]({src.url}): “{_cell(src.states)}”"
        for slug, src in table.declared_accelerators.items()
    ]
    items += [
        f"- Weight format `{slug}`, {format_number(fmt.bits_per_weight)} bits per weight: "
        f"[source]({fmt.source.url}): “{_cell(fmt.source.states)}”"
        for slug, fmt in table.formats.items()
        if fmt.source is not None
    ]
    if not items:
        return ""
    return (
        "## Models, hardware and formats without a preset\n\n"
        "Rows may name a model, an accelerator or a weight format that `roofline_core` has no preset "
        "for; the data file then declares it from these sources.\n\n" + "\n".join(items)
    )


def _closing_note(report: ValidationReport) -> str:
    overall = held_back_by_regime(report).get("all held-back rows")
    shares = (
        ""
        if overall is None
        else f", {format_percent(overall.within_close)} of them within 25%, "
        f"{format_percent(overall.coverage or 0.0)} inside their 80% interval"
    )
    return (
        "## Closing note\n\n"
        f"Regime constants fitted on {report.count(FIT)} rows. Median absolute error of the estimate on the "
        f"{report.count(HELD_BACK)} held-back rows: **{_error_text(report.median_abs_error(HELD_BACK))}** "
        f"({_error_text(report.median_abs_error(HELD_BACK, 'single'))} on the "
        f"{report.count(HELD_BACK, 'single')} single-device ones, "
        f"{_error_text(report.median_abs_error(HELD_BACK, 'multi'))} on the "
        f"{report.count(HELD_BACK, 'multi')} multi-device ones){shares}; on the rows it was "
        f"fitted on: {_error_text(report.median_abs_error(FIT))}."
    )
