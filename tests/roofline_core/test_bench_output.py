"""Pasted benchmark output: vLLM's serving summary and llama-bench rows read, the rest named."""

from __future__ import annotations

import ast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from roofline_core.questions.bench_output import LLAMA_BENCH, MAX_PASTE_CHARS, VLLM, Parsed, parse_benchmark_output
from tests.support.bench_outputs import BENCH_DIR, LLAMA_BENCH_TABLE, LLAMA_BENCH_TG_ROW, VLLM_SUMMARY

# --- vLLM ---------------------------------------------------------------------------------------


def test_vllm_summary_fills_batch_speed_ttft_and_lengths() -> None:
    parsed = parse_benchmark_output(VLLM_SUMMARY)
    assert parsed.source == VLLM
    assert parsed.fields() == {
        "batch": 16,
        "measurement_kind": "ms_per_token",
        "measured": 17.52,  # the median TPOT
        "ttft_ms": 198.77,  # the median TTFT
        "prompt_tokens": 1024,  # 204,800 input tokens over 200 requests
        "context_tokens": 1152,  # 1,024 + half of 51,200 / 200 = 1,024 + 128
    }
    lines = {r.field: r.line for r in parsed.readings}
    assert lines["batch"] == "Maximum request concurrency: 16"
    assert lines["measured"] == "Median TPOT (ms): 17.52"
    assert parsed.unused == ()
    # Lines of the format that fill nothing are listed apart from unreadable ones.
    assert "'P99 TPOT (ms): 21.03'" in parsed.not_needed
    assert "'Mean TPOT (ms): 17.84'" in parsed.not_needed


def test_vllm_without_a_concurrency_leaves_the_batch_and_says_why() -> None:
    text = "\n".join(line for line in VLLM_SUMMARY.splitlines() if "concurrency" not in line)
    parsed = parse_benchmark_output(text)
    assert "batch" not in parsed.fields()
    assert any(u.startswith("the concurrency: the run had no --max-concurrency") for u in parsed.unused)


def test_vllm_falls_back_to_the_mean_and_names_lines_it_cannot_read() -> None:
    text = (
        "INFO 11-26 10:00:01 [api_server.py:1] starting\n"
        "============ Serving Benchmark Result ============\n"
        "Maximum request concurrency:             4         \n"
        "Mean TPOT (ms):                          9.10      \n"
        "Median TTFT (ms):                        nan       \n"
        "=================================================="
    )
    parsed = parse_benchmark_output(text)
    assert parsed.fields() == {"batch": 4, "measurement_kind": "ms_per_token", "measured": 9.1}
    assert parsed.unused == (
        "'INFO 11-26 10:00:01 [api_server.py:1] starting': not a line of vLLM's summary",
        "'Median TTFT (ms): nan': the value is not a number",
    )


def test_vllm_total_throughput_stands_in_when_no_time_per_token_was_printed() -> None:
    text = "Maximum request concurrency: 8\nOutput token throughput (tok/s): 640.00\n"
    assert parse_benchmark_output(text).fields() == {
        "batch": 8,
        "measurement_kind": "total_tokens_per_s",
        "measured": 640.0,
    }


def _accounted(line: str, parsed: Parsed) -> bool:
    """Whether a parse read ``line`` (a reading cites it, alone or with another) or recognised it
    as not needed (a quote, shortened with "…" when long)."""
    line = " ".join(line.split())
    if any(line in reading.line for reading in parsed.readings):
        return True
    quotes = [ast.literal_eval(quoted) for quoted in parsed.not_needed]
    return any(line == q or (q.endswith("…") and line.startswith(q[:-1])) for q in quotes)


#: Every line vllm/benchmarks/serve.py can print around and in its summary (the traffic lines,
#: every optional line, the probe, speculative and diffusion blocks, every metric with extra
#: percentiles), and the older benchmarks/benchmark_serving.py's ("Total Token throughput",
#: "Maximum request concurrency: None"); laid out with the printers' own format strings.
VLLM_EVERY_LINE = [
    "vllm_serve_summary_every_line.txt",
    "vllm_serve_summary_diffusion.txt",
    "vllm_benchmark_serving_older.txt",
    "vllm_serve_summary.txt",
]


