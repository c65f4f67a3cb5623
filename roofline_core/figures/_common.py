"""Helpers every figure kind shares: axis ranges, tick labels, words of the alt text, sweeps.

Each rule lives here once, so two figures that show the same thing (a decade axis, a context
length, a model's attention kind) show it the same way.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from typing import Any

from roofline_core.estimates.inference import (
    DECODE_TABLE_BATCHES,
    DecodeEstimate,
    StepEstimate,
    critical_batch,
    estimate_decode,
)
from roofline_core.figures.schema import Region, Tick
from roofline_core.formatting import SI_PREFIXES, bound_phrase
from roofline_core.hardware import Accelerator
from roofline_core.hardware.dtypes import DTYPES, bytes_per_element
from roofline_core.models import Model
from roofline_core.roofline import COMPUTE, MEMORY

#: Decode batches of the batch figure: the seed-004 table (1 to 256) continued past the H100 ridge.
DEFAULT_BATCHES: tuple[int, ...] = DECODE_TABLE_BATCHES
#: Context lengths (tokens) of the KV-cache and decode-split figures: 1K to 128K.
DEFAULT_CONTEXTS: tuple[int, ...] = (1024, 4096, 16384, 32768, 65536, 131072)
#: Prompt lengths (tokens) of the prefill-decode figure: 1 to 16K in powers of two.
DEFAULT_PROMPTS: tuple[int, ...] = tuple(2**i for i in range(15))
#: The models the KV-cache figure compares by default: one MHA, one GQA, one MLA model.
DEFAULT_KV_MODELS: tuple[str, ...] = ("llama-2-7b", "llama-3-8b", "deepseek-v3")

_ATTENTION_LABELS = {"mha": "MHA", "gqa": "GQA", "mla": "MLA"}

# --- Axis ranges --------------------------------------------------------------------------


def decade_range(low: float, high: float) -> tuple[float, float]:
    """Widen ``[low, high]`` to whole powers of ten, for log axes (at least one decade)."""
    lo, hi = 10.0 ** math.floor(math.log10(low)), 10.0 ** math.ceil(math.log10(high))
    return (lo, hi * 10) if hi <= lo else (lo, hi)


def padded_range(sweep: Sequence[int]) -> tuple[float, float]:
    """A log axis from a little before the first sample to a little past the last one."""
    return sweep[0] / 1.5, sweep[-1] * 1.5


# --- Ticks ----------------------------------------------------------------------------------


def decades(low: float, high: float) -> list[float]:
    """Powers of ten from ``low`` to ``high`` (both powers of ten)."""
    first, last = round(math.log10(low)), round(math.log10(high))
    return [10.0**e for e in range(first, last + 1)]


def log_ticks(low: float, high: float, label: Callable[[float], str]) -> list[Tick]:
    """A tick at every power of ten from ``low`` to ``high``."""
    return [[v, label(v)] for v in decades(low, high)]


def value_ticks(values: Sequence[float], label: Callable[[Any], str]) -> list[Tick]:
    """A tick at each of ``values``."""
    return [[v, label(v)] for v in values]


def linear_ticks(low: float, high: float, label: Callable[[float], str], count: int = 5) -> list[Tick]:
    """About ``count`` round ticks (1, 2 or 5 times a power of ten apart) from ``low`` to ``high``."""
    raw = (high - low) / count
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= raw)
    ticks = []
    value = math.ceil(low / step) * step
    while value <= high + step * 1e-9:
        ticks.append([round(value, 12), label(round(value, 12))])
        value += step
    return ticks


def thinned(values: Sequence[Any], most: int) -> list[Any]:
    """Every n-th value, n chosen so at most ``most`` remain (the first always kept)."""
    step = max(1, math.ceil(len(values) / most))
    return list(values[::step])


def plain_tick(value: float) -> str:
    """A tick label without unit: ``1000`` -> ``"1,000"``, ``0.01`` -> ``"0.01"``, ``0`` -> ``"0"``."""
    if value >= 1:
        return f"{value:,.0f}"
    return f"{value:.10f}".rstrip("0").rstrip(".") or "0"


def compact_tick(value: float) -> str:
    """A short decade tick label: ``100000`` -> ``"100k"``, ``0.01`` -> ``"0.01"`` (k = 1,000)."""
    for exponent in (9, 6, 3):
        if value >= 10.0**exponent:
            return f"{plain_tick(value / 10.0**exponent)}{SI_PREFIXES[exponent]}"
    return plain_tick(value)


def prefixed_tick(value: float, unit: str) -> str:
    """A decade tick with a decimal prefix: ``1e10, "B"`` -> ``"10 GB"``."""
    exponent = round(math.log10(value))
    group = max(0, min(15, 3 * (exponent // 3)))
    return f"{10 ** (exponent - group):,} {SI_PREFIXES[group]}{unit}"


def time_tick(value_s: float) -> str:
    """A decade tick of time: ``1e-3`` -> ``"1 ms"``."""
    exponent = round(math.log10(value_s))
    for unit_exponent, unit in ((0, "s"), (-3, "ms"), (-6, "µs"), (-9, "ns")):
        if exponent >= unit_exponent or unit == "ns":
            return f"{plain_tick(10.0 ** (exponent - unit_exponent))} {unit}"
    raise AssertionError("unreachable")


# --- Words ----------------------------------------------------------------------------------


def tokens_label(tokens: int) -> str:
    """Token counts as people write context lengths: ``32768`` -> ``"32K"`` (K = 1,024)."""
    if tokens >= 1024 and tokens % 1024 == 0:
        return f"{tokens // 1024:,}K"
    return f"{tokens:,}"


def tokens_phrase(tokens: int) -> str:
    """``1`` -> ``"1 token"``, ``16384`` -> ``"16K tokens"``."""
    return "1 token" if tokens == 1 else f"{tokens_label(tokens)} tokens"


def on_all(count: int) -> str:
    """``"on both"`` or ``"on all 3"`` accelerators."""
    return "on both" if count == 2 else f"on all {count}"


def join_words(words: Sequence[str]) -> str:
    """``["a", "b", "c"]`` -> ``"a, b and c"``."""
    words = list(words)
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def dtype_label(dtype: str) -> str:
    """How a number format is written in titles: ``"fp16"`` -> ``"FP16"``."""
    return DTYPES[dtype].label


def model_label(model: Model) -> str:
    """A model with its attention kind: ``"Llama 3 8B (GQA)"``; a hybrid adds its recurrent
    layers (``"Qwen3.5 35B-A3B (GQA + Gated DeltaNet)"``), sparse attention says so (``"MLA + DSA"``),
    and DeepSeek-V4's compressed attention (``"MQA + CSA/HCA"``)."""
    kind = _ATTENTION_LABELS[model.attention]
    if model.compressed_attention is not None:
        kind = "MQA + CSA/HCA"  # one shared key-value head; DeepSeek-V4's compressed layers
    if model.sparse_attention is not None:
        kind += " + DSA"
    if model.recurrent is not None:
        kind += f" + {model.recurrent.label.split(' (')[0]}"
    return f"{model.name} ({kind})"


