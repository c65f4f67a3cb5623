"""The ``kv-cache`` figure: KV-cache bytes against context length, with the accelerator's memory."""

from __future__ import annotations

import math
from collections.abc import Sequence

from roofline_core.estimates.inference import memory_fit
from roofline_core.figures._common import (
    DEFAULT_CONTEXTS,
    DEFAULT_KV_MODELS,
    decade_range,
    dtype_label,
    join_words,
    log_ticks,
    model_label,
    padded_range,
    prefixed_tick,
    require_values,
    sorted_unique,
    thinned,
    tokens_label,
    value_ticks,
)
from roofline_core.figures.parameters import (
    ACCELERATOR,
    BATCH,
    CONTEXT_TOKENS,
    KV_DTYPE,
    MAX_COMPARED,
    MODEL,
    FigureKind,
    FigureParameter,
    defaults,
)
from roofline_core.figures.schema import Figure
from roofline_core.formatting import format_bytes, format_number
from roofline_core.hardware import get_accelerator
from roofline_core.models import get_model
from roofline_core.roofline import MEMORY
from roofline_core.vocabulary import ListOf

#: What an author can set, in the order the docs list it.
PARAMETERS: tuple[FigureParameter, ...] = (
    FigureParameter("accelerator", "accelerator", ACCELERATOR, "accelerator whose memory is drawn", "h100-sxm"),
    FigureParameter("models", "models", ListOf(MODEL, most=MAX_COMPARED), "models to compare", DEFAULT_KV_MODELS),
    FigureParameter("batch", "batch", BATCH, "sequences whose caches add up", 1),
    FigureParameter("context", "contexts", ListOf(CONTEXT_TOKENS), "context lengths of the sweep", DEFAULT_CONTEXTS),
    KV_DTYPE,
)
_DEFAULT = defaults(PARAMETERS)


def kv_cache_figure(
    *,
    models: Sequence[str] = _DEFAULT["models"],
    accelerator: str = _DEFAULT["accelerator"],
    batch: int = _DEFAULT["batch"],
    contexts: Sequence[int] = _DEFAULT["contexts"],
    kv_dtype: str = _DEFAULT["kv_dtype"],
) -> Figure:
    """KV-cache bytes against context length for several models, with the accelerator's memory."""
    require_values("models", models)
    require_values("contexts", contexts)
    chip = get_accelerator(accelerator)
    the_models = [get_model(slug) for slug in models]
    sweep = sorted_unique(contexts)
    sizes = {
        m.slug: [
            memory_fit(model=m, accelerator=chip, kv_dtype=kv_dtype, batch=batch, context_tokens=c).kv_bytes
            for c in sweep
        ]
        for m in the_models
    }
    capacity = chip.fit_memory_bytes
    positive = [v for values in sizes.values() for v in values if v > 0]
    y_lo, y_hi = decade_range(min(positive), max([*positive, capacity * 2]))
    x_lo, x_hi = padded_range(sweep)
    series = [
        {"label": model_label(m), "points": [[c, v] for c, v in zip(sweep, sizes[m.slug])], "dashed": False}
        for m in the_models
    ]
    panel = {
        "x_label": "Context length (tokens)",
        "y_label": "KV cache (bytes)",
        "x_unit": "tokens",
        "y_unit": "B",
        "x_scale": "log",
        "y_scale": "log",
        "x_range": [x_lo, x_hi],
        "y_range": [y_lo, y_hi],
        "x_ticks": value_ticks(thinned(sweep, 8), tokens_label),
        "y_ticks": log_ticks(y_lo, y_hi, lambda v: prefixed_tick(v, "B")),
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
        m.slug: m.context_for_kv_bytes(kv_bytes=capacity, batch=batch, kv_dtype=kv_dtype) for m in the_models
    }
    last = sweep[-1]
    sequences = f"a batch of {batch:,} sequences" if batch > 1 else "one sequence"
    alt = (
        f"KV cache of {sequences} in {dtype_label(kv_dtype)} against context length, "
        f"{tokens_label(sweep[0])} to {tokens_label(last)} tokens: at {tokens_label(last)} tokens "
        + join_words([f"{model_label(m)} holds {format_bytes(sizes[m.slug][-1])}" for m in the_models])
        + f". The {format_bytes(capacity)} of {chip.name} is filled by the cache alone at "
        + join_words([f"{_tokens_text(fill_tokens[m.slug])} for {m.name}" for m in the_models])
        + "."
    )
    rows = [[tokens_label(c), *(format_bytes(sizes[m.slug][i]) for m in the_models)] for i, c in enumerate(sweep)]
    rows.append([f"fills {format_bytes(capacity)} at", *(_tokens_text(fill_tokens[m.slug]) for m in the_models)])
    return {
        "kind": "kv-cache",
        "title": f"KV cache against context length ({dtype_label(kv_dtype)}, batch {batch:,})",
        "alt": alt,
        "parameters": {
            "models": list(models),
            "accelerator": accelerator,
            "batch": batch,
            "contexts": sweep,
            "kv_dtype": kv_dtype,
        },
        "panels": [panel],
        "table": {"columns": ["Context", *(model_label(m) for m in the_models)], "rows": rows},
        "facts": {"fill_tokens": fill_tokens},
    }


KV_CACHE = FigureKind(kind="kv-cache", data=kv_cache_figure, parameters=PARAMETERS)


def _tokens_text(tokens: float) -> str:
    """A context length, or "no context" when every layer slides and the cache never fills."""
    return "no context (every layer slides)" if math.isinf(tokens) else f"{format_number(tokens)} tokens"