@pytest.mark.parametrize("name", VLLM_EVERY_LINE)
def test_every_line_of_vllms_summary_is_recognised(name: str) -> None:
    text = (BENCH_DIR / name).read_text(encoding="utf-8")
    parsed = parse_benchmark_output(text)
    assert parsed.source == VLLM
    # Nothing is called "not a line of vLLM's summary" or unreadable; the only thing that may be
    # missing is a run's concurrency, which the older run did not limit.
    assert all(u.startswith("the concurrency: the run had no --max-concurrency") for u in parsed.unused), parsed.unused
    for line in text.splitlines():
        stripped = line.strip()
        if stripped and not set(stripped[:3]) <= {"=", "-"}:
            assert _accounted(stripped, parsed), line
    assert parsed.fields()["measurement_kind"] == "ms_per_token"


def test_an_older_run_without_a_concurrency_limit_is_not_an_unreadable_value() -> None:
    parsed = parse_benchmark_output((BENCH_DIR / "vllm_benchmark_serving_older.txt").read_text(encoding="utf-8"))
    assert "batch" not in parsed.fields()
    assert parsed.unused == (
        "the concurrency: the run had no --max-concurrency, so the batch the server ran is unknown (enter it yourself)",
    )
    assert "'Maximum request concurrency: None'" in parsed.not_needed
    assert "'Total Token throughput (tok/s): 25393.81'" in parsed.not_needed


# --- llama-bench --------------------------------------------------------------------------------


def test_llama_bench_table_fills_decode_prefill_and_the_weight_format() -> None:
    parsed = parse_benchmark_output(LLAMA_BENCH_TABLE)
    assert parsed.source == LLAMA_BENCH
    assert parsed.fields() == {
        "prompt_tokens": 512,
        "ttft_ms": 67.692,  # 512 tokens at 7,563.71 t/s
        "weight_dtype": "q4_k",
        "batch": 1,
        "measurement_kind": "tokens_per_s_per_sequence",
        "measured": 150.25,
        "context_tokens": 64,  # the middle of 128 generated tokens
    }
    assert parsed.unused == ()
    assert "size: 4.58 GiB" in parsed.notes and "params: 8.03 B" in parsed.notes and "backend: CUDA" in parsed.notes


def test_a_row_without_its_header_is_read_by_the_columns_always_printed() -> None:
    parsed = parse_benchmark_output(LLAMA_BENCH_TG_ROW)
    assert parsed.fields()["measured"] == 150.25 and parsed.fields()["batch"] == 1
    # A CPU build prints threads instead of ngl; the first four and last two columns stay put.
    cpu = "| qwen2 7B Q8_0 | 7.54 GiB | 7.62 B | CPU | 16 | tg64 @ d4096 | 11.20 ± 0.05 |"
    assert parse_benchmark_output(cpu).fields() == {
        "batch": 1,
        "measurement_kind": "tokens_per_s_per_sequence",
        "measured": 11.2,
        "context_tokens": 4096 + 32,
        "weight_dtype": "q8_0",
    }


def test_llama_bench_rows_it_cannot_use_are_named() -> None:
    text = "\n".join(
        [
            "| llama 8B IQ2_XXS - 2.0625 bpw | 2.2 GiB | 8.03 B | Metal | 99 | pp512+tg128 | 300.1 ± 2.0 |",
            "| llama 8B F16 | 14.96 GiB | 8.03 B | CUDA | 99 | tg128 | fast |",
            "| llama 8B F16 | 14.96 GiB | 8.03 B | CUDA | 99 | tg128 | 55.00 ± 0.10 |",
            "| llama 8B F16 | 14.96 GiB | 8.03 B | CUDA | 99 | tg256 | 54.00 ± 0.10 |",
            "| too | short |",
            "not a table row",
        ]
    )
    parsed = parse_benchmark_output(text)
    assert parsed.fields()["weight_dtype"] == "fp16" and parsed.fields()["measured"] == 55.0
    reasons = [u.split(": ", 1)[1] for u in parsed.unused]
    assert reasons == [
        "pp512+tg128 mixes prefill and decode in one rate; paste its pp or tg row",
        "t/s 'fast' is not 'mean ± std'",
        "a second tg row; the first one was used",
        "has 2 columns; a llama-bench row has at least 6",
        "not a row of llama-bench's table",
    ]


