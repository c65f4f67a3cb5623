"""Each number of an engine's start-up log, reproduced from the model, with why it differs.

:func:`check_log` takes what :func:`roofline_core.engine_log.parse` read and the model that was
served, and for every number it can derive (the KV cache's tokens and bytes, its keys' and
values' bytes, the concurrency it allows) gives the model's figure, the working, and whether the
two agree within what the engine's rounding allows: the printed digits of the memory it started
from, its page (block) of tokens. Where they differ it says which assumption explains it.

The rules, per engine, each from its source:

- **vLLM** (V1): the pages, groups and blocks of
  :func:`roofline_core.estimates.engine_memory.vllm_layout` (``vllm/v1/core/kv_cache_utils.py``,
  ``vllm/v1/kv_cache_interface.py``): a uniform model's cache is ``num_blocks = available //
  (page_bytes * layers)`` blocks of ``block_size`` tokens (16 by default), ``page_bytes =
  block_size * 2 * kv_heads_per_device * head_dim * dtype_bytes`` (the MLA latent instead of
  keys and values), so the tokens are ``num_blocks * block_size``; a model with sliding-window
  or recurrent layers goes through the hybrid allocator's groups and shared page, and the log's
  tokens are the blocks per group. The concurrency is the blocks over those one request of
  ``max_model_len`` takes.
- **SGLang** (``python/sglang/srt/mem_cache/memory_pool.py``): the pool holds ``#tokens`` (plus
  one page) rows per layer of ``kv_heads_per_device * head_dim`` keys and as many values, printed
  as "K size" and "V size" in GB of 2^30 bytes; the MLA pool one latent per token ("KV size").
- **llama.cpp** (``src/llama-kv-cache.cpp``): ``cells`` tokens of every cached layer, keys and
  values each ``kv_heads * head_dim`` values a token in the cache's own ggml type (``f16`` 2
  bytes; ``q8_0`` 34 bytes per 32 values; ``q4_0`` 18 per 32: the block sizes
  :data:`roofline_core.models.gguf.GGML_TYPES` holds), printed in MiB.

Standard library only.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

# The calculators read a paste through this module (their floor may not import engine_log itself).
from roofline_core.engine_log import MAX_INPUT_BYTES, EngineLog, EngineLogError, LogNumber, parse
from roofline_core.estimates.engine_memory import (
    VLLM_BATCHED_TOKENS,
    VLLM_BLOCK_TOKENS,
    VLLM_DEFAULT_UTILISATION,
    VLLM_VERSION,
    vllm_allocation,
    vllm_layout,
)
from roofline_core.estimates.headroom import kv_cache_copies
from roofline_core.hardware.dtypes import bytes_per_element
from roofline_core.models.gguf import GGML_TYPES
from roofline_core.models.model import MLA, Model


def llama_cpp_value_bytes(cache_type: str) -> float | None:
    """Bytes one cached value takes in llama.cpp's cache type ``cache_type`` (``"q8_0"``: 34/32),
    from ggml's block sizes (:data:`roofline_core.models.gguf.GGML_TYPES`); None for a name ggml
    does not have."""
    ggml = next((t for t in GGML_TYPES.values() if t.name == cache_type.upper()), None)
    return None if ggml is None else ggml.block_bytes / ggml.block_elements


#: Number formats an engine's log names for its cache (``auto`` is the model's own, 16 bits).
ENGINE_CACHE_FORMATS: dict[str, str] = {
    "auto": "bf16",
    "bf16": "bf16",
    "bfloat16": "bf16",
    "fp16": "fp16",
    "float16": "fp16",
    "fp8": "fp8",
    "fp8_e4m3": "fp8",
    "fp8_e5m2": "fp8",
}


@dataclass(frozen=True)
class Check:
    """One logged number beside the model's.

    Attributes:
        name: The logged number's name (``kv_cache_tokens``).
        logged: The number as read, with its line.
        expected: The model's figure, in the same unit.
        working: How the model's figure was reached, with the numbers.
        agrees: Whether the two differ by no more than the rounding allows (``tolerance``).
        tolerance: The largest difference the engine's rounding explains, in the same unit.
        explanation: Why they differ where they do, or what the figure rests on.
    """

    name: str
    logged: LogNumber
    expected: float
    working: str
    agrees: bool
    tolerance: float
    explanation: str


@dataclass(frozen=True)
class Setting:
    """What the served scenario was, from the log where it says and from the caller otherwise."""

    tensor_parallel: int
    cache_format: str
    said_by_log: tuple[str, ...]


def _setting(log: EngineLog, tensor_parallel: int | None, kv_dtype: str | None) -> Setting:
    said: list[str] = []
    tp = tensor_parallel
    for name in ("tensor_parallel_size", "tp_size"):
        logged = log.value(name)
        if tp is None and isinstance(logged, int) and logged >= 1:
            tp, _ = logged, said.append(f"{name}={logged}")
    fmt = kv_dtype
    logged_format = log.value("kv_cache_dtype")
    if fmt is None and isinstance(logged_format, str) and logged_format.lower() in ENGINE_CACHE_FORMATS:
        fmt = ENGINE_CACHE_FORMATS[logged_format.lower()]
        said.append(f"kv_cache_dtype={logged_format}")
    return Setting(tensor_parallel=tp or 1, cache_format=fmt or "bf16", said_by_log=tuple(said))


def _kv_heads_per_device(model: Model, tensor_parallel: int) -> int:
    """KV heads each device caches: the split, and its repeats, that
    :func:`roofline_core.estimates.headroom.kv_cache_copies` counts for the engines."""
    copies = kv_cache_copies(model, devices=tensor_parallel)
    return round(model.kv_heads * copies / tensor_parallel)


def _per_device_values_per_token_per_layer(model: Model, tensor_parallel: int) -> tuple[float, str]:
    """Cached values one token adds to one layer on one device, and how (heads split over devices)."""
    if model.attention == MLA:
        width = model.mla_latent_dim + model.mla_rope_dim
        return float(width), f"{width} (the MLA latent and rotary key, whole on every device)"
    heads = _kv_heads_per_device(model, tensor_parallel)
    values = 2 * heads * model.head_dim
    return float(values), f"2 x {heads} KV heads x {model.head_dim}"


def check_log(
    log: EngineLog,
    *,
    model: Model,
    tensor_parallel: int | None = None,
    kv_dtype: str | None = None,
    device_memory_bytes: float | None = None,
    weight_dtype: str = "bf16",
) -> tuple[Check, ...]:
    """Every number of ``log`` the model can reproduce, beside the model's figure.

    Args:
        log: What :func:`roofline_core.engine_log.parse` read.
        model: The model that was served.
        tensor_parallel: Devices the model was split over; None to take it from the log (1 if it
            does not say).
        kv_dtype: The cache's format by the project's names; None to take it from the log
            (``auto`` and no word mean the model's 16 bits).
        device_memory_bytes: One device's memory, in bytes; with it, vLLM's "Available KV cache
            memory" is reproduced from the budget, the weights and the reserves; None skips that.
        weight_dtype: The weights' format, for their bytes where the log does not print them.

    >>> from roofline_core.engine_log import parse
    >>> from roofline_core.models import MODELS
    >>> log = parse("INFO 11-27 12:00:00 [gpu_worker.py:1] Available KV cache memory: 20.00 GiB\\n"
    ...             "INFO 11-27 12:00:01 [kv_cache_utils.py:1] GPU KV cache size: 163,840 tokens")
    >>> check = check_log(log, model=MODELS["llama-3.1-8b"])[0]
    >>> check.name, check.expected, check.agrees
    ('kv_cache_tokens', 163840.0, True)
    """
    setting = _setting(log, tensor_parallel, kv_dtype)
    if log.engine == "vllm":
        memory = _vllm_memory(log, model, setting, device_memory_bytes, weight_dtype)
        return memory + _vllm(log, model, setting)
    if log.engine == "sglang":
        return _sglang(log, model, setting)
    if log.engine == "llama.cpp":
        return _llama_cpp(log, model)
    return ()


def _vllm(log: EngineLog, model: Model, setting: Setting) -> tuple[Check, ...]:
    if model.compressed_attention is not None:
        return ()  # no page layout to check against (engine_memory.COMPRESSED_NOT_MODELLED)
    checks: list[Check] = []
    logged_block = log.value("block_size_tokens")
    block = logged_block if isinstance(logged_block, int) and logged_block >= 1 else VLLM_BLOCK_TOKENS
    layout = vllm_layout(
        model, tensor_parallel=setting.tensor_parallel, kv_dtype=setting.cache_format, block_tokens=block
    )
    groups = len(layout.groups)
    basis = f"{setting.tensor_parallel} device(s) in tensor parallel, a {setting.cache_format.upper()} cache" + (
        f" (the log says {', '.join(setting.said_by_log)})" if setting.said_by_log else " (assumed)"
    )
    layout_note = (" vLLM " + VLLM_VERSION + ": " + "; ".join(layout.notes) + ".") if layout.notes else ""
    available = log.get("kv_cache_memory_bytes")
    tokens = log.get("kv_cache_tokens")
    if available is not None and tokens is not None:
        blocks = layout.blocks(float(available.value))
        expected = float(layout.reported_tokens(blocks))
        # The memory is printed to 0.01 GiB: half a step either way moves the blocks that fit.
        step = layout.page_bytes * layout.group_size
        tolerance = math.ceil(available.resolution / 2 / step / groups + 1) * layout.block_tokens
        per_group = f" // {groups} groups" if groups > 1 else ""
        checks.append(
            Check(
                name="kv_cache_tokens",
                logged=tokens,
                expected=expected,
                working=(
                    f"floor({available.printed} / ({layout.block_tokens} tokens x {_values_text(model, setting)} x "
                    f"{layout.group_size} layers)) = {blocks:,} blocks{per_group} of "
                    f"{layout.block_tokens} tokens"
                ),
                agrees=abs(float(tokens.value) - expected) <= tolerance,
                tolerance=float(tolerance),
                explanation=f"For {basis}; within {tolerance:,} tokens the printed memory's rounding explains."
                + layout_note,
            )
        )
    concurrency = log.get("max_concurrency")
    length = log.get("max_model_len_tokens")
    if concurrency is not None and length is not None and tokens is not None:
        logged_batched = log.value("max_num_batched_tokens")
        batched = logged_batched if isinstance(logged_batched, int) else VLLM_BATCHED_TOKENS[True]
        blocks_in_pool = int(tokens.value) // layout.block_tokens * groups
        per_request = layout.blocks_per_request(int(length.value), batched_tokens=batched)
        expected = blocks_in_pool / per_request
        checks.append(
            Check(
                name="max_concurrency",
                logged=concurrency,
                expected=expected,
                working=(
                    f"{blocks_in_pool:,} blocks / {per_request:,} blocks a request of {int(length.value):,} tokens"
                ),
                agrees=abs(float(concurrency.value) - expected) <= 0.01 + expected * 0.01,
                tolerance=0.01 + expected * 0.01,
                explanation=(
                    "Requests of the longest length the cache holds at once; a request takes whole blocks "
                    f"of {layout.block_tokens} tokens in every group"
                    + (", one state slot in each recurrent group" if model.recurrent is not None else "")
                    + (
                        f", and a sliding layer its window plus {batched:,} batched tokens"
                        if model.sliding_layers
                        else ""
                    )
                    + "."
                ),
            )
        )
    return tuple(checks)


def _gib(value_bytes: float) -> str:
    return f"{value_bytes / 2**30:,.2f} GiB"


def _vllm_memory(
    log: EngineLog, model: Model, setting: Setting, device_memory_bytes: float | None, weight_dtype: str
) -> tuple[Check, ...]:
    """vLLM's "Available KV cache memory" from the model: ``total x gpu_memory_utilization`` less
    the weights, the activation profile and the memory outside PyTorch, as
    :func:`roofline_core.estimates.engine_memory.vllm_allocation` allocates it.

    The two reserves are estimates; the log's figure says what they took on the machine (the
    budget less the weights less the available memory), so the check names that beside them.
    """
    available = log.get("kv_cache_memory_bytes")
    if available is None or device_memory_bytes is None:
        return ()
    from_log: list[str] = []
    utilisation = log.value("gpu_memory_utilization")
    if isinstance(utilisation, (int, float)) and 0 < utilisation <= 1:
        from_log.append(f"gpu_memory_utilization={utilisation:g}")
    else:
        utilisation = VLLM_DEFAULT_UTILISATION
    logged_weights = log.value("model_weights_bytes")  # "Model loading took": one worker's share
    tp = setting.tensor_parallel
    if isinstance(logged_weights, (int, float)) and logged_weights > 0:
        weight_bytes = float(logged_weights) * tp
        from_log.append("the weights' memory")
    else:
        weight_bytes = model.weight_bytes(weight_dtype)
    length = log.value("max_model_len_tokens")
    batched = log.value("max_num_batched_tokens")
    seqs = log.value("max_num_seqs")
    allocation = vllm_allocation(
        model,
        total_bytes=device_memory_bytes,
        weight_bytes=weight_bytes,
        context_tokens=length if isinstance(length, int) and length >= 1 else 1,
        kv_dtype=setting.cache_format,
        tensor_parallel=tp,
        utilisation=float(utilisation),
        batched_tokens=batched if isinstance(batched, int) and batched >= 1 else None,
        max_seqs=seqs if isinstance(seqs, int) and seqs >= 1 else None,
    )
    a = allocation
    reserve = a.activation_bytes + a.non_torch_bytes
    # What the log implies the two reserves took: the budget less the weights less what is left.
    taken = a.budget_bytes - a.weight_bytes - float(available.value)
    # The reserves are the estimate's weak figures: a difference up to their own size is theirs.
    tolerance = reserve + available.resolution / 2
    difference = float(available.value) - a.available_bytes
    weights_text = (
        f"{_gib(a.weight_bytes)} of weights (the log's loading line)"
        if "the weights' memory" in from_log
        else f"{_gib(a.weight_bytes)} of weights ({weight_dtype.upper()}, assumed: the log does not print them)"
    )
    per_device = f" on each of {tp} devices" if tp > 1 else ""
    explanation = (
        f"The log leaves {_gib(taken)} for the activation profile and the memory outside PyTorch; the "
        f"model estimates {_gib(reserve)} ({_gib(a.activation_bytes)} of activations for a profiling run "
        f"of {a.batched_tokens:,} tokens and {a.max_seqs:,} sequences' logits, {_gib(a.non_torch_bytes)} "
        "outside PyTorch, assumed)"
    )
    if abs(difference) > tolerance:
        explanation += (
            f", so {_gib(abs(difference))} {'more' if difference > 0 else 'less'} is left for the cache than "
            "modelled: a different weight format or utilisation than assumed, other processes on the GPU, "
            "or a profiling peak above the estimate, which counts only the widest layer's intermediates and "
            "the logits"
        )
    explanation += (
        f". vLLM {VLLM_VERSION}, {_gib(a.total_bytes)} a device{per_device}"
        + (
            f"; from the log: {', '.join(from_log)}"
            if from_log
            else f"; gpu_memory_utilization {utilisation:g} assumed"
        )
        + "."
    )
    return (
        Check(
            name="kv_cache_memory_bytes",
            logged=available,
            expected=a.available_bytes,
            working=(
                f"{_gib(a.total_bytes)} x {float(utilisation):g} = {_gib(a.budget_bytes)} budget - {weights_text} - "
                f"{_gib(a.activation_bytes)} activation profile - {_gib(a.non_torch_bytes)} outside PyTorch = "
                f"{_gib(a.available_bytes)}"
            ),
            agrees=abs(difference) <= tolerance,
            tolerance=tolerance,
            explanation=explanation,
        ),
    )


def _values_text(model: Model, setting: Setting) -> str:
    """One token's cached values in one layer on one device, and the bytes of each, in words."""
    values, values_text = _per_device_values_per_token_per_layer(model, setting.tensor_parallel)
    return f"{values_text} x {bytes_per_element(setting.cache_format):g} bytes"


