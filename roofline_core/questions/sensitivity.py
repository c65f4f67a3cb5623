"""What moves a decode estimate: the change in tokens/s per sequence when one input moves.

Each factor is moved down and up by :data:`STEP` (10 %) with everything else held, through the
same :func:`roofline_core.estimates.inference.estimate_decode` the calculators use. Formats are not
continuous, so they move one step on the format ladder instead (the next smaller weight and KV
formats). All factors are then ranked together by the larger of their two changes, and each move
is named by its real values (``"16 \u2192 18"``, ``"3.35 \u2192 3.02 TB/s (\u221210%)"``,
``"FP16 \u2192 FP8"``), so a reader sees what was tried. The result says which roof
binds, so a reader sees what buying (bandwidth, compute) or changing (batch, context, formats)
would do.

>>> from roofline_core.hardware import ACCELERATORS
>>> from roofline_core.models import MODELS
>>> factors = decode_sensitivity(model=MODELS["llama-3.1-8b"], accelerator=ACCELERATORS["h100-sxm"])
>>> factors[0].name, factors[0].high, round(factors[0].high_change, 3)
('Weight format', 'FP16 \u2192 FP8', 0.869)
>>> factors[1].name, factors[1].low
('Memory bandwidth', '3.35 \u2192 3.02 TB/s (\u221210%)')
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from dataclasses import dataclass

from roofline_core.estimates.inference import TENSOR, estimate_decode, estimate_prefill
from roofline_core.formatting import format_bandwidth, format_flop_per_s
from roofline_core.hardware import AnyAccelerator
from roofline_core.hardware.compute_format import engine_compute_dtype, resolve_compute_dtype
from roofline_core.hardware.dtypes import bytes_per_element
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
        low: How it moved down, from its value to the moved one (``"3.35 \u2192 3.02 TB/s
            (\u221210%)"``, ``"16 \u2192 14"``); empty if it cannot.
        high: How it moved up (or, for a format, to the smaller format: ``"FP16 \u2192 FP8"``);
            empty if it cannot.
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
    changes: dict[str, object] = {
        "bandwidth_bytes_per_s": accelerator.bandwidth_bytes_per_s * bandwidth,
        "peak_flop_per_s": {dtype: peak * compute for dtype, peak in accelerator.peak_flop_per_s.items()},
    }
    # A preset's measured roofs scale with its datasheet ones: a chip 10 % slower reaches 10 %
    # less, and its measured roof stays below the datasheet's, as an Accelerator requires (a
    # measured roof within 10 % of the datasheet's would otherwise be refused). A custom
    # accelerator has none.
    measured = getattr(accelerator, "measured_bandwidth_bytes_per_s", None)
    if measured is not None:
        changes["measured_bandwidth_bytes_per_s"] = measured * bandwidth
    measured_peaks = getattr(accelerator, "measured_peak_flop_per_s", None)
    if measured_peaks:
        changes["measured_peak_flop_per_s"] = {dtype: rate * compute for dtype, rate in measured_peaks.items()}
    return dataclasses.replace(accelerator, **changes)


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
    """The factors of a decode estimate, ranked by how much each move changes its tokens/s per
    sequence (largest first): a :data:`STEP` move of each continuous input, and one step to a
    smaller weight and KV format."""
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
    peak = accelerator.peak_for(resolve_compute_dtype(compute_dtype, weight_dtype, accelerator))
    return _factors(change, accelerator, peak, compute_dtype, batch, length, bandwidth_efficiency, formats)


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
    peak = accelerator.peak_for(resolve_compute_dtype(compute_dtype, weight_dtype, accelerator))
    return _factors(change, accelerator, peak, compute_dtype, batch, length, bandwidth_efficiency, formats)


def _factors(
    change: Callable[..., float],
    accelerator: AnyAccelerator,
    peak_flop_per_s: float,
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
        peak_flop_per_s: The peak the estimate runs at (FLOP/s), to name the compute move.
        compute_dtype: The estimate's math format (None: the engines' choice).
        batch: The batch, moved to the nearest whole sequences.
        length: ``(name, keyword, tokens, least)``: the context or prompt, moved to whole tokens
            no fewer than ``least``; not moved when it is ``least`` already and nothing longer
            matters (no context).
        bandwidth_efficiency: The share of bandwidth sustained, moved within (0, 1].
        formats: ``(name, keyword, format)`` for each format to step one smaller; a step of
            the weights (:data:`WEIGHT_FORMAT`) also moves the math to the engines' choice.
    """
    bandwidth = accelerator.bandwidth_bytes_per_s
    factors = [
        Factor(
            "Memory bandwidth",
            _scaled_move(format_bandwidth, bandwidth, -STEP),
            _scaled_move(format_bandwidth, bandwidth, STEP),
            change(accelerator=_scaled(accelerator, bandwidth=1 - STEP)),
            change(accelerator=_scaled(accelerator, bandwidth=1 + STEP)),
        ),
        Factor(
            "Peak compute",
            _scaled_move(format_flop_per_s, peak_flop_per_s, -STEP),
            _scaled_move(format_flop_per_s, peak_flop_per_s, STEP),
            change(accelerator=_scaled(accelerator, compute=1 - STEP)),
            change(accelerator=_scaled(accelerator, compute=1 + STEP)),
        ),
    ]
    fewer, more = max(1, math.floor(batch * (1 - STEP))), math.ceil(batch * (1 + STEP))
    factors.append(
        Factor(
            "Batch",
            f"{batch:,} \u2192 {fewer:,}" if fewer != batch else "",
            f"{batch:,} \u2192 {more:,}",
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
                f"{tokens:,} \u2192 {shorter:,} tokens",
                f"{tokens:,} \u2192 {longer:,} tokens",
                change(**{keyword: shorter}),
                change(**{keyword: longer}),
            )
        )
    lower_efficiency = bandwidth_efficiency * (1 - STEP)
    higher_efficiency = min(1.0, bandwidth_efficiency * (1 + STEP))
    factors.append(
        Factor(
            "Bandwidth efficiency",
            f"{bandwidth_efficiency:.0%} \u2192 {lower_efficiency:.0%}",
            f"{bandwidth_efficiency:.0%} \u2192 {higher_efficiency:.0%}"
            if higher_efficiency != bandwidth_efficiency
            else "",
            change(bandwidth_efficiency=lower_efficiency),
            change(bandwidth_efficiency=higher_efficiency) if higher_efficiency != bandwidth_efficiency else 0.0,
        )
    )
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
        move = f"{current.upper()} \u2192 {smaller.upper()}"
        factors.append(Factor(label, "", move, 0.0, change(**changes), format_step=True))
    # One ranking for all: a reader reads the chart top down as "what matters most".
    return tuple(sorted(factors, key=lambda factor: factor.swing, reverse=True))


