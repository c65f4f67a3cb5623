"""Named quantities: the seeds' figures come out of the registry, and bad references say why."""

from __future__ import annotations

from pathlib import Path

import pytest

from roofline_core.quantities import (
    QUANTITIES,
    QuantityError,
    evaluate,
    evaluate_reference,
    parameters_table,
    parse_reference,
    reference_table,
)


@pytest.mark.parametrize(
    ("reference", "text"),
    [
        # Seed 001: H100 ridge 295, A100 about 153; 8B FP16 decode 4.78 ms and 209 tok/s.
        ("ridge_point accelerator=h100-sxm", "295 FLOP/byte"),
        ("ridge_point accelerator=a100-sxm-80gb", "153 FLOP/byte"),
        ("decode_step_time params=8e9 accelerator=h100-sxm", "4.78 ms"),
        ("decode_tokens_per_s params=8e9 accelerator=h100-sxm", "209 tok/s"),
        ("decode_intensity params=8e9 accelerator=h100-sxm", "1 FLOP/byte"),
        # Seed 004: 70B FP16 on an H100, 41.8 ms per step; 6,126 tok/s at batch 256.
        ("decode_step_time params=70e9 accelerator=h100-sxm batch=256", "41.8 ms"),
        ("decode_tokens_per_s params=70e9 accelerator=h100-sxm batch=256", "6,126 tok/s"),
        ("decode_tokens_per_s params=70e9 accelerator=h100-sxm batch=256 per=sequence", "23.9 tok/s"),
        # Seed 003: 9 FLOPs over 16 bytes.
        ("matvec_exact rows=3 cols=2 what=flops", "9 FLOPs"),
        ("matvec_exact rows=3 cols=2 what=bytes", "16 bytes"),
        ("matvec_exact rows=3 cols=2", "0.5625 FLOP/byte"),
        ("peak_flop_per_s accelerator=h100-sxm", "989 TFLOP/s"),
        ("sparse_peak_flop_per_s accelerator=a100-sxm-80gb", "624 TFLOP/s"),
        ("bandwidth accelerator=h100-sxm", "3.35 TB/s"),
        ("memory_kind accelerator=h100-sxm", "HBM3"),
        ("critical_batch accelerator=h100-sxm weight_dtype=int8", "148"),
        ("prefill_intensity params=8e9 accelerator=h100-sxm prompt_tokens=2048", "2,048 FLOP/byte"),
        ("prefill_bound params=8e9 accelerator=h100-sxm prompt_tokens=64", "memory-bound"),
        ("attainable_flop_per_s accelerator=h100-sxm intensity=1", "3.35 TFLOP/s"),
        ("matmul_intensity m=1 n=8192 k=8192", "1 FLOP/byte"),
        ("weight_bytes model=llama-3-8b", "16.1 GB"),
        ("params model=deepseek-v3 kind=active", "37.6B"),
        ("kv_cache_bytes model=llama-3-70b context_tokens=32768", "10.7 GB"),
        # Token counts take k = 1,024 here as in figures and calculators; whole numbers may group thousands.
        ("kv_cache_bytes model=llama-3-70b context_tokens=32k", "10.7 GB"),
        ("kv_cache_bytes model=llama-3-70b context_tokens=32,768", "10.7 GB"),
        # Bandwidth efficiency in percent, as in the decode calculator: 75% of 3.35 TB/s.
        ("decode_step_time params=8e9 accelerator=h100-sxm bandwidth_efficiency=75", "6.37 ms"),
        ("bytes_per_element dtype=int8", "1 byte"),
        (
            "operation operation=prefill-attention-fused model=llama-3-70b accelerator=h100-sxm what=bound",
            "compute-bound",
        ),
    ],
)
def test_known_values(reference, text):
    assert evaluate_reference(reference).text == text


def test_values_carry_the_sources_of_their_presets():
    value = evaluate_reference("decode_step_time model=llama-3-8b accelerator=h100-sxm")
    assert [s.url for s in value.sources] == [
        "https://www.nvidia.com/en-us/data-center/h100/",
        "https://huggingface.co/meta-llama/Meta-Llama-3-8B/blob/main/config.json",
    ]
    assert evaluate_reference("matmul_flops m=1 n=2 k=3").sources == ()


