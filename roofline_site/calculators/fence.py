"""Find and parse ``calculator`` fences in a page's Markdown.

A calculator is placed in any page with a fenced block::

    ```calculator
    id: decode-speed-of-light
    defaults: batch=16, model=llama-3-70b
    ```

``id`` is required; ``defaults`` (optional) overrides the calculator's own defaults with
``name=value`` pairs separated by commas. Anything else is an error that names the file and
line, so a typo fails the build instead of shipping a calculator nobody asked for.

The scanner knows about other fences, so a calculator fence shown as an example inside a
longer (````) or differently fenced block is left alone.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

FENCE_LANGUAGE = "calculator"
KNOWN_KEYS = ("id", "defaults")

_OPEN = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})[ \t]*(?P<info>[^`]*?)[ \t]*$")


class FenceError(ValueError):
    """A calculator fence that cannot be placed.

    Attributes:
        path: Page source, as given to the parser (``docs/calculators/kv-cache.md``).
        line: 1-based line in that file.
        message: What is wrong and what is expected.
    """

    def __init__(self, path: str, line: int, message: str) -> None:
        self.path = path
        self.line = line
        self.message = message
        super().__init__(f"{path}:{line}: {message}")


@dataclass(frozen=True)
class Placement:
    """One calculator fence found in a page.

    Attributes:
        calculator_id: Which calculator (``data-calculator``).
        defaults: Raw ``name -> value`` strings from the ``defaults:`` line, in order.
        line: 1-based line of the opening fence in the source file.
        defaults_line: 1-based line of the ``defaults:`` line (the opening line when absent).
        start: Index of the opening fence line in the scanned Markdown (0-based).
        end: Index one past the closing fence line.
        indent: Whitespace before the opening fence, kept for the replacement.
    """

    calculator_id: str
    defaults: dict[str, str] = field(default_factory=dict)
    line: int = 0
    defaults_line: int = 0
    start: int = 0
    end: int = 0
    indent: str = ""


def find_placements(markdown: str, *, path: str, line_offset: int = 0) -> list[Placement]:
    """Every ``calculator`` fence in ``markdown``, parsed.

    Args:
        markdown: Page Markdown (after front matter was removed).
        path: Source path used in error messages.
        line_offset: Lines that precede ``markdown`` in the source file (its front matter), so
            errors point at the real line.

    Raises:
        FenceError: for an unclosed fence, an unknown or repeated key, a line that is not
            ``key: value``, a missing ``id`` or a malformed ``defaults`` list.
    """
    lines = markdown.split("\n")
    placements: list[Placement] = []
    index = 0
    while index < len(lines):
        match = _OPEN.match(lines[index])
        if not match:
            index += 1
            continue
        fence = match.group("fence")
        close = _closing_index(lines, index, fence)
        info = match.group("info").strip()
        if info.split(" ", 1)[0] != FENCE_LANGUAGE:
            # Another fence (or an example inside one): skip its body untouched.
            index = len(lines) if close is None else close + 1
            continue
        line = line_offset + index + 1
        if close is None:
            raise FenceError(path, line, f"calculator fence is not closed; expected a line with {fence} after it")
        placements.append(
            _parse_body(lines[index + 1 : close], path=path, first_line=line + 1, opening_line=line, start=index, end=close + 1, indent=match.group("indent"))
        )
        index = close + 1
    return placements


def replace_placements(markdown: str, placements: list[Placement], replacement) -> str:
    """``markdown`` with each placement's lines replaced by ``replacement(number, placement)``."""
    lines = markdown.split("\n")
    for number in range(len(placements) - 1, -1, -1):
        placement = placements[number]
        lines[placement.start : placement.end] = [placement.indent + replacement(number, placement)]
    return "\n".join(lines)


def _closing_index(lines: list[str], open_index: int, fence: str) -> int | None:
    closing = re.compile(r"^[ \t]*" + re.escape(fence[0]) + "{" + str(len(fence)) + r",}[ \t]*$")
    for index in range(open_index + 1, len(lines)):
        if closing.match(lines[index]):
            return index
    return None


def _parse_body(body: list[str], *, path: str, first_line: int, opening_line: int, start: int, end: int, indent: str) -> Placement:
    seen: dict[str, tuple[str, int]] = {}
    for offset, text in enumerate(body):
        line = first_line + offset
        stripped = text.strip()
        if not stripped or stripped.startswith("#"):
            continue
        key, colon, value = stripped.partition(":")
        key = key.strip()
        if not colon or not key:
            raise FenceError(path, line, f"calculator fence line {stripped!r} is not 'key: value'; expected one of {', '.join(k + ':' for k in KNOWN_KEYS)}")
        if key not in KNOWN_KEYS:
            raise FenceError(path, line, f"unknown calculator fence key {key!r}; expected one of {', '.join(KNOWN_KEYS)}")
        if key in seen:
            raise FenceError(path, line, f"calculator fence key {key!r} is repeated (first on line {seen[key][1]}); expected it once")
        seen[key] = (value.strip(), line)
    if "id" not in seen or not seen["id"][0]:
        where = seen["id"][1] if "id" in seen else opening_line
        raise FenceError(path, where, "calculator fence has no id; expected a line 'id: <calculator>' such as 'id: roofline-explorer'")
    defaults_text, defaults_line = seen.get("defaults", ("", opening_line))
    return Placement(
        calculator_id=seen["id"][0],
        defaults=_parse_defaults(defaults_text, path=path, line=defaults_line),
        line=opening_line,
        defaults_line=defaults_line,
        start=start,
        end=end,
        indent=indent,
    )


def _parse_defaults(text: str, *, path: str, line: int) -> dict[str, str]:
    defaults: dict[str, str] = {}
    if not text:
        return defaults
    for item in text.split(","):
        name, equals, value = item.strip().partition("=")
        name, value = name.strip(), value.strip()
        if not equals or not name or not value:
            raise FenceError(path, line, f"calculator default {item.strip()!r} is not 'name=value'; expected e.g. 'defaults: batch=16, model=llama-3-70b'")
        if name in defaults:
            raise FenceError(path, line, f"calculator default {name!r} is given twice; expected each input once")
        defaults[name] = value
    return defaults
