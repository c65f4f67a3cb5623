"""How close is my server to the roofline? A measurement placed under its speed-of-light bound.

The reader enters what they measured (or pastes a vLLM serving summary or a llama-bench row,
:mod:`roofline_core.questions.bench_output`) with the scenario; :mod:`roofline_core.questions.reconcile` splits the
measured step into what weights, KV cache, arithmetic and communication explain and the
remainder. It opens on Llama 3.1 8B in 16-bit weights on one H100 SXM at 8 ms per token.
"""

from __future__ import annotations

from typing import Any

from roofline_core.calculators._common import (
    PARALLELISM_INPUT,
    WEIGHT_FORMAT_READ,
    accelerator_input,
    batch_input,
    context_input,
    custom_accelerator_inputs,
    custom_kv_inputs,
    devices_input,
    dtype_input,
    math_accelerator,
    math_cross_check,
    model_config_input,
    model_input,
    model_of,
    parallelism_cross_check,
    params_input,
    parts_result,
    prompt_input,
)
from roofline_core.calculators.base import Calculator, Output, value
from roofline_core.estimates.inference import EXPERT, TENSOR
from roofline_core.formatting import (
    box_text,
    format_bandwidth,
    format_flop_per_s,
    format_percent,
    format_time,
    format_tokens_per_s,
)
from roofline_core.questions.bench_output import Parsed, parse_benchmark_output
from roofline_core.questions.reconcile import (
    MS_PER_TOKEN,
    TOKENS_PER_S_PER_SEQUENCE,
    TOTAL_TOKENS_PER_S,
    Reconciliation,
    measured_step_time_s,
    reconcile_decode,
    reconcile_prefill,
)
from roofline_core.vocabulary import MATH_DTYPE, Choice, Number, OneOf, PastedText

#: How many unread lines the output names before summing up the rest.
_NAMED_LINES = 8

MEASUREMENT_KIND = OneOf(
    id="measurement_kind",
    label="What you measured",
    choices=(
        Choice(value=MS_PER_TOKEN, label="Milliseconds per output token (TPOT or ITL)"),
        Choice(value=TOKENS_PER_S_PER_SEQUENCE, label="Tokens/s per sequence"),
        Choice(value=TOTAL_TOKENS_PER_S, label="Total output tokens/s of the batch (at the concurrency)"),
    ),
    default=MS_PER_TOKEN,
    help="How your benchmark states decode speed; a total rate is divided by the batch.",
)
MEASURED = Number(
    id="measured",
    label="Measured decode speed",
    unit="ms or tokens/s",
    default=8,
    # A thousandth of a millisecond or of a token per second: below either, no timer resolves it.
    minimum=0.001,
    maximum=10_000_000,
    step=0.01,
    help="The number, in the unit of what you measured: milliseconds, or tokens per second.",
)
TTFT_MS = Number(
    id="ttft_ms",
    label="Measured time to first token",
    unit="ms",
    default=0,
    minimum=0,
    maximum=3_600_000,
    step=0.01,
    help="For the prompt length below; 0 leaves prefill out.",
)
BENCHMARK_OUTPUT = PastedText(
    id="benchmark_output",
    label="Benchmark output",
    default="",
    help=(
        "Paste vLLM's 'Serving Benchmark Result' block or llama-bench table rows: the fields it "
        "can read are filled and marked 'from the paste'; clearing or changing the paste puts back "
        "what they held before, and a field you edit is yours. A link does not carry it."
    ),
    what="pasted benchmark output",
)


#: Shortest time to first token timed, in ms (as for the decode measurement).
_SHORTEST_TTFT_MS = 0.001


def _ttft_check(values: dict[str, Any]) -> dict[str, str]:
    """A time to first token is 0 (none) or long enough to have been timed."""
    ttft = values["ttft_ms"]
    if 0 < ttft < _SHORTEST_TTFT_MS:
        return {
            "ttft_ms": f"{TTFT_MS.label}: {ttft:g} ms is too short to have been timed; "
            f"choose one of 0 (no prefill) or at least {_SHORTEST_TTFT_MS:g} ms."
        }
    return {}


