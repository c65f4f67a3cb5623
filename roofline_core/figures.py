"""Figure data: the lines, points, labels and axis ranges the site draws.

Plain Python data only (no plotting here): the site draws it with matplotlib at build time
(``roofline_site.figures``), and the live calculators can send the same data to the browser for
their charts. Every number comes from the formulas and presets of this package; this module only
arranges them, picks axis ranges and writes the sentences that describe them.

Each ``*_figure`` function returns one JSON-ready dict (strings, numbers, lists, dicts):

``kind``
    Which figure (``"roofline"``, ``"intensity"``, ``"decode-batch"``, ``"kv-cache"``,
    ``"decode-split"``, ``"prefill-decode"``).
``title``
    A one-line title.
``alt``
    The alternative text: what the figure shows, with the numbers this package computes.
``parameters``
    The inputs after defaults were filled in (slugs and numbers).
``panels``
    Plot areas, top to bottom. Each has ``x_label``, ``y_label``, ``x_scale`` and ``y_scale``
    (``"log"``, ``"linear"``, ``"category"`` or ``"none"``), ``x_range`` and ``y_range``,
    ``x_ticks`` and ``y_ticks`` (``[[value, label], ...]``, values in SI units), and any of:
    ``series`` (lines: ``{"label", "points": [[x, y], ...], "dashed"}``), ``points`` (markers:
    ``{"label", "x", "y", "bound", "role"}``), ``vlines`` and ``hlines`` (``{"x"|"y", "label"}``),
    ``regions`` (``{"x0", "x1", "label", "bound"}``), ``notes`` (text at data coordinates:
    ``{"text", "x", "y"}``), ``bars`` (stacked: ``{"categories", "stacks": [{"label",
    "values"}], "hatched": [bool], "hatch_label"}``).
``table``
    The plotted numbers as text: ``{"columns": [...], "rows": [[...], ...]}``.

Coordinates are SI (FLOP/byte, FLOP/s, bytes, seconds, tokens); only tick labels are scaled.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from typing import Any

from roofline_core.dtypes import DTYPES, bytes_per_element
from roofline_core.formatting import (
    format_bandwidth,
    format_bytes,
    format_flop_per_s,
    format_flops,
    format_intensity,
    format_number,
    format_time,
    format_tokens_per_s,
)
from roofline_core.hardware import Accelerator, get_accelerator
from roofline_core.inference import (
    DEFAULT_SWEEP_BATCHES,
    DecodeEstimate,
    StepEstimate,
    context_for_kv_bytes,
    critical_batch,
    estimate_decode,
    estimate_prefill,
    memory_fit,
)
from roofline_core.models import Model, get_model
from roofline_core.operations import operations_catalogue
from roofline_core.roofline import COMPUTE, MEMORY, attainable_flop_per_s, bound, op_time_s, ridge_point

#: Figure kinds, in the order the gallery shows them.
FIGURE_KINDS: tuple[str, ...] = ("roofline", "intensity", "decode-batch", "kv-cache", "decode-split", "prefill-decode")

#: Decode batches of the batch figure: the seed-004 table (1 to 256) continued past the H100 ridge.
DEFAULT_BATCHES: tuple[int, ...] = (*DEFAULT_SWEEP_BATCHES, 512, 1024)
#: Context lengths (tokens) of the KV-cache and decode-split figures: 1K to 128K.
DEFAULT_CONTEXTS: tuple[int, ...] = (1024, 4096, 16384, 32768, 65536, 131072)
#: Prompt lengths (tokens) of the prefill-decode figure: 1 to 16K in powers of two.
DEFAULT_PROMPTS: tuple[int, ...] = tuple(2**i for i in range(15))
#: The models the KV-cache figure compares by default: one MHA, one GQA, one MLA model.
DEFAULT_KV_MODELS: tuple[str, ...] = ("llama-2-7b", "llama-3-8b", "deepseek-v3")

_ATTENTION_LABELS = {"mha": "MHA", "gqa": "GQA", "mla": "MLA"}


# --- Small shared helpers -----------------------------------------------------------------


def _decade_range(low: float, high: float) -> tuple[float, float]:
    """Widen ``[low, high]`` to whole powers of ten, for log axes (at least one decade)."""
    lo, hi = 10.0 ** math.floor(math.log10(low)), 10.0 ** math.ceil(math.log10(high))
    return (lo, hi * 10) if hi <= lo else (lo, hi)


def _decades(low: float, high: float) -> list[float]:
    """Powers of ten from ``low`` to ``high`` (both powers of ten)."""
    first, last = round(math.log10(low)), round(math.log10(high))
    return [10.0**e for e in range(first, last + 1)]


def _plain_tick(value: float) -> str:
    """A tick label without unit: ``1000`` -> ``"1,000"``, ``0.01`` -> ``"0.01"``."""
    if value >= 1:
        return f"{value:,.0f}"
    return f"{value:.10f}".rstrip("0")


def _compact_tick(value: float) -> str:
    """A short decade tick label: ``100000`` -> ``"100k"``, ``0.01`` -> ``"0.01"`` (k = 1,000)."""
    for scale, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if value >= scale:
            return f"{_plain_tick(value / scale)}{suffix}"
    return _plain_tick(value)


def _prefixed_tick(value: float, unit: str) -> str:
    """A decade tick with a decimal prefix: ``1e10, "B"`` -> ``"10 GB"``."""
    exponent = round(math.log10(value))
    group = max(0, min(5, exponent // 3))
    return f"{10 ** (exponent - 3 * group):,} {('', 'k', 'M', 'G', 'T', 'P')[group]}{unit}"


def _time_tick(value_s: float) -> str:
    """A decade tick of time: ``1e-3`` -> ``"1 ms"``."""
    exponent = round(math.log10(value_s))
    for unit_exponent, unit in ((0, "s"), (-3, "ms"), (-6, "µs"), (-9, "ns")):
        if exponent >= unit_exponent or unit == "ns":
            return f"{_plain_tick(10.0 ** (exponent - unit_exponent))} {unit}"
    raise AssertionError("unreachable")


def tokens_label(tokens: int) -> str:
    """Token counts as people write context lengths: ``32768`` -> ``"32K"`` (K = 1,024)."""
    if tokens >= 1024 and tokens % 1024 == 0:
        return f"{tokens // 1024:,}K"
    return f"{tokens:,}"


def _log_ticks(low: float, high: float, label) -> list[list[Any]]:
    return [[v, label(v)] for v in _decades(low, high)]


def _thinned(values: Sequence[Any], most: int) -> list[Any]:
    """Every n-th value, n chosen so at most ``most`` remain (the first always kept)."""
    step = max(1, math.ceil(len(values) / most))
    return list(values[::step])


def _value_ticks(values: Sequence[float], label) -> list[list[Any]]:
    return [[v, label(v)] for v in values]


def tokens_phrase(tokens: int) -> str:
    """``1`` -> ``"1 token"``, ``16384`` -> ``"16K tokens"``."""
    return "1 token" if tokens == 1 else f"{tokens_label(tokens)} tokens"


def _on_all(count: int) -> str:
    return "on both" if count == 2 else f"on all {count}"


def _join(words: Sequence[str]) -> str:
    """``["a", "b", "c"]`` -> ``"a, b and c"``."""
    words = list(words)
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def _dtype_label(dtype: str) -> str:
    return DTYPES[dtype].label


def _model_label(model: Model) -> str:
    return f"{model.name} ({_ATTENTION_LABELS[model.attention]})"


def _require_values(name: str, values: Sequence[Any]) -> None:
    if not values:
        raise ValueError(f"{name} needs at least one value")


def _sorted_unique(values: Sequence[int]) -> list[int]:
    return sorted(set(values))


def _padded_range(sweep: Sequence[int]) -> tuple[float, float]:
    """A log axis from a little before the first sample to a little past the last one."""
    return sweep[0] / 1.5, sweep[-1] * 1.5


def _where(chip: Accelerator, devices: int) -> str:
    """``"H100 SXM"`` or ``"8 x H100 SXM"``."""
    return f"{devices} x {chip.name}" if devices > 1 else chip.name


def _decode_at(
    model: Model, chip: Accelerator, *, dtype: str, weight_dtype: str, kv_dtype: str, devices: int = 1
) -> Callable[..., DecodeEstimate]:
    """:func:`~roofline_core.inference.estimate_decode` of one setup; call it with ``batch`` and ``context_tokens``."""
    return functools.partial(
        estimate_decode,
        model=model,
        accelerator=chip,
        weight_dtype=weight_dtype,
        kv_dtype=kv_dtype,
        compute_dtype=dtype,
        devices=devices,
    )


def _bound_regions(x_lo: float, crossing: float, x_hi: float, *, prefix: str = "") -> list[dict[str, Any]]:
    """The memory-bound band left of ``crossing`` and the compute-bound band right of it."""
    return [
        {"x0": x_lo, "x1": crossing, "label": f"{prefix}memory-bound", "bound": MEMORY},
        {"x0": crossing, "x1": x_hi, "label": f"{prefix}compute-bound", "bound": COMPUTE},
    ]


# --- Roofline -----------------------------------------------------------------------------


def roofline_curve(
    *,
    peak_flop_per_s: float,
    bandwidth_bytes_per_s: float,
    points: list[dict[str, Any]] | None = None,
    x_min_flop_per_byte: float | None = None,
    x_max_flop_per_byte: float | None = None,
) -> dict[str, Any]:
    """One accelerator's roofline and workload points on it.

    Args:
        peak_flop_per_s: Dense peak compute, in FLOP/s.
        bandwidth_bytes_per_s: Memory bandwidth, in bytes/s.
        points: Workloads as ``{"label": str, "intensity_flop_per_byte": float}``, optionally
            with ``"highlight": True`` for the one the reader chose (drawn emphasised).
        x_min_flop_per_byte: Left edge of the intensity axis (default: a decade below the
            smallest point, at most 0.1).
        x_max_flop_per_byte: Right edge (default: a decade past the ridge or the largest point).

    Returns:
        ``{"ridge_flop_per_byte", "peak_flop_per_s", "bandwidth_bytes_per_s", "x_range",
        "y_range", "roof": [[x, y], ...], "points": [{"label", "x", "y", "bound", "highlight"}]}`` with x in
        FLOP/byte and y in FLOP/s. The roof is three points: it is straight on log-log axes.
    """
    ridge = ridge_point(peak_flop_per_s=peak_flop_per_s, bandwidth_bytes_per_s=bandwidth_bytes_per_s)
    points = points or []
    xs = [p["intensity_flop_per_byte"] for p in points if p["intensity_flop_per_byte"] > 0]
    low = min([0.1, *xs]) / 10 if x_min_flop_per_byte is None else x_min_flop_per_byte
    high = max([ridge * 10, *(x * 10 for x in xs)]) if x_max_flop_per_byte is None else x_max_flop_per_byte
    x_lo, x_hi = _decade_range(low, high)
    roof = [
        [x_lo, attainable_flop_per_s(intensity_flop_per_byte=x_lo, peak_flop_per_s=peak_flop_per_s, bandwidth_bytes_per_s=bandwidth_bytes_per_s)],
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
    y_lo, y_hi = _decade_range(roof[0][1], peak_flop_per_s * 2)
    return {
        "ridge_flop_per_byte": ridge,
        "peak_flop_per_s": peak_flop_per_s,
        "bandwidth_bytes_per_s": bandwidth_bytes_per_s,
        "x_range": [x_lo, x_hi],
        "y_range": [y_lo, y_hi],
        "roof": roof,
        "points": placed,
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
    decode = _decode_at(model, accelerator, dtype=dtype, weight_dtype=weight_dtype, kv_dtype=kv_dtype)
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


def roofline_figure(
    *,
    accelerators: Sequence[str] = ("h100-sxm",),
    dtype: str = "fp16",
    model: str = "llama-3-8b",
    batches: Sequence[int] = (),
    prompt_tokens: Sequence[int] = (),
    context_tokens: int = 0,
    weight_dtype: str = "fp16",
    kv_dtype: str = "fp16",
) -> dict[str, Any]:
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
    _require_values("accelerators", accelerators)
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
                    intensity_flop_per_byte=slope_x, peak_flop_per_s=peaks[0], bandwidth_bytes_per_s=chips[0].bandwidth_bytes_per_s
                ),
                "slope": True,
            },
            {"text": format_flop_per_s(peaks[0]), "x": math.sqrt(ridge * x_hi), "y": peaks[0], "slope": False},
        ]
    regions = []
    if len(chips) == 1:
        ridge = curves[0]["ridge_flop_per_byte"]
        regions = _bound_regions(x_lo, ridge, x_hi)
    workload_markers = [
        {"label": placed["label"], "x": placed["x"], "y": placed["y"], "bound": placed["bound"], "role": "workload"}
        for placed in curves[0]["points"]
    ]
    panel = {
        "x_label": "Arithmetic intensity (FLOP/byte)",
        "y_label": "Attainable (TFLOP/s)",
        "x_scale": "log",
        "y_scale": "log",
        "x_range": [x_lo, x_hi],
        "y_range": [y_lo, y_hi],
        "x_ticks": _log_ticks(x_lo, x_hi, _compact_tick),
        "y_ticks": _log_ticks(y_lo, y_hi, lambda v: _compact_tick(v / 1e12)),
        "series": series,
        "points": ridges + workload_markers,
        "regions": regions,
        "notes": notes,
        "legend": len(chips) > 1,
    }

    # Sentences and table ----------------------------------------------------------------
    fmt = _dtype_label(dtype)
    roof_clauses = [
        f"the {format_bandwidth(chip.bandwidth_bytes_per_s)} bandwidth roof meets the {format_flop_per_s(peak)} "
        f"compute roof at {format_intensity(curve['ridge_flop_per_byte'])}"
        for chip, peak, curve in zip(chips, peaks, curves)
    ]
    if len(chips) == 1:
        alt = f"Roofline of {chips[0].name} ({fmt}): {roof_clauses[0]}"
        title = f"Roofline of {chips[0].name} ({fmt})"
    else:
        alt = f"Rooflines in {fmt}: " + "; ".join(f"on {chip.name} {clause}" for chip, clause in zip(chips, roof_clauses))
        title = f"Rooflines of {_join([chip.name for chip in chips])} ({fmt})"
    point_clauses = []
    for index, workload in enumerate(workloads):
        bounds = [curve["points"][index]["bound"] for curve in curves]
        if len(chips) == 1:
            where = f"{bounds[0]}-bound"
        elif len(set(bounds)) == 1:
            where = f"{bounds[0]}-bound {_on_all(len(chips))}"
        else:
            where = ", ".join(f"{b}-bound on {chip.name}" for b, chip in zip(bounds, chips))
        point_clauses.append(f"{workload['phrase']} sits at {format_intensity(workload['intensity_flop_per_byte'])}, {where}")
    if point_clauses:
        lead = f"; for {the_model.name}" + (f", on the {chips[0].name} roof," if len(chips) > 1 else ",")
        alt += f"{lead} " + "; ".join(point_clauses)
    alt += "."

    rows = [
        ["Peak compute", *(format_flop_per_s(p) for p in peaks)],
        ["Memory bandwidth", *(format_bandwidth(chip.bandwidth_bytes_per_s) for chip in chips)],
        ["Ridge point", *(format_intensity(c["ridge_flop_per_byte"]) for c in curves)],
    ]
    for index, workload in enumerate(workloads):
        rows.append(
            [
                f"{the_model.name} {workload['label']} at {format_intensity(workload['intensity_flop_per_byte'])}",
                *(
                    f"{format_flop_per_s(c['points'][index]['y'])}, {c['points'][index]['bound']}-bound"
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
        "curves": curves,
    }


# --- Arithmetic-intensity number line ------------------------------------------------------


def intensity_figure(
    *,
    accelerators: Sequence[str] = ("h100-sxm",),
    model: str = "llama-3-70b",
    batch: int = 64,
    prompt_tokens: int = 2048,
    context_tokens: int = 4096,
    dtype: str = "fp16",
    operations: Sequence[str] | None = None,
) -> dict[str, Any]:
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
    _require_values("accelerators", accelerators)
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
    x_lo, x_hi = _decade_range(min(values), max(values))
    rows_count = len(chosen)
    points = [
        {"label": op.name, "x": op.intensity_flop_per_byte, "y": float(rows_count - 1 - index), "bound": op.bound, "role": "operation"}
        for index, op in enumerate(chosen)
    ]
    vlines = [{"x": r, "label": f"{chip.name} ridge {format_intensity(r)}"} for chip, r in zip(chips, ridges)]
    panel = {
        "x_label": "Arithmetic intensity (FLOP/byte)",
        "y_label": "",
        "x_scale": "log",
        "y_scale": "none",
        "x_range": [x_lo, x_hi],
        "y_range": [-0.7, rows_count - 0.3],
        "x_ticks": _log_ticks(x_lo, x_hi, _compact_tick),
        "y_ticks": [],
        "points": points,
        "vlines": vlines,
        "row_labels": True,
        # The accelerator the memory/compute colours refer to, when several ridges are drawn.
        "bound_on": chips[0].name if len(chips) > 1 else "",
    }
    fmt = _dtype_label(dtype)
    lowest, highest = chosen[0], chosen[-1]
    ridge_words = _join([f"{chip.name} at {format_intensity(r)}" for chip, r in zip(chips, ridges)])
    memory_names = [op.name for op in chosen if op.bound == MEMORY]
    alt = (
        f"Arithmetic intensity of {len(chosen)} operations of {the_model.name} in {fmt}, on a log axis from "
        f"{_plain_tick(x_lo)} to {_plain_tick(x_hi)} FLOP/byte: from {lowest.name} at "
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
            *(f"{per_chip[i][op.slug].bound}-bound" for i in range(len(chips))),
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
    }


# --- Decode throughput and step time against batch -----------------------------------------


def _ridge_crossing(xs: Sequence[int], steps: Sequence[StepEstimate], *, exact: bool, weight_dtype: str) -> float | None:
    """Where the sweep crosses the ridge: the critical batch when ``exact``, else the first
    x whose step is compute-bound (None if none is).

    ``exact`` holds when a step's FLOPs and bytes are those of a dense decode with no KV reads,
    so the ridge is met at :func:`~roofline_core.inference.critical_batch`.
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


