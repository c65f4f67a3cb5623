"""Figure data: every plotted number and every number in the alt text is roofline_core's own."""

from __future__ import annotations

import json
import math
import types
import typing

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from roofline_core import figures, vocabulary
from roofline_core.estimates.inference import critical_batch, estimate_decode, estimate_prefill, memory_fit
from roofline_core.estimates.operations import operations_catalogue
from roofline_core.figures import schema
from roofline_core.figures.parameters import BadValue, FigureKind, FigureParameter
from roofline_core.formatting import (
    format_bandwidth,
    format_bytes,
    format_flop_per_s,
    format_intensity,
    format_number,
    format_time,
    format_tokens_per_s,
)
from roofline_core.hardware import ACCELERATORS, get_accelerator
from roofline_core.models import MODELS, get_model
from roofline_core.roofline import op_time_s, ridge_point
from roofline_core.vocabulary import ListOf, WholeNumber

H100 = get_accelerator("h100-sxm")
A100 = get_accelerator("a100-sxm-80gb")


def _panel(data, index=0):
    return data["panels"][index]


# --- roofline_curve keeps its contract (the live calculators use it) -----------------------


def test_roofline_curve_contract_is_unchanged():
    curve = figures.roofline_curve(
        peak_flop_per_s=989e12,
        bandwidth_bytes_per_s=3.35e12,
        points=[{"label": "decode", "intensity_flop_per_byte": 1.0}],
    )
    assert set(curve) == {
        "ridge_flop_per_byte",
        "peak_flop_per_s",
        "bandwidth_bytes_per_s",
        "x_range",
        "y_range",
        "roof",
        "points",
    }
    assert curve["ridge_flop_per_byte"] == pytest.approx(989 / 3.35)
    assert curve["roof"][1] == [curve["ridge_flop_per_byte"], 989e12]
    [point] = curve["points"]
    assert {k: point[k] for k in ("label", "x", "y", "bound")} == {
        "label": "decode",
        "x": 1.0,
        "y": 3.35e12,
        "bound": "memory",
    }


# --- Every kind --------------------------------------------------------------------------


@pytest.mark.parametrize("kind", figures.FIGURE_KINDS)
def test_every_kind_is_json_data_with_ranges_that_hold_its_points(kind):
    data = figures.figure_data(kind)
    assert json.loads(json.dumps(data, allow_nan=False)) == json.loads(json.dumps(data))
    assert data["kind"] == kind and data["title"] and data["alt"].endswith(".")
    assert all(len(row) == len(data["table"]["columns"]) for row in data["table"]["rows"])
    for panel in data["panels"]:
        x_lo, x_hi = panel["x_range"]
        y_lo, y_hi = panel["y_range"]
        assert x_lo < x_hi and y_lo < y_hi
        if panel["x_scale"] == "log":
            assert x_lo > 0
        if panel["y_scale"] == "log":
            assert y_lo > 0
        for point in panel.get("points", []):
            assert x_lo <= point["x"] <= x_hi
            assert y_lo <= point["y"] <= y_hi
        for series in panel.get("series", []):
            for x, y in series["points"]:
                assert x_lo <= x <= x_hi and y_lo <= y <= y_hi
        for _value, label in panel["x_ticks"] + panel["y_ticks"]:
            assert label
    # Same inputs, same data (the SVG cache relies on it).
    assert figures.figure_data(kind) == data


