"""One vocabulary for every value a person types: calculator fields, prose quantities, figures.

A declaration says what a value is (its ``id``, which carries its unit where it has one, a
label, a help sentence, a default) and what is accepted (a range, or a list of slugs). Its
``parse(raw)`` turns what a person typed into the value, or explains why not; it never raises
on anything that can arrive from a form, a URL, a Markdown page or a command line::

    >>> BATCH.parse("64")
    (64, None)
    >>> value, invalid = BATCH.parse("0")
    >>> str(invalid)
    "'0' is out of range; expected a whole number from 1 to 65,536 sequences"

Every error has one grammar, ``<what is wrong>; expected <what is accepted>``; the caller puts
where it happened in front (``docs/page.md:12: ``, or a field's label).

How numbers are read (the same rule for every declaration):

- ASCII digits only. ``float()`` accepts Arabic-Indic or full-width digits; a page or a URL
  holding them is more likely a mistake or a spoof than a number, so they are refused.
- A dot is the decimal mark. A comma is never read as one: ``3,35`` is refused with a message
  that says to write ``3.35``. Whole numbers may group thousands with commas (``1,024``,
  ``32,768``: one to three digits, then groups of exactly three); numbers that may have a
  fraction accept no comma at all, since ``1,500`` would be ambiguous there.
- ``_`` may separate digits (``32_768``), as in Python; ``1e3`` and ``8e9`` are accepted.
- Token counts (and only they) accept a ``k`` suffix meaning 1,024: ``32k`` is 32,768 tokens,
  the way context windows are quoted. Other counts refuse it.
- ``inf``, ``nan``, hexadecimal, and anything beyond the declared range are refused, and every
  numeric declaration has a finite maximum, so whatever is accepted is finite and in range.

In a comma-separated list (a figure's ``batch: 1, 64``) commas separate items, so items are
written without thousands separators (``1024`` or ``1k``); a list such as ``1,024`` is refused
as ambiguous.

Standard library only, like the rest of ``roofline_core``.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import difflib
import math
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

# --- Shared limits -------------------------------------------------------------------------

#: A ``k`` after a token count multiplies it by this (``32k`` = 32,768 tokens).
TOKENS_PER_K = 1024
#: Most sequences in one batch: 2^16, past any serving batch (a B200's FP4 critical batch is
#: about 2,000) while keeping the figures and sliders readable.
MAX_BATCH = 65_536
#: Most accelerators a model is split over.
MAX_DEVICES = 1024
#: Most tokens in one context or prompt: 10 x 2^20, room for the 10M-token window Meta states
#: for Llama 4 Scout (https://ai.meta.com/blog/llama-4-multimodal-intelligence/).
MAX_TOKENS = 10 * 1024 * 1024
#: Largest matrix dimension of a hand-written product (2^24).
MAX_MATRIX_DIM = 16_777_216
#: Longest typed value read; longer text is refused before any conversion is tried.
MAX_TYPED_CHARS = 64
#: Longest list a figure takes (more would not be readable at phone width).
MAX_LIST = 16
#: Longest list written out in full when describing a value; longer ones are elided.
_LONGEST_DESCRIBED = 6
#: How much of a typed value a message quotes.
_QUOTED_CHARS = 40


# --- Errors and suggestions ----------------------------------------------------------------


@dataclass(frozen=True)
class Invalid:
    """Why a typed value was refused.

    Attributes:
        problem: What is wrong (``"'0' is out of range"``).
        expected: What is accepted (``"a whole number from 1 to 65,536 sequences"``).
        at: Where inside a structured value (a record's keys and a list's 0-based indexes);
            empty for a single value. Not part of ``str()``: the caller names the place.

    ``str()`` gives ``"<problem>; expected <expected>"``; the caller adds where it happened.
    """

    problem: str
    expected: str
    at: tuple[str | int, ...] = ()

    def __str__(self) -> str:
        return f"{self.problem}; expected {self.expected}"

    def within(self, *outer: str | int) -> Invalid:
        """The same problem, located inside ``outer`` (a record's key, a list's index)."""
        return dataclasses.replace(self, at=(*outer, *self.at))

    def where(self) -> str:
        """Where the problem is, in words: ``("sources", 0, "url")`` -> ``"'sources', item 1, 'url'"``.

        >>> Invalid("x", "y", at=("sources", 0, "url")).where()
        "'sources', item 1, 'url'"
        """
        return ", ".join(f"item {part + 1}" if isinstance(part, int) else shown(part) for part in self.at)


#: What :meth:`parse` returns: ``(value, None)`` or ``(None, Invalid)``.
Parsed = tuple[Any, Invalid | None]


def suggestion(text: str, choices: Sequence[str]) -> str:
    """`` (did you mean x?)`` for the likeliest of ``choices``, or ``""``.

    A choice that begins with the text wins (``h100`` -> ``h100-sxm``, ``context`` ->
    ``context_tokens``), then one that ends with it (``efficiency`` -> ``bandwidth_efficiency``),
    then the closest spelling (``h2000`` -> ``h200``).
    """
    typed = str(text).strip().lower()
    if not typed:
        return ""
    starts = [c for c in choices if c.lower().startswith(typed)]
    ends = [c for c in choices if c.lower().endswith(typed)]
    close = starts or ends or difflib.get_close_matches(typed, [c.lower() for c in choices], n=1)
    if not close:
        return ""
    match = next(c for c in choices if c.lower() == close[0].lower())
    return f" (did you mean {match}?)"


def shown(raw: Any) -> str:
    """What a person typed, quoted and cut short (messages show it as text, never as HTML)."""
    text = str(raw)
    if len(text) > _QUOTED_CHARS:
        text = text[: _QUOTED_CHARS - 3] + "..."
    return repr(text)


def plain(number: float) -> str:
    """A limit as a person would write it: ``1``, ``0.125``, ``65,536``, ``1e14``."""
    if number == math.floor(number) and abs(number) < 1e12:
        return f"{int(number):,}"
    return f"{number:g}".replace("e+", "e")


def _noun(label: str) -> str:
    """``"Batch size"`` -> ``"batch size"``; an acronym keeps its capitals (``"KV cache format"``)."""
    if len(label) > 1 and label[1].isupper():
        return label
    return label[:1].lower() + label[1:]


def kind_of(raw: Any) -> str:
    """What a structured value is, in words, for messages: ``"a list"``, ``"a mapping"``."""
    if raw is None:
        return "nothing"
    if isinstance(raw, bool):
        return "true or false"
    if isinstance(raw, (int, float)):
        return "a number"
    if isinstance(raw, str):
        return "text"
    if isinstance(raw, (list, tuple)):
        return "a list"
    if isinstance(raw, dict):
        return "a mapping"
    if isinstance(raw, dt.date):
        return "a date"
    return f"a {type(raw).__name__}"


def _blank(raw: Any) -> bool:
    """Nothing there: ``None``, blank text, an empty list or mapping."""
    if isinstance(raw, str):
        return not raw.strip()
    return raw is None or (isinstance(raw, (list, tuple, dict)) and not raw)


# --- Reading numbers -----------------------------------------------------------------------

# A number after commas (validated separately) are taken out: optional sign, digits with single
# underscores between them, an optional fraction and an optional exponent.
_NUMBER = re.compile(r"[+-]?(?:\d+(?:_\d+)*(?:\.(?:\d+(?:_\d+)*)?)?|\.\d+(?:_\d+)*)(?:[eE][+-]?\d+)?")
_GROUPED = re.compile(r"[+-]?\d{1,3}(?:,\d{3})+")
_DECIMAL_COMMA = re.compile(r"[+-]?\d*,\d+")
_WITH_K = re.compile(r"(.*\d)\s*[kK]")


def _non_ascii_digit(text: str) -> bool:
    return any(not ch.isascii() and unicodedata.category(ch) == "Nd" for ch in text)


@dataclass(frozen=True)
class _Declared:
    """What every declaration has (see :class:`Number` for the attributes)."""

    id: str
    label: str
    default: Any
    help: str = ""

    #: Attributes :meth:`variant` may change; limits are not among them.
    _ADJUSTABLE = frozenset({"default", "label", "help"})
    #: Whether a link (or a pinned scenario in one) may set the field.
    linked = True

    def variant(self, **changes: Any) -> Any:
        """This declaration with another default, label, help or presentation.

        Limits stay the ones declared, so a batch means the same everywhere; a use may only
        raise a minimum (a log slider or a sweep cannot start at zero).

        Raises:
            TypeError: for a change to the id, the unit, the maximum or the choices, or a lower
                minimum.
        """
        self._check_changes(changes)
        return dataclasses.replace(self, **changes)

    def _check_changes(self, changes: dict[str, Any]) -> None:
        for name, new in changes.items():
            if name == "minimum" and hasattr(self, "minimum") and new >= self.minimum:
                continue
            if name not in self._ADJUSTABLE:
                raise TypeError(f"{self.id}: {name} is part of the shared declaration; it cannot change per use")

    def noun(self) -> str:
        return _noun(self.label)

    def check(self, raw: Any) -> tuple[Any, list[Invalid]]:
        """``(value, [])``, or ``(None, problems)``: every problem found, each located by ``at``.

        A single value has one problem at most; a :class:`Record` reports all of its own.
        """
        value, invalid = self.parse(raw)  # type: ignore[attr-defined]
        return (value, []) if invalid is None else (None, [invalid])


@dataclass(frozen=True)
class Number(_Declared):
    """A number that may have a fraction (a bandwidth, a share, a count given as ``8e9``).

    Attributes:
        id: Name in forms, URLs, references and compute functions; it carries the unit where
            the value has one (``bandwidth_tb_per_s``).
        label: What the value is, in words (``"Memory bandwidth"``).
        default: Value when none is given (``None`` where a use requires it).
        help: One sentence on what it is.
        unit: Unit of the value as typed (``"TB/s"``, ``"%"``); ``""`` for none.
        minimum: Smallest accepted value.
        maximum: Largest accepted value (always finite).
        min_exclusive: Whether ``minimum`` itself is refused (for "more than zero").
        step: Granularity a form control offers.
        slider: Whether a form offers a range slider beside the box.
        log_slider: Whether that slider moves on a log scale.
    """

    unit: str = ""
    minimum: float = 0
    maximum: float = 1
    min_exclusive: bool = False
    step: float = 1
    slider: bool = False
    log_slider: bool = False

    _ADJUSTABLE = frozenset({"default", "label", "help", "step", "slider", "log_slider"})
    kind = "number"
    integer = False

    def __post_init__(self) -> None:
        if not (math.isfinite(self.minimum) and math.isfinite(self.maximum) and self.minimum <= self.maximum):
            raise ValueError(f"{self.id}: a range needs finite limits, minimum first")

    def _unit_text(self) -> str:
        if not self.unit:
            return ""
        return self.unit if self.unit == "%" else f" {self.unit}"

    def expected(self) -> str:
        """What is accepted, in words (for messages, help and docs tables)."""
        what = "a whole number" if self.integer else "a number"
        low, high = plain(self.minimum), plain(self.maximum)
        if self.min_exclusive:
            return f"{what} greater than {low} and at most {high}{self._unit_text()}"
        return f"{what} from {low} to {high}{self._unit_text()}"

    def parse(self, raw: Any) -> Parsed:
        """``(value, None)`` or ``(None, Invalid)``; never raises."""
        number = self._read(raw)
        if isinstance(number, Invalid):
            return None, number
        return self._check(number, raw)

    def _read(self, raw: Any) -> float | int | Invalid:
        """The number typed, not yet checked against the range, or why it is not a number."""
        if raw is None:
            return self._invalid("nothing entered")
        if isinstance(raw, bool):
            return self._invalid(f"{shown(raw)} is not a number")
        if isinstance(raw, int):
            return raw
        if isinstance(raw, float):
            if math.isnan(raw):
                return self._invalid(f"{shown(raw)} is not a number")
            return raw
        if not isinstance(raw, str):
            return self._invalid(f"a {type(raw).__name__} is not a number")
        text = raw.strip()
        if not text:
            return self._invalid("nothing entered")
        if len(text) > MAX_TYPED_CHARS:
            return self._invalid(f"{shown(text)} is too long ({len(text)} characters)")
        if _non_ascii_digit(text):
            return self._invalid(f"{shown(text)} has digits other than 0-9", ", in the digits 0-9")
        return self._read_text(text)

    def _read_text(self, text: str) -> float | int | Invalid:
        if self.unit == "%" and text.endswith("%"):
            text = text[:-1].rstrip()
        if "," in text:
            # Here a value may have a fraction, so "1,500" could mean 1.5 or 1500: refuse both
            # readings and show how to write each.
            if _GROUPED.fullmatch(text):
                return self._invalid(
                    f"{shown(text)} has a comma (write {text.replace(',', '')} without separators; a dot marks decimals)"
                )
            if _DECIMAL_COMMA.fullmatch(text):
                return self._invalid(f"{shown(text)} has a decimal comma (use a dot: {text.replace(',', '.')})")
            return self._invalid(f"{shown(text)} is not a number")
        return self._digits(text)

    def _digits(self, text: str) -> float | int | Invalid:
        if not _NUMBER.fullmatch(text):
            return self._invalid(f"{shown(text)} is not a number")
        bare = text.replace("_", "")
        if re.fullmatch(r"[+-]?\d+", bare):
            return int(bare)
        return float(bare)  # the pattern above admits only what float() reads; it may give inf

    def _check(self, number: float | int, raw: Any) -> Parsed:
        if isinstance(number, float) and not math.isfinite(number):
            return None, self._invalid(f"{shown(raw)} is not a finite number")
        too_low = number < self.minimum or (self.min_exclusive and number == self.minimum)
        if too_low or number > self.maximum:
            return None, self._invalid(f"{shown(raw)} is out of range" + self._hint(number))
        if self.integer:
            if number != math.floor(number):
                return None, self._invalid(f"{shown(raw)} is not a whole number")
            return int(number), None
        return float(number), None

    def _hint(self, number: float | int) -> str:
        # A share typed as a fraction (0.75) where a percent is expected (75).
        if self.unit == "%" and 0 < number < 1 and self.minimum <= number * 100 <= self.maximum:
            return f" (did you mean {plain(number * 100)}%?)"
        return ""

    def _invalid(self, problem: str, how: str = "") -> Invalid:
        return Invalid(problem, self.expected() + how)

    def write(self, value: float) -> str:
        """A value as an author would type it (``3.35``, ``32k``)."""
        return f"{value:g}"

    def to_json(self) -> dict[str, Any]:
        """The field as the calculators' browser code reads it."""
        return {
            "kind": self.kind,
            "id": self.id,
            "label": self.label,
            "unit": self.unit,
            "default": self.default,
            "min": self.minimum,
            "max": self.maximum,
            "step": self.step,
            "integer": self.integer,
            "slider": self.slider,
            "log_slider": self.log_slider,
            "min_exclusive": self.min_exclusive,
            "help": self.help,
            "accepts": self.expected(),
        }