def decode_batch_figure(
    *,
    model: str = "llama-3-70b",
    accelerator: str = "h100-sxm",
    batches: Sequence[int] = DEFAULT_BATCHES,
    context_tokens: int = 0,
    dtype: str = "fp16",
    weight_dtype: str = "fp16",
    kv_dtype: str = "fp16",
    devices: int = 1,
) -> dict[str, Any]:
    """Decode throughput (top) and step time (bottom) as the batch grows.

    The ridge is crossed at :func:`~roofline_core.inference.critical_batch` for a dense model
    with no KV reads; otherwise at the first batch of the sweep whose step is compute-bound.
    """
    _require_values("batches", batches)
    chip = get_accelerator(accelerator)
    the_model = get_model(model)
    sweep = _sorted_unique(batches)
    decode = _decode_at(the_model, chip, dtype=dtype, weight_dtype=weight_dtype, kv_dtype=kv_dtype, devices=devices)
    estimates = [decode(batch=b, context_tokens=context_tokens) for b in sweep]
    crossing = _ridge_crossing(
        sweep,
        [e.step for e in estimates],
        exact=not the_model.is_moe and context_tokens == 0,
        weight_dtype=weight_dtype,
    )
    throughput = [[b, e.tokens_per_s] for b, e in zip(sweep, estimates)]
    step_times = [[b, e.step_time_s] for b, e in zip(sweep, estimates)]
    x_lo, x_hi = _padded_range(sweep)
    regions = []
    vlines = []
    if crossing is not None and sweep[0] < crossing <= sweep[-1] * 1.5:
        regions = _bound_regions(x_lo, crossing, x_hi)
        vlines = [{"x": crossing, "label": f"ridge at batch {format_number(crossing)}"}]
    # At most 6 labelled ticks: more do not fit side by side at phone width.
    x_ticks = _value_ticks(_thinned(sweep, 6), lambda v: f"{v:,}")
    tp_lo, tp_hi = _decade_range(min(t for _, t in throughput), max(t for _, t in throughput) * 1.5)
    st_lo, st_hi = _decade_range(min(t for _, t in step_times) / 1.5, max(t for _, t in step_times) * 1.5)

    def marks(values: list[list[float]]) -> list[dict[str, Any]]:
        return [{"label": "", "x": b, "y": v, "bound": e.step.bound, "role": "sample"} for (b, v), e in zip(values, estimates)]

    panels = [
        {
            "x_label": "",
            "y_label": "Throughput (tok/s)",
            "x_scale": "log",
            "y_scale": "log",
            "x_range": [x_lo, x_hi],
            "y_range": [tp_lo, tp_hi],
            "x_ticks": x_ticks,
            "y_ticks": _log_ticks(tp_lo, tp_hi, _compact_tick),
            "series": [{"label": "tokens per second, whole batch", "points": throughput, "dashed": False}],
            "points": marks(throughput),
            "regions": regions,
            "vlines": vlines,
        },
        {
            "x_label": "Batch size (sequences)",
            "y_label": "Step time",
            "x_scale": "log",
            "y_scale": "log",
            "x_range": [x_lo, x_hi],
            "y_range": [st_lo, st_hi],
            "x_ticks": x_ticks,
            "y_ticks": _log_ticks(st_lo, st_hi, _time_tick),
            "series": [{"label": "time of one decode step", "points": step_times, "dashed": False}],
            "points": marks(step_times),
            "regions": [{**r, "label": ""} for r in regions],
            "vlines": [{"x": v["x"], "label": ""} for v in vlines],
        },
    ]
    where = _where(chip, devices)
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
            f"{e.step.bound}-bound",
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
        "crossing_batch": crossing,
        "panels": panels,
        "table": {"columns": ["Batch", "Intensity", "Regime", "Step time", "Throughput"], "rows": rows},
    }


