"""Command line: ``python -m roofline_core <command>`` (installed as ``roofline`` too).

``decode``, ``batch-sweep``, ``prefill``, ``kv-cache`` and ``limits`` run the site's calculators
(:func:`roofline_core.calculators.compute`): each option sets one calculator field, so a value
gets the same check, limits and message as on the site, and the output has the calculator's
labels. ``ridge`` lists ridge points, of one accelerator or of every preset. ``compare`` takes
any calculator and two scenarios as ``FIELD=VALUE`` pairs (the ids a link uses) and shows how
each result and each input's effect changed (:mod:`roofline_core.calculators.compare`).
``engine-log FILE`` (``-`` for standard input) reads a vLLM, SGLang or llama.cpp start-up log
(:mod:`roofline_core.engine_log`) and prints each number it found with its line, and how many
lines it did not use (``--json`` lists them, each with why). ``engine-flags`` prints the vLLM,
SGLang and llama.cpp commands that run a scenario (:mod:`roofline_core.questions.engine_flags`).
``capacity`` runs the capacity planner: the cheapest fleet under TTFT and TPOT targets
(:mod:`roofline_core.questions.capacity`), each time with its parts, and the engine commands.
``session`` follows an agentic session turn by turn (:mod:`roofline_core.questions.session`), and
``disaggregate`` sizes prefill and decode pools (:mod:`roofline_core.questions.disaggregation`).

Hardware and models come from presets (``--accelerator h100-sxm --model llama-3-8b``) or from
numbers (``--peak-tflops 989 --bandwidth-tbs 3.35 --params 8e9``), which select the calculator's
"Custom" choice. Output is a readable table, or JSON with ``--json``. A bad argument is one line
on stderr and exit status 2; an output that cannot be written (a full disk) is one line and
status 1, and a reader that stops early (``| head -1``) ends the command quietly with status 1.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any

from roofline_core.calculators import CALCULATORS, CUSTOM, FROM_CONFIG, compute_with_fills, value
from roofline_core.calculators._common import WEIGHT_FORMAT_READ
from roofline_core.calculators.base import Calculator
from roofline_core.calculators.compare import compare, effect_text, ratio_text
from roofline_core.calculators.decode_speed_of_light import batch_cell
from roofline_core.engine_log import MAX_INPUT_BYTES, EngineLogError
from roofline_core.engine_log import parse as parse_engine_log
from roofline_core.estimates.inference import DEFAULT_SWEEP_BATCHES, critical_batch
from roofline_core.formatting import (
    format_amount,
    format_bandwidth,
    format_bytes,
    format_capacity,
    format_flop_per_s,
    format_intensity,
    format_number,
)
from roofline_core.hardware import ACCELERATORS, TERA, AnyAccelerator, CustomAccelerator, accelerators_by_vendor
from roofline_core.models import MLA, MODELS, models_by_family
from roofline_core.models.config_code import model_from_code
from roofline_core.models.config_error import ConfigError
from roofline_core.models.gguf import GGUFError, GGUFHeader, gguf_model_config, model_from_gguf, read_gguf_file
from roofline_core.models.hf_config import MAX_CONFIG_CHARS
from roofline_core.models.safetensors import (
    MAX_INDEX_CHARS,
    SafetensorsError,
    read_safetensors_file,
    read_safetensors_index,
)
from roofline_core.questions.engine_flags import DEFAULT_MEMORY_FRACTION, engine_commands
from roofline_core.questions.engine_log_check import check_log
from roofline_core.view.prose import is_prose
from roofline_core.vocabulary import MAX_PASTED_CHARS, PARAMS, Declaration, ModelConfig, Number, OneOf

PROG = "roofline"
EXIT_USAGE = 2
EXIT_OUTPUT = 1
GIGA = 1e9


class CliError(Exception):
    """A problem with what was typed; printed as one line, never as a traceback."""


class _Parser(argparse.ArgumentParser):
    # argparse prints the usage and exits from inside error(); raising instead lets main()
    # print the single line every other error gets.
    def error(self, message: str) -> None:  # type: ignore[override]
        raise CliError(message)


#: Calculator field each option sets (``--params`` takes a count; the field takes billions).
FIELD_OF_OPTION: dict[str, str] = {
    "--model": "model",
    "--config": "model_config",
    "--gguf": "model_config",
    "--params": "params_billion",
    "--attention": "attention",
    "--layers": "layers",
    "--kv-heads": "kv_heads",
    "--head-dim": "head_dim",
    "--mla-latent-dim": "mla_latent_dim",
    "--mla-rope-dim": "mla_rope_dim",
    "--accelerator": "accelerator",
    "--peak-tflops": "peak_tflop_per_s",
    "--bandwidth-tbs": "bandwidth_tb_per_s",
    "--memory-gb": "memory_gb",
    "--weight-dtype": "weight_dtype",
    "--kv-dtype": "kv_dtype",
    "--batch": "batch",
    "--context": "context_tokens",
    "--devices": "devices",
    "--efficiency": "bandwidth_efficiency",
    "--prompt-tokens": "prompt_tokens",
    "--dtype": "dtype",
    "--max-ms-per-token": "max_ms_per_token",
    "--measurement": "measurement_kind",
    "--measured": "measured",
    "--ttft-ms": "ttft_ms",
    "--parallelism": "parallelism",
    "--paste-file": "benchmark_output",
    "--rate": "rate_per_s",
    "--prompt-tokens-high": "prompt_tokens_high",
    "--output-tokens": "output_tokens",
    "--output-tokens-high": "output_tokens_high",
    "--prefix-hit-rate": "prefix_hit_rate",
    "--percentile": "percentile",
    "--ttft-target-ms": "ttft_target_ms",
    "--tpot-target-ms": "tpot_target_ms",
    "--price-per-device-hour": "price_per_device_hour",
    "--turns": "turns",
    "--tool-tokens": "tool_tokens",
    "--hit-rate": "hit_rate",
    "--concurrent": "concurrent",
    "--tool-time-s": "tool_time_s",
    "--tier": "tier",
    "--tier-bandwidth-gbs": "tier_bandwidth_gb_per_s",
    "--link-gbs": "link_gb_per_s",
}

_GQA_SHAPE = ("--layers", "--kv-heads", "--head-dim")
_ARCHITECTURE = ("--attention", *_GQA_SHAPE, "--mla-latent-dim", "--mla-rope-dim")
_HARDWARE = ("--accelerator", "--peak-tflops", "--bandwidth-tbs")


@dataclasses.dataclass(frozen=True)
class Command:
    """One subcommand.

    Attributes:
        name: What is typed (``"decode"``).
        help: One line for ``--help``.
        calculator: Id of the calculator whose fields check the options.
        options: Options, in ``--help`` order (keys of :data:`FIELD_OF_OPTION`, or ``--batches``).
        run: Builds the result from the parsed arguments.
    """

    name: str
    help: str
    calculator: str
    options: tuple[str, ...]
    run: Callable[[Command, argparse.Namespace], dict[str, Any]]

    @property
    def calc(self) -> Calculator:
        return CALCULATORS[self.calculator]


# --- From options to calculator inputs ---------------------------------------------------------


def _dest(option: str) -> str:
    return option.lstrip("-").replace("-", "_")


def _given(args: argparse.Namespace, option: str) -> bool:
    return getattr(args, _dest(option), None) is not None


def _count_field(calc: Calculator) -> Number:
    """``--params`` as a plain count: the vocabulary's ``params``, the calculators' billions x 1e9."""
    return PARAMS


def _raw_inputs(command: Command, args: argparse.Namespace) -> tuple[dict[str, Any], dict[str, str]]:
    """The calculator inputs the options give, and the option that set each field."""
    raw: dict[str, Any] = {}
    option_of: dict[str, str] = {}
    if _given(args, "--config") and _given(args, "--gguf"):
        raise CliError("give --config or --gguf, not both (each describes the whole model)")
    for option in command.options:
        if option not in FIELD_OF_OPTION or not _given(args, option):
            continue
        typed = getattr(args, _dest(option))
        field_id = FIELD_OF_OPTION[option]
        if typed.strip() == CUSTOM and option in ("--model", "--accelerator"):
            numbers = "--params" if option == "--model" else "--peak-tflops and --bandwidth-tbs"
            raise CliError(f"{option}: choose a preset; give your own numbers with {numbers} instead of {CUSTOM!r}")
        if option == "--params":
            count, error = _count_field(command.calc).parse(typed)
            if error is not None:
                raise CliError(f"--params: {error}")
            typed = count / GIGA
        if option == "--config":
            typed = _read_text_file(typed, option="--config", max_chars=MAX_CONFIG_CHARS, expected="a config.json")
        if option == "--gguf":
            typed = json.dumps(_gguf_config(typed))
        if option == "--paste-file":
            typed = _read_text_file(
                typed,
                option="--paste-file",
                max_chars=MAX_PASTED_CHARS,
                expected="a benchmark's printed summary",
                stdin=True,
            )
        raw[field_id] = typed
        option_of[field_id] = option
    return raw, option_of


def _read_text_file(path: str, *, option: str, max_chars: int, expected: str, stdin: bool = False) -> str:
    """The text of the file at ``path`` (``-`` for standard input where ``stdin``), one character
    past ``max_chars`` at most, so an oversized file gets the field's own message without being
    read whole."""
    try:
        if stdin and path == "-":
            return sys.stdin.read(max_chars + 1)
        with open(path, encoding="utf-8") as file:
            return file.read(max_chars + 1)
    except UnicodeDecodeError:
        raise CliError(f"{option}: {path} is not UTF-8 text; expected {expected}") from None
    except OSError as error:
        raise CliError(f"{option}: cannot read {path}: {error.strerror or error}") from None


def _read_gguf(path: str, option: str = "--gguf") -> GGUFHeader:
    """The header of a GGUF file, reading only as much of it as the header takes."""
    try:
        return read_gguf_file(path)
    except GGUFError as error:
        raise CliError(f"{option}: {path}: {error}") from None
    except OSError as error:
        raise CliError(f"{option}: cannot read {path}: {error.strerror or error}") from None


def _gguf_config(path: str) -> dict[str, Any]:
    """The config a GGUF file's header describes, its exact weight bytes included."""
    try:
        return gguf_model_config(_read_gguf(path))
    except (GGUFError, ConfigError) as error:
        raise CliError(f"--gguf: {path}: {error}") from None


