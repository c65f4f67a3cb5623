"""Pasted benchmark output is read in time linear in its length, up to the paste cap.

The reader once recognised the summary's rules with ``^[=\\-]{3,}.*[=\\-]{3,}$``: on a line of
``=`` that does not end in one, the two runs and the free middle backtrack cubically (800
characters took 0.65 s, 7 kB minutes, the 20,000-character cap hours). Each case here is built
up to :data:`MAX_PASTE_CHARS` and must finish far below that, even on a loaded machine.
"""

from __future__ import annotations

import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from roofline_core.calculators import compute
from roofline_core.questions.bench_output import MAX_PASTE_CHARS, Parsed, parse_benchmark_output

#: A parse at the cap takes milliseconds of CPU time (process time, which a busy machine does not
#: inflate); the bound stays thousands of times below what the cubic pattern took.
PARSE_BOUND_S = 2.0

#: Text that opens the vLLM path or a llama-bench row, put before the hostile run.
OPENERS = (
    "",
    "Serving Benchmark Result\n",
    "Successful requests: 1\n",
    "| model | size | params | backend | test | t/s |\n",
)


def _timed_parse(text: str) -> tuple[Parsed, float]:
    started = time.process_time()
    parsed = parse_benchmark_output(text)
    return parsed, time.process_time() - started


def _up_to_cap(head: str, unit: str, tail: str) -> str:
    """``head``, then ``unit`` repeated as often as fits, then ``tail``: exactly at the cap."""
    room = MAX_PASTE_CHARS - len(head) - len(tail)
    body = (unit * (room // len(unit) + 1))[:room]
    return head + body + tail


#: The strings each old pattern backtracked on (or whose digits broke ``int()``), at the cap.
ADVERSARIAL = {
    # A line of '=' that is no rule, beside the summary's title: the cubic rule pattern.
    "rule run, titled": _up_to_cap("", "=", "x Serving Benchmark Result"),
    "rule run after a label": _up_to_cap("Successful requests: 1\n", "=", "x"),
    "dash run after a label": _up_to_cap("Successful requests: 1\n-", "-", "x"),
    "alternating rule characters": _up_to_cap("Successful requests: 1\n", "=-", " x"),
    # A metric label that never closes with '(ms):' (the "not needed" label pattern).
    "open metric label": _up_to_cap("Successful requests: 1\nMean ", "a ", ":"),
    "percentile run": _up_to_cap("Successful requests: 1\nP", "9.", " TPOT (ms):"),
    # llama-bench: a test and a rate with thousands of digits, and a row of empty cells.
    "long test count": _up_to_cap("| llama 8B Q4_0 | 4 GiB | 8 B | CUDA | pp", "1", " | 1.00 ± 0.10 |"),
    "long depth": _up_to_cap("| llama 8B Q4_0 | 4 GiB | 8 B | CUDA | tg128 @ d", "7", " | 1.00 ± 0.10 |"),
    "long rate": _up_to_cap("| llama 8B Q4_0 | 4 GiB | 8 B | CUDA | tg128 | ", "5", " |"),
    "empty cells": _up_to_cap("", "| ", "|"),
    "rule cells": _up_to_cap("| model |\n", "|:-", "|"),
}


@pytest.mark.parametrize("text", ADVERSARIAL.values(), ids=ADVERSARIAL.keys())
def test_adversarial_pastes_at_the_cap_are_read_quickly(text: str) -> None:
    assert len(text) == MAX_PASTE_CHARS
    parsed, seconds = _timed_parse(text)
    assert isinstance(parsed, Parsed)
    assert seconds < PARSE_BOUND_S, f"{seconds:.2f} s"


def test_a_test_count_past_the_digit_limit_is_named_not_raised() -> None:
    # int() refuses more than 4,300 digits; the row is named as unusable instead.
    parsed = parse_benchmark_output("| llama 8B Q4_0 | 4 GiB | 8 B | CUDA | pp" + "1" * 5000 + " | 1.00 ± 0.10 |")
    assert parsed.readings == ()
    assert any("is not ppN, tgN or ppN+tgN (N of at most 9 digits)" in line for line in parsed.unused)


def test_the_reconciler_reads_a_hostile_paste_at_the_cap_quickly_and_keeps_its_fields() -> None:
    started = time.process_time()
    result = compute("reconcile", {"benchmark_output": ADVERSARIAL["rule run, titled"], "measured": "12"})
    assert time.process_time() - started < PARSE_BOUND_S
    assert result["errors"] == {}
    assert result["inputs"]["measured"] == 12


#: Characters the old patterns backtracked on, plus label and cell pieces, to repeat.
_PIECES = st.sampled_from(
    ["=", "-", "=-", " ", "|", "| ", ":", ".", "1", "9.", "±", "@", "pp", "tg", "d", "a", "Mean ", "(ms)", "\t"]
)


@st.composite
def _hostile_pastes(draw: st.DrawFn) -> str:
    """An opener, a run of a few hostile pieces repeated up to the cap, and a tail."""
    unit = "".join(draw(st.lists(_PIECES, min_size=1, max_size=4)))
    head = draw(st.sampled_from(OPENERS)) + "".join(draw(st.lists(_PIECES, max_size=3)))
    tail = "".join(draw(st.lists(_PIECES, max_size=3))) + draw(st.sampled_from(["", "x", "\n", " (ms):"]))
    length = draw(st.integers(min_value=len(head) + len(tail) + 1, max_value=MAX_PASTE_CHARS))
    room = length - len(head) - len(tail)
    return head + (unit * (room // len(unit) + 1))[:room] + tail


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(_hostile_pastes())
def test_any_run_of_hostile_pieces_up_to_the_cap_is_read_quickly(text: str) -> None:
    parsed, seconds = _timed_parse(text)
    assert isinstance(parsed, Parsed)
    assert seconds < PARSE_BOUND_S, f"{seconds:.2f} s for {text[:60]!r}... ({len(text)} characters)"
