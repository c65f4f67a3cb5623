"""Pitfalls gallery: eight common wrong formulas, each computed on the reader's model and chip."""

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
from roofline_core.estimates.headroom import kv_cache_copies, reserved_bytes
from roofline_core.estimates.inference import MemoryFit
from roofline_core.formatting import format_bytes, format_memory_fit, format_number, format_percent, format_time
from roofline_core.hardware import ACCELERATORS
from roofline_core.hardware.block_formats import BLOCK_FORMATS
from roofline_core.questions.pitfalls import (
    Pitfall,
    block_scales_ignored,
    gib_read_as_gb,
    kv_with_query_heads,
    linear_layers_as_attention,
    moe_memory_from_active,
    recurrent_state_as_kv_cache,
    sliding_window_ignored,
    sparse_peak_for_dense_model,
)
from roofline_core.vocabulary import Choice, OneOf


def _amount(number: float, unit: str) -> str:
    return format_time(number) if unit == "s" else format_bytes(number)


def _error_text(pitfall: Pitfall) -> str:
    """How far off the mistake is: ``"8× too high"``, ``"6.87% too low"``, ``"none here"``."""
    factor = pitfall.factor
    if not pitfall.applies or abs(factor - 1) < 5e-4:
        return "none here"
    if factor > 1:
        return f"{format_number(factor)}× too high" if factor >= 1.5 else f"{format_percent(factor - 1)} too high"
    if factor <= 0.5:
        return f"{format_number(1 / factor)}× too low"
    return f"{format_percent(1 - factor)} too low"


def _row(pitfall: Pitfall) -> dict[str, dict[str, Any]]:
    return {
        # The cell names the mistake and what it miscounts: "Sliding window ignored (KV cache per sequence)".
        "pitfall": value(pitfall.slug, "", f"{pitfall.title} ({pitfall.measure})"),
        "right": value(pitfall.right, pitfall.unit, _amount(pitfall.right, pitfall.unit)),
        "wrong": value(pitfall.wrong, pitfall.unit, _amount(pitfall.wrong, pitfall.unit)),
        "error": value(pitfall.factor, "1", _error_text(pitfall)),
        "why": value(pitfall.why, "", pitfall.why),
    }


def _size_of_error(pitfall: Pitfall) -> float:
    """How far from 1 the factor is, the same in both directions (8x high ranks with 8x low)."""
    return max(pitfall.factor, 1 / pitfall.factor)


def _compute(values: dict[str, Any]) -> dict[str, Any]:
    model = model_of(values)
    accelerator = ACCELERATORS[values["accelerator"]]
    block_format = BLOCK_FORMATS[values["block_format"]]
    context, batch, kv_dtype = values["context_tokens"], values["batch"], values["kv_dtype"]
    # The verdict counts the cache as the devices hold it (an MLA cache whole on each).
    copies = kv_cache_copies(model, devices=values["devices"])
    weight_bytes = model.total_params * block_format.bytes_per_weight
    kv_bytes = model.kv_cache_bytes(context_tokens=context, batch=batch, kv_dtype=kv_dtype) * copies
    pitfalls = (
        kv_with_query_heads(model, context_tokens=context, kv_dtype=kv_dtype),
        moe_memory_from_active(model, weight_bytes_per_param=block_format.bytes_per_weight),
        gib_read_as_gb(needed_bytes=weight_bytes + kv_bytes),
        # Block-scaled 4- and 8-bit weights are dequantised for the matrix units on most chips
        # that serve them (weight-only), so the prompt's math runs at the 16-bit peak.
        sparse_peak_for_dense_model(
            model,
            accelerator,
            prompt_tokens=context,
            weight_bytes_per_param=block_format.bytes_per_weight,
            compute_dtype="fp16",
        ),
        sliding_window_ignored(model, context_tokens=context, kv_dtype=kv_dtype),
        block_scales_ignored(model, block_format=block_format),
        recurrent_state_as_kv_cache(model, context_tokens=context, kv_dtype=kv_dtype),
        linear_layers_as_attention(model, context_tokens=context, kv_dtype=kv_dtype),
    )
    worst = max(pitfalls, key=_size_of_error)
    capacity = accelerator.fit_memory_bytes * values["devices"]
    fit = MemoryFit(
        capacity_bytes=capacity,
        weight_bytes=weight_bytes,
        kv_bytes=kv_bytes,
        kv_bytes_per_sequence=kv_bytes / batch,
        max_batch=None,
        max_context_tokens=None,
        reserved_bytes=reserved_bytes(model, capacity_bytes=capacity, devices=values["devices"]),
    )
    return {
        "outputs": {
            "worst": value(worst.slug, "", f"{worst.title}: {_error_text(worst)}"),
            "fits": value(fit.fits, "", format_memory_fit(fit)),
        },
        "table": [_row(p) for p in pitfalls],
    }


PITFALLS = Calculator(
    id="pitfalls",
    title="How wrong is each common mistake?",
    description="Eight formulas estimators get wrong, each computed right and wrong on the chosen model and chip.",
    inputs=(
        # gpt-oss-120b shows five of the six at once: GQA, MoE, sliding layers, native MXFP4.
        model_input(default="gpt-oss-120b"),
        model_config_input(),
        OneOf(
            id="block_format",
            label="Weight format",
            choices=tuple(
                Choice(value=f.slug, label=f"{f.label} ({f.bits_per_weight:g} bits)") for f in BLOCK_FORMATS.values()
            ),
            default="mxfp4",
            help="A block-scaled format; every weight is counted in it, scales included.",
        ),
        context_input(
            default=32768, min=1, slider=True, help="Tokens per sequence, and the prompt for the sparse-peak row."
        ),
        batch_input(default=1),
        dtype_input(id="kv_dtype", label="KV cache format", help="How cached keys and values are stored."),
        accelerator_input(),
        devices_input(default=1),
    ),
    outputs=(
        Output("worst", "Largest error here"),
        Output("fits", "Fits in memory"),
    ),
    headline=("worst", "fits"),
    key_inputs=("model", "accelerator"),
    compute=_compute,
    table_columns=(
        Output("pitfall", "Mistake"),
        Output("right", "Right"),
        Output("wrong", "Mistaken"),
        Output("error", "Error"),
        Output("why", "Why"),
    ),
)