def _choose_config_model(args: argparse.Namespace, raw: dict[str, Any], others: Sequence[str]) -> bool:
    """``--config`` or ``--gguf``: the model a file describes; returns whether one was given."""
    given = next((option for option in ("--config", "--gguf") if _given(args, option)), None)
    if given is None:
        return False
    clash = next((option for option in others if _given(args, option)), None)
    if clash:
        raise CliError(f"give {given} or {clash}, not both (the file describes the whole model)")
    raw["model"] = FROM_CONFIG
    return True


def _parsed(command: Command, raw: dict[str, Any], field_id: str) -> Any:
    """A field's value as the calculator will read it (None if it does not parse)."""
    field = command.calc.field(field_id)
    return field.parse(raw.get(field_id, field.default))[0]


def _choose_step_model(command: Command, args: argparse.Namespace, raw: dict[str, Any]) -> None:
    """A preset (``--model``) or a custom model (``--params``, optionally its KV shape)."""
    if _choose_config_model(args, raw, ("--model", "--params", *_GQA_SHAPE)):
        return
    shape = [option for option in _GQA_SHAPE if option in command.options and _given(args, option)]
    if _given(args, "--params"):
        if _given(args, "--model"):
            raise CliError("give --model or --params, not both")
        raw["model"] = CUSTOM
        if shape and len(shape) < len(_GQA_SHAPE):
            raise CliError("the KV cache of a --params model needs all of --layers, --kv-heads and --head-dim")
        context = _parsed(command, raw, "context_tokens") if _given(args, "--context") else 0
        if not shape and context:
            raise CliError("--context needs --layers, --kv-heads and --head-dim when the model is given by --params")
        if not shape and "--context" in command.options:
            # A model known only by its size has no KV shape: its steps read the weights alone.
            raw["context_tokens"] = 0
        return
    if not _given(args, "--model"):
        raise CliError(f"give --model (one of {', '.join(MODELS)}), --config or --params")
    if shape:
        raise CliError(f"{shape[0]} describes a custom model; use it with --params, not --model")


def _choose_kv_model(command: Command, args: argparse.Namespace, raw: dict[str, Any]) -> None:
    """A preset (``--model``) or an architecture (``--attention``, ``--layers`` ...; ``--params`` for its weights)."""
    if _choose_config_model(args, raw, ("--model", *_ARCHITECTURE, "--params")):
        return
    architecture = any(_given(args, option) for option in _ARCHITECTURE)
    if _given(args, "--model"):
        if architecture:
            raise CliError("give --model or the architecture (--layers ...), not both")
        if _given(args, "--params"):
            raise CliError("give --model or --params, not both")
        return
    if not architecture:
        raise CliError(
            f"give --model (one of {', '.join(MODELS)}), --config or the architecture (--attention, --layers, ...)"
        )
    raw["model"] = CUSTOM


def _choose_hardware(command: Command, args: argparse.Namespace, raw: dict[str, Any]) -> bool:
    """A preset (``--accelerator``, default h100-sxm) or custom numbers; returns whether custom."""
    numbers = [option for option in ("--peak-tflops", "--bandwidth-tbs") if _given(args, option)]
    if numbers:
        if _given(args, "--accelerator"):
            raise CliError("give --accelerator or --peak-tflops with --bandwidth-tbs, not both")
        if len(numbers) < 2:
            raise CliError("custom hardware needs both --peak-tflops and --bandwidth-tbs")
        raw["accelerator"] = CUSTOM
        return True
    if _given(args, "--memory-gb"):
        if "--peak-tflops" in command.options:
            raise CliError("--memory-gb goes with --peak-tflops and --bandwidth-tbs; a preset states its own memory")
        if _given(args, "--accelerator"):
            raise CliError("give --accelerator or --memory-gb, not both")
        raw["accelerator"] = CUSTOM
        return True
    return False


