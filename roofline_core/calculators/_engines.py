"""What the serving engines make of a calculator's scenario, shared by every calculator that has one.

Two things, each built once here:

- :func:`vllm_outputs`: the KV cache as vLLM allocates it (its pool in blocks and tokens, the
  requests of the context it holds at once, and where each device's memory goes), beside the
  bytes the model needs, from :mod:`roofline_core.estimates.engine_memory`.
- :func:`command_outputs`: the command that starts vLLM, SGLang and llama.cpp's server with the
  scenario's settings, from :func:`roofline_core.questions.engine_flags.engine_commands`.
"""

from __future__ import annotations

from typing import Any

from roofline_core.calculators._common import memory_bytes_of
from roofline_core.calculators.base import Output, value
from roofline_core.estimates.engine_memory import (
    COMPRESSED_NOT_MODELLED,
    VLLM_BLOCK_TOKENS,
    VLLM_DEFAULT_UTILISATION,
    VLLM_VERSION,
    VllmAllocation,
    vllm_allocation,
)
from roofline_core.formatting import format_number, format_percent, format_whole
from roofline_core.models import AnyModel, Model
from roofline_core.models.preset_records import PRESET_RECORDS
from roofline_core.questions.engine_flags import engine_commands
from roofline_core.vocabulary import Choice, Number, OneOf

#: Each preset's Hugging Face repository, which vLLM and SGLang load.
REPOS = {record["slug"]: record["repo"] for record in PRESET_RECORDS}

UTILISATION_INPUT = Number(
    id="gpu_memory_utilization",
    label="vLLM gpu_memory_utilization",
    default=VLLM_DEFAULT_UTILISATION,
    minimum=0,
    maximum=1,
    min_exclusive=True,
    step=0.01,
    help=(
        "The share of each device's memory vLLM may take for weights, activations and its KV cache "
        "(--gpu-memory-utilization); CUDA graphs and the CUDA context live in the rest."
    ),
)
#: vLLM's accepted block sizes on CUDA (``CacheConfig.block_size``, v0.11.0: 1, 8, 16, 32, 64, 128).
BLOCK_INPUT = OneOf(
    id="block_size",
    label="vLLM block size",
    choices=tuple(Choice(value=str(n), label=f"{n} tokens") for n in (1, 8, 16, 32, 64, 128)),
    default=str(VLLM_BLOCK_TOKENS),
    help="Tokens per KV cache block (--block-size); a hybrid model's attention block grows to hold a state.",
)

VLLM_OUTPUTS = (
    Output("vllm_cache_tokens", "KV cache as vLLM allocates it"),
    Output("vllm_concurrency", "Requests of this context at once, as vLLM prints it"),
    Output("vllm_memory", "Where each device's memory goes, in vLLM"),
)
COMMAND_OUTPUTS = (
    Output("vllm_command", "vLLM command"),
    Output("sglang_command", "SGLang command"),
    Output("llama_cpp_command", "llama.cpp command"),
)


def _gib(value_bytes: float) -> str:
    # vLLM prints its memory lines in GiB; the same unit makes them comparable with a log.
    return f"{value_bytes / 2**30:,.2f} GiB"


def allocation_of(values: dict[str, Any], model: Model, *, weight_bytes: float, context_tokens: int) -> VllmAllocation:
    """The vLLM allocation for the calculator's devices, utilisation and block size."""
    return vllm_allocation(
        model,
        total_bytes=memory_bytes_of(values),
        weight_bytes=weight_bytes,
        context_tokens=context_tokens,
        kv_dtype=values["kv_dtype"],
        tensor_parallel=values["devices"],
        utilisation=values.get("gpu_memory_utilization", VLLM_DEFAULT_UTILISATION),
        block_tokens=int(values.get("block_size", VLLM_BLOCK_TOKENS)),
    )