@dataclass(frozen=True)
class WholeNumber(Number):
    """A whole number (a batch, a device count, a token count).

    Attributes:
        tokens: Whether the value counts tokens: a ``k`` suffix then means 1,024 (``32k``), and
            :meth:`write` uses it where it divides.

    The other attributes are :class:`Number`'s. Thousands may be grouped with commas
    (``32,768``); a decimal comma (``1,5``) is refused.
    """

    tokens: bool = False

    integer = True

    def expected(self) -> str:
        text = super().expected()
        return f"{text} (32k = 32,768)" if self.tokens else text

    def _read_text(self, text: str) -> float | int | Invalid:
        with_k = _WITH_K.fullmatch(text)
        if with_k:
            if not self.tokens:
                return self._invalid(f"{shown(text)} has a k suffix, which only token counts take")
            number = self._read_text(with_k.group(1))
            if isinstance(number, Invalid):
                return number
            tokens = number * TOKENS_PER_K
            if not math.isfinite(tokens):
                return self._invalid(f"{shown(text)} is not a finite number")
            if tokens != math.floor(tokens):
                return self._invalid(f"{shown(text)} is not a whole number of tokens")
            return int(tokens)
        if "," in text:
            if _GROUPED.fullmatch(text):
                return self._digits(text.replace(",", ""))
            if _DECIMAL_COMMA.fullmatch(text):
                return self._invalid(f"{shown(text)} has a decimal comma (use a dot: {text.replace(',', '.')})")
            return self._invalid(f"{shown(text)} is not a number", " (commas may only group thousands: 32,768)")
        return self._digits(text)

    def write(self, value: int) -> str:
        if self.tokens and value >= TOKENS_PER_K and value % TOKENS_PER_K == 0:
            return f"{value // TOKENS_PER_K}k"
        return str(value)