def _scaled_move(formatter: Callable[[float], str], amount: float, share: float) -> str:
    """``"3.35 \u2192 3.02 TB/s (\u221210%)"``: the value before and after a relative move; the
    unit is written once when both sides share it."""
    before, after = formatter(amount), formatter(amount * (1 + share))
    unit = before.rpartition(" ")[2]
    if after.endswith(" " + unit) and before.endswith(" " + unit):
        before = before[: -len(unit) - 1]
    return f"{before} \u2192 {after} ({_signed_step(share)})"


def _signed_step(share: float) -> str:
    return f"{share:+.0%}".replace("-", "\u2212")


#: Changes smaller than this (relative) are not worth a reader's attention.
NOTICEABLE = 0.005


def _signed(change: float) -> str:
    return f"{change:+.1%}".replace("-", "\u2212")


def describe(factors: tuple[Factor, ...], *, shown: int = 4) -> str:
    """The ``shown`` factors that move the estimate most and noticeably, in rank order, in one
    line (``"Weight format FP16 \u2192 FP8: +86.9%; Memory bandwidth 3.35 \u2192 3.02 TB/s
    (\u221210%) / 3.35 \u2192 3.69 TB/s (+10%): \u221210.0% / +10.0%; ..."``)."""
    parts = []
    for factor in [f for f in factors if f.swing >= NOTICEABLE][:shown]:
        moves = [(m, c) for m, c in ((factor.low, factor.low_change), (factor.high, factor.high_change)) if m]
        parts.append(f"{factor.name} {' / '.join(m for m, _ in moves)}: {' / '.join(_signed(c) for _, c in moves)}")
    return "; ".join(parts) if parts else "nothing within 10 % moves it noticeably"