def test_every_quantity_documents_itself():
    for quantity in QUANTITIES.values():
        assert quantity.description.endswith(".")
        assert quantity.signature().startswith(quantity.name)
        assert evaluate_reference(quantity.example).text
        for parameter in quantity.parameters:
            assert parameter.expected()
            assert parameter.help.endswith("."), (quantity.name, parameter.id)


@pytest.mark.parametrize(
    ("reference", "message"),
    [
        (
            "ridge accelerator=h100-sxm",
            "unknown quantity 'ridge' (did you mean ridge_point?); expected one of: peak_flop_per_s, ",
        ),
        (
            "ridge_point",
            "missing parameter 'accelerator' for quantity 'ridge_point'; expected: ridge_point accelerator=<accelerator> dtype=fp16",
        ),
        (
            "ridge_point accelerator=h100-sxm colour=red",
            "unknown parameter 'colour' for quantity 'ridge_point'; expected: ",
        ),
        (
            "ridge_point accelerator=h1000",
            "parameter 'accelerator' of quantity 'ridge_point': unknown accelerator 'h1000' (did you mean h200?);"
            " expected one of h100-sxm, ",
        ),
        (
            "decode_step_time accelerator=h100-sxm",
            "quantity 'decode_step_time' needs exactly one of model= or params=; expected: ",
        ),
        (
            "decode_step_time accelerator=h100-sxm params=8e9 batch=0",
            "parameter 'batch' of quantity 'decode_step_time': '0' is out of range; expected a whole number from 1 to 65,536 sequences",
        ),
        (
            "decode_step_time accelerator=h100-sxm params=8e9 batch=2.5",
            "parameter 'batch' of quantity 'decode_step_time': '2.5' is not a whole number; expected a whole number",
        ),
        (
            "decode_step_time accelerator=h100-sxm params=8e9 context_tokens=100",
            "parameter 'context_tokens' needs a model preset; expected model=<slug> with context_tokens=",
        ),
        # The keys before units joined them get a suggestion.
        (
            "kv_cache_bytes model=llama-3-70b context=32768",
            "unknown parameter 'context' for quantity 'kv_cache_bytes' (did you mean context_tokens?); expected: kv_cache_bytes",
        ),
        (
            "prefill_time params=8e9 accelerator=h100-sxm prompt=2048",
            "unknown parameter 'prompt' for quantity 'prefill_time' (did you mean prompt_tokens?); expected: prefill_time",
        ),
        (
            "decode_step_time params=8e9 accelerator=h100-sxm efficiency=0.75",
            "unknown parameter 'efficiency' for quantity 'decode_step_time' (did you mean bandwidth_efficiency?); expected: ",
        ),
        (
            "decode_step_time params=8e9 accelerator=h100-sxm bandwidth_efficiency=0.75",
            "parameter 'bandwidth_efficiency' of quantity 'decode_step_time': '0.75' is out of range (did you mean 75%?);"
            " expected a number from 1 to 100%",
        ),
        (
            "kv_cache_bytes model=llama-3-70b context_tokens=3,5",
            "parameter 'context_tokens' of quantity 'kv_cache_bytes': '3,5' has a decimal comma (use a dot: 3.5); expected ",
        ),
        (
            "kv_cache_bytes model=llama-3-70b context_tokens=٣٢",
            "parameter 'context_tokens' of quantity 'kv_cache_bytes': '٣٢' has digits other than 0-9; expected ",
        ),
        (
            "kv_cache_bytes model=llama-3-70b context_tokens=inf",
            "parameter 'context_tokens' of quantity 'kv_cache_bytes': 'inf' is not a number; expected ",
        ),
        (
            "params model=llama-3-8b kind=totl",
            "parameter 'kind' of quantity 'params': unknown kind 'totl' (did you mean total?); expected one of total, active, streamed",
        ),
        (
            "peak_flop_per_s accelerator=tpu-v5e dtype=fp8",
            "Google TPU v5e has no fp8 peak; supported: bf16, int8; expected a dtype the accelerator supports",
        ),
        (
            "ridge_point accelerator",
            "'accelerator' in quantity 'ridge_point' is not key=value; expected e.g. accelerator=h100-sxm",
        ),
        (
            "ridge_point accelerator=h100-sxm accelerator=h200",
            "parameter 'accelerator' is given twice in quantity 'ridge_point'; expected each parameter once",
        ),
        ("", "empty quantity reference; expected a name such as 'ridge_point accelerator=h100-sxm'"),
    ],
)
def test_bad_references_say_what_is_expected(reference, message):
    with pytest.raises(QuantityError) as info:
        evaluate_reference(reference)
    assert str(info.value).startswith(message)


