"""The generated "Model vs measurement" Markdown: marker, numbers from the report, escaping."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from roofline_core.estimates.efficiency import FITTED
from roofline_core.evidence.measurements import load_measurements_file
from roofline_core.evidence.validation import (
    FIT,
    HELD_BACK,
    REGIMES,
    engine_family,
    errors_by_regime,
    fit_row_counts,
    held_back_by_regime,
    row_name,
    validate,
    worst_held_back,
)
from roofline_core.formatting import format_percent
from roofline_site.measurements_page import (
    MARKER,
    SUMMARY_MARKER,
    TABLE_ANCHOR,
    MarkerError,
    render_markdown,
    render_summary,
    replace_marker,
)

DATA_FILE = Path(__file__).resolve().parents[2] / "measurements" / "measurements.toml"
TABLE = load_measurements_file(str(DATA_FILE))
REPORT = validate(TABLE, FITTED)


def test_the_page_states_the_fit_and_the_held_back_error_computed_by_the_report() -> None:
    text = render_markdown(REPORT, TABLE)
    held_back = format_percent(REPORT.median_abs_error(HELD_BACK))
    assert f"{REPORT.count(HELD_BACK)} held-back rows: **{held_back}**" in text
    assert f"Fitted on {REPORT.count(FIT)} rows" in text
    assert f"{format_percent(REPORT.efficiencies.bandwidth)} of peak memory bandwidth" in text
    for comparison in REPORT.comparisons:
        assert f'<a id="{comparison.measurement.id}"></a>' in text
    for slug, source in {**TABLE.declared_models, **TABLE.declared_accelerators}.items():
        assert f"`{slug}`: [source]({source.url})" in text


def test_the_page_gives_the_median_ratio_of_each_kind_of_row() -> None:
    text = render_markdown(REPORT, TABLE)
    for group, (count, ratio) in REPORT.ratios_by_group().items():
        assert f"| {group} | {count} | {format_percent(ratio)} |" in text


def test_tables_carry_no_alignment_since_the_csp_forbids_style_attributes() -> None:
    # An escaped pipe (\\|) is a quote's text, not table markup: some sources quote Markdown tables.
    text = render_markdown(REPORT, TABLE).replace("\\|", "")
    assert ":|" not in text.replace("**:", "") and "|:-" not in text and "-:|" not in text


def test_text_from_the_data_file_is_shown_literally() -> None:
    first = REPORT.comparisons[0]
    hostile = dataclasses.replace(
        first.measurement,
        conditions="<script>alert(1)</script> | [[kv-cache]] `x`",
    )
    report = dataclasses.replace(REPORT, comparisons=(dataclasses.replace(first, measurement=hostile),))
    text = render_markdown(report, TABLE)
    assert "<script>" not in text
    assert "&lt;script&gt;alert(1)&lt;/script&gt; \\| \\[\\[kv-cache\\]\\] \\`x\\`" in text


def test_the_marker_line_is_replaced_once_and_a_second_one_is_an_error() -> None:
    page = f"# Title\n\nIntro.\n\n{MARKER}\n"
    assert replace_marker(page, "GENERATED", page="docs/p.md") == "# Title\n\nIntro.\n\nGENERATED\n"
    assert replace_marker("# No marker\n", "GENERATED", page="docs/p.md") == "# No marker\n"
    with pytest.raises(MarkerError, match=r"^docs/p.md:3: a second"):
        replace_marker(f"{MARKER}\n\n{MARKER}\n", "G", page="docs/p.md")


# --- The summary the page leads with, named rows, the filterable table -----------------------


def test_the_summary_states_the_held_back_error_and_every_regime_computed_by_roofline_core() -> None:
    text = render_summary(REPORT, "<!-- chart -->")
    assert text.startswith("## At a glance")
    assert f"On the {REPORT.count(HELD_BACK)} rows the fit never saw" in text
    assert f"**{format_percent(REPORT.median_abs_error(HELD_BACK))}**" in text
    assert "<!-- chart -->" in text and f"](#{TABLE_ANCHOR})" in text
    for regime in REGIMES:
        assert f"| **by {regime}** |" in text
        for value, e in errors_by_regime(REPORT, regime).items():
            shown = value.replace("_", "\\_")  # Markdown-escaped, as every data-file text
            lean = f"{format_percent(abs(e.median_error))} {'fast' if e.median_error > 0 else 'slow'}"
            assert f"| {shown} | {e.rows} ({e.held_back}) | {format_percent(e.median_abs_error)} | {lean} |" in text
    # The chart comes before the regime table, and both before anything else.
    assert text.index("<!-- chart -->") < text.index("### Error by regime")


def test_rows_of_the_full_table_are_named_by_model_chip_engine_and_batch_not_by_id() -> None:
    text = render_markdown(REPORT, TABLE)
    table = text[text.index(f"{{#{TABLE_ANCHOR}}}") : text.index("## Listed but not compared")]
    rows = [line for line in table.splitlines() if line.startswith("| [")]
    compared = [c for c in REPORT.comparisons if c.role != "excluded"]
    assert len(rows) == len(compared)
    for line, c in zip(rows, compared):
        m = c.measurement
        first = line.split(" | ", 1)[0]
        assert first == (
            f"| [{m.model.name.replace('_', chr(92) + '_')}](#{m.id})<br>"
            + (f"{m.devices} × {m.accelerator.name}" if m.devices > 1 else m.accelerator.name)
            + f"<br>{engine_family(m)}, batch {m.batch}"
        )
        assert f"[{m.id}]" not in line


def test_the_full_table_scrolls_in_its_own_box_with_a_filter_box_hidden_until_a_script_runs_it() -> None:
    text = render_markdown(REPORT, TABLE)
    compared = sum(1 for c in REPORT.comparisons if c.role != "excluded")
    assert f'<div class="measurements-table" data-measurements-table="{compared}" markdown>' in text
    assert '<div class="measurements-table__filter" hidden>' in text
    scroller = text.index('<div class="measurements-table__scroll" tabindex="0" role="region"')
    assert scroller < text.index("| model, hardware, engine |")


def test_the_summary_marker_is_replaced_on_its_own() -> None:
    page = f"# T\n\n{SUMMARY_MARKER}\n\nMiddle.\n\n{MARKER}\n"
    once = replace_marker(page, "SUMMARY", page="docs/p.md", marker=SUMMARY_MARKER)
    assert once == f"# T\n\nSUMMARY\n\nMiddle.\n\n{MARKER}\n"
    with pytest.raises(MarkerError, match=r"^docs/p.md:3: a second <!-- roofline:measurements-summary -->"):
        replace_marker(f"{SUMMARY_MARKER}\n\n{SUMMARY_MARKER}\n", "S", page="docs/p.md", marker=SUMMARY_MARKER)


def test_rows_listed_but_not_compared_are_named_too() -> None:
    text = render_markdown(REPORT, TABLE)
    excluded = [c.measurement for c in REPORT.comparisons if c.role == "excluded"]
    assert excluded
    for m in excluded:
        assert f"- [{row_name(m).replace('_', chr(92) + '_')}](#{m.id}): " in text


# --- The regime report: held-back errors before and after, constants, fallbacks, worst rows ----


def test_the_page_reports_held_back_rows_by_regime_before_and_after_with_interval_coverage() -> None:
    text = render_markdown(REPORT, TABLE)
    section = text[text.index("### Held-back rows by regime") : text.index("### The constants")]
    for regime in (None, *REGIMES):
        for value, e in held_back_by_regime(REPORT, regime).items():
            assert (
                f"| {value} | {e.rows} | {format_percent(e.uniform_median_abs_error)} → "
                f"{format_percent(e.median_abs_error)} |" in section
            )


def test_the_page_lists_every_constant_with_its_fit_rows_and_the_regimes_that_fell_back() -> None:
    text = render_markdown(REPORT, TABLE)
    section = text[text.index("### The constants") : text.index("### Explained worst")]
    counts = fit_row_counts(REPORT)
    for key, share in REPORT.constants.bandwidth_share.items():
        assert f"| bandwidth share, weights | {key} | {format_percent(share)} | {counts['bandwidth'][key]} |" in section
    for key, rows in REPORT.constants.fallbacks.items():
        assert f"{key} ({rows} fit rows)" in section
    assert "https://github.com/sgl-project/sglang/pull/2904" in section


def test_the_page_names_the_five_rows_explained_worst() -> None:
    text = render_markdown(REPORT, TABLE)
    section = text[text.index("### Explained worst") :]
    for comparison in worst_held_back(REPORT):
        assert f"](#{comparison.measurement.id})" in section
