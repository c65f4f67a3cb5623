"""Calculator definitions shared by the build (prerendered HTML) and the browser (Pyodide).

Use::

    from roofline_core.calculators import compute, definition, CALCULATORS
    compute("roofline-explorer", {"accelerator": "h100-sxm", "intensity": "64"})

:func:`compute` takes the raw values a form or a URL holds (strings or numbers) and never
raises for anything a person can type: every problem comes back in ``errors``, keyed by field.

It may import: ``roofline_core.figures``, ``roofline_core.questions``, ``roofline_core.estimates``,
``roofline_core.vocabulary``, ``roofline_core.models``, ``roofline_core.hardware``,
``roofline_core.formatting``, ``roofline_core.roofline``, ``roofline_core.sources``.
"""

from __future__ import annotations

from typing import Any

from roofline_core.calculators._common import MODEL_CONFIG, WEIGHT_FORMAT_READ, config_weight_format
from roofline_core.calculators.agentic_session import AGENTIC_SESSION
from roofline_core.calculators.base import CUSTOM, FROM_CONFIG, Calculator, Output, value
from roofline_core.calculators.capacity import CAPACITY
from roofline_core.calculators.config_explainer import CONFIG_EXPLAINER
from roofline_core.calculators.decode_speed_of_light import DECODE_SPEED_OF_LIGHT
from roofline_core.calculators.disaggregation import DISAGGREGATION
from roofline_core.calculators.engine_log import ENGINE_LOG_CALCULATOR
from roofline_core.calculators.kv_cache import KV_CACHE
from roofline_core.calculators.offload import OFFLOAD
from roofline_core.calculators.operations_table import OPERATIONS_TABLE
from roofline_core.calculators.pitfalls import PITFALLS
from roofline_core.calculators.prefill_ttft import PREFILL_TTFT
from roofline_core.calculators.reconcile import RECONCILE
from roofline_core.calculators.roofline_explorer import ROOFLINE_EXPLORER
from roofline_core.calculators.speculative_decoding import SPECULATIVE_DECODING
from roofline_core.calculators.what_fits import WHAT_FITS

CALCULATORS: dict[str, Calculator] = {
    c.id: c
    for c in (
        ROOFLINE_EXPLORER,
        DECODE_SPEED_OF_LIGHT,
        KV_CACHE,
        PREFILL_TTFT,
        OPERATIONS_TABLE,
        CONFIG_EXPLAINER,
        PITFALLS,
        SPECULATIVE_DECODING,
        WHAT_FITS,
        RECONCILE,
        ENGINE_LOG_CALCULATOR,
        CAPACITY,
        OFFLOAD,
        AGENTIC_SESSION,
        DISAGGREGATION,
    )
}

__all__ = [
    "CALCULATORS",
    "CUSTOM",
    "FROM_CONFIG",
    "Calculator",
    "Choice",
    "Output",
    "compute",
    "compute_with_fills",
    "definition",
    "linked_inputs",
    "value",
]


def definition(calculator_id: str) -> dict[str, Any]:
    """JSON-able definition of a calculator: its inputs (with ranges) and outputs."""
    return _get(calculator_id).to_json()


def compute(calculator_id: str, raw_inputs: dict[str, Any] | None = None) -> dict[str, Any]:
    """Validate ``raw_inputs`` and compute the calculator's results.

    Fields missing from ``raw_inputs`` take their defaults; unknown keys are ignored (a URL
    may carry other parameters).

    Returns:
        ``{"calculator": id, "inputs": {id: value}, "errors": {id: message},
        "outputs": {id: {"value", "unit", "text"}}, ...}``. When any field has an error,
        ``outputs`` is empty, so the page keeps its last good values, and ``inputs`` holds only
        the valid fields.
    """
    calc = _get(calculator_id)
    raw = raw_inputs if isinstance(raw_inputs, dict) else {}
    values: dict[str, Any] = {}
    errors: dict[str, str] = {}
    for field in calc.inputs:
        parsed, invalid = field.parse(raw.get(field.id, field.default))
        if invalid is None:
            values[field.id] = parsed
        else:
            errors[field.id] = f"{field.label}: {invalid}"
    # A field shown only under a choice (a custom size, the config.json box) cannot block the
    # result while another choice is selected: its problem waits until it is shown.
    for field_id, condition in calc.field_conditions().items():
        if values.get(condition["select"]) not in condition["values"]:
            errors.pop(field_id, None)
    fills: dict[str, Any] = {}
    read: dict[str, Any] | None = None
    if not errors and any(out.id == WEIGHT_FORMAT_READ.id for out in calc.outputs):
        # A pasted quantised config proposes the weight format, as a pasted benchmark proposes
        # the reconciler's fields: the result is always for the fields as given (the page fills
        # the field and computes again; compute_with_fills does the same here).
        fills, read = config_weight_format(values)
    if not errors and calc.cross_check is not None:
        errors.update(calc.cross_check(values))
    result: dict[str, Any] = {"calculator": calc.id, "inputs": values, "errors": errors, "outputs": {}}
    if errors:
        return result
    result.update(calc.compute(values))
    if read is not None:
        result["outputs"][WEIGHT_FORMAT_READ.id] = read
    if fills:
        result["fills"] = {**fills, **result.get("fills", {})}
        result.setdefault("fills_from", MODEL_CONFIG.id)
    return result


def compute_with_fills(calculator_id: str, raw_inputs: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """``(inputs, result)``: :func:`compute`, then, if a pasted text proposed values for other
    fields (``fills``), the same with those fields filled in, as the page does once it shows the
    proposal. The command line and the build's prerendered calculators use it.

    >>> inputs, result = compute_with_fills("roofline-explorer", {"intensity": "64"})
    >>> inputs == {"intensity": "64"} and "fills" not in result
    True
    """
    result = compute(calculator_id, raw_inputs)
    fills = result.get("fills")
    if fills and not result["errors"]:
        raw_inputs = {**raw_inputs, **fills}
        result = compute(calculator_id, raw_inputs)
    return raw_inputs, result


def linked_inputs(calculator_id: str, raw_inputs: dict[str, Any] | None) -> dict[str, Any]:
    """``raw_inputs`` as a link may set them: fields that are never linked (pasted text) dropped.

    What a query string or a pinned scenario holds is untrusted and never written with a paste,
    so a paste found there is ignored rather than read.
    """
    unlinked = {field.id for field in _get(calculator_id).inputs if not field.linked}
    raw = raw_inputs if isinstance(raw_inputs, dict) else {}
    return {key: value for key, value in raw.items() if key not in unlinked}


def _get(calculator_id: str) -> Calculator:
    try:
        return CALCULATORS[calculator_id]
    except KeyError:
        raise KeyError(f"unknown calculator {calculator_id!r}; expected one of {', '.join(CALCULATORS)}") from None
