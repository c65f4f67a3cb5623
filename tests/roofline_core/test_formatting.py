"""Formatting: the short strings the site and the CLI show."""

from __future__ import annotations

import pytest

from roofline_core.formatting import (
    format_bandwidth,
    format_bytes,
    format_count,
    format_flop_per_s,
    format_intensity,
    format_number,
    format_percent,
    format_time,
    format_tokens_per_s,
)


@pytest.mark.parametrize(
    ("formatted", "expected"),
    [
        (format_time(0.004776), "4.78 ms"),
        (format_time(0.0418), "41.8 ms"),
        (format_time(2.5), "2.50 s"),
        (format_time(40.1e-6), "40.1 µs"),
        (format_time(0.00099996), "1.00 ms"),
        (format_tokens_per_s(209.3), "209 tok/s"),
        (format_tokens_per_s(6125.7), "6,126 tok/s"),
        (format_bytes(16.06e9), "16.1 GB"),
        (format_bytes(10_737_418_240), "10.7 GB"),
        (format_bytes(999.96e9), "1.00 TB"),
        (format_bytes(0), "0 B"),
        (format_intensity(295.22), "295 FLOP/byte"),
        (format_intensity(0.5625), "0.563 FLOP/byte"),  # seed 003
        (format_flop_per_s(989e12), "989 TFLOP/s"),
        (format_flop_per_s(2.25e15), "2.25 PFLOP/s"),
        (format_bandwidth(3.35e12), "3.35 TB/s"),
        (format_percent(0.00339), "0.339%"),
        (format_percent(1.0), "100%"),
        (format_count(8.03e9), "8.03B"),
        (format_number(9.996), "10.0"),
        (format_number(-1234.4), "-1,234"),
    ],
)
def test_formats(formatted: str, expected: str) -> None:
    assert formatted == expected


def test_non_finite_values_do_not_raise() -> None:
    assert format_number(float("inf")) == "inf"
    assert format_bytes(float("nan")) == "nan B"


@pytest.mark.parametrize(
    ("value", "expected"),
    [(0.5625, "0.563"), (-0.5625, "-0.563"), (0.125, "0.125"), (2.675, "2.68"), (6125.5, "6,126"), (99.95, "100")],
)
def test_halves_round_away_from_zero(value: float, expected: str) -> None:
    assert format_number(value) == expected


@pytest.mark.parametrize("value", [1e308, -1.7e308, 5e-324, 1e-300, 123456789.5])
def test_extreme_values_format(value: float) -> None:
    text = format_number(value)
    assert "e" not in text.lower() and text