def test_parse_reference():
    assert parse_reference("  decode_step_time  params=8e9 accelerator=h100-sxm ") == (
        "decode_step_time",
        {"params": "8e9", "accelerator": "h100-sxm"},
    )
    assert evaluate("ridge_point", {"accelerator": "h200"}).text == "206 FLOP/byte"


def test_one_peak_rule_for_every_caller() -> None:
    """A TPU has no FP16 units: 16-bit math runs at its BF16 peak in prose, as in the calculators."""
    from roofline_core.calculators import compute

    tpu = "tpu-v5e"
    prose = evaluate_reference(f"ridge_point accelerator={tpu}").text
    explorer = compute("roofline-explorer", {"accelerator": tpu, "dtype": "fp16", "intensity": "1"})
    assert (
        prose
        == explorer["outputs"]["ridge_point"]["text"]
        == evaluate_reference(f"ridge_point accelerator={tpu} dtype=bf16").text
    )


def test_operation_choices_are_the_operations_catalogue() -> None:
    from roofline_core import ACCELERATORS, MODELS
    from roofline_core.estimates.operations import OPERATION_KINDS, operations_catalogue
    from roofline_core.quantities import OPERATION_SLUGS

    catalogue = operations_catalogue(accelerator=next(iter(ACCELERATORS.values())), model=next(iter(MODELS.values())))
    assert OPERATION_SLUGS == tuple(OPERATION_KINDS) == tuple(op.slug for op in catalogue)
    operation = QUANTITIES["operation"].parameters[0]
    assert operation.values() == OPERATION_SLUGS


REFERENCE = (Path(__file__).resolve().parents[2] / "docs" / "authoring-terms.md").read_text(encoding="utf-8")


def _between(start: str, end: str) -> str:
    return REFERENCE.split(start + "\n", 1)[1].split(end, 1)[0]


def test_reference_tables_are_the_declarations():
    """docs/authoring-terms.md's quantity and parameter tables are generated; refresh with python -m roofline_core.quantities."""
    assert (
        _between("<!-- quantities table: generated by roofline_core.quantities.reference_table() -->", "<!-- end")
        == reference_table()
    )
    assert (
        _between("<!-- parameters table: generated by roofline_core.quantities.parameters_table() -->", "<!-- end")
        == parameters_table()
    )


def test_reference_table_lists_every_quantity_parameter_and_example():
    table = reference_table()
    for quantity in QUANTITIES.values():
        (row,) = [line for line in table.splitlines() if line.startswith(f"| `{quantity.name}` |")]
        for parameter in quantity.parameters:
            assert f"`{parameter.id}" in row, (quantity.name, parameter.id)
        assert f"| {evaluate_reference(quantity.example).text} |" in row
    keys = {p.id for q in QUANTITIES.values() for p in q.parameters}
    assert {line.split("`")[1] for line in parameters_table().splitlines()[2:]} == keys


# Memory scenarios --------------------------------------------------------------------------


def test_run_quantities_carry_the_memory_fit_of_their_scenario():
    # Llama 3 70B in FP16: weights alone exceed one H100's memory and fit two.
    one = evaluate_reference("decode_step_time model=llama-3-70b accelerator=h100-sxm")
    two = evaluate_reference("decode_step_time model=llama-3-70b accelerator=h100-sxm devices=2")
    assert (one.memory.fits, two.memory.fits) == (False, True)
    assert one.memory.capacity_bytes == 80 * 2**30 and two.memory.capacity_bytes == 160 * 2**30
    assert one.hypothetical is False
    # The KV cache at the stated context and batch counts (Llama 3 8B: 131,072 bytes per token).
    kv = evaluate_reference("decode_step_time model=llama-3-8b accelerator=h100-sxm batch=4 context_tokens=1000")
    assert kv.memory.kv_bytes == 4 * 1000 * 131_072
    # Prefill leaves the prompts' cache behind; a raw params count has no known cache.
    prefill = evaluate_reference("prefill_time model=llama-3-8b accelerator=h100-sxm prompt_tokens=1000 batch=2")
    assert prefill.memory.kv_bytes == 2 * 1000 * 131_072
    raw = evaluate_reference("prefill_time params=8e9 accelerator=h100-sxm prompt_tokens=1000")
    assert (raw.memory.weight_bytes, raw.memory.kv_bytes) == (16e9, 0)


