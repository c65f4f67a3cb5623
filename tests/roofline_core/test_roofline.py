"""The formula layer: ridge point, attainable throughput, bound, matmul cost, op time."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from roofline_core import attainable_flop_per_s, bound, matmul_cost, op_time_s, ridge_point

H100 = {"peak_flop_per_s": 989e12, "bandwidth_bytes_per_s": 3.35e12}

peaks = st.floats(min_value=1e9, max_value=1e17)
bandwidths = st.floats(min_value=1e8, max_value=1e15)
intensities = st.floats(min_value=0, max_value=1e7)


def test_ridge_point_seed_values() -> None:
    assert ridge_point(**H100) == pytest.approx(295.2, abs=0.05)
    assert round(ridge_point(**H100)) == 295
    # A100 SXM 80GB: 312 TFLOP/s over 2,039 GB/s.
    assert round(ridge_point(peak_flop_per_s=312e12, bandwidth_bytes_per_s=2039e9)) == 153


def test_bound_either_side_of_the_ridge() -> None:
    assert bound(intensity_flop_per_byte=1, **H100) == "memory"
    assert bound(intensity_flop_per_byte=295, **H100) == "memory"
    assert bound(intensity_flop_per_byte=296, **H100) == "compute"
    ridge = ridge_point(**H100)
    assert bound(intensity_flop_per_byte=ridge, **H100) == "compute"


def test_attainable_at_batch_one_decode() -> None:
    assert attainable_flop_per_s(intensity_flop_per_byte=1, **H100) == pytest.approx(3.35e12)
    assert attainable_flop_per_s(intensity_flop_per_byte=1e4, **H100) == 989e12


@pytest.mark.parametrize(
    "kwargs",
    [
        {"peak_flop_per_s": 0, "bandwidth_bytes_per_s": 1},
        {"peak_flop_per_s": 1, "bandwidth_bytes_per_s": -1},
        {"peak_flop_per_s": float("nan"), "bandwidth_bytes_per_s": 1},
        {"peak_flop_per_s": float("inf"), "bandwidth_bytes_per_s": 1},
    ],
)
def test_ridge_rejects_non_positive_or_non_finite(kwargs) -> None:
    with pytest.raises(ValueError, match="must be a positive finite number"):
        ridge_point(**kwargs)


def test_attainable_rejects_negative_intensity() -> None:
    with pytest.raises(ValueError, match="intensity_flop_per_byte"):
        attainable_flop_per_s(intensity_flop_per_byte=-1, **H100)


def test_matmul_cost_counts_two_flops_per_multiply_add() -> None:
    cost = matmul_cost(m=1, n=4096, k=4096)
    assert cost.flops == 2 * 4096 * 4096
    assert cost.bytes_moved == 2 * (4096 * 4096 + 4096 + 4096)
    assert cost.intensity_flop_per_byte == pytest.approx(1.0, rel=1e-3)


def test_int8_weights_halve_bytes_and_double_intensity() -> None:
    fp16 = matmul_cost(m=1, n=8192, k=8192, weight_bytes_per_element=2, activation_bytes_per_element=2)
    int8 = matmul_cost(m=1, n=8192, k=8192, weight_bytes_per_element=1, activation_bytes_per_element=1)
    assert int8.bytes_moved == fp16.bytes_moved / 2
    assert int8.intensity_flop_per_byte == pytest.approx(2 * fp16.intensity_flop_per_byte)


def test_op_time_is_the_slower_roof() -> None:
    assert op_time_s(flops=989e12, bytes_moved=1, **H100) == pytest.approx(1.0)
    assert op_time_s(flops=1, bytes_moved=3.35e12, **H100) == pytest.approx(1.0)


@given(intensity=intensities, peak=peaks, bandwidth=bandwidths)
def test_attainable_never_exceeds_peak(intensity: float, peak: float, bandwidth: float) -> None:
    assert (
        attainable_flop_per_s(intensity_flop_per_byte=intensity, peak_flop_per_s=peak, bandwidth_bytes_per_s=bandwidth)
        <= peak
    )


@given(a=intensities, b=intensities, peak=peaks, bandwidth=bandwidths)
def test_attainable_never_decreases_with_intensity(a: float, b: float, peak: float, bandwidth: float) -> None:
    low, high = sorted((a, b))
    kw = {"peak_flop_per_s": peak, "bandwidth_bytes_per_s": bandwidth}
    assert attainable_flop_per_s(intensity_flop_per_byte=low, **kw) <= attainable_flop_per_s(
        intensity_flop_per_byte=high, **kw
    )


@given(share=st.floats(min_value=0, max_value=1, exclude_max=True), peak=peaks, bandwidth=bandwidths)
def test_attainable_is_bandwidth_times_intensity_below_the_ridge(share: float, peak: float, bandwidth: float) -> None:
    intensity = share * ridge_point(peak_flop_per_s=peak, bandwidth_bytes_per_s=bandwidth)
    attained = attainable_flop_per_s(
        intensity_flop_per_byte=intensity, peak_flop_per_s=peak, bandwidth_bytes_per_s=bandwidth
    )
    assert attained == pytest.approx(bandwidth * intensity, rel=1e-12)
    assert bound(intensity_flop_per_byte=intensity, peak_flop_per_s=peak, bandwidth_bytes_per_s=bandwidth) == "memory"
