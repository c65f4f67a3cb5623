"""What moves a result, drawn: a tornado chart of :mod:`roofline_core.questions.sensitivity`'s factors.

One row per factor, largest swing first (the order the factors arrive in): its name, how it
moved, a bar from the centre line for each move (input down, input up) scaled to the largest
change, and the changes as text. The row texts are HTML, so they wrap on a phone; only the bars
are SVG, stretched to the row's width. The whole drawing repeats the output's text, which stays
the accessible version, so it is hidden from assistive technology.
"""

from __future__ import annotations

from typing import Any

from roofline_core.questions.sensitivity import NOTICEABLE
from roofline_core.view.nodes import Node, box_text, node

#: Half the bar's drawing width, in viewBox units: a change as large as the largest one reaches
#: the edge.
HALF_WIDTH = 100
#: Bar height in viewBox units (the SVG keeps the row's height in CSS).
BAR_HEIGHT = 10


def _signed_percent(change: float) -> str:
    return f"{change:+.1%}".replace("-", "\u2212")


def tornado_tree(factors: list[dict[str, Any]], *, measure: str, bound: str) -> Node:
    """The chart for ``factors`` (:meth:`roofline_core.questions.sensitivity.Factor.to_json` each).

    Args:
        factors: Ranked by swing, largest first, as the sensitivity functions return them.
        measure: What changes, for the caption (``"tokens/s per sequence"``).
        bound: Which roof binds the estimate, in words (``"memory-bound"``).
    """
    moving = [f for f in factors if _swing(f) >= NOTICEABLE]
    still = [f["name"].lower() for f in factors if _swing(f) < NOTICEABLE]
    largest = max((_swing(f) for f in moving), default=0.0)
    scale = HALF_WIDTH / largest if largest > 0 else 0.0
    rows = [_row(factor, scale) for factor in moving]
    legend = node(
        "p",
        {"class": "roofline-tornado__legend"},
        node("span", {"class": "roofline-tornado__key roofline-tornado__key--low"}),
        " input down  ",
        node("span", {"class": "roofline-tornado__key roofline-tornado__key--high"}),
        " input up or a smaller format",
    )
    caption = node(
        "p",
        {"class": "roofline-tornado__caption"},
        f"The change in {measure} when each input moves; the longest bar moves it most. This scenario is {bound}."
        + (f" Barely moving it (under {NOTICEABLE:.1%}): {', '.join(still)}." if still else ""),
    )
    return node("div", {"class": "roofline-tornado", "aria-hidden": "true"}, *rows, legend, caption)


def _swing(factor: dict[str, Any]) -> float:
    return max(abs(factor["low_change"]), abs(factor["high_change"]))


def _row(factor: dict[str, Any], scale: float) -> Node:
    moves = [m for m in (factor["low"], factor["high"]) if m]
    name = node("span", {"class": "roofline-tornado__name"}, factor["name"], " ", _moves_text(factor, moves))
    changes = [
        change
        for move, change in ((factor["low"], factor["low_change"]), (factor["high"], factor["high_change"]))
        if move
    ]
    values = node("span", {"class": "roofline-tornado__value"}, " / ".join(_signed_percent(c) for c in changes))
    bars: list[Node] = []
    for move, change, kind in (
        (factor["low"], factor["low_change"], "low"),
        (factor["high"], factor["high_change"], "high"),
    ):
        if move and change != 0:
            length = abs(change) * scale
            bars.append(
                node(
                    "rect",
                    {
                        "class": f"roofline-tornado__bar--{kind}",
                        "x": box_text(round(min(0.0, change * scale), 3)),
                        "y": "0",
                        "width": box_text(round(length, 3)),
                        "height": str(BAR_HEIGHT),
                    },
                )
            )
    axis = node(
        "line",
        {
            "class": "roofline-tornado__axis",
            "x1": "0",
            "x2": "0",
            "y1": "0",
            "y2": str(BAR_HEIGHT),
            "vector-effect": "non-scaling-stroke",
        },
    )
    svg = node(
        "svg",
        {
            "class": "roofline-tornado__bars",
            "viewBox": f"{-HALF_WIDTH} 0 {2 * HALF_WIDTH} {BAR_HEIGHT}",
            "preserveAspectRatio": "none",
            "focusable": "false",
        },
        *bars,
        axis,
    )
    return node("div", {"class": "roofline-tornado__row"}, name, svg, values)


def _moves_text(factor: dict[str, Any], moves: list[str]) -> Node:
    # Each move names its values ("32 \u2192 36", "FP16 \u2192 FP8"): the row says what was tried.
    return node("span", {"class": "roofline-tornado__moves"}, " / ".join(moves))