def devices_label(chip: Accelerator, devices: int) -> str:
    """``"H100 SXM"`` or ``"8 x H100 SXM"``."""
    return f"{devices} × {chip.name}" if devices > 1 else chip.name


# --- Sweeps ---------------------------------------------------------------------------------


def require_values(name: str, values: Sequence[Any]) -> None:
    """Raise ``ValueError`` if the list ``name`` is empty."""
    if not values:
        raise ValueError(f"{name} needs at least one value")


def sorted_unique(values: Sequence[int]) -> list[int]:
    """The sweep's values once each, smallest first."""
    return sorted(set(values))


def decode_at(
    model: Model, chip: Accelerator, *, dtype: str, weight_dtype: str, kv_dtype: str, devices: int = 1
) -> Callable[..., DecodeEstimate]:
    """:func:`~roofline_core.estimates.inference.estimate_decode` of one setup; call it with ``batch`` and ``context_tokens``."""
    return functools.partial(
        estimate_decode,
        model=model,
        accelerator=chip,
        weight_dtype=weight_dtype,
        kv_dtype=kv_dtype,
        compute_dtype=dtype,
        devices=devices,
    )


def bound_regions(x_lo: float, crossing: float, x_hi: float, *, prefix: str = "") -> list[Region]:
    """The memory-bound band left of ``crossing`` and the compute-bound band right of it."""
    return [
        {"x0": x_lo, "x1": crossing, "label": f"{prefix}{bound_phrase(MEMORY)}", "bound": MEMORY},
        {"x0": crossing, "x1": x_hi, "label": f"{prefix}{bound_phrase(COMPUTE)}", "bound": COMPUTE},
    ]


def ridge_crossing(xs: Sequence[int], steps: Sequence[StepEstimate], *, exact: bool, weight_dtype: str) -> float | None:
    """Where the sweep crosses the ridge: the critical batch when ``exact``, else the first
    x whose step is compute-bound (None if none is).

    ``exact`` holds when a step's FLOPs and bytes are those of a dense decode with no KV reads,
    so the ridge is met at :func:`~roofline_core.estimates.inference.critical_batch`.
    """
    if exact:
        return critical_batch(
            peak_flop_per_s=steps[0].peak_flop_per_s,
            bandwidth_bytes_per_s=steps[0].bandwidth_bytes_per_s,
            weight_bytes_per_element=bytes_per_element(weight_dtype),
        )
    for x, step in zip(xs, steps):
        if step.bound == COMPUTE:
            return x
    return None
