"""Place the calculators of one page: fences out, slots in, HTML for each slot.

Python-Markdown must not touch the calculator HTML (it would wrap or escape parts of it), so
the Markdown gets a one-line placeholder ``<div>`` per fence and the rendered HTML replaces it
after Markdown has run (``fill_slots``).
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Callable

from roofline_site.calculators.fence import find_placements, replace_placements
from roofline_site.calculators.placement import resolve
from roofline_site.calculators.render import AssetUrls, render_calculator

_SLOT = '<div class="roofline-calculator-slot" data-slot="{number}"></div>'
_SLOT_PATTERN = re.compile(r'(?:<p>)?<div class="roofline-calculator-slot" data-slot="(\d+)"></div>(?:</p>)?')


def place_calculators(
    markdown: str,
    *,
    path: str,
    line_offset: int,
    assets_for: Callable[[str], AssetUrls],
) -> tuple[str, list[str]]:
    """Replace each calculator fence with a slot and render its HTML.

    Args:
        markdown: The page's Markdown.
        path: Source path for error messages.
        line_offset: Lines of front matter before ``markdown`` in the source file.
        assets_for: Calculator id -> asset URLs relative to this page.

    Returns:
        The Markdown with slots, and the HTML for slot 0, 1, ...

    Raises:
        FenceError: for any fence that cannot be placed (file and line in the message).
    """
    placements = find_placements(markdown, path=path, line_offset=line_offset)
    if not placements:
        return markdown, []
    seen: Counter[str] = Counter()
    rendered = []
    for placement in placements:
        resolved = resolve(placement, path=path)
        seen[placement.calculator_id] += 1
        count = seen[placement.calculator_id]
        dom_id = f"calculator-{placement.calculator_id}" + (f"-{count}" if count > 1 else "")
        rendered.append(render_calculator(resolved, dom_id=dom_id, assets=assets_for(placement.calculator_id)))
    with_slots = replace_placements(markdown, placements, lambda number, _p: "\n" + _SLOT.format(number=number) + "\n")
    return with_slots, rendered


def fill_slots(html: str, rendered: list[str], *, path: str) -> str:
    """Put each calculator's HTML where its slot ended up in the page's HTML.

    Raises:
        ValueError: when a slot is missing or repeated (a Markdown construct swallowed it).
    """
    found: list[int] = []

    def replace(match: re.Match[str]) -> str:
        number = int(match.group(1))
        found.append(number)
        return rendered[number]

    filled = _SLOT_PATTERN.sub(replace, html)
    if sorted(found) != list(range(len(rendered))):
        raise ValueError(f"{path}: {len(rendered)} calculator(s) placed but {len(found)} found in the HTML; expected each calculator fence at the top level of a Markdown block")
    return filled


def source_line_offset(source: str, markdown: str) -> int:
    """Lines before ``markdown`` in ``source`` (the front matter MkDocs removed)."""
    if markdown and source.endswith(markdown):
        return source[: len(source) - len(markdown)].count("\n")
    return 0