def test_hypothetical_marks_the_value_and_changes_no_number():
    plain = evaluate_reference("decode_tokens_per_s model=llama-3-70b accelerator=h100-sxm")
    marked = evaluate_reference("decode_tokens_per_s model=llama-3-70b accelerator=h100-sxm hypothetical=yes")
    assert marked.hypothetical is True and marked.text == plain.text and marked.memory == plain.memory


def test_quantities_without_a_scenario_have_no_memory_and_refuse_hypothetical():
    assert evaluate_reference("ridge_point accelerator=h100-sxm").memory is None
    with pytest.raises(QuantityError, match="unknown parameter 'hypothetical' for quantity 'ridge_point'"):
        evaluate_reference("ridge_point accelerator=h100-sxm hypothetical=yes")
    with pytest.raises(QuantityError, match="parameter 'hypothetical' of quantity 'decode_step_time'"):
        evaluate_reference("decode_step_time params=8e9 accelerator=h100-sxm hypothetical=maybe")


def test_critical_batch_uses_the_roof_of_the_maths_format():
    # H100 SXM: 989 TFLOP/s FP16, 1,979 TFLOP/s FP8, 3.35 TB/s. Weight-only 8-bit halves the bytes
    # on the 16-bit roof (989e12 / 3.35e12 * 1 / 2 = 147.6); W8A8 also doubles the roof (295).
    assert evaluate_reference("critical_batch accelerator=h100-sxm").text == "295"
    # The default follows the estimates (issue 31, item 9): FP8 weights on an H100 run W8A8.
    assert evaluate_reference("critical_batch accelerator=h100-sxm weight_dtype=fp8").text == "295"
    assert evaluate_reference("critical_batch accelerator=h100-sxm weight_dtype=fp8 dtype=fp16").text == "148"
    assert evaluate_reference("critical_batch accelerator=h100-sxm weight_dtype=int8").text == "148"
    assert evaluate_reference("critical_batch accelerator=a100-sxm-80gb weight_dtype=fp8").text == "76.5"
    assert evaluate_reference("critical_batch accelerator=h100-sxm weight_dtype=fp8 dtype=fp8").text == "295"
    with pytest.raises(QuantityError, match="no fp8 peak"):
        evaluate_reference("critical_batch accelerator=a100-sxm-80gb weight_dtype=fp8 dtype=fp8")


def test_interconnect_and_board_power_quantities_quote_the_presets() -> None:
    # H100 SXM: "NVLink: 900GB/s" (NVIDIA counts both directions) and a 700 W TDP, as its source quotes.
    assert evaluate_reference("interconnect_bandwidth accelerator=h100-sxm").text == "900 GB/s"
    assert (
        evaluate_reference("interconnect_bandwidth accelerator=h100-sxm per=direction").text == "450 GB/s per direction"
    )
    # A100: "300+300 GB/s" is already per direction.
    assert (
        evaluate_reference("interconnect_bandwidth accelerator=a100-sxm-80gb per=direction").text
        == "300 GB/s per direction"
    )
    assert evaluate_reference("interconnect_kind accelerator=tpu-v5p").text == "ICI"
    assert evaluate_reference("board_power accelerator=h100-sxm").text == "700 W"
    with pytest.raises(QuantityError, match="has no interconnect figure"):
        evaluate_reference("interconnect_bandwidth accelerator=rtx-4090")