def _calculate(command: Command, raw: dict[str, Any], option_of: dict[str, str]) -> dict[str, Any]:
    """The calculator's result, or its first field error (in field order) as a :class:`CliError`.
    A pasted text's proposals for other fields (a config's weight format, a printout's readings)
    are filled in over the options, as on the page (:func:`compute_with_fills`)."""
    _raw, result = compute_with_fills(command.calculator, raw)
    for field in command.calc.inputs:
        message = result["errors"].get(field.id)
        if message is not None:
            option = option_of.get(field.id)
            raise CliError(f"{option}: {message}" if option else message)
    return result


# --- Commands ----------------------------------------------------------------------------------


def _entry(label: str, item: dict[str, Any]) -> dict[str, Any]:
    return {"label": label, **item}


def _input_text(field: Declaration, parsed: Any, values: dict[str, Any]) -> str:
    if field.id == "model" and parsed == FROM_CONFIG:
        model = model_from_code(values["model_config"])
        origin = "--gguf" if model.quantisation is not None and model.quantisation.part_bytes else "--config"
        return f"{model.name} (from {origin})"
    if isinstance(field, ModelConfig):
        return f"{parsed} (the code a site link carries)"
    if isinstance(field, OneOf):
        return next(c.label for c in field.choices if c.value == parsed)
    number = f"{parsed:,}" if isinstance(parsed, int) else format_number(parsed)
    if not field.unit:
        return number
    return f"{number}{field.unit}" if field.unit == "%" else format_amount(parsed, field.unit)


def _shown_inputs(calc: Calculator, result: dict[str, Any], hidden: set[str]) -> dict[str, Any]:
    """The inputs that shaped the result (defaults included), each with its label and text."""
    values = result["inputs"]
    shown = {}
    for field in calc.applicable_fields(values):
        if field.id not in hidden:
            unit = field.unit if isinstance(field, Number) else ""
            shown[field.id] = _entry(
                field.label, value(values[field.id], unit, _input_text(field, values[field.id], values))
            )
    return shown


def _shown_outputs(calc: Calculator, result: dict[str, Any], hidden: set[str]) -> dict[str, Any]:
    read = result["outputs"].get(WEIGHT_FORMAT_READ.id)
    if read is not None and read["value"] == "":
        hidden = hidden | {WEIGHT_FORMAT_READ.id}  # shown only for a --config file's quantization_config
    return {out.id: _entry(out.label, result["outputs"][out.id]) for out in calc.outputs if out.id not in hidden}


def _decode_setup(command: Command, args: argparse.Namespace) -> tuple[dict[str, Any], dict[str, str], set[str]]:
    """Raw inputs of a decode command, the option of each field, and what to leave unshown."""
    raw, option_of = _raw_inputs(command, args)
    _choose_step_model(command, args, raw)
    custom_hardware = _choose_hardware(command, args, raw)
    # Custom hardware without --memory-gb has no stated capacity: the calculator's default
    # would be a guess, so no memory verdict is shown.
    hidden = {"memory_gb", "memory_use", "fits"} if custom_hardware and not _given(args, "--memory-gb") else set()
    if not any(_given(args, option) for option in _GQA_SHAPE):
        hidden |= {FIELD_OF_OPTION[option] for option in _GQA_SHAPE}  # no cache at context 0
    return raw, option_of, hidden


def cmd_decode(command: Command, args: argparse.Namespace) -> dict[str, Any]:
    raw, option_of, hidden = _decode_setup(command, args)
    result = _calculate(command, raw, option_of)
    return {
        "command": command.name,
        "title": command.calc.title,
        "inputs": _shown_inputs(command.calc, result, hidden),
        "outputs": _shown_outputs(command.calc, result, hidden),
        "parts": result["parts"],
    }


def cmd_batch_sweep(command: Command, args: argparse.Namespace) -> dict[str, Any]:
    raw, option_of, hidden = _decode_setup(command, args)
    batches = DEFAULT_SWEEP_BATCHES if args.batches is None else args.batches.split(",")
    option_of["batch"] = "--batches"
    rows = []
    result: dict[str, Any] = {}
    for batch in batches:
        result = _calculate(command, {**raw, "batch": batch}, option_of)
        outputs = result["outputs"]
        # Each column but the batch is the calculator's output of the same id at that batch.
        rows.append(
            {
                column.id: batch_cell(result["inputs"]["batch"]) if column.id == "batch" else outputs[column.id]
                for column in command.calc.table_columns
            }
        )
    return {
        "command": command.name,
        "title": f"{command.calc.title}: batch sweep",
        "inputs": _shown_inputs(command.calc, result, hidden | {"batch"}),
        "columns": {column.id: column.label for column in command.calc.table_columns},
        "rows": rows,
    }


def cmd_prefill(command: Command, args: argparse.Namespace) -> dict[str, Any]:
    raw, option_of = _raw_inputs(command, args)
    _choose_step_model(command, args, raw)
    _choose_hardware(command, args, raw)
    result = _calculate(command, raw, option_of)
    return {
        "command": command.name,
        "title": command.calc.title,
        "inputs": _shown_inputs(command.calc, result, set()),
        "outputs": _shown_outputs(command.calc, result, set()),
        "parts": result["parts"],
    }


#: vLLM's allocation needs the device's memory and the weights; the engines' commands name a model.
_VLLM_OUTPUTS = {"vllm_cache_tokens", "vllm_concurrency", "vllm_memory"}
_COMMAND_OUTPUTS = {"vllm_command", "sglang_command", "llama_cpp_command"}
_MEMORY_OUTPUTS = {"share_of_memory", "weight_bytes", "max_batch", "max_context_tokens", *_VLLM_OUTPUTS}
_WEIGHT_OUTPUTS = {"weight_bytes", "max_batch", "max_context_tokens", "cache_tokens", *_VLLM_OUTPUTS, *_COMMAND_OUTPUTS}


def cmd_kv_cache(command: Command, args: argparse.Namespace) -> dict[str, Any]:
    raw, option_of = _raw_inputs(command, args)
    _choose_kv_model(command, args, raw)
    custom_hardware = _choose_hardware(command, args, raw)
    hidden: set[str] = set()
    # Without hardware, only the cache sizes follow from what was given; without the model's
    # size, the weights and what fits beside them do not either.
    if not (custom_hardware or _given(args, "--accelerator")):
        hidden |= _MEMORY_OUTPUTS | {"accelerator", "memory_gb", "devices", "weight_dtype", "params_billion"}
    if raw.get("model") == CUSTOM and not _given(args, "--params"):
        hidden |= _WEIGHT_OUTPUTS | {"weight_dtype", "params_billion"}
    if raw.get("model") == CUSTOM:
        # Only one KV shape applies: MLA's latent widths, or the KV heads of MHA and GQA.
        mla = _parsed(command, raw, "attention") == MLA
        hidden |= {"kv_heads", "head_dim"} if mla else {"mla_latent_dim", "mla_rope_dim"}
    result = _calculate(command, raw, option_of)
    return {
        "command": command.name,
        "title": command.calc.title,
        "inputs": _shown_inputs(command.calc, result, hidden),
        "outputs": _shown_outputs(command.calc, result, hidden),
    }


def cmd_limits(command: Command, args: argparse.Namespace) -> dict[str, Any]:
    raw, option_of = _raw_inputs(command, args)
    _choose_config_model(args, raw, ("--model",))
    result = _calculate(command, raw, option_of)
    return {
        "command": command.name,
        "title": command.calc.title,
        "inputs": _shown_inputs(command.calc, result, set()),
        "outputs": _shown_outputs(command.calc, result, set()),
    }


