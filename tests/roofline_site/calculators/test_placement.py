"""A fence checked against its calculator: ids, input names and values, preset fills."""

from __future__ import annotations

import pytest

from roofline_core.calculators import compute, definition
from roofline_site.calculators.fence import FenceError, Placement
from roofline_site.calculators.placement import resolve, starting_inputs


def _placement(calculator_id: str, **defaults: str) -> Placement:
    return Placement(calculator_id=calculator_id, defaults=defaults, line=4, defaults_line=6)


def test_unknown_calculator_fails_at_the_fence_line():
    with pytest.raises(FenceError, match=r"^docs/a.md:4: unknown calculator 'kv'; expected one of .*kv-cache"):
        resolve(_placement("kv"), path="docs/a.md")


def test_unknown_input_fails_at_the_defaults_line():
    with pytest.raises(
        FenceError, match=r"^docs/a.md:6: calculator 'kv-cache' has no input 'bach'; expected one of .*batch"
    ):
        resolve(_placement("kv-cache", bach="2"), path="docs/a.md")


def test_rejected_value_fails_with_roofline_cores_message():
    with pytest.raises(FenceError) as caught:
        resolve(_placement("kv-cache", batch="-3"), path="docs/a.md")
    message = str(caught.value)
    assert message.startswith("docs/a.md:6: calculator 'kv-cache' rejects its defaults (batch: ")
    assert message.endswith("expected values it accepts")


def test_results_are_roofline_cores_at_the_fence_defaults():
    resolved = resolve(_placement("decode-speed-of-light", batch="16", model="llama-3-70b"), path="a.md")
    expected = compute("decode-speed-of-light", resolved.inputs)
    assert resolved.result == expected
    assert resolved.result["inputs"]["batch"] == 16


def test_a_chosen_preset_fills_its_fields_unless_the_fence_sets_them():
    spec = definition("roofline-explorer")
    a100 = next(c for c in spec["inputs"][0]["choices"] if c["value"] == "a100-sxm-80gb")
    filled = starting_inputs(spec, {"accelerator": "a100-sxm-80gb"})
    assert filled["peak_tflop_per_s"] == a100["fills"]["peak_tflop_per_s"]
    kept = starting_inputs(spec, {"accelerator": "custom", "peak_tflop_per_s": "500"})
    assert kept["peak_tflop_per_s"] == "500"
    overridden = starting_inputs(spec, {"accelerator": "a100-sxm-80gb", "peak_tflop_per_s": "500"})
    assert overridden["peak_tflop_per_s"] == "500"
