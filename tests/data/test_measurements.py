"""The repository's measurements table: every row loads, quotes its value and stays under the roofline."""

from __future__ import annotations

import statistics
from pathlib import Path

import pytest

from roofline_core.estimates.efficiency import DECODE_SHARE_OF_SPEED_OF_LIGHT
from roofline_core.evidence.measurements import load_measurements_file
from roofline_core.evidence.validation import (
    EXCLUDED,
    FIT,
    FITTED_EFFICIENCIES,
    fraction_of_speed_of_light,
    predict,
    row_group,
    split_role,
    validate,
)

DATA_FILE = Path(__file__).resolve().parents[2] / "measurements" / "measurements.toml"
TABLE = load_measurements_file(str(DATA_FILE))
ROWS = {row.id: row for row in TABLE.rows}


def _spellings(value: float) -> set[str]:
    """Ways a source may write ``value``: 104.9, 196.80, 19,694, 7."""
    forms = {f"{value:g}", f"{value:.2f}", f"{value:.1f}"}
    if value == int(value):
        forms |= {f"{int(value)}", f"{int(value):,}"}
    return forms


def test_the_table_has_enough_rows_from_several_kinds_of_source() -> None:
    assert len(TABLE.rows) >= 24
    assert len({row.source_kind for row in TABLE.rows}) >= 4
    small_batch_decode = [r for r in TABLE.rows if r.metric.startswith("decode") and r.batch == 1]
    assert len(small_batch_decode) >= 12


@pytest.mark.parametrize("row_id", sorted(ROWS))
def test_row_quotes_its_value(row_id: str) -> None:
    row = ROWS[row_id]
    assert any(form in row.source.states for form in _spellings(row.value)), (
        f"{DATA_FILE}:{row.line}: {row_id}: the quote does not contain {row.value}"
    )


# Excluded rows (the table says why) have no estimate to compare; they are listed on the page.
@pytest.mark.parametrize("row_id", sorted(r for r in ROWS if split_role(ROWS[r]) != EXCLUDED))
def test_row_is_at_or_below_its_speed_of_light(row_id: str) -> None:
    row = ROWS[row_id]
    # A measurement faster than the bound means a wrong number, format or device count in the row.
    ratio = fraction_of_speed_of_light(row, predict(row))
    assert 0 < ratio <= 1.0, f"{DATA_FILE}:{row.line}: {row_id} runs at {ratio:.2f} of the speed of light"


def test_declared_models_and_accelerators_cite_https_sources() -> None:
    for slug, source in {**TABLE.declared_models, **TABLE.declared_accelerators}.items():
        assert source.url.startswith("https://"), slug
        assert source.states.strip(), slug


def test_the_published_default_efficiencies_are_the_fit_of_this_table() -> None:
    # If a new row moves the fit, update FITTED_EFFICIENCIES to the new values.
    assert validate(TABLE).efficiencies == FITTED_EFFICIENCIES


def test_excluded_rows_say_why() -> None:
    excluded = [row for row in ROWS.values() if split_role(row) == EXCLUDED]
    assert excluded and all(row.exclude.strip() for row in excluded)


def test_the_decode_range_constant_is_the_tables_middle_half() -> None:
    report = validate(TABLE)
    shares = [
        fraction_of_speed_of_light(c.measurement, c.speed_of_light)
        for c in report.comparisons
        if c.role == FIT and row_group(c.measurement) == "decode, one device"
    ]
    low, _median, high = statistics.quantiles(shares, n=4)
    assert DECODE_SHARE_OF_SPEED_OF_LIGHT == (round(low, 2), round(high, 2))