def cmd_capacity(command: Command, args: argparse.Namespace) -> dict[str, Any]:
    """The cheapest fleet, its parts and commands, then the cheapest fleet at each TP size."""
    raw, option_of = _raw_inputs(command, args)
    _choose_config_model(args, raw, ("--model",))
    result = _calculate(command, raw, option_of)
    calc = command.calc
    return {
        "command": command.name,
        "title": calc.title,
        "inputs": _shown_inputs(calc, result, set()),
        "outputs": _shown_outputs(calc, result, set()),
        "columns": {column.id: column.label for column in calc.table_columns},
        "rows": result.get("table", []),
    }


def cmd_session(command: Command, args: argparse.Namespace) -> dict[str, Any]:
    """A calculator's outputs, then its table one row a line (an agentic session's turns, or the
    disaggregated pools beside the co-located fleet): the capacity planner's layout."""
    return cmd_capacity(command, args)


def cmd_reconcile(command: Command, args: argparse.Namespace) -> dict[str, Any]:
    raw, option_of = _raw_inputs(command, args)
    _choose_step_model(command, args, raw)
    _choose_hardware(command, args, raw)
    result = _calculate(command, raw, option_of)
    hidden = {"benchmark_output"}
    if not any(_given(args, option) for option in _GQA_SHAPE):
        hidden |= {FIELD_OF_OPTION[option] for option in _GQA_SHAPE}
    rows = [{column.id: row[column.id] for column in command.calc.table_columns} for row in result["table"]]
    inputs = _shown_inputs(command.calc, result, hidden)
    # The measured number's unit is the one its kind states (the field's unit names both).
    measured, kind = result["inputs"]["measured"], result["inputs"]["measurement_kind"]
    unit = "ms per output token" if kind == "ms_per_token" else "tokens/s"
    inputs["measured"]["text"] = format_amount(measured, unit)
    return {
        "command": command.name,
        "title": command.calc.title,
        "inputs": inputs,
        "outputs": _shown_outputs(command.calc, result, set()),
        "columns": {column.id: column.label for column in command.calc.table_columns},
        "rows": rows,
    }


def _ridge_accelerator(command: Command, args: argparse.Namespace, dtype: str) -> AnyAccelerator | None:
    """The one accelerator asked for, or None for every preset."""
    raw, option_of = _raw_inputs(command, args)
    if not _choose_hardware(command, args, raw) and not _given(args, "--accelerator"):
        return None
    values = {}
    for field_id, typed in raw.items():
        if field_id == "accelerator" and typed == CUSTOM:
            continue
        field = command.calc.field(field_id)
        parsed, error = field.parse(typed)
        if error is not None:
            raise CliError(f"{option_of[field_id]}: {error}")
        values[field_id] = parsed
    if raw.get("accelerator") != CUSTOM:
        return ACCELERATORS[values["accelerator"]]
    return CustomAccelerator(
        peak_flop_per_s={dtype: values["peak_tflop_per_s"] * TERA},
        bandwidth_bytes_per_s=values["bandwidth_tb_per_s"] * TERA,
    )


def cmd_ridge(command: Command, args: argparse.Namespace) -> dict[str, Any]:
    dtype_field = command.calc.field("dtype")
    dtype, error = dtype_field.parse(args.dtype if _given(args, "--dtype") else dtype_field.default)
    if error is not None:
        raise CliError(f"--dtype: {error}")
    one = _ridge_accelerator(command, args, dtype)
    accelerators = list(ACCELERATORS.values()) if one is None else [one]
    rows = []
    for accelerator in accelerators:
        if not accelerator.supports(dtype):
            if one is not None:
                supported = ", ".join(accelerator.peak_flop_per_s)
                raise CliError(f"--dtype: {accelerator.name} has no {dtype} peak; choose one of {supported}")
            continue
        peak = accelerator.peak_for(dtype)
        bandwidth = accelerator.bandwidth_bytes_per_s
        ridge = accelerator.ridge_point(dtype)
        batch = critical_batch(peak_flop_per_s=peak, bandwidth_bytes_per_s=bandwidth)
        rows.append(
            {
                "accelerator": value(getattr(accelerator, "slug", CUSTOM), "", accelerator.name),
                "peak": value(peak, "FLOP/s", format_flop_per_s(peak)),
                "bandwidth": value(bandwidth, "B/s", format_bandwidth(bandwidth)),
                "ridge_point": value(ridge, "FLOP/byte", format_intensity(ridge)),
                "critical_batch": value(batch, "sequences", format_number(batch)),
            }
        )
    columns = {
        "accelerator": "Accelerator",
        "peak": f"Peak ({dtype}, dense)",
        "bandwidth": "Bandwidth",
        "ridge_point": "Ridge point",
        "critical_batch": "Critical batch (16-bit weights)",
    }
    return {"command": command.name, "title": f"Ridge points for {dtype} math", "columns": columns, "rows": rows}


def _text(slug_or_text: str) -> dict[str, Any]:
    return value(slug_or_text, "", slug_or_text)


def cmd_models(command: Command, args: argparse.Namespace) -> dict[str, Any]:
    """Every model preset, by family, with the counts derived from its config and its source."""
    rows = []
    for family, models in models_by_family().items():
        for m in models:
            kv = m.kv_bytes_per_token("fp16")
            rows.append(
                {
                    "family": _text(family),
                    "model": _text(m.slug),
                    "total": value(m.total_params, "parameters", format_number(m.total_params / 1e9) + "B"),
                    "active": value(
                        m.active_params_per_token, "parameters", format_number(m.active_params_per_token / 1e9) + "B"
                    ),
                    "kv": value(kv, "B", format_bytes(kv)),
                    "source": _text(m.source.url),
                }
            )
    columns = {
        "family": "Family",
        "model": "Model",
        "total": "Parameters",
        "active": "Active per token",
        "kv": "KV per token (FP16)",
        "source": "Source",
    }
    return {"command": command.name, "title": "Model presets", "columns": columns, "rows": rows}


#: How the peak column says how sure a peak is (hardware.PEAK_BASES).
_PEAK_BASIS_MARK = {"vendor": "", "arithmetic": " (computed)", "measured": " (measured)"}


