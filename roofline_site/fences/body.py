"""A fence body's ``key: value`` lines, read the same way for every fence kind.

One ``key: value`` per line; blank lines and lines starting with ``#`` are skipped; keys are
lower-case words joined by hyphens, each given once. What the keys mean is the kind's business.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from roofline_site.fences.errors import LocatedError

_KEY = re.compile(r"[a-z][a-z-]*")


def key_values(
    body: Sequence[tuple[int, str]], *, path: str, example: str, error: type[LocatedError] = LocatedError
) -> dict[str, tuple[int, str]]:
    """Each key of a fence body with its line and value, in the order written.

    Args:
        body: ``(line, text)`` of each body line, lines as the author sees them.
        path: The file, as messages name it.
        example: A line of this kind for the message, e.g. ``kind: roofline``.
        error: The :class:`LocatedError` subclass to raise.

    Raises:
        LocatedError: (as ``error``) for a line that is not ``key: value`` or a key given twice.
    """
    found: dict[str, tuple[int, str]] = {}
    for line, raw in body:
        text = raw.strip()
        if not text or text.startswith("#"):
            continue
        key, colon, value = text.partition(":")
        key = key.strip().lower()
        if not colon or not _KEY.fullmatch(key):
            raise error(
                path, line, f"{text!r} is not a 'key: value' line", f"one 'key: value' per line, e.g. {example!r}"
            )
        if key in found:
            raise error(path, line, f"{key} is given twice (first on line {found[key][0]})", "each key once")
        found[key] = (line, value.strip())
    return found
