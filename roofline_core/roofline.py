"""The roofline model: the two ceilings of an accelerator and where an operation meets them.

Units are SI throughout: FLOP, bytes, seconds. A multiply-add counts as 2 FLOPs. Peaks are
dense (not the "with sparsity" figures some spec sheets lead with).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

MEMORY = "memory"
COMPUTE = "compute"


def _require_positive(name: str, value: float) -> None:
    # Callers are code, not people (calculators validate people's input first), so a plain
    # ValueError naming the argument is the right failure.
    if not (isinstance(value, (int, float)) and math.isfinite(value) and value > 0):
        raise ValueError(f"{name} must be a positive finite number, got {value!r}")


def _require_non_negative(name: str, value: float) -> None:
    if not (isinstance(value, (int, float)) and math.isfinite(value) and value >= 0):
        raise ValueError(f"{name} must be a non-negative finite number, got {value!r}")


def ridge_point(*, peak_flop_per_s: float, bandwidth_bytes_per_s: float) -> float:
    """Arithmetic intensity at which the bandwidth roof meets the compute roof.

    Args:
        peak_flop_per_s: Dense peak compute, in FLOP/s.
        bandwidth_bytes_per_s: Peak memory bandwidth, in bytes/s.

    Returns:
        The ridge point, in FLOP/byte.

    The H100 SXM's dense FP16 peak over its HBM3 bandwidth:

    >>> round(ridge_point(peak_flop_per_s=989e12, bandwidth_bytes_per_s=3.35e12), 1)
    295.2
    """
    _require_positive("peak_flop_per_s", peak_flop_per_s)
    _require_positive("bandwidth_bytes_per_s", bandwidth_bytes_per_s)
    return peak_flop_per_s / bandwidth_bytes_per_s


def attainable_flop_per_s(
    *, intensity_flop_per_byte: float, peak_flop_per_s: float, bandwidth_bytes_per_s: float
) -> float:
    """The roofline itself: ``min(peak, bandwidth * intensity)``.

    Args:
        intensity_flop_per_byte: Arithmetic intensity of the operation, in FLOP/byte.
        peak_flop_per_s: Dense peak compute, in FLOP/s.
        bandwidth_bytes_per_s: Peak memory bandwidth, in bytes/s.

    Returns:
        The highest throughput the operation can reach, in FLOP/s.

    Below the ridge the bandwidth roof limits; above it, the peak:

    >>> attainable_flop_per_s(intensity_flop_per_byte=1, peak_flop_per_s=989e12, bandwidth_bytes_per_s=3.35e12)
    3350000000000.0
    >>> attainable_flop_per_s(intensity_flop_per_byte=1000, peak_flop_per_s=989e12, bandwidth_bytes_per_s=3.35e12)
    989000000000000.0
    """
    _require_non_negative("intensity_flop_per_byte", intensity_flop_per_byte)
    _require_positive("peak_flop_per_s", peak_flop_per_s)
    _require_positive("bandwidth_bytes_per_s", bandwidth_bytes_per_s)
    return min(peak_flop_per_s, bandwidth_bytes_per_s * intensity_flop_per_byte)


def bound(*, intensity_flop_per_byte: float, peak_flop_per_s: float, bandwidth_bytes_per_s: float) -> str:
    """Which roof limits an operation of the given intensity.

    An operation exactly at the ridge is counted as compute-bound: the compute units are saturated.

    Returns:
        ``"memory"`` below the ridge point, ``"compute"`` at or above it.
    """
    _require_non_negative("intensity_flop_per_byte", intensity_flop_per_byte)
    ridge = ridge_point(peak_flop_per_s=peak_flop_per_s, bandwidth_bytes_per_s=bandwidth_bytes_per_s)
    return MEMORY if intensity_flop_per_byte < ridge else COMPUTE


def op_time_s(*, flops: float, bytes_moved: float, peak_flop_per_s: float, bandwidth_bytes_per_s: float) -> float:
    """Lower bound on an operation's run time: the slower of its math and its data movement.

    Args:
        flops: Floating-point operations, in FLOP.
        bytes_moved: Bytes read from and written to memory, in bytes.
        peak_flop_per_s: Dense peak compute, in FLOP/s.
        bandwidth_bytes_per_s: Memory bandwidth, in bytes/s.

    Returns:
        ``max(flops / peak, bytes / bandwidth)``, in seconds.
    """
    _require_non_negative("flops", flops)
    _require_non_negative("bytes_moved", bytes_moved)
    _require_positive("peak_flop_per_s", peak_flop_per_s)
    _require_positive("bandwidth_bytes_per_s", bandwidth_bytes_per_s)
    return max(flops / peak_flop_per_s, bytes_moved / bandwidth_bytes_per_s)


@dataclass(frozen=True)
class MatmulCost:
    """FLOPs and bytes of one matrix multiply.

    Attributes:
        flops: Floating-point operations, in FLOP (2 per multiply-add).
        bytes_moved: Bytes read and written, in bytes.
    """

    flops: float
    bytes_moved: float

    @property
    def intensity_flop_per_byte(self) -> float:
        """Arithmetic intensity, in FLOP/byte."""
        return self.flops / self.bytes_moved


def matmul_cost(
    *,
    m: int,
    n: int,
    k: int,
    weight_bytes_per_element: float = 2,
    activation_bytes_per_element: float = 2,
) -> MatmulCost:
    """Cost of multiplying ``m`` tokens of ``k`` features by a ``k x n`` weight matrix.

    Each operand is assumed to cross the memory bus once: the weights (``k * n``), the input
    activations (``m * k``) and the output activations (``m * n``).

    Args:
        m: Tokens (rows of the activation matrix); 1 for a decode step at batch 1.
        n: Output features.
        k: Input features.
        weight_bytes_per_element: Bytes per weight (2 for fp16, 1 for int8).
        activation_bytes_per_element: Bytes per activation element.

    Returns:
        A :class:`MatmulCost` with ``flops = 2mnk``.
    """
    for name, value in (("m", m), ("n", n), ("k", k)):
        _require_positive(name, value)
    _require_positive("weight_bytes_per_element", weight_bytes_per_element)
    _require_positive("activation_bytes_per_element", activation_bytes_per_element)
    flops = 2.0 * m * n * k
    bytes_moved = k * n * weight_bytes_per_element + (m * k + m * n) * activation_bytes_per_element
    return MatmulCost(flops=flops, bytes_moved=bytes_moved)
