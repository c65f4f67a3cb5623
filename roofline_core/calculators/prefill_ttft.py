"""Prefill and time to first token: the one big parallel pass over the prompt before decoding starts."""

from __future__ import annotations

from typing import Any

from roofline_core.calculators._common import (
    MEMORY_ROOF,
    WEIGHT_FORMAT_READ,
    accelerator_input,
    at_memory_roof,
    batch_input,
    communication_output,
    custom_accelerator_inputs,
    devices_input,
    dtype_input,
    fit_verdict,
    math_accelerator,
    math_cross_check,
    math_text,
    memory_fit_of,
    memory_roof_output,
    model_config_input,
    model_input,
    model_of,
    params_input,
    parts_result,
    prompt_input,
    roof_cross_check,
    roofline_chart,
    what_moves,
)
from roofline_core.calculators._engines import COMMAND_OUTPUTS, command_outputs
from roofline_core.calculators.base import Calculator, Output, value
from roofline_core.estimates.communication import tensor_parallel_comm
from roofline_core.estimates.inference import PrefillEstimate, StepEstimate, estimate_decode, estimate_prefill
from roofline_core.formatting import bound_phrase, format_intensity, format_percent, format_time, format_tokens_per_s
from roofline_core.questions.sensitivity import prefill_sensitivity
from roofline_core.vocabulary import MATH_DTYPE


def _steps(values: dict[str, Any], *, roof: bool = True) -> tuple[PrefillEstimate, StepEstimate]:
    """The prefill step, and a batch-1 decode step of the same model for comparison.

    With ``roof`` (the default) the chip reads at the chosen memory roof; without it, at its
    datasheet bandwidth, the roof the realistic estimate's shares were fitted against.
    """
    accelerator, compute_dtype = math_accelerator(values)
    if roof:
        accelerator = at_memory_roof(accelerator, values)
    common = {
        "model": model_of(values),
        "accelerator": accelerator,
        "weight_dtype": values["weight_dtype"],
        "devices": values["devices"],
        "compute_dtype": compute_dtype,
    }
    prefill = estimate_prefill(prompt_tokens=values["prompt_tokens"], batch=values["batch"], **common)
    return prefill, estimate_decode(**common).step


