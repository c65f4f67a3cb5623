"""Element trees: the one format in which a drawing or a table travels to the page.

A node is ``{"tag": str, "attrs": {name: str}, "children": [node or str]}``; a string child is a
text node. Attribute values are already the final text, so whatever draws a tree (markup at
build time, DOM calls in the browser) only copies them and makes no decision of its own.
"""

from __future__ import annotations

import math
from decimal import Decimal
from typing import Any, TypedDict


class Node(TypedDict):
    """One element: its tag, its attributes (text values) and its children, in order."""

    tag: str
    attrs: dict[str, str]
    children: list[Node | str]


def node(tag: str, attrs: dict[str, Any] | None = None, *children: Node | str) -> Node:
    """An element; attribute values are turned into text with :func:`str`."""
    return {"tag": tag, "attrs": {key: str(value) for key, value in (attrs or {}).items()}, "children": list(children)}


def box_text(value: Any) -> str:
    """A value as it appears in an input box: ``989``, ``3.35``, ``h100-sxm``.

    Numbers are written the way the browser's ``String(number)`` writes them (ECMAScript's
    Number::toString: shortest round-trip digits, exponent only below 1e-6 or from 1e21), so a
    preset's filled value reads the same whether the build or the browser put it in the box.
    """
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, (int, float)):
        return _js_number(float(value))
    return str(value)


def _js_number(value: float) -> str:
    if value == 0 or not math.isfinite(value):
        return "0" if value == 0 else {math.inf: "Infinity", -math.inf: "-Infinity"}.get(value, "NaN")
    sign = "-" if value < 0 else ""
    # repr gives the shortest digits that round-trip, as ECMAScript does.
    parts = Decimal(repr(abs(value))).normalize().as_tuple()
    digits = "".join(str(d) for d in parts.digits)
    k = len(digits)
    n = parts.exponent + k  # the decimal point sits after n digits
    if k <= n <= 21:
        text = digits + "0" * (n - k)
    elif 0 < n <= 21:
        text = digits[:n] + "." + digits[n:]
    elif -6 < n <= 0:
        text = "0." + "0" * (-n) + digits
    else:
        exponent = n - 1
        mantissa = digits if k == 1 else digits[0] + "." + digits[1:]
        text = f"{mantissa}e{'+' if exponent > 0 else '-'}{abs(exponent)}"
    return sign + text
