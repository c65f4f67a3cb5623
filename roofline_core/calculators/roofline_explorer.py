"""Roofline explorer: where an operation of a given arithmetic intensity lands on an accelerator."""

from __future__ import annotations

from typing import Any

from roofline_core.calculators._common import (
    MEMORY_ROOF,
    accelerator_input,
    accelerator_of,
    at_memory_roof,
    custom_accelerator_inputs,
    memory_roof_output,
    other_memory_roof,
    roof_cross_check,
)
from roofline_core.calculators.base import Calculator, Output, value
from roofline_core.figures import roofline_curve
from roofline_core.formatting import bound_phrase, format_flop_per_s, format_intensity, format_percent
from roofline_core.roofline import attainable_flop_per_s, bound, ridge_point
from roofline_core.vocabulary import COMPUTE_DTYPE, INTENSITY


def _cross_check(values: dict[str, Any]) -> dict[str, str]:
    accelerator = accelerator_of(values, compute_dtype=values["dtype"])
    if not accelerator.supports(values["dtype"]):
        supported = ", ".join(accelerator.peak_flop_per_s)
        return {"dtype": f"Precision {values['dtype']} has no peak on {accelerator.name}; choose one of {supported}."}
    return roof_cross_check(values)


def _compute(values: dict[str, Any]) -> dict[str, Any]:
    accelerator = accelerator_of(values, compute_dtype=values["dtype"])
    # FP16 and BF16 share one rate (Accelerator.peak_for), so the default precision works with
    # every preset, TPUs included; a custom peak is the rate of the chosen precision.
    peak, bandwidth = accelerator.peak_for(values["dtype"]), at_memory_roof(accelerator, values).bandwidth_bytes_per_s
    intensity = values["intensity"]
    attainable = attainable_flop_per_s(
        intensity_flop_per_byte=intensity, peak_flop_per_s=peak, bandwidth_bytes_per_s=bandwidth
    )
    ridge = ridge_point(peak_flop_per_s=peak, bandwidth_bytes_per_s=bandwidth)
    which = bound(intensity_flop_per_byte=intensity, peak_flop_per_s=peak, bandwidth_bytes_per_s=bandwidth)
    share = attainable / peak
    return {
        "outputs": {
            "attainable": value(attainable, "FLOP/s", format_flop_per_s(attainable)),
            "share_of_peak": value(share, "1", format_percent(share)),
            "bound": value(which, "", bound_phrase(which)),
            "ridge_point": value(ridge, "FLOP/byte", format_intensity(ridge)),
            "measured_roof": memory_roof_output(accelerator),
        },
        "chart": roofline_curve(
            peak_flop_per_s=peak,
            bandwidth_bytes_per_s=bandwidth,
            points=[{"label": f"workload · {format_intensity(intensity)}", "intensity_flop_per_byte": intensity}],
            x_min_flop_per_byte=0.01,
            x_max_flop_per_byte=10_000,
            other_roof=other_memory_roof(accelerator, values),
        ),
    }


_CUSTOM_ACCELERATOR_FIELDS = ("peak_tflop_per_s", "bandwidth_tb_per_s")

ROOFLINE_EXPLORER = Calculator(
    id="roofline-explorer",
    title="Roofline explorer",
    description="Place a workload of a given arithmetic intensity on an accelerator's roofline.",
    inputs=(
        accelerator_input(custom_fields=_CUSTOM_ACCELERATOR_FIELDS),
        COMPUTE_DTYPE,
        *custom_accelerator_inputs(*_CUSTOM_ACCELERATOR_FIELDS),
        INTENSITY,
        MEMORY_ROOF,
    ),
    outputs=(
        Output("attainable", "Attainable throughput"),
        Output("share_of_peak", "Share of peak compute"),
        Output("bound", "Limited by"),
        Output("ridge_point", "Ridge point"),
        Output("measured_roof", "Measured bandwidth"),
    ),
    headline=("attainable", "bound"),
    key_inputs=("accelerator", "intensity"),
    compute=_compute,
    cross_check=_cross_check,
)
