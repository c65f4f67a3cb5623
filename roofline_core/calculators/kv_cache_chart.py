"""The KV cache calculator's chart data: cache bytes against context, under the memory it must fit in.

The curve is the model's own :meth:`kv_cache_bytes` at each sampled context, so a model with
sliding-window layers bends (or goes flat) past its window exactly as the calculator counts it.
Capacity, weights and the longest context that fits come from the :class:`MemoryFit` the
calculator reports, so the chart and the numbers beside it cannot disagree. Only numbers and
the texts of the labels are decided here; ``roofline_core.view.kv_chart`` places them.
"""

from __future__ import annotations

import math
from typing import Any

from roofline_core.estimates.inference import MemoryFit
from roofline_core.formatting import format_amount, format_bytes, format_capacity, format_count
from roofline_core.models import AnyModel

#: The context axis always spans at least 1k to 1M tokens (a frame that stays still while the
#: reader drags the context slider); it widens by decades to hold a context outside it.
CONTEXT_FRAME_TOKENS = (1_000, 1_000_000)
#: Samples of the curve per decade of context: enough for the bend at a sliding window (which
#: is also sampled exactly) to read as a corner, few enough to keep the SVG small.
SAMPLES_PER_DECADE = 12
#: Marks which chart data is this one (the roofline's data has no ``kind``).
KIND = "kv-cache"


def kv_cache_chart(
    *,
    model: AnyModel,
    fit: MemoryFit,
    kv_dtype: str,
    batch: int,
    context_tokens: int,
    devices: int,
    accelerator_name: str,
) -> dict[str, Any]:
    """KV-cache bytes of ``batch`` sequences against context, with the memory lines and the current point.

    Args:
        model: The model whose cache is drawn.
        fit: The calculator's memory fit of the same scenario (capacity of all devices, weights,
            longest context), in bytes and tokens.
        kv_dtype: KV cache format.
        batch: Sequences.
        context_tokens: The reader's context, in tokens per sequence: the marked point.
        devices: Devices whose memory adds up to ``fit.capacity_bytes``.
        accelerator_name: Their name, for the text alternative.

    Returns:
        ``{"kind": "kv-cache", "x_range": [lo, hi] (tokens), "y_range": [lo, hi] (bytes),
        "curve": [[tokens, bytes], ...], "lines": [{"y": bytes, "label", "role"}, ...],
        "points": [{"x": tokens, "y": bytes, "label", "role"}, ...], "note": str | None,
        "title": str}``. Lines are the capacity and, when the weights leave room, the room for
        the cache; points are the current context and where the cache stops fitting; the note
        says what the frame cannot show (no room at all, a limit off the frame, none at all).
    """
    x_lo = min(CONTEXT_FRAME_TOKENS[0], 10 ** math.floor(math.log10(context_tokens)))
    x_hi = max(CONTEXT_FRAME_TOKENS[1], 10 ** math.ceil(math.log10(context_tokens)))
    samples = _samples(x_lo, x_hi, model, context_tokens)
    # Every copy the devices keep takes memory (an MLA cache is whole on each device).
    curve = [
        [tokens, model.kv_cache_bytes(context_tokens=tokens, batch=batch, kv_dtype=kv_dtype) * fit.kv_copies]
        for tokens in samples
    ]
    # What the weights and the serving runtime's reserve leave for the cache.
    room_bytes = fit.free_bytes
    on_devices = "" if devices == 1 else f" ({format_amount(devices, 'devices')})"
    lines = [
        {
            "y": fit.capacity_bytes,
            "label": f"Memory {format_capacity(fit.capacity_bytes)}{on_devices}",
            "role": "capacity",
        }
    ]
    if room_bytes > 0:
        lines.append({"y": room_bytes, "label": f"Room for KV {format_bytes(room_bytes)}", "role": "room"})
    points = [
        {
            "x": context_tokens,
            "y": fit.kv_bytes,
            "label": f"{format_bytes(fit.kv_bytes)} at {format_count(context_tokens)}",
            "role": "current",
        }
    ]
    limit = fit.max_context_tokens
    note = None
    if room_bytes <= 0:
        note = (
            f"No room: weights {format_bytes(fit.weight_bytes)} > {format_capacity(fit.capacity_bytes)}"
            if fit.weight_bytes >= fit.capacity_bytes
            else f"No room: the runtime keeps {format_bytes(fit.reserved_bytes)}"
        )
    elif limit is None:
        note = "No limit: every layer slides"
    elif x_lo <= limit <= x_hi:
        points.append({"x": limit, "y": room_bytes, "label": f"Full at {format_count(limit)}", "role": "limit"})
    else:  # off the frame: said, not drawn
        note = f"Full at {format_count(limit)}"
    values = [bytes_ for _, bytes_ in curve] + [line["y"] for line in lines]
    y_lo = 10 ** math.floor(math.log10(min(v for v in values if v > 0)))
    y_hi = 10 ** math.ceil(math.log10(max(values)))
    return {
        "kind": KIND,
        "x_range": [x_lo, x_hi],
        "y_range": [y_lo, y_hi],
        "curve": curve,
        "lines": lines,
        "points": points,
        "note": note,
        "title": _title(fit, points, note, accelerator_name=accelerator_name, devices=devices, batch=batch),
    }


def is_kv_cache_chart(chart: Any) -> bool:
    """Whether ``chart`` is :func:`kv_cache_chart`'s data."""
    return isinstance(chart, dict) and chart.get("kind") == KIND


def _samples(x_lo: int, x_hi: int, model: AnyModel, context_tokens: int) -> list[int]:
    """Contexts to sample: evenly spaced on the log axis, plus the window's corner and the reader's context."""
    decades = math.log10(x_hi / x_lo)
    steps = round(decades * SAMPLES_PER_DECADE)
    tokens = {round(x_lo * 10 ** (decades * i / steps)) for i in range(steps + 1)}
    window = getattr(model, "sliding_window", 0) if getattr(model, "sliding_layers", 0) else 0
    tokens |= {t for t in (window, context_tokens) if x_lo <= t <= x_hi}
    return sorted(tokens)


def _title(
    fit: MemoryFit, points: list[dict[str, Any]], note: str | None, *, accelerator_name: str, devices: int, batch: int
) -> str:
    """Text alternative: what the curve is, where the reader is, and where it stops fitting."""
    devices_text = accelerator_name if devices == 1 else f"{devices} × {accelerator_name}"
    sequences = format_amount(batch, "sequences")
    parts = [
        f"KV cache of {sequences} against context, under the {format_capacity(fit.capacity_bytes)} of {devices_text}"
    ]
    parts += [point["label"] for point in points]
    if note:
        parts.append(note)
    return ". ".join(parts)
