"""Calculator definitions: defaults, seed numbers through the calculators, and a fuzz over every input."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from roofline_core import batch_sweep, get_model
from roofline_core.calculators import CALCULATORS, compute, definition
from roofline_core.calculators._common import MEMORY_ROOF
from roofline_core.estimates.headroom import activation_bytes
from roofline_core.estimates.inference import estimate_decode, kv_cache_bytes
from roofline_core.estimates.operations import OPERATION_KINDS
from roofline_core.formatting import format_tokens_per_s
from roofline_core.hardware import get_accelerator
from roofline_core.vocabulary import ModelConfig, Number, OneOf, PastedText
from tests.support.bench_outputs import LLAMA_BENCH_TABLE, VLLM_SUMMARY
from tests.support.hf_configs import config_text

CALCULATOR_IDS = sorted(CALCULATORS)
LLAMA_31_8B_CONFIG = config_text("llama-3.1-8b")
#: What a reader may paste into a benchmark-output box.
PASTES = [VLLM_SUMMARY, LLAMA_BENCH_TABLE, VLLM_SUMMARY[:300], "| a | b |", ""]

#: What a person can type or paste into a field or a URL.
BAD_VALUES = [
    "",
    "   ",
    None,
    "abc",
    "NaN",
    "nan",
    "inf",
    "-inf",
    float("nan"),
    float("inf"),
    float("-inf"),
    -1,
    "-1",
    0,
    "0",
    1e308,
    "1e308",
    "1e309",
    True,
    [1],
    {"a": 1},
    "missing-preset",
    "<img src=x onerror=alert(1)>",
    "<script>alert(1)</script>",
    "1.5",
    "0x10",
    "1e-320",
]


def _dumps(result: dict) -> str:
    return json.dumps(result, allow_nan=False)


def _check_result(calc_id: str, result: dict) -> None:
    """The contract every compute() result keeps, whatever the input."""
    calc = CALCULATORS[calc_id]
    fields = {f.id: f for f in calc.inputs}
    _dumps(result)
    assert result["calculator"] == calc_id
    for field_id, message in result["errors"].items():
        assert field_id in fields, f"error keyed by unknown field {field_id!r}"
        field = fields[field_id]
        assert field.label in message
        # Parsing errors state the field's whole accepted range; cross-field checks state the
        # subset that fits the other fields ("choose one of ..."); a config's problems name the
        # config field at fault and what that field takes.
        assert field.expected() in message or "choose one of" in message or isinstance(field, ModelConfig), message
    if result["errors"]:
        assert result["outputs"] == {}
    else:
        assert set(result["outputs"]) == {o.id for o in calc.outputs}
        for out in result["outputs"].values():
            assert set(out) == {"value", "unit", "text"}
            assert isinstance(out["text"], str) and out["text"]
        for row in result.get("table", []):
            assert set(row) == {c.id for c in calc.table_columns}


@pytest.mark.parametrize("calc_id", CALCULATOR_IDS)
def test_defaults_compute_without_errors(calc_id: str) -> None:
    result = compute(calc_id, {})
    assert result["errors"] == {}
    _check_result(calc_id, result)
    _dumps(definition(calc_id))


@pytest.mark.parametrize("calc_id", CALCULATOR_IDS)
def test_definition_is_consistent(calc_id: str) -> None:
    calc = CALCULATORS[calc_id]
    ids = [f.id for f in calc.inputs]
    assert len(ids) == len(set(ids))
    for field in calc.inputs:
        assert field.label
        if isinstance(field, Number):
            assert field.minimum <= field.default <= field.maximum
            assert field.parse(field.default)[1] is None
            if field.log_slider:
                assert field.minimum > 0, f"{field.id}: a log slider needs a positive minimum"
        elif isinstance(field, OneOf):
            for choice in field.choices:
                # A preset may only fill (and a choice only use) fields the calculator has.
                assert set(choice.fills) <= set(ids), (field.id, choice.value, choice.fills)
                assert set(choice.uses) <= set(ids), (field.id, choice.value, choice.uses)
        elif isinstance(field, PastedText):
            # A paste box opens empty: nothing pasted is a valid value.
            assert field.default == "" and field.parse("")[1] is None
        else:
            # A config box either opens on a config that reads, or is shown only under its choice.
            assert isinstance(field, ModelConfig)
            assert field.id in calc.field_conditions() or field.parse(field.default)[1] is None


@pytest.mark.parametrize("calc_id", CALCULATOR_IDS)
def test_every_choice_computes(calc_id: str) -> None:
    calc = CALCULATORS[calc_id]
    for field in calc.inputs:
        if isinstance(field, OneOf):
            for choice in field.choices:
                used = {target: LLAMA_31_8B_CONFIG for target in choice.uses}
                result = compute(calc_id, {field.id: choice.value, **used})
                _check_result(calc_id, result)


@pytest.mark.parametrize("calc_id", CALCULATOR_IDS)
@pytest.mark.parametrize("bad", BAD_VALUES, ids=repr)
def test_bad_values_become_field_errors(calc_id: str, bad: object) -> None:
    calc = CALCULATORS[calc_id]
    for field in calc.inputs:
        # A field shown only under a choice is checked under that choice.
        condition = calc.field_conditions().get(field.id)
        shown_by = {condition["select"]: condition["values"][0]} if condition else {}
        result = compute(calc_id, {**shown_by, field.id: bad})
        _check_result(calc_id, result)
        if isinstance(field, PastedText):
            # Any text is a paste (what it cannot read is named in the result); only non-text is refused.
            assert (field.id in result["errors"]) == (not isinstance(bad, str))
        elif bad in ("", None, "abc", "<img src=x onerror=alert(1)>", "missing-preset") or (
            isinstance(bad, float) and not math.isfinite(bad)
        ):
            assert field.id in result["errors"]


@pytest.mark.parametrize("calc_id", CALCULATOR_IDS)
def test_extremes_of_every_range_compute(calc_id: str) -> None:
    """Every number field at its minimum and maximum, alone and all together."""
    numbers = [f for f in CALCULATORS[calc_id].inputs if isinstance(f, Number)]
    for bound_name in ("min", "max"):
        together = {}
        for field in numbers:
            edge = field.minimum if bound_name == "min" else field.maximum
            if bound_name == "min" and field.min_exclusive:
                edge = field.minimum + field.step
            together[field.id] = edge
            result = compute(calc_id, {field.id: edge})
            _check_result(calc_id, result)
            assert result["errors"] == {}, (field.id, edge, result["errors"])
        _check_result(calc_id, compute(calc_id, together))


def test_non_dict_inputs_and_unknown_keys() -> None:
    for calc_id in CALCULATOR_IDS:
        _check_result(calc_id, compute(calc_id, None))
        _check_result(calc_id, compute(calc_id, ["not", "a", "dict"]))  # type: ignore[arg-type]
        assert compute(calc_id, {"utm_source": "blog"})["errors"] == {}


def test_unknown_calculator_names_the_known_ones() -> None:
    with pytest.raises(KeyError, match="decode-speed-of-light"):
        compute("nope", {})


def test_html_payload_is_echoed_as_plain_text_only_in_the_message() -> None:
    payload = "<img src=x onerror=alert(1)>"
    result = compute("decode-speed-of-light", {"accelerator": payload})
    assert "accelerator" in result["errors"]
    assert "accelerator" not in result["inputs"]
    assert result["outputs"] == {}


def test_field_errors_are_label_then_problem_then_what_is_expected() -> None:
    errors = compute(
        "decode-speed-of-light",
        {"batch": "0", "accelerator": "h100", "bandwidth_efficiency": "0.75", "context_tokens": "3,5"},
    )["errors"]
    assert errors["batch"] == "Batch size: '0' is out of range; expected a whole number from 1 to 65,536 sequences"
    assert errors["accelerator"].startswith(
        "Accelerator: unknown accelerator 'h100' (did you mean h100-sxm?); expected one of h100-sxm, "
    )
    assert errors["bandwidth_efficiency"] == (
        "Bandwidth efficiency: '0.75' is out of range (did you mean 75%?); expected a number from 1 to 100%"
    )
    assert errors["context_tokens"].startswith("Context length: '3,5' has a decimal comma (use a dot: 3.5); expected ")


def test_calculators_read_numbers_as_the_vocabulary_does() -> None:
    """Token counts take k, thousands may be grouped in whole numbers, non-ASCII digits are refused."""
    k = compute("kv-cache", {"context_tokens": "32k"})
    grouped = compute("kv-cache", {"context_tokens": "32,768"})
    assert k["inputs"]["context_tokens"] == grouped["inputs"]["context_tokens"] == 32_768
    assert k["outputs"] == compute("kv-cache", {"context_tokens": "32768"})["outputs"]
    assert compute("prefill-ttft", {"prompt_tokens": "8k"})["inputs"]["prompt_tokens"] == 8192
    refused = compute("roofline-explorer", {"accelerator": "custom", "bandwidth_tb_per_s": "3,35"})["errors"]
    assert refused["bandwidth_tb_per_s"].startswith("Memory bandwidth: '3,35' has a decimal comma (use a dot: 3.35)")
    for digits in ("٣٢", "３２"):
        assert compute("kv-cache", {"batch": digits})["errors"]["batch"].startswith(
            f"Batch size: {digits!r} has digits other than 0-9"
        )


_raw = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**400), max_value=10**400),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=30),
    st.from_regex(r"-?[0-9]{0,12}(\.[0-9]{0,6})?(e[+-]?[0-9]{1,3})?", fullmatch=True),
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_fuzz_every_calculator(data: st.DataObject) -> None:
    calc_id = data.draw(st.sampled_from(CALCULATOR_IDS))
    calc = CALCULATORS[calc_id]
    raw = {}
    for field in calc.inputs:
        if isinstance(field, OneOf):
            choice_values = [c.value for c in field.choices]
            raw[field.id] = data.draw(st.one_of(st.sampled_from(choice_values), _raw))
        elif isinstance(field, ModelConfig):
            real = [LLAMA_31_8B_CONFIG, LLAMA_31_8B_CONFIG[:200], "t-llama.l-2.h-64.a-4.f-128.v-100", "{}"]
            raw[field.id] = data.draw(st.one_of(st.sampled_from(real), _raw))
        elif isinstance(field, PastedText):
            raw[field.id] = data.draw(st.one_of(st.sampled_from(PASTES), st.text(max_size=300), _raw))
        else:
            raw[field.id] = data.draw(
                st.one_of(
                    st.integers(min_value=int(field.minimum), max_value=int(min(field.maximum, 10**7))),
                    st.floats(min_value=field.minimum, max_value=field.maximum),
                    _raw,
                )
            )
    _check_result(calc_id, compute(calc_id, raw))


# --- Seed numbers through the calculators --------------------------------------------------------


# Seed 004's table: a custom 70B model in FP16 on one H100, read as a bound (its weights alone
# would need two such cards). The calculator opens on a scenario that runs instead (below).
# Seed 004's table is weights-only: no KV cache (the calculator itself opens at 4,096 tokens).
SEED_004 = {"model": "custom", "params_billion": "70", "context_tokens": "0"}


def test_decode_opens_on_a_scenario_that_fits() -> None:
    result = compute("decode-speed-of-light", {})
    assert result["inputs"]["model"] == "llama-3-8b"
    assert result["outputs"]["fits"]["value"] is True


def test_decode_seed_004s_table() -> None:
    result = compute("decode-speed-of-light", SEED_004)
    rows = batch_sweep(params=70e9, peak_flop_per_s=989e12, bandwidth_bytes_per_s=3.35e12)
    by_batch = {row["batch"]["value"]: row for row in result["table"]}
    for expected in rows:
        row = by_batch[expected.batch]
        assert row["step_time"]["value"] == pytest.approx(expected.step_time_s)
        assert row["tokens_per_s"]["value"] == pytest.approx(expected.tokens_per_s)
        assert row["intensity"]["value"] == pytest.approx(expected.intensity_flop_per_byte)
    assert by_batch[1]["step_time"]["text"] == "41.8 ms"
    assert by_batch[256]["tokens_per_s"]["text"] == "6,126 tok/s"
    assert result["outputs"]["step_time"]["text"] == "41.8 ms"
    assert result["outputs"]["bound"]["value"] == "memory"
    # Past the ridge (about batch 295) the step turns compute-bound.
    assert by_batch[512]["bound"]["value"] == "compute"


def test_decode_chart_marks_the_current_batch() -> None:
    result = compute("decode-speed-of-light", {"batch": "48", "context_tokens": "0"})
    highlighted = [p for p in result["chart"]["points"] if p["highlight"]]
    assert [p["label"] for p in highlighted] == ["batch 48"]
    assert highlighted[0]["x"] == pytest.approx(48)
    assert len(result["chart"]["points"]) == len(result["table"]) + 1


def test_decode_8b_custom_matches_seed_speed() -> None:
    out = compute("decode-speed-of-light", {**SEED_004, "params_billion": "8"})["outputs"]
    assert out["step_time"]["text"] == "4.78 ms"
    assert out["tokens_per_s"]["text"] == "209 tok/s"


def test_decode_efficiency_and_int8() -> None:
    full = compute("decode-speed-of-light", SEED_004)["outputs"]
    derated = compute("decode-speed-of-light", {**SEED_004, "bandwidth_efficiency": "75"})["outputs"]
    int8 = compute("decode-speed-of-light", {**SEED_004, "weight_dtype": "int8"})["outputs"]
    assert derated["step_time"]["value"] == pytest.approx(full["step_time"]["value"] / 0.75)
    assert int8["step_time"]["value"] == pytest.approx(full["step_time"]["value"] / 2)
    assert int8["intensity"]["value"] == pytest.approx(2 * full["intensity"]["value"])


def test_decode_context_adds_kv_reads() -> None:
    out = compute("decode-speed-of-light", {**SEED_004, "context_tokens": "32768", "batch": "4"})["outputs"]
    expected_kv = kv_cache_bytes(layers=80, kv_heads=8, head_dim=128, tokens=32768, batch=4)
    assert out["kv_bytes"]["value"] == pytest.approx(expected_kv)
    assert out["step_time"]["value"] == pytest.approx((70e9 * 2 + expected_kv) / 3.35e12)


def test_kv_cache_llama_3_70b_at_32k() -> None:
    out = compute("kv-cache", {})["outputs"]
    assert out["kv_bytes"]["text"] == "10.7 GB"
    assert out["kv_bytes_per_token"]["value"] == 327_680
    # 141 GB of fp16 weights do not fit one H100 (80 GiB, 85.9 GB); two hold them, but once a
    # serving engine keeps 10% of memory and the activations only one 32k sequence fits beside
    # them, which is why the calculator opens on four.
    model = get_model("llama-3-70b")
    four = 4 * 80 * 2**30
    assert compute("kv-cache", {"devices": "1"})["outputs"]["max_batch"]["value"] == 0
    assert compute("kv-cache", {"devices": "2"})["outputs"]["max_batch"]["value"] == 1
    reserve = 0.1 * four + activation_bytes(model, devices=4)
    assert out["max_batch"]["value"] == math.floor((four - reserve - model.weight_bytes()) / 10_737_418_240) == 15


def test_kv_cache_custom_mla_matches_deepseek_preset() -> None:
    preset = compute("kv-cache", {"model": "deepseek-v3"})["outputs"]
    custom = compute(
        "kv-cache",
        {"model": "custom", "attention": "mla", "layers": "61", "mla_latent_dim": "512", "mla_rope_dim": "64"},
    )["outputs"]
    assert custom["kv_bytes_per_token"]["value"] == preset["kv_bytes_per_token"]["value"] == 61 * 576 * 2


def test_prefill_is_compute_bound_and_beats_decode_intensity() -> None:
    out = compute("prefill-ttft", {"model": "custom", "params_billion": "8", "prompt_tokens": "2048"})["outputs"]
    assert out["bound"]["value"] == "compute"
    assert out["intensity"]["value"] == pytest.approx(2048)
    assert out["ttft"]["value"] == pytest.approx(2 * 8e9 * 2048 / 989e12)


def test_operations_table_rows_and_choice() -> None:
    result = compute("operations-table", {"operation": "prefill-attention-fused"})
    assert [row["operation"]["value"] for row in result["table"]] == list(OPERATION_KINDS)
    assert result["outputs"]["bound"]["value"] == "compute"
    assert "SRAM" in result["outputs"]["why"]["text"]
    chosen = [p for p in result["chart"]["points"] if p["highlight"]]
    assert len(chosen) == 1 and chosen[0]["x"] == pytest.approx(result["outputs"]["intensity"]["value"])
    gemv = compute("operations-table", {})["outputs"]
    assert gemv["bound"]["value"] == "memory"
    assert gemv["intensity"]["value"] == pytest.approx(1.0, rel=1e-3)


def test_explorer_tpu_default_precision_falls_back_to_bf16() -> None:
    result = compute("roofline-explorer", {"accelerator": "tpu-v5e"})
    assert result["errors"] == {}
    assert result["outputs"]["ridge_point"]["value"] == pytest.approx(197e12 / 819e9)
    bad = compute("roofline-explorer", {"accelerator": "a100-sxm-80gb", "dtype": "fp8"})
    assert "Precision" in bad["errors"]["dtype"]


def test_decode_table_is_the_inference_catalogue_of_batches() -> None:
    from roofline_core.estimates.inference import DECODE_TABLE_BATCHES, DEFAULT_SWEEP_BATCHES

    table = compute("decode-speed-of-light", {})["table"]
    assert tuple(row["batch"]["value"] for row in table) == DECODE_TABLE_BATCHES
    assert DECODE_TABLE_BATCHES[: len(DEFAULT_SWEEP_BATCHES)] == DEFAULT_SWEEP_BATCHES


@pytest.mark.parametrize("calc_id", CALCULATOR_IDS)
def test_every_calculator_names_its_headline_and_key_inputs(calc_id: str) -> None:
    calc = CALCULATORS[calc_id]
    assert 2 <= len(calc.headline) <= 4 and set(calc.headline) <= {o.id for o in calc.outputs}
    assert 1 <= len(calc.key_inputs) <= 2 and set(calc.key_inputs) <= {f.id for f in calc.inputs}


def test_decode_energy_cost_and_realistic_range_by_hand() -> None:
    # Llama 3 8B, batch 64, 4,096 tokens of context, one H100 SXM (700 W board power).
    result = compute("decode-speed-of-light", {"batch": "64", "price_per_device_hour": "2.5"})
    step_s = result["outputs"]["step_time"]["value"]
    assert result["outputs"]["energy_per_token"]["value"] == pytest.approx(700 * step_s / 64)
    assert result["outputs"]["cost_per_million"]["value"] == pytest.approx(2.5 / 3600 * step_s / 64 * 1e6)
    # The realistic speed is the estimate's own regime-aware figure (estimates.efficiency), below
    # the speed of light, with its 80% range in the text.
    estimate = estimate_decode(
        model=get_model("llama-3-8b"),
        accelerator=get_accelerator("h100-sxm"),
        batch=64,
        context_tokens=4096,
    )
    realistic = result["outputs"]["realistic"]
    assert realistic["value"] == pytest.approx(estimate.expected_tokens_per_s_per_sequence)
    assert realistic["value"] < 1 / step_s
    low, high = estimate.expected_range_tokens_per_s_per_sequence
    assert f"between {format_tokens_per_s(low)} and {format_tokens_per_s(high)}" in realistic["text"]
    free = compute("decode-speed-of-light", {})
    assert free["outputs"]["cost_per_million"]["text"] == "enter a price per device-hour"


def test_kv_cache_calculator_counts_an_mla_cache_on_every_tensor_parallel_device() -> None:
    inputs = {"model": "deepseek-v3", "accelerator": "h200", "devices": "8", "weight_dtype": "fp8"}
    out = compute("kv-cache", inputs)["outputs"]
    one_copy = get_model("deepseek-v3").kv_cache_bytes(context_tokens=32_768)
    assert out["kv_bytes_per_sequence"]["value"] == pytest.approx(8 * one_copy)
    assert out["kv_bytes"]["text"] == "18.4 GB (8 copies)"
    assert out["kv_copies"]["text"].startswith("8: tensor parallelism keeps the whole MLA latent cache on every device")
    assert out["max_batch"]["value"] == 22


def test_kv_cache_calculator_offers_data_parallel_attention_one_copy_and_every_attention_weight_on_each() -> None:
    inputs = {"model": "deepseek-v3", "accelerator": "h200", "devices": "8", "weight_dtype": "fp8"}
    model = get_model("deepseek-v3")
    out = compute("kv-cache", {**inputs, "attention_split": "data"})["outputs"]
    assert out["kv_bytes_per_sequence"]["value"] == pytest.approx(model.kv_cache_bytes(context_tokens=32_768))
    replicated = 7 * model.attention_weight_bytes("fp8")
    assert out["weight_bytes"]["value"] == pytest.approx(model.weight_bytes("fp8") + replicated)
    assert out["max_batch"]["value"] == 146 > compute("kv-cache", inputs)["outputs"]["max_batch"]["value"]
    assert "146 requests" in out["cache_tokens"]["text"]


def test_the_math_output_says_when_a_peak_is_computed_not_stated() -> None:
    computed = compute("decode-speed-of-light", {"accelerator": "rtx-4070"})["outputs"]["math"]["text"]
    stated = compute("decode-speed-of-light", {"accelerator": "h100-sxm"})["outputs"]["math"]["text"]
    assert computed.endswith(", a computed peak)") and not stated.endswith("peak)")


def test_the_roofline_explorer_switches_to_the_measured_roof() -> None:
    datasheet = compute("roofline-explorer", {"accelerator": "h100-sxm", "intensity": "1"})
    measured = compute("roofline-explorer", {"accelerator": "h100-sxm", "intensity": "1", "roof": "measured"})
    assert datasheet["outputs"]["attainable"]["value"] == pytest.approx(3.35e12)
    assert measured["outputs"]["attainable"]["value"] == pytest.approx(2.97e12)
    assert measured["chart"]["bandwidth_bytes_per_s"] == 2.97e12
    assert datasheet["outputs"]["measured_roof"]["text"] == "2.97 TB/s (88.7% of 3.35 TB/s)"
    refused = compute("roofline-explorer", {"accelerator": "l4", "roof": "measured"})
    assert refused["errors"] == {"roof": "NVIDIA L4 has no cited bandwidth measurement; choose the datasheet roof."}
    assert compute("roofline-explorer", {"accelerator": "l4"})["outputs"]["measured_roof"]["text"] == (
        "none cited for this accelerator"
    )


@pytest.mark.parametrize("calculator_id", ["decode-speed-of-light", "prefill-ttft", "roofline-explorer"])
def test_the_memory_roof_is_one_shared_field(calculator_id: str) -> None:
    """The decode and prefill calculators take the roofline explorer's memory roof, the same field."""
    assert MEMORY_ROOF in CALCULATORS[calculator_id].inputs


