"""Operations table: where each common LLM operation lands on the roofline, and why."""

from __future__ import annotations

from typing import Any

from roofline_core.calculators._common import (
    accelerator_input,
    batch_input,
    context_input,
    model_config_input,
    model_input,
    model_of,
    parts_result,
    prompt_input,
    roofline_chart,
)
from roofline_core.calculators.base import Calculator, Output, value
from roofline_core.estimates.operations import OPERATION_KINDS, Operation, operations_catalogue
from roofline_core.formatting import (
    bound_phrase,
    format_bytes,
    format_flop_per_s,
    format_flops,
    format_intensity,
    format_time,
)
from roofline_core.hardware import ACCELERATORS
from roofline_core.roofline import attainable_flop_per_s, op_time_s, ridge_point
from roofline_core.vocabulary import Choice, OneOf


def _cells(op: Operation) -> dict[str, dict[str, Any]]:
    return {
        # The value is the slug (matching the "operation" input), the text the sized name.
        "operation": value(op.slug, "", op.name),
        "shape": value(op.shape, "", op.shape),
        "flops": value(op.flops, "FLOP", format_flops(op.flops)),
        "bytes_moved": value(op.bytes_moved, "B", format_bytes(op.bytes_moved)),
        "intensity": value(op.intensity_flop_per_byte, "FLOP/byte", format_intensity(op.intensity_flop_per_byte)),
        "bound": value(op.bound, "", bound_phrase(op.bound)),
        "why": value(op.why, "", op.why),
    }


def _compute(values: dict[str, Any]) -> dict[str, Any]:
    accelerator = ACCELERATORS[values["accelerator"]]
    operations = operations_catalogue(
        accelerator=accelerator,
        model=model_of(values),
        batch=values["batch"],
        prompt_tokens=values["prompt_tokens"],
        context_tokens=values["context_tokens"],
    )
    peak = accelerator.peak_for("fp16")
    bandwidth = accelerator.bandwidth_bytes_per_s
    chosen = next(op for op in operations if op.slug == values["operation"])
    time_s = op_time_s(
        flops=chosen.flops, bytes_moved=chosen.bytes_moved, peak_flop_per_s=peak, bandwidth_bytes_per_s=bandwidth
    )
    step = chosen.step(peak_flop_per_s=peak, bandwidth_bytes_per_s=bandwidth)
    attainable = attainable_flop_per_s(
        intensity_flop_per_byte=chosen.intensity_flop_per_byte, peak_flop_per_s=peak, bandwidth_bytes_per_s=bandwidth
    )
    ridge = ridge_point(peak_flop_per_s=peak, bandwidth_bytes_per_s=bandwidth)
    cells = _cells(chosen)
    points = [
        {"label": op.name, "intensity_flop_per_byte": op.intensity_flop_per_byte, "highlight": op is chosen}
        for op in operations
    ]
    return {
        "parts": parts_result("time", time_s, step.parts, step.working),
        "outputs": {
            "name": cells["operation"],
            "shape": cells["shape"],
            "flops": cells["flops"],
            "bytes_moved": cells["bytes_moved"],
            "intensity": cells["intensity"],
            "bound": cells["bound"],
            "time": value(time_s, "s", format_time(time_s)),
            "attainable": value(attainable, "FLOP/s", format_flop_per_s(attainable)),
            "ridge_point": value(ridge, "FLOP/byte", format_intensity(ridge)),
            "why": cells["why"],
        },
        "table": [_cells(op) for op in operations],
        "chart": roofline_chart(
            peak_flop_per_s=peak, bandwidth_bytes_per_s=bandwidth, points=points, dots="table rows"
        ),
    }


OPERATIONS_TABLE = Calculator(
    id="operations-table",
    title="Arithmetic intensity of LLM operations",
    description="Each common LLM operation's FLOPs, bytes and intensity; choose one to place it on the roofline.",
    inputs=(
        accelerator_input(),
        # A model that fits the default H100 (the table is per operation, but its scenario runs).
        model_input(default="llama-3-8b"),
        model_config_input(),
        batch_input(default=64),
        prompt_input(help="Tokens in the prefill projection, prefill attention and elementwise rows."),
        context_input(default=4096, min=1, slider=True, help="Cached tokens each decode-attention step reads."),
        OneOf(
            id="operation",
            label="Operation",
            choices=tuple(Choice(value=slug, label=title) for slug, title in OPERATION_KINDS.items()),
            default="decode-gemv",
            help="The row placed on the roofline.",
        ),
    ),
    outputs=(
        Output("name", "Operation"),
        Output("shape", "Sizes"),
        Output("flops", "FLOPs"),
        Output("bytes_moved", "Bytes moved"),
        Output("intensity", "Arithmetic intensity"),
        Output("bound", "Limited by"),
        Output("time", "Time at the roofline"),
        Output("attainable", "Attainable throughput"),
        Output("ridge_point", "Ridge point"),
        Output("why", "Why it lands there"),
    ),
    headline=("bound", "time"),
    key_inputs=("operation", "accelerator"),
    compute=_compute,
    table_columns=(
        Output("operation", "Operation"),
        Output("shape", "Sizes"),
        Output("flops", "FLOPs"),
        Output("bytes_moved", "Bytes"),
        Output("intensity", "Intensity"),
        Output("bound", "Bound"),
        Output("why", "Why"),
    ),
)
