"""The reconciler calculator: typed measurements, and pasted benchmark output proposing fills
that the result computed from the fields as given never uses by itself."""

from __future__ import annotations

import pytest

from roofline_core.calculators import compute
from roofline_core.hardware import ACCELERATORS
from roofline_core.models import MODELS
from roofline_core.questions.reconcile import reconcile_decode
from roofline_core.view import calculator_view
from tests.support.bench_outputs import LLAMA_BENCH_TABLE, VLLM_SUMMARY


def test_defaults_place_8_ms_per_token_under_the_roofline() -> None:
    result = compute("reconcile", {})
    assert result["errors"] == {} and result["fills"] == {}
    expected = reconcile_decode(
        model=MODELS["llama-3.1-8b"], accelerator=ACCELERATORS["h100-sxm"], measured_time_s=0.008, context_tokens=1024
    )
    outputs = result["outputs"]
    assert outputs["mbu"]["value"] == pytest.approx(expected.mbu)
    assert outputs["mfu"]["value"] == pytest.approx(expected.mfu)
    assert outputs["unexplained"]["value"] == pytest.approx(expected.remainder_s)
    # The H100 SXM has a cited measured roof, so MBU is stated against both (issue 34).
    assert outputs["mbu"]["text"].endswith(" of 3.35 TB/s")
    assert outputs["mbu_measured"]["value"] == pytest.approx(expected.mbu_of_measured_roof)
    assert (
        outputs["pasted"]["text"] == "nothing pasted" and outputs["prefill"]["text"] == "no time to first token entered"
    )
    # One row per part; the part's cell links its glossary entry.
    assert [row["part"]["term"] for row in result["table"]] == [p.term for p in expected.parts]


def test_a_total_rate_is_divided_by_the_batch() -> None:
    total = compute("reconcile", {"measurement_kind": "total_tokens_per_s", "measured": "2000", "batch": "16"})
    per_token = compute("reconcile", {"measured": "8", "batch": "16"})
    assert total["outputs"]["mbu"]["value"] == pytest.approx(per_token["outputs"]["mbu"]["value"])


def test_a_pasted_vllm_summary_proposes_fills_and_the_fields_decide_the_result() -> None:
    typed = {"batch": "4", "measured": "3"}
    result = compute("reconcile", {**typed, "benchmark_output": VLLM_SUMMARY})
    assert result["errors"] == {} and result["fills_from"] == "benchmark_output"
    assert result["fills"] == {
        "batch": 16,
        "measurement_kind": "ms_per_token",
        "measured": 17.52,
        "ttft_ms": 198.77,
        "prompt_tokens": 1024,
        "context_tokens": 1152,
    }
    # The numbers are those of the fields as given: a page shows exactly the inputs they are for.
    alone = compute("reconcile", typed)
    assert {k: v for k, v in result["outputs"].items() if k not in ("pasted", "not_read")} == {
        k: v for k, v in alone["outputs"].items() if k not in ("pasted", "not_read")
    }
    assert result["outputs"]["pasted"]["text"].startswith("vLLM benchmark summary: Batch size: 16 (from Maximum")
    assert result["outputs"]["not_read"]["text"] == "14 lines read but not needed"
    # With the fills written into the fields (the page's second pass), the paste proposes
    # nothing new and the result is the summary's scenario.
    filled = {**typed, **{k: str(v) for k, v in result["fills"].items()}, "benchmark_output": VLLM_SUMMARY}
    second = compute("reconcile", filled)
    assert second["fills"] == result["fills"] and second["inputs"]["batch"] == 16
    assert second["outputs"]["prefill"]["text"].startswith("MFU ")
    # The page writes the fills into its boxes as the boxes show numbers.
    view = calculator_view("reconcile", result, dom_id="r")
    assert view["fills"]["measured"] == "17.52" and view["fills"]["batch"] == "16"
    assert view["fills_from"] == "benchmark_output"


def test_a_result_stopped_by_an_error_proposes_no_fills() -> None:
    result = compute("reconcile", {"batch": "0", "benchmark_output": VLLM_SUMMARY})
    assert result["errors"] and "fills" not in result
    view = calculator_view("reconcile", result, dom_id="r")
    assert view["fills"] == {} and view["fills_from"] is None


def test_a_pasted_llama_bench_table_names_what_it_could_not_read() -> None:
    result = compute("reconcile", {"benchmark_output": LLAMA_BENCH_TABLE + "\nthis line is noise\n"})
    assert result["fills"]["weight_dtype"] == "q4_k" and result["fills"]["measured"] == 150.25
    assert result["outputs"]["not_read"]["text"] == "'this line is noise': not a row of llama-bench's table"
    assert "size: 4.58 GiB" in result["outputs"]["pasted"]["text"]


def test_a_paste_value_a_field_refuses_is_named_and_not_used() -> None:
    # A rate of 0.0001 tokens/s is below what the measurement field takes.
    row = "| llama 8B F16 | 14.96 GiB | 8.03 B | CUDA | 99 | tg128 | 0.0001 ± 0.00 |"
    result = compute("reconcile", {"benchmark_output": row})
    assert "measured" not in result["fills"]
    assert "Measured decode speed: '0.0001' is out of range" in result["outputs"]["not_read"]["text"]


def test_a_measurement_faster_than_light_is_called_inconsistent() -> None:
    result = compute("reconcile", {"measured": "1"})
    assert result["outputs"]["versus"]["text"] == "faster than the speed of light (inconsistent)"
    assert result["outputs"]["unexplained"]["text"].startswith("inconsistent: the measurement is")
    assert result["table"][-1]["part"]["term"] == "speed-of-light"


def test_oversized_paste_and_untimeable_ttft_are_field_errors() -> None:
    huge = compute("reconcile", {"benchmark_output": "x" * 20_001})
    assert huge["errors"] == {
        "benchmark_output": "Benchmark output: the text is 20,001 characters long; "
        "expected pasted benchmark output of at most 20,000 characters"
    }
    tiny = compute("reconcile", {"ttft_ms": "0.0001"})
    assert tiny["errors"]["ttft_ms"].startswith("Measured time to first token: 0.0001 ms is too short")


def test_an_expert_parallel_ttft_is_reconciled_against_the_expert_parallel_prefill() -> None:
    # Issue 31, item 8: with Parallelism Expert the prefill bound pays all-to-alls, not all-reduces.
    from roofline_core.estimates.inference import estimate_prefill
    from roofline_core.formatting import format_time
    from roofline_core.hardware import ACCELERATORS
    from roofline_core.models import MODELS

    fields = {
        "model": "deepseek-v3",
        "accelerator": "h200",
        "devices": "8",
        "weight_dtype": "fp8",
        "prompt_tokens": "4096",
        "ttft_ms": "200",
    }
    expert = compute("reconcile", {**fields, "parallelism": "expert"})
    assert expert["errors"] == {}
    bound = estimate_prefill(
        model=MODELS["deepseek-v3"],
        accelerator=ACCELERATORS["h200"],
        prompt_tokens=4096,
        weight_dtype="fp8",
        devices=8,
        parallelism="expert",
    ).step_time_s
    assert f"against a bound of {format_time(bound)}" in expert["outputs"]["prefill"]["text"]
    tensor = compute("reconcile", {**fields, "parallelism": "tensor"})
    assert tensor["outputs"]["prefill"]["text"] != expert["outputs"]["prefill"]["text"]