# --- Choices -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Choice:
    """One option of a :class:`OneOf`.

    Attributes:
        value: What forms, URLs, references and compute functions see (a slug).
        label: What the reader sees.
        fills: Values this choice puts into other fields of a calculator, as typed (a preset's
            peak in TFLOP/s, a model's attention kind), so the page can show them without
            computing anything. Keys are ids of fields of the same calculator.
        group: Heading the choice is listed under (a vendor, a model family); choices of one
            group are consecutive, and ungrouped ones (``""``) stand on their own.
        uses: Ids of fields that matter only while this choice is selected (the pasted
            config.json of "From a config.json"); they are hidden otherwise.
    """

    value: str
    label: str
    fills: dict[str, float | str] = field(default_factory=dict)
    group: str = ""
    uses: tuple[str, ...] = ()


@dataclass(frozen=True)
class OneOf(_Declared):
    """One of a fixed list of slugs (a preset, a number format, an operation).

    Attributes:
        choices: The options, in the order messages and forms list them.
        noun_text: What one value is, for messages (``"accelerator"``); the label lowercased
            when empty.

    The other attributes are :class:`Number`'s. Near misses get a suggestion (``h100`` ->
    ``h100-sxm``).
    """

    choices: tuple[Choice, ...] = ()
    noun_text: str = ""

    kind = "choice"

    def __post_init__(self) -> None:
        values = self.values()
        if not values or len(set(values)) != len(values):
            raise ValueError(f"{self.id}: choices must be distinct and at least one")
        if self.default is not None and self.default not in values:
            raise ValueError(f"{self.id}: default {self.default!r} is not one of its choices")

    def with_choices(self, choices: Sequence[Choice], **changes: Any) -> OneOf:
        """The same declaration with relabelled options, or extra ones after them.

        A calculator's presets fill its custom fields and it adds a "custom" option; every
        declared slug stays, in its order, so a slug means the same everywhere.

        Raises:
            TypeError: if a declared slug is missing or moved.
        """
        new = tuple(choices)
        if tuple(c.value for c in new[: len(self.choices)]) != self.values():
            raise TypeError(f"{self.id}: a use may relabel options or add some after them, not drop or reorder them")
        self._check_changes(changes)
        return dataclasses.replace(self, choices=new, **changes)

    def values(self) -> tuple[str, ...]:
        return tuple(c.value for c in self.choices)

    def noun(self) -> str:
        return self.noun_text or _noun(self.label)

    def expected(self) -> str:
        return "one of " + ", ".join(self.values())

    def parse(self, raw: Any) -> Parsed:
        """``(slug, None)`` or ``(None, Invalid)``; never raises."""
        if raw is None or (isinstance(raw, str) and not raw.strip()):
            return None, Invalid("nothing chosen", self.expected())
        if isinstance(raw, str):
            text = raw.strip()
            if text in self.values():
                return text, None
            if len(text) <= MAX_TYPED_CHARS:
                return None, Invalid(
                    f"unknown {self.noun()} {shown(text)}{suggestion(text, self.values())}", self.expected()
                )
        return None, Invalid(f"unknown {self.noun()} {shown(raw)}", self.expected())

    def write(self, value: str) -> str:
        return value

    def to_json(self) -> dict[str, Any]:
        """The field as the calculators' browser code reads it."""
        return {
            "kind": self.kind,
            "id": self.id,
            "label": self.label,
            "default": self.default,
            "choices": [
                {"value": c.value, "label": c.label, "fills": dict(c.fills), "group": c.group, "uses": list(c.uses)}
                for c in self.choices
            ],
            "help": self.help,
            "accepts": self.expected(),
        }


