"""Pasted benchmark output: vLLM's serving summary and llama-bench rows read, the rest named."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from roofline_core.bench_output import LLAMA_BENCH, MAX_PASTE_CHARS, VLLM, Parsed, parse_benchmark_output
from tests.support.bench_outputs import LLAMA_BENCH_TABLE, LLAMA_BENCH_TG_ROW, VLLM_SUMMARY

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