# --- KV cache against context --------------------------------------------------------------


def kv_cache_figure(
    *,
    models: Sequence[str] = DEFAULT_KV_MODELS,
    accelerator: str = "h100-sxm",
    batch: int = 1,
    contexts: Sequence[int] = DEFAULT_CONTEXTS,
    kv_dtype: str = "fp16",
) -> dict[str, Any]:
    """KV-cache bytes against context length for several models, with the accelerator's memory."""
    _require_values("models", models)
    _require_values("contexts", contexts)
    chip = get_accelerator(accelerator)
    the_models = [get_model(slug) for slug in models]
    sweep = _sorted_unique(contexts)
    sizes = {
        m.slug: [
            memory_fit(model=m, accelerator=chip, kv_dtype=kv_dtype, batch=batch, context_tokens=c).kv_bytes for c in sweep
        ]
        for m in the_models
    }
    capacity = chip.memory_bytes
    positive = [v for values in sizes.values() for v in values if v > 0]
    y_lo, y_hi = _decade_range(min(positive), max([*positive, capacity * 2]))
    x_lo, x_hi = _padded_range(sweep)
    series = [
        {"label": _model_label(m), "points": [[c, v] for c, v in zip(sweep, sizes[m.slug])], "dashed": False}
        for m in the_models
    ]
    panel = {
        "x_label": "Context length (tokens)",
        "y_label": "KV cache",
        "x_scale": "log",
        "y_scale": "log",
        "x_range": [x_lo, x_hi],
        "y_range": [y_lo, y_hi],
        "x_ticks": _value_ticks(_thinned(sweep, 8), tokens_label),
        "y_ticks": _log_ticks(y_lo, y_hi, lambda v: _prefixed_tick(v, "B")),
        "series": series,
        "points": [
            {"label": "", "x": c, "y": v, "bound": MEMORY, "role": "sample", "series": i}
            for i, m in enumerate(the_models)
            for c, v in zip(sweep, sizes[m.slug])
        ],
        "hlines": [{"y": capacity, "label": f"{chip.name} memory {format_bytes(capacity)}"}],
        "legend": True,
    }
    # Context at which the cache alone fills the memory.
    fill_tokens = {
        m.slug: context_for_kv_bytes(kv_bytes=capacity, kv_bytes_per_token=m.kv_bytes_per_token(kv_dtype), batch=batch)
        for m in the_models
    }
    last = sweep[-1]
    sequences = f"a batch of {batch:,} sequences" if batch > 1 else "one sequence"
    alt = (
        f"KV cache of {sequences} in {_dtype_label(kv_dtype)} against context length, "
        f"{tokens_label(sweep[0])} to {tokens_label(last)} tokens: at {tokens_label(last)} tokens "
        + _join([f"{_model_label(m)} holds {format_bytes(sizes[m.slug][-1])}" for m in the_models])
        + f". The {format_bytes(capacity)} of {chip.name} is filled by the cache alone at "
        + _join([f"{format_number(fill_tokens[m.slug])} tokens for {m.name}" for m in the_models])
        + "."
    )
    rows = [[tokens_label(c), *(format_bytes(sizes[m.slug][i]) for m in the_models)] for i, c in enumerate(sweep)]
    rows.append([f"fills {format_bytes(capacity)} at", *(f"{format_number(fill_tokens[m.slug])} tokens" for m in the_models)])
    return {
        "kind": "kv-cache",
        "title": f"KV cache against context length ({_dtype_label(kv_dtype)}, batch {batch:,})",
        "alt": alt,
        "parameters": {
            "models": list(models),
            "accelerator": accelerator,
            "batch": batch,
            "contexts": sweep,
            "kv_dtype": kv_dtype,
        },
        "fill_tokens": fill_tokens,
        "panels": [panel],
        "table": {"columns": ["Context", *(_model_label(m) for m in the_models)], "rows": rows},
    }


