"""What a time is made of, drawn: a stacked bar of its parts and the equation with their working.

A time-like number (a decode step, a time to first token) carries its parts
(:mod:`roofline_core.estimates.parts`): labelled seconds that add up to it, each with its working,
the formula with the scenario's values. This module lays them out once, for every place that shows
them (a number's popover on an entry, under a calculator's main result, in embeds):

- a bar, one segment per part in the parts' order, its width the part's share of the total. It is
  an SVG stretched to its box, so the widths are viewBox units computed here and the page needs no
  inline style (the CSP forbids them) and no arithmetic in JavaScript. Each segment is coloured by
  its label (``roofline-parts--<label>``, site_assets/calculators/calculators.css), and the bar
  as a whole is an image whose name lists every part with its share in words;
- the equation, ``7.44 ms = 5.19 ms weights read (69.5 GB ÷ 8 devices ÷ 3.35 TB/s) + ...``, each
  term led by a swatch of its segment's colour, so colour is never the only key: the terms come in
  the bar's order and name their part in text.

A rate that is one over a time (tokens per second) shows the parts of the time it inverts, and
says which time that is.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from roofline_core.estimates.parts import LABEL_TEXT, Part
from roofline_core.formatting import format_percent, format_time
from roofline_core.view.nodes import Node, box_text, node

#: The bar's drawing width in viewBox units: a part's segment is its share of this.
BAR_WIDTH = 1000
#: The bar's height in viewBox units (its height on the page is set in CSS).
BAR_HEIGHT = 10
#: Class of the whole drawing, and the prefix of the class naming a part's label.
CLASS = "roofline-parts"


def parts_tree(
    total_s: float,
    parts: Iterable[Part | tuple[str, float]],
    working: Iterable[tuple[str, str]] = (),
    *,
    inverts: str = "",
) -> Node | None:
    """The bar and equation of a time's ``parts``, or None when there is nothing to break down.

    Args:
        total_s: The time the parts add up to, in seconds (what the number shows).
        parts: ``(label, seconds)`` pairs in order, labels from
            :data:`roofline_core.estimates.parts.LABEL_TEXT`; parts of zero seconds are left out.
        working: ``(label, formula text)`` pairs; a part's working follows its term in brackets.
        inverts: For a rate, the time it inverts (``"decode step time"``, ``"a draft-and-verify
            cycle, which yields 2.77 tokens per sequence on average"``); the drawing then names
            it above the bar.

    Returns:
        A ``div.roofline-parts`` tree, or None for no parts or a total that is not positive.

    Raises:
        ValueError: for a label outside the vocabulary (the bar would have no colour and the
            equation no phrase for it).
    """
    shown = [Part(label, float(seconds)) for label, seconds in parts if seconds > 0]
    if not shown or not total_s > 0:
        return None
    unknown = sorted({p.label for p in shown} - set(LABEL_TEXT))
    if unknown:
        raise ValueError(f"parts labelled {unknown}; expected labels of roofline_core.estimates.parts.LABEL_TEXT")
    formulas = _working_by_label(working)
    # Shares of the parts' own sum, so the segments fill the bar exactly even where the parts
    # and the total differ by rounding.
    whole = sum(p.seconds for p in shown)
    total_text = format_time(total_s)
    children: list[Node | str] = []
    if inverts:
        children.append(node("p", {"class": f"{CLASS}__inverts"}, f"The time it inverts: {inverts}."))
    children.append(_bar(shown, whole, total_text))
    children.append(_equation(shown, formulas, total_text))
    return node("div", {"class": CLASS}, *children)


def part_phrase(label: str) -> str:
    """The reader's words for a part (``"kv_cache"`` -> ``"KV cache read"``)."""
    return LABEL_TEXT[label]


def _working_by_label(working: Iterable[tuple[str, str]]) -> dict[str, str]:
    formulas: dict[str, list[str]] = {}
    for label, text in working:
        if text:
            formulas.setdefault(label, []).append(str(text))
    return {label: "; ".join(texts) for label, texts in formulas.items()}


def _bar(parts: Sequence[Part], whole: float, total_text: str) -> Node:
    segments: list[Node] = []
    start = 0.0
    for index, part in enumerate(parts):
        # The last segment ends at the bar's end, whatever the rounding of the others.
        end = BAR_WIDTH if index == len(parts) - 1 else start + part.seconds / whole * BAR_WIDTH
        x, width = round(start, 3), round(end - start, 3)
        title = f"{part_phrase(part.label)}: {format_time(part.seconds)}, {format_percent(part.seconds / whole)}"
        segments.append(
            node(
                "rect",
                {
                    "class": f"{CLASS}__segment {CLASS}--{part.label}",
                    "x": box_text(x),
                    "y": "0",
                    "width": box_text(width),
                    "height": str(BAR_HEIGHT),
                },
                node("title", {}, title),
            )
        )
        start = end
    shares = ", ".join(f"{part_phrase(p.label)} {format_percent(p.seconds / whole)}" for p in parts)
    return node(
        "svg",
        {
            "class": f"{CLASS}__bar",
            "viewBox": f"0 0 {BAR_WIDTH} {BAR_HEIGHT}",
            "preserveAspectRatio": "none",
            "role": "img",
            "aria-label": f"What {total_text} is made of: {shares}",
            "focusable": "false",
        },
        *segments,
    )


def _equation(parts: Sequence[Part], formulas: dict[str, str], total_text: str) -> Node:
    terms: list[Node | str] = [node("span", {"class": f"{CLASS}__total"}, total_text), " = "]
    for index, part in enumerate(parts):
        if index:
            terms.append(" + ")
        key = node("span", {"class": f"{CLASS}__key {CLASS}--{part.label}", "aria-hidden": "true"})
        term: list[Node | str] = [key, f"{format_time(part.seconds)} {part_phrase(part.label)}"]
        if part.label in formulas:
            term.append(node("span", {"class": f"{CLASS}__working"}, f" ({formulas[part.label]})"))
        terms.append(node("span", {"class": f"{CLASS}__term"}, *term))
    return node("p", {"class": f"{CLASS}__equation"}, *terms)
