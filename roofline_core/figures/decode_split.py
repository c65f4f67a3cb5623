"""The ``decode-split`` figure: one decode step's time split into weight and KV-cache reads."""

from __future__ import annotations

from collections.abc import Sequence

from roofline_core.estimates.inference import DecodeEstimate
from roofline_core.figures._common import (
    DEFAULT_CONTEXTS,
    decode_at,
    devices_label,
    linear_ticks,
    plain_tick,
    require_values,
    sorted_unique,
    tokens_label,
)
from roofline_core.figures.parameters import (
    BATCH,
    CONTEXT_TOKENS,
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
from roofline_core.figures.schema import Figure
from roofline_core.formatting import bound_phrase, format_capacity, format_number, format_time
from roofline_core.hardware import get_accelerator
from roofline_core.models import get_model
from roofline_core.roofline import op_time_s
from roofline_core.vocabulary import ListOf

#: What an author can set, in the order the docs list it.
PARAMETERS: tuple[FigureParameter, ...] = (
    THE_ACCELERATOR,
    FigureParameter("model", "model", MODEL, "the model", "llama-3-8b"),
    FigureParameter("batch", "batch", BATCH, "sequences decoded together", 8),
    FigureParameter("context", "contexts", ListOf(CONTEXT_TOKENS), "context lengths, one bar each", DEFAULT_CONTEXTS),
    DTYPE,
    WEIGHT_DTYPE,
    KV_DTYPE,
    DEVICES_SPLIT,
)
_DEFAULT = defaults(PARAMETERS)


def decode_split_figure(
    *,
    model: str = _DEFAULT["model"],
    accelerator: str = _DEFAULT["accelerator"],
    batch: int = _DEFAULT["batch"],
    contexts: Sequence[int] = _DEFAULT["contexts"],
    dtype: str = _DEFAULT["dtype"],
    weight_dtype: str = _DEFAULT["weight_dtype"],
    kv_dtype: str = _DEFAULT["kv_dtype"],
    devices: int = _DEFAULT["devices"],
) -> Figure:
    """Time of one decode step, split into reading the weights and reading the KV cache.

    Each part is its bytes over the devices' bandwidth (:func:`~roofline_core.roofline.op_time_s`
    with no FLOPs); their sum is the step's memory time. The compute time is drawn as a line: the
    step takes the larger of the two. Bars whose batch does not fit in memory are hatched.
    """
    require_values("contexts", contexts)
    chip = get_accelerator(accelerator)
    the_model = get_model(model)
    sweep = sorted_unique(contexts)
    decode = decode_at(the_model, chip, dtype=dtype, weight_dtype=weight_dtype, kv_dtype=kv_dtype, devices=devices)
    estimates = [decode(batch=batch, context_tokens=c) for c in sweep]

    def read_time_s(estimate: DecodeEstimate, bytes_total: float) -> float:
        # Work is split evenly over the devices: each reads 1/devices of the bytes.
        step = estimate.step
        return op_time_s(
            flops=0,
            bytes_moved=bytes_total / step.devices,
            peak_flop_per_s=step.peak_flop_per_s,
            bandwidth_bytes_per_s=step.bandwidth_bytes_per_s,
        )

    def compute_time_s(estimate: DecodeEstimate) -> float:
        step = estimate.step
        return op_time_s(
            flops=step.flops / step.devices,
            bytes_moved=0,
            peak_flop_per_s=step.peak_flop_per_s,
            bandwidth_bytes_per_s=step.bandwidth_bytes_per_s,
        )

    weight_s = [read_time_s(e, e.weight_bytes_streamed) for e in estimates]
    kv_s = [read_time_s(e, e.kv_bytes) for e in estimates]
    compute_s = [compute_time_s(e) for e in estimates]
    step_s = [e.step_time_s for e in estimates]
    fits = [e.memory.fits for e in estimates]
    categories = [tokens_label(c) for c in sweep]
    top = max([*step_s, *(w + k for w, k in zip(weight_s, kv_s))])
    panel = {
        "x_label": "Context length (tokens)",
        "y_label": "Step time (ms)",
        "x_unit": "",
        "y_unit": "s",
        "x_scale": "category",
        "y_scale": "linear",
        "x_range": [-0.6, len(sweep) - 0.4],
        "y_range": [0.0, top * 1.12],
        "x_ticks": [[i, label] for i, label in enumerate(categories)],
        "y_ticks": linear_ticks(0.0, top * 1.12, lambda v: plain_tick(round(v * 1e3, 6))),
        "bars": {
            "categories": categories,
            "stacks": [
                {"label": "reading the weights", "values": weight_s},
                {"label": "reading the KV cache", "values": kv_s},
            ],
            "hatched": [not f for f in fits],
            "hatch_label": f"does not fit in {format_capacity(chip.fit_memory_bytes * devices)}",
        },
        "series": [{"label": "compute at peak", "points": [[i, c] for i, c in enumerate(compute_s)], "dashed": True}],
        "legend": True,
    }
    where = devices_label(chip, devices)
    # The context at which the batch's cache bytes equal the weight bytes read per step.
    equal_tokens = the_model.context_for_kv_bytes(
        kv_bytes=estimates[0].weight_bytes_streamed, batch=batch, kv_dtype=kv_dtype
    )
    alt = (
        f"One decode step of {the_model.name} at batch {batch:,} on {where}: reading the weights takes "
        f"{format_time(weight_s[0])} at every context; reading the KV cache adds {format_time(kv_s[0])} at "
        f"{categories[0]} tokens and {format_time(kv_s[-1])} at {categories[-1]} tokens, and passes the weights "
        f"at about {format_number(equal_tokens)} tokens of context. The step takes {format_time(step_s[0])} at "
        f"{categories[0]} and {format_time(step_s[-1])} at {categories[-1]}"
    )
    if not all(fits):
        first_misfit = categories[fits.index(False)]
        alt += f"; from {first_misfit} tokens the batch no longer fits in {format_capacity(chip.fit_memory_bytes * devices)}"
    alt += "."
    rows = [
        [
            categories[i],
            format_time(weight_s[i]),
            format_time(kv_s[i]),
            format_time(compute_s[i]),
            format_time(step_s[i]),
            bound_phrase(estimates[i].step.bound),
            "yes" if fits[i] else "no",
        ]
        for i in range(len(sweep))
    ]
    return {
        "kind": "decode-split",
        "title": f"Decode step time split into weight and KV-cache reads: {the_model.name}, batch {batch:,}, {where}",
        "alt": alt,
        "parameters": {
            "model": model,
            "accelerator": accelerator,
            "batch": batch,
            "contexts": sweep,
            "dtype": dtype,
            "weight_dtype": weight_dtype,
            "kv_dtype": kv_dtype,
            "devices": devices,
        },
        "panels": [panel],
        "table": {
            "columns": ["Context", "Weights", "KV cache", "Compute", "Step", "Regime", "Fits"],
            "rows": rows,
        },
        "facts": {"kv_equals_weights_tokens": equal_tokens},
    }


DECODE_SPLIT = FigureKind(
    kind="decode-split", data=decode_split_figure, parameters=PARAMETERS, checks=(format_has_a_peak,)
)
