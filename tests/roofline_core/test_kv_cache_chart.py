"""The KV cache calculator's chart data: the model's own cache curve under the memory it must fit in."""

from __future__ import annotations

import pytest

from roofline_core.calculators import compute
from roofline_core.calculators.kv_cache_chart import CONTEXT_FRAME_TOKENS
from roofline_core.estimates.headroom import activation_bytes
from roofline_core.hardware import get_accelerator
from roofline_core.models import get_model


def _chart(**inputs):
    result = compute("kv-cache", {key: str(value) for key, value in inputs.items()})
    assert result["errors"] == {}
    return result, result["chart"]


def _lines(chart):
    return {line["role"]: line for line in chart["lines"]}


def _points(chart):
    return {point["role"]: point for point in chart["points"]}


def test_the_curve_is_the_models_own_cache_at_each_context():
    model = get_model("llama-3-8b")
    _result, chart = _chart(model="llama-3-8b", batch=4, kv_dtype="fp8")
    assert chart["curve"][0][0] == CONTEXT_FRAME_TOKENS[0] and chart["curve"][-1][0] == CONTEXT_FRAME_TOKENS[1]
    for tokens, kv_bytes in chart["curve"]:
        assert kv_bytes == model.kv_cache_bytes(context_tokens=tokens, batch=4, kv_dtype="fp8")


def test_a_model_whose_every_layer_slides_goes_flat_at_its_window():
    model = get_model("phi-4")
    assert model.sliding_layers == model.layers
    _result, chart = _chart(model="phi-4")
    window = model.sliding_window
    assert window in [tokens for tokens, _ in chart["curve"]]  # the corner is sampled exactly
    before = [kv for tokens, kv in chart["curve"] if tokens < window]
    after = {kv for tokens, kv in chart["curve"] if tokens >= window}
    assert before == sorted(before) and before[0] < before[-1]
    assert after == {model.kv_cache_bytes(context_tokens=window)}


def test_a_model_with_some_sliding_layers_bends_at_its_window():
    model = get_model("gemma-3-27b")
    _result, chart = _chart(model="gemma-3-27b")
    curve = dict(chart["curve"])
    window = model.sliding_window
    below = [t for t in curve if t <= window]
    above = [t for t in curve if t >= window]
    slope_before = (curve[below[-1]] - curve[below[0]]) / (below[-1] - below[0])
    slope_after = (curve[above[-1]] - curve[above[0]]) / (above[-1] - above[0])
    full_share = (model.layers - model.sliding_layers) / model.layers
    assert slope_after == pytest.approx(slope_before * full_share)


def test_the_capacity_line_is_the_devices_memory_and_the_room_line_what_the_weights_leave():
    result, chart = _chart(model="llama-3-8b", accelerator="h100-sxm", devices=2, weight_dtype="fp16")
    lines = _lines(chart)
    capacity = 2 * get_accelerator("h100-sxm").memory_bytes
    assert lines["capacity"]["y"] == capacity
    reserve = 0.1 * capacity + activation_bytes(get_model("llama-3-8b"), devices=2)
    assert lines["room"]["y"] == pytest.approx(capacity - reserve - result["outputs"]["weight_bytes"]["value"])
    assert lines["capacity"]["label"] == "Memory 160 GiB (2 devices)"


def test_the_points_are_the_calculators_own_numbers():
    result, chart = _chart(model="llama-3-8b", context_tokens=32768, devices=1)
    points = _points(chart)
    assert (points["current"]["x"], points["current"]["y"]) == (32768, result["outputs"]["kv_bytes"]["value"])
    assert points["current"]["label"] == f"{result['outputs']['kv_bytes']['text']} at 32.8k"
    limit = result["outputs"]["max_context_tokens"]["value"]
    assert points["limit"]["x"] == limit and points["limit"]["label"] == "Full at 466k"
    assert points["limit"]["y"] == _lines(chart)["room"]["y"]
    assert chart["note"] is None


def test_weights_that_fill_the_memory_leave_no_room_line_and_say_so():
    _result, chart = _chart(model="llama-3-70b", accelerator="h100-sxm", devices=1)
    assert set(_lines(chart)) == {"capacity"} and set(_points(chart)) == {"current"}
    assert chart["note"] == "No room: weights 141 GB > 80 GiB"


def test_a_limit_outside_the_frame_is_told_not_drawn():
    _result, chart = _chart(model="phi-4", devices=2)
    assert set(_points(chart)) == {"current"}
    assert chart["note"] == "No limit: every layer slides"
    _result, chart = _chart(model="llama-3-8b", kv_dtype="fp8", accelerator="b200", devices=8)
    assert set(_points(chart)) == {"current"}
    assert chart["note"].startswith("Full at ") and chart["note"].endswith("M")


@pytest.mark.parametrize(
    ("context_tokens", "x_range"), [(1, [1, 1_000_000]), (32768, [1_000, 1_000_000]), (2_000_000, [1_000, 10_000_000])]
)
def test_the_context_frame_stays_still_and_widens_by_decades_for_a_context_outside_it(context_tokens, x_range):
    _result, chart = _chart(model="llama-3-8b", context_tokens=context_tokens)
    assert chart["x_range"] == x_range
    lo, hi = chart["y_range"]
    assert all(lo <= kv <= hi for _, kv in chart["curve"])
