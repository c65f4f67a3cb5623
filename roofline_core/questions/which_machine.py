"""Which machine for which model: per chip, the largest preset model that fits and its decode speed.

For every accelerator preset and each weight format asked (4 and 8 bits by default), the
largest preset model (by its weight bytes in that format) whose weights and one sequence's KV
cache at the context fit in the chip's usable memory beside a serving engine's reserve
(:func:`~roofline_core.estimates.inference.memory_fit`, which on unified memory uses the GPU's
share), and that model's batch-1 decode speed there: the speed of light and the realistic figure
(:func:`~roofline_core.estimates.inference.estimate_decode`). The "Which machine for which model"
page is written from it. Standard library only.
"""

from __future__ import annotations

from dataclasses import dataclass

from roofline_core.estimates.inference import estimate_decode, memory_fit
from roofline_core.hardware import ACCELERATORS, Accelerator
from roofline_core.models import MODELS, Model

#: The weight formats the page compares: 4-bit and 8-bit integer weights (weight-only on every chip).
FORMATS: tuple[str, ...] = ("int4", "int8")
#: The context each fit and speed is taken at, in tokens.
CONTEXT_TOKENS = 8192


@dataclass(frozen=True)
class Pick:
    """The largest model that fits one chip in one weight format.

    Attributes:
        weight_dtype: The weight format.
        model: The model, or None when not even the smallest preset fits.
        used_bytes: Its weights and one sequence's KV cache, in bytes (0 with no model).
        tokens_per_s: Batch-1 decode at the speed of light, in tokens/s (0 with no model).
        expected_tokens_per_s: The realistic figure, in tokens/s (0 with no model).
    """

    weight_dtype: str
    model: Model | None
    used_bytes: float
    tokens_per_s: float
    expected_tokens_per_s: float


@dataclass(frozen=True)
class MachineRow:
    """One chip: its usable memory and a :class:`Pick` per weight format."""

    accelerator: Accelerator
    usable_bytes: float
    picks: tuple[Pick, ...]


def largest_fit(
    accelerator: Accelerator, *, weight_dtype: str, context_tokens: int = CONTEXT_TOKENS, models=None
) -> Pick:
    """The largest of ``models`` (default: every preset) whose weights and one sequence's cache at
    ``context_tokens`` fit on ``accelerator``, with its batch-1 decode speed there."""
    candidates = sorted((models or MODELS).values(), key=lambda m: (m.weight_bytes(weight_dtype), m.slug), reverse=True)
    for model in candidates:
        fit = memory_fit(model=model, accelerator=accelerator, weight_dtype=weight_dtype, context_tokens=context_tokens)
        if fit.fits:
            estimate = estimate_decode(
                model=model, accelerator=accelerator, weight_dtype=weight_dtype, context_tokens=context_tokens
            )
            return Pick(
                weight_dtype=weight_dtype,
                model=model,
                used_bytes=fit.used_bytes,
                tokens_per_s=estimate.tokens_per_s_per_sequence,
                expected_tokens_per_s=estimate.expected_tokens_per_s_per_sequence,
            )
    return Pick(weight_dtype=weight_dtype, model=None, used_bytes=0.0, tokens_per_s=0.0, expected_tokens_per_s=0.0)


def machine_rows(
    *, formats: tuple[str, ...] = FORMATS, context_tokens: int = CONTEXT_TOKENS
) -> dict[str, list[MachineRow]]:
    """Every preset, grouped as the selects group them (vendor, or vendor and family), in preset order."""
    groups: dict[str, list[MachineRow]] = {}
    for accelerator in ACCELERATORS.values():
        picks = tuple(largest_fit(accelerator, weight_dtype=f, context_tokens=context_tokens) for f in formats)
        row = MachineRow(accelerator=accelerator, usable_bytes=accelerator.fit_memory_bytes, picks=picks)
        groups.setdefault(accelerator.group or accelerator.vendor, []).append(row)
    return groups
