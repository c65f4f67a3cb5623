"""The figure fence: read its ``key: value`` lines and report each mistake at its line.

A figure block names a ``kind`` and that kind's parameters, one per line::

    kind: roofline
    accelerators: h100-sxm, a100-sxm-80gb
    batch: 1, 64

What each kind accepts is declared in ``roofline_core`` beside its data
(:mod:`roofline_core.figures.parameters`): this module only splits the lines, looks each key up
in those declarations, lets them parse the value, and places any mistake at its file and line
as ``<file>:<line>: <what is wrong>; expected <what is accepted>``. A key left out is not passed,
so the data function fills in its declared default.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from roofline_core.figures import FIGURE_FUNCTIONS, FIGURE_KINDS, FIGURES
from roofline_core.figures.parameters import BadValue, FigureParameter
from roofline_core.hardware.dtypes import COMPUTE_DTYPES
from roofline_core.vocabulary import suggestion
from roofline_site.fences.body import key_values
from roofline_site.fences.errors import LocatedError

__all__ = [
    "COMMON_KEYS",
    "COMPUTE_DTYPES",
    "KIND_PARAMS",
    "FigureBlockError",
    "FigureSpec",
    "figure_data_for",
    "parse_block",
]

#: Keys every kind accepts, besides its own.
COMMON_KEYS: tuple[str, ...] = ("kind", "title", "caption")
#: Longest title or caption, in characters.
MAX_TEXT = 300

#: The parameters each kind accepts (``kind``, ``title`` and ``caption`` are accepted by all).
KIND_PARAMS: dict[str, tuple[FigureParameter, ...]] = {kind: figure.parameters for kind, figure in FIGURES.items()}


class FigureBlockError(LocatedError):
    """A mistake in a figure block, located at a file and line.

    ``str(error)`` is ``"<path>:<line>: <problem>; expected <expected>"``.
    """


def _text(text: str) -> str:
    if len(text) > MAX_TEXT:
        raise BadValue(f"a text of {len(text)} characters", f"at most {MAX_TEXT} characters")
    return text


# --- Parsing a block ----------------------------------------------------------------------


@dataclass(frozen=True)
class FigureSpec:
    """A validated figure block.

    Attributes:
        kind: The figure kind.
        arguments: Keyword arguments for the kind's data function (only the keys written).
        title: The author's title, replacing the generated one (or None).
        caption: The author's caption, shown under the title (or None).
        path: File the block is in, for messages.
        line: Line of the opening fence.
        lines: Line of each argument given, keyed by argument name (for cross-field messages).
    """

    kind: str
    arguments: dict[str, Any]
    title: str | None = None
    caption: str | None = None
    path: str = ""
    line: int = 0
    lines: dict[str, int] = field(default_factory=dict)


def parse_block(lines: Sequence[tuple[int, str]], *, path: str, fence_line: int) -> FigureSpec:
    """Parse the body of a figure fence.

    Args:
        lines: ``(line number, text)`` of each line between the fences, line numbers 1-based in
            the file ``path``.
        path: The file, as it should appear in messages (``docs/figures.md``).
        fence_line: Line of the opening fence, for problems that belong to no single line.

    Raises:
        FigureBlockError: at the first mistake.
    """
    found = key_values(lines, path=path, example="kind: roofline", error=FigureBlockError)

    if "kind" not in found:
        raise FigureBlockError(
            path, fence_line, "figure block has no kind", f"a line 'kind: <kind>' with one of {', '.join(FIGURE_KINDS)}"
        )
    kind_line, kind = found["kind"]
    if kind not in FIGURES:
        raise FigureBlockError(
            path,
            kind_line,
            f"kind: unknown figure kind {kind!r}{suggestion(kind, FIGURE_KINDS)}",
            f"one of {', '.join(FIGURE_KINDS)}",
        )

    figure = FIGURES[kind]
    params = figure.by_key
    accepted = [*COMMON_KEYS, *params]
    arguments: dict[str, Any] = {}
    argument_lines: dict[str, int] = {}
    for key, (number, value) in found.items():
        if key in COMMON_KEYS:
            continue
        if key not in params:
            raise FigureBlockError(
                path,
                number,
                f"unknown key {key!r} for kind {kind}{suggestion(key, accepted)}",
                f"one of {', '.join(accepted)}",
            )
        if not value:
            raise FigureBlockError(path, number, f"{key} has no value", f"{key}: {params[key].help}")
        try:
            arguments[params[key].argument] = params[key].parse(value)
        except BadValue as bad:
            raise FigureBlockError(path, number, f"{key}: {bad.problem}", bad.expected) from None
        argument_lines[params[key].argument] = number

    texts = {}
    for key in ("title", "caption"):
        if key in found:
            number, value = found[key]
            try:
                texts[key] = _text(value) if value else None
            except BadValue as bad:
                raise FigureBlockError(path, number, f"{key}: {bad.problem}", bad.expected) from None
            if not value:
                raise FigureBlockError(path, number, f"{key} has no value", f"{key}: <text>")

    spec = FigureSpec(
        kind=kind,
        arguments=arguments,
        title=texts.get("title"),
        caption=texts.get("caption"),
        path=path,
        line=fence_line,
        lines=argument_lines,
    )
    try:
        figure.check(arguments)
    except BadValue as bad:
        # A check across values names the argument at fault; report it at that argument's line.
        key = next(p.key for p in figure.parameters if p.argument == bad.argument)
        raise FigureBlockError(
            path, argument_lines.get(bad.argument, fence_line), f"{key}: {bad.problem}", bad.expected
        ) from None
    return spec


def figure_data_for(spec: FigureSpec) -> dict[str, Any]:
    """Compute the figure's data with :mod:`roofline_core.figures`, applying the author's title.

    Raises:
        FigureBlockError: at the fence line, if ``roofline_core`` rejects the combination.
    """
    try:
        data = FIGURE_FUNCTIONS[spec.kind](**spec.arguments)
    except (ValueError, KeyError) as error:
        message = error.args[0] if error.args else str(error)
        raise FigureBlockError(
            spec.path, spec.line, f"roofline_core rejects this figure: {message}", "parameters it accepts"
        ) from None
    if spec.title:
        data = {**data, "title": spec.title}
    if spec.caption:
        data = {**data, "caption": spec.caption}
    return data
