"""The agentic-session calculator's chart data: each turn's times against its context.

One line a time (time to first token, a whole turn, and the time per output token) through the
turns, each point at the context the turn starts from, on log axes: a line that bends up is a
time that grows with the context. Turns whose cache had to come back from an offload tier are
marked. ``roofline_core.view.session_chart`` lays it out.
"""

from __future__ import annotations

import math
from typing import Any

from roofline_core.formatting import format_time, format_whole
from roofline_core.questions.session import SessionResult

KIND = "session"
#: The lines drawn, in order: (id, label, the Turn field).
LINES: tuple[tuple[str, str, str], ...] = (
    ("turn", "whole turn", "turn_s"),
    ("ttft", "time to first token", "ttft_s"),
    ("tpot", "time per output token", "tpot_s"),
)


def _decades(values: list[float]) -> list[float]:
    finite = [v for v in values if 0 < v < math.inf] or [1.0]
    lo, hi = min(finite), max(finite)
    lo_e, hi_e = math.floor(math.log10(lo)), math.ceil(math.log10(hi))
    return [10.0**lo_e, 10.0 ** max(hi_e, lo_e + 1)]


def _padded(values: list[float]) -> list[float]:
    """A quarter either side, not whole decades (a session's contexts often span less than one),
    widened down to a decade when none falls inside, so the axis has a tick to read."""
    lo, hi = min(values) / 1.25, max(values) * 1.25
    if math.floor(math.log10(hi)) < math.ceil(math.log10(lo)):
        lo = 10.0 ** math.floor(math.log10(lo))
    return [lo, hi]


def session_chart(result: SessionResult) -> dict[str, Any]:
    """The chart data of ``result``'s turns.

    Returns:
        ``{"kind": "session", "x_range" (tokens), "y_range" (s), "series": [{"id", "label",
        "points": [[context, seconds], ...]}], "points": [{"x", "y", "label", "role"}],
        "title"}``; points with a time of 0 are left out (a log axis has no 0).
    """
    turns = result.turns
    series = []
    for line_id, label, name in LINES:
        points = [[t.context_tokens, getattr(t, name)] for t in turns if getattr(t, name) > 0]
        series.append({"id": line_id, "label": label, "points": points})
    marks = []
    for t in turns:
        # Label the first and last turns only: a label a turn would bury a phone-width chart.
        named = t.index in (1, len(turns))
        role = "offload" if t.transfer_s > 0 else "turn"
        if named or role == "offload":
            marks.append(
                {"x": t.context_tokens, "y": t.turn_s, "label": f"turn {t.index}" if named else "", "role": role}
            )
    xs = [float(t.context_tokens) for t in turns]
    ys = [p[1] for s in series for p in s["points"]]
    first, last = turns[0], turns[-1]
    offloaded = [t.index for t in turns if t.transfer_s > 0]
    title = (
        f"Each turn's times against its context, from {format_whole(first.context_tokens)} to "
        f"{format_whole(last.context_tokens)} tokens: the first turn takes {format_time(first.turn_s)} "
        f"(first token {format_time(first.ttft_s)}), the last {format_time(last.turn_s)} (first token "
        f"{format_time(last.ttft_s)}, {format_time(last.tpot_s)} a token)"
        + (f"; turns {offloaded[0]} to {offloaded[-1]} bring cache back from the offload tier" if offloaded else "")
    )
    return {
        "kind": KIND,
        "x_range": _padded(xs),
        "y_range": _decades(ys),
        "series": series,
        "points": marks,
        "title": title,
    }


def is_session_chart(chart: Any) -> bool:
    """Whether ``chart`` is :func:`session_chart`'s data."""
    return isinstance(chart, dict) and chart.get("kind") == KIND
