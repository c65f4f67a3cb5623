"""Read the element trees of ``roofline_core.view`` (``{"tag", "attrs", "children"}`` nodes and
text strings) the way tests ask about them: nodes by a test, nodes by class, the text."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def nodes_where(tree: Any, predicate: Callable[[dict], bool]) -> list[dict]:
    """Every node of ``tree`` (depth first) for which ``predicate`` holds."""
    found = []
    if isinstance(tree, dict):
        if predicate(tree):
            found.append(tree)
        for child in tree["children"]:
            found += nodes_where(child, predicate)
    return found


def nodes_with_class(tree: Any, name: str) -> list[dict]:
    """Every node of ``tree`` (depth first) whose class list holds ``name``."""
    return nodes_where(tree, lambda node: name in node["attrs"].get("class", "").split())


def tree_text(tree: Any) -> str:
    """The text of ``tree``, as a browser would put it in ``textContent``."""
    return tree if isinstance(tree, str) else "".join(tree_text(child) for child in tree["children"])
