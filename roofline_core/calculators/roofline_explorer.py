"""Roofline explorer: where an operation of a given arithmetic intensity lands on an accelerator."""

from __future__ import annotations

from typing import Any

from roofline_core.calculators._common import CUSTOM, accelerator_input
from roofline_core.calculators.base import Calculator, Output, value
from roofline_core.calculators.fields import Choice, ChoiceInput, NumberInput
from roofline_core.dtypes import COMPUTE_DTYPES, DTYPES
from roofline_core.figures import roofline_curve
from roofline_core.formatting import format_flop_per_s, format_intensity, format_percent
from roofline_core.hardware import ACCELERATORS, TERA
from roofline_core.roofline import attainable_flop_per_s, bound, ridge_point


def _peak_and_bandwidth(values: dict[str, Any]) -> tuple[float, float]:
    """Peak (FLOP/s) and bandwidth (bytes/s) from a preset or the custom fields."""
    if values["accelerator"] == CUSTOM:
        return values["peak_tflop_per_s"] * TERA, values["bandwidth_tb_per_s"] * TERA
    accelerator = ACCELERATORS[values["accelerator"]]
    # fp16 falls back to bf16 on parts without fp16 units (TPU v5e), so the default precision
    # works with every preset.
    return accelerator.peak_for(values["dtype"]), accelerator.bandwidth_bytes_per_s


def _cross_check(values: dict[str, Any]) -> dict[str, str]:
    if values["accelerator"] == CUSTOM:
        return {}
    accelerator = ACCELERATORS[values["accelerator"]]
    peaks = accelerator.peak_flop_per_s
    if values["dtype"] not in peaks and not (values["dtype"] == "fp16" and "bf16" in peaks):
        supported = ", ".join(accelerator.peak_flop_per_s)
        return {"dtype": f"Precision {values['dtype']} has no peak on {accelerator.name}; choose one of {supported}."}
    return {}


def _compute(values: dict[str, Any]) -> dict[str, Any]:
    peak, bandwidth = _peak_and_bandwidth(values)
    intensity = values["intensity"]
    attainable = attainable_flop_per_s(intensity_flop_per_byte=intensity, peak_flop_per_s=peak, bandwidth_bytes_per_s=bandwidth)
    ridge = ridge_point(peak_flop_per_s=peak, bandwidth_bytes_per_s=bandwidth)
    which = bound(intensity_flop_per_byte=intensity, peak_flop_per_s=peak, bandwidth_bytes_per_s=bandwidth)
    share = attainable / peak
    return {
        "outputs": {
            "attainable": value(attainable, "FLOP/s", format_flop_per_s(attainable)),
            "share_of_peak": value(share, "1", format_percent(share)),
            "bound": value(which, "", f"{which}-bound"),
            "ridge_point": value(ridge, "FLOP/byte", format_intensity(ridge)),
        },
        "chart": roofline_curve(
            peak_flop_per_s=peak,
            bandwidth_bytes_per_s=bandwidth,
            points=[{"label": f"workload · {format_intensity(intensity)}", "intensity_flop_per_byte": intensity}],
            x_min_flop_per_byte=0.01,
            x_max_flop_per_byte=10_000,
        ),
    }


ROOFLINE_EXPLORER = Calculator(
    id="roofline-explorer",
    title="Roofline explorer",
    description="Place a workload of a given arithmetic intensity on an accelerator's roofline.",
    inputs=(
        accelerator_input(with_custom=True),
        ChoiceInput(
            id="dtype",
            label="Precision",
            choices=tuple(Choice(value=d, label=DTYPES[d].label) for d in COMPUTE_DTYPES),
            default="fp16",
            help="The number format of the math; it picks the preset's dense peak.",
        ),
        NumberInput(
            id="peak_tflop_per_s",
            label="Peak compute",
            unit="TFLOP/s",
            default=989,
            # A floor above zero keeps the ridge finite (a subnormal bandwidth would make it inf).
            min=0.001,
            max=1e6,
            step=0.1,
            help="Dense peak, used with the Custom accelerator.",
        ),
        NumberInput(
            id="bandwidth_tb_per_s",
            label="Memory bandwidth",
            unit="TB/s",
            default=3.35,
            min=0.001,
            max=1e4,
            step=0.01,
            help="Peak memory bandwidth, used with the Custom accelerator.",
        ),
        NumberInput(
            id="intensity",
            label="Arithmetic intensity",
            unit="FLOP/byte",
            default=1,
            min=0.01,
            max=10_000,
            step=0.01,
            slider=True,
            log_slider=True,
            help="FLOPs the workload does per byte it moves; batch-1 decode in fp16 is about 1.",
        ),
    ),
    outputs=(
        Output("attainable", "Attainable throughput"),
        Output("share_of_peak", "Share of peak compute"),
        Output("bound", "Limited by"),
        Output("ridge_point", "Ridge point"),
    ),
    compute=_compute,
    cross_check=_cross_check,
)
