"""How the page shows a comparison of scenario A (pinned) and B (the form): two small tables.

The first lists every result in A and B with B's ratio to A, marking the ones that changed; the second
takes the inputs that differ one at a time and gives each one's effect on the main result, with
what the change means underneath (a chip's bandwidth, a format's bytes per value).
"""

from __future__ import annotations

from roofline_core.calculators import CALCULATORS
from roofline_core.calculators.compare import Comparison, effect_text, ratio_text
from roofline_core.view.nodes import Node, node
from roofline_core.view.prose import is_prose

HEADING = "A (pinned) against B (the inputs above)"
#: Where the summary at the top of the results sends the reader for every result and the why.
DETAILS_NOTE = "Every result and why it changed: below the results."


def comparison_tree(comparison: Comparison) -> Node:
    """The comparison as a ``section[data-compare-view]`` tree."""
    calc = CALCULATORS[comparison.calculator_id]
    heading = node("h3", {"class": "roofline-calc__compare-title"}, HEADING)
    if comparison.errors_a or comparison.errors_b:
        # Only A can be wrong here (B's errors are shown at its fields); A comes from a link.
        problems = "; ".join({**comparison.errors_a, **comparison.errors_b}.values())
        text = f"The pinned scenario A cannot be computed: {problems}. Pin the inputs above as A again."
        return _section(heading, node("p", {}, text))
    parts: list[Node] = [heading, _results_table(comparison)]
    if not comparison.changes:
        parts.append(node("p", {}, "A and B have the same inputs: change an input above to compare."))
        return _section(*parts)
    label = next((o.label for o in calc.outputs if o.id == comparison.explained), None)
    if label is not None:
        parts.append(node("h4", {"class": "roofline-calc__compare-why"}, f"Why {label.lower()} changed"))
    parts.append(_changes_table(comparison, label))
    total = comparison.total_effect
    if label is not None and total is not None:
        parts.append(
            node(
                "p",
                {"class": "roofline-calc__compare-note"},
                f"Each row moves one input from A's value to B's, in this order, with the rest held; the "
                f"effects multiply to the whole change, {ratio_text(total)}. Inputs interact, so a row's "
                "effect can depend on the rows above it.",
            )
        )
    return _section(*parts)


def comparison_summary(comparison: Comparison) -> Node:
    """The comparison in one line, for the top of the results: the main number in A and in B,
    with B's ratio to A (``div[data-compare-summary]``); the tables stay below the results.

    The main number is the one the changes explain; without one (words, or zero in A), the first
    headline result.
    """
    calc = CALCULATORS[comparison.calculator_id]
    if comparison.errors_a or comparison.errors_b:
        return _summary(node("p", {}, "Comparing: the pinned scenario A cannot be computed (details below)."))
    main = next((o for o in comparison.outputs if o.output_id == comparison.explained), None)
    if main is None:
        main = next((o for o in comparison.outputs if o.output_id in calc.headline), comparison.outputs[0])
    ratio = (
        [
            " ",
            node(
                "span",
                {"class": "roofline-calc__compare-ratio", "data-compare-ratio": ""},
                f"({effect_text(main.ratio)})",
            ),
        ]
        if main.ratio is not None and main.changed
        else []
    )
    line = node(
        "p",
        {"class": "roofline-calc__compare-main"},
        node("span", {"class": "roofline-calc__compare-label"}, f"{main.label}: "),
        "A ",
        node("strong", {"data-compare-a": ""}, main.a_text),
        " → B ",
        node("strong", {"data-compare-b": ""}, main.b_text),
        *ratio,
    )
    return _summary(line, node("p", {"class": "roofline-calc__compare-note"}, DETAILS_NOTE))


def _summary(*children: Node) -> Node:
    return node("div", {"class": "roofline-calc__compare-summary", "data-compare-summary": ""}, *children)


def _section(*children: Node) -> Node:
    return node("section", {"class": "roofline-calc__compare", "data-compare-view": ""}, *children)


def _results_table(comparison: Comparison) -> Node:
    head = node("tr", {}, *(node("th", {"scope": "col"}, text) for text in ("Result", "A", "B (its ratio to A)")))
    rows = []
    headline = set(CALCULATORS[comparison.calculator_id].headline)
    # The headline results, and the others that changed; sentences (the realistic range, what
    # moves the number) stay in the results above, where they have room.
    shown = [
        out
        for out in comparison.outputs
        if (out.output_id in headline or out.changed) and not (is_prose(out.a_text) or is_prose(out.b_text))
    ]
    for out in shown:
        marker = {"data-changed": ""} if out.changed else {}
        # The ratio in B's cell, not a column of its own: three columns fit a phone's width.
        ratio = (
            [" ", node("span", {"class": "roofline-calc__compare-ratio"}, f"({effect_text(out.ratio)})")]
            if out.ratio is not None and out.changed
            else []
        )
        cells = [
            node("th", {"scope": "row"}, out.label),
            node("td", {}, out.a_text),
            node("td", {}, out.b_text, *ratio),
        ]
        rows.append(node("tr", marker, *cells))
    table = _table("roofline-calc__compare-results", head, rows)
    same = sum(1 for out in comparison.outputs if not out.changed and out.output_id not in headline)
    return (
        table
        if not same
        else node(
            "div",
            {},
            table,
            node("p", {"class": "roofline-calc__compare-note"}, f"{same} other results are the same in A and B."),
        )
    )


def _changes_table(comparison: Comparison, label: str | None) -> Node:
    # Three columns, A and B in one cell, so the table fits a phone's width; the heading above
    # names the result the effects are on.
    columns = ["Input", "A → B"] + (["Effect"] if label is not None else [])
    head = node("tr", {}, *(node("th", {"scope": "col"}, text) for text in columns))
    rows = []
    for change in comparison.changes:
        cells = [node("th", {"scope": "row"}, change.label), node("td", {}, f"{change.a_text} → {change.b_text}")]
        if label is not None:
            cells.append(node("td", {}, effect_text(change.effect)))
        rows.append(node("tr", {"data-changed": ""}, *cells))
        if change.details:
            detail = node("div", {"class": "roofline-calc__prose"}, "; ".join(change.details))
            rows.append(node("tr", {"class": "roofline-calc__prose-row"}, node("td", {"colspan": len(cells)}, detail)))
    return _table("roofline-calc__compare-changes", head, rows)


def _table(css_class: str, head: Node, rows: list[Node]) -> Node:
    return node(
        "div",
        {"class": f"roofline-calc__table {css_class}"},
        node("table", {}, node("thead", {}, head), node("tbody", {}, *rows)),
    )