def test_step_quantities_take_the_parallelism_and_expert_parallelism_pays_all_to_alls():
    # Issue 31, item 8: an expert-parallel scenario is computed with expert_parallel_comm, not
    # with tensor parallelism's all-reduces.
    from roofline_core.estimates.inference import estimate_decode, estimate_prefill
    from roofline_core.formatting import format_time
    from roofline_core.hardware import ACCELERATORS
    from roofline_core.models import MODELS

    model, h200 = MODELS["deepseek-v3"], ACCELERATORS["h200"]
    scenario = "model=deepseek-v3 accelerator=h200 devices=8 weight_dtype=fp8"
    expert = estimate_decode(model=model, accelerator=h200, devices=8, weight_dtype="fp8", parallelism="expert")
    tensor = estimate_decode(model=model, accelerator=h200, devices=8, weight_dtype="fp8")
    assert expert.communication.collectives == 2 * model.moe_layers
    assert evaluate_reference(f"decode_step_time {scenario} parallelism=expert").text == format_time(expert.step_time_s)
    assert evaluate_reference(f"decode_step_time {scenario}").text == format_time(tensor.step_time_s)
    assert expert.step_time_s < tensor.step_time_s
    prefill = estimate_prefill(
        model=model, accelerator=h200, devices=8, weight_dtype="fp8", prompt_tokens=4096, parallelism="expert"
    )
    assert evaluate_reference(f"prefill_time {scenario} prompt_tokens=4096 parallelism=expert").text == format_time(
        prefill.step_time_s
    )
    with pytest.raises(QuantityError, match="mixture-of-experts"):
        evaluate_reference("decode_step_time model=llama-3-8b accelerator=h200 devices=8 parallelism=expert")
    with pytest.raises(QuantityError, match="unknown parallelism 'pipeline'"):
        evaluate_reference(f"prefill_time {scenario} prompt_tokens=4096 parallelism=pipeline")


def test_a_geforce_peak_says_its_accumulate_convention():
    assert evaluate_reference("peak_flop_per_s accelerator=rtx-3090").text == "71 TFLOP/s (FP32 accumulate)"
    assert evaluate_reference("peak_flop_per_s accelerator=h100-sxm").text == "989 TFLOP/s"


def test_a_peak_that_is_not_a_vendor_figure_says_how_it_was_obtained():
    assert evaluate_reference("peak_flop_per_s accelerator=apple-m4-max").text == "14.8 TFLOP/s (measured)"


# scenario_words: a number's scenario in words, for text read away from its page ----------------


def test_scenario_words_names_the_presets_and_every_setting():
    from roofline_core.quantities import scenario_words

    assert scenario_words("ridge_point accelerator=h100-sxm") == (
        "Peak compute over bandwidth, in FLOP/byte. Accelerator: NVIDIA H100 SXM; precision: FP16."
    )
    words = scenario_words("decode_step_time model=llama-3-8b accelerator=h100-sxm batch=16 context_tokens=8k")
    assert "Accelerator: NVIDIA H100 SXM; model: Llama 3 8B; batch size: 16 sequences" in words
    assert "context length: 8,192 tokens; KV cache format: FP16" in words
    assert "params" not in words and "hypothetical" not in words  # the alternative not given; the default


def test_scenario_words_refuses_what_evaluate_refuses():
    from roofline_core.quantities import QuantityError, scenario_words

    with pytest.raises(QuantityError, match="unknown accelerator"):
        scenario_words("ridge_point accelerator=h100")


def test_the_measured_roof_is_cited_to_its_run_and_states_its_share():
    from roofline_core.quantities import evaluate_reference

    value = evaluate_reference("measured_bandwidth accelerator=h100-sxm")
    assert value.number == 2.97e12 and value.text == "2.97 TB/s (88.7% of the datasheet's 3.35 TB/s)"
    assert [s.url for s in value.sources] == [
        "https://github.com/OWNER/roofline-glossary/blob/main/benchmarks/gpu/results/2026-11-27-h100-sxm-run1.json"
    ]
    with pytest.raises(QuantityError, match="NVIDIA L4 has no cited bandwidth measurement; expected one of: h100-sxm"):
        evaluate_reference("measured_bandwidth accelerator=l4")


def test_peak_basis_says_how_sure_a_peak_is():
    from roofline_core.quantities import evaluate_reference

    assert evaluate_reference("peak_basis accelerator=h100-sxm").text.startswith("stated by the maker")
    assert evaluate_reference("peak_basis accelerator=rtx-4070").text.startswith("computed from stated figures")
    assert evaluate_reference("peak_basis accelerator=apple-m4-max").text.startswith("a public measurement")
