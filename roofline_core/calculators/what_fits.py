"""What fits: the inverse questions of roofline_core.inverse for one scenario, each answer with
the constraint that stops it going further."""

from __future__ import annotations

from typing import Any

from roofline_core.calculators._common import (
    accelerator_input,
    batch_input,
    context_input,
    devices_input,
    dtype_input,
    model_config_input,
    model_input,
    model_of,
)
from roofline_core.calculators.base import Calculator, Output, value
from roofline_core.formatting import format_amount, format_number
from roofline_core.hardware import ACCELERATORS
from roofline_core.inverse import (
    LATENCY,
    MEMORY,
    Answer,
    best_batch_under_latency,
    fewest_devices,
    largest_batch,
    least_quantised_format,
    longest_context,
)
from roofline_core.vocabulary import Number

BINDING_WORDS = {MEMORY: "memory binds", LATENCY: "the latency target binds"}


def _text(answer: Answer, shown: str) -> str:
    """The answer, then what binds it and why, in one sentence."""
    binds = BINDING_WORDS.get(answer.binding, "nothing binds")
    return f"{shown}: {binds} ({answer.reason})"


def _count(answer: Answer, noun: str) -> dict[str, Any]:
    if answer.value is None:
        return value(None, noun, _text(answer, "none"))
    return value(answer.value, noun, _text(answer, format_amount(answer.value, noun)))


def _compute(values: dict[str, Any]) -> dict[str, Any]:
    model = model_of(values)
    accelerator = ACCELERATORS[values["accelerator"]]
    common = {"model": model, "accelerator": accelerator, "kv_dtype": values["kv_dtype"]}
    here = {**common, "devices": values["devices"]}
    limit_ms = values["max_ms_per_token"]
    context = values["context_tokens"]
    batch = values["batch"]
    fmt = least_quantised_format(**here, batch=batch, context_tokens=context)
    return {
        "outputs": {
            "longest_context": _count(
                longest_context(**here, weight_dtype=values["weight_dtype"], batch=batch), "tokens"
            ),
            "largest_batch": _count(
                largest_batch(**here, weight_dtype=values["weight_dtype"], context_tokens=context), "sequences"
            ),
            "fewest_devices": _count(
                fewest_devices(
                    **common,
                    weight_dtype=values["weight_dtype"],
                    batch=batch,
                    context_tokens=context,
                    max_ms_per_token=limit_ms,
                ),
                "devices",
            ),
            "least_quantised_format": value(fmt.value, "", _text(fmt, str(fmt.value or "none"))),
            "best_batch": _count(
                best_batch_under_latency(
                    **here, weight_dtype=values["weight_dtype"], context_tokens=context, max_ms_per_token=limit_ms
                ),
                "sequences",
            ),
            "limit": value(limit_ms, "ms", f"{format_number(limit_ms)} ms per output token"),
        },
    }


WHAT_FITS = Calculator(
    id="what-fits",
    title="What fits: limits and the constraint that sets them",
    description=(
        "The longest context, the largest batch, the fewest devices, the least quantised weight "
        "format and the batch with the most tokens/s under a latency target, each with what binds it."
    ),
    inputs=(
        # Llama 3.1 70B on four H100s: 16-bit weights (141 GB) need more than one card, and the
        # answers show where memory and the latency target each stop it.
        model_input(default="llama-3.1-70b"),
        model_config_input(),
        accelerator_input(),
        devices_input(default=4),
        dtype_input(id="weight_dtype", label="Weight format", help="How the weights are stored."),
        dtype_input(id="kv_dtype", label="KV cache format", help="How cached keys and values are stored."),
        batch_input(default=16),
        context_input(default=8192, min=1, slider=True),
        Number(
            id="max_ms_per_token",
            label="Latency target",
            unit="ms per token",
            default=50,
            minimum=0.1,
            maximum=10_000,
            step=0.1,
            help="Longest decode step each sequence may wait for its next token (the time per output token target).",
        ),
    ),
    outputs=(
        Output("longest_context", "Longest context at this batch"),
        Output("largest_batch", "Largest batch at this context"),
        Output("fewest_devices", "Fewest devices (powers of two) that hold it and meet the target"),
        Output("least_quantised_format", "Least quantised weight format that fits"),
        Output("best_batch", "Batch with the most tokens/s within the target"),
        Output("limit", "Latency target"),
    ),
    headline=("largest_batch", "longest_context"),
    key_inputs=("context_tokens", "max_ms_per_token"),
    compute=_compute,
)