def cmd_accelerators(command: Command, args: argparse.Namespace) -> dict[str, Any]:
    """Every accelerator preset, by vendor, with its roofline figures, link, power and source."""
    rows = []
    for vendor, chips in accelerators_by_vendor().items():
        for a in chips:
            peak = a.peak_for("fp16")
            link = a.interconnect_bandwidth_bytes_per_s
            measured = a.measured_bandwidth_bytes_per_s
            rows.append(
                {
                    "vendor": _text(vendor),
                    "accelerator": _text(a.slug),
                    "peak": value(peak, "FLOP/s", format_flop_per_s(peak) + _PEAK_BASIS_MARK[a.peak_basis]),
                    "bandwidth": value(a.bandwidth_bytes_per_s, "B/s", format_bandwidth(a.bandwidth_bytes_per_s)),
                    # The achievable roof a cited run reached (hardware.measured_ceilings); --json
                    # keeps its share of the datasheet's, the table stays narrow.
                    "measured": value(measured or 0, "B/s", format_bandwidth(measured) if measured else "-"),
                    "memory": value(a.memory_bytes, "B", format_capacity(a.memory_bytes)),
                    "link": value(
                        link,
                        "B/s",
                        f"{a.interconnect_kind} {format_bandwidth(link)}" if link else a.interconnect_kind or "-",
                    ),
                    "power": value(a.board_power_w, "W", f"{a.board_power_w:g} W" if a.board_power_w else "-"),
                    # The full address stays in --json; the table shows its host, as URLs overflow it.
                    "source": value(a.source.url, "", a.source.host),
                }
            )
    columns = {
        "vendor": "Vendor",
        "accelerator": "Accelerator",
        "peak": "Peak (16-bit, dense)",
        "bandwidth": "Bandwidth",
        "measured": "Measured",
        "memory": "Memory",
        "link": "Device link",
        "power": "Power",
        "source": "Source",
    }
    return {"command": command.name, "title": "Accelerator presets", "columns": columns, "rows": rows}


def _bytes_value(size: float) -> dict[str, Any]:
    return value(size, "B", f"{format_bytes(size)} ({size:,.0f} bytes)")


def _share_rows(totals: dict[str, int], counts: dict[str, int], kind: str) -> list[dict[str, Any]]:
    whole = sum(totals.values()) or 1
    return [
        {
            kind: _text(name),
            "tensors": value(counts[name], "", f"{counts[name]:,}"),
            "bytes": _bytes_value(size),
            "share": value(size / whole, "", f"{100 * size / whole:.1f}%"),
        }
        for name, size in totals.items()
    ]


def _weights_gguf(path: str) -> dict[str, Any]:
    header = _read_gguf(path)
    outputs: dict[str, Any] = {
        "file_type": _entry("File type (general.file_type)", _text(header.file_type or "not stated")),
        "architecture": _entry("Architecture", _text(header.architecture or "not stated")),
        "tensors": _entry("Tensors", value(len(header.tensors), "", f"{len(header.tensors):,}")),
        "header_bytes": _entry("Header read (up to the tensor data)", _bytes_value(header.data_offset)),
        "weight_bytes_stored": _entry("Weights stored, every tensor at its type", _bytes_value(header.tensor_bytes)),
        "bits_per_weight": _entry(
            "Bits per weight (average)", value(header.bits_per_weight, "bit", f"{header.bits_per_weight:.3f}")
        ),
    }
    try:
        model = model_from_gguf(header)
    except (GGUFError, ConfigError) as error:
        outputs["model"] = _entry("Model", _text(f"not built: {error}"))
    else:
        fmt = model.quantisation.weight_dtype if model.quantisation else "bf16"
        streamed = model.streamed_weight_bytes(fmt)
        outputs |= {
            "model": _entry(
                "Model", _text(f"{model.name} ({model.layers} layers, {model.total_params / 1e9:.3g}B parameters)")
            ),
            "weight_dtype": _entry("Weight format the estimates name", _text(fmt)),
            "weight_bytes": _entry("Weights in memory (what the estimates use)", _bytes_value(model.weight_bytes(fmt))),
            "streamed_weight_bytes": _entry("Weights one decode token reads (batch 1)", _bytes_value(streamed)),
        }
    counts: dict[str, int] = {}
    for tensor in header.tensors:
        counts[tensor.ggml_type.name] = counts.get(tensor.ggml_type.name, 0) + 1
    return {
        "title": f"GGUF header of {path}",
        "outputs": outputs,
        "columns": {"type": "Type", "tensors": "Tensors", "bytes": "Bytes", "share": "Share"},
        "rows": _share_rows(header.bytes_by_type(), counts, "type"),
    }


def _weights_safetensors(path: str) -> dict[str, Any]:
    try:
        header = read_safetensors_file(path)
    except SafetensorsError as error:
        raise CliError(f"--safetensors: {path}: {error}") from None
    except OSError as error:
        raise CliError(f"--safetensors: cannot read {path}: {error.strerror or error}") from None
    counts: dict[str, int] = {}
    for tensor in header.tensors:
        counts[tensor.dtype] = counts.get(tensor.dtype, 0) + 1
    bits = 8 * header.tensor_bytes / header.elements if header.elements else 0.0
    return {
        "title": f"safetensors header of {path}",
        "outputs": {
            "tensors": _entry("Tensors", value(len(header.tensors), "", f"{len(header.tensors):,}")),
            "header_bytes": _entry("Header read (length and JSON)", _bytes_value(header.data_offset)),
            "weight_bytes": _entry("Weights stored in this shard", _bytes_value(header.tensor_bytes)),
            "parameters": _entry("Parameters", value(header.elements, "", f"{header.elements:,}")),
            "bits_per_weight": _entry("Bits per parameter (average)", value(bits, "bit", f"{bits:.3f}")),
        },
        "columns": {"dtype": "Dtype", "tensors": "Tensors", "bytes": "Bytes", "share": "Share"},
        "rows": _share_rows(header.bytes_by_dtype(), counts, "dtype"),
    }


def _weights_index(path: str) -> dict[str, Any]:
    text = _read_text_file(
        path, option="--safetensors-index", max_chars=MAX_INDEX_CHARS, expected="a model.safetensors.index.json"
    )
    try:
        index = read_safetensors_index(text)
    except SafetensorsError as error:
        raise CliError(f"--safetensors-index: {path}: {error}") from None
    total = index.total_size
    per_shard = index.tensors_per_shard()
    return {
        "title": f"safetensors index {path}",
        "outputs": {
            "weight_bytes": _entry(
                "Weights stored, all shards (metadata.total_size)",
                _bytes_value(total) if total is not None else _text("not stated"),
            ),
            "tensors": _entry("Tensors", value(len(index.weight_map), "", f"{len(index.weight_map):,}")),
            "shards": _entry("Shards", value(len(per_shard), "", f"{len(per_shard):,}")),
        },
        "columns": {"shard": "Shard", "tensors": "Tensors"},
        "rows": [{"shard": _text(name), "tensors": value(n, "", f"{n:,}")} for name, n in per_shard.items()],
    }


_WEIGHT_FILES = {"--gguf": _weights_gguf, "--safetensors": _weights_safetensors, "--safetensors-index": _weights_index}


def cmd_weights(command: Command, args: argparse.Namespace) -> dict[str, Any]:
    """A weight file's header: its exact stored bytes by type, and for GGUF what the estimates use."""
    given = [option for option in _WEIGHT_FILES if _given(args, option)]
    if len(given) != 1:
        raise CliError("give one of --gguf, --safetensors or --safetensors-index")
    option = given[0]
    return {"command": command.name, **_WEIGHT_FILES[option](getattr(args, _dest(option)))}


_STEP_MODEL = ("--model", "--config", "--gguf", "--params")
_DECODE_REST = ("--weight-dtype", "--kv-dtype", "--context", "--devices", "--efficiency")

