"""The engine's own words: a pasted start-up log, every number reproduced from the model.

The log is read by :func:`roofline_core.engine_log.parse` (at most 1 MB; lines it does not know
are named, never guessed) and each number the model can derive is checked by
:func:`roofline_core.questions.engine_log_check.check_log`, whose vLLM rules come from
:mod:`roofline_core.estimates.engine_memory`. The paste is a :class:`PastedText`, so a link never
carries it.
"""

from __future__ import annotations

from typing import Any

from roofline_core.calculators._common import (
    accelerator_input,
    custom_accelerator_inputs,
    devices_input,
    dtype_input,
    memory_bytes_of,
    model_config_input,
    model_input,
    model_of,
)
from roofline_core.calculators.base import Calculator, Output, value
from roofline_core.formatting import format_number, format_whole
from roofline_core.models import Model
from roofline_core.questions.engine_log_check import MAX_INPUT_BYTES, EngineLogError, LogNumber, check_log, parse
from roofline_core.vocabulary import PastedText

#: An example to paste (the docs page shows it): vLLM's lines for Llama 3.1 8B on one 80 GiB GPU.
#: A paste box opens empty, as every one does.
EXAMPLE_LOG = """\
INFO 11-27 12:00:05 [gpu_worker.py:298] Available KV cache memory: 53.47 GiB
INFO 11-27 12:00:06 [kv_cache_utils.py:1087] GPU KV cache size: 438,016 tokens
INFO 11-27 12:00:06 [kv_cache_utils.py:1091] Maximum concurrency for 32,768 tokens per request: 13.37x
INFO 11-27 12:00:07 [core.py:210] init engine (profile, create kv cache, warmup model) took 12.30 seconds"""

ENGINE_LOG = PastedText(
    id="engine_log",
    label="Engine start-up log",
    default="",
    help=(
        "Paste the start-up lines of vLLM, SGLang or llama.cpp's server. Every number read is "
        "reproduced from the model below; lines it does not know are listed, never guessed. "
        "A link does not carry the paste."
    ),
    most_chars=MAX_INPUT_BYTES,
    what="pasted engine log",
)

ENGINE_NAMES = {"vllm": "vLLM", "sglang": "SGLang", "llama.cpp": "llama.cpp"}


def _shown(number: LogNumber) -> str:
    return f"{number.printed} (line {number.line_number})"


def _expected_text(expected: float, unit: str) -> str:
    if unit == "B":
        return f"{expected / 2**30:,.2f} GiB"
    if unit == "tokens":
        return f"{format_whole(expected)} tokens"
    return format_number(expected)


def _placeholder_row(why: str) -> dict[str, Any]:
    """A row that holds the table's place when there is nothing to compare, saying why."""
    return {
        "number": value("", "", "–"),
        "logged": value(0, "", "–"),
        "model": value(0, "", "–"),
        "working": value("", "", "–"),
        "verdict": value(False, "", why),
    }


def _compute(values: dict[str, Any]) -> dict[str, Any]:
    text = values["engine_log"]
    if not text.strip():
        # Said once, in the first output; the others stay quiet rather than repeat it.
        empty = {o.id: value(0, "", "–") for o in ENGINE_LOG_OUTPUTS}
        empty["engine"] = value(0, "", "nothing pasted: paste the start-up lines of vLLM, SGLang or llama.cpp")
        return {"outputs": empty, "table": [_placeholder_row("paste a log to compare it with the model")]}
    try:
        log = parse(text)
    except EngineLogError as error:
        # Only the size limit is refused; it is said as the box would.
        return {"outputs": {o.id: value(0, "", str(error)) for o in ENGINE_LOG_OUTPUTS}, "table": []}
    model = model_of(values)
    devices = values["devices"]
    checks = (
        check_log(
            log,
            model=model,
            tensor_parallel=devices if devices > 1 else None,
            device_memory_bytes=memory_bytes_of(values),
            weight_dtype=values["weight_dtype"],
        )
        if isinstance(model, Model)
        else ()
    )
    engine = ENGINE_NAMES.get(log.engine or "", "no engine recognised")
    agree = sum(1 for c in checks if c.agrees)
    rows = [
        {
            "number": value(c.name, "", c.name.replace("_", " ")),
            "logged": value(c.logged.value, c.logged.unit, _shown(c.logged)),
            "model": value(c.expected, c.logged.unit, _expected_text(c.expected, c.logged.unit)),
            "working": value(c.working, "", c.working),
            "verdict": value(
                c.agrees,
                "",
                ("agrees: " if c.agrees else "differs: ") + c.explanation,
            ),
        }
        for c in checks
    ]
    if not rows:
        # The page draws a table only where the result has rows; one says why it is empty.
        rows = [_placeholder_row("no number here the model can reproduce")]
    read = ", ".join(f"{n.name} = {n.printed}" for n in log.numbers) or "no number it knows"
    unused = "; ".join(f"line {u.line_number}: {u.line} ({u.reason})" for u in log.unused) or "none"
    outputs = {
        "engine": value(log.engine or "", "", engine),
        "agreement": value(
            agree,
            "",
            f"{agree} of {len(checks)} reproduced numbers agree with the model"
            if checks
            else "no number here the model can reproduce (it needs the cache's memory, tokens or sizes)",
        ),
        "read": value(len(log.numbers), "", f"{len(log.numbers)}: {read}"),
        "unused": value(len(log.unused), "lines", unused),
        "notes": value(len(log.notes), "", " ".join(log.notes) or "none"),
    }
    return {"outputs": outputs, "table": rows}


ENGINE_LOG_OUTPUTS = (
    Output("engine", "Engine"),
    Output("agreement", "Reproduced from the model"),
    Output("read", "Numbers read"),
    Output("unused", "Lines not used"),
    Output("notes", "About the reading"),
)

ENGINE_LOG_CALCULATOR = Calculator(
    id="engine-log",
    title="The engine's own words: a start-up log beside the model",
    description=(
        "Paste a vLLM, SGLang or llama.cpp start-up log: every number it reads (KV cache memory, "
        "tokens, concurrency, cache sizes) reproduced from the model, with why they differ."
    ),
    inputs=(
        ENGINE_LOG,
        model_input(default="llama-3.1-8b"),
        model_config_input(),
        devices_input().variant(
            help="Devices in tensor parallel; 1 takes the log's own tensor_parallel_size where it prints one."
        ),
        # The device's memory and the weights' format: vLLM's "Available KV cache memory" is what
        # gpu_memory_utilization of the device leaves after the weights and the profiling run.
        accelerator_input(custom_fields=("memory_gb",)),
        *custom_accelerator_inputs("memory_gb"),
        dtype_input(
            id="weight_dtype",
            label="Weight format",
            default="bf16",
            help="How the weights are stored, where the log does not print their memory.",
        ),
    ),
    outputs=ENGINE_LOG_OUTPUTS,
    headline=("agreement", "engine"),
    key_inputs=("engine_log", "model"),
    compute=_compute,
    table_columns=(
        Output("number", "Number"),
        Output("logged", "In the log"),
        Output("model", "From the model"),
        Output("working", "Working"),
        Output("verdict", "Agrees?"),
    ),
)
