"""Figure parameters: what each figure kind accepts, declared once beside its data function.

Each kind module lists its :class:`FigureParameter` declarations (the key an author writes, the
keyword argument it fills, the kind of value, a help sentence and the default) and wraps them
with its data function in a :class:`FigureKind`. The kinds of value are the shared declarations
of :mod:`roofline_core.vocabulary` (one set of limits and choices: a batch, a context length, an
accelerator mean the same in a figure, a calculator and the command line). The figure fence of
the site (``roofline_site.figures.spec``) reads these declarations to parse what an author
wrote; its docs tables of parameters are checked against them.

A fence's values are read by the vocabulary's rules, as a form's or a prose quantity's are (in a
list, commas separate the items, so ``1,024`` there is refused as ambiguous). A rejected value
raises :class:`BadValue` with what is wrong and what is expected; the caller adds where it was
written.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from roofline_core import vocabulary as v
from roofline_core.estimates.operations import OPERATION_KINDS
from roofline_core.hardware import ACCELERATORS

#: Longest list a figure takes (more would not be readable at phone width).
MAX_LIST = v.MAX_LIST
#: Most accelerators or models one figure compares.
MAX_COMPARED = 4


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


# --- Reading a fence's text -----------------------------------------------------------------

Value = v.OneOf | v.WholeNumber | v.ListOf
"""The kind of a figure parameter's value: a shared declaration, or a list of one."""


def read(value: Value, text: str) -> Any:
    """The value an author wrote as ``text`` in a figure fence, read by the vocabulary's rules.

    Raises:
        BadValue: if ``text`` is not an accepted value.
    """
    parsed, invalid = value.parse(text)
    if invalid is not None:
        raise BadValue(invalid.problem, invalid.expected)
    return parsed


# --- Parameters and kinds -----------------------------------------------------------------


@dataclass(frozen=True)
class FigureParameter:
    """One parameter of a figure kind.

    Attributes:
        key: The key as authors write it in a figure fence (``"weight-dtype"``).
        argument: The keyword argument of the data function it fills (``"weight_dtype"``).
        value: The kind of value (a :mod:`roofline_core.vocabulary` declaration, or a list of
            one), with its range or choices and list limits.
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
        return read(self.value, text)

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
# The vocabulary's declarations, and the two uses only figures have (operations; a sweep of
# context lengths, which starts at one token).

ACCELERATOR = v.ACCELERATOR
MODEL = v.MODEL
COMPUTE_FORMAT = v.COMPUTE_DTYPE
OPERATION = v.OneOf(
    id="operation",
    label="Operation",
    default=None,
    help="An operation of the operations catalogue.",
    choices=v.slugs(tuple(OPERATION_KINDS), tuple(OPERATION_KINDS.values())),
)
BATCH = v.BATCH
DEVICES = v.DEVICES
#: Cached tokens per sequence, where none is a valid choice.
CACHED_TOKENS = v.CONTEXT_TOKENS
#: A context length of a sweep (at least one token).
CONTEXT_TOKENS = v.CONTEXT_TOKENS.variant(minimum=1)
PROMPT_TOKENS = v.PROMPT_TOKENS

DTYPE = FigureParameter("dtype", "dtype", COMPUTE_FORMAT, "number format of the math", "fp16")
WEIGHT_DTYPE = FigureParameter("weight-dtype", "weight_dtype", v.WEIGHT_DTYPE, "storage format of the weights", "fp16")
KV_DTYPE = FigureParameter("kv-dtype", "kv_dtype", v.KV_DTYPE, "storage format of the KV cache", "fp16")
DEVICES_SPLIT = FigureParameter(
    "devices", "devices", DEVICES, "devices the model is split over (tensor parallelism)", 1
)
#: The one accelerator of a figure about a single setup.
THE_ACCELERATOR = FigureParameter("accelerator", "accelerator", ACCELERATOR, "the accelerator", "h100-sxm")