def test_the_decode_speed_of_light_follows_the_chosen_memory_roof() -> None:
    base = {"accelerator": "rtx-3090", "model": "llama-3-8b", "context_tokens": "0"}
    datasheet = compute("decode-speed-of-light", base)
    measured = compute("decode-speed-of-light", base | {"roof": "measured"})
    # One sequence, no context: a step reads the weights, so the speed scales with the roof.
    ratio = (
        measured["outputs"]["tokens_per_s_per_sequence"]["value"]
        / (datasheet["outputs"]["tokens_per_s_per_sequence"]["value"])
    )
    assert ratio == pytest.approx(831 / 936, rel=1e-6)
    assert measured["chart"]["bandwidth_bytes_per_s"] == 831e9
    # The realistic speed is the regime's, fitted at the datasheet's bandwidth: the switch leaves it.
    assert measured["outputs"]["realistic"]["value"] == datasheet["outputs"]["realistic"]["value"]
    assert measured["outputs"]["realistic"]["text"] != datasheet["outputs"]["realistic"]["text"]
    assert measured["outputs"]["memory_roof"]["text"] == "831 GB/s (88.8% of 936 GB/s), the roof in use"


def test_the_prefill_speed_of_light_follows_the_chosen_memory_roof() -> None:
    # A short prompt on an H100 is bound by reading the weights, so the roof moves it.
    base = {"accelerator": "h100-sxm", "model": "llama-3-8b", "prompt_tokens": "16"}
    datasheet = compute("prefill-ttft", base)
    measured = compute("prefill-ttft", base | {"roof": "measured"})
    assert datasheet["outputs"]["bound"]["value"] == "memory"
    assert measured["outputs"]["ttft"]["value"] == pytest.approx(
        datasheet["outputs"]["ttft"]["value"] * 3.35 / 2.97, rel=1e-3
    )
    assert measured["chart"]["bandwidth_bytes_per_s"] == 2.97e12
    assert measured["outputs"]["realistic"]["value"] == datasheet["outputs"]["realistic"]["value"]