def _sglang(log: EngineLog, model: Model, setting: Setting) -> tuple[Check, ...]:
    tokens = log.get("kv_cache_tokens")
    if tokens is None:
        return ()
    value_bytes = bytes_per_element(setting.cache_format)
    checks: list[Check] = []
    # The pool keeps one more page than it reports (page size 1 by default).
    rows = int(tokens.value) + 1
    if model.attention == MLA:
        wanted = [("kv_cache_memory_bytes", model.mla_latent_dim + model.mla_rope_dim, "latent and rotary key")]
    else:
        heads = _kv_heads_per_device(model, setting.tensor_parallel)
        wanted = [
            ("k_bytes", heads * model.head_dim, f"{heads} KV heads x {model.head_dim} keys"),
            ("v_bytes", heads * model.head_dim, f"{heads} KV heads x {model.head_dim} values"),
        ]
    for name, width, what in wanted:
        logged = log.get(name)
        if logged is None:
            continue
        expected = rows * model.layers * width * value_bytes
        tolerance = logged.resolution / 2
        checks.append(
            Check(
                name=name,
                logged=logged,
                expected=expected,
                working=f"({int(tokens.value):,} + 1) tokens x {model.layers} layers x {what} x {value_bytes:g} bytes",
                agrees=abs(float(logged.value) - expected) <= tolerance,
                tolerance=tolerance,
                explanation=(
                    f"For {setting.tensor_parallel} device(s) in tensor parallel and a "
                    f"{setting.cache_format.upper()} cache; SGLang's GB is 2^30 bytes."
                ),
            )
        )
    return tuple(checks)


