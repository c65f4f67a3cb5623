"""The ``decode-batch`` figure: decode throughput and step time as the batch grows."""

from __future__ import annotations

from collections.abc import Sequence

from roofline_core.figures._common import (
    DEFAULT_BATCHES,
    bound_regions,
    compact_tick,
    decade_range,
    decode_at,
    devices_label,
    log_ticks,
    padded_range,
    require_values,
    ridge_crossing,
    sorted_unique,
    thinned,
    time_tick,
    tokens_phrase,
    value_ticks,
)
from roofline_core.figures.parameters import (
    BATCH,
    CACHED_TOKENS,
    DEVICES_SPLIT,
    DTYPE,
    KV_DTYPE,
    MODEL,
    THE_ACCELERATOR,
    WEIGHT_DTYPE,
    FigureKind,
    FigureParameter,
    defaults,
    format_has_a_peak,
)
from roofline_core.figures.schema import Figure, Point
from roofline_core.formatting import bound_phrase, format_intensity, format_number, format_time, format_tokens_per_s
from roofline_core.hardware import get_accelerator
from roofline_core.models import get_model
from roofline_core.roofline import COMPUTE, MEMORY
from roofline_core.vocabulary import ListOf

#: What an author can set, in the order the docs list it.
PARAMETERS: tuple[FigureParameter, ...] = (
    THE_ACCELERATOR,
    FigureParameter("model", "model", MODEL, "the model", "llama-3-70b"),
    FigureParameter("batch", "batches", ListOf(BATCH), "batch sizes of the sweep", DEFAULT_BATCHES),
    FigureParameter("context", "context_tokens", CACHED_TOKENS, "cached tokens per sequence", 0),
    DTYPE,
    WEIGHT_DTYPE,
    KV_DTYPE,
    DEVICES_SPLIT,
)
_DEFAULT = defaults(PARAMETERS)