def _paste(values: dict[str, Any]) -> tuple[Parsed, dict[str, Any], list[str]]:
    """What the paste reads: the parse, ``{field id: value}`` of the fields it fills, and the
    readings a field refused (each with the field's message).

    The fills are proposals: the result is computed from the fields as given, so it always
    matches the inputs a page shows. The page writes the fills into their boxes (marked as the
    paste's, and put back when the paste changes) and computes again; the command line does
    the same in two passes.
    """
    parsed = parse_benchmark_output(values["benchmark_output"])
    fills: dict[str, Any] = {}
    refused: list[str] = []
    fields = {field.id: field for field in RECONCILE.inputs}
    for reading in parsed.readings:
        field = fields[reading.field]
        number, invalid = field.parse(reading.value)
        if invalid is not None:
            refused.append(f"{reading.line!r}: {field.label}: {invalid}")
            continue
        fills[field.id] = number
    return parsed, fills, refused


def _read_text(parsed: Parsed, fills: dict[str, Any]) -> str:
    """What the paste filled, grouped by the line each value came from."""
    if not parsed.source:
        return "nothing pasted" if not parsed.unused else "nothing read"
    if not fills:
        return f"{parsed.source}: no field could be filled"
    fields = {field.id: field for field in RECONCILE.inputs}
    by_line: dict[str, list[str]] = {}
    for reading in parsed.readings:
        if reading.field not in fills:
            continue
        field, filled = fields[reading.field], fills[reading.field]
        shown = (
            next(c.label for c in field.choices if c.value == filled) if isinstance(field, OneOf) else box_text(filled)
        )
        by_line.setdefault(reading.line, []).append(f"{field.label}: {shown}")
    groups = "; ".join(f"{', '.join(items)} (from {line})" for line, items in by_line.items())
    notes = f". Also read: {'; '.join(parsed.notes)}" if parsed.notes else ""
    return f"{parsed.source}: {groups}{notes}"


def _unread_text(parsed: Parsed, refused: list[str]) -> str:
    problems = [*parsed.unused, *refused]
    if not problems and not parsed.not_needed:
        return "nothing" if parsed.source else "nothing pasted"
    named = "; ".join(problems[:_NAMED_LINES])
    more = len(problems) - _NAMED_LINES
    text = named + (f"; and {more} more" if more > 0 else "")
    if parsed.not_needed:
        skipped = f"{len(parsed.not_needed)} line{'s' if len(parsed.not_needed) != 1 else ''} read but not needed"
        text = f"{text}. {skipped}" if text else skipped
    return text


def _step_text(seconds: float, tokens_per_s_per_sequence: float) -> str:
    return f"{format_time(seconds)} per token ({format_tokens_per_s(tokens_per_s_per_sequence)} per sequence)"


def _mbu_measured(result: Any) -> dict[str, Any]:
    """MBU against what the chip measurably reaches, beside the datasheet's (the ``mbu`` output):
    "70% of 2.97 TB/s (measured)", as short as the ``mbu`` text, so a half-width card on a phone
    holds it in two lines (the output's label names the measured roof)."""
    achievable = result.mbu_of_measured_roof
    if achievable is None:
        return value(0, "1", "no cited bandwidth measurement of this chip")
    roof = format_bandwidth(result.measured_roof_bytes_per_s)
    return value(achievable, "1", f"{format_percent(achievable)} of {roof} (measured)")


def _remainder_text(result: Reconciliation) -> str:
    remainder = result.remainder_s
    if result.faster_than_bound:
        return (
            f"inconsistent: the measurement is {format_time(-remainder)} faster than the speed of light; "
            "check the batch, formats and devices"
        )
    return f"{format_time(remainder)} ({format_percent(remainder / result.measured_time_s)} of the step)"


