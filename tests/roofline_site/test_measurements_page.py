"""The generated "Model vs measurement" Markdown: marker, numbers from the report, escaping."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from roofline_core.formatting import format_percent
from roofline_core.measurements import load_measurements_file
from roofline_core.validation import FIT, HELD_BACK, validate
from roofline_site.measurements_page import MARKER, MarkerError, render_markdown, replace_marker

DATA_FILE = Path(__file__).resolve().parents[2] / "measurements" / "measurements.toml"
TABLE = load_measurements_file(str(DATA_FILE))
REPORT = validate(TABLE)


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
    text = render_markdown(REPORT, TABLE)
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