def slugs(values: Sequence[str], labels: Sequence[str] | None = None) -> tuple[Choice, ...]:
    """Options from slugs, each labelled by itself or by ``labels``."""
    return tuple(Choice(value=v, label=label) for v, label in zip(values, labels or values))


# --- Lists ---------------------------------------------------------------------------------

# "1,024" inside a list: one to three digits, a comma and exactly three digits, no space.
_GROUPING_IN_LIST = re.compile(r"(?:^|,)\s*\d{1,3},\d{3}(?:,|$)")


@dataclass(frozen=True)
class ListOf:
    """Several values of one declaration (a figure's ``batch: 1, 8, 64``, an entry's aliases).

    Attributes:
        item: The declaration of each value (its range applies to every item).
        most: Most values accepted.
        unique: Whether a value may appear only once.
        split_text: Whether text is read as values separated by commas (as typed in a figure
            fence); when False only a list is accepted (a YAML list of ``- item`` lines).
    """

    item: Any
    most: int = MAX_LIST
    unique: bool = True
    split_text: bool = True

    kind = "list"
    linked = True

    def __post_init__(self) -> None:
        if self.most < 1:
            raise ValueError(f"{self.item.id}: a list needs room for one value")

    @property
    def id(self) -> str:
        return self.item.id

    @property
    def label(self) -> str:
        return self.item.label

    @property
    def help(self) -> str:
        return self.item.help

    @property
    def default(self) -> list[Any]:
        return []

    def expected(self) -> str:
        if self.split_text:
            return f"up to {self.most} values separated by commas, each {self.item.expected()}"
        return f"a list of up to {self.most} values ('- item' lines), each {self.item.expected()}"

    def parse(self, raw: Any) -> Parsed:
        """``(list, None)`` or ``(None, Invalid)``; never raises."""
        values, problems = self.check(raw)
        return (values, None) if not problems else (None, problems[0])

    def check(self, raw: Any) -> tuple[list[Any] | None, list[Invalid]]:
        """``(list, [])``, or ``(None, problems)`` with each item's problem located by its index."""
        items, invalid = self._items(raw)
        if invalid is not None:
            return None, [invalid]
        values, problems = [], []
        for index, item in enumerate(items):
            value, found = self.item.check(item)
            # A figure's list names a bad value by quoting it; a structured list says which item.
            problems += found if self.split_text else [p.within(index) for p in found]
            values.append(value)
        if problems:
            return None, problems
        if self.unique:
            seen: set[Any] = set()
            for index, value in enumerate(values):
                if _hashable(value) in seen:
                    if self.split_text:
                        return None, [Invalid(f"{shown(raw)} repeats a value", "each value once")]
                    return None, [
                        Invalid(f"{shown(self.item.write(value))} is given twice", "each value once", at=(index,))
                    ]
                seen.add(_hashable(value))
        return values, []

    def _items(self, raw: Any) -> tuple[list[Any], Invalid | None]:
        if isinstance(raw, (list, tuple)):
            items: list[Any] = list(raw)
            if not items:
                return [], Invalid("nothing entered", self.expected())
        elif isinstance(raw, str) and self.split_text:
            if not raw.strip():
                return [], Invalid("nothing entered", self.expected())
            if len(raw) > MAX_TYPED_CHARS * self.most:
                return [], Invalid(f"{shown(raw)} is too long ({len(raw)} characters)", self.expected())
            if isinstance(self.item, WholeNumber) and _GROUPING_IN_LIST.search(raw):
                return [], Invalid(
                    f"{shown(raw)} is ambiguous: commas separate the values of a list",
                    "values without thousands separators (1024 or 1k)",
                )
            items = [part.strip() for part in raw.split(",")]
            if any(part == "" for part in items):
                return [], Invalid(f"{shown(raw)} has an empty item", "values separated by single commas")
        else:
            return [], Invalid(f"{kind_of(raw)} is not a list", self.expected())
        if len(items) > self.most:
            return [], Invalid(f"{len(items)} values", f"at most {self.most}")
        return items, None

    def write(self, values: Sequence[Any]) -> str:
        """The values as an author would write them; a long list shows its first three and its last."""
        words = [self.item.write(v) for v in values]
        if len(words) > _LONGEST_DESCRIBED:
            words = [*words[:3], "...", words[-1]]
        return ", ".join(words)