def decode_batch_figure(
    *,
    model: str = _DEFAULT["model"],
    accelerator: str = _DEFAULT["accelerator"],
    batches: Sequence[int] = _DEFAULT["batches"],
    context_tokens: int = _DEFAULT["context_tokens"],
    dtype: str = _DEFAULT["dtype"],
    weight_dtype: str = _DEFAULT["weight_dtype"],
    kv_dtype: str = _DEFAULT["kv_dtype"],
    devices: int = _DEFAULT["devices"],
) -> Figure:
    """Decode throughput (top) and step time (bottom) as the batch grows.

    The ridge is crossed at :func:`~roofline_core.estimates.inference.critical_batch` for a dense model
    with no KV reads; otherwise at the first batch of the sweep whose step is compute-bound.
    """
    require_values("batches", batches)
    chip = get_accelerator(accelerator)
    the_model = get_model(model)
    sweep = sorted_unique(batches)
    decode = decode_at(the_model, chip, dtype=dtype, weight_dtype=weight_dtype, kv_dtype=kv_dtype, devices=devices)
    estimates = [decode(batch=b, context_tokens=context_tokens) for b in sweep]
    crossing = ridge_crossing(
        sweep,
        [e.step for e in estimates],
        exact=not the_model.is_moe and context_tokens == 0,
        weight_dtype=weight_dtype,
    )
    throughput = [[b, e.tokens_per_s] for b, e in zip(sweep, estimates)]
    step_times = [[b, e.step_time_s] for b, e in zip(sweep, estimates)]
    x_lo, x_hi = padded_range(sweep)
    regions = []
    vlines = []
    if crossing is not None and sweep[0] < crossing <= sweep[-1] * 1.5:
        regions = bound_regions(x_lo, crossing, x_hi)
        vlines = [{"x": crossing, "label": f"ridge at batch {format_number(crossing)}"}]
    # At most 6 labelled ticks: more do not fit side by side at phone width.
    x_ticks = value_ticks(thinned(sweep, 6), lambda v: f"{v:,}")
    tp_lo, tp_hi = decade_range(min(t for _, t in throughput), max(t for _, t in throughput) * 1.5)
    st_lo, st_hi = decade_range(min(t for _, t in step_times) / 1.5, max(t for _, t in step_times) * 1.5)

    def marks(values: list[list[float]]) -> list[Point]:
        return [
            {"label": "", "x": b, "y": v, "bound": e.step.bound, "role": "sample"}
            for (b, v), e in zip(values, estimates)
        ]

    panels = [
        {
            # Each panel names its axes: the top one's ticks are read on their own too.
            "x_label": "Batch size (sequences)",
            "y_label": "Throughput (tok/s)",
            "x_unit": "sequences",
            "y_unit": "tokens/s",
            "x_scale": "log",
            "y_scale": "log",
            "x_range": [x_lo, x_hi],
            "y_range": [tp_lo, tp_hi],
            "x_ticks": x_ticks,
            "y_ticks": log_ticks(tp_lo, tp_hi, compact_tick),
            "series": [{"label": "tokens per second, whole batch", "points": throughput, "dashed": False}],
            "points": marks(throughput),
            "regions": regions,
            "vlines": vlines,
        },
        {
            "x_label": "Batch size (sequences)",
            # Seconds, the ticks written with a prefix ("10 ms").
            "y_label": "Step time (s)",
            "x_unit": "sequences",
            "y_unit": "s",
            "x_scale": "log",
            "y_scale": "log",
            "x_range": [x_lo, x_hi],
            "y_range": [st_lo, st_hi],
            "x_ticks": x_ticks,
            "y_ticks": log_ticks(st_lo, st_hi, time_tick),
            "series": [{"label": "time of one decode step", "points": step_times, "dashed": False}],
            "points": marks(step_times),
            "regions": [{**r, "label": ""} for r in regions],
            "vlines": [{"x": v["x"], "label": ""} for v in vlines],
        },
    ]
    where = devices_label(chip, devices)
    context = f" with {tokens_phrase(context_tokens)} of context" if context_tokens else ""
    first, last = estimates[0], estimates[-1]
    memory_rows = [e for e in estimates if e.step.bound == MEMORY]
    alt = (
        f"Decode of {the_model.name} on {where}{context}, batch {sweep[0]:,} to {sweep[-1]:,}: "
        f"a step takes {format_time(first.step_time_s)} at batch {sweep[0]:,} "
        f"({format_tokens_per_s(first.tokens_per_s)})"
    )
    if memory_rows and memory_rows[-1] is not first:
        alt += (
            f" and {format_time(memory_rows[-1].step_time_s)} at batch {memory_rows[-1].batch:,} "
            f"({format_tokens_per_s(memory_rows[-1].tokens_per_s)}), memory-bound up to there"
        )
    if crossing is not None:
        alt += f"; the ridge is crossed at batch {format_number(crossing)}"
        if last.step.bound == COMPUTE:
            alt += (
                f", after which the step time grows with the batch: {format_time(last.step_time_s)} at batch "
                f"{sweep[-1]:,} ({format_tokens_per_s(last.tokens_per_s)})"
            )
    else:
        alt += "; every batch in the sweep stays memory-bound"
    alt += "."
    rows = [
        [
            f"{e.batch:,}",
            format_intensity(e.step.intensity_flop_per_byte),
            bound_phrase(e.step.bound),
            format_time(e.step_time_s),
            format_tokens_per_s(e.tokens_per_s),
        ]
        for e in estimates
    ]
    return {
        "kind": "decode-batch",
        "title": f"Decode throughput and step time against batch: {the_model.name} on {where}",
        "alt": alt,
        "parameters": {
            "model": model,
            "accelerator": accelerator,
            "batches": sweep,
            "context_tokens": context_tokens,
            "dtype": dtype,
            "weight_dtype": weight_dtype,
            "kv_dtype": kv_dtype,
            "devices": devices,
        },
        "panels": panels,
        "table": {"columns": ["Batch", "Intensity", "Regime", "Step time", "Throughput"], "rows": rows},
        "facts": {"crossing_batch": crossing},
    }


DECODE_BATCH = FigureKind(
    kind="decode-batch", data=decode_batch_figure, parameters=PARAMETERS, checks=(format_has_a_peak,)
)