@pytest.mark.parametrize("calculator_id", ["decode-speed-of-light", "prefill-ttft"])
def test_the_measured_roof_is_refused_where_no_run_is_cited(calculator_id: str) -> None:
    refused = compute(calculator_id, {"accelerator": "l4", "roof": "measured"})
    assert refused["errors"] == {"roof": "NVIDIA L4 has no cited bandwidth measurement; choose the datasheet roof."}
    assert compute(calculator_id, {"accelerator": "l4"})["outputs"]["memory_roof"]["text"] == (
        "none cited for this accelerator"
    )


def test_kv_cache_calculator_shows_the_cache_as_vllm_allocates_it_beside_the_model() -> None:
    # Llama 3.1 8B on one H100 at 0.9: the by-hand allocation of tests/roofline_core/test_engine_memory.py.
    inputs = {"model": "llama-3.1-8b", "accelerator": "h100-sxm", "devices": "1", "weight_dtype": "bf16"}
    out = compute("kv-cache", inputs)["outputs"]
    assert out["vllm_cache_tokens"]["value"] == 457_024
    assert "28,564 blocks of 16 tokens" in out["vllm_cache_tokens"]["text"]
    assert out["vllm_concurrency"]["value"] == pytest.approx(28_564 / 2048)
    assert "KV cache pool" in out["vllm_memory"]["text"] and "activation profile" in out["vllm_memory"]["text"]
    # A lower utilisation leaves fewer blocks; the command carries the same share.
    lower = compute("kv-cache", {**inputs, "gpu_memory_utilization": "0.8"})["outputs"]
    assert lower["vllm_cache_tokens"]["value"] < 457_024
    assert "--gpu-memory-utilization 0.8" in lower["vllm_command"]["value"]
    assert lower["sglang_command"]["value"].startswith("python -m sglang.launch_server --model-path meta-llama/")


