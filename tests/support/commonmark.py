"""Reading Markdown as CommonMark for the tests of the Markdown twins (markdown-it-py)."""

from __future__ import annotations

from markdown_it import MarkdownIt
from markdown_it.token import Token


def tokens(markdown: str) -> list[Token]:
    """Every token CommonMark reads in ``markdown``, inline ones included, in document order."""
    out: list[Token] = []
    pending = list(MarkdownIt("commonmark").parse(markdown))
    while pending:
        token = pending.pop(0)
        out.append(token)
        pending[:0] = token.children or []
    return out