def _hashable(value: Any) -> Any:
    """A value as a set member (a record's mapping becomes its sorted items)."""
    return tuple(sorted(value.items())) if isinstance(value, dict) else value


# --- Text, dates, slugs, addresses and records ----------------------------------------------
# Values of authored content (a glossary entry's front matter) that are not numbers. Each has a
# finite length limit, like every number has a finite maximum.

#: Longest web address read (browsers and servers handle far longer; citations never need it).
MAX_URL_CHARS = 2000
#: Longest slug read.
MAX_SLUG_CHARS = 100


@dataclass(frozen=True)
class Rule:
    """A condition text must meet, beyond its length.

    Attributes:
        pattern: A regular expression searched for in the text.
        problem: What is wrong when the rule is broken, after the quoted text
            (``"holds markup characters"``).
        expected: What is accepted instead.
        must_match: Whether the text must contain ``pattern`` (else it must not).
    """

    pattern: re.Pattern[str]
    problem: str
    expected: str
    must_match: bool = False

    def broken_by(self, text: str) -> bool:
        return bool(self.pattern.search(text)) != self.must_match


@dataclass(frozen=True)
class Text(_Declared):
    """Text of bounded length on one line (a title, a summary, a source's note).

    Runs of spaces and line breaks become one space.

    Attributes:
        most_chars: Most characters accepted, after spaces are joined.
        rules: Conditions the text must meet, checked in order; the first broken one is reported.
        what: What the text is, for messages (``"one plain-text sentence"``).

    The other attributes are :class:`Number`'s.

    >>> TITLE = Text(id="title", label="Title", default=None, most_chars=10)
    >>> TITLE.parse("  KV   cache ")
    ('KV cache', None)
    >>> print(TITLE.parse("Key-value cache")[1])
    'Key-value cache' is 15 characters long; expected text of at most 10 characters
    """

    most_chars: int = MAX_TYPED_CHARS
    rules: tuple[Rule, ...] = ()
    what: str = "text"

    kind = "text"

    def __post_init__(self) -> None:
        if self.most_chars < 1:
            raise ValueError(f"{self.id}: text needs room for one character")

    def expected(self) -> str:
        return f"{self.what} of at most {self.most_chars:,} characters"

    def parse(self, raw: Any) -> Parsed:
        """``(text, None)`` or ``(None, Invalid)``; never raises."""
        if _blank(raw):
            return None, Invalid("nothing entered", self.expected())
        if not isinstance(raw, str):
            return None, Invalid(f"{kind_of(raw)} is not text", self.expected())
        text = " ".join(raw.split())
        if len(text) > self.most_chars:
            return None, Invalid(f"{shown(text)} is {len(text):,} characters long", self.expected())
        for rule in self.rules:
            if rule.broken_by(text):
                return None, Invalid(f"{shown(text)} {rule.problem}", rule.expected)
        return text, None

    def write(self, value: str) -> str:
        return value


_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


@dataclass(frozen=True)
class Date(_Declared):
    """A calendar date written ``YYYY-MM-DD`` (a YAML date is taken as it is).

    >>> ADDED = Date(id="added", label="Added", default=None)
    >>> ADDED.parse("2026-01-31")
    (datetime.date(2026, 1, 31), None)
    >>> print(ADDED.parse("31/01/2026")[1])
    '31/01/2026' is not a date; expected a date written YYYY-MM-DD, e.g. 2026-01-31
    """

    kind = "date"

    def expected(self) -> str:
        return "a date written YYYY-MM-DD, e.g. 2026-01-31"

    def parse(self, raw: Any) -> Parsed:
        """``(datetime.date, None)`` or ``(None, Invalid)``; never raises."""
        if _blank(raw):
            return None, Invalid("nothing entered", self.expected())
        if isinstance(raw, dt.datetime):
            return raw.date(), None
        if isinstance(raw, dt.date):
            return raw, None
        if isinstance(raw, str) and _ISO_DATE.fullmatch(raw.strip()):
            try:
                return dt.date.fromisoformat(raw.strip()), None
            except ValueError:
                pass  # 2026-02-30: the shape of a date but not a day
        return None, Invalid(f"{shown(raw)} is not a date", self.expected())

    def write(self, value: dt.date) -> str:
        return value.isoformat()


#: Lowercase ASCII letters and digits in groups joined by single hyphens (``kv-cache``).
SLUG_PATTERN = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