COMMANDS: dict[str, Command] = {
    c.name: c
    for c in (
        Command(
            "ridge",
            "ridge point of one accelerator, or of every preset",
            "roofline-explorer",
            (*_HARDWARE, "--dtype"),
            cmd_ridge,
        ),
        Command(
            "decode",
            "one decode step: time per token, tokens/s, bound, memory fit",
            "decode-speed-of-light",
            (*_STEP_MODEL, *_GQA_SHAPE, *_HARDWARE, "--memory-gb", "--batch", *_DECODE_REST),
            cmd_decode,
        ),
        Command(
            "batch-sweep",
            "decode latency and throughput as the batch grows (seed 004's table)",
            "decode-speed-of-light",
            (*_STEP_MODEL, *_GQA_SHAPE, *_HARDWARE, "--memory-gb", "--batches", *_DECODE_REST),
            cmd_batch_sweep,
        ),
        Command(
            "prefill",
            "prefill of a prompt: time to first token, bound, intensity",
            "prefill-ttft",
            (*_STEP_MODEL, *_HARDWARE, "--weight-dtype", "--prompt-tokens", "--batch", "--devices"),
            cmd_prefill,
        ),
        Command(
            "kv-cache",
            "KV cache size; with hardware, its share of memory and the largest batch",
            "kv-cache",
            ("--model", "--config", "--gguf", *_ARCHITECTURE, "--params", "--accelerator", "--memory-gb")
            + ("--context", "--batch", "--kv-dtype", "--weight-dtype", "--devices"),
            cmd_kv_cache,
        ),
        Command(
            "limits",
            "longest context, largest batch, fewest devices, least quantised format and best batch"
            " under a latency target, each with what binds it",
            "what-fits",
            ("--model", "--config", "--gguf", "--accelerator", "--devices", "--weight-dtype", "--kv-dtype")
            + ("--batch", "--context", "--max-ms-per-token"),
            cmd_limits,
        ),
        Command(
            "capacity",
            "the cheapest fleet (TP size, replicas, sequences, chunk) that serves a request rate within"
            " TTFT and TPOT targets at a percentile, what binds it, and each replica's engine command",
            "capacity",
            ("--model", "--config", "--gguf", "--accelerator", "--weight-dtype", "--kv-dtype", "--rate")
            + ("--prompt-tokens", "--prompt-tokens-high", "--output-tokens", "--output-tokens-high")
            + ("--prefix-hit-rate", "--percentile", "--ttft-target-ms", "--tpot-target-ms", "--price-per-device-hour"),
            cmd_capacity,
        ),
        Command(
            "session",
            "an agentic session turn by turn: each turn's TTFT and TPOT as the context grows, what the"
            " prefix cache saves, KV offload to CPU memory or disk, and the task's time, cost and energy",
            "agentic-session",
            ("--model", "--config", "--gguf", "--accelerator", "--weight-dtype", "--kv-dtype", "--devices")
            + ("--turns", "--prompt-tokens", "--tool-tokens", "--output-tokens", "--hit-rate", "--concurrent")
            + ("--tool-time-s", "--tier", "--tier-bandwidth-gbs", "--price-per-device-hour"),
            cmd_session,
        ),
        Command(
            "disaggregate",
            "prefill and decode pools for a request rate within TTFT and TPOT targets, their ratio, the KV"
            " cache each request hands over and the link bandwidth it needs, beside the co-located fleet",
            "disaggregation",
            ("--model", "--config", "--gguf", "--accelerator", "--weight-dtype", "--kv-dtype", "--rate")
            + ("--prompt-tokens", "--prompt-tokens-high", "--output-tokens", "--output-tokens-high")
            + ("--prefix-hit-rate", "--percentile", "--ttft-target-ms", "--tpot-target-ms", "--price-per-device-hour")
            + ("--link-gbs",),
            cmd_session,
        ),
        Command(
            "reconcile",
            "a measured decode step (or a pasted vLLM or llama-bench summary) beside its speed of"
            " light: MBU, MFU and what weights, KV cache, arithmetic and communication explain",
            "reconcile",
            ("--measurement", "--measured", *_STEP_MODEL, *_GQA_SHAPE, *_HARDWARE, "--weight-dtype", "--kv-dtype")
            + ("--batch", "--context", "--devices", "--parallelism", "--ttft-ms", "--prompt-tokens", "--paste-file"),
            cmd_reconcile,
        ),
        Command("models", "list the model presets with their sources", "kv-cache", (), cmd_models),
        Command(
            "weights",
            "a weight file's header (GGUF, safetensors shard or index): exact stored bytes by type,"
            " read without reading the weights, and for GGUF what the estimates use",
            "kv-cache",
            tuple(_WEIGHT_FILES),
            cmd_weights,
        ),
        Command(
            "accelerators", "list the accelerator presets with their sources", "roofline-explorer", (), cmd_accelerators
        ),
    )
}


# --- Parser ------------------------------------------------------------------------------------


def _help(command: Command, option: str) -> str:
    if option == "--batches":
        default = ",".join(str(b) for b in DEFAULT_SWEEP_BATCHES)
        return f"comma-separated batch sizes, each checked as --batch is; default {default}"
    if option == "--params":
        field: Declaration = _count_field(command.calc)
        return f"custom model: parameters read per token, e.g. 8e9; {field.expected()}"
    if option == "--config":
        return "path to a model's config.json (as on its Hugging Face page), instead of --model"
    if option == "--gguf":
        return (
            "path to a .gguf file, instead of --model: its header (only) gives the architecture and"
            " every tensor's exact bytes"
        )
    if option == "--safetensors":
        return "path to a .safetensors file (one shard): its header gives every tensor's exact bytes"
    if option == "--safetensors-index":
        return "path to a model.safetensors.index.json: its metadata.total_size and shards"
    if option == "--paste-file":
        return (
            "path to a saved vLLM 'Serving Benchmark Result' block or llama-bench table (- for stdin);"
            " the values it holds replace the options'"
        )
    field = command.calc.field(FIELD_OF_OPTION[option])
    if isinstance(field, OneOf):
        shown = ", ".join(c.value for c in field.choices if c.value != CUSTOM)
        default = "" if option == "--model" else f"; default {field.default}"
        return f"{field.label}: one of {shown}{default}"
    custom = ""
    if option in _ARCHITECTURE:
        custom = " (custom model)"
    elif option in ("--peak-tflops", "--bandwidth-tbs", "--memory-gb"):
        custom = " (custom hardware)"
    if option == "--memory-gb":
        return f"{field.label}{custom}: {field.expected()}; without it, no memory verdict"
    return f"{field.label}{custom}: {field.expected()}; default {field.default:g}"


def _field_values(pairs: Sequence[str], option: str) -> dict[str, str]:
    """``["batch=16", "accelerator=h200"]`` as calculator inputs (checked by the calculator)."""
    values = {}
    for pair in pairs:
        field, sep, raw = pair.partition("=")
        if not sep or not field:
            raise CliError(f"{option} {pair!r}: expected FIELD=VALUE, e.g. batch=16")
        values[field.strip()] = raw.strip()
    return values


