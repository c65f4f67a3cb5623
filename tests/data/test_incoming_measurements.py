"""Incoming measurement rows (measurements/incoming/*.toml): each file loads and every row passes the main table's checks.

These rows wait for a regime-aware fit before they join measurements/measurements.toml, so they
are checked here the same way, row by row: the quote states the value, the row is at or below
its speed of light, sources are https, and ids are unique across every file.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from roofline_core.evidence.measurements import load_measurements, load_measurements_file
from roofline_core.evidence.validation import EXCLUDED, SPEED_OF_LIGHT, fraction_of_speed_of_light, predict, split_role

ROOT = Path(__file__).resolve().parents[2] / "measurements"
INCOMING_FILES = sorted((ROOT / "incoming").glob("*.toml"))
MAIN = load_measurements_file(str(ROOT / "measurements.toml"))
TABLES = {path.name: load_measurements(path.read_text(encoding="utf-8"), filename=str(path)) for path in INCOMING_FILES}
ROWS = {(name, row.id): row for name, table in TABLES.items() for row in table.rows}


def _spellings(value: float) -> set[str]:
    """Ways a source may write ``value``: 104.9, 196.80, 19,694, 7 (as in test_measurements.py)."""
    forms = {f"{value:g}", f"{value:.2f}", f"{value:.1f}"}
    if value == int(value):
        forms |= {f"{int(value)}", f"{int(value):,}"}
    return forms


def test_there_are_incoming_files_with_rows() -> None:
    assert INCOMING_FILES
    assert all(table.rows for table in TABLES.values())


def test_ids_are_unique_across_the_main_table_and_every_incoming_file() -> None:
    seen = {row.id: "measurements.toml" for row in MAIN.rows}
    for (name, row_id), row in ROWS.items():
        assert row_id not in seen, f"{name}:{row.line}: id {row_id} is also in {seen[row_id]}"
        seen[row_id] = name


@pytest.mark.parametrize("key", sorted(ROWS), ids=lambda key: f"{key[0]}:{key[1]}")
def test_row_quotes_its_value(key: tuple[str, str]) -> None:
    row = ROWS[key]
    assert any(form in row.source.states for form in _spellings(row.value)), (
        f"{key[0]}:{row.line}: {row.id}: the quote does not contain {row.value}"
    )


@pytest.mark.parametrize(
    "key", sorted(k for k, r in ROWS.items() if split_role(r) != EXCLUDED), ids=lambda key: f"{key[0]}:{key[1]}"
)
def test_row_is_at_or_below_its_speed_of_light(key: tuple[str, str]) -> None:
    row = ROWS[key]
    ratio = fraction_of_speed_of_light(row, predict(row, SPEED_OF_LIGHT))
    assert 0 < ratio <= 1.0, f"{key[0]}:{row.line}: {row.id} runs at {ratio:.2f} of the speed of light"


@pytest.mark.parametrize("name", sorted(TABLES))
def test_rows_and_declarations_cite_https_sources(name: str) -> None:
    table = TABLES[name]
    for slug, source in {**table.declared_models, **table.declared_accelerators}.items():
        assert source.url.startswith("https://"), f"{name}: {slug}"
        assert source.states.strip(), f"{name}: {slug}"
    for row in table.rows:
        assert row.source.url.startswith("https://"), f"{name}:{row.line}: {row.id}"
        assert row.source.states.strip(), f"{name}:{row.line}: {row.id}"


@pytest.mark.parametrize("name", sorted(TABLES))
def test_excluded_rows_say_why(name: str) -> None:
    for row in TABLES[name].rows:
        if split_role(row) == EXCLUDED:
            assert row.exclude.strip(), f"{name}:{row.line}: {row.id}"