@pytest.mark.parametrize(
    ("calculator", "inputs", "flags"),
    [
        ("decode-speed-of-light", {"batch": "8", "context_tokens": "4096"}, "--max-model-len 4097 --max-num-seqs 8"),
        ("prefill-ttft", {"prompt_tokens": "2048", "batch": "2"}, "--max-model-len 2049 --max-num-seqs 2"),
        ("kv-cache", {"context_tokens": "8192", "batch": "3"}, "--max-model-len 8192 --max-num-seqs 3"),
        ("what-fits", {"context_tokens": "8192", "batch": "16"}, "--max-model-len 8192 --max-num-seqs 16"),
    ],
)
def test_every_serving_calculator_prints_the_engine_commands_that_realise_it(calculator, inputs, flags) -> None:
    out = compute(calculator, inputs)["outputs"]
    assert flags in out["vllm_command"]["value"]
    assert out["sglang_command"]["value"].startswith("python -m sglang.launch_server")
    assert out["llama_cpp_command"]["value"].startswith("llama-server -m")


@pytest.mark.parametrize("calculator", ["decode-speed-of-light", "prefill-ttft", "kv-cache", "what-fits"])
def test_a_command_for_a_scenario_that_does_not_fit_says_the_engine_would_stop(calculator) -> None:
    # DeepSeek-V4-Pro's 1.6 T parameters in FP16 on one H100: the flags alone would read as a start.
    big = compute(calculator, {"model": "deepseek-v4-pro", "accelerator": "h100-sxm", "devices": "1"})["outputs"]
    small = compute(calculator, {"model": "llama-3-8b", "accelerator": "h100-sxm", "devices": "1"})["outputs"]
    for output in ("vllm_command", "sglang_command", "llama_cpp_command"):
        assert "does not fit in the devices' memory" in big[output]["text"], big[output]["text"]
        assert "does not fit" not in small[output]["text"], small[output]["text"]
    if "fits" in big:
        assert big["fits"]["value"] is False and small["fits"]["value"] is True