def _llama_cpp(log: EngineLog, model: Model) -> tuple[Check, ...]:
    checks: list[Check] = []
    # One cache line per cache (two with sliding-window layers: SWA and non-SWA), each with its cells and layers.
    for size in log.all("kv_cache_memory_bytes"):
        same_line = [n for n in log.numbers if n.line_number == size.line_number]
        found = {n.name: n for n in same_line}
        cells, layers = found.get("kv_cells"), found.get("kv_layers")
        k_type, v_type = found.get("k_cache_type"), found.get("v_cache_type")
        if cells is None or layers is None or k_type is None or v_type is None:
            continue
        k_bytes = llama_cpp_value_bytes(str(k_type.value))
        v_bytes = llama_cpp_value_bytes(str(v_type.value))
        if k_bytes is None or v_bytes is None or model.attention == MLA:
            continue
        per_layer = model.kv_heads * model.head_dim
        expected = int(cells.value) * int(layers.value) * per_layer * (k_bytes + v_bytes)
        tolerance = size.resolution / 2
        layer_note = ""
        if int(layers.value) != model.layers:
            layer_note = (
                f" This cache holds {int(layers.value)} of the model's {model.layers} layers "
                "(the rest are in another cache, or keep no cache)."
            )
        checks.append(
            Check(
                name="kv_cache_memory_bytes",
                logged=size,
                expected=float(expected),
                working=(
                    f"{int(cells.value):,} cells x {int(layers.value)} layers x {model.kv_heads} KV heads x "
                    f"{model.head_dim} x ({k_type.value} {k_bytes:g} + {v_type.value} {v_bytes:g} bytes)"
                ),
                agrees=abs(float(size.value) - expected) <= tolerance,
                tolerance=tolerance,
                explanation="llama.cpp prints MiB (2^20 bytes) to two decimals." + layer_note,
            )
        )
    return tuple(checks)


__all__ = [
    "MAX_INPUT_BYTES",
    "Check",
    "EngineLog",
    "EngineLogError",
    "LogNumber",
    "Setting",
    "check_log",
    "llama_cpp_value_bytes",
    "parse",
]
