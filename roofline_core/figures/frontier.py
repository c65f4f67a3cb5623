"""The throughput-interactivity frontier: tokens/s per device against tokens/s per user.

Each point is one tensor-parallel size and one decode batch of a scenario: its decode step is
the continuous-batching step of :class:`~roofline_core.estimates.mixed_step.MixedSteps` (no
prefill chunk beside it), at the fitted shares of peak, so

- tokens/s per user = ``1 / step``: what one sequence sees;
- tokens/s per device = ``batch / (step x TP)``: what the chip earns.

A larger batch trades the first for the second. The **frontier** is the points no other point
beats on both (the upper-right edge): for a target speed per user, the frontier's point at or
above it is the configuration that serves it with the fewest devices. Batches stop where the KV
cache of the batch no longer fits beside the weights. The chart data is read by
``roofline_core.view.frontier_chart``; this module decides only the numbers and the words.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from roofline_core.estimates.mixed_step import MixedSteps
from roofline_core.evidence.serving_points import ServingPoint, serving_points
from roofline_core.formatting import format_number, format_whole
from roofline_core.models.tensor_split import tensor_parallel_refusal

#: Marks which chart data is this one.
KIND = "frontier"
#: Tensor-parallel sizes drawn: one node's NVLink domain at most.
FRONTIER_TP_SIZES: tuple[int, ...] = (1, 2, 4, 8)
#: Decode batches drawn for each size (powers of two, as serving benchmarks sweep concurrency).
FRONTIER_BATCHES: tuple[int, ...] = tuple(2**i for i in range(11))


@dataclass(frozen=True)
class FrontierPoint:
    """One configuration: ``tp`` devices decoding ``batch`` sequences.

    Attributes:
        tp: Devices per replica.
        batch: Sequences decoded together.
        step_s: The decode step, realistic, in seconds.
    """

    tp: int
    batch: int
    step_s: float

    @property
    def tokens_per_s_per_user(self) -> float:
        return 1.0 / self.step_s

    @property
    def tokens_per_s_per_device(self) -> float:
        return self.batch / (self.step_s * self.tp)

    @property
    def label(self) -> str:
        return f"TP={self.tp} × {format_whole(self.batch)}"


def frontier_points(steps: MixedSteps, *, tp_sizes: tuple[int, ...] = FRONTIER_TP_SIZES) -> list[FrontierPoint]:
    """Every (TP, batch) of :data:`FRONTIER_BATCHES` whose weights and KV cache fit, for the
    sizes of ``tp_sizes`` the model splits over (as vLLM splits it)."""
    points = []
    for tp in tp_sizes:
        if tensor_parallel_refusal(steps.model, tp) is not None:
            continue
        for batch in FRONTIER_BATCHES:
            if not steps.memory(tp, batch, steps.context_tokens).fits:
                break
            points.append(FrontierPoint(tp=tp, batch=batch, step_s=steps.step_s(tp, batch, 0)))
    return points


def pareto(points: list[FrontierPoint]) -> list[FrontierPoint]:
    """The points no other beats on both axes, from the most tokens/s per device (slowest per
    user) to the fastest per user."""
    frontier: list[FrontierPoint] = []
    best_per_device = -math.inf
    # Fastest per user first: a point joins when it earns more per device than every faster one.
    for point in sorted(points, key=lambda p: (-p.tokens_per_s_per_user, -p.tokens_per_s_per_device)):
        if point.tokens_per_s_per_device > best_per_device:
            frontier.append(point)
            best_per_device = point.tokens_per_s_per_device
    return frontier[::-1]


def reading(frontier: list[FrontierPoint]) -> str:
    """One sentence that reads the frontier: where one TP size takes over from another."""
    if not frontier:
        return "No tensor-parallel size holds the model and one sequence's cache."
    segments: list[list[FrontierPoint]] = []
    for point in frontier:
        if segments and segments[-1][0].tp == point.tp:
            segments[-1].append(point)
        else:
            segments.append([point])
    if len(segments) == 1:
        tp = segments[0][0].tp
        return (
            f"TP={tp} replicas give the most tokens/s per device at every speed per user shown, up to "
            f"{format_number(frontier[-1].tokens_per_s_per_user)} tokens/s per user at one sequence."
        )
    clauses = []
    for slower, faster in zip(segments, segments[1:]):
        edge = faster[0].tokens_per_s_per_user
        clauses.append(
            f"above {format_number(edge)} tokens/s per user, TP={faster[0].tp} replicas beat TP={slower[0].tp}"
        )
    first = clauses[0][0].upper() + clauses[0][1:]
    rest = "; ".join(clauses[1:])
    top = frontier[-1]
    return (
        f"{first} on tokens/s per device{'; ' + rest if rest else ''}; no configuration serves more than "
        f"{format_number(top.tokens_per_s_per_user)} tokens/s per user ({top.label})."
    )


def _measured_groups(measured: tuple[ServingPoint, ...]) -> list[dict[str, Any]]:
    """The measured points by engine and devices, then by lengths, each point with its
    concurrency and its figures in words, in the table's order."""
    groups: dict[tuple[Any, ...], dict[str, Any]] = {}
    for m in measured:
        key = (m.engine, m.engine_version, m.devices)
        if key not in groups:
            # The engine's name before any parenthesis ("NVIDIA NIM (TensorRT-LLM)"): the line is short.
            engine = m.engine.split(" (")[0]
            version = "" if m.engine_version == "not stated" else f" {m.engine_version}"
            devices = f"{m.devices} device{'s' if m.devices > 1 else ''}"
            groups[key] = {"run": f"{engine}{version} on {devices}", "lengths": {}}
        lengths = f"{format_whole(m.input_tokens)}/{format_whole(m.output_tokens)}"
        per_user = "" if m.tpot_ms is not None else " (the rate ÷ the requests, first tokens included)"
        groups[key]["lengths"].setdefault(lengths, []).append(
            {
                "row": m.row_id,
                "concurrency": m.concurrency,
                "text": (
                    f"{format_number(m.tokens_per_s_per_user)} tokens/s per user{per_user}, "
                    f"{format_number(m.tokens_per_s_per_device)} per device"
                ),
            }
        )
    return [
        {"run": g["run"], "lengths": [{"lengths": k, "points": v} for k, v in g["lengths"].items()]}
        for g in groups.values()
    ]


