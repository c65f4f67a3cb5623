"""The shape of figure data: what :func:`roofline_core.figures.figure_data` returns.

Figure data is plain JSON-ready Python (dicts, lists, strings, numbers), so it can be hashed,
cached, sent to a browser or read in a notebook; these ``TypedDict`` classes describe it for
readers and type checkers. The site draws it with matplotlib (``roofline_site.figures``).

Coordinates are SI (FLOP/byte, FLOP/s, bytes, seconds, tokens); only tick labels are scaled.
Keys listed under a class's ``_...Required`` base are always present; the others may be absent.
"""

from __future__ import annotations

from typing import Any, Literal, TypedDict

Scale = Literal["log", "linear", "category", "none"]
"""How an axis maps values: ``"category"`` places bars at 0, 1, 2, ...; ``"none"`` hides it."""

Bound = Literal["memory", "compute"]
"""Which roof limits a point (``roofline_core.roofline.MEMORY`` or ``COMPUTE``)."""

Tick = list[Any]
"""``[value, label]``: a tick at ``value`` (SI units) labelled with the text ``label``."""

XY = list[float]
"""``[x, y]``: one point of a line, in SI units."""


class _SeriesRequired(TypedDict):
    label: str
    points: list[XY]
    dashed: bool


class Series(_SeriesRequired, total=False):
    """A line through ``points`` (in order), named ``label`` in the legend; a ``reference`` line
    (a diagonal to read points against) is drawn thin and neutral rather than in a series colour."""

    reference: bool


class _PointRequired(TypedDict):
    label: str
    x: float
    y: float
    bound: Bound
    role: Literal["ridge", "workload", "operation", "sample"]


class Point(_PointRequired, total=False):
    """A marker coloured by its ``bound``.

    ``role`` picks its look: ``"ridge"`` (a diamond with a drop line), ``"workload"`` (a labelled
    dot), ``"operation"`` (a row of the intensity number line, labelled above the row) or
    ``"sample"`` (a small dot on the line of series number ``series``). An empty ``label``
    draws no text.
    """

    series: int


class VerticalLine(TypedDict):
    """A vertical line at ``x``; a non-empty ``label`` names it (beside it or in the legend)."""

    x: float
    label: str


class HorizontalLine(TypedDict):
    """A horizontal line at ``y``, labelled ``label`` (a capacity, for example)."""

    y: float
    label: str


class Region(TypedDict):
    """A band from ``x0`` to ``x1`` shaded in its ``bound``'s colour, named ``label`` (or not, if empty)."""

    x0: float
    x1: float
    label: str
    bound: Bound


class Note(TypedDict):
    """Text at data coordinates; ``slope`` sets it along a roof's slanted segment."""

    text: str
    x: float
    y: float
    slope: bool


class ScatterGroup(TypedDict):
    """Unlabelled points of one kind, drawn with one marker and named ``label`` in the legend."""

    label: str
    points: list[XY]


class Stack(TypedDict):
    """One layer of stacked bars: a value per category (SI units)."""

    label: str
    values: list[float]


class Bars(TypedDict):
    """Stacked bars, one per category; a hatched bar is explained by ``hatch_label`` in the legend."""

    categories: list[str]
    stacks: list[Stack]
    hatched: list[bool]
    hatch_label: str


class _PanelRequired(TypedDict):
    x_label: str
    y_label: str
    x_scale: Scale
    y_scale: Scale
    x_range: list[float]
    y_range: list[float]
    x_ticks: list[Tick]
    y_ticks: list[Tick]
    #: The SI unit of the coordinates (``"FLOP/byte"``, ``"s"``, ``"B"``; ``""`` for a category
    #: or unscaled axis), whatever prefix the label and ticks show: a CSV of the data names it.
    x_unit: str
    y_unit: str