def _expected_text(result: Any) -> dict[str, Any]:
    """The realistic step for this kind of run (the estimate's expected_* fields) and where the
    measurement falls against its 80% range."""
    fast_s, slow_s = result.expected_range_s
    if result.within_expected_range:
        where = "yours is inside that range"
    elif result.measured_time_s > slow_s:
        where = "yours is slower than 9 in 10 of them: look for a cause beyond the engine"
    else:
        where = "yours is faster than 9 in 10 of them"
    return value(
        result.expected_time_s,
        "s",
        f"about {format_time(result.expected_time_s)}; 8 in 10 published runs of this kind take "
        f"{format_time(fast_s)} to {format_time(slow_s)}: {where}",
    )


def _ttft_text(values: dict[str, Any], accelerator: Any, compute_dtype: str) -> dict[str, Any]:
    if values["ttft_ms"] == 0:
        return value(0, "1", "no time to first token entered")
    if values["ttft_ms"] < _SHORTEST_TTFT_MS:
        return value(0, "1", f"a time to first token under {_SHORTEST_TTFT_MS:g} ms cannot have been timed")
    prefill = reconcile_prefill(
        model=model_of(values),
        accelerator=accelerator,
        ttft_s=values["ttft_ms"] / 1e3,
        prompt_tokens=values["prompt_tokens"],
        weight_dtype=values["weight_dtype"],
        compute_dtype=compute_dtype,
        devices=values["devices"],
        # Prefill models tensor and expert parallelism; a pipeline's prefill is counted as the
        # tensor-parallel split, as before.
        parallelism=EXPERT if values["parallelism"] == EXPERT else TENSOR,
    )
    verdict = (
        "faster than the speed of light: inconsistent, check the prompt length and formats"
        if prefill.faster_than_bound
        else f"{format_percent(prefill.share_of_bound)} of the speed of light"
    )
    return value(
        prefill.mfu,
        "1",
        f"MFU {format_percent(prefill.mfu)}: {format_time(prefill.measured_time_s)} measured for "
        f"{prefill.tokens:,} prompt tokens against a bound of {format_time(prefill.bound_time_s)} ({verdict})",
    )


def _compute(values: dict[str, Any]) -> dict[str, Any]:
    parsed, fills, refused = _paste(values)
    accelerator, compute_dtype = math_accelerator(values)
    batch = values["batch"]
    measured_s = measured_step_time_s(kind=values["measurement_kind"], value=values["measured"], batch=batch)
    result = reconcile_decode(
        model=model_of(values),
        accelerator=accelerator,
        measured_time_s=measured_s,
        weight_dtype=values["weight_dtype"],
        kv_dtype=values["kv_dtype"],
        compute_dtype=compute_dtype,
        batch=batch,
        context_tokens=values["context_tokens"],
        devices=values["devices"],
        parallelism=values["parallelism"],
    )
    bound_per_sequence = 1.0 / result.bound_time_s
    outputs = {
        "versus": value(
            result.share_of_bound,
            "1",
            (
                f"{format_percent(result.share_of_bound)} of the speed of light"
                if not result.faster_than_bound
                else "faster than the speed of light (inconsistent)"
            ),
        ),
        "bound": value(result.bound_time_s, "s", _step_text(result.bound_time_s, bound_per_sequence)),
        "expected": _expected_text(result),
        "measured_step": value(result.measured_time_s, "s", _step_text(measured_s, 1.0 / measured_s)),
        "measured_total": value(
            result.measured_tokens_per_s,
            "tokens/s",
            f"{format_tokens_per_s(result.measured_tokens_per_s)}, whole batch",
        ),
        "mbu": value(
            result.mbu, "1", f"{format_percent(result.mbu)} of {format_bandwidth(result.bandwidth_bytes_per_s)}"
        ),
        "mbu_measured": _mbu_measured(result),
        "mfu": value(
            result.mfu,
            "1",
            f"{format_percent(result.mfu)} of {format_flop_per_s(result.peak_flop_per_s)} ({compute_dtype.upper()})",
        ),
        "unexplained": value(result.remainder_s, "s", _remainder_text(result)),
        "prefill": _ttft_text(values, accelerator, compute_dtype),
        "pasted": value(len(fills), "fields", _read_text(parsed, fills)),
        "not_read": value(len(parsed.unused) + len(refused), "lines", _unread_text(parsed, refused)),
    }
    table = [
        {
            "part": value(part.label, "", part.label) | {"term": part.term},
            "time": value(part.time_s, "s", format_time(part.time_s)),
            "share": value(part.share, "1", format_percent(part.share)),
            "closes": value(part.closes, "", part.closes),
        }
        for part in result.parts
    ]
    # The speed-of-light step in the estimates' parts; the table above splits the measured time.
    parts = parts_result("bound", result.bound_time_s, result.bound_parts, result.bound_working)
    return {"outputs": outputs, "table": table, "fills": fills, "fills_from": BENCHMARK_OUTPUT.id, "parts": parts}