def _what_moves(values: dict[str, Any], bound: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """Each input moved 10 % (and the weights one format smaller), ranked by how much it
    changes the time to first token (roofline_core.questions.sensitivity)."""
    accelerator, compute_dtype = math_accelerator(values)
    factors = prefill_sensitivity(
        model=model_of(values),
        accelerator=at_memory_roof(accelerator, values),
        compute_dtype=compute_dtype,
        prompt_tokens=values["prompt_tokens"],
        weight_dtype=values["weight_dtype"],
        batch=values["batch"],
        devices=values["devices"],
    )
    return what_moves(factors, measure="time to first token", bound=bound)


def _realistic(prefill: PrefillEstimate) -> dict[str, Any]:
    """The realistic time to first token and its 80% range, from the estimate's regime (estimates.efficiency)."""
    fast_s, slow_s = prefill.expected_range_ttft_s
    return value(
        prefill.expected_ttft_s,
        "s",
        f"about {format_time(prefill.expected_ttft_s)}, 8 in 10 published runs of this kind between "
        f"{format_time(fast_s)} and {format_time(slow_s)}",
    )


def _compute(values: dict[str, Any]) -> dict[str, Any]:
    prefill, decode = _steps(values)
    # The realistic time is the regime's, fitted at datasheet bandwidth: the memory roof moves
    # only the speed of light.
    datasheet = prefill if values["roof"] == "datasheet" else _steps(values, roof=False)[0]
    accelerator, math_dtype = math_accelerator(values)
    # After the pass, every prompt token of every sequence sits in the KV cache beside the
    # weights; a custom model known only by its size counts its weights alone.
    model = model_of(values)
    cached_tokens = values["prompt_tokens"] if model.kv_cache_known else 0
    fit = memory_fit_of(values, model, context_tokens=cached_tokens)
    ridge = prefill.ridge_point_flop_per_byte
    tokens = prefill.tokens
    points = [
        {
            "label": f"prefill · {tokens:,} tokens",
            "intensity_flop_per_byte": prefill.intensity_flop_per_byte,
            "highlight": True,
        },
        {"label": "decode · batch 1", "intensity_flop_per_byte": decode.intensity_flop_per_byte},
    ]
    moves, sensitivity = _what_moves(values, prefill.bound)
    return {
        "sensitivity": sensitivity,
        "parts": parts_result("ttft", prefill.step_time_s, prefill.parts, prefill.working),
        "outputs": {
            "ttft": value(prefill.step_time_s, "s", format_time(prefill.step_time_s)),
            "bound": value(prefill.bound, "", bound_phrase(prefill.bound)),
            "what_moves": moves,
            "intensity": value(
                prefill.intensity_flop_per_byte, "FLOP/byte", format_intensity(prefill.intensity_flop_per_byte)
            ),
            "tokens_per_s": value(prefill.tokens_per_s, "tokens/s", format_tokens_per_s(prefill.tokens_per_s)),
            "compute_utilisation": value(prefill.compute_utilisation, "1", format_percent(prefill.compute_utilisation)),
            "ridge_point": value(ridge, "FLOP/byte", format_intensity(ridge)),
            "fits": value(
                fit.fits,
                "",
                fit_verdict(values, fit, batch=values["batch"], context_tokens=cached_tokens)
                + ("" if model.kv_cache_known else " (weights only: a custom model has no KV shape)"),
            ),
            "math": value(math_dtype, "", math_text(values, accelerator, math_dtype)),
            "realistic": _realistic(datasheet),
            "memory_roof": memory_roof_output(accelerator, values),
            "communication_share": communication_output(
                tensor_parallel_comm(
                    model, accelerator, devices=values["devices"], tokens=values["batch"] * values["prompt_tokens"]
                ),
                prefill.step_time_s,
            ),
            # The first token must fit beside the prompt.
            **command_outputs(
                values, model, context_tokens=values["prompt_tokens"] + 1, sequences=values["batch"], fits=fit.fits
            ),
        },
        "chart": roofline_chart(
            peak_flop_per_s=prefill.peak_flop_per_s, bandwidth_bytes_per_s=prefill.bandwidth_bytes_per_s, points=points
        ),
    }


_CUSTOM_ACCELERATOR_FIELDS = ("peak_tflop_per_s", "bandwidth_tb_per_s", "memory_gb")

PREFILL_TTFT = Calculator(
    id="prefill-ttft",
    title="Prefill and time to first token",
    description="How long the pass over the prompt takes before the first token appears, and which roof limits it.",
    inputs=(
        model_input(default="llama-3-8b", custom_fields=("params_billion",)),
        model_config_input(),
        params_input(default=8),
        dtype_input(
            id="weight_dtype",
            label="Weight format",
            help="How the weights are stored; it sets the bytes read per parameter.",
        ),
        accelerator_input(custom_fields=_CUSTOM_ACCELERATOR_FIELDS),
        *custom_accelerator_inputs(*_CUSTOM_ACCELERATOR_FIELDS),
        prompt_input(help="Tokens in each prompt, processed together in one forward pass."),
        batch_input(default=1),
        dtype_input(id="kv_dtype", label="KV cache format", help="How the prompt's cached keys and values are stored."),
        devices_input(),
        MATH_DTYPE,
        MEMORY_ROOF,
    ),
    outputs=(
        Output("ttft", "Time to first token"),
        Output("bound", "Limited by"),
        Output("what_moves", "What moves the time to first token (each input 10 % down / up)"),
        Output("intensity", "Arithmetic intensity"),
        Output("tokens_per_s", "Prefill tokens/s"),
        Output("compute_utilisation", "Compute utilisation"),
        Output("ridge_point", "Ridge point"),
        Output("fits", "Fits in memory"),
        Output("math", "Math"),
        WEIGHT_FORMAT_READ,
        Output("realistic", "Realistic time to first token"),
        Output("memory_roof", "Measured bandwidth"),
        Output("communication_share", "Time in tensor-parallel all-reduces"),
        *COMMAND_OUTPUTS,
    ),
    cross_check=lambda values: math_cross_check(values) | roof_cross_check(values),
    # As on the decode calculator, a scenario that does not fit says so at the top; the chart
    # beside shows which roof limits the pass.
    headline=("ttft", "fits"),
    key_inputs=("model", "prompt_tokens"),
    compute=_compute,
)
