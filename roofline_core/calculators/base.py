"""What a calculator is: inputs, outputs, and a compute function over validated values."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from roofline_core.calculators.terms import term_of
from roofline_core.vocabulary import Declaration, OneOf

#: The choice that makes a calculator use the numbers typed into its custom fields (the fields
#: its presets fill) instead of a preset's.
CUSTOM = "custom"
#: The choice that makes a calculator read the model from a pasted config.json.
FROM_CONFIG = "config"


@dataclass(frozen=True)
class Output:
    """One displayed result.

    Attributes:
        id: Key in the result's ``outputs`` (``data-output`` on the page).
        label: What the number is.
    """

    id: str
    label: str

    def to_json(self) -> dict[str, str]:
        return {"id": self.id, "label": self.label}


def value(number: float | str | bool, unit: str, text: str) -> dict[str, Any]:
    """An output value: the raw number in SI ``unit`` and the text shown to the reader."""
    return {"value": number, "unit": unit, "text": text}


#: A compute function: validated input values in, ``{"outputs": {...}, ...}`` out. It may add
#: ``"table"`` (a list of rows, each ``{column_id: value(...)}`` for the calculator's
#: ``table_columns``) and ``"chart"`` (figure data, as from
#: :func:`roofline_core.figures.roofline_curve`) beside ``"outputs"``, and ``"sensitivity"`` (the
#: factors of a "what moves it" output, from :func:`roofline_core.calculators._common.what_moves`),
#: and ``"fills"`` (``{field id: value}``) with ``"fills_from"`` (the pasted field they were read
#: from): values a paste proposes for other fields. The result never uses them itself; the page
#: writes them into their boxes, marked as the paste's, and computes again.
ComputeFn = Callable[[dict[str, Any]], dict[str, Any]]


@dataclass(frozen=True)
class Calculator:
    """A calculator defined once, rendered by the build and run by Pyodide in the browser.

    Attributes:
        id: Stable identifier (``data-calculator`` on the page, ``/embed/<id>/``).
        title: Heading.
        description: One sentence on what it answers.
        inputs: Fields, in display order.
        outputs: Results, in display order.
        compute: Function from validated values to results.
        cross_check: Optional check across fields, returning ``{field_id: message}`` for
            combinations that are each valid alone but not together.
        table_columns: Columns of the result's ``"table"`` (each row maps a column id to an
            output value), in display order; empty when the calculator has no table.
        headline: Ids of the two to four outputs that answer the calculator's question; the
            page shows them first, beside the inputs on a wide screen.
        key_inputs: Ids of the one or two inputs a reader changes first; on a phone they come
            before the answer and the other inputs fold under "More inputs".
    """

    id: str
    title: str
    description: str
    inputs: tuple[Declaration, ...]
    outputs: tuple[Output, ...]
    compute: ComputeFn
    cross_check: Callable[[dict[str, Any]], dict[str, str]] | None = None
    table_columns: tuple[Output, ...] = ()
    headline: tuple[str, ...] = ()
    key_inputs: tuple[str, ...] = ()

    def defaults(self) -> dict[str, Any]:
        return {field.id: field.default for field in self.inputs}

    def field(self, field_id: str) -> Declaration:
        """The input named ``field_id``.

        Raises:
            KeyError: naming the calculator's fields, if it has no such input.
        """
        for field in self.inputs:
            if field.id == field_id:
                return field
        raise KeyError(f"{self.id} has no field {field_id!r}; expected one of {', '.join(f.id for f in self.inputs)}")

    def applicable_fields(self, values: dict[str, Any]) -> tuple[Declaration, ...]:
        """The inputs that matter for ``values``, in display order.

        A field some preset fills (a model's size, an accelerator's peak) is that preset's
        number; it matters only when its select is set to :data:`CUSTOM`. A field a choice
        ``uses`` (the pasted config.json) matters only while that choice is selected.
        """
        unused: set[str] = set()
        for field in self.inputs:
            if isinstance(field, OneOf):
                unused |= _unused_by(field, values.get(field.id))
        return tuple(field for field in self.inputs if field.id not in unused)

    def field_conditions(self) -> dict[str, dict[str, Any]]:
        """Fields that matter only under some choices: ``{"select": id, "values": [...]}`` each.

        The page shows such a field only while its select holds one of ``values`` (and a link
        never carries it otherwise): a custom model's sizes only under Custom, the config.json
        box only under "From a config.json". This is :meth:`applicable_fields`'s rule written
        out as data for the browser.
        """
        # Worked out once per calculator (each compute() and each page asks), copied out.
        return {target: {"select": c["select"], "values": list(c["values"])} for target, c in self._conditions.items()}

    @cached_property
    def _conditions(self) -> dict[str, dict[str, Any]]:
        conditions: dict[str, dict[str, Any]] = {}
        for field in self.inputs:
            if not isinstance(field, OneOf):
                continue
            hidden_under = {choice.value: _unused_by(field, choice.value) for choice in field.choices}
            for target in sorted(set().union(*hidden_under.values())):
                shown = [value for value, hidden in hidden_under.items() if target not in hidden]
                conditions[target] = {"select": field.id, "values": shown}
        return conditions

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "title": self.title,
            "description": self.description,
            "inputs": [field.to_json() for field in self.inputs],
            "outputs": [out.to_json() for out in self.outputs],
            "table_columns": [column.to_json() for column in self.table_columns],
            "conditions": self.field_conditions(),
            "headline": list(self.headline),
            "key_inputs": list(self.key_inputs),
            # The glossary term of each input and output that has one (terms.py).
            "terms": {
                item.id: slug for item in (*self.inputs, *self.outputs) if (slug := term_of(item.id)) is not None
            },
        }


def _unused_by(select: OneOf, selected: Any) -> set[str]:
    """Fields that do not matter while ``select`` holds ``selected``."""
    unused: set[str] = set()
    for choice in select.choices:
        if selected != CUSTOM:
            unused.update(choice.fills)
        if choice.value != selected:
            unused.update(choice.uses)
    return unused