def cmd_compare(command: Command, args: argparse.Namespace) -> dict[str, Any]:
    """Scenario A against B of one calculator: each result in both, each input's effect."""
    calc = CALCULATORS[args.calculator]
    a, b = _field_values(args.a, "--a"), _field_values(args.b, "--b")
    for name, given in (("--a", a), ("--b", b)):
        unknown = sorted(set(given) - {field.id for field in calc.inputs})
        if unknown:
            fields = ", ".join(field.id for field in calc.inputs)
            raise CliError(f"{name}: {args.calculator} has no field {unknown[0]!r}; expected one of {fields}")
    comparison = compare(args.calculator, a, b)
    if comparison.errors_a or comparison.errors_b:
        problems = [f"A: {m}" for m in comparison.errors_a.values()] + [f"B: {m}" for m in comparison.errors_b.values()]
        raise CliError("; ".join(problems))
    changes = {
        change.field_id: {
            "label": change.label,
            "text": f"{change.a_text} -> {change.b_text}"
            + (f"  (effect {effect_text(change.effect)})" if comparison.explained else ""),
        }
        for change in comparison.changes
    }
    rows = [
        {
            "result": value(out.label, "", out.label),
            "a": value(out.a_text, "", out.a_text),
            "b": value(out.b_text, "", out.b_text),
            "ratio": value(out.ratio or "", "", ratio_text(out.ratio) if out.ratio is not None else ""),
        }
        for out in comparison.outputs
        # Sentences (the realistic range, what moves the number) would make every column wide.
        if out.changed and not (is_prose(out.a_text) or is_prose(out.b_text))
    ]
    return {
        "title": f"{calc.title}: A against B (changed results)",
        "inputs": changes,
        "columns": {"result": "Result", "a": "A", "b": "B", "ratio": "B / A"},
        "rows": rows,
    }


#: ``compare`` takes any calculator and FIELD=VALUE pairs, so it has no options of its own.
COMPARE = Command("compare", "compare two scenarios of a calculator, A and B", "", (), cmd_compare)


def _read_log(path: str) -> bytes:
    """The bytes of the log at ``path`` (``-``: standard input), one past the reader's limit at
    most, so an oversized file gets the reader's own message without being read whole."""
    try:
        if path == "-":
            return sys.stdin.buffer.read(MAX_INPUT_BYTES + 1)
        with open(path, "rb") as file:
            return file.read(MAX_INPUT_BYTES + 1)
    except OSError as error:
        raise CliError(f"cannot read {path}: {error.strerror or error}") from None


def _engine_number_text(number: Any) -> str:
    """A number as the reader reads it: sizes in SI bytes beside the figure the engine printed
    (its GiB or MiB), counts and times as printed, with their unit."""
    if number.unit == "text":
        return str(number.value)
    if number.unit == "B":
        return f"{format_bytes(number.value)} (printed {number.printed})"
    shown = f"{number.value:,}" if isinstance(number.value, int) else str(number.value)
    return f"{shown} {number.unit}".rstrip()


def cmd_engine_log(command: Command, args: argparse.Namespace) -> dict[str, Any]:
    """Each number an engine's start-up log holds, with its line; the unused lines counted."""
    try:
        log = parse_engine_log(_read_log(args.file))
    except EngineLogError as error:
        raise CliError(f"{args.file}: {error}") from None
    rows = [
        {
            "name": value(n.name, "", n.name),
            "scope": value(n.scope, "", n.scope or "-"),
            "value": value(n.value, n.unit, _engine_number_text(n)),
            "line": value(n.line_number, "", str(n.line_number)),
        }
        for n in log.numbers
    ]
    engine = log.engine or "none recognised"
    outputs = {
        "engine": value(log.engine or "", "", engine),
        "numbers": value(len(log.numbers), "", f"{len(log.numbers)}"),
        "unused": value(
            len(log.unused), "", f"{len(log.unused)}" + (" (--json lists each, with why)" if log.unused else "")
        ),
    }
    if args.model is not None:
        rows += _engine_log_checks(log, args)
    result: dict[str, Any] = {
        "command": command.name,
        "title": f"Engine start-up log: {args.file}",
        "outputs": {key: _entry(label, outputs[key]) for key, label in _ENGINE_LOG_LABELS.items()},
        "columns": {"name": "Number", "scope": "Rank/device", "value": "Value (SI)", "line": "Line"},
        "rows": rows,
        "unused": [{"line": u.line_number, "text": u.line, "reason": u.reason} for u in log.unused],
        "notes": list(log.notes),
    }
    return result


_ENGINE_LOG_LABELS = {"engine": "Engine", "numbers": "Numbers read", "unused": "Lines not used"}


def _engine_log_checks(log: Any, args: argparse.Namespace) -> list[dict[str, Any]]:
    """Rows for each logged number the model reproduces: the model's figure, and whether they agree."""
    model = MODELS.get(args.model)
    if model is None:
        raise CliError(f"--model {args.model!r} is not a model preset (roofline models lists them)")
    accelerator = None
    if args.accelerator is not None:
        accelerator = ACCELERATORS.get(args.accelerator)
        if accelerator is None:
            raise CliError(
                f"--accelerator {args.accelerator!r} is not an accelerator preset (roofline accelerators lists them)"
            )
    rows = []
    for check in check_log(
        log,
        model=model,
        tensor_parallel=args.tensor_parallel,
        kv_dtype=args.kv_dtype,
        device_memory_bytes=None if accelerator is None else accelerator.fit_memory_bytes,
        weight_dtype=args.weight_dtype,
    ):
        verdict = "agrees" if check.agrees else "differs"
        text = f"model: {format_number(check.expected)} {check.logged.unit}, {verdict} ({check.working})"
        rows.append(
            {
                "name": value(check.name, "", f"  {check.name}"),
                "scope": value(check.logged.scope, "", "model"),
                "value": value(check.expected, check.logged.unit, text),
                "line": value(check.logged.line_number, "", str(check.logged.line_number)),
            }
        )
    return rows


#: ``engine-log`` reads a file rather than setting calculator fields.
ENGINE_LOG = Command(
    "engine-log",
    "read a vLLM, SGLang or llama.cpp start-up log: each number with its line, the lines not used",
    "",
    (),
    cmd_engine_log,
)


def cmd_engine_flags(command: Command, args: argparse.Namespace) -> dict[str, Any]:
    """The start command of each engine for the scenario, with what each flag sets."""
    try:
        commands = engine_commands(
            model=args.model,
            devices=args.devices,
            context_tokens=args.context,
            sequences=args.sequences,
            kv_dtype=args.kv_dtype,
            memory_fraction=args.memory_fraction,
        )
    except ValueError as error:
        raise CliError(str(error)) from None
    outputs = {c.engine: _entry(c.engine, value(c.text, "", c.text)) for c in commands}
    rows = [
        {
            "engine": value(c.engine, "", c.engine),
            "flag": value(f.name, "", f"{f.name} {f.value}".rstrip()),
            "why": value(f.why, "", f.why),
        }
        for c in commands
        for f in c.flags
    ]
    return {
        "command": command.name,
        "title": f"Engine commands: {args.model}, {args.devices} device(s), {args.sequences} x {args.context:,} tokens",
        "outputs": outputs,
        "columns": {"engine": "Engine", "flag": "Flag", "why": "What it sets"},
        "rows": rows,
        "notes": [f"{c.engine}: {note}" for c in commands for note in c.notes]
        + [f"{c.engine}: {c.source.title}, {c.source.url}" for c in commands]
        + [f"{c.engine} {f.name}: {f.source.title}, {f.source.url}" for c in commands for f in c.flags if f.source],
    }


