"""Write an element tree (``roofline_core.view.nodes.Node``) as HTML/SVG markup.

The browser builds the same trees with DOM calls (``site_assets/calculators/tree.mjs``); this is
the build's side of that contract: every text and attribute value is escaped, nothing is added.
"""

from __future__ import annotations

from html import escape

from roofline_core.view import Node


def markup(tree: Node | str) -> str:
    """``tree`` as markup; a string is a text node."""
    if isinstance(tree, str):
        return escape(tree)
    attrs = "".join(f' {name}="{escape(value)}"' for name, value in tree["attrs"].items())
    inner = "".join(markup(child) for child in tree["children"])
    return f"<{tree['tag']}{attrs}>{inner}</{tree['tag']}>"
