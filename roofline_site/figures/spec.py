"""The figure fence: parse and validate its ``key: value`` lines, with the line of each mistake.

A figure block names a ``kind`` and that kind's parameters, one per line::

    kind: roofline
    accelerators: h100-sxm, a100-sxm-80gb
    batch: 1, 64

Every value is checked here, against the presets of ``roofline_core``, before anything is
computed or drawn, so a mistake is reported as ``<file>:<line>: <what is wrong>; expected
<what is accepted>`` at the line that holds it. Defaults are not repeated here: a key left out is
simply not passed, and the data function in :mod:`roofline_core.figures` fills in its default.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from roofline_core.dtypes import STORAGE_DTYPES
from roofline_core.figures import FIGURE_FUNCTIONS, FIGURE_KINDS
from roofline_core.hardware import ACCELERATORS
from roofline_core.models import MODELS
from roofline_core.operations import operations_catalogue
from roofline_site.fences.errors import LocatedError

#: Longest list a figure takes (more would not be readable at phone width).
MAX_LIST = 16
#: Most accelerators or models one figure compares.
MAX_COMPARED = 4
#: Number formats the math can run in (each accelerator lists the ones it supports).
COMPUTE_DTYPES: tuple[str, ...] = ("fp16", "bf16", "fp8", "int8", "fp4", "tf32")


class FigureBlockError(LocatedError):
    """A mistake in a figure block, located at a file and line.

    ``str(error)`` is ``"<path>:<line>: <problem>; expected <expected>"``.
    """


class _BadValue(Exception):
    """Raised by a value parser; the caller adds the file, line and key."""

    def __init__(self, problem: str, expected: str) -> None:
        super().__init__(problem)
        self.problem = problem
        self.expected = expected


# --- Value parsers ------------------------------------------------------------------------


def _items(text: str) -> list[str]:
    items = [item.strip() for item in text.split(",")]
    if any(item == "" for item in items):
        raise _BadValue(f"{text!r} has an empty item", "values separated by single commas")
    return items


def _suggestion(text: str, choices: Sequence[str]) -> str:
    """`` (did you mean x?)`` for the likeliest choice, or ``""``: a choice the text begins
    (``h100`` -> ``h100-sxm``) before the closest spelling."""
    starts = [c for c in choices if c.startswith(text.lower())]
    close = starts or difflib.get_close_matches(text.lower(), choices, n=1)
    return f" (did you mean {close[0]}?)" if close else ""


def _one_of(kind: str, choices: Sequence[str]) -> Callable[[str], str]:
    def parse(text: str) -> str:
        if text not in choices:
            raise _BadValue(f"unknown {kind} {text!r}{_suggestion(text, choices)}", f"one of {', '.join(choices)}")
        return text

    return parse


def _list_of(parse_one: Callable[[str], Any], *, most: int = MAX_LIST, unique: bool = True) -> Callable[[str], list[Any]]:
    def parse(text: str) -> list[Any]:
        values = [parse_one(item) for item in _items(text)]
        if len(values) > most:
            raise _BadValue(f"{len(values)} values", f"at most {most}")
        if unique and len(set(values)) != len(values):
            raise _BadValue(f"{text!r} repeats a value", "each value once")
        return values

    return parse


_WHOLE = re.compile(r"^(\d+)([kK]?)$")


def _whole(*, minimum: int, maximum: int, example: str) -> Callable[[str], int]:
    """A whole number; ``k`` multiplies by 1,024 (``32k`` = 32,768, as context lengths are written)."""
    expected = f"a whole number from {minimum:,} to {maximum:,} (k = 1,024), e.g. {example}"

    def parse(text: str) -> int:
        match = _WHOLE.match(text.replace("_", ""))
        if not match:
            raise _BadValue(f"{text!r} is not a whole number", expected)
        value = int(match.group(1)) * (1024 if match.group(2) else 1)
        if not minimum <= value <= maximum:
            raise _BadValue(f"{text!r} is out of range", expected)
        return value

    return parse


def _text(text: str) -> str:
    if len(text) > 300:
        raise _BadValue(f"a text of {len(text)} characters", "at most 300 characters")
    return text


def _operation_slugs() -> tuple[str, ...]:
    # The catalogue's slugs do not depend on its inputs; any preset pair lists them.
    first_chip = next(iter(ACCELERATORS.values()))
    first_model = next(iter(MODELS.values()))
    return tuple(op.slug for op in operations_catalogue(accelerator=first_chip, model=first_model))


_accelerator = _one_of("accelerator", tuple(ACCELERATORS))
_model = _one_of("model", tuple(MODELS))
_compute_dtype = _one_of("number format", COMPUTE_DTYPES)
_storage_dtype = _one_of("storage format", STORAGE_DTYPES)
_batch = _whole(minimum=1, maximum=65_536, example="64")
_devices = _whole(minimum=1, maximum=1024, example="2")
_context = _whole(minimum=0, maximum=10_485_760, example="32k")
_contexts = _whole(minimum=1, maximum=10_485_760, example="32k")
_prompt = _whole(minimum=1, maximum=10_485_760, example="2048")


# --- Parameters of each kind --------------------------------------------------------------


@dataclass(frozen=True)
class Param:
    """One key of a figure block.

    Attributes:
        key: The key as authors write it (``"weight-dtype"``).
        argument: The keyword argument of the data function it fills.
        parse: Turns the text after the colon into the argument's value.
        help: What it means, for the authoring docs.
    """

    key: str
    argument: str
    parse: Callable[[str], Any]
    help: str


def _p(key: str, argument: str, parse: Callable[[str], Any], help: str) -> Param:
    return Param(key=key, argument=argument, parse=parse, help=help)


_ACCELERATORS = _p("accelerators", "accelerators", _list_of(_accelerator, most=MAX_COMPARED), "accelerator slugs, comma-separated")
_ACCELERATOR = _p("accelerator", "accelerator", _accelerator, "one accelerator slug")
_MODEL = _p("model", "model", _model, "one model slug")
_DTYPE = _p("dtype", "dtype", _compute_dtype, "number format of the math (picks the dense peak)")
_WEIGHTS = _p("weight-dtype", "weight_dtype", _storage_dtype, "storage format of the weights")
_KV = _p("kv-dtype", "kv_dtype", _storage_dtype, "storage format of the KV cache")
_DEVICES = _p("devices", "devices", _devices, "devices the model is split over (tensor parallelism)")

#: The keys each kind accepts (``kind``, ``title`` and ``caption`` are accepted by all).
KIND_PARAMS: dict[str, tuple[Param, ...]] = {
    "roofline": (
        _ACCELERATORS,
        _DTYPE,
        _p("model", "model", _model, "model whose decode and prefill steps are marked"),
        _p("batch", "batches", _list_of(_batch), "decode batch sizes to mark"),
        _p("prompt", "prompt_tokens", _list_of(_prompt), "prompt lengths to mark as prefill points"),
        _p("context", "context_tokens", _context, "cached tokens per sequence for the decode points"),
        _WEIGHTS,
        _KV,
    ),
    "intensity": (
        _ACCELERATORS,
        _p("model", "model", _model, "model giving the matrix shapes"),
        _p("batch", "batch", _batch, "sequences in the batched decode projection"),
        _p("prompt", "prompt_tokens", _prompt, "tokens of the prefill projection and prefill attention"),
        _p("context", "context_tokens", _contexts, "cached tokens read by decode attention"),
        _p("dtype", "dtype", _compute_dtype, "format of weights, activations and cache, and of the math"),
        _p("operations", "operations", _list_of(_one_of("operation", _operation_slugs())), "operations to show"),
    ),
    "decode-batch": (
        _ACCELERATOR,
        _MODEL,
        _p("batch", "batches", _list_of(_batch), "batch sizes of the sweep"),
        _p("context", "context_tokens", _context, "cached tokens per sequence"),
        _DTYPE,
        _WEIGHTS,
        _KV,
        _DEVICES,
    ),
    "kv-cache": (
        _p("accelerator", "accelerator", _accelerator, "accelerator whose memory is drawn as a line"),
        _p("models", "models", _list_of(_model, most=MAX_COMPARED), "model slugs to compare"),
        _p("batch", "batch", _batch, "sequences whose caches add up"),
        _p("context", "contexts", _list_of(_contexts), "context lengths of the sweep"),
        _KV,
    ),
    "decode-split": (
        _ACCELERATOR,
        _MODEL,
        _p("batch", "batch", _batch, "sequences decoded together"),
        _p("context", "contexts", _list_of(_contexts), "context lengths, one bar each"),
        _DTYPE,
        _WEIGHTS,
        _KV,
        _DEVICES,
    ),
    "prefill-decode": (
        _ACCELERATOR,
        _MODEL,
        _p("prompt", "prompts", _list_of(_prompt), "prompt lengths of the sweep (decode uses each as its context)"),
        _p("batch", "batch", _batch, "decode batch size"),
        _DTYPE,
        _WEIGHTS,
        _KV,
        _DEVICES,
    ),
}

#: Keys every kind accepts, besides its own.
COMMON_KEYS: tuple[str, ...] = ("kind", "title", "caption")

if set(KIND_PARAMS) != set(FIGURE_KINDS):  # pragma: no cover - guards edits to either list
    raise RuntimeError("KIND_PARAMS and roofline_core.figures.FIGURE_KINDS disagree")


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
    found: dict[str, tuple[int, str]] = {}
    for number, raw in lines:
        text = raw.strip()
        if not text or text.startswith("#"):
            continue
        key, colon, value = text.partition(":")
        key = key.strip().lower()
        if not colon or not re.fullmatch(r"[a-z][a-z-]*", key):
            raise FigureBlockError(path, number, f"{text!r} is not a 'key: value' line", "one 'key: value' per line, e.g. 'kind: roofline'")
        if key in found:
            raise FigureBlockError(path, number, f"{key} is given twice (first on line {found[key][0]})", "each key once")
        found[key] = (number, value.strip())

    if "kind" not in found:
        raise FigureBlockError(path, fence_line, "figure block has no kind", f"a line 'kind: <kind>' with one of {', '.join(FIGURE_KINDS)}")
    kind_line, kind = found["kind"]
    if kind not in KIND_PARAMS:
        raise FigureBlockError(
            path, kind_line, f"kind: unknown figure kind {kind!r}{_suggestion(kind, FIGURE_KINDS)}", f"one of {', '.join(FIGURE_KINDS)}"
        )

    params = {p.key: p for p in KIND_PARAMS[kind]}
    accepted = [*COMMON_KEYS, *params]
    arguments: dict[str, Any] = {}
    argument_lines: dict[str, int] = {}
    for key, (number, value) in found.items():
        if key in COMMON_KEYS:
            continue
        if key not in params:
            raise FigureBlockError(
                path, number, f"unknown key {key!r} for kind {kind}{_suggestion(key, accepted)}", f"one of {', '.join(accepted)}"
            )
        if not value:
            raise FigureBlockError(path, number, f"{key} has no value", f"{key}: {params[key].help}")
        try:
            arguments[params[key].argument] = params[key].parse(value)
        except _BadValue as bad:
            raise FigureBlockError(path, number, f"{key}: {bad.problem}", bad.expected) from None
        argument_lines[params[key].argument] = number

    texts = {}
    for key in ("title", "caption"):
        if key in found:
            number, value = found[key]
            try:
                texts[key] = _text(value) if value else None
            except _BadValue as bad:
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
    _check_formats(spec)
    return spec


def _check_formats(spec: FigureSpec) -> None:
    """The compute format must have a dense peak on every accelerator of the figure."""
    dtype = spec.arguments.get("dtype")
    if dtype is None:
        return
    slugs = spec.arguments.get("accelerators") or [spec.arguments.get("accelerator")]
    slugs = [s for s in slugs if s is not None]
    if not slugs:
        return
    for slug in slugs:
        chip = ACCELERATORS[slug]
        try:
            chip.peak_for(dtype)
        except KeyError:
            raise FigureBlockError(
                spec.path,
                spec.lines.get("dtype", spec.line),
                f"dtype: {chip.name} has no {dtype} peak",
                f"one of {', '.join(chip.peak_flop_per_s)}",
            ) from None


def figure_data_for(spec: FigureSpec) -> dict[str, Any]:
    """Compute the figure's data with :mod:`roofline_core.figures`, applying the author's title.

    Raises:
        FigureBlockError: at the fence line, if ``roofline_core`` rejects the combination.
    """
    try:
        data = FIGURE_FUNCTIONS[spec.kind](**spec.arguments)
    except (ValueError, KeyError) as error:
        message = error.args[0] if error.args else str(error)
        raise FigureBlockError(spec.path, spec.line, f"roofline_core rejects this figure: {message}", "parameters it accepts") from None
    if spec.title:
        data = {**data, "title": spec.title}
    if spec.caption:
        data = {**data, "caption": spec.caption}
    return data
