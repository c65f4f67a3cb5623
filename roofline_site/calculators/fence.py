"""Parse a ``calculator`` fence's body.

A calculator is placed in any page with a fenced block::

    ```calculator
    id: decode-speed-of-light
    defaults: batch=16, model=llama-3-70b
    ```

``id`` is required; ``defaults`` (optional) overrides the calculator's own defaults with
``name=value`` pairs separated by commas. Anything else is an error that names the file and
line, so a typo fails the build instead of shipping a calculator nobody asked for. Finding the
fences (and their lines) is :mod:`roofline_site.fences`' job.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from roofline_site.fences import Fence, LocatedError

FENCE_LANGUAGE = "calculator"
KNOWN_KEYS = ("id", "defaults")


class FenceError(LocatedError):
    """A calculator fence that cannot be placed (``<path>:<line>: <problem>; expected <what>``)."""


@dataclass(frozen=True)
class Placement:
    """One calculator fence, parsed.

    Attributes:
        calculator_id: Which calculator (``data-calculator``).
        defaults: Raw ``name -> value`` strings from the ``defaults:`` line, in order.
        line: 1-based line of the opening fence in the source file.
        defaults_line: 1-based line of the ``defaults:`` line (the opening line when absent).
    """

    calculator_id: str
    defaults: dict[str, str] = field(default_factory=dict)
    line: int = 0
    defaults_line: int = 0


def parse_placement(fence: Fence, *, path: str) -> Placement:
    """The calculator and defaults a ``calculator`` fence asks for.

    Raises:
        FenceError: for an unknown or repeated key, a line that is not ``key: value``, a missing
            ``id`` or a malformed ``defaults`` list.
    """
    seen: dict[str, tuple[str, int]] = {}
    for line, text in fence.body:
        stripped = text.strip()
        if not stripped or stripped.startswith("#"):
            continue
        key, colon, value = stripped.partition(":")
        key = key.strip()
        if not colon or not key:
            raise FenceError(path, line, f"calculator fence line {stripped!r} is not 'key: value'", f"one of {', '.join(k + ':' for k in KNOWN_KEYS)}")
        if key not in KNOWN_KEYS:
            raise FenceError(path, line, f"unknown calculator fence key {key!r}", f"one of {', '.join(KNOWN_KEYS)}")
        if key in seen:
            raise FenceError(path, line, f"calculator fence key {key!r} is repeated (first on line {seen[key][1]})", "it once")
        seen[key] = (value.strip(), line)
    if "id" not in seen or not seen["id"][0]:
        where = seen["id"][1] if "id" in seen else fence.line
        raise FenceError(path, where, "calculator fence has no id", "a line 'id: <calculator>' such as 'id: roofline-explorer'")
    defaults_text, defaults_line = seen.get("defaults", ("", fence.line))
    return Placement(
        calculator_id=seen["id"][0],
        defaults=_parse_defaults(defaults_text, path=path, line=defaults_line),
        line=fence.line,
        defaults_line=defaults_line,
    )


def _parse_defaults(text: str, *, path: str, line: int) -> dict[str, str]:
    defaults: dict[str, str] = {}
    if not text:
        return defaults
    for item in text.split(","):
        name, equals, value = item.strip().partition("=")
        name, value = name.strip(), value.strip()
        if not equals or not name or not value:
            raise FenceError(path, line, f"calculator default {item.strip()!r} is not 'name=value'", "e.g. 'defaults: batch=16, model=llama-3-70b'")
        if name in defaults:
            raise FenceError(path, line, f"calculator default {name!r} is given twice", "each input once")
        defaults[name] = value
    return defaults
