"""Find figure fences in a page's Markdown, with their line numbers.

``pymdownx.superfences`` hands its formatters the fence body but not the file or line, so the
hook scans the Markdown first: it finds every fence whose info string is ``figure``, keeps the
line number of each body line, and skips fences of other languages (so an example figure
block shown inside a ```` ```markdown ```` fence is left alone). Fences may be indented (lists,
admonitions, content tabs) or quoted (``>``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

FIGURE_LANGUAGE = "figure"

# An opening fence: optional indentation and blockquote markers, then 3+ backticks or tildes
# and an info string (CommonMark: a backtick fence's info string holds no backtick).
_OPENING = re.compile(r"^(?P<prefix>[ \t>]*)(?P<fence>`{3,}|~{3,})(?P<info>[^`]*)$")


@dataclass(frozen=True)
class FigureFence:
    """One figure fence.

    Attributes:
        line: Line of the opening fence (1-based, in the scanned text).
        info: What follows ``figure`` on the opening line (should be empty).
        body: ``(line, text)`` of each line between the fences, with the indentation and
            blockquote markers of the fence removed.
        closed: Whether a closing fence was found.
    """

    line: int
    info: str
    body: tuple[tuple[int, str], ...]
    closed: bool

    @property
    def key(self) -> str:
        """The body as the superfences formatter will see it, normalised (see :func:`body_key`)."""
        return body_key("\n".join(text for _, text in self.body))


def body_key(source: str) -> str:
    """Normalise a fence body so the hook's scan and the superfences formatter agree on it.

    Superfences removes the fence's indentation and quote markers itself; stripping every line
    and dropping blank ones makes both views equal however the fence was nested.
    """
    return "\n".join(line.strip() for line in source.splitlines() if line.strip())


def _strip_prefix(line: str, prefix: str) -> str:
    # Remove as much indentation / quoting as the opening fence had; a body line may have less.
    quoted = ">" in prefix
    text = line
    if quoted:
        text = text.lstrip(" \t")
        while text.startswith(">"):
            text = text[1:].lstrip(" \t") if text[1:2] in (" ", "\t") else text[1:]
        return text
    width = len(prefix)
    stripped = text.lstrip(" \t")
    return stripped if len(text) - len(stripped) <= width else text[width:]


def _closes(line: str, fence: str) -> bool:
    text = line.lstrip(" \t>").rstrip()
    return len(text) >= len(fence) and set(text) == {fence[0]}


def find_figure_fences(markdown: str) -> list[FigureFence]:
    """Every figure fence in ``markdown``, in order.

    A fence of another language is skipped to its closing fence, so figure blocks quoted inside
    it are not taken for real ones.
    """
    lines = markdown.splitlines()
    fences: list[FigureFence] = []
    index = 0
    while index < len(lines):
        match = _OPENING.match(lines[index])
        if not match:
            index += 1
            continue
        fence = match.group("fence")
        info = match.group("info").strip()
        language, _, rest = info.partition(" ")
        start = index
        index += 1
        body: list[tuple[int, str]] = []
        closed = False
        while index < len(lines):
            if _closes(lines[index], fence):
                closed = True
                index += 1
                break
            body.append((index + 1, _strip_prefix(lines[index], match.group("prefix"))))
            index += 1
        if language == FIGURE_LANGUAGE or info.startswith(FIGURE_LANGUAGE + "{"):
            fences.append(FigureFence(line=start + 1, info=(rest or info[len(FIGURE_LANGUAGE):]).strip(), body=tuple(body), closed=closed))
    return fences
