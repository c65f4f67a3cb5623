"""What each time-like number of a page is made of, as one file the number's popover reads.

A page's numbers are ``{{ quantity ... }}`` references (:mod:`roofline_site.glossary.reproduce`).
Those that are times carry parts (``Value.parts``, adding up to the time; a rate carries the parts
of the time it inverts). Their drawing, the stacked bar and the equation, is laid out by
:func:`roofline_core.view.parts.parts_tree`, the same code that draws a calculator's parts, and
written here as element trees (:mod:`roofline_core.view.nodes`) into one JSON file per page,
``{"parts": {"<N>": tree}}`` for number ``N``. The page's script fetches it with the numbers
script when a reader first opens a popover (``site_assets/glossary/quantities.mjs``) and only
copies the trees into elements: no arithmetic in the browser.

A file rather than markup in the page for the reason the snippets are one (see
:func:`~roofline_site.glossary.reproduce.section_html`): every reader would download every
number's drawing for the few popovers they open. The file is named by its content, so hosts
and the offline copy (:mod:`roofline_site.offline_manifest`) may keep it for good.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass

from roofline_core.quantities import Value, evaluate_reference
from roofline_core.view.nodes import Node
from roofline_core.view.parts import parts_tree
from roofline_site.glossary.reproduce import SCRIPTS_DIR, Shown


@dataclass(frozen=True)
class PartsFile:
    """A page's numbers' parts as JSON text, and the content-named site path it is written to."""

    site_path: str
    text: str


def value_parts(value: Value) -> Node | None:
    """The drawing of what ``value`` is made of, or None for a number without parts.

    A time's parts add up to the time it shows; a rate's (``value.inverts`` names the time) add
    up to the time it is one over, which the drawing then names.
    """
    if not value.parts:
        return None
    if value.inverts:
        total_s = sum(part.seconds for part in value.parts)
    elif value.number is not None:
        total_s = value.number
    else:
        return None
    return parts_tree(total_s, value.parts, value.working, inverts=value.inverts)


def parts_file(numbers: Sequence[Shown]) -> PartsFile | None:
    """The parts of every number of a page that has them; None when none has.

    Raises:
        QuantityError: for a reference that does not evaluate (the page could not have shown it).
    """
    trees = {}
    for index, number in enumerate(numbers):
        tree = value_parts(evaluate_reference(number.reference))
        if tree is not None:
            trees[str(index)] = tree
    if not trees:
        return None
    text = json.dumps({"parts": trees}, ensure_ascii=False, separators=(",", ":"), allow_nan=False) + "\n"
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
    return PartsFile(f"{SCRIPTS_DIR}numbers.{digest}.json", text)
