"""The ``prefill-decode`` figure: time per token of prefill and of decode against prompt length."""

from __future__ import annotations

from collections.abc import Sequence

from roofline_core.estimates.inference import estimate_prefill
from roofline_core.figures._common import (
    DEFAULT_PROMPTS,
    bound_regions,
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
    tokens_label,
    tokens_phrase,
    value_ticks,
)
from roofline_core.figures.parameters import (
    BATCH,
    DEVICES_SPLIT,
    DTYPE,
    KV_DTYPE,
    MODEL,
    PROMPT_TOKENS,
    THE_ACCELERATOR,
    WEIGHT_DTYPE,
    FigureKind,
    FigureParameter,
    defaults,
    format_has_a_peak,
)
from roofline_core.figures.schema import Figure
from roofline_core.formatting import bound_phrase, format_number, format_time
from roofline_core.hardware import get_accelerator
from roofline_core.models import get_model
from roofline_core.roofline import COMPUTE
from roofline_core.vocabulary import ListOf

#: What an author can set, in the order the docs list it.
PARAMETERS: tuple[FigureParameter, ...] = (
    THE_ACCELERATOR,
    FigureParameter("model", "model", MODEL, "the model", "llama-3-8b"),
    FigureParameter(
        "prompt",
        "prompts",
        ListOf(PROMPT_TOKENS),
        "prompt lengths of the sweep (decode uses each as its context)",
        DEFAULT_PROMPTS,
    ),
    FigureParameter("batch", "batch", BATCH, "decode batch size", 1),
    DTYPE,
    WEIGHT_DTYPE,
    KV_DTYPE,
    DEVICES_SPLIT,
)
_DEFAULT = defaults(PARAMETERS)


def prefill_decode_figure(
    *,
    model: str = _DEFAULT["model"],
    accelerator: str = _DEFAULT["accelerator"],
    prompts: Sequence[int] = _DEFAULT["prompts"],
    batch: int = _DEFAULT["batch"],
    dtype: str = _DEFAULT["dtype"],
    weight_dtype: str = _DEFAULT["weight_dtype"],
    kv_dtype: str = _DEFAULT["kv_dtype"],
    devices: int = _DEFAULT["devices"],
) -> Figure:
    """Time per token of prefill (a prompt of T tokens) and of decode (at T tokens of context).

    Prefill shares one read of the weights among T tokens until it turns compute-bound; decode
    reads them once per step for ``batch`` tokens, so it stays memory-bound.
    """
    require_values("prompts", prompts)
    chip = get_accelerator(accelerator)
    the_model = get_model(model)
    sweep = sorted_unique(prompts)
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
    decode_of = decode_at(the_model, chip, dtype=dtype, weight_dtype=weight_dtype, kv_dtype=kv_dtype, devices=devices)
    decode = [decode_of(batch=batch, context_tokens=t).step for t in sweep]
    prefill_per_token = [s.step_time_s / s.tokens for s in prefill]
    decode_per_token = [s.step_time_s / s.tokens for s in decode]
    # A dense prefill of T tokens moves the same FLOPs and bytes as a decode batch of T with no
    # KV reads, so it meets the ridge at the critical batch.
    crossing = ridge_crossing(sweep, prefill, exact=not the_model.is_moe, weight_dtype=weight_dtype)
    x_lo, x_hi = padded_range(sweep)
    all_times = prefill_per_token + decode_per_token
    # A decade of headroom above the decode line, where the regions are named.
    y_lo, y_hi = decade_range(min(all_times) / 1.5, max(all_times) * 10)
    regions = []
    vlines = []
    if crossing is not None and x_lo < crossing < x_hi:
        regions = bound_regions(x_lo, crossing, x_hi, prefix="prefill ")
        vlines = [{"x": crossing, "label": f"ridge at {format_number(crossing)} tokens"}]
    decode_label = f"decode, batch {batch:,} (context = prompt)"
    panel = {
        "x_label": "Prompt length = context (tokens)",
        "y_label": "Time per token (s)",
        "x_unit": "tokens",
        "y_unit": "s",
        "x_scale": "log",
        "y_scale": "log",
        "x_range": [x_lo, x_hi],
        "y_range": [y_lo, y_hi],
        "x_ticks": value_ticks(thinned(sweep, 8), tokens_label),
        "y_ticks": log_ticks(y_lo, y_hi, time_tick),
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
    where = devices_label(chip, devices)
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
    decode_regime = bound_phrase(decode_bounds.pop()) if len(decode_bounds) == 1 else "crossing the ridge"
    alt += (
        f"; decode at batch {batch:,} takes {format_time(decode_per_token[0])} per token with "
        f"{tokens_phrase(sweep[0])} of context and {format_time(decode_per_token[-1])} with "
        f"{tokens_phrase(sweep[-1])}, {decode_regime}."
    )
    rows = [
        [
            tokens_label(t),
            format_time(p),
            bound_phrase(ps.bound),
            format_time(d),
            bound_phrase(ds.bound),
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
        "panels": [panel],
        "table": {
            "columns": ["Prompt / context", "Prefill per token", "Prefill", "Decode per token", "Decode"],
            "rows": rows,
        },
        "facts": {"crossing_tokens": crossing},
    }


PREFILL_DECODE = FigureKind(
    kind="prefill-decode", data=prefill_decode_figure, parameters=PARAMETERS, checks=(format_has_a_peak,)
)
