"""Figure parameters: what each figure kind accepts, declared once beside its data function.

Each kind module lists its :class:`FigureParameter` declarations (the key an author writes, the
keyword argument it fills, the kind of value with its range and list limits, a help sentence and
the default) and wraps them with its data function in a :class:`FigureKind`. The figure fence
of the site (``roofline_site.figures.spec``) reads these declarations to parse what an author
wrote; its docs table of parameters is checked against them.

Values are parsed from the text an author types in a fence: slugs, whole numbers (a ``k``
suffix multiplies by 1,024, the way context lengths are written) and comma-separated lists. A
rejected value raises :class:`BadValue` with what is wrong and what is expected; the caller adds
where it was written.
"""

from __future__ import annotations

import difflib
import inspect
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Union

from roofline_core.dtypes import COMPUTE_DTYPES, STORAGE_DTYPES
from roofline_core.hardware import ACCELERATORS
from roofline_core.models import MODELS
from roofline_core.operations import OPERATION_KINDS

#: Longest list a figure takes (more would not be readable at phone width).
MAX_LIST = 16
#: Most accelerators or models one figure compares.
MAX_COMPARED = 4
#: Longest list written out in full when describing a default; longer ones are elided.
_LONGEST_DESCRIBED = 6


class BadValue(ValueError):
    """A value or a combination of values a figure does not accept.

    Attributes:
        problem: What is wrong (``"'0' is out of range"``).
        expected: What is accepted (``"a whole number from 1 to 65,536 ..."``).
        argument: The keyword argument at fault, for a check across several values (else None:
            the caller knows which value it parsed).
    """

    def __init__(self, problem: str, expected: str, *, argument: str | None = None) -> None:
        super().__init__(f"{problem}; expected {expected}")
        self.problem = problem
        self.expected = expected
        self.argument = argument


def suggestion(text: str, choices: Sequence[str]) -> str:
    """`` (did you mean x?)`` for the likeliest of ``choices``, or ``""``.

    A choice that begins with the text (``h100`` -> ``h100-sxm``) wins over the closest spelling.
    """
    starts = [c for c in choices if c.startswith(text.lower())]
    close = starts or difflib.get_close_matches(text.lower(), choices, n=1)
    return f" (did you mean {close[0]}?)" if close else ""


# --- Kinds of value -----------------------------------------------------------------------


@dataclass(frozen=True)
class OneOf:
    """One of a fixed list of slugs.

    Attributes:
        noun: What a value is, for messages (``"accelerator"``).
        choices: The accepted slugs, in the order messages list them.
    """

    noun: str
    choices: tuple[str, ...]

    def expected(self) -> str:
        return f"one of {', '.join(self.choices)}"

    def parse(self, text: str) -> str:
        if text not in self.choices:
            raise BadValue(f"unknown {self.noun} {text!r}{suggestion(text, self.choices)}", self.expected())
        return text

    def write(self, value: str) -> str:
        return value


_WHOLE = re.compile(r"^(\d+)([kK]?)$")


@dataclass(frozen=True)
class WholeNumber:
    """A whole number in a range; ``k`` multiplies by 1,024 (``32k`` = 32,768) and ``_`` is ignored.

    Attributes:
        minimum: Smallest accepted value.
        maximum: Largest accepted value.
        example: A value to show in messages.
        tokens: Whether the value counts tokens, so it is written with ``k`` where it divides.
    """

    minimum: int
    maximum: int
    example: str
    tokens: bool = False

    def expected(self) -> str:
        return f"a whole number from {self.minimum:,} to {self.maximum:,} (k = 1,024), e.g. {self.example}"

    def parse(self, text: str) -> int:
        match = _WHOLE.match(text.replace("_", ""))
        if not match:
            raise BadValue(f"{text!r} is not a whole number", self.expected())
        value = int(match.group(1)) * (1024 if match.group(2) else 1)
        if not self.minimum <= value <= self.maximum:
            raise BadValue(f"{text!r} is out of range", self.expected())
        return value

    def write(self, value: int) -> str:
        if self.tokens and value >= 1024 and value % 1024 == 0:
            return f"{value // 1024}k"
        return str(value)


@dataclass(frozen=True)
class ListOf:
    """Comma-separated values of one kind.

    Attributes:
        item: The kind of each value.
        most: Most values accepted.
        unique: Whether a value may appear only once.
    """

    item: OneOf | WholeNumber
    most: int = MAX_LIST
    unique: bool = True

    def parse(self, text: str) -> list[Any]:
        items = [item.strip() for item in text.split(",")]
        if any(item == "" for item in items):
            raise BadValue(f"{text!r} has an empty item", "values separated by single commas")
        values = [self.item.parse(item) for item in items]
        if len(values) > self.most:
            raise BadValue(f"{len(values)} values", f"at most {self.most}")
        if self.unique and len(set(values)) != len(values):
            raise BadValue(f"{text!r} repeats a value", "each value once")
        return values

    def write(self, values: Sequence[Any]) -> str:
        """The values as an author would write them; a long list shows its first three and its last."""
        words = [self.item.write(v) for v in values]
        if len(words) > _LONGEST_DESCRIBED:
            words = [*words[:3], "...", words[-1]]
        return ", ".join(words)


Value = Union[OneOf, WholeNumber, ListOf]


