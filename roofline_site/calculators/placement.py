"""Turn a parsed fence into what the page shows: the definition, the inputs and the results.

The calculator's own defaults, then the ``fills`` of any preset chosen by default (so the
boxes show that preset's numbers), then the fence's ``defaults`` make the page's starting
inputs. ``roofline_core.calculators.compute`` validates them exactly as it validates a reader's
input in the browser; anything it rejects fails the build at the fence's line.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from roofline_core.calculators import CALCULATORS, compute_with_fills, definition
from roofline_site.calculators.fence import FenceError, Placement


@dataclass(frozen=True)
class Resolved:
    """A placement checked against its calculator.

    Attributes:
        definition: ``roofline_core.calculators.definition(id)``.
        inputs: The page's starting inputs, as raw values (what the boxes show).
        result: ``compute(id, inputs)``: outputs, and any table and chart.
    """

    definition: dict[str, Any]
    inputs: dict[str, Any]
    result: dict[str, Any]


def resolve(placement: Placement, *, path: str) -> Resolved:
    """Check ``placement`` and compute its results at its defaults.

    Raises:
        FenceError: for an unknown calculator, an unknown input name or a default that
            ``compute`` rejects.
    """
    if placement.calculator_id not in CALCULATORS:
        raise FenceError(
            path,
            placement.line,
            f"unknown calculator {placement.calculator_id!r}",
            f"one of {', '.join(sorted(CALCULATORS))}",
        )
    spec = definition(placement.calculator_id)
    fields = {field["id"]: field for field in spec["inputs"]}
    for name in placement.defaults:
        if name not in fields:
            raise FenceError(
                path,
                placement.defaults_line,
                f"calculator {placement.calculator_id!r} has no input {name!r}",
                f"one of {', '.join(fields)}",
            )
    # A pasted default's proposals (a config's weight format, a printout's readings) fill their
    # fields, as the page does once it shows them.
    inputs, result = compute_with_fills(placement.calculator_id, starting_inputs(spec, placement.defaults))
    if result["errors"]:
        problems = "; ".join(f"{name}: {message}" for name, message in result["errors"].items())
        raise FenceError(
            path,
            placement.defaults_line,
            f"calculator {placement.calculator_id!r} rejects its defaults ({problems})",
            "values it accepts",
        )
    return Resolved(definition=spec, inputs=inputs, result=result)


def starting_inputs(spec: dict[str, Any], overrides: dict[str, str]) -> dict[str, Any]:
    """Definition defaults, then the fills of the chosen presets, then ``overrides``.

    A preset fills its fields before the fence's own values apply, so
    ``defaults: accelerator=a100-sxm-80gb`` shows the A100's peak in the peak box while
    ``defaults: accelerator=custom, peak_tflop_per_s=500`` keeps the 500.
    """
    inputs: dict[str, Any] = {field["id"]: field["default"] for field in spec["inputs"]}
    inputs.update(overrides)
    for field in spec["inputs"]:
        if field["kind"] != "choice":
            continue
        for choice in field["choices"]:
            if choice["value"] == inputs[field["id"]]:
                for target, number in choice["fills"].items():
                    if target not in overrides:
                        inputs[target] = number
    return inputs
