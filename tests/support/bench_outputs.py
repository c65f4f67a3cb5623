"""Realistic benchmark printouts for the reconciler's tests (tests/fixtures/bench/).

``VLLM_SUMMARY`` is laid out as vLLM's ``vllm/benchmarks/serve.py`` prints it (``{:<40} {:<10}``
lines between ``=`` rules, trailing spaces included); ``LLAMA_BENCH_TABLE`` as llama.cpp's
``markdown_printer`` in ``tools/llama-bench/llama-bench.cpp`` does (header, rule, a pp512 and a
tg128 row, the build line). The numbers are made up but plausible for Llama 3.1 8B.
"""

from __future__ import annotations

from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent.parent / "fixtures" / "bench"

VLLM_SUMMARY = (BENCH_DIR / "vllm_serve_summary.txt").read_text(encoding="utf-8")
LLAMA_BENCH_TABLE = (BENCH_DIR / "llama_bench_table.md").read_text(encoding="utf-8")
#: The tg128 row alone, as a reader might copy it without the header.
LLAMA_BENCH_TG_ROW = next(line for line in LLAMA_BENCH_TABLE.splitlines() if "tg128" in line)