@pytest.mark.parametrize(
    ("device_line", "slug"),
    [
        ("  Device 0: NVIDIA GeForce RTX 4090, compute capability 8.9, VMM: yes", "rtx-4090"),
        ("  Device 0: NVIDIA H100 80GB HBM3, compute capability 9.0, VMM: yes, VRAM: 81090 MiB", "h100-sxm"),
        ("  Device 0: NVIDIA A100-SXM4-80GB, compute capability 8.0, VMM: yes", "a100-sxm-80gb"),
        ("  Device 0: NVIDIA L4(23580M), compute capability 8.9, VMM: yes", "l4"),
        ("  Device 0: AMD Instinct MI300X, gfx942:sramecc+:xnack- (0x942), VMM: no, Wave Size: 64", "mi300x"),
    ],
)
def test_llama_benchs_device_line_picks_the_accelerator(device_line: str, slug: str) -> None:
    text = f"ggml_cuda_init: found 1 CUDA devices:\n{device_line}\n{LLAMA_BENCH_TABLE}"
    parsed = parse_benchmark_output(text)
    assert parsed.fields()["accelerator"] == slug
    assert parsed.unused == ()


def test_the_recorded_llama_bench_runs_with_their_device_lines() -> None:
    cuda = parse_benchmark_output((BENCH_DIR / "llama_bench_cuda_device.md").read_text(encoding="utf-8"))
    assert cuda.fields()["accelerator"] == "rtx-4090" and cuda.unused == ()
    lines = {r.field: r.line for r in cuda.readings}
    assert lines["accelerator"] == "Device 0: NVIDIA GeForce RTX 4090, compute capability 8.9, VMM: yes"
    rocm = parse_benchmark_output((BENCH_DIR / "llama_bench_rocm_devices.md").read_text(encoding="utf-8"))
    assert rocm.fields()["accelerator"] == "mi300x" and rocm.unused == ()
    assert any(note.startswith("2 devices: llama-bench splits the layers") for note in rocm.notes)


def test_an_unknown_or_mixed_device_is_named_and_picks_nothing() -> None:
    unknown = parse_benchmark_output(
        "  Device 0: NVIDIA RTX A6000, compute capability 8.6, VMM: yes\n" + LLAMA_BENCH_TABLE
    )
    assert "accelerator" not in unknown.fields()
    assert "device 'NVIDIA RTX A6000': not one of this site's accelerators; choose the nearest" in unknown.notes
    mixed = parse_benchmark_output(
        "  Device 0: NVIDIA GeForce RTX 4090, compute capability 8.9, VMM: yes\n"
        "  Device 1: NVIDIA GeForce RTX 3090, compute capability 8.6, VMM: yes\n" + LLAMA_BENCH_TABLE
    )
    assert "accelerator" not in mixed.fields()
    assert mixed.unused[0].startswith("the devices: 'NVIDIA GeForce RTX 4090', 'NVIDIA GeForce RTX 3090' differ")


# --- Anything else ------------------------------------------------------------------------------


def test_hostile_or_unrelated_text_gets_a_message_not_an_exception() -> None:
    assert parse_benchmark_output("") == Parsed("", (), ())
    assert parse_benchmark_output(None).unused == ("the paste is NoneType, not text",)
    huge = parse_benchmark_output("Mean TPOT (ms): 1\n" * MAX_PASTE_CHARS)
    assert huge.readings == () and huge.unused[0].startswith(f"the paste is {18 * MAX_PASTE_CHARS:,} characters")
    assert parse_benchmark_output("<script>alert(1)</script>").unused == (
        "nothing recognised: paste vLLM's 'Serving Benchmark Result' block or a llama-bench table row",
    )


_FRAGMENTS = [*VLLM_SUMMARY.splitlines(), *LLAMA_BENCH_TABLE.splitlines(), "|", "| | | | | | |", "±", "\x00", "1e999"]


@settings(max_examples=300, deadline=None)
@given(
    text=st.one_of(st.text(max_size=2000), st.lists(st.sampled_from(_FRAGMENTS) | st.text(max_size=40)).map("\n".join))
)
def test_arbitrary_text_never_raises(text: str) -> None:
    parsed = parse_benchmark_output(text)
    assert isinstance(parsed, Parsed)
    for reading in parsed.readings:
        assert isinstance(reading.value, (int, float, str))
        assert len(reading.line) <= 300
