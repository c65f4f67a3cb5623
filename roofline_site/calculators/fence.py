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

from roofline_site.fences import Fence, LocatedError, key_values

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
        FenceError: for a line that is not ``key: value``, a repeated or unknown key, a missing
            ``id`` or a malformed ``defaults`` list.
    """
    found = key_values(fence.body, path=path, example="id: roofline-explorer", error=FenceError)
    for key, (line, _value) in found.items():
        if key not in KNOWN_KEYS:
            raise FenceError(path, line, f"unknown calculator fence key {key!r}", f"one of {', '.join(KNOWN_KEYS)}")
    if not found.get("id", (0, ""))[1]:
        where = found["id"][0] if "id" in found else fence.line
        raise FenceError(
            path, where, "calculator fence has no id", "a line 'id: <calculator>' such as 'id: roofline-explorer'"
        )
    defaults_line, defaults_text = found.get("defaults", (fence.line, ""))
    return Placement(
        calculator_id=found["id"][1],
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
            raise FenceError(
                path,
                line,
                f"calculator default {item.strip()!r} is not 'name=value'",
                "e.g. 'defaults: batch=16, model=llama-3-70b'",
            )
        if name in defaults:
            raise FenceError(path, line, f"calculator default {name!r} is given twice", "each input once")
        defaults[name] = value
    return defaults
