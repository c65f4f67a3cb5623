"""Formatting: the short strings the site and the CLI show."""

from __future__ import annotations

import pytest

from roofline_core.formatting import (
    format_amount,
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
        # Whole values drop their zero decimals, beside others that keep theirs.
        (format_bytes(80e9), "80 GB"),
        (format_bytes(80.04e9), "80 GB"),
        (format_bytes(80.6e9), "80.6 GB"),
        (format_percent(0.2), "20%"),
        (format_number(1234.0), "1,234"),
        (format_time(40.1e-6), "40.1 µs"),
        (format_time(0.00099996), "1 ms"),
        (format_tokens_per_s(209.3), "209 tok/s"),
        (format_tokens_per_s(6125.7), "6,126 tok/s"),
        (format_bytes(16.06e9), "16.1 GB"),
        (format_bytes(10_737_418_240), "10.7 GB"),
        (format_bytes(999.96e9), "1 TB"),
        (format_bytes(0), "0 B"),
        (format_intensity(295.22), "295 FLOP/byte"),
        (format_intensity(0.5625), "0.563 FLOP/byte"),  # seed 003
        (format_flop_per_s(989e12), "989 TFLOP/s"),
        (format_flop_per_s(2.25e15), "2.25 PFLOP/s"),
        (format_bandwidth(3.35e12), "3.35 TB/s"),
        (format_percent(0.00339), "0.339%"),
        (format_percent(1.0), "100%"),
        (format_count(8.03e9), "8.03B"),
        (format_number(9.996), "10"),
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


def test_si_prefixes_are_the_table_the_formatters_use() -> None:
    from roofline_core.formatting import SI_PREFIXES

    assert list(SI_PREFIXES) == sorted(SI_PREFIXES, reverse=True)
    for exponent, prefix in SI_PREFIXES.items():
        assert format_bytes(2 * 10.0**exponent) == f"2 {prefix}B"


def test_bound_phrase() -> None:
    from roofline_core.formatting import bound_phrase

    assert bound_phrase("memory") == "memory-bound" and bound_phrase("compute") == "compute-bound"
    with pytest.raises(ValueError, match="bound must be 'memory' or 'compute'"):
        bound_phrase("network")


def test_memory_fit_phrases() -> None:
    from roofline_core.estimates.inference import fit_in_memory
    from roofline_core.formatting import format_max_batch, format_max_context, format_memory_fit, format_memory_use

    fits = fit_in_memory(
        capacity_bytes=80e9, weight_bytes=16e9, kv_bytes_per_token=131_072, batch=4, context_tokens=8192
    )
    assert format_memory_fit(fits) == "Yes: 20.3 GB of 80 GB (25.4%)"
    assert format_memory_use(fits) == "20.3 GB (25.4% of 80 GB)"
    assert format_max_batch(fits) == "59 sequences"
    assert format_max_context(fits) == "122,070 tokens per sequence"
    too_big = fit_in_memory(capacity_bytes=80e9, weight_bytes=141e9, kv_bytes_per_token=131_072, context_tokens=1)
    assert format_memory_fit(too_big) == "No: needs 141 GB of 80 GB"
    assert format_max_batch(too_big) == "none: the weights alone (141 GB) leave no room in 80 GB"
    assert format_max_context(too_big) == "none"
    no_room = fit_in_memory(capacity_bytes=80e9, weight_bytes=79.9e9, kv_bytes_per_token=1e6, context_tokens=1000)
    assert format_max_batch(no_room) == "none: one sequence needs 1 GB, 100 MB is free"
    nothing_cached = fit_in_memory(capacity_bytes=80e9, weight_bytes=16e9, kv_bytes_per_token=0, context_tokens=1000)
    assert format_max_batch(nothing_cached) == format_max_context(nothing_cached) == "no limit"


@pytest.mark.parametrize(
    ("count", "unit", "text"),
    [
        (1, "sequences", "1 sequence"),
        (2, "sequences", "2 sequences"),
        (1, "accelerators", "1 accelerator"),
        (32768, "tokens", "32,768 tokens"),
        (1, "billion", "1 billion"),
        (7.505, "billion", "7.51 billion"),
    ],
)
def test_amounts_are_singular_for_exactly_one(count, unit, text) -> None:
    assert format_amount(count, unit) == text
