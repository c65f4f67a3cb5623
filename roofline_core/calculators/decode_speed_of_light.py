"""Decode speed of light: how fast a model can generate tokens when every step streams its weights.

It opens on Llama 3 8B in 16-bit weights on one H100 SXM at a 4,096-token context; the batch
table shows where the KV cache, not the weights, comes to dominate each step.
"""

from __future__ import annotations

from typing import Any

from roofline_core.calculators._common import (
    COLLECTIVE_NOUN,
    MEMORY_ROOF,
    PARALLELISM_INPUT,
    WEIGHT_FORMAT_READ,
    accelerator_input,
    at_memory_roof,
    batch_input,
    communication_output,
    context_input,
    custom_accelerator_inputs,
    custom_kv_inputs,
    devices_input,
    dtype_input,
    fit_verdict,
    math_accelerator,
    math_cross_check,
    math_text,
    memory_roof_output,
    model_config_input,
    model_input,
    model_of,
    parallelism_cross_check,
    params_input,
    parts_result,
    price_input,
    roof_cross_check,
    roofline_chart,
    what_moves,
)
from roofline_core.calculators._engines import COMMAND_OUTPUTS, command_outputs
from roofline_core.calculators.base import Calculator, Output, value
from roofline_core.estimates.inference import (
    DECODE_TABLE_BATCHES,
    DecodeEstimate,
    StepEstimate,
    estimate_decode,
)
from roofline_core.formatting import (
    bound_phrase,
    format_bytes,
    format_count,
    format_intensity,
    format_memory_use,
    format_number,
    format_percent,
    format_time,
    format_tokens_per_s,
    format_whole,
)
from roofline_core.questions.sensitivity import decode_sensitivity
from roofline_core.vocabulary import BANDWIDTH_EFFICIENCY, MATH_DTYPE


def decode_at(values: dict[str, Any], batch: int, *, roof: bool = True) -> DecodeEstimate:
    """The decode estimate of the chosen setup at ``batch`` (the table varies only the batch).

    With ``roof`` (the default) the chip reads at the chosen memory roof; without it, at its
    datasheet bandwidth, the roof the realistic estimate's shares were fitted against.
    """
    accelerator, compute_dtype = math_accelerator(values)
    if roof:
        accelerator = at_memory_roof(accelerator, values)
    return estimate_decode(
        model=model_of(values),
        accelerator=accelerator,
        compute_dtype=compute_dtype,
        weight_dtype=values["weight_dtype"],
        kv_dtype=values["kv_dtype"],
        batch=batch,
        context_tokens=values["context_tokens"],
        devices=values["devices"],
        bandwidth_efficiency=values["bandwidth_efficiency"] / 100.0,
        parallelism=values["parallelism"],
    )


