"""The repository's measurements table: every row loads, quotes its value and stays under the roofline;
the regime constants shipped in roofline_core.estimates.efficiency are this table's fit, and the
held-back rows show what issue 32 asks of it."""

from __future__ import annotations

import functools
import statistics
from pathlib import Path

import pytest

from roofline_core.estimates.efficiency import FITTED, FOUR_BIT_WEIGHT_ONLY, GGUF_BLOCK, INT8_WEIGHT_ONLY
from roofline_core.evidence.measurements import load_measurements_file
from roofline_core.evidence.validation import (
    EXCLUDED,
    HELD_BACK,
    REGIMES,
    ValidationReport,
    fraction_of_speed_of_light,
    held_back_by_regime,
    predict,
    row_regime,
    split_role,
    validate,
)

DATA_FILE = Path(__file__).resolve().parents[2] / "measurements" / "measurements.toml"
TABLE = load_measurements_file(str(DATA_FILE))
ROWS = {row.id: row for row in TABLE.rows}


@functools.cache
def _report() -> ValidationReport:
    # The fit takes a few CPU-seconds: once for the module.
    return validate(TABLE)


def _held_back(report: ValidationReport) -> list:
    return [c for c in report.comparisons if c.role == HELD_BACK]


def _spellings(value: float) -> set[str]:
    """Ways a source may write ``value``: 104.9, 196.80, 19,694, 7."""
    forms = {f"{value:g}", f"{value:.2f}", f"{value:.1f}"}
    if value == int(value):
        forms |= {f"{int(value)}", f"{int(value):,}"}
    return forms


def test_the_table_has_enough_rows_from_several_kinds_of_source() -> None:
    assert len(TABLE.rows) >= 200
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


def test_the_shipped_regime_constants_are_the_fit_of_this_table() -> None:
    # If a new row moves the fit, paste `benchmarks/regime_report.py --constants` into
    # roofline_core/estimates/efficiency.py.
    fitted = _report().constants
    assert fitted.bandwidth_share == FITTED.bandwidth_share
    assert fitted.kv_share == FITTED.kv_share
    assert fitted.compute_share == FITTED.compute_share
    assert fitted.fixed_layer_s == FITTED.fixed_layer_s
    assert fitted.intervals == FITTED.intervals
    assert fitted.fallbacks == FITTED.fallbacks


def test_excluded_rows_say_why() -> None:
    excluded = [row for row in ROWS.values() if split_role(row) == EXCLUDED]
    assert excluded and all(row.exclude.strip() for row in excluded)


def test_held_back_rows_meet_the_accuracy_the_site_states() -> None:
    # Issue 32 asks for a median error of at most 12% overall, at most 20% on tensor-parallel rows
    # and at most 15% on weight-only quantised rows (held-back rows only).
    held = _held_back(_report())
    errors = [abs(c.error) for c in held]
    assert statistics.median(errors) <= 0.12
    tensor_parallel = [abs(c.error) for c in held if c.measurement.parallelism == "tensor"]
    assert len(tensor_parallel) >= 20 and statistics.median(tensor_parallel) <= 0.20
    weight_only = (FOUR_BIT_WEIGHT_ONLY, INT8_WEIGHT_ONLY, GGUF_BLOCK)
    quantised = [abs(c.error) for c in held if row_regime(c.measurement, "decode").family in weight_only]
    assert len(quantised) >= 20 and statistics.median(quantised) <= 0.15
    # And at least 80% of rows within 25% (the misses are mostly prefill rows of llama.cpp
    # builds on datacenter GPUs, see the page).
    assert sum(e <= 0.25 for e in errors) / len(errors) >= 0.80


def test_the_interval_holds_7_to_9_in_10_held_back_rows_in_every_regime_with_10() -> None:
    report = _report()
    for regime in (None, *REGIMES):
        for value, summary in held_back_by_regime(report, regime).items():
            if summary.rows >= 10 and summary.coverage is not None:
                assert 0.70 <= summary.coverage <= 0.90, (regime, value, summary.coverage)


def test_the_regime_fit_beats_one_share_for_every_row_on_held_back_rows() -> None:
    overall = held_back_by_regime(_report())["all held-back rows"]
    assert overall.median_abs_error < overall.uniform_median_abs_error
    assert overall.within_close > overall.uniform_within_close