def slugify(text: str) -> str:
    """The slug of a name: ``"KV cache"`` -> ``"kv-cache"``, ``"Peak FLOP/s"`` -> ``"peak-flop-s"``.

    >>> slugify("Ridge point (roofline)")
    'ridge-point-roofline'
    """
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    return re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")


@dataclass(frozen=True)
class Slug(_Declared):
    """A name used in an address (a glossary term's file name, a preset's key).

    Attributes:
        reserved: Slugs that are taken for other uses and refused.

    Unlike :class:`OneOf`, the set of valid slugs is open; a caller that knows them (the
    glossary's terms) checks membership and suggests a near miss itself.

    >>> TERM = Slug(id="related", label="Related term", default=None, reserved=frozenset({"index"}))
    >>> print(TERM.parse("KV_Cache")[1])
    'KV_Cache' is not a slug; expected lowercase letters, digits and single hyphens, e.g. 'kv-cache'
    """

    reserved: frozenset[str] = frozenset()

    kind = "slug"

    def expected(self) -> str:
        return "lowercase letters, digits and single hyphens"

    def parse(self, raw: Any) -> Parsed:
        """``(slug, None)`` or ``(None, Invalid)``; never raises."""
        if _blank(raw):
            return None, Invalid("nothing entered", self.expected())
        if not isinstance(raw, str):
            return None, Invalid(f"{kind_of(raw)} is not a slug", self.expected())
        text = raw.strip()
        if len(text) > MAX_SLUG_CHARS:
            return None, Invalid(f"{shown(text)} is too long ({len(text)} characters)", f"at most {MAX_SLUG_CHARS}")
        if not SLUG_PATTERN.fullmatch(text):
            example = slugify(text[:MAX_SLUG_CHARS])
            return None, Invalid(
                f"{shown(text)} is not a slug", self.expected() + (f", e.g. {example!r}" if example else "")
            )
        if text in self.reserved:
            return None, Invalid(f"{shown(text)} is reserved", "a slug other than " + ", ".join(sorted(self.reserved)))
        return text, None

    def write(self, value: str) -> str:
        return value


# An https address: no whitespace, and none of the characters that end a Markdown link target
# or an HTML attribute (a page writes it as an attribute, escaped, regardless).
_HTTPS_URL = re.compile(r"https://[^\s/<>)\"'\\]+\.[^\s<>)\"'\\]+")


@dataclass(frozen=True)
class Url(_Declared):
    """An absolute https address (a cited source).

    >>> SOURCE = Url(id="url", label="Address", default=None)
    >>> SOURCE.parse("https://arxiv.org/abs/2309.06180")
    ('https://arxiv.org/abs/2309.06180', None)
    >>> SOURCE.parse("javascript:alert(1)")[1].problem
    "'javascript:alert(1)' is not an https address"
    """

    kind = "url"

    def expected(self) -> str:
        return "an absolute https:// address without spaces, quotes, backslashes, '<', '>' or ')'"

    def parse(self, raw: Any) -> Parsed:
        """``(address, None)`` or ``(None, Invalid)``; never raises."""
        if _blank(raw):
            return None, Invalid("nothing entered", self.expected())
        if not isinstance(raw, str):
            return None, Invalid(f"{kind_of(raw)} is not an address", self.expected())
        text = raw.strip()
        if len(text) > MAX_URL_CHARS:
            return None, Invalid(f"{shown(text)} is too long ({len(text):,} characters)", f"at most {MAX_URL_CHARS:,}")
        if not _HTTPS_URL.fullmatch(text):
            return None, Invalid(f"{shown(text)} is not an https address", self.expected())
        return text, None

    def write(self, value: str) -> str:
        return value


@dataclass(frozen=True)
class Record(_Declared):
    """A mapping of named values, each with its own declaration (a cited source, front matter).

    Attributes:
        fields: The declaration of each key, in the order messages and documents list them.
        required: Keys that must be present and not blank; a missing optional key takes its
            declaration's default.

    Unknown keys get a suggestion (``sumary`` -> ``summary``). :meth:`check` reports every
    problem, each located by ``at`` (the key, and inside it the list index or nested key).

    >>> SOURCE = Record(id="source", label="Source", default=None, required=frozenset({"url"}),
    ...                 fields=(Url(id="url", label="Address", default=None),))
    >>> values, problems = SOURCE.check({"ulr": "https://example.org/a"})
    >>> [(p.where(), str(p)) for p in problems]
    [("'ulr'", 'not a known key (did you mean url?); expected one of url'), ("'url'", "missing; expected url: an absolute https:// address without spaces, quotes, backslashes, '<', '>' or ')'")]
    """

    fields: tuple[Any, ...] = ()
    required: frozenset[str] = frozenset()

    kind = "record"

    def __post_init__(self) -> None:
        ids = self.ids()
        if len(set(ids)) != len(ids) or not self.required <= set(ids):
            raise ValueError(f"{self.id}: field ids must be distinct and include every required one")

    def ids(self) -> tuple[str, ...]:
        return tuple(f.id for f in self.fields)

    def field(self, field_id: str) -> Any:
        return next(f for f in self.fields if f.id == field_id)

    def expected(self) -> str:
        needed = [i for i in self.ids() if i in self.required]
        optional = [i for i in self.ids() if i not in self.required]
        text = "a mapping with " + ", ".join(needed)
        return text + (" and optionally " + ", ".join(optional) if optional else "")

    def parse(self, raw: Any) -> Parsed:
        """``(dict, None)`` or ``(None, Invalid)`` with the first problem; never raises."""
        values, problems = self.check(raw)
        return (values, None) if not problems else (None, problems[0])

    def check(self, raw: Any) -> tuple[dict[str, Any], list[Invalid]]:
        """The values that are valid (by key) and every problem found.

        The values are returned even when there are problems, so a caller can go on checking
        what depends on them (an entry's title, for the entries that link to it).
        """
        if not isinstance(raw, dict):
            return {}, [Invalid(f"{kind_of(raw)} is not a mapping", self.expected())]
        ids = self.ids()
        problems = [
            Invalid(f"not a known key{suggestion(str(key), ids)}", "one of " + ", ".join(ids), at=(str(key),))
            for key in raw
            if key not in ids
        ]
        values: dict[str, Any] = {}
        for declared in self.fields:
            raw_value = raw.get(declared.id)
            if _blank(raw_value):
                if declared.id in self.required:
                    problem = "missing" if declared.id not in raw else "nothing entered"
                    problems.append(
                        Invalid(problem, f"{declared.id}: {declared.help or declared.expected()}", at=(declared.id,))
                    )
                else:
                    values[declared.id] = declared.default
                continue
            value, found = declared.check(raw_value)
            problems += [p.within(declared.id) for p in found]
            if not found:
                values[declared.id] = value
        return values, problems


