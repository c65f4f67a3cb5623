"""The ``intensity`` figure: the operations catalogue on one arithmetic-intensity axis."""

from __future__ import annotations

from collections.abc import Sequence

from roofline_core.estimates.operations import operations_catalogue
from roofline_core.figures._common import (
    compact_tick,
    decade_range,
    dtype_label,
    join_words,
    log_ticks,
    plain_tick,
    require_values,
)
from roofline_core.figures.parameters import (
    ACCELERATOR,
    BATCH,
    COMPUTE_FORMAT,
    CONTEXT_TOKENS,
    MAX_COMPARED,
    MODEL,
    OPERATION,
    PROMPT_TOKENS,
    FigureKind,
    FigureParameter,
    defaults,
    format_has_a_peak,
)
from roofline_core.figures.schema import Figure
from roofline_core.formatting import bound_phrase, format_bytes, format_flops, format_intensity
from roofline_core.hardware import get_accelerator
from roofline_core.hardware.dtypes import bytes_per_element
from roofline_core.models import get_model
from roofline_core.roofline import MEMORY, ridge_point
from roofline_core.vocabulary import ListOf

#: What an author can set, in the order the docs list it.
PARAMETERS: tuple[FigureParameter, ...] = (
    FigureParameter(
        "accelerators",
        "accelerators",
        ListOf(ACCELERATOR, most=MAX_COMPARED),
        "accelerators whose ridges are drawn",
        ("h100-sxm",),
    ),
    FigureParameter("model", "model", MODEL, "model giving the matrix shapes", "llama-3-70b"),
    FigureParameter("batch", "batch", BATCH, "sequences in the batched decode projection", 64),
    FigureParameter(
        "prompt", "prompt_tokens", PROMPT_TOKENS, "tokens of the prefill projection and prefill attention", 2048
    ),
    FigureParameter("context", "context_tokens", CONTEXT_TOKENS, "cached tokens read by decode attention", 4096),
    FigureParameter(
        "dtype", "dtype", COMPUTE_FORMAT, "format of weights, activations and cache, and of the math", "fp16"
    ),
    FigureParameter(
        "operations", "operations", ListOf(OPERATION), "which operations to show", None, default_words="all"
    ),
)
_DEFAULT = defaults(PARAMETERS)


def intensity_figure(
    *,
    accelerators: Sequence[str] = _DEFAULT["accelerators"],
    model: str = _DEFAULT["model"],
    batch: int = _DEFAULT["batch"],
    prompt_tokens: int = _DEFAULT["prompt_tokens"],
    context_tokens: int = _DEFAULT["context_tokens"],
    dtype: str = _DEFAULT["dtype"],
    operations: Sequence[str] | None = _DEFAULT["operations"],
) -> Figure:
    """The operations catalogue placed on one intensity axis, with the accelerators' ridges.

    Args:
        accelerators: Accelerator slugs whose ridge points are marked; the first one colours
            the operations memory- or compute-bound.
        model: Model slug giving the shapes.
        batch: Sequences in the batched decode GEMM.
        prompt_tokens: Tokens of the prefill GEMM and prefill attention.
        context_tokens: Cached tokens read by decode attention.
        dtype: Format of weights, activations and cache (bytes per element) and of the math.
        operations: Operation slugs to show, in any order (default: the whole catalogue).
    """
    require_values("accelerators", accelerators)
    chips = [get_accelerator(slug) for slug in accelerators]
    the_model = get_model(model)
    catalogues = [
        operations_catalogue(
            accelerator=chip,
            model=the_model,
            batch=batch,
            prompt_tokens=prompt_tokens,
            context_tokens=context_tokens,
            bytes_per_element=bytes_per_element(dtype),
            compute_dtype=dtype,
        )
        for chip in chips
    ]
    known = [op.slug for op in catalogues[0]]
    wanted = list(operations) if operations else known
    unknown = [slug for slug in wanted if slug not in known]
    if unknown:
        raise KeyError(f"unknown operation {unknown[0]!r}; expected one of {', '.join(known)}")
    per_chip = [{op.slug: op for op in catalogue} for catalogue in catalogues]
    # Sorted by intensity, so the rows read left to right as a number line does.
    chosen = sorted((per_chip[0][slug] for slug in wanted), key=lambda op: (op.intensity_flop_per_byte, op.slug))
    ridges = [
        ridge_point(peak_flop_per_s=chip.peak_for(dtype), bandwidth_bytes_per_s=chip.bandwidth_bytes_per_s)
        for chip in chips
    ]
    values = [op.intensity_flop_per_byte for op in chosen] + ridges
    x_lo, x_hi = decade_range(min(values), max(values))
    rows_count = len(chosen)
    points = [
        {
            "label": op.name,
            "x": op.intensity_flop_per_byte,
            "y": float(rows_count - 1 - index),
            "bound": op.bound,
            "role": "operation",
        }
        for index, op in enumerate(chosen)
    ]
    vlines = [{"x": r, "label": f"{chip.name} ridge {format_intensity(r)}"} for chip, r in zip(chips, ridges)]
    panel = {
        "x_label": "Arithmetic intensity (FLOP/byte)",
        "y_label": "",
        "x_unit": "FLOP/byte",
        "y_unit": "",
        "x_scale": "log",
        "y_scale": "none",
        "x_range": [x_lo, x_hi],
        "y_range": [-0.7, rows_count - 0.3],
        "x_ticks": log_ticks(x_lo, x_hi, compact_tick),
        "y_ticks": [],
        "points": points,
        "vlines": vlines,
        "row_labels": True,
        # The accelerator the memory/compute colours refer to, when several ridges are drawn.
        "bound_on": chips[0].name if len(chips) > 1 else "",
    }
    fmt = dtype_label(dtype)
    lowest, highest = chosen[0], chosen[-1]
    ridge_words = join_words([f"{chip.name} at {format_intensity(r)}" for chip, r in zip(chips, ridges)])
    memory_names = [op.name for op in chosen if op.bound == MEMORY]
    alt = (
        f"Arithmetic intensity of {len(chosen)} operations of {the_model.name} in {fmt}, on a log axis from "
        f"{plain_tick(x_lo)} to {plain_tick(x_hi)} FLOP/byte: from {lowest.name} at "
        f"{format_intensity(lowest.intensity_flop_per_byte)} to {highest.name} at "
        f"{format_intensity(highest.intensity_flop_per_byte)}. Ridge points: {ridge_words}. "
        f"{len(memory_names)} of the {len(chosen)} sit below the {chips[0].name} ridge (memory-bound)."
    )
    rows = [
        [
            op.name,
            format_intensity(op.intensity_flop_per_byte),
            format_flops(op.flops),
            format_bytes(op.bytes_moved),
            *(bound_phrase(per_chip[i][op.slug].bound) for i in range(len(chips))),
        ]
        for op in chosen
    ]
    return {
        "kind": "intensity",
        "title": f"Arithmetic intensity of {the_model.name} operations ({fmt})",
        "alt": alt,
        "parameters": {
            "accelerators": list(accelerators),
            "model": model,
            "batch": batch,
            "prompt_tokens": prompt_tokens,
            "context_tokens": context_tokens,
            "dtype": dtype,
            "operations": [op.slug for op in chosen],
        },
        "panels": [panel],
        "table": {
            "columns": ["Operation", "Intensity", "FLOPs", "Bytes", *(f"On {chip.name}" for chip in chips)],
            "rows": rows,
        },
        "facts": {},
    }


INTENSITY = FigureKind(kind="intensity", data=intensity_figure, parameters=PARAMETERS, checks=(format_has_a_peak,))
