"""Element trees: the one format in which a drawing or a table travels to the page.

A node is ``{"tag": str, "attrs": {name: str}, "children": [node or str]}``; a string child is a
text node. Attribute values are already the final text, so whatever draws a tree (markup at
build time, DOM calls in the browser) only copies them and makes no decision of its own.
"""

from __future__ import annotations

from typing import Any, TypedDict

from roofline_core.formatting import box_text

__all__ = ["Node", "box_text", "node"]


class Node(TypedDict):
    """One element: its tag, its attributes (text values) and its children, in order."""

    tag: str
    attrs: dict[str, str]
    children: list[Node | str]


def node(tag: str, attrs: dict[str, Any] | None = None, *children: Node | str) -> Node:
    """An element; attribute values are turned into text with :func:`str`."""
    return {"tag": tag, "attrs": {key: str(value) for key, value in (attrs or {}).items()}, "children": list(children)}
