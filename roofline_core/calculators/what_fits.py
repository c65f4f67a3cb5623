"""What fits: the inverse questions of roofline_core.questions.inverse for one scenario, each answer with
the constraint that stops it going further."""

from __future__ import annotations

from typing import Any

from roofline_core.calculators._common import (
    WEIGHT_FORMAT_READ,
    accelerator_input,
    batch_input,
    context_input,
    devices_input,
    dtype_input,
    memory_fit_of,
    model_config_input,
    model_input,
    model_of,
)
from roofline_core.calculators._engines import COMMAND_OUTPUTS, command_outputs
from roofline_core.calculators.base import Calculator, Output, value
from roofline_core.formatting import format_amount, format_number
from roofline_core.hardware import ACCELERATORS
from roofline_core.questions.inverse import (
    LATENCY,
    MEMORY,
    NONE,
    Answer,
    best_batch_under_latency,
    fewest_devices,
    largest_batch,
    least_quantised_format,
    longest_context,
    sentence,
)
from roofline_core.vocabulary import Number

BINDING_WORDS = {MEMORY: "memory", LATENCY: "latency target", NONE: "nothing, within the range searched"}

#: The questions, in the order the table lists them: output id and the question as a reader asks it.
QUESTIONS: tuple[tuple[str, str], ...] = (
    ("longest_context", "Longest context at this batch"),
    ("largest_batch", "Largest batch at this context"),
    ("fewest_devices", "Fewest devices that hold it and meet the target"),
    ("least_quantised_format", "Least quantised weight format that fits"),
    ("best_batch", "Batch with the most tokens/s within the target"),
)


def _shown(answer: Answer, noun: str) -> str:
    """The amount (or the format) alone; no setting, or none of a count, does not fit."""
    if answer.value is None and answer.binding == NONE:
        return "no limit"
    if answer.value is None or answer.value == 0:
        return "misses the target" if answer.binding == LATENCY else "does not fit"
    return str(answer.value) if noun == "" else format_amount(answer.value, noun)


def _answer(answer: Answer, noun: str) -> dict[str, Any]:
    """An answer as an output: the amount (or the format) told as a sentence."""
    return value(answer.value, noun, sentence(answer, noun, fewest=noun == "devices"))


def _compute(values: dict[str, Any]) -> dict[str, Any]:
    model = model_of(values)
    accelerator = ACCELERATORS[values["accelerator"]]
    common = {"model": model, "accelerator": accelerator, "kv_dtype": values["kv_dtype"]}
    here = {**common, "devices": values["devices"]}
    weights = values["weight_dtype"]
    limit_ms = values["max_ms_per_token"]
    context = values["context_tokens"]
    batch = values["batch"]
    answers = {
        "longest_context": (longest_context(**here, weight_dtype=weights, batch=batch), "tokens"),
        "largest_batch": (largest_batch(**here, weight_dtype=weights, context_tokens=context), "sequences"),
        "fewest_devices": (
            fewest_devices(
                **common, weight_dtype=weights, batch=batch, context_tokens=context, max_ms_per_token=limit_ms
            ),
            "devices",
        ),
        "least_quantised_format": (least_quantised_format(**here, batch=batch, context_tokens=context), ""),
        "best_batch": (
            best_batch_under_latency(**here, weight_dtype=weights, context_tokens=context, max_ms_per_token=limit_ms),
            "sequences",
        ),
    }
    outputs = {key: _answer(answer, noun) for key, (answer, noun) in answers.items()}
    outputs["limit"] = value(limit_ms, "ms", f"{format_number(limit_ms)} ms per output token")
    fits = memory_fit_of(values, model, context_tokens=context).fits
    outputs |= command_outputs(values, model, context_tokens=context, sequences=batch, fits=fits)
    rows = []
    for key, question in QUESTIONS:
        answer, noun = answers[key]
        binds = BINDING_WORDS[answer.binding]
        rows.append(
            {
                "question": value(question, "", question),
                "answer": value(answer.value, noun, _shown(answer, noun)),
                "binds": value(answer.binding, "", binds),
                "why": value(answer.reason, "", answer.reason),
            }
        )
    return {"outputs": outputs, "table": rows}


WHAT_FITS = Calculator(
    id="what-fits",
    title="What fits: limits and the constraint that sets them",
    description=(
        "The longest context, the largest batch, the fewest devices, the least quantised weight "
        "format and the batch with the most tokens/s under a latency target, each with what binds it."
    ),
    inputs=(
        # Llama 3.1 70B on four H100s: 16-bit weights (141 GB) need more than one card, and the
        # answers show where memory and the latency target each stop it.
        model_input(default="llama-3.1-70b"),
        model_config_input(),
        accelerator_input(),
        devices_input(default=4),
        dtype_input(id="weight_dtype", label="Weight format", help="How the weights are stored."),
        dtype_input(id="kv_dtype", label="KV cache format", help="How cached keys and values are stored."),
        batch_input(default=16),
        context_input(default=8192, min=1, slider=True),
        Number(
            id="max_ms_per_token",
            label="Latency target",
            unit="ms per token",
            default=50,
            minimum=0.1,
            maximum=10_000,
            step=0.1,
            help="Longest decode step each sequence may wait for its next token (the time per output token target).",
        ),
    ),
    outputs=(
        *(Output(key, question) for key, question in QUESTIONS),
        Output("limit", "Latency target"),
        WEIGHT_FORMAT_READ,
        *COMMAND_OUTPUTS,
    ),
    headline=("largest_batch", "longest_context"),
    key_inputs=("context_tokens", "max_ms_per_token"),
    compute=_compute,
    table_columns=(
        Output("question", "Question"),
        Output("answer", "Answer"),
        Output("binds", "What binds"),
        Output("why", "Why"),
    ),
)