@dataclass(frozen=True)
class ModelConfig(_Declared):
    """A model's architecture: a pasted ``config.json``, or the short code a link carries.

    The value is the short code (:mod:`roofline_core.models.config_code`), so a link holds a few dozen
    characters, not the file. Problems are the config reader's, e.g. ``field 'hidden_size' is
    missing; expected a whole number >= 1``.
    """

    kind = "config"

    def expected(self) -> str:
        return "the text of a model's config.json"

    def parse(self, raw: Any) -> Parsed:
        """``(code, None)`` or ``(None, Invalid)``; never raises."""
        # Imported here: the config reader builds models, whose presets load after this module.
        from roofline_core.models.config_code import ConfigError, read_model_config

        if not isinstance(raw, str):
            return None, Invalid(f"{kind_of(raw)} is not text", self.expected())
        try:
            code, _ = read_model_config(raw)
        except ConfigError as error:
            problem, _, expected = str(error).partition("; expected ")
            return None, Invalid(problem, expected or self.expected())
        return code, None

    def write(self, value: str) -> str:
        return value

    def to_json(self) -> dict[str, Any]:
        from roofline_core.models.hf_config import MAX_CONFIG_CHARS

        return _text_box_json(self, max_chars=MAX_CONFIG_CHARS)


#: Longest pasted block a :class:`PastedText` box reads (roofline_core.questions.bench_output's limit).
MAX_PASTED_CHARS = 20_000


@dataclass(frozen=True)
class PastedText(_Declared):
    """A block of pasted text kept as typed, lines and all (a benchmark's printed summary).

    Unlike :class:`Text` it is not joined onto one line, and it is never required: an empty box
    is a valid value that means "nothing pasted". What the text says is read by the calculator,
    which names what it could not use; only the length is checked here. A link never carries
    it (``site_assets/calculators/calculator.mjs``), so a shared address stays short.

    Attributes:
        most_chars: Most characters accepted.
        what: What the text is, for messages.

    >>> BOX = PastedText(id="paste", label="Pasted output", default="", most_chars=5)
    >>> BOX.parse("a   b")
    ('a   b', None)
    >>> print(BOX.parse("abcdef")[1])
    the text is 6 characters long; expected pasted text of at most 5 characters
    """

    most_chars: int = MAX_PASTED_CHARS
    what: str = "pasted text"

    kind = "paste"
    #: Never read from a link or a pinned scenario: links never write it, and a paste is the
    #: largest text a field takes (the browser's url-state.mjs reads this flag from ``to_json``).
    linked = False

    def expected(self) -> str:
        return f"{self.what} of at most {self.most_chars:,} characters"

    def parse(self, raw: Any) -> Parsed:
        """``(text, None)`` or ``(None, Invalid)``; never raises."""
        if not isinstance(raw, str):
            return None, Invalid(f"{kind_of(raw)} is not text", self.expected())
        if len(raw) > self.most_chars:
            return None, Invalid(f"the text is {len(raw):,} characters long", self.expected())
        return raw, None

    def write(self, value: str) -> str:
        return value

    def to_json(self) -> dict[str, Any]:
        return _text_box_json(self, max_chars=self.most_chars) | {"linked": self.linked}


def _text_box_json(box: ModelConfig | PastedText, *, max_chars: int) -> dict[str, Any]:
    """A multi-line text box as the calculators' browser code reads it (both kinds alike)."""
    return {
        "kind": box.kind,
        "id": box.id,
        "label": box.label,
        "default": box.default,
        "help": box.help,
        "accepts": box.expected(),
        "max_chars": max_chars,
    }


Declaration = Number | WholeNumber | OneOf | ListOf | Text | Date | Slug | Url | Record | ModelConfig | PastedText


# --- Standard declarations -----------------------------------------------------------------
# One of each, with one set of limits; a use may change its default, label or help
# (``BATCH.variant(default=64)``), never its range.


def _preset_choices() -> tuple[OneOf, OneOf, OneOf, OneOf, OneOf]:
    # Imported here so this module's helpers load without the preset tables (and no cycle forms
    # if a preset module ever uses the vocabulary).
    from roofline_core.hardware import ACCELERATORS
    from roofline_core.hardware.dtypes import COMPUTE_DTYPES, DTYPES, STORAGE_DTYPES, WEIGHT_DTYPES
    from roofline_core.models import MODELS

    def dtype_choices(values: Sequence[str]) -> tuple[Choice, ...]:
        return tuple(Choice(value=d, label=DTYPES[d].label) for d in values)

    accelerator = OneOf(
        id="accelerator",
        label="Accelerator",
        default="h100-sxm",
        help="An accelerator preset.",
        choices=tuple(Choice(value=a.slug, label=a.name, group=a.group) for a in ACCELERATORS.values()),
    )
    model = OneOf(
        id="model",
        label="Model",
        default="llama-3-8b",
        help="A published model's shapes.",
        choices=tuple(Choice(value=m.slug, label=m.name, group=m.family) for m in MODELS.values()),
    )
    weights = OneOf(
        id="weight_dtype",
        label="Weight format",
        default="fp16",
        help="How the weights are stored; it sets the bytes read per parameter.",
        choices=dtype_choices(WEIGHT_DTYPES),
        noun_text="storage format",
    )
    kv = dataclasses.replace(
        weights,
        id="kv_dtype",
        label="KV cache format",
        help="How cached keys and values are stored.",
        choices=dtype_choices(STORAGE_DTYPES),
    )
    compute = OneOf(
        id="dtype",
        label="Precision",
        default="fp16",
        help="The number format of the math; it picks the preset's dense peak.",
        choices=dtype_choices(COMPUTE_DTYPES),
        noun_text="number format",
    )
    return accelerator, model, weights, kv, compute