def _decades(lo: float, hi: float) -> list[float]:
    return [10.0 ** math.floor(math.log10(lo)), 10.0 ** math.ceil(math.log10(hi))]


def frontier_chart(
    steps: MixedSteps,
    *,
    accelerator_name: str,
    operating_point: tuple[float, float, str] | None = None,
    tp_sizes: tuple[int, ...] = FRONTIER_TP_SIZES,
    measured_for: tuple[str, str, str] | None = None,
) -> dict[str, Any]:
    """The chart data of the frontier.

    Args:
        steps: The scenario's step times (model, chip, formats, context).
        accelerator_name: The chip's name, for the title.
        operating_point: ``(tokens/s per user, tokens/s per device, label)`` of a plan to mark
            (its prefill chunks make it land below the decode-only frontier), or None.
        tp_sizes: The sizes to draw.
        measured_for: ``(model, accelerator, weight format)`` slugs whose cited serving
            measurements (:mod:`roofline_core.evidence.serving_points`) are drawn beside the
            frontier, or None.

    Returns:
        ``{"kind": "frontier", "x_range", "y_range" (tokens/s, log), "series": [{"label",
        "tp", "points": [[per user, per device], ...]}], "frontier": [[x, y], ...],
        "points": [{"x", "y", "label", "role": "frontier" | "measured" | "plan"}] (a measured
        point has its table row's id as ``"row"``), "measured": [{"run": str, "lengths": [{"lengths":
        str, "points": [{"row", "concurrency", "text"}]}]}] (the measured points by engine and
        devices, then lengths: ``"5,000/500"`` tokens in and out), "reading": str, "title": str}``.
    """
    points = frontier_points(steps, tp_sizes=tp_sizes)
    edge = pareto(points)
    xs = [p.tokens_per_s_per_user for p in points] or [1.0]
    ys = [p.tokens_per_s_per_device for p in points] or [1.0]
    measured = (
        ()
        if measured_for is None
        else serving_points(model=measured_for[0], accelerator=measured_for[1], weight_format=measured_for[2])
    )
    xs += [m.tokens_per_s_per_user for m in measured]
    ys += [m.tokens_per_s_per_device for m in measured]
    if operating_point is not None:
        xs.append(operating_point[0])
        ys.append(operating_point[1])
    series = []
    for tp in sorted({p.tp for p in points}):
        mine = [p for p in points if p.tp == tp]
        series.append(
            {
                "label": f"TP={tp}",
                "tp": tp,
                "points": [[p.tokens_per_s_per_user, p.tokens_per_s_per_device] for p in mine],
            }
        )
    # Only where the frontier changes hands (and its two ends) is named: a label at every
    # point would bury the chart at phone width.
    named = {0, len(edge) - 1} | {i for i in range(1, len(edge)) if edge[i].tp != edge[i - 1].tp}
    marks = [
        {
            "x": p.tokens_per_s_per_user,
            "y": p.tokens_per_s_per_device,
            "label": p.label if i in named else "",
            "role": "frontier",
        }
        for i, p in enumerate(edge)
    ]
    # Unlabelled on the chart (a phone-width chart has no room); the list under it names each.
    marks += [
        {
            "x": m.tokens_per_s_per_user,
            "y": m.tokens_per_s_per_device,
            "label": "",
            "role": "measured",
            "row": m.row_id,
        }
        for m in measured
    ]
    if operating_point is not None:
        x, y, label = operating_point
        marks.append({"x": x, "y": y, "label": label, "role": "plan"})
    sentence = reading(edge)
    cited = (
        f" Squares: {len(measured)} cited measurement{'s' if len(measured) > 1 else ''} of this model, chip and "
        "weight format."
        if measured
        else ""
    )
    return {
        "kind": KIND,
        "x_range": _decades(min(xs), max(xs)),
        "y_range": _decades(min(ys), max(ys)),
        "series": series,
        "frontier": [[p.tokens_per_s_per_user, p.tokens_per_s_per_device] for p in edge],
        "points": marks,
        "measured": _measured_groups(measured),
        "reading": sentence,
        "title": f"Tokens/s per device against tokens/s per user on {accelerator_name}. {sentence}{cited}",
    }


def is_frontier_chart(chart: Any) -> bool:
    """Whether ``chart`` is :func:`frontier_chart`'s data."""
    return isinstance(chart, dict) and chart.get("kind") == KIND
