"""Comparing two scenarios: each answer in A and B, and the change explained input by input."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from roofline_core.calculators import CALCULATORS, compute
from roofline_core.calculators.compare import compare, effect_text, ratio_text
from roofline_core.hardware import ACCELERATORS
from roofline_core.view.calculator import compute_view_json
from roofline_core.view.compare import comparison_tree
from tests.support.site_build import PROJECT_ROOT


def _texts(tree) -> list[str]:
    if isinstance(tree, str):
        return [tree]
    return [text for child in tree["children"] for text in _texts(child)]


def test_a_memory_bound_kernel_on_a_faster_memory_speeds_up_by_the_bandwidth_ratio():
    # Intensity 16 FLOP/byte is far below both chips' ridge points: attainable FLOP/s is
    # bandwidth x intensity, so B / A is the ratio of the presets' bandwidths.
    h100, h200 = ACCELERATORS["h100-sxm"], ACCELERATORS["h200"]
    a = {"accelerator": "h100-sxm", "intensity": "16"}
    b = {"accelerator": "h200", "intensity": "16"}
    result = compare("roofline-explorer", a, b)
    expected = h200.bandwidth_bytes_per_s / h100.bandwidth_bytes_per_s
    (change,) = result.changes
    assert change.field_id == "accelerator" and change.a_text == h100.name and change.b_text == h200.name
    assert change.effect == pytest.approx(expected)
    assert result.total_effect == pytest.approx(expected)
    assert "Memory bandwidth: 3.35 → 4.8 TB/s (1.43x)" in change.details


def test_a_format_change_names_its_bytes_per_value():
    result = compare("kv-cache", {"kv_dtype": "fp16"}, {"kv_dtype": "fp8"})
    (change,) = result.changes
    assert change.details == ("Bytes per value: 2 → 1 (0.5x)",)


def test_the_same_scenario_has_no_changes_and_every_answer_equal():
    result = compare("decode-speed-of-light", {"batch": "8"}, {"batch": "8"})
    assert result.changes == ()
    assert not any(out.changed for out in result.outputs)
    assert "A and B have the same inputs" in " ".join(_texts(comparison_tree(result)))


def test_a_field_unused_in_both_scenarios_is_not_a_change():
    # A custom size typed while a preset model is chosen matters in neither scenario.
    result = compare("decode-speed-of-light", {"params_billion": "70"}, {"params_billion": "13"})
    assert result.changes == ()


def test_a_pinned_scenario_that_cannot_be_computed_says_so_and_how_to_recover():
    result = compare("decode-speed-of-light", {"batch": "-3"}, {})
    assert "batch" in result.errors_a and not result.outputs
    text = " ".join(_texts(comparison_tree(result)))
    assert "cannot be computed" in text and "Pin the inputs above as A again" in text


decode_inputs = st.fixed_dictionaries(
    {
        "accelerator": st.sampled_from(["h100-sxm", "h200", "mi300x", "a100-sxm-80gb", "b200"]),
        "batch": st.integers(1, 256).map(str),
        "context_tokens": st.integers(0, 32_768).map(str),
        "kv_dtype": st.sampled_from(["fp16", "fp8"]),
        "weight_dtype": st.sampled_from(["bf16", "fp8", "int4"]),
        "devices": st.sampled_from(["1", "2", "4", "8"]),
    }
)


@settings(max_examples=40, deadline=None)
@given(a=decode_inputs, b=decode_inputs)
def test_the_effects_multiply_exactly_to_the_whole_change(a, b):
    result = compare("decode-speed-of-light", a, b)
    if result.errors_a or result.errors_b:
        return
    effects = [change.effect for change in result.changes]
    assert len(result.changes) == sum(a[key] != b[key] for key in a)
    if None in effects:
        return
    assert math.prod(effects) == pytest.approx(result.total_effect, rel=1e-9)
    step = compute("decode-speed-of-light", b)["outputs"]["step_time"]["value"]
    assert result.total_effect == pytest.approx(
        step / compute("decode-speed-of-light", a)["outputs"]["step_time"]["value"]
    )


@settings(max_examples=25, deadline=None)
@given(a=decode_inputs, b=decode_inputs)
def test_the_comparison_answers_are_each_scenarios_own(a, b):
    result = compare("decode-speed-of-light", a, b)
    if result.errors_a or result.errors_b:
        return
    own_a, own_b = compute("decode-speed-of-light", a)["outputs"], compute("decode-speed-of-light", b)["outputs"]
    for out in result.outputs:
        assert (out.a_text, out.b_text) == (own_a[out.output_id]["text"], own_b[out.output_id]["text"])


@pytest.mark.parametrize("calculator_id", sorted(CALCULATORS))
def test_every_calculator_compares_a_change_of_its_first_choice(calculator_id):
    calc = CALCULATORS[calculator_id]
    field = next(f for f in calc.inputs if getattr(f, "choices", ()))
    other = next(c.value for c in field.choices if c.value != field.default and c.value not in ("custom", "config"))
    view = json.loads(compute_view_json(calculator_id, {field.id: other}, "c", pinned={}))
    assert view["compare"]["attrs"]["data-compare-view"] == ""
    assert field.label in _texts(view["compare"])


def test_without_a_pin_the_view_has_no_comparison():
    assert json.loads(compute_view_json("decode-speed-of-light", {}, "c"))["compare"] is None


def test_no_input_is_named_like_the_pin_parameter():
    source = (PROJECT_ROOT / "site_assets/calculators/url-state.mjs").read_text(encoding="utf-8")
    (pin,) = [line.split('"')[1] for line in source.splitlines() if line.startswith("export const PIN_PARAM")]
    assert all(field.id != pin for calc in CALCULATORS.values() for field in calc.inputs)


@pytest.mark.parametrize(
    ("effect", "text"), [(None, "with the next row"), (1.0004, "no change"), (0.5, "×0.5"), (1.4328, "×1.43")]
)
def test_effect_and_ratio_texts(effect, text):
    assert effect_text(effect) == text
    assert ratio_text(16.0) == "16x" and ratio_text(2 / 3) == "0.667x"


def test_a_config_field_shown_only_in_b_is_compared():
    config = '{"model_type": "llama", "hidden_size": 4096, "num_hidden_layers": 32, "num_attention_heads": 32, "num_key_value_heads": 8, "intermediate_size": 14336, "vocab_size": 128256}'
    result = compare("kv-cache", {}, {"model": "config", "model_config": config})
    assert [c.field_id for c in result.changes] == ["model", "model_config"]
    assert result.changes[1].a_text == "none" and result.changes[1].b_text == "a config.json"


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_any_two_scenarios_of_any_calculator_compare_without_raising(data):
    calc = CALCULATORS[data.draw(st.sampled_from(sorted(CALCULATORS)))]

    def scenario():
        chosen = {}
        for field in calc.inputs:
            choices = [c.value for c in getattr(field, "choices", ()) if c.value != "config"]
            if choices and data.draw(st.booleans()):
                chosen[field.id] = data.draw(st.sampled_from(choices))
        return chosen

    result = compare(calc.id, scenario(), scenario())
    view = comparison_tree(result)
    assert view["tag"] == "section"
    if not (result.errors_a or result.errors_b) and result.explained and None not in [c.effect for c in result.changes]:
        finite = [c.effect for c in result.changes if not math.isinf(c.effect)]
        if len(finite) == len(result.changes) and result.total_effect:
            assert math.prod(finite) == pytest.approx(result.total_effect, rel=1e-9)


def test_the_summary_gives_the_main_number_in_a_and_b_with_the_ratio():
    from roofline_core.view.compare import comparison_summary

    a, b = {}, {"accelerator": "h200", "batch": "16"}
    comparison = compare("decode-speed-of-light", a, b)
    summary = comparison_summary(comparison)
    texts = _texts(summary)
    own_a, own_b = compute("decode-speed-of-light", a)["outputs"], compute("decode-speed-of-light", b)["outputs"]
    assert summary["attrs"]["data-compare-summary"] == ""
    assert "Time per decode step: " in texts
    assert own_a["step_time"]["text"] in texts and own_b["step_time"]["text"] in texts
    assert f"({effect_text(comparison.total_effect)})" in texts
    # The browser draws it at the top of the results while comparing; none without a pin.
    view = json.loads(compute_view_json("decode-speed-of-light", b, "c", pinned=a))
    assert view["compare_summary"] == summary
    assert json.loads(compute_view_json("decode-speed-of-light", b, "c"))["compare_summary"] is None


def test_the_summary_of_a_pin_that_cannot_be_computed_points_to_the_details():
    from roofline_core.view.compare import comparison_summary

    summary = comparison_summary(compare("kv-cache", {"batch": "-3"}, {"batch": "4"}))
    assert "cannot be computed" in " ".join(_texts(summary))