# --- Parameters and kinds -----------------------------------------------------------------


@dataclass(frozen=True)
class FigureParameter:
    """One parameter of a figure kind.

    Attributes:
        key: The key as authors write it in a figure fence (``"weight-dtype"``).
        argument: The keyword argument of the data function it fills (``"weight_dtype"``).
        value: The kind of value, with its range or choices and list limits.
        help: What it sets, in a few words (the docs table and "has no value" messages show it).
        default: The value when the key is left out (the data function's default).
        default_words: How the docs describe a default that is not a value (``"none"``,
            ``"all"``); empty to write the default itself.
    """

    key: str
    argument: str
    value: Value
    help: str
    default: Any
    default_words: str = ""

    def parse(self, text: str) -> Any:
        """The value written as ``text``.

        Raises:
            BadValue: if ``text`` is not an accepted value.
        """
        return self.value.parse(text)

    def describe_default(self) -> str:
        """The default as the docs show it: ``h100-sxm``, ``1k, 4k, 16k``, ``1, 2, 4, ..., 1024``, ``none``."""
        return self.default_words or self.value.write(self.default)


def defaults(parameters: Sequence[FigureParameter]) -> dict[str, Any]:
    """Each parameter's default, by keyword argument (for the data function's signature)."""
    return {p.argument: p.default for p in parameters}


Check = Callable[[Mapping[str, Any]], None]
"""A check across a figure's values (defaults filled in); raises :class:`BadValue` naming the argument."""


@dataclass(frozen=True)
class FigureKind:
    """A figure kind: its name, its data function and the parameters that function takes.

    Attributes:
        kind: The name authors write (``"decode-batch"``).
        data: The data function; keyword arguments only, one per parameter.
        parameters: The parameters, in the order the docs list them.
        checks: Checks across values that are each valid alone (a format the accelerator lacks).
    """

    kind: str
    data: Callable[..., Any]
    parameters: tuple[FigureParameter, ...]
    checks: tuple[Check, ...] = ()
    by_key: dict[str, FigureParameter] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # The declarations and the function must describe the same arguments with the same
        # defaults: a mismatch would let a fence key do nothing, or a doc show a wrong default.
        signature = inspect.signature(self.data).parameters
        declared = defaults(self.parameters)
        if set(signature) != set(declared):
            raise TypeError(f"{self.kind}: data function takes {sorted(signature)}; declared {sorted(declared)}")
        for argument, default in declared.items():
            if signature[argument].default != default:
                actual = signature[argument].default
                raise TypeError(f"{self.kind}: {argument} defaults to {actual!r}; declared {default!r}")
        object.__setattr__(self, "by_key", {p.key: p for p in self.parameters})

    def check(self, arguments: Mapping[str, Any]) -> None:
        """Run the checks across values on ``arguments`` with the defaults filled in.

        Raises:
            BadValue: naming the argument at fault.
        """
        values = {**defaults(self.parameters), **arguments}
        for check in self.checks:
            check(values)


def format_has_a_peak(values: Mapping[str, Any]) -> None:
    """The compute format ``dtype`` must have a dense peak on every accelerator of the figure."""
    slugs = values["accelerators"] if "accelerators" in values else [values["accelerator"]]
    for slug in slugs:
        chip = ACCELERATORS[slug]
        try:
            chip.peak_for(values["dtype"])
        except KeyError:
            raise BadValue(
                f"{chip.name} has no {values['dtype']} peak",
                f"one of {', '.join(chip.peak_flop_per_s)}",
                argument="dtype",
            ) from None


# --- Values and parameters several kinds share --------------------------------------------

ACCELERATOR = OneOf("accelerator", tuple(ACCELERATORS))
MODEL = OneOf("model", tuple(MODELS))
COMPUTE_FORMAT = OneOf("number format", COMPUTE_DTYPES)
STORAGE_FORMAT = OneOf("storage format", STORAGE_DTYPES)
OPERATION = OneOf("operation", tuple(OPERATION_KINDS))
BATCH = WholeNumber(minimum=1, maximum=65_536, example="64")
DEVICES = WholeNumber(minimum=1, maximum=1024, example="2")
#: Cached tokens per sequence, where none is a valid choice.
CACHED_TOKENS = WholeNumber(minimum=0, maximum=10_485_760, example="32k", tokens=True)
#: A context length of a sweep (at least one token).
CONTEXT_TOKENS = WholeNumber(minimum=1, maximum=10_485_760, example="32k", tokens=True)
PROMPT_TOKENS = WholeNumber(minimum=1, maximum=10_485_760, example="2048", tokens=True)

DTYPE = FigureParameter("dtype", "dtype", COMPUTE_FORMAT, "number format of the math", "fp16")
WEIGHT_DTYPE = FigureParameter("weight-dtype", "weight_dtype", STORAGE_FORMAT, "storage format of the weights", "fp16")
KV_DTYPE = FigureParameter("kv-dtype", "kv_dtype", STORAGE_FORMAT, "storage format of the KV cache", "fp16")
DEVICES_SPLIT = FigureParameter(
    "devices", "devices", DEVICES, "devices the model is split over (tensor parallelism)", 1
)
#: The one accelerator of a figure about a single setup.
THE_ACCELERATOR = FigureParameter("accelerator", "accelerator", ACCELERATOR, "the accelerator", "h100-sxm")
