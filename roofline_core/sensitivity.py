"""What moves a decode estimate: the change in tokens/s per sequence when one input moves.

Each factor is moved down and up by :data:`STEP` (10 %) with everything else held, through the
same :func:`roofline_core.inference.estimate_decode` the calculators use; the factors are then
ranked by the larger of the two changes. Formats are not continuous, so they move one step on
the format ladder instead (the next smaller weight and KV formats). The result says which roof
binds, so a reader sees what buying (bandwidth, compute) or changing (batch, context, formats)
would do.

>>> from roofline_core.hardware import ACCELERATORS
>>> from roofline_core.models import MODELS
>>> factors = decode_sensitivity(model=MODELS["llama-3.1-8b"], accelerator=ACCELERATORS["h100-sxm"])
>>> factors[0].name, round(factors[0].high_change, 3)
('Memory bandwidth', 0.1)
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from dataclasses import dataclass

from roofline_core.compute_format import engine_compute_dtype
from roofline_core.dtypes import bytes_per_element
from roofline_core.hardware import AnyAccelerator
from roofline_core.inference import TENSOR, estimate_decode, estimate_prefill
from roofline_core.models import AnyModel

#: How far each continuous factor moves, as a share of its value.
STEP = 0.10
#: The estimates' keyword for the weights' format: a step of it re-chooses the math format.
WEIGHT_FORMAT = "weight_dtype"
#: Smaller formats, one step each, for the format factors.
NEXT_SMALLER_FORMAT = {"fp32": "bf16", "bf16": "fp8", "fp16": "fp8", "fp8": "fp4", "int8": "int4"}


@dataclass(frozen=True)
class Factor:
    """One input's pull on the estimate.

    Attributes:
        name: What moved (``"Memory bandwidth"``).
        low: How it moved down, in words (``"-10 %"``, ``"batch 14"``, ``"FP8"``); empty if it cannot.
        high: How it moved up, in words; empty if it cannot.
        low_change: Relative change of tokens/s per sequence when moved down (0.05 = 5 % more).
        high_change: The same when moved up.
        format_step: True for a step to a smaller format (not a 10 % move; ``high`` names it).
    """

    name: str
    low: str
    high: str
    low_change: float
    high_change: float
    format_step: bool = False

    def to_json(self) -> dict[str, str | float | bool]:
        """The factor as data, for a result and its chart (:mod:`roofline_core.view.tornado`)."""
        return {
            "name": self.name,
            "low": self.low,
            "high": self.high,
            "low_change": self.low_change,
            "high_change": self.high_change,
            "format_step": self.format_step,
        }

    @property
    def swing(self) -> float:
        """The larger of the two changes, in absolute value: the rank of the factor."""
        return max(abs(self.low_change), abs(self.high_change))


def _scaled(accelerator: AnyAccelerator, *, bandwidth: float = 1.0, compute: float = 1.0) -> AnyAccelerator:
    return dataclasses.replace(
        accelerator,
        bandwidth_bytes_per_s=accelerator.bandwidth_bytes_per_s * bandwidth,
        peak_flop_per_s={dtype: peak * compute for dtype, peak in accelerator.peak_flop_per_s.items()},
    )


def decode_sensitivity(
    *,
    model: AnyModel,
    accelerator: AnyAccelerator,
    weight_dtype: str = "fp16",
    kv_dtype: str = "fp16",
    batch: int = 1,
    context_tokens: int = 0,
    devices: int = 1,
    bandwidth_efficiency: float = 1.0,
    parallelism: str = TENSOR,
    compute_dtype: str | None = None,
) -> tuple[Factor, ...]:
    """The factors of a decode estimate: the continuous ones ranked by how much a :data:`STEP`
    move changes its tokens/s per sequence (largest first), then one step to a smaller weight
    and KV format, ranked the same way."""
    base_inputs = {
        "model": model,
        "accelerator": accelerator,
        "weight_dtype": weight_dtype,
        "kv_dtype": kv_dtype,
        "batch": batch,
        "context_tokens": context_tokens,
        "devices": devices,
        "bandwidth_efficiency": bandwidth_efficiency,
        "parallelism": parallelism,
        "compute_dtype": compute_dtype,
    }
    base = estimate_decode(**base_inputs).tokens_per_s_per_sequence

    def change(**changes: object) -> float:
        return estimate_decode(**{**base_inputs, **changes}).tokens_per_s_per_sequence / base - 1.0

    formats = [("Weight format", WEIGHT_FORMAT, weight_dtype)]
    if context_tokens > 0:
        # Without a cache there is nothing for a smaller KV format to save.
        formats.append(("KV cache format", "kv_dtype", kv_dtype))
    length = ("Context", "context_tokens", context_tokens, 0)
    return _factors(change, accelerator, compute_dtype, batch, length, bandwidth_efficiency, formats)


def prefill_sensitivity(
    *,
    model: AnyModel,
    accelerator: AnyAccelerator,
    prompt_tokens: int,
    weight_dtype: str = "fp16",
    batch: int = 1,
    devices: int = 1,
    bandwidth_efficiency: float = 1.0,
    compute_dtype: str | None = None,
) -> tuple[Factor, ...]:
    """The factors of a prefill estimate, as :func:`decode_sensitivity` ranks them, by how much
    each changes the time to first token (a negative change is a shorter wait)."""
    base_inputs = {
        "model": model,
        "accelerator": accelerator,
        "prompt_tokens": prompt_tokens,
        "weight_dtype": weight_dtype,
        "batch": batch,
        "devices": devices,
        "bandwidth_efficiency": bandwidth_efficiency,
        "compute_dtype": compute_dtype,
    }
    base = estimate_prefill(**base_inputs).step_time_s

    def change(**changes: object) -> float:
        return estimate_prefill(**{**base_inputs, **changes}).step_time_s / base - 1.0

    length = ("Prompt", "prompt_tokens", prompt_tokens, 1)
    formats = [("Weight format", WEIGHT_FORMAT, weight_dtype)]
    return _factors(change, accelerator, compute_dtype, batch, length, bandwidth_efficiency, formats)


def _factors(
    change: Callable[..., float],
    accelerator: AnyAccelerator,
    compute_dtype: str | None,
    batch: int,
    length: tuple[str, str, int, int],
    bandwidth_efficiency: float,
    formats: list[tuple[str, str, str]],
) -> tuple[Factor, ...]:
    """Move each input of an estimate and rank the moves.

    Args:
        change: The estimate's relative change for keyword changes of its inputs.
        accelerator: The chip, scaled for the bandwidth and compute moves.
        compute_dtype: The estimate's math format (None: the engines' choice).
        batch: The batch, moved to the nearest whole sequences.
        length: ``(name, keyword, tokens, least)``: the context or prompt, moved to whole tokens
            no fewer than ``least``; not moved when it is ``least`` already and nothing longer
            matters (no context).
        bandwidth_efficiency: The share of bandwidth sustained, moved within (0, 1].
        formats: ``(name, keyword, format)`` for each format to step one smaller; a step of
            the weights (:data:`WEIGHT_FORMAT`) also moves the math to the engines' choice.
    """
    percent = f"{STEP:.0%}"  # the moves as a reader reads them: "\u221210%" and "+10%"
    factors = [
        Factor(
            "Memory bandwidth",
            f"\u2212{percent}",
            f"+{percent}",
            change(accelerator=_scaled(accelerator, bandwidth=1 - STEP)),
            change(accelerator=_scaled(accelerator, bandwidth=1 + STEP)),
        ),
        Factor(
            "Peak compute",
            f"\u2212{percent}",
            f"+{percent}",
            change(accelerator=_scaled(accelerator, compute=1 - STEP)),
            change(accelerator=_scaled(accelerator, compute=1 + STEP)),
        ),
    ]
    fewer, more = max(1, math.floor(batch * (1 - STEP))), math.ceil(batch * (1 + STEP))
    factors.append(
        Factor(
            "Batch",
            f"{fewer}" if fewer != batch else "",
            f"{more}",
            change(batch=fewer) if fewer != batch else 0.0,
            change(batch=more),
        )
    )
    name, keyword, tokens, least = length
    if tokens > least:
        shorter, longer = max(least, math.floor(tokens * (1 - STEP))), math.ceil(tokens * (1 + STEP))
        factors.append(
            Factor(
                name,
                f"{shorter:,} tokens",
                f"{longer:,} tokens",
                change(**{keyword: shorter}),
                change(**{keyword: longer}),
            )
        )
    lower_efficiency = bandwidth_efficiency * (1 - STEP)
    higher_efficiency = min(1.0, bandwidth_efficiency * (1 + STEP))
    factors.append(
        Factor(
            "Bandwidth efficiency",
            f"{lower_efficiency:.0%}",
            f"{higher_efficiency:.0%}" if higher_efficiency != bandwidth_efficiency else "",
            change(bandwidth_efficiency=lower_efficiency),
            change(bandwidth_efficiency=higher_efficiency) if higher_efficiency != bandwidth_efficiency else 0.0,
        )
    )
    # Ranked among themselves: a format step is not a 10 % move, so it is listed after them.
    ranked = sorted(factors, key=lambda factor: factor.swing, reverse=True)
    steps = []
    for label, key, current in formats:
        smaller = NEXT_SMALLER_FORMAT.get(current)
        if smaller is None or bytes_per_element(smaller) >= bytes_per_element(current):
            continue
        changes: dict[str, object] = {key: smaller}
        if key == WEIGHT_FORMAT:
            # Smaller weights run on whatever math engines use for them on this chip, if it has
            # that peak (a custom chip has only the peak typed for its math format, which then
            # stays). The KV cache's format never changes the math.
            engines = engine_compute_dtype(smaller, accelerator)
            changes["compute_dtype"] = engines if accelerator.supports(engines) else compute_dtype
        steps.append(Factor(label, "", smaller.upper(), 0.0, change(**changes), format_step=True))
    return (*ranked, *sorted(steps, key=lambda factor: factor.swing, reverse=True))


#: Changes smaller than this (relative) are not worth a reader's attention.
NOTICEABLE = 0.005


def _signed(change: float) -> str:
    return f"{change:+.1%}".replace("-", "\u2212")


def describe(factors: tuple[Factor, ...], *, shown: int = 3) -> str:
    """The factors that move the estimate noticeably, in one line: the ``shown`` largest 10 %
    moves, then the format steps (``"Memory bandwidth -10% / +10%: -10.0% / +10.0%; ..."``)."""
    parts = []
    continuous = [f for f in factors if not f.format_step][:shown]
    for factor in continuous:
        if factor.swing < NOTICEABLE:
            continue
        moves = [(m, c) for m, c in ((factor.low, factor.low_change), (factor.high, factor.high_change)) if m]
        parts.append(f"{factor.name} {' / '.join(m for m, _ in moves)}: {' / '.join(_signed(c) for _, c in moves)}")
    for factor in factors:
        if factor.format_step and factor.swing >= NOTICEABLE:
            parts.append(f"{factor.name} {factor.high}: {_signed(factor.high_change)}")
    return "; ".join(parts) if parts else "nothing within 10 % moves it noticeably"