#: ``engine-flags`` takes the scenario's own few settings rather than a calculator's fields.
ENGINE_FLAGS = Command(
    "engine-flags",
    "print the vLLM, SGLang and llama.cpp commands that run a scenario, each flag with what it sets",
    "",
    (),
    cmd_engine_flags,
)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog=PROG, description="Roofline estimates for LLM inference (roofline_core).")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True, parser_class=_Parser)
    for command in COMMANDS.values():
        sub = subparsers.add_parser(command.name, help=command.help, description=command.help)
        sub.add_argument("--json", action="store_true", help="print JSON instead of a table")
        for option in command.options:
            # argparse treats help as a %-format string ("%" units would break --help).
            text = _help(command, option).replace("%", "%%")
            sub.add_argument(option, dest=_dest(option), metavar=_dest(option).upper(), help=text)
        sub.set_defaults(command_spec=command)
    sub = subparsers.add_parser(
        COMPARE.name,
        help=COMPARE.help,
        description=COMPARE.help + "; each input as FIELD=VALUE, the calculator's field ids (as in a link)",
    )
    sub.add_argument("calculator", choices=sorted(CALCULATORS), help="the calculator")
    sub.add_argument("--a", nargs="*", default=[], metavar="FIELD=VALUE", help="scenario A (defaults elsewhere)")
    sub.add_argument("--b", nargs="*", default=[], metavar="FIELD=VALUE", help="scenario B (defaults elsewhere)")
    sub.add_argument("--json", action="store_true", help="print JSON instead of a table")
    sub.set_defaults(command_spec=COMPARE)
    sub = subparsers.add_parser(ENGINE_LOG.name, help=ENGINE_LOG.help, description=ENGINE_LOG.help)
    sub.add_argument("file", metavar="FILE", help="the saved log (- for standard input), at most 1 MB")
    sub.add_argument("--json", action="store_true", help="print JSON (with every unused line and why)")
    sub.add_argument("--model", help="a model preset: reproduce each number the log gives from it")
    sub.add_argument("--tensor-parallel", type=int, help="devices the model was split over (default: the log's)")
    sub.add_argument("--kv-dtype", help="the KV cache's format, fp16, bf16, fp8 ... (default: the log's)")
    sub.add_argument(
        "--accelerator", help="an accelerator preset: reproduce vLLM's available KV cache memory on its memory"
    )
    sub.add_argument(
        "--weight-dtype", default="bf16", help="the weights' format where the log does not print them (default bf16)"
    )
    sub.set_defaults(command_spec=ENGINE_LOG)
    sub = subparsers.add_parser(ENGINE_FLAGS.name, help=ENGINE_FLAGS.help, description=ENGINE_FLAGS.help)
    sub.add_argument("--model", required=True, help="the model's Hugging Face repository, e.g. meta-llama/Llama-3.1-8B")
    sub.add_argument("--devices", type=int, default=1, help="devices in tensor parallel (default 1)")
    sub.add_argument("--context", type=int, required=True, help="longest sequence, prompt and output, in tokens")
    sub.add_argument("--sequences", type=int, default=1, help="sequences run together (default 1)")
    sub.add_argument("--kv-dtype", default="fp16", help="the KV cache's format: fp16, bf16, fp8 ... (default fp16)")
    sub.add_argument(
        "--memory-fraction",
        type=float,
        default=DEFAULT_MEMORY_FRACTION,
        help=f"share of each device's memory for vLLM and SGLang (default {DEFAULT_MEMORY_FRACTION:g})",
    )
    sub.add_argument("--json", action="store_true", help="print JSON instead of a table")
    sub.set_defaults(command_spec=ENGINE_FLAGS)
    return parser


def _not_applicable(command: str, extras: list[str]) -> str:
    """The error for arguments the command does not take, naming the commands that do."""
    option = extras[0].split("=", 1)[0]
    owners = [c.name for c in COMMANDS.values() if option in c.options]
    if owners:
        return f"{option} does not apply to {command} (it is an option of {', '.join(owners)})"
    return f"unrecognized arguments: {' '.join(extras)}"


# --- Output ------------------------------------------------------------------------------------


def _pairs(entries: dict[str, Any]) -> list[str]:
    width = max((len(entry["label"]) for entry in entries.values()), default=0)
    return [f"{entry['label'].ljust(width)}  {entry['text']}" for entry in entries.values()]


def render_text(result: dict[str, Any]) -> str:
    """A readable table: the title, the inputs used, then label/value pairs or columns."""
    lines = [result["title"], ""]
    if result.get("inputs"):
        lines += _pairs(result["inputs"]) + [""]
    if "rows" in result:
        if result.get("outputs"):
            lines += _pairs(result["outputs"]) + [""]
        columns = result["columns"]
        cells = [list(columns.values())] + [[row[key]["text"] for key in columns] for row in result["rows"]]
        widths = [max(len(r[i]) for r in cells) for i in range(len(columns))]
        for index, row in enumerate(cells):
            # The first column (a name) reads left-aligned, numbers right-aligned.
            parts = [
                c.ljust(w) if i == 0 and not c[:1].isdigit() else c.rjust(w)
                for i, (c, w) in enumerate(zip(row, widths))
            ]
            lines.append("  ".join(parts).rstrip())
            if index == 0:
                lines.append("  ".join("-" * w for w in widths))
    else:
        lines += _pairs(result["outputs"])
    if result.get("parts"):
        lines += ["", *_parts_lines(result["parts"], result["outputs"])]
    if result.get("notes"):
        lines += ["", *result["notes"]]
    return "\n".join(lines)


def _parts_lines(parts: dict[str, Any], outputs: dict[str, Any]) -> list[str]:
    """What the main time is made of: each part's time, its share, what it is and its working."""
    shown = outputs.get(parts["output"])
    named = shown["label"] if shown and not parts["inverts"] else parts["inverts"]
    lines = [f"Parts of {parts['total']['text']} ({named}):"]
    width = max(len(item["text"]) for item in parts["items"])
    for item in parts["items"]:
        lines.append(
            f"  {item['text'].rjust(width)}  {item['share_text'].rjust(6)}  {item['phrase']}: {item['working']}"
        )
    return lines


def _quiet_stdout() -> None:
    # Python flushes stdout once more at exit; pointing it at /dev/null keeps that flush from
    # failing again and printing a second, unhandled error (the approach the Python docs give
    # for SIGPIPE in the signal module's notes).
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (0; 2 for a bad argument; 1 if output fails)."""
    try:
        try:
            parser = build_parser()
            args, extras = parser.parse_known_args(argv)
            if extras:
                raise CliError(_not_applicable(args.command, extras))
            command: Command = args.command_spec
            result = command.run(command, args)
        except CliError as error:
            print(f"{PROG}: error: {error}", file=sys.stderr)
            return EXIT_USAGE
        text = json.dumps(result, allow_nan=False, indent=2) if args.json else render_text(result)
        sys.stdout.write(text + "\n")
        sys.stdout.flush()
    except BrokenPipeError:
        # The reader stopped early (``| head -1``): nothing is wrong with what was asked.
        _quiet_stdout()
        return EXIT_OUTPUT
    except OSError as error:
        _quiet_stdout()
        print(f"{PROG}: error: cannot write the output: {error.strerror or error}", file=sys.stderr)
        return EXIT_OUTPUT
    return 0