class Panel(_PanelRequired, total=False):
    """One plot area. Panels of a figure are drawn top to bottom.

    Attributes beyond the axes:
        series: Lines.
        points: Markers.
        vlines: Vertical lines.
        hlines: Horizontal lines.
        regions: Shaded memory- and compute-bound bands.
        notes: Text at data coordinates.
        bars: Stacked bars (with ``x_scale`` ``"category"``).
        scatter: Groups of unlabelled points (measurements), each in the legend.
        legend: Whether the panel has a legend (labels of series, bars and vlines).
        row_labels: Whether each point is a labelled row (the intensity number line).
        bound_on: The accelerator the bound colours refer to, when several are drawn.
    """

    series: list[Series]
    points: list[Point]
    vlines: list[VerticalLine]
    hlines: list[HorizontalLine]
    regions: list[Region]
    notes: list[Note]
    bars: Bars
    scatter: list[ScatterGroup]
    legend: bool
    row_labels: bool
    bound_on: str


class Table(TypedDict):
    """The plotted numbers as text: one list of cells per row, as many as ``columns``."""

    columns: list[str]
    rows: list[list[str]]


class _CurvePointRequired(TypedDict):
    label: str
    x: float
    y: float
    bound: Bound


class CurvePoint(_CurvePointRequired, total=False):
    """A workload on a roof: intensity ``x`` (FLOP/byte), attainable ``y`` (FLOP/s)."""

    highlight: bool


class _CurveOptions(TypedDict, total=False):
    """What a roofline curve may add: the chip's other memory roof, drawn dashed (``{"label",
    "bandwidth_bytes_per_s", "ridge_flop_per_byte", "roof"}``; the calculators' memory-roof switch)."""

    other_roof: dict[str, Any]


class RooflineCurve(_CurveOptions):
    """One accelerator's roof (:func:`roofline_core.figures.roofline_curve`; the calculators' chart).

    ``roof`` is three ``[FLOP/byte, FLOP/s]`` points (the roof is straight on log-log axes);
    ranges are ``[low, high]``.
    """

    ridge_flop_per_byte: float
    peak_flop_per_s: float
    bandwidth_bytes_per_s: float
    x_range: list[float]
    y_range: list[float]
    roof: list[XY]
    points: list[CurvePoint]


class Facts(TypedDict, total=False):
    """Numbers a figure is built from that it does not draw as such; the drawing ignores them.

    They let a reader (or a test) check the picture against ``roofline_core`` without reading
    it back from lines and labels. Each kind has its own.

    Attributes:
        curves: ``roofline``: each accelerator's roof at the figure's common axis range.
        crossing_batch: ``decode-batch``: the batch at which decode crosses the ridge (None if
            the sweep never does).
        fill_tokens: ``kv-cache``: per model slug, the context (tokens) at which the cache alone
            fills the accelerator's memory.
        kv_equals_weights_tokens: ``decode-split``: the context (tokens) at which the batch's
            KV-cache reads equal the weight reads.
        crossing_tokens: ``prefill-decode``: the prompt length (tokens) at which prefill turns
            compute-bound (None if it does not in the sweep).
    """

    curves: list[RooflineCurve]
    crossing_batch: float | None
    fill_tokens: dict[str, float]
    kv_equals_weights_tokens: float
    crossing_tokens: float | None


class _FigureRequired(TypedDict):
    kind: str
    title: str
    alt: str
    parameters: dict[str, Any]
    panels: list[Panel]
    table: Table
    facts: Facts


class Figure(_FigureRequired, total=False):
    """One figure's data.

    Attributes:
        kind: Which figure (one of ``roofline_core.figures.FIGURE_KINDS``).
        title: A one-line title.
        alt: The alternative text: what the figure shows, with the numbers this package computes.
        parameters: The inputs after defaults were filled in (slugs and numbers), by argument name.
        panels: Plot areas, top to bottom.
        table: The plotted numbers as text.
        facts: Numbers behind the figure that are not drawn (see :class:`Facts`).
        caption: An author's sentence under the title (added by the site, never by this package).
    """

    caption: str