def _assert_shape(value, hint, where="figure"):
    """``value`` has the shape of ``hint``, a class of ``roofline_core.figures.schema`` or a type in it."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if typing.is_typeddict(hint):
        assert isinstance(value, dict), where
        hints = typing.get_type_hints(hint)
        assert hint.__required_keys__ <= value.keys(), (where, hint.__required_keys__ - value.keys())
        assert value.keys() <= hints.keys(), (where, value.keys() - hints.keys())
        for key, item in value.items():
            _assert_shape(item, hints[key], f"{where}.{key}")
    elif origin is list:
        assert isinstance(value, list), where
        for index, item in enumerate(value):
            _assert_shape(item, args[0], f"{where}[{index}]")
    elif origin is dict:
        assert isinstance(value, dict) and all(isinstance(k, str) for k in value), where
        for key, item in value.items():
            _assert_shape(item, args[1], f"{where}[{key!r}]")
    elif origin is typing.Literal:
        assert value in args, (where, value)
    elif origin in (typing.Union, types.UnionType):
        assert any(_matches(value, option) for option in args), (where, value)
    elif hint is float:
        assert isinstance(value, (int, float)) and not isinstance(value, bool), (where, value)
    elif hint is not typing.Any:
        assert isinstance(value, hint), (where, value)


def _matches(value, hint) -> bool:
    try:
        _assert_shape(value, type(None) if hint is None else hint)
    except AssertionError:
        return False
    return True


@pytest.mark.parametrize("kind", figures.FIGURE_KINDS)
def test_every_kind_has_the_shape_the_schema_documents(kind):
    data = figures.figure_data(kind)
    _assert_shape(data, schema.Figure)
    # Facts are each kind's own; a key of another kind would be a typo.
    expected_facts = {
        "roofline": {"curves"},
        "intensity": set(),
        "decode-batch": {"crossing_batch"},
        "kv-cache": {"fill_tokens"},
        "decode-split": {"kv_equals_weights_tokens"},
        "prefill-decode": {"crossing_tokens"},
    }
    assert set(data["facts"]) == expected_facts[kind]


def test_the_shape_check_rejects_a_key_the_schema_does_not_know():
    data = figures.figure_data("decode-batch")
    data["panels"][0]["series"][0]["colour"] = "red"
    with pytest.raises(AssertionError, match="colour"):
        _assert_shape(data, schema.Figure)


def test_unknown_kind_names_the_kinds():
    with pytest.raises(KeyError, match="expected one of roofline, intensity"):
        figures.figure_data("pie")


# --- Roofline ----------------------------------------------------------------------------


def test_roofline_alt_text_states_roofline_core_numbers():
    data = figures.roofline_figure(accelerators=["h100-sxm"], model="llama-3-8b", batches=[1], prompt_tokens=[2048])
    decode = estimate_decode(model=get_model("llama-3-8b"), accelerator=H100, batch=1).step
    prefill = estimate_prefill(model=get_model("llama-3-8b"), accelerator=H100, prompt_tokens=2048)
    ridge = ridge_point(peak_flop_per_s=H100.peak_for("fp16"), bandwidth_bytes_per_s=H100.bandwidth_bytes_per_s)
    assert decode.intensity_flop_per_byte == 1.0
    assert data["alt"] == (
        f"Roofline of NVIDIA H100 SXM (FP16): the {format_bandwidth(H100.bandwidth_bytes_per_s)} bandwidth roof meets "
        f"the {format_flop_per_s(H100.peak_for('fp16'))} compute roof at {format_intensity(ridge)} "
        # The H100 SXM's cited measured roof is drawn dashed and named (issue 34).
        f"(a cited measurement reaches {format_bandwidth(H100.measured_bandwidth_bytes_per_s)}, the dashed roof); "
        f"for Llama 3 8B, "
        f"decode at batch 1 sits at {format_intensity(decode.intensity_flop_per_byte)}, memory-bound; "
        f"prefill of 2,048 tokens sits at {format_intensity(prefill.intensity_flop_per_byte)}, compute-bound."
    )
    # The numbers a reader knows from the seeds.
    assert "3.35 TB/s" in data["alt"] and "989 TFLOP/s" in data["alt"] and "295 FLOP/byte" in data["alt"]


def test_a_chip_with_a_measured_roof_draws_it_dashed_below_the_datasheet_roof():
    data = figures.roofline_figure(accelerators=["h100-sxm"], batches=[1], prompt_tokens=[])
    panel = _panel(data)
    (dashed,) = [s for s in panel["series"] if s.get("dashed")]
    assert dashed["label"] == "measured 2.97 TB/s" and dashed["reference"]
    x, y = dashed["points"][0]
    assert y == pytest.approx(2.97e12 * x)  # the bandwidth slope of the measured roof
    assert ["Measured bandwidth (cited run)", "2.97 TB/s"] in data["table"]["rows"]
    assert panel["notes"][0]["text"] == "3.35 TB/s (2.97 TB/s measured)"
    # No measurement cited, or several chips compared: the datasheet roofs only.
    assert not [s for s in _panel(figures.roofline_figure(accelerators=["l4"]))["series"] if s.get("dashed")]
    several = figures.roofline_figure(accelerators=["h100-sxm", "h200"])
    assert not [s for s in _panel(several)["series"] if s.get("dashed")]


def test_roofline_points_sit_on_the_first_roof_where_roofline_core_puts_them():
    data = figures.roofline_figure(accelerators=["h100-sxm", "a100-sxm-80gb"], batches=[1, 64], prompt_tokens=[512])
    panel = _panel(data)
    workloads = [p for p in panel["points"] if p["role"] == "workload"]
    curve = figures.roofline_curve(
        peak_flop_per_s=H100.peak_for("fp16"),
        bandwidth_bytes_per_s=H100.bandwidth_bytes_per_s,
        points=[{"label": p["label"], "intensity_flop_per_byte": p["x"]} for p in workloads],
        x_min_flop_per_byte=panel["x_range"][0],
        x_max_flop_per_byte=panel["x_range"][1],
    )
    assert [(p["x"], p["y"], p["bound"]) for p in workloads] == [(p["x"], p["y"], p["bound"]) for p in curve["points"]]
    assert panel["series"][0]["points"] == curve["roof"]
    ridges = [p["x"] for p in panel["points"] if p["role"] == "ridge"]
    assert ridges == [H100.ridge_point(), A100.ridge_point()]
    # With several roofs, each ridge is named in the legend.
    assert panel["series"][1]["label"] == f"NVIDIA A100 SXM 80GB, ridge {format_intensity(A100.ridge_point())}"
    assert f"the {format_bandwidth(A100.bandwidth_bytes_per_s)} bandwidth roof" in data["alt"]
    assert "memory-bound on both" in data["alt"]


def test_roofline_context_lowers_decode_intensity():
    data = figures.roofline_figure(batches=[8], context_tokens=32768)
    point = next(p for p in _panel(data)["points"] if p["role"] == "workload")
    expected = estimate_decode(model=get_model("llama-3-8b"), accelerator=H100, batch=8, context_tokens=32768)
    assert point["x"] == expected.step.intensity_flop_per_byte < 8
    assert "decode at batch 8 with 32K tokens of context" in data["alt"]


# --- Intensity number line ---------------------------------------------------------------


def test_intensity_places_the_catalogue_sorted_with_each_ridge():
    data = figures.intensity_figure(accelerators=["h100-sxm", "a100-sxm-80gb"], model="llama-3-70b")
    catalogue = operations_catalogue(accelerator=H100, model=get_model("llama-3-70b"))
    panel = _panel(data)
    xs = [p["x"] for p in panel["points"]]
    assert sorted(xs) == xs
    assert sorted(xs) == sorted(op.intensity_flop_per_byte for op in catalogue)
    assert [v["x"] for v in panel["vlines"]] == [H100.ridge_point(), A100.ridge_point()]
    memory = sum(op.bound == "memory" for op in catalogue)
    assert f"{memory} of the {len(catalogue)} sit below the NVIDIA H100 SXM ridge" in data["alt"]
    gemv = next(row for row in data["table"]["rows"] if row[0].startswith("Decode projection, batch 1"))
    assert gemv[1] == format_intensity(next(op for op in catalogue if op.slug == "decode-gemv").intensity_flop_per_byte)


def test_intensity_subset_and_unknown_operation():
    data = figures.intensity_figure(operations=["prefill-gemm", "decode-gemv"])
    assert data["parameters"]["operations"] == ["decode-gemv", "prefill-gemm"]
    with pytest.raises(KeyError, match="unknown operation 'gemm'"):
        figures.intensity_figure(operations=["gemm"])


# --- Decode against batch ----------------------------------------------------------------


def test_decode_batch_numbers_and_crossing_are_roofline_core_estimates():
    data = figures.decode_batch_figure(model="llama-3-70b", accelerator="h100-sxm", batches=[1, 64, 256, 1024])
    model = get_model("llama-3-70b")
    estimates = [estimate_decode(model=model, accelerator=H100, batch=b) for b in (1, 64, 256, 1024)]
    throughput, step = data["panels"]
    assert throughput["series"][0]["points"] == [[e.batch, e.tokens_per_s] for e in estimates]
    assert step["series"][0]["points"] == [[e.batch, e.step_time_s] for e in estimates]
    crossing = critical_batch(peak_flop_per_s=H100.peak_for("fp16"), bandwidth_bytes_per_s=H100.bandwidth_bytes_per_s)
    assert data["facts"]["crossing_batch"] == crossing
    assert throughput["vlines"][0]["x"] == crossing
    assert (
        f"a step takes {format_time(estimates[0].step_time_s)} at batch 1 ({format_tokens_per_s(estimates[0].tokens_per_s)})"
        in data["alt"]
    )
    assert f"the ridge is crossed at batch {format_number(crossing)}" in data["alt"]
    assert f"{format_time(estimates[-1].step_time_s)} at batch 1,024" in data["alt"]
    assert data["table"]["rows"][-1][2] == "compute-bound"


def test_decode_batch_moe_crossing_comes_from_the_sweep():
    data = figures.decode_batch_figure(model="mixtral-8x7b", batches=[1, 16, 256, 4096])
    bounds = [row[2] for row in data["table"]["rows"]]
    first_compute = [1, 16, 256, 4096][bounds.index("compute-bound")] if "compute-bound" in bounds else None
    assert data["facts"]["crossing_batch"] == first_compute


# --- KV cache ----------------------------------------------------------------------------


def test_kv_cache_lines_are_memory_fit_bytes_and_the_memory_line():
    data = figures.kv_cache_figure(models=["llama-2-7b", "llama-3-8b", "deepseek-v3"], contexts=[4096, 32768])
    panel = _panel(data)
    for series, slug in zip(panel["series"], ["llama-2-7b", "llama-3-8b", "deepseek-v3"]):
        model = get_model(slug)
        assert series["points"] == [
            [c, memory_fit(model=model, accelerator=H100, context_tokens=c).kv_bytes] for c in (4096, 32768)
        ]
        assert series["points"][1][1] == model.kv_bytes_per_token("fp16") * 32768
        assert data["facts"]["fill_tokens"][slug] * model.kv_bytes_per_token("fp16") == pytest.approx(H100.memory_bytes)
    assert panel["hlines"] == [
        {"y": H100.memory_bytes, "label": f"NVIDIA H100 SXM memory {format_bytes(H100.memory_bytes)}"}
    ]
    llama3 = get_model("llama-3-8b").kv_bytes_per_token("fp16") * 32768
    assert f"Llama 3 8B (GQA) holds {format_bytes(llama3)}" in data["alt"]
    assert [s["label"] for s in panel["series"]] == ["Llama 2 7B (MHA)", "Llama 3 8B (GQA)", "DeepSeek-V3 (MLA)"]


# --- Decode split ------------------------------------------------------------------------


def test_decode_split_parts_add_up_to_the_step_memory_time():
    data = figures.decode_split_figure(model="llama-3-8b", batch=8, contexts=[1024, 131072])
    bars = _panel(data)["bars"]
    weights, kv = (stack["values"] for stack in bars["stacks"])
    model = get_model("llama-3-8b")
    for index, context in enumerate((1024, 131072)):
        estimate = estimate_decode(model=model, accelerator=H100, batch=8, context_tokens=context)
        step = estimate.step
        memory_s = op_time_s(
            flops=0,
            bytes_moved=step.bytes_moved,
            peak_flop_per_s=step.peak_flop_per_s,
            bandwidth_bytes_per_s=step.bandwidth_bytes_per_s,
        )
        assert weights[index] + kv[index] == pytest.approx(memory_s)
        assert estimate.step_time_s == pytest.approx(max(memory_s, step.flops / step.peak_flop_per_s))
        assert bars["hatched"][index] == (not estimate.memory.fits)
    assert bars["hatched"] == [False, True]
    assert f"reading the weights takes {format_time(weights[0])}" in data["alt"]
    assert "from 128K tokens the batch no longer fits in 80 GiB" in data["alt"]
    equal = data["facts"]["kv_equals_weights_tokens"]
    assert equal * model.kv_bytes_per_token("fp16") * 8 == pytest.approx(model.streamed_params_per_token * 2)


# --- Prefill against decode --------------------------------------------------------------


def test_prefill_decode_per_token_times_and_ridge():
    data = figures.prefill_decode_figure(model="llama-3-8b", prompts=[1, 64, 4096])
    model = get_model("llama-3-8b")
    prefill, decode = _panel(data)["series"]
    for (t, p), (_, d) in zip(prefill["points"], decode["points"]):
        step = estimate_prefill(model=model, accelerator=H100, prompt_tokens=t)
        assert p == step.step_time_s / t
        assert d == estimate_decode(model=model, accelerator=H100, context_tokens=t).step_time_s
    crossing = critical_batch(peak_flop_per_s=H100.peak_for("fp16"), bandwidth_bytes_per_s=H100.bandwidth_bytes_per_s)
    assert data["facts"]["crossing_tokens"] == crossing
    assert f"turns compute-bound at about {format_number(crossing)} tokens" in data["alt"]
    assert "memory-bound." in data["alt"]


@pytest.mark.parametrize(
    ("value", "label"), [(1024, "1K"), (32768, "32K"), (131072, "128K"), (1000, "1,000"), (1, "1")]
)
def test_tokens_label(value, label):
    assert figures.tokens_label(value) == label


def test_log_ticks_are_decades():
    data = figures.roofline_figure()
    ticks = _panel(data)["x_ticks"]
    assert [label for _, label in ticks] == ["0.01", "0.1", "1", "10", "100", "1k", "10k"]
    assert all(math.log10(v) == round(math.log10(v)) for v, _ in ticks)


# --- Declared parameters ------------------------------------------------------------------


def test_each_kind_declares_exactly_its_data_functions_arguments_and_defaults():
    import inspect

    for kind, figure in figures.FIGURES.items():
        signature = inspect.signature(figure.data).parameters
        assert [p.argument for p in figure.parameters] and set(signature) == {p.argument for p in figure.parameters}, (
            kind
        )
        for parameter in figure.parameters:
            assert signature[parameter.argument].default == parameter.default, (kind, parameter.key)
            assert parameter.help and parameter.key == parameter.key.lower()


def test_a_kind_whose_declarations_disagree_with_its_function_is_refused():
    def data(*, batch: int = 1) -> dict:
        return {}

    small = WholeNumber(id="batch", label="Batch", default=1, minimum=1, maximum=8)
    batch = FigureParameter("batch", "batch", small, "sequences", 1)
    FigureKind(kind="ok", data=data, parameters=(batch,))
    with pytest.raises(TypeError, match="takes \\['batch'\\]; declared \\['batch', 'devices'\\]"):
        FigureKind(
            kind="extra", data=data, parameters=(batch, FigureParameter("devices", "devices", small, "devices", 1))
        )
    with pytest.raises(TypeError, match="batch defaults to 1; declared 2"):
        FigureKind(kind="default", data=data, parameters=(FigureParameter("batch", "batch", small, "sequences", 2),))


def test_declared_values_parse_an_authors_text_without_the_site():
    context = figures.FIGURES["kv-cache"].by_key["context"]
    assert context.parse("1k, 32_768") == [1024, 32768]
    with pytest.raises(BadValue) as caught:
        context.parse("0")
    assert caught.value.problem == "'0' is out of range"
    assert caught.value.expected == "a whole number from 1 to 10,485,760 tokens (32k = 32,768)"
    models = figures.FIGURES["kv-cache"].by_key["models"]
    with pytest.raises(BadValue, match=r"unknown model 'lama-3-8b' \(did you mean llama-3-8b\?\)"):
        models.parse("lama-3-8b")
    with pytest.raises(BadValue, match="5 values; expected at most 4"):
        models.parse("llama-2-7b, llama-3-8b, llama-3-70b, mixtral-8x7b, deepseek-v3")


def test_checks_across_values_fill_in_the_defaults():
    decode_batch = figures.FIGURES["decode-batch"]
    decode_batch.check({"accelerator": "b200", "dtype": "fp4"})
    with pytest.raises(BadValue) as caught:
        decode_batch.check({"dtype": "fp4"})  # on the default H100 SXM
    assert (caught.value.argument, caught.value.problem) == ("dtype", "NVIDIA H100 SXM has no fp4 peak")
    figures.FIGURES["kv-cache"].check({})  # no compute format, nothing to check


def test_figure_values_are_the_vocabularys_shared_declarations():
    # One set of limits and choices: a batch or a context length means the same in a figure and
    # in a calculator.
    shared = {
        d.id: d
        for d in (
            vocabulary.ACCELERATOR,
            vocabulary.MODEL,
            vocabulary.COMPUTE_DTYPE,
            vocabulary.WEIGHT_DTYPE,
            vocabulary.KV_DTYPE,
            vocabulary.BATCH,
            vocabulary.DEVICES,
            vocabulary.CONTEXT_TOKENS,
            vocabulary.PROMPT_TOKENS,
        )
    }
    for kind, figure in figures.FIGURES.items():
        for parameter in figure.parameters:
            value = parameter.value.item if isinstance(parameter.value, ListOf) else parameter.value
            if value.id == "operation":
                assert value.values() == tuple(
                    op.slug for op in operations_catalogue(accelerator=H100, model=get_model("llama-3-8b"))
                )
                continue
            declared = shared[value.id]
            if isinstance(value, WholeNumber):
                # A sweep may start higher (a context of a sweep is at least one token), never end elsewhere.
                assert (value.maximum, value.tokens) == (declared.maximum, declared.tokens), (kind, parameter.key)
                assert value.minimum >= declared.minimum
            else:
                assert value.values() == declared.values(), (kind, parameter.key)


@pytest.mark.parametrize(
    ("value", "values", "written"),
    [
        (ListOf(vocabulary.CONTEXT_TOKENS), (1024, 1536, 131072), "1k, 1536, 128k"),
        (ListOf(vocabulary.BATCH), (1024, 2048), "1024, 2048"),
        (ListOf(vocabulary.BATCH), tuple(range(1, 8)), "1, 2, 3, ..., 7"),
    ],
)
def test_defaults_are_described_as_an_author_writes_them(value, values, written):
    assert value.write(values) == written


# --- Any accepted parameters give drawable data ------------------------------------------

accelerator_slugs = st.sampled_from(sorted(ACCELERATORS))
model_slugs = st.sampled_from(sorted(MODELS))
storage = st.sampled_from(["fp16", "bf16", "fp8", "int8", "int4"])
whole = st.integers(min_value=1, max_value=65536)
sweep = st.lists(whole, min_size=1, max_size=6, unique=True)


def _assert_points_inside(data):
    for panel in data["panels"]:
        (x_lo, x_hi), (y_lo, y_hi) = panel["x_range"], panel["y_range"]
        assert x_lo < x_hi and y_lo < y_hi
        for point in panel.get("points", []):
            assert x_lo <= point["x"] <= x_hi and y_lo <= point["y"] <= y_hi
        for series in panel.get("series", []):
            assert all(x_lo <= x <= x_hi and y_lo <= y <= y_hi for x, y in series["points"])


@settings(max_examples=60, deadline=None)
@given(
    chips=st.lists(accelerator_slugs, min_size=1, max_size=3, unique=True),
    model=model_slugs,
    batches=st.lists(whole, max_size=3, unique=True),
    prompts=st.lists(whole, max_size=2, unique=True),
    context=st.integers(min_value=0, max_value=1 << 20),
    weights=storage,
)
def test_roofline_data_for_any_accepted_parameters(chips, model, batches, prompts, context, weights):
    data = figures.roofline_figure(
        accelerators=chips,
        model=model,
        batches=batches,
        prompt_tokens=prompts,
        context_tokens=context,
        weight_dtype=weights,
        kv_dtype=weights,
    )
    _assert_points_inside(data)
    for chip, curve in zip(chips, data["facts"]["curves"]):
        peak = ACCELERATORS[chip].peak_for("fp16")
        assert curve["ridge_flop_per_byte"] == ridge_point(
            peak_flop_per_s=peak, bandwidth_bytes_per_s=ACCELERATORS[chip].bandwidth_bytes_per_s
        )
        assert format_intensity(curve["ridge_flop_per_byte"]) in data["alt"]


@settings(max_examples=40, deadline=None)
@given(
    chip=accelerator_slugs,
    model=model_slugs,
    batches=sweep,
    batch=whole,
    contexts=sweep,
    devices=st.integers(1, 8),
    weights=storage,
)
def test_other_kinds_for_any_accepted_parameters(chip, model, batches, batch, contexts, devices, weights):
    for data in (
        figures.decode_batch_figure(
            model=model, accelerator=chip, batches=batches, devices=devices, weight_dtype=weights
        ),
        figures.kv_cache_figure(models=[model], accelerator=chip, batch=batch, contexts=contexts, kv_dtype=weights),
        figures.decode_split_figure(
            model=model, accelerator=chip, batch=batch, contexts=contexts, devices=devices, weight_dtype=weights
        ),
        figures.prefill_decode_figure(model=model, accelerator=chip, prompts=contexts, batch=batch, devices=devices),
        figures.intensity_figure(
            accelerators=[chip], model=model, batch=batch, prompt_tokens=contexts[0], context_tokens=contexts[-1]
        ),
    ):
        _assert_points_inside(data)
        assert data["alt"].endswith(".")
