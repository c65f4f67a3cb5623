"""Incoming measurement files: every row loads, quotes its value and stays under the roofline.

``measurements/incoming/*.toml`` hold rows gathered for the main table before they are merged
into ``measurements/measurements.toml`` (which would refit the published efficiencies). Each
file loads on its own, declaring again any model, accelerator or format it shares with the main
table, and passes the same per-row checks as ``tests/data/test_measurements.py``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from roofline_core.evidence.measurements import Measurement, MeasurementTable, load_measurements
from roofline_core.evidence.validation import EXCLUDED, fraction_of_speed_of_light, predict, split_role

ROOT = Path(__file__).resolve().parents[2]
MAIN_FILE = ROOT / "measurements" / "measurements.toml"
INCOMING_FILES = sorted((ROOT / "measurements" / "incoming").glob("*.toml"))


def _load(path: Path) -> MeasurementTable:
    return load_measurements(path.read_text(encoding="utf-8"), filename=str(path))


TABLES = {path.name: _load(path) for path in INCOMING_FILES}
ROWS: dict[str, tuple[Path, Measurement]] = {
    f"{path.name}:{row.id}": (path, row) for path in INCOMING_FILES for row in TABLES[path.name].rows
}


def _spellings(value: float) -> set[str]:
    """Ways a source may write ``value``: 104.9, 196.80, 19,694, 7."""
    forms = {f"{value:g}", f"{value:.2f}", f"{value:.1f}"}
    if value == int(value):
        forms |= {f"{int(value)}", f"{int(value):,}"}
    return forms


def test_there_are_incoming_rows() -> None:
    assert INCOMING_FILES and all(TABLES[path.name].rows for path in INCOMING_FILES)


def test_ids_are_unique_across_the_main_table_and_every_incoming_file() -> None:
    seen: dict[str, str] = {row.id: MAIN_FILE.name for row in _load(MAIN_FILE).rows}
    for path in INCOMING_FILES:
        for row in TABLES[path.name].rows:
            assert row.id not in seen, f"{path}:{row.line}: id {row.id!r} is already used in {seen[row.id]}"
            seen[row.id] = path.name


@pytest.mark.parametrize("key", sorted(ROWS))
def test_row_quotes_its_value(key: str) -> None:
    path, row = ROWS[key]
    assert any(form in row.source.states for form in _spellings(row.value)), (
        f"{path}:{row.line}: {row.id}: the quote does not contain {row.value}"
    )


@pytest.mark.parametrize("key", sorted(ROWS))
def test_row_cites_an_https_source_and_says_why_when_excluded(key: str) -> None:
    path, row = ROWS[key]
    assert row.source.url.startswith("https://"), f"{path}:{row.line}: {row.id}"
    assert row.conditions.strip(), f"{path}:{row.line}: {row.id}"
    if split_role(row) == EXCLUDED:
        assert row.exclude.strip(), f"{path}:{row.line}: {row.id}"


@pytest.mark.parametrize("key", sorted(k for k, (_, row) in ROWS.items() if split_role(row) != EXCLUDED))
def test_row_is_at_or_below_its_speed_of_light(key: str) -> None:
    path, row = ROWS[key]
    # A measurement faster than the bound means a wrong number, format or device count in the row.
    ratio = fraction_of_speed_of_light(row, predict(row))
    assert 0 < ratio <= 1.0, f"{path}:{row.line}: {row.id} runs at {ratio:.2f} of the speed of light"


def test_declared_models_accelerators_and_formats_cite_https_sources() -> None:
    for path in INCOMING_FILES:
        table = TABLES[path.name]
        declared = {**table.declared_models, **table.declared_accelerators}
        declared |= {slug: f.source for slug, f in table.formats.items() if f.source is not None}
        for slug, source in declared.items():
            assert source.url.startswith("https://"), f"{path}: {slug}"
            assert source.states.strip(), f"{path}: {slug}"
