"""Compare two scenarios of one calculator: how each answer changed, and why, input by input.

A reader pins a scenario as A and changes inputs to get B. :func:`compare` computes both and
explains the change in the calculator's main number by moving A's inputs to B's one at a time,
in the order the form lists them, and recomputing after each move. The effect of a move is the
ratio of the number after it to the number before it, so the effects multiply exactly to the
whole change (B / A): nothing is left unexplained and nothing is counted twice. The order
matters when inputs interact (a faster chip does less once a larger batch has made the step
compute-bound); the page says so.

A change of preset also says what it changes underneath (the chip's bandwidth, 3.35 against
4.8 TB/s), and a change of number format its bytes per value, from the same data the form fills
its fields from; nothing here is a new formula.

>>> c = compare("roofline-explorer", {"accelerator": "h100-sxm", "intensity": "16"},
...             {"accelerator": "h200", "intensity": "16"})
>>> c.changes[0].label, c.changes[0].details[0]
('Accelerator', 'Memory bandwidth: 3.35 → 4.8 TB/s (1.43x)')
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from roofline_core.calculators import CALCULATORS, compute
from roofline_core.calculators.base import Calculator
from roofline_core.formatting import box_text, format_amount, format_number
from roofline_core.hardware.dtypes import DTYPES
from roofline_core.vocabulary import Declaration, ModelConfig, Number, OneOf

#: Effects closer to 1 than this are "no change" (a thousandth, below what the page shows).
UNCHANGED = 1e-3


@dataclass(frozen=True)
class OutputDifference:
    """One result of the calculator, in A and in B.

    Attributes:
        output_id: The output's id.
        label: What the result is.
        a_text: As the page shows it for A.
        b_text: As the page shows it for B.
        ratio: B / A for a number that is not zero in A; None for words or a zero.
    """

    output_id: str
    label: str
    a_text: str
    b_text: str
    ratio: float | None

    @property
    def changed(self) -> bool:
        return self.a_text != self.b_text


@dataclass(frozen=True)
class InputChange:
    """One input that differs between A and B, and what moving it did to the main result.

    Attributes:
        field_id: The input's id.
        label: Its label.
        a_text: A's value as the reader reads it (a preset's name, ``16 sequences``).
        b_text: B's value.
        details: What a change of choice means underneath: the preset numbers that differ, the
            bytes per value of a number format.
        effect: The main result after this move divided by before it (infinite from zero);
            None when this move alone is not a valid scenario (it is then taken together with
            the next one, whose effect covers both).
    """

    field_id: str
    label: str
    a_text: str
    b_text: str
    details: tuple[str, ...]
    effect: float | None


@dataclass(frozen=True)
class Comparison:
    """A and B side by side.

    Attributes:
        calculator_id: The calculator both scenarios are of.
        errors_a: ``{input id: message}`` for A (a pinned scenario from an edited link); when
            either errors map is not empty, the rest is empty.
        errors_b: The same for B.
        outputs: Every result, A against B.
        changes: The inputs that differ and matter, in the form's order.
        explained: The output id whose change ``changes`` explains, or None when the
            calculator has no number to explain (or it is zero in A).
    """

    calculator_id: str
    errors_a: dict[str, str] = field(default_factory=dict)
    errors_b: dict[str, str] = field(default_factory=dict)
    outputs: tuple[OutputDifference, ...] = ()
    changes: tuple[InputChange, ...] = ()
    explained: str | None = None

    @property
    def total_effect(self) -> float | None:
        """B / A for the explained result, or None."""
        row = next((o for o in self.outputs if o.output_id == self.explained), None)
        return row.ratio if row else None


def compare(calculator_id: str, raw_a: dict[str, Any] | None, raw_b: dict[str, Any] | None) -> Comparison:
    """Compute scenarios A and B of a calculator and explain how the answer changed.

    Args:
        calculator_id: Which calculator.
        raw_a: A's inputs as a form or a link holds them (untrusted; missing ones default).
        raw_b: B's inputs, the same way.

    Raises:
        KeyError: for an unknown calculator (the inputs never raise).
    """
    calc = CALCULATORS[calculator_id]
    result_a = compute(calculator_id, raw_a)
    result_b = compute(calculator_id, raw_b)
    if result_a["errors"] or result_b["errors"]:
        return Comparison(calculator_id, errors_a=dict(result_a["errors"]), errors_b=dict(result_b["errors"]))
    outputs = tuple(_output_difference(out.id, out.label, result_a, result_b) for out in calc.outputs)
    explained = _explained_output(calc, outputs, result_a, result_b)
    changes = _changes(calc, result_a["inputs"], result_b["inputs"], explained)
    return Comparison(calculator_id, outputs=outputs, changes=changes, explained=explained)


def _number(result: dict[str, Any], output_id: str) -> float | None:
    shown = result["outputs"].get(output_id)
    number = shown.get("value") if shown else None
    if isinstance(number, bool) or not isinstance(number, (int, float)) or not math.isfinite(number):
        return None
    return float(number)


def _output_difference(output_id: str, label: str, a: dict[str, Any], b: dict[str, Any]) -> OutputDifference:
    a_value, b_value = _number(a, output_id), _number(b, output_id)
    ratio = b_value / a_value if a_value and b_value is not None else None
    text = lambda result: str(result["outputs"].get(output_id, {}).get("text", ""))  # noqa: E731
    return OutputDifference(output_id, label, text(a), text(b), ratio)


def _explained_output(
    calc: Calculator, outputs: tuple[OutputDifference, ...], a: dict[str, Any], b: dict[str, Any]
) -> str | None:
    """The first headline output that is a number in both scenarios and not zero in A."""
    ratios = {o.output_id: o.ratio for o in outputs}
    order = [*calc.headline, *(o.id for o in calc.outputs if o.id not in calc.headline)]
    return next((output_id for output_id in order if ratios.get(output_id) is not None), None)


def _changes(
    calc: Calculator, a_inputs: dict[str, Any], b_inputs: dict[str, Any], explained: str | None
) -> tuple[InputChange, ...]:
    """Move A's inputs to B's one at a time, in the form's order, recording each move's effect."""
    matters = {f.id for f in calc.applicable_fields(a_inputs)} | {f.id for f in calc.applicable_fields(b_inputs)}
    # A field shown only under some choice (the config.json box) may be absent from a result.
    moved = [f for f in calc.inputs if f.id in matters and a_inputs.get(f.id) != b_inputs.get(f.id)]
    state = dict(a_inputs)
    before = _number(compute(calc.id, state), explained) if explained else None
    changes: list[InputChange] = []
    for declaration in moved:
        if declaration.id in b_inputs:
            state[declaration.id] = b_inputs[declaration.id]
        else:
            state.pop(declaration.id, None)
        effect = None
        if explained is not None:
            after = compute(calc.id, state)
            if not after["errors"]:
                now = _number(after, explained)
                effect = _ratio(before, now)
                before = now
        changes.append(
            InputChange(
                declaration.id,
                declaration.label,
                _value_text(declaration, a_inputs.get(declaration.id)),
                _value_text(declaration, b_inputs.get(declaration.id), other=declaration.id in a_inputs),
                _details(calc, declaration, a_inputs.get(declaration.id), b_inputs.get(declaration.id)),
                effect,
            )
        )
    return tuple(changes)


def _value_text(declaration: Declaration, value: Any, *, other: bool = False) -> str:
    """A value as a reader reads it; ``other`` when A had another value of this (config) field."""
    if isinstance(declaration, OneOf):
        return next((c.label for c in declaration.choices if c.value == value), str(value))
    if isinstance(declaration, Number):
        if declaration.unit == "%":
            return f"{box_text(value)}%"
        return format_amount(float(value), declaration.unit).strip()
    if not value:
        return "none"
    if isinstance(declaration, ModelConfig):
        # A pasted config.json: its short code says nothing to a reader.
        return "another config.json" if other else "a config.json"
    return "other pasted text" if other else "pasted text"


def ratio_text(ratio: float) -> str:
    """``1.43x``, ``0.5x``, ``16x``: three significant figures, no trailing zeros."""
    return f"{format_number(ratio)}x" if ratio >= 1000 else f"{ratio:.3g}x"


def effect_text(effect: float | None) -> str:
    """``×1.43``; ``no change``; ``with the next row`` when the move alone was not computable.

    Also how a changed result's ratio to A reads.
    """
    if effect is None:
        return "with the next row"
    if math.isinf(effect):
        return "from zero"
    if math.isclose(effect, 1.0, abs_tol=UNCHANGED):
        return "no change"
    return f"×{ratio_text(effect).removesuffix('x')}"


def _details(calc: Calculator, declaration: Declaration, a: Any, b: Any) -> tuple[str, ...]:
    if not isinstance(declaration, OneOf):
        return ()
    if a in DTYPES and b in DTYPES:
        a_bytes, b_bytes = DTYPES[a].bytes_per_element, DTYPES[b].bytes_per_element
        return (f"Bytes per value: {box_text(a_bytes)} → {box_text(b_bytes)} ({ratio_text(b_bytes / a_bytes)})",)
    fills_a = _fills(declaration, a)
    fills_b = _fills(declaration, b)
    lines = []
    for target in calc.inputs:
        if target.id not in fills_a or target.id not in fills_b or fills_a[target.id] == fills_b[target.id]:
            continue
        old, new = fills_a[target.id], fills_b[target.id]
        unit = f" {target.unit}" if isinstance(target, Number) and target.unit else ""
        if isinstance(old, int | float) and isinstance(new, int | float):
            ratio = f" ({ratio_text(new / old)})" if old else ""
            lines.append(f"{target.label}: {box_text(old)} → {box_text(new)}{unit}{ratio}")
        else:
            lines.append(f"{target.label}: {_value_text(target, old)} → {_value_text(target, new)}")
    return tuple(lines)


def _ratio(before: float | None, now: float | None) -> float | None:
    """``now / before``; 1 from zero to zero, infinity from zero to more, None if unknown."""
    if before is None or now is None:
        return None
    if before == 0:
        return 1.0 if now == 0 else math.inf
    return now / before


def _fills(declaration: OneOf, value: Any) -> dict[str, Any]:
    return next((dict(c.fills) for c in declaration.choices if c.value == value), {})
