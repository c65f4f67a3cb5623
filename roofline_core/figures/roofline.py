"""The ``roofline`` figure: one or several accelerators' rooflines, with workload points.

Also :func:`roofline_curve`, one roof with points on it, which the live calculators draw too.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from roofline_core.estimates.inference import estimate_prefill
from roofline_core.figures._common import (
    bound_regions,
    compact_tick,
    decade_range,
    decode_at,
    dtype_label,
    join_words,
    log_ticks,
    on_all,
    require_values,
    tokens_phrase,
)
from roofline_core.figures.parameters import (
    ACCELERATOR,
    BATCH,
    CACHED_TOKENS,
    DTYPE,
    KV_DTYPE,
    MAX_COMPARED,
    MODEL,
    PROMPT_TOKENS,
    WEIGHT_DTYPE,
    FigureKind,
    FigureParameter,
    defaults,
    format_has_a_peak,
)
from roofline_core.figures.schema import Figure, RooflineCurve
from roofline_core.formatting import bound_phrase, format_bandwidth, format_flop_per_s, format_intensity
from roofline_core.hardware import Accelerator, get_accelerator
from roofline_core.models import Model, get_model
from roofline_core.roofline import COMPUTE, attainable_flop_per_s, bound, ridge_point
from roofline_core.vocabulary import ListOf


def roofline_curve(
    *,
    peak_flop_per_s: float,
    bandwidth_bytes_per_s: float,
    points: list[dict[str, Any]] | None = None,
    x_min_flop_per_byte: float | None = None,
    x_max_flop_per_byte: float | None = None,
    other_roof: tuple[str, float] | None = None,
) -> RooflineCurve:
    """One accelerator's roofline and workload points on it.

    Args:
        peak_flop_per_s: Dense peak compute, in FLOP/s.
        bandwidth_bytes_per_s: Memory bandwidth, in bytes/s.
        points: Workloads as ``{"label": str, "intensity_flop_per_byte": float}``, optionally
            with ``"highlight": True`` for the one the reader chose (drawn emphasised).
        x_min_flop_per_byte: Left edge of the intensity axis (default: a decade below the
            smallest point, at most 0.1).
        x_max_flop_per_byte: Right edge (default: a decade past the ridge or the largest point).
        other_roof: ``(label, bandwidth in bytes/s)`` of the chip's other memory roof (issue 34:
            the measured one beside the datasheet's, or the reverse), drawn dashed under the same
            compute roof; the points stay on the main roof.

    Returns:
        A :class:`~roofline_core.figures.schema.RooflineCurve`: ``{"ridge_flop_per_byte",
        "peak_flop_per_s", "bandwidth_bytes_per_s", "x_range", "y_range", "roof": [[x, y], ...],
        "points": [{"label", "x", "y", "bound", "highlight"}]}`` with x in FLOP/byte and y in
        FLOP/s. The roof is three points: it is straight on log-log axes. With ``other_roof``
        the result also has ``"other_roof": {"label", "bandwidth_bytes_per_s", "ridge_flop_per_byte",
        "roof"}``.
    """
    ridge = ridge_point(peak_flop_per_s=peak_flop_per_s, bandwidth_bytes_per_s=bandwidth_bytes_per_s)
    points = points or []
    xs = [p["intensity_flop_per_byte"] for p in points if p["intensity_flop_per_byte"] > 0]
    low = min([0.1, *xs]) / 10 if x_min_flop_per_byte is None else x_min_flop_per_byte
    high = max([ridge * 10, *(x * 10 for x in xs)]) if x_max_flop_per_byte is None else x_max_flop_per_byte
    x_lo, x_hi = decade_range(low, high)
    roof = [
        [
            x_lo,
            attainable_flop_per_s(
                intensity_flop_per_byte=x_lo,
                peak_flop_per_s=peak_flop_per_s,
                bandwidth_bytes_per_s=bandwidth_bytes_per_s,
            ),
        ],
        [ridge, peak_flop_per_s],
        [x_hi, peak_flop_per_s],
    ]
    placed = [
        {
            "label": p["label"],
            "x": p["intensity_flop_per_byte"],
            "y": attainable_flop_per_s(
                intensity_flop_per_byte=p["intensity_flop_per_byte"],
                peak_flop_per_s=peak_flop_per_s,
                bandwidth_bytes_per_s=bandwidth_bytes_per_s,
            ),
            "bound": bound(
                intensity_flop_per_byte=p["intensity_flop_per_byte"],
                peak_flop_per_s=peak_flop_per_s,
                bandwidth_bytes_per_s=bandwidth_bytes_per_s,
            ),
            "highlight": bool(p.get("highlight", False)),
        }
        for p in points
    ]
    other = _other_roof(other_roof, peak_flop_per_s, x_lo, x_hi)
    lowest = min([roof[0][1], *([other["roof"][0][1]] if other else [])])
    y_lo, y_hi = decade_range(lowest, peak_flop_per_s * 2)
    curve: RooflineCurve = {
        "ridge_flop_per_byte": ridge,
        "peak_flop_per_s": peak_flop_per_s,
        "bandwidth_bytes_per_s": bandwidth_bytes_per_s,
        "x_range": [x_lo, x_hi],
        "y_range": [y_lo, y_hi],
        "roof": roof,
        "points": placed,
    }
    if other:
        curve["other_roof"] = other
    return curve


def _other_roof(other: tuple[str, float] | None, peak: float, x_lo: float, x_hi: float) -> dict[str, Any] | None:
    """The second memory roof under the same compute roof, over the same intensity range."""
    if other is None:
        return None
    label, bandwidth = other
    ridge = ridge_point(peak_flop_per_s=peak, bandwidth_bytes_per_s=bandwidth)
    low = attainable_flop_per_s(intensity_flop_per_byte=x_lo, peak_flop_per_s=peak, bandwidth_bytes_per_s=bandwidth)
    return {
        "label": label,
        "bandwidth_bytes_per_s": bandwidth,
        "ridge_flop_per_byte": ridge,
        "roof": [[x_lo, low], [ridge, peak], [x_hi, peak]],
    }


def _workload_points(
    *,
    model: Model,
    accelerator: Accelerator,
    batches: Sequence[int],
    prompt_tokens: Sequence[int],
    context_tokens: int,
    dtype: str,
    weight_dtype: str,
    kv_dtype: str,
) -> list[dict[str, Any]]:
    """Decode and prefill workloads of ``model`` as roofline points, with the phrase the alt text uses."""
    points = []
    context = f" with {tokens_phrase(context_tokens)} of context" if context_tokens else ""
    decode = decode_at(model, accelerator, dtype=dtype, weight_dtype=weight_dtype, kv_dtype=kv_dtype)
    for batch in batches:
        estimate = decode(batch=batch, context_tokens=context_tokens)
        points.append(
            {
                "label": f"decode, batch {batch:,}",
                "phrase": f"decode at batch {batch:,}{context}",
                "intensity_flop_per_byte": estimate.step.intensity_flop_per_byte,
            }
        )
    for tokens in prompt_tokens:
        step = estimate_prefill(
            model=model, accelerator=accelerator, prompt_tokens=tokens, weight_dtype=weight_dtype, compute_dtype=dtype
        )
        points.append(
            {
                "label": f"prefill, {tokens:,} tokens",
                "phrase": f"prefill of {tokens:,} tokens",
                "intensity_flop_per_byte": step.intensity_flop_per_byte,
            }
        )
    return points


#: What an author can set, in the order the docs list it.
PARAMETERS: tuple[FigureParameter, ...] = (
    FigureParameter(
        "accelerators", "accelerators", ListOf(ACCELERATOR, most=MAX_COMPARED), "accelerators to draw", ("h100-sxm",)
    ),
    DTYPE,
    FigureParameter("model", "model", MODEL, "model whose decode and prefill steps are marked", "llama-3-8b"),
    FigureParameter("batch", "batches", ListOf(BATCH), "decode batch sizes to mark", (), default_words="none"),
    FigureParameter(
        "prompt",
        "prompt_tokens",
        ListOf(PROMPT_TOKENS),
        "prompt lengths (tokens) to mark as prefill points",
        (),
        default_words="none",
    ),
    FigureParameter(
        "context",
        "context_tokens",
        CACHED_TOKENS,
        "cached tokens per sequence for the decode points (KV reads lower their intensity)",
        0,
    ),
    WEIGHT_DTYPE,
    KV_DTYPE,
)
_DEFAULT = defaults(PARAMETERS)


def roofline_figure(
    *,
    accelerators: Sequence[str] = _DEFAULT["accelerators"],
    dtype: str = _DEFAULT["dtype"],
    model: str = _DEFAULT["model"],
    batches: Sequence[int] = _DEFAULT["batches"],
    prompt_tokens: Sequence[int] = _DEFAULT["prompt_tokens"],
    context_tokens: int = _DEFAULT["context_tokens"],
    weight_dtype: str = _DEFAULT["weight_dtype"],
    kv_dtype: str = _DEFAULT["kv_dtype"],
) -> Figure:
    """Log-log roofline of one or several accelerators, with optional workload points.

    Args:
        accelerators: Accelerator slugs; the workload points sit on the first one's roof.
        dtype: Number format of the math (picks each accelerator's dense peak).
        model: Model slug whose decode and prefill steps give the workload points.
        batches: Decode batch sizes to mark (sequences).
        prompt_tokens: Prompt lengths to mark as prefill points (tokens).
        context_tokens: Cached tokens per sequence for the decode points (KV reads lower their
            intensity).
        weight_dtype: Storage format of the weights.
        kv_dtype: Storage format of the KV cache.
    """
    require_values("accelerators", accelerators)
    chips = [get_accelerator(slug) for slug in accelerators]
    the_model = get_model(model)
    peaks = [chip.peak_for(dtype) for chip in chips]
    workloads = _workload_points(
        model=the_model,
        accelerator=chips[0],
        batches=batches,
        prompt_tokens=prompt_tokens,
        context_tokens=context_tokens,
        dtype=dtype,
        weight_dtype=weight_dtype,
        kv_dtype=kv_dtype,
    )
    curve_points = [{"label": w["label"], "intensity_flop_per_byte": w["intensity_flop_per_byte"]} for w in workloads]
    # Each roof's own default range, then one common range so the roofs can be compared.
    alone = [
        roofline_curve(peak_flop_per_s=peak, bandwidth_bytes_per_s=chip.bandwidth_bytes_per_s, points=curve_points)
        for chip, peak in zip(chips, peaks)
    ]
    x_lo = min(c["x_range"][0] for c in alone)
    x_hi = max(c["x_range"][1] for c in alone)
    curves = [
        roofline_curve(
            peak_flop_per_s=peak,
            bandwidth_bytes_per_s=chip.bandwidth_bytes_per_s,
            points=curve_points,
            x_min_flop_per_byte=x_lo,
            x_max_flop_per_byte=x_hi,
        )
        for chip, peak in zip(chips, peaks)
    ]
    y_lo = min(c["y_range"][0] for c in curves)
    y_hi = max(c["y_range"][1] for c in curves)

    series = []
    ridges = []
    notes = []
    several = len(chips) > 1
    for chip, curve in zip(chips, curves):
        ridge = curve["ridge_flop_per_byte"]
        # With several roofs, each ridge is named in the legend; alone, beside its marker.
        label = f"{chip.name}, ridge {format_intensity(ridge)}" if several else chip.name
        series.append({"label": label, "points": curve["roof"], "dashed": False})
        ridges.append(
            {
                "label": "" if several else f"ridge {format_intensity(ridge)}",
                "x": ridge,
                "y": curve["peak_flop_per_s"],
                "bound": COMPUTE,
                "role": "ridge",
            }
        )
    if len(chips) == 1:
        curve = curves[0]
        ridge = curve["ridge_flop_per_byte"]
        # Roof labels sit halfway along each roof segment (geometric means on log axes).
        slope_x = math.sqrt(x_lo * ridge)
        notes = [
            {
                "text": format_bandwidth(chips[0].bandwidth_bytes_per_s),
                "x": slope_x,
                "y": attainable_flop_per_s(
                    intensity_flop_per_byte=slope_x,
                    peak_flop_per_s=peaks[0],
                    bandwidth_bytes_per_s=chips[0].bandwidth_bytes_per_s,
                ),
                "slope": True,
            },
            {"text": format_flop_per_s(peaks[0]), "x": math.sqrt(ridge * x_hi), "y": peaks[0], "slope": False},
        ]
    measured = chips[0].measured_bandwidth_bytes_per_s if len(chips) == 1 else None
    if measured is not None:
        # The achievable roof a cited run reached, dashed under the datasheet's (issue 34): decode
        # plans against it, the datasheet only bounds it.
        achievable = roofline_curve(
            peak_flop_per_s=peaks[0], bandwidth_bytes_per_s=measured, x_min_flop_per_byte=x_lo, x_max_flop_per_byte=x_hi
        )
        # The lower roof can start a decade below the datasheet's: the axis reaches down to it.
        y_lo = min(y_lo, achievable["y_range"][0])
        series.append(
            {
                "label": f"measured {format_bandwidth(measured)}",
                "points": achievable["roof"],
                "dashed": True,
                "reference": True,
            }
        )
        # On log axes the two roofs lie close, so one label names both: "3.35 TB/s (2.97 measured)".
        notes[0]["text"] += f" ({format_bandwidth(measured)} measured)"
    regions = []
    if len(chips) == 1:
        ridge = curves[0]["ridge_flop_per_byte"]
        regions = bound_regions(x_lo, ridge, x_hi)
    workload_markers = [
        {"label": placed["label"], "x": placed["x"], "y": placed["y"], "bound": placed["bound"], "role": "workload"}
        for placed in curves[0]["points"]
    ]
    panel = {
        "x_label": "Arithmetic intensity (FLOP/byte)",
        "y_label": "Attainable (TFLOP/s)",
        "x_unit": "FLOP/byte",
        "y_unit": "FLOP/s",
        "x_scale": "log",
        "y_scale": "log",
        "x_range": [x_lo, x_hi],
        "y_range": [y_lo, y_hi],
        "x_ticks": log_ticks(x_lo, x_hi, compact_tick),
        "y_ticks": log_ticks(y_lo, y_hi, lambda v: compact_tick(v / 1e12)),
        "series": series,
        "points": ridges + workload_markers,
        "regions": regions,
        "notes": notes,
        "legend": len(chips) > 1,
    }

    # Sentences and table ----------------------------------------------------------------
    fmt = dtype_label(dtype)
    roof_clauses = [
        f"the {format_bandwidth(chip.bandwidth_bytes_per_s)} bandwidth roof meets the {format_flop_per_s(peak)} "
        f"compute roof at {format_intensity(curve['ridge_flop_per_byte'])}"
        for chip, peak, curve in zip(chips, peaks, curves)
    ]
    if measured is not None:
        roof_clauses[0] += f" (a cited measurement reaches {format_bandwidth(measured)}, the dashed roof)"
    if len(chips) == 1:
        alt = f"Roofline of {chips[0].name} ({fmt}): {roof_clauses[0]}"
        title = f"Roofline of {chips[0].name} ({fmt})"
    else:
        alt = f"Rooflines in {fmt}: " + "; ".join(
            f"on {chip.name} {clause}" for chip, clause in zip(chips, roof_clauses)
        )
        title = f"Rooflines of {join_words([chip.name for chip in chips])} ({fmt})"
    point_clauses = []
    for index, workload in enumerate(workloads):
        bounds = [curve["points"][index]["bound"] for curve in curves]
        if len(chips) == 1:
            where = bound_phrase(bounds[0])
        elif len(set(bounds)) == 1:
            where = f"{bounds[0]}-bound {on_all(len(chips))}"
        else:
            where = ", ".join(f"{b}-bound on {chip.name}" for b, chip in zip(bounds, chips))
        point_clauses.append(
            f"{workload['phrase']} sits at {format_intensity(workload['intensity_flop_per_byte'])}, {where}"
        )
    if point_clauses:
        lead = f"; for {the_model.name}" + (f", on the {chips[0].name} roof," if len(chips) > 1 else ",")
        alt += f"{lead} " + "; ".join(point_clauses)
    alt += "."

    rows = [
        ["Peak compute", *(format_flop_per_s(p) for p in peaks)],
        ["Memory bandwidth", *(format_bandwidth(chip.bandwidth_bytes_per_s) for chip in chips)],
        ["Ridge point", *(format_intensity(c["ridge_flop_per_byte"]) for c in curves)],
    ]
    if measured is not None:
        rows.insert(2, ["Measured bandwidth (cited run)", format_bandwidth(measured)])
    for index, workload in enumerate(workloads):
        rows.append(
            [
                f"{the_model.name} {workload['label']} at {format_intensity(workload['intensity_flop_per_byte'])}",
                *(
                    f"{format_flop_per_s(c['points'][index]['y'])}, {bound_phrase(c['points'][index]['bound'])}"
                    for c in curves
                ),
            ]
        )
    return {
        "kind": "roofline",
        "title": title,
        "alt": alt,
        "parameters": {
            "accelerators": list(accelerators),
            "dtype": dtype,
            "model": model,
            "batches": list(batches),
            "prompt_tokens": list(prompt_tokens),
            "context_tokens": context_tokens,
            "weight_dtype": weight_dtype,
            "kv_dtype": kv_dtype,
        },
        "panels": [panel],
        "table": {"columns": ["", *(chip.name for chip in chips)], "rows": rows},
        "facts": {"curves": curves},
    }


ROOFLINE = FigureKind(kind="roofline", data=roofline_figure, parameters=PARAMETERS, checks=(format_has_a_peak,))
