"""Calculator inputs: their definitions and the parsing of what a person typed.

A person can type anything into a field or a URL: an empty string, words, ``NaN``, ``1e308``.
Parsing never raises; it returns either a value or a message that names the field and the
accepted range, which the page shows next to that field.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Union


@dataclass(frozen=True)
class NumberInput:
    """A numeric field.

    Attributes:
        id: Name of the field in the form, the URL and the compute function.
        label: What the field is, in words.
        unit: Unit of the value *as typed* (``"TFLOP/s"``, ``"tokens"``); ``""`` for none.
        default: Value at page load.
        min: Smallest accepted value.
        max: Largest accepted value.
        step: Granularity offered by the control (the slider step).
        integer: Whether only whole numbers are accepted.
        slider: Whether the page offers a range slider beside the box.
        log_slider: Whether that slider moves on a log scale (powers of two for batch sizes).
        help: One sentence shown under the field.
        min_exclusive: Whether ``min`` itself is rejected (for ``> 0`` fields).
    """

    id: str
    label: str
    unit: str
    default: float
    min: float
    max: float
    step: float = 1
    integer: bool = False
    slider: bool = False
    log_slider: bool = False
    help: str = ""
    min_exclusive: bool = False
    kind: str = field(default="number", init=False)

    def range_text(self) -> str:
        what = "a whole number" if self.integer else "a number"
        unit = f" {self.unit}" if self.unit else ""
        if self.min_exclusive:
            return f"{what} greater than {_plain(self.min)} and at most {_plain(self.max)}{unit}"
        return f"{what} from {_plain(self.min)} to {_plain(self.max)}{unit}"

    def parse(self, raw: Any) -> tuple[float | int | None, str | None]:
        """Return ``(value, None)`` or ``(None, message)``."""
        expected = f"{self.label} must be {self.range_text()}"
        if raw is None or (isinstance(raw, str) and not raw.strip()):
            return None, f"{self.label} is empty; enter {self.range_text()}."
        if isinstance(raw, bool):
            return None, f"{expected}; got {raw!r}."
        if isinstance(raw, (int, float)):
            try:
                value = float(raw)
            except OverflowError:  # an int beyond float range (JSON allows any length)
                return None, f"{expected}; got {_shown(raw)}."
        elif isinstance(raw, str):
            text = raw.strip().replace(",", "").replace("_", "")
            try:
                value = float(text)
            except ValueError:
                return None, f"{expected}; got {_shown(raw)}."
        else:
            return None, f"{expected}; got a {type(raw).__name__}."
        if not math.isfinite(value):
            return None, f"{expected}; got {_shown(raw)}."
        if value < self.min or (self.min_exclusive and value == self.min) or value > self.max:
            return None, f"{expected}; got {_plain(value)}."
        if self.integer:
            if value != math.floor(value):
                return None, f"{expected}; got {_plain(value)}."
            return int(value), None
        return value, None

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "id": self.id,
            "label": self.label,
            "unit": self.unit,
            "default": self.default,
            "min": self.min,
            "max": self.max,
            "step": self.step,
            "integer": self.integer,
            "slider": self.slider,
            "log_slider": self.log_slider,
            "min_exclusive": self.min_exclusive,
            "help": self.help,
            "accepts": self.range_text(),
        }


@dataclass(frozen=True)
class Choice:
    """One option of a :class:`ChoiceInput`.

    Attributes:
        value: What the form, the URL and the compute function see.
        label: What the reader sees.
        fills: Values this choice puts into other fields, as typed (e.g. a preset's peak in
            TFLOP/s, or a model's attention kind), so the page can show them without computing
            anything. Keys are ids of fields of the same calculator.
    """

    value: str
    label: str
    fills: dict[str, float | str] = field(default_factory=dict)


@dataclass(frozen=True)
class ChoiceInput:
    """A select box (presets, number formats)."""

    id: str
    label: str
    choices: tuple[Choice, ...]
    default: str
    help: str = ""
    kind: str = field(default="choice", init=False)

    def __post_init__(self) -> None:
        if self.default not in {c.value for c in self.choices}:
            raise ValueError(f"{self.id}: default {self.default!r} is not one of its choices")

    def range_text(self) -> str:
        return "one of " + ", ".join(c.value for c in self.choices)

    def parse(self, raw: Any) -> tuple[str | None, str | None]:
        values = [c.value for c in self.choices]
        if raw is None or (isinstance(raw, str) and not raw.strip()):
            return None, f"{self.label} is empty; choose {self.range_text()}."
        if isinstance(raw, str) and raw.strip() in values:
            return raw.strip(), None
        return None, f"{self.label} must be {self.range_text()}; got {_shown(raw)}."

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "id": self.id,
            "label": self.label,
            "default": self.default,
            "choices": [{"value": c.value, "label": c.label, "fills": dict(c.fills)} for c in self.choices],
            "help": self.help,
            "accepts": self.range_text(),
        }


Input = Union[NumberInput, ChoiceInput]


def _plain(value: float) -> str:
    """A number as a person would write it in a range: 1, 0.5, 4096, 1e+308."""
    if value == math.floor(value) and abs(value) < 1e15:
        return str(int(value))
    return f"{value:g}"


def _shown(raw: Any) -> str:
    """What the person typed, quoted and cut short (the page shows it as text, never as HTML)."""
    text = str(raw)
    if len(text) > 40:
        text = text[:37] + "..."
    return repr(text)