# --- Decode step split into weight and KV-cache reads --------------------------------------


def decode_split_figure(
    *,
    model: str = "llama-3-8b",
    accelerator: str = "h100-sxm",
    batch: int = 8,
    contexts: Sequence[int] = DEFAULT_CONTEXTS,
    dtype: str = "fp16",
    weight_dtype: str = "fp16",
    kv_dtype: str = "fp16",
    devices: int = 1,
) -> dict[str, Any]:
    """Time of one decode step, split into reading the weights and reading the KV cache.

    Each part is its bytes over the devices' bandwidth (:func:`~roofline_core.roofline.op_time_s`
    with no FLOPs); their sum is the step's memory time. The compute time is drawn as a line: the
    step takes the larger of the two. Bars whose batch does not fit in memory are hatched.
    """
    _require_values("contexts", contexts)
    chip = get_accelerator(accelerator)
    the_model = get_model(model)
    sweep = _sorted_unique(contexts)
    decode = _decode_at(the_model, chip, dtype=dtype, weight_dtype=weight_dtype, kv_dtype=kv_dtype, devices=devices)
    estimates = [decode(batch=batch, context_tokens=c) for c in sweep]

    def read_time_s(estimate, bytes_total: float) -> float:
        # Work is split evenly over the devices: each reads 1/devices of the bytes.
        step = estimate.step
        return op_time_s(
            flops=0,
            bytes_moved=bytes_total / step.devices,
            peak_flop_per_s=step.peak_flop_per_s,
            bandwidth_bytes_per_s=step.bandwidth_bytes_per_s,
        )

    def compute_time_s(estimate) -> float:
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
        "x_scale": "category",
        "y_scale": "linear",
        "x_range": [-0.6, len(sweep) - 0.4],
        "y_range": [0.0, top * 1.12],
        "x_ticks": [[i, label] for i, label in enumerate(categories)],
        "y_ticks": _linear_ticks(0.0, top * 1.12, lambda v: _plain_tick(round(v * 1e3, 6))),
        "bars": {
            "categories": categories,
            "stacks": [
                {"label": "reading the weights", "values": weight_s},
                {"label": "reading the KV cache", "values": kv_s},
            ],
            "hatched": [not f for f in fits],
            "hatch_label": f"does not fit in {format_bytes(chip.memory_bytes * devices)}",
        },
        "series": [{"label": "compute at peak", "points": [[i, c] for i, c in enumerate(compute_s)], "dashed": True}],
        "legend": True,
    }
    where = _where(chip, devices)
    # The context at which the batch's cache bytes equal the weight bytes read per step.
    equal_tokens = context_for_kv_bytes(
        kv_bytes=estimates[0].weight_bytes_streamed, kv_bytes_per_token=the_model.kv_bytes_per_token(kv_dtype), batch=batch
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
        alt += f"; from {first_misfit} tokens the batch no longer fits in {format_bytes(chip.memory_bytes * devices)}"
    alt += "."
    rows = [
        [
            categories[i],
            format_time(weight_s[i]),
            format_time(kv_s[i]),
            format_time(compute_s[i]),
            format_time(step_s[i]),
            f"{estimates[i].step.bound}-bound",
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
        "kv_equals_weights_tokens": equal_tokens,
        "panels": [panel],
        "table": {
            "columns": ["Context", "Weights", "KV cache", "Compute", "Step", "Regime", "Fits"],
            "rows": rows,
        },
    }


def _linear_ticks(low: float, high: float, label, count: int = 5) -> list[list[Any]]:
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


# --- Prefill against decode ----------------------------------------------------------------


def prefill_decode_figure(
    *,
    model: str = "llama-3-8b",
    accelerator: str = "h100-sxm",
    prompts: Sequence[int] = DEFAULT_PROMPTS,
    batch: int = 1,
    dtype: str = "fp16",
    weight_dtype: str = "fp16",
    kv_dtype: str = "fp16",
    devices: int = 1,
) -> dict[str, Any]:
    """Time per token of prefill (a prompt of T tokens) and of decode (at T tokens of context).

    Prefill shares one read of the weights among T tokens until it turns compute-bound; decode
    reads them once per step for ``batch`` tokens, so it stays memory-bound.
    """
    _require_values("prompts", prompts)
    chip = get_accelerator(accelerator)
    the_model = get_model(model)
    sweep = _sorted_unique(prompts)
    prefill = [
        estimate_prefill(
            model=the_model,
            accelerator=chip,
            prompt_tokens=t,
            weight_dtype=weight_dtype,
            compute_dtype=dtype,
            devices=devices,
        )
        for t in sweep
    ]
    decode_of = _decode_at(the_model, chip, dtype=dtype, weight_dtype=weight_dtype, kv_dtype=kv_dtype, devices=devices)
    decode = [decode_of(batch=batch, context_tokens=t).step for t in sweep]
    prefill_per_token = [s.step_time_s / s.tokens for s in prefill]
    decode_per_token = [s.step_time_s / s.tokens for s in decode]
    # A dense prefill of T tokens moves the same FLOPs and bytes as a decode batch of T with no
    # KV reads, so it meets the ridge at the critical batch.
    crossing = _ridge_crossing(sweep, prefill, exact=not the_model.is_moe, weight_dtype=weight_dtype)
    x_lo, x_hi = _padded_range(sweep)
    all_times = prefill_per_token + decode_per_token
    # A decade of headroom above the decode line, where the regions are named.
    y_lo, y_hi = _decade_range(min(all_times) / 1.5, max(all_times) * 10)
    regions = []
    vlines = []
    if crossing is not None and x_lo < crossing < x_hi:
        regions = _bound_regions(x_lo, crossing, x_hi, prefix="prefill ")
        vlines = [{"x": crossing, "label": f"ridge at {format_number(crossing)} tokens"}]
    decode_label = f"decode, batch {batch:,} (context = prompt)"
    panel = {
        "x_label": "Prompt length = context (tokens)",
        "y_label": "Time per token",
        "x_scale": "log",
        "y_scale": "log",
        "x_range": [x_lo, x_hi],
        "y_range": [y_lo, y_hi],
        "x_ticks": _value_ticks(_thinned(sweep, 8), tokens_label),
        "y_ticks": _log_ticks(y_lo, y_hi, _time_tick),
        "series": [
            {"label": "prefill", "points": [[t, v] for t, v in zip(sweep, prefill_per_token)], "dashed": False},
            {"label": decode_label, "points": [[t, v] for t, v in zip(sweep, decode_per_token)], "dashed": True},
        ],
        "points": [
            {"label": "", "x": t, "y": v, "bound": s.bound, "role": "sample", "series": 0}
            for t, v, s in zip(sweep, prefill_per_token, prefill)
        ]
        + [
            {"label": "", "x": t, "y": v, "bound": s.bound, "role": "sample", "series": 1}
            for t, v, s in zip(sweep, decode_per_token, decode)
        ],
        "regions": regions,
        "vlines": vlines,
        "legend": True,
    }
    where = _where(chip, devices)
    compute_rows = [(t, v) for t, v, s in zip(sweep, prefill_per_token, prefill) if s.bound == COMPUTE]
    alt = (
        f"Time per token of {the_model.name} on {where} against prompt length, {tokens_label(sweep[0])} to "
        f"{tokens_label(sweep[-1])} tokens: prefill costs {format_time(prefill_per_token[0])} per token for a "
        f"{tokens_label(sweep[0])}-token prompt"
    )
    if compute_rows and crossing is not None:
        alt += (
            f" and levels off at {format_time(compute_rows[-1][1])} per token once it turns compute-bound at about "
            f"{format_number(crossing)} tokens"
        )
    else:
        alt += f" and {format_time(prefill_per_token[-1])} at {tokens_label(sweep[-1])} tokens, memory-bound throughout"
    decode_bounds = {s.bound for s in decode}
    decode_regime = f"{decode_bounds.pop()}-bound" if len(decode_bounds) == 1 else "crossing the ridge"
    alt += (
        f"; decode at batch {batch:,} takes {format_time(decode_per_token[0])} per token with "
        f"{tokens_phrase(sweep[0])} of context and {format_time(decode_per_token[-1])} with "
        f"{tokens_phrase(sweep[-1])}, {decode_regime}."
    )
    rows = [
        [
            tokens_label(t),
            format_time(p),
            f"{ps.bound}-bound",
            format_time(d),
            f"{ds.bound}-bound",
        ]
        for t, p, ps, d, ds in zip(sweep, prefill_per_token, prefill, decode_per_token, decode)
    ]
    return {
        "kind": "prefill-decode",
        "title": f"Prefill against decode, time per token: {the_model.name} on {where}",
        "alt": alt,
        "parameters": {
            "model": model,
            "accelerator": accelerator,
            "prompts": sweep,
            "batch": batch,
            "dtype": dtype,
            "weight_dtype": weight_dtype,
            "kv_dtype": kv_dtype,
            "devices": devices,
        },
        "crossing_tokens": crossing,
        "panels": [panel],
        "table": {
            "columns": ["Prompt / context", "Prefill per token", "Prefill", "Decode per token", "Decode"],
            "rows": rows,
        },
    }


#: Data function of each figure kind.
FIGURE_FUNCTIONS = {
    "roofline": roofline_figure,
    "intensity": intensity_figure,
    "decode-batch": decode_batch_figure,
    "kv-cache": kv_cache_figure,
    "decode-split": decode_split_figure,
    "prefill-decode": prefill_decode_figure,
}


def figure_data(kind: str, **parameters: Any) -> dict[str, Any]:
    """Data of the figure ``kind`` (one of :data:`FIGURE_KINDS`) for ``parameters``.

    Raises:
        KeyError: with the accepted kinds, if ``kind`` is unknown.
    """
    try:
        function = FIGURE_FUNCTIONS[kind]
    except KeyError:
        raise KeyError(f"unknown figure kind {kind!r}; expected one of {', '.join(FIGURE_KINDS)}") from None
    return function(**parameters)