ACCELERATOR, MODEL, WEIGHT_DTYPE, KV_DTYPE, COMPUTE_DTYPE = _preset_choices()

#: The math format of an inference estimate: "auto" (what engines do for the weight format on
#: the chip, roofline_core.hardware.compute_format) or a format whose peak the chip lists.
MATH_DTYPE = OneOf(
    id="compute_dtype",
    label="Math format",
    default="auto",
    help=(
        "The format the matrix units compute in. Auto is what vLLM does: FP8 and NVFP4 weights on "
        "that peak where the chip has one; INT8, INT4 and MXFP4 weights (and the rest) widened to "
        "16 bits (weight-only)."
    ),
    choices=(Choice(value="auto", label="Auto (as engines run these weights)"), *COMPUTE_DTYPE.choices),
    noun_text="math format",
)

BATCH = WholeNumber(
    id="batch",
    label="Batch size",
    unit="sequences",
    default=1,
    minimum=1,
    maximum=MAX_BATCH,
    slider=True,
    log_slider=True,
    help="Sequences processed together in one step.",
)
DEVICES = WholeNumber(
    id="devices",
    label="Devices",
    unit="accelerators",
    default=1,
    minimum=1,
    maximum=MAX_DEVICES,
    help=(
        "Accelerators the weights and work are split over evenly (tensor parallelism, with its "
        "all-reduces where the model and the link bandwidth are known)."
    ),
)
CONTEXT_TOKENS = WholeNumber(
    id="context_tokens",
    label="Context length",
    unit="tokens",
    default=0,
    minimum=0,
    maximum=MAX_TOKENS,
    tokens=True,
    help="Tokens already in each sequence's KV cache.",
)
PROMPT_TOKENS = WholeNumber(
    id="prompt_tokens",
    label="Prompt length",
    unit="tokens",
    default=2048,
    minimum=1,
    maximum=MAX_TOKENS,
    tokens=True,
    slider=True,
    log_slider=True,
    help="Tokens in each prompt, processed together in one forward pass.",
)
BANDWIDTH_EFFICIENCY = Number(
    id="bandwidth_efficiency",
    label="Bandwidth efficiency",
    unit="%",
    default=100,
    minimum=1,
    maximum=100,
    step=1,
    slider=True,
    help="Share of peak memory bandwidth actually sustained; serving stacks reach about 70-80%.",
)
PARAMS = Number(
    id="params",
    label="Parameters",
    unit="parameters",
    default=None,
    minimum=1e6,
    maximum=1e14,
    help="Parameters read per generated token (for a mixture of experts, the active ones), e.g. 8e9.",
)
PARAMS_BILLION = Number(
    id="params_billion",
    label="Parameters",
    unit="billion",
    default=70,
    minimum=0.001,  # PARAMS's limits, in billions (a test keeps them equal)
    maximum=100_000,
    step=0.1,
    help="Parameters read per generated token (for a mixture of experts, the active ones).",
)
PEAK_TFLOP_PER_S = Number(
    id="peak_tflop_per_s",
    label="Peak compute",
    unit="TFLOP/s",
    default=989,
    # A floor above zero keeps the ridge finite (a subnormal bandwidth would make it inf).
    minimum=0.001,
    maximum=1e6,
    step=0.1,
    help="Dense peak compute of one accelerator.",
)
BANDWIDTH_TB_PER_S = Number(
    id="bandwidth_tb_per_s",
    label="Memory bandwidth",
    unit="TB/s",
    default=3.35,
    minimum=0.001,
    maximum=1e4,
    step=0.01,
    help="Peak memory bandwidth of one accelerator.",
)
MEMORY_GB = Number(
    id="memory_gb",
    label="Memory capacity",
    unit="GB",
    default=80,
    minimum=0.001,
    maximum=1e6,
    step=1,
    help="Memory of one accelerator.",
)
INTENSITY = Number(
    id="intensity",
    label="Arithmetic intensity",
    unit="FLOP/byte",
    default=1,
    minimum=0.01,
    maximum=10_000,
    step=0.01,
    slider=True,
    log_slider=True,
    help="FLOPs the workload does per byte it moves; batch-1 decode in fp16 is about 1.",
)
LAYERS = WholeNumber(
    id="layers", label="Layers", unit="layers", default=80, minimum=1, maximum=1000, help="Decoder layers."
)
KV_HEADS = WholeNumber(
    id="kv_heads",
    label="KV heads",
    unit="heads",
    default=8,
    minimum=1,
    maximum=1024,
    help="Key/value heads per layer (all heads for MHA, fewer for GQA).",
)
HEAD_DIM = WholeNumber(
    id="head_dim",
    label="Head width",
    unit="elements",
    default=128,
    minimum=1,
    maximum=4096,
    help="Width of one attention head.",
)
MODEL_CONFIG = ModelConfig(
    id="model_config",
    label="Model config.json",
    default="",
    help=(
        "Paste a model's config.json (from its Hugging Face page) or drop the file here; or drop a "
        ".gguf file, whose header alone gives the shape and every tensor's exact bytes. Only the "
        "architecture fields are read; a link to this page carries them in a short code."
    ),
)
