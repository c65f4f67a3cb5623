"""Figure data: the lines, points, labels and axis ranges the site draws.

Plain Python data only (no plotting here): the site draws it with matplotlib at build time
(``roofline_site.figures``), and the live calculators can send the same data to the browser for
their charts. Every number comes from the formulas and presets of this package; this package only
arranges them, picks axis ranges and writes the sentences that describe them.

Use::

    from roofline_core.figures import FIGURE_KINDS, figure_data
    figure_data("decode-batch", model="llama-3-70b", batches=[1, 64, 256])

One module per kind (``roofline``, ``intensity``, ``decode_batch``, ``kv_cache``,
``decode_split``, ``prefill_decode``) holds its data function and declares its parameters
(:mod:`roofline_core.figures.parameters`: key, kind of value, range, help, default);
``_common`` holds the axis, tick and wording rules they share; :mod:`roofline_core.figures.schema`
describes the data returned (a :class:`~roofline_core.figures.schema.Figure`).

It may import: ``roofline_core.estimates``, ``roofline_core.evidence`` (the measured-against-estimate
chart), ``roofline_core.vocabulary``, ``roofline_core.models``,
``roofline_core.hardware``, ``roofline_core.formatting``, ``roofline_core.roofline``,
``roofline_core.sources``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from roofline_core.figures._common import (
    DEFAULT_BATCHES,
    DEFAULT_CONTEXTS,
    DEFAULT_KV_MODELS,
    DEFAULT_PROMPTS,
    tokens_label,
    tokens_phrase,
)
from roofline_core.figures.decode_batch import DECODE_BATCH, decode_batch_figure
from roofline_core.figures.decode_split import DECODE_SPLIT, decode_split_figure
from roofline_core.figures.intensity import INTENSITY, intensity_figure
from roofline_core.figures.kv_cache import KV_CACHE, kv_cache_figure
from roofline_core.figures.parameters import BadValue, FigureKind, FigureParameter
from roofline_core.figures.prefill_decode import PREFILL_DECODE, prefill_decode_figure
from roofline_core.figures.roofline import ROOFLINE, roofline_curve, roofline_figure
from roofline_core.figures.schema import Figure, RooflineCurve

#: Every figure kind by name, in the order the gallery shows them.
FIGURES: dict[str, FigureKind] = {
    figure.kind: figure for figure in (ROOFLINE, INTENSITY, DECODE_BATCH, KV_CACHE, DECODE_SPLIT, PREFILL_DECODE)
}

#: Figure kinds, in the order the gallery shows them.
FIGURE_KINDS: tuple[str, ...] = tuple(FIGURES)

#: Data function of each figure kind.
FIGURE_FUNCTIONS: dict[str, Callable[..., Figure]] = {kind: figure.data for kind, figure in FIGURES.items()}

__all__ = [
    "BadValue",
    "DEFAULT_BATCHES",
    "DEFAULT_CONTEXTS",
    "DEFAULT_KV_MODELS",
    "DEFAULT_PROMPTS",
    "FIGURES",
    "FIGURE_FUNCTIONS",
    "FIGURE_KINDS",
    "Figure",
    "FigureKind",
    "FigureParameter",
    "RooflineCurve",
    "decode_batch_figure",
    "decode_split_figure",
    "figure_data",
    "intensity_figure",
    "kv_cache_figure",
    "prefill_decode_figure",
    "roofline_curve",
    "roofline_figure",
    "tokens_label",
    "tokens_phrase",
]


def figure_data(kind: str, **parameters: Any) -> Figure:
    """Data of the figure ``kind`` (one of :data:`FIGURE_KINDS`) for ``parameters``.

    Raises:
        KeyError: with the accepted kinds, if ``kind`` is unknown.
    """
    try:
        figure = FIGURES[kind]
    except KeyError:
        raise KeyError(f"unknown figure kind {kind!r}; expected one of {', '.join(FIGURE_KINDS)}") from None
    return figure.data(**parameters)