def vllm_outputs(
    values: dict[str, Any], model: AnyModel, *, weight_bytes: float, context_tokens: int
) -> dict[str, dict[str, Any]]:
    """The :data:`VLLM_OUTPUTS`, each with its working, for the calculator's scenario."""
    if not isinstance(model, Model):
        unknown = "unknown for a model given by size alone: vLLM's pages follow the layers' shapes"
        return {output.id: value(0, "", unknown) for output in VLLM_OUTPUTS}
    if model.compressed_attention is not None:
        return {output.id: value(0, "", COMPRESSED_NOT_MODELLED) for output in VLLM_OUTPUTS}
    a = allocation_of(values, model, weight_bytes=weight_bytes, context_tokens=context_tokens)
    layout = a.layout
    per_device = f" on each of {values['devices']} devices" if values["devices"] > 1 else ""
    if a.blocks == 0:
        none = (
            f"none: {_gib(a.budget_bytes)} ({format_number(a.utilisation)} of {_gib(a.total_bytes)}) does not hold "
            f"the weights' {_gib(a.weight_bytes)} and the activation profile's {_gib(a.activation_bytes)}{per_device}"
        )
        tokens = value(0, "tokens", none)
        concurrency = value(0.0, "requests", "none: vLLM would refuse to start")
    else:
        group_text = (
            f" over {len(layout.groups)} groups of {layout.group_size} layers ({'; '.join(layout.notes)})"
            if len(layout.groups) > 1
            else ""
        )
        tokens = value(
            a.cache_tokens,
            "tokens",
            f'{format_whole(a.cache_tokens)} tokens (vLLM {VLLM_VERSION}\'s "GPU KV cache size"): '
            f"{format_whole(a.blocks)} blocks of {layout.block_tokens} tokens{group_text} in "
            f"{_gib(a.available_bytes)} of available KV cache memory{per_device}",
        )
        rounding = a.engine_bytes_per_request / a.model_bytes_per_request - 1 if a.model_bytes_per_request else 0.0
        concurrency = value(
            a.max_concurrency,
            "requests",
            f"{format_number(a.max_concurrency)}x for {format_whole(context_tokens)} tokens per request; "
            f"a request needs {_gib(a.model_bytes_per_request)} by the model and takes "
            f"{_gib(a.engine_bytes_per_request)} of whole pages ({format_percent(rounding)} more)",
        )
    parts = "; ".join(f"{label} {_gib(part)}" for label, part in a.parts)
    memory = value(
        a.available_bytes,
        "B",
        f"{_gib(a.total_bytes)}{per_device}: {parts}. Activations are an estimate of a profiling run of "
        f"{format_whole(a.batched_tokens)} tokens and {format_whole(a.max_seqs)} sequences' logits",
    )
    return {"vllm_cache_tokens": tokens, "vllm_concurrency": concurrency, "vllm_memory": memory}


#: Said beside every command of a scenario that does not fit: the command is what the engine would
#: be given, but it would stop while loading the weights or reserving its cache.
DOES_NOT_FIT_NOTE = "As given, this scenario does not fit in the devices' memory: the engine would stop at start-up."


def command_outputs(
    values: dict[str, Any],
    model: AnyModel,
    *,
    context_tokens: int,
    sequences: int,
    fits: bool,
    batched_tokens: int | None = None,
) -> dict[str, dict[str, Any]]:
    """The :data:`COMMAND_OUTPUTS`: each engine's start command for the scenario, with its notes;
    ``fits`` is the calculator's own memory verdict, so a command never reads as a working start
    beside a "does not fit"."""
    repo = REPOS.get(values.get("model", ""), getattr(model, "name", "model"))
    commands = engine_commands(
        model=repo,
        devices=values.get("devices", 1),
        context_tokens=context_tokens,
        sequences=sequences,
        kv_dtype=values.get("kv_dtype", "bf16"),
        memory_fraction=values.get("gpu_memory_utilization", VLLM_DEFAULT_UTILISATION),
        batched_tokens=batched_tokens,
    )
    out = {}
    for output, command in zip(COMMAND_OUTPUTS, commands, strict=True):
        notes = " ".join(command.notes if fits else (DOES_NOT_FIT_NOTE, *command.notes))
        out[output.id] = value(command.text, "", command.text + (f" — {notes}" if notes else ""))
    return out