_CUSTOM_ACCELERATOR_FIELDS = ("peak_tflop_per_s", "bandwidth_tb_per_s")

RECONCILE = Calculator(
    id="reconcile",
    title="How close is my server to the roofline?",
    description=(
        "Your measured decode speed (or a pasted vLLM or llama-bench summary) beside the speed of "
        "light of the same scenario: achieved bandwidth and FLOP utilisation, and how much of each "
        "step the weights, the KV cache, arithmetic and communication explain."
    ),
    inputs=(
        MEASUREMENT_KIND,
        MEASURED,
        # Pasting is the quick way in: the box comes first among the other inputs.
        BENCHMARK_OUTPUT,
        model_input(default="llama-3.1-8b", custom_fields=("params_billion", "layers", "kv_heads", "head_dim")),
        model_config_input(),
        params_input(default=8),
        *custom_kv_inputs(),
        dtype_input(id="weight_dtype", label="Weight format", help="How the served weights are stored."),
        dtype_input(id="kv_dtype", label="KV cache format", help="How cached keys and values are stored."),
        accelerator_input(custom_fields=_CUSTOM_ACCELERATOR_FIELDS),
        *custom_accelerator_inputs(*_CUSTOM_ACCELERATOR_FIELDS),
        devices_input(),
        PARALLELISM_INPUT,
        MATH_DTYPE,
        batch_input(default=1).variant(
            help="Sequences decoded together: a benchmark's concurrency (vLLM's --max-concurrency)."
        ),
        context_input(default=1024, min=0, slider=False, help="Tokens in each sequence's KV cache during the steps."),
        TTFT_MS,
        prompt_input(help="Tokens in the prompt whose time to first token you measured."),
    ),
    outputs=(
        Output("versus", "Measured against the speed of light"),
        Output("mbu", "Memory bandwidth utilisation (MBU)"),
        Output("mbu_measured", "MBU of the measured roof"),
        Output("mfu", "FLOP utilisation (MFU)"),
        Output("unexplained", "Unexplained by the roofline"),
        Output("bound", "Speed-of-light step"),
        Output("expected", "Realistic step for this kind of run"),
        Output("measured_step", "Measured step"),
        Output("measured_total", "Measured throughput"),
        Output("prefill", "Prefill (time to first token)"),
        Output("pasted", "Read from the paste"),
        Output("not_read", "Not used from the paste"),
        WEIGHT_FORMAT_READ,
    ),
    cross_check=lambda values: math_cross_check(values) | parallelism_cross_check(values) | _ttft_check(values),
    headline=("versus", "mbu", "mfu", "unexplained"),
    key_inputs=("measurement_kind", "measured"),
    compute=_compute,
    table_columns=(
        Output("part", "Part of the step"),
        Output("time", "Time"),
        Output("share", "Share of the measured step"),
        Output("closes", "What typically closes it"),
    ),
)
