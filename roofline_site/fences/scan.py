"""Find fenced blocks of given languages in a page's Markdown, with their lines.

``pymdownx.superfences`` hands a fence's formatter its body but neither the page nor the line,
so pages are scanned first, by the same rules superfences applies (its ``superfences.py``,
``SuperFencesBlockPreprocessor``), so that both find the same fences:

* an opening fence is three or more backticks or tildes after any run of spaces, tabs and
  block-quote markers (``>``), so fences in lists, admonitions, content tabs and block quotes
  are found, and so are fences indented into a code block (Markdown shows those as code, which
  the render check then reports);
* its language is the first word of the info string (``calculator``), or the first class of an
  attribute list (``{.calculator}``); anything else on the line is kept as ``info``;
* body lines lose as much of that prefix as the opening line had; a non-blank line with less of
  it ends the fence unclosed, as does the end of the page;
* the closing fence is the opening one repeated exactly, at the body's indentation.

Fences of other languages are skipped with their bodies, so a fence shown as an example inside a
longer ```` ```markdown ```` fence is left alone.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection
from dataclasses import dataclass, replace

#: Python-Markdown's default tab length; superfences expands tabs to it before matching.
TAB_WIDTH = 4

_PREFIX_CHARS = " >"
_OPENING = re.compile(r"^(?P<prefix>[ >]*)(?P<fence>`{3,}|~{3,})(?P<info>.*)$")
_LANGUAGE = re.compile(r"\.?(?P<language>[\w#.+-]+)(?=[ \t]|$)")
_FIRST_CLASS = re.compile(r"^\{(?:[^}]*?\s)?\.(?P<language>[\w#.+-]+)")


@dataclass(frozen=True)
class Fence:
    """One fenced block.

    Attributes:
        language: Its language (``calculator``, ``figure``).
        line: Line of the opening fence (1-based).
        fence: The opening fence's characters (```` ``` ```` or ``~~~~``).
        info: What follows the language on the opening line, stripped (should be empty).
        body: ``(line, text)`` of each line between the fences, without the prefix the opening
            line had (indentation, block-quote markers).
        closed: Whether a closing fence was found.
    """

    language: str
    line: int
    fence: str
    info: str
    body: tuple[tuple[int, str], ...]
    closed: bool

    @property
    def key(self) -> str:
        """The body as the superfences formatter will see it, normalised (see :func:`body_key`)."""
        return body_key("\n".join(text for _, text in self.body))

    def relocated(self, line_of: Callable[[int], int]) -> Fence:
        """This fence with every line number passed through ``line_of``."""
        return replace(self, line=line_of(self.line), body=tuple((line_of(number), text) for number, text in self.body))


def body_key(source: str) -> str:
    """Normalise a fence body so the scan and the superfences formatter agree on it.

    Superfences removes the fence's indentation and quote markers itself; stripping every line
    and dropping blank ones makes both views equal however the fence was nested.
    """
    return "\n".join(line.strip() for line in source.splitlines() if line.strip())


def find_fences(markdown: str, languages: Collection[str]) -> list[Fence]:
    """Every fence of one of ``languages`` in ``markdown``, in order, lines counted from 1."""
    lines = [line.expandtabs(TAB_WIDTH) for line in markdown.splitlines()]
    fences: list[Fence] = []
    index = 0
    while index < len(lines):
        match = _OPENING.match(lines[index])
        if match is None or (match.group("fence")[0] == "`" and "`" in match.group("info")):
            # CommonMark: a backtick fence's info string holds no backtick (else it is inline code).
            index += 1
            continue
        width = len(match.group("prefix"))
        fence = match.group("fence")
        language, info = _language_and_info(match.group("info"))
        opening = index
        index += 1
        body: list[tuple[int, str]] = []
        closed = False
        while index < len(lines):
            line = lines[index]
            text = line[_prefix_length(line, width) :]
            if not text.strip():
                body.append((index + 1, ""))
            elif _prefix_length(line, width) < width:
                break  # less indented or quoted than the opening line: superfences gives up here
            elif text.rstrip() == fence:
                closed = True
                index += 1
                break
            else:
                body.append((index + 1, text))
            index += 1
        if language in languages:
            fences.append(
                Fence(language=language, line=opening + 1, fence=fence, info=info, body=tuple(body), closed=closed)
            )
    return fences


def _language_and_info(info: str) -> tuple[str, str]:
    info = info.strip()
    match = _LANGUAGE.match(info)
    if match:
        return match.group("language"), info[match.end() :].strip()
    match = _FIRST_CLASS.match(info)
    if match:
        return match.group("language"), info
    return "", info


def _prefix_length(line: str, width: int) -> int:
    """How many of ``line``'s first ``width`` characters are prefix (spaces, ``>``)."""
    length = 0
    while length < min(width, len(line)) and line[length] in _PREFIX_CHARS:
        length += 1
    return length