def _what_moves(values: dict[str, Any], bound: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """Each input moved 10 % (and one step to smaller formats), ranked by how much it changes
    tokens/s per sequence: what to buy or change (roofline_core.questions.sensitivity)."""
    accelerator, compute_dtype = math_accelerator(values)
    factors = decode_sensitivity(
        model=model_of(values),
        accelerator=at_memory_roof(accelerator, values),
        compute_dtype=compute_dtype,
        weight_dtype=values["weight_dtype"],
        kv_dtype=values["kv_dtype"],
        batch=values["batch"],
        context_tokens=values["context_tokens"],
        devices=values["devices"],
        bandwidth_efficiency=values["bandwidth_efficiency"] / 100.0,
        parallelism=values["parallelism"],
    )
    return what_moves(factors, measure="tokens/s per sequence", bound=bound)


def batch_cell(batch: int) -> dict[str, Any]:
    """The table's batch cell: the batch in sequences, shown as a plain count."""
    return value(batch, "sequences", format_whole(batch))


def _realistic(estimate: DecodeEstimate, speed_of_light: DecodeEstimate) -> dict[str, Any]:
    """The realistic speed and its 80% range, from the datasheet estimate's regime
    (estimates.efficiency), as a share of the speed of light at the chosen memory roof."""
    low, high = estimate.expected_range_tokens_per_s_per_sequence
    expected = estimate.expected_tokens_per_s_per_sequence
    return value(
        expected,
        "tokens/s",
        f"about {format_tokens_per_s(expected)} per sequence, 8 in 10 published runs of this kind between "
        f"{format_tokens_per_s(low)} and {format_tokens_per_s(high)} "
        f"({format_percent(expected / speed_of_light.tokens_per_s_per_sequence)} of the speed of light)",
    )


def _energy(values: dict[str, Any], accelerator: Any, step: StepEstimate) -> dict[str, Any]:
    """Joules per generated token at the devices' board power, at the speed of light (a floor)."""
    power_w = getattr(accelerator, "board_power_w", None)
    if not power_w:
        return value(0, "J", "unknown: no board power for this accelerator")
    joules = power_w * values["devices"] * step.step_time_s / step.tokens
    return value(
        joules,
        "J",
        f"{format_number(joules)} J per token at {format_whole(power_w)} W per device "
        f"({format_count(3.6e6 / joules)} tokens per kWh), at the speed of light",
    )


def _cost(values: dict[str, Any], step: StepEstimate) -> dict[str, Any]:
    """Cost of a million generated tokens at the reader's price per device-hour, at the speed of light."""
    price = values["price_per_device_hour"]
    if price == 0:
        return value(0, "USD", "enter a price per device-hour")
    dollars = price * values["devices"] / 3600 * step.step_time_s / step.tokens * 1e6
    return value(dollars, "USD", f"${format_number(dollars)} per million tokens at the speed of light")


def _compute(values: dict[str, Any]) -> dict[str, Any]:
    batch = values["batch"]
    estimate = decode_at(values, batch)
    # The realistic speed is the regime's, fitted at datasheet bandwidth: the memory roof moves
    # only the speed of light.
    datasheet = estimate if values["roof"] == "datasheet" else decode_at(values, batch, roof=False)
    accelerator, math_dtype = math_accelerator(values)
    step, kv_bytes, fit = estimate.step, estimate.kv_bytes, estimate.memory
    assert fit is not None  # presets state their memory, and the custom accelerator has a memory field
    ridge = step.ridge_point_flop_per_byte
    per_sequence = 1.0 / step.step_time_s
    moves, sensitivity = _what_moves(values, step.bound)
    outputs = {
        "step_time": value(step.step_time_s, "s", format_time(step.step_time_s)),
        "tokens_per_s_per_sequence": value(per_sequence, "tokens/s", format_tokens_per_s(per_sequence)),
        "tokens_per_s": value(step.tokens_per_s, "tokens/s", format_tokens_per_s(step.tokens_per_s)),
        "intensity": value(step.intensity_flop_per_byte, "FLOP/byte", format_intensity(step.intensity_flop_per_byte)),
        "bound": value(step.bound, "", bound_phrase(step.bound)),
        "compute_utilisation": value(step.compute_utilisation, "1", format_percent(step.compute_utilisation)),
        "ridge_point": value(ridge, "FLOP/byte", format_intensity(ridge)),
        "kv_bytes": value(kv_bytes, "B", format_bytes(kv_bytes)),
        "weight_bytes": value(fit.weight_bytes, "B", format_bytes(fit.weight_bytes)),
        "memory_use": value(fit.used_bytes, "B", format_memory_use(fit)),
        "fits": value(fit.fits, "", fit_verdict(values, fit, batch=batch, context_tokens=values["context_tokens"])),
        "math": value(math_dtype, "", math_text(values, accelerator, math_dtype)),
        "realistic": _realistic(datasheet, estimate),
        "memory_roof": memory_roof_output(accelerator, values),
        "communication_share": communication_output(
            estimate.communication, estimate.step_time_s, noun=COLLECTIVE_NOUN[values["parallelism"]]
        ),
        "pipeline_bubble": value(
            estimate.pipeline_bubble,
            "1",
            format_percent(estimate.pipeline_bubble)
            + (" of each stage's time idle" if estimate.pipeline_bubble else ""),
        ),
        "energy_per_token": _energy(values, accelerator, step),
        "cost_per_million": _cost(values, step),
        "attention_share": value(
            estimate.attention_share_of_flops, "1", format_percent(estimate.attention_share_of_flops)
        ),
        "what_moves": moves,
    }
    table = []
    points = []
    parts = parts_result("step_time", estimate.step_time_s, estimate.parts, estimate.working)
    for b in DECODE_TABLE_BATCHES:
        row_step = step if b == batch else decode_at(values, b).step
        table.append(
            {
                "batch": batch_cell(b),
                "intensity": value(
                    row_step.intensity_flop_per_byte, "FLOP/byte", format_intensity(row_step.intensity_flop_per_byte)
                ),
                "bound": value(row_step.bound, "", bound_phrase(row_step.bound)),
                "step_time": value(row_step.step_time_s, "s", format_time(row_step.step_time_s)),
                "tokens_per_s": value(row_step.tokens_per_s, "tokens/s", format_tokens_per_s(row_step.tokens_per_s)),
                "compute_utilisation": value(
                    row_step.compute_utilisation, "1", format_percent(row_step.compute_utilisation)
                ),
            }
        )
        points.append(
            {
                "label": f"batch {format_whole(b)}",
                "intensity_flop_per_byte": row_step.intensity_flop_per_byte,
                "highlight": b == batch,
            }
        )
    if batch not in DECODE_TABLE_BATCHES:
        points.append(
            {
                "label": f"batch {format_whole(batch)}",
                "intensity_flop_per_byte": step.intensity_flop_per_byte,
                "highlight": True,
            }
        )
    chart = roofline_chart(
        peak_flop_per_s=step.peak_flop_per_s,
        bandwidth_bytes_per_s=step.bandwidth_bytes_per_s,
        points=points,
        dots="table rows",
    )
    # The token being generated sits beside the cached context.
    outputs |= command_outputs(
        values, model_of(values), context_tokens=values["context_tokens"] + 1, sequences=batch, fits=fit.fits
    )
    return {"outputs": outputs, "table": table, "chart": chart, "sensitivity": sensitivity, "parts": parts}


_CUSTOM_ACCELERATOR_FIELDS = ("peak_tflop_per_s", "bandwidth_tb_per_s", "memory_gb")

DECODE_SPEED_OF_LIGHT = Calculator(
    id="decode-speed-of-light",
    title="Decode speed of light",
    description=(
        "How fast a model can generate tokens when each step reads every weight and the KV cache "
        "once, and how batching moves the step toward the ridge."
    ),
    inputs=(
        model_input(default="llama-3-8b", custom_fields=("params_billion", "layers", "kv_heads", "head_dim")),
        model_config_input(),
        params_input(default=70),
        *custom_kv_inputs(),
        dtype_input(
            id="weight_dtype",
            label="Weight format",
            help="How the weights are stored; it sets the bytes read per parameter.",
        ),
        accelerator_input(custom_fields=_CUSTOM_ACCELERATOR_FIELDS),
        *custom_accelerator_inputs(*_CUSTOM_ACCELERATOR_FIELDS),
        batch_input(default=1),
        # A step reads the KV cache too: the calculator opens on a 4,096-token context, not on
        # the weights-only case (which context 0 still gives).
        context_input(default=4096, min=0, slider=False),
        dtype_input(id="kv_dtype", label="KV cache format", help="How cached keys and values are stored."),
        devices_input(),
        PARALLELISM_INPUT,
        BANDWIDTH_EFFICIENCY,
        MATH_DTYPE,
        MEMORY_ROOF,
        price_input(help="What one accelerator costs you per hour; 0 leaves the cost out."),
    ),
    outputs=(
        Output("step_time", "Time per decode step"),
        Output("tokens_per_s_per_sequence", "Tokens/s per sequence"),
        Output("tokens_per_s", "Tokens/s, whole batch"),
        Output("intensity", "Arithmetic intensity"),
        Output("bound", "Limited by"),
        Output("what_moves", "What moves tokens/s per sequence (each input 10 % down / up)"),
        Output("compute_utilisation", "Compute utilisation"),
        Output("ridge_point", "Ridge point"),
        Output("kv_bytes", "KV cache read per step"),
        Output("weight_bytes", "Weights in memory"),
        WEIGHT_FORMAT_READ,
        Output("memory_use", "Memory used"),
        Output("fits", "Fits in memory"),
        Output("math", "Math"),
        Output("attention_share", "Attention's share of the FLOPs"),
        Output("communication_share", "Time communicating"),
        Output("pipeline_bubble", "Pipeline bubble"),
        Output("realistic", "Realistic speed"),
        Output("memory_roof", "Measured bandwidth"),
        Output("energy_per_token", "Energy per token"),
        Output("cost_per_million", "Cost per million tokens"),
        *COMMAND_OUTPUTS,
    ),
    cross_check=lambda values: math_cross_check(values) | parallelism_cross_check(values) | roof_cross_check(values),
    headline=("step_time", "tokens_per_s", "fits"),
    key_inputs=("model", "batch"),
    compute=_compute,
    table_columns=(
        Output("batch", "Batch"),
        Output("intensity", "Intensity"),
        Output("bound", "Regime"),
        Output("step_time", "Latency"),
        Output("tokens_per_s", "Throughput"),
        Output("compute_utilisation", "Utilisation"),
    ),
)
