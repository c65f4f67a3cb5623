"""Which shown values are sentences: they are laid out as prose, not as numbers in a grid."""

from __future__ import annotations

from typing import Any

#: Texts longer than this (in characters) are sentences (the operations table's "why"), laid
#: out as prose: full-width output cards, and a line of their own under each table row.
PROSE_CHARS = 80


def is_prose(text: Any) -> bool:
    """Whether a shown value is a sentence rather than a number or a word."""
    return len(str(text)) > PROSE_CHARS
