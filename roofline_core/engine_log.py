"""Read a pasted engine start-up log (vLLM, SGLang, llama.cpp) into named numbers.

:func:`parse` returns an :class:`EngineLog`: which engine wrote the log, every number it knows
(each named with its unit, converted to SI units, with the line it came from) and every other
non-blank line, named as unused with the reason. Nothing is guessed: a line is read only when it
matches, whole, one of the formats below, as the engines' sources print them.

**vLLM** (``vllm-project/vllm``), after its logger's prefix (``INFO 11-27 12:00:00 [file.py:123]``,
older ``INFO 01-13 11:35:23 file.py:76]``) and a worker's (``(EngineCore_DP0 pid=1)``,
``(VllmWorker rank=0 pid=2)``, ``(Worker_TP1 pid=3)``):

- ``"Available KV cache memory: %.2f GiB"`` (``vllm/v1/worker/gpu_worker.py``; newer releases
  print ``format_gib()``, the same number): the memory left for the KV cache, per worker.
- ``"GPU KV cache size: %s tokens"`` with ``f"{num_tokens:,}"`` and ``"Maximum concurrency for
  %s tokens per request: %.2fx"`` (``vllm/v1/core/kv_cache_utils.py``), also as one line
  joined by ``", "``; V0 printed ``"# GPU blocks: %d, # CPU blocks: %d"``.
- ``"Model loading took %.4f GiB and %.6f seconds"`` (later ``%s GiB`` and ``GiB memory and``);
  V0's ``"Loading model weights took %.4f GB"`` divides by ``2**30``, so its GB is a GiB.
- ``"Initializing a V1 LLM engine (v%s) with config: %s"`` (``vllm/v1/engine/core.py``), the
  config printed as ``key=value`` pairs: ``model``, ``dtype``, ``max_seq_len``,
  ``tensor_parallel_size``, ``pipeline_parallel_size``, ``data_parallel_size``,
  ``quantization``, ``kv_cache_dtype`` are read (older: ``Initializing an LLM engine``).
- ``"non-default args: %s"`` (``vllm/entrypoints/utils.py``), a dict of the options given:
  ``model``, ``max_model_len``, ``gpu_memory_utilization``, ``tensor_parallel_size``,
  ``max_num_seqs``, ``max_num_batched_tokens``, ``kv_cache_dtype`` ... are read.
- ``"Using max model len %s"`` (``vllm/config/model.py``), ``"Chunked prefill is enabled with
  max_num_batched_tokens=%d."`` (``vllm/config/scheduler.py``) and ``"Auto-fit max_model_len:
  reduced from %d to %d to fit in available GPU memory (%s GiB available for KV cache)"``.

**SGLang** (``sgl-project/sglang``), after ``[2025-01-01 12:00:00 TP0]`` (ranks optional, also
``DP0 TP0 EP0``) and an optional ``INFO file.py:123:``. Its "GB" is a GiB:
``python/sglang/srt/mem_cache/memory_pool.py`` sets ``GB = 1024 * 1024 * 1024`` and
``get_available_gpu_memory`` returns ``free_gpu_memory / (1 << 30)``.

- ``"Load weight begin. avail mem=%.2f GB"``, ``"Load weight end. [elapsed=%.2f s, ]type=%s,
  [dtype=%s, ]avail mem=%.2f GB, mem usage=%.2f GB."`` (``model_runner.py``).
- ``"KV Cache is allocated. #tokens: %d, K size: %.2f GB, V size: %.2f GB"`` and the MLA pool's
  ``"... #tokens: %d, KV size: %.2f GB"`` (``memory_pool.py``); ``"Memory pool end. avail
  mem=%.2f GB"``.
- ``"max_total_num_tokens=%d, chunked_prefill_size=%d, max_prefill_tokens=%d,
  max_running_requests=%d, context_len=%d[, available_gpu_mem=%.2f GB]"`` (``scheduler.py``).
- ``server_args=ServerArgs(...)``: ``tp_size``, ``pp_size``, ``dp_size``, ``ep_size``,
  ``mem_fraction_static``, ``context_length``, ``chunked_prefill_size``,
  ``max_running_requests``, ``page_size``, ``dtype``, ``kv_cache_dtype``, ``quantization``,
  ``model_path``.

**llama.cpp** (``ggml-org/llama.cpp``), each line opened by the function that printed it
(``llama_kv_cache:``, ``llama_context:``, ``load_tensors:``, ``sched_reserve:`` ...), optionally
after ``--log-timestamps``' ``0.19.914.514 I``. Every size is ``"%8.2f MiB"`` (bytes / 2^20):

- ``"%s: size = %7.2f MiB (%6u cells, %3d layers, %2u/%u seqs), K (%s): %7.2f MiB, V (%s): %7.2f
  MiB"`` (``src/llama-kv-cache.cpp``; ``llama_kv_cache_unified:`` before), the older ``"%s: KV
  self size  = %7.2f MiB, K (%s): %7.2f MiB, V (%s): %7.2f MiB"``, and the recurrent state of
  hybrid models, ``"%s: size = %7.2f MiB (%6u cells, %3d layers, %2u seqs), R (%s): %7.2f MiB, S
  (%s): %7.2f MiB"`` (``src/llama-memory-recurrent.cpp``). With interleaved sliding-window
  attention, ``"%s: creating non-SWA KV cache, size = %u cells"`` and ``"%s: creating     SWA KV
  cache, size = %u cells"`` open each of the two caches; their lines get the scope ``non-SWA``
  or ``SWA``.
- ``"%s: %10s KV buffer size"``, ``"%s: %12s model buffer size"``, ``"%s: %10s compute buffer
  size"``, ``"%s: %10s  output buffer size"``, ``"%s: %10s RS buffer size"``, each ``= %8.2f
  MiB``, per backend buffer (``CUDA0``, ``CPU_Mapped``, ``Metal``, ``ROCm0``, ``Vulkan0`` ...:
  the scope), and the older ``llm_load_tensors: %10s buffer size = %8.2f MiB``.
- ``"%s: n_ctx         = %u"`` and its neighbours (``n_seq_max``, ``n_ctx_per_seq``,
  ``n_batch``, ``n_ubatch``, ``causal_attn``, ``flash_attn``, ``kv_unified``, ``freq_base``,
  ``freq_scale``; ``src/llama-context.cpp``), and ``"%s: offloaded %d/%d layers to GPU"``.

Tensor-parallel engines print a line once per rank: a value is kept once per (name, scope), the
scope being the rank or device the line names; a repeat, or a second different value for the same
name and scope, is listed as unused with the line it repeats (and a different value on a line
that gives other numbers too is named in :attr:`EngineLog.notes`). Input is limited to
:data:`MAX_INPUT_BYTES` of UTF-8 and each line to :data:`MAX_LINE_CHARS` (longer lines are named
unused, not read); every pattern is anchored and free of nested repetition, so the work is linear
in the input. Standard library only (runs in Pyodide); nothing is evaluated.
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

VLLM, SGLANG, LLAMA_CPP = "vllm", "sglang", "llama.cpp"
#: Engines in the order a tie between them is broken.
ENGINES = (VLLM, SGLANG, LLAMA_CPP)

#: Largest paste read, in bytes of UTF-8: a start-up log is tens of kilobytes.
MAX_INPUT_BYTES = 1_000_000
#: Longest line read, in characters (vLLM's config line runs to about 5,000).
MAX_LINE_CHARS = 16_384
#: How much of an unused line the result quotes, in characters.
QUOTED_CHARS = 240
#: Most ``key=value`` pairs read from one config line.
_MAX_PAIRS = 1_000

GIB = 1 << 30
MIB = 1 << 20

#: The units engines print sizes in, and how many bytes each stands for.
PRINTED_UNITS: dict[str, int] = {
    "GiB": GIB,
    "MiB": MIB,
    # SGLang writes "GB" for bytes / 2^30 (memory_pool.py: GB = 1024 * 1024 * 1024), and so did
    # vLLM V0's "Loading model weights took %.4f GB" (model_memory_usage / float(2**30)).
    "GB (2^30 bytes)": GIB,
}

_REASON_UNKNOWN = "not a line this reader knows"
#: Most notes about values not kept that one result lists (a hostile paste could make thousands).
_MAX_CONFLICT_NOTES = 20


class EngineLogError(ValueError):
    """Input that cannot be read at all: too large, or not text."""


@dataclass(frozen=True)
class LogNumber:
    """One figure read from a line.

    Attributes:
        name: What it is, with its unit where it has one (``kv_cache_memory_bytes``).
        value: In SI units (bytes, tokens, seconds; ratios and counts as numbers), or the text
            printed where the figure is a name (``kv_cache_dtype``: ``"fp8"``).
        unit: ``"B"``, ``"tokens"``, ``"s"``, ``"requests"``, ``"layers"``, ``"cells"``,
            ``"blocks"``, ``""`` for a plain count or ratio, ``"text"`` for a name.
        printed: The figure as the engine wrote it, with its unit (``"12.34 GiB"``).
        printed_unit: The unit it wrote, a key of :data:`PRINTED_UNITS` for sizes, else ``""``.
        resolution: One step of the last printed digit, in the value's unit (``0.01 GiB`` is
            10,737,418 bytes); 0 for counts and names.
        line_number: 1-based line of the paste.
        line: That line, without colour codes and line ending.
        scope: The rank, device or cache the line speaks for (``"TP1"``, ``"rank 0"``,
            ``"CUDA0"``, ``"SWA"``); ``""`` when it names none.
    """

    name: str
    value: float | int | str
    unit: str
    printed: str
    printed_unit: str
    resolution: float
    line_number: int
    line: str
    scope: str = ""


@dataclass(frozen=True)
class UnusedLine:
    """A non-blank line that gave no number, and why.

    Attributes:
        line_number: 1-based line of the paste.
        line: The line (colour codes removed), shortened to :data:`QUOTED_CHARS` characters.
        reason: Why it was not used (not a known line, too long, a repeat, another engine's).
    """

    line_number: int
    line: str
    reason: str


@dataclass(frozen=True)
class EngineLog:
    """What a pasted start-up log holds.

    Attributes:
        engine: ``"vllm"``, ``"sglang"``, ``"llama.cpp"``, or None when no line was recognised.
        numbers: Every figure read, in line order.
        unused: Every other non-blank line, in line order.
        notes: Sentences about the reading as a whole: repeats per rank dropped, values not kept.
    """

    engine: str | None
    numbers: tuple[LogNumber, ...]
    unused: tuple[UnusedLine, ...]
    notes: tuple[str, ...] = ()

    def get(self, name: str, scope: str | None = None) -> LogNumber | None:
        """The first number called ``name`` (in ``scope``, if given), or None."""
        return next((n for n in self.numbers if n.name == name and (scope is None or n.scope == scope)), None)

    def all(self, name: str) -> tuple[LogNumber, ...]:
        """Every number called ``name``, one per scope, in line order."""
        return tuple(n for n in self.numbers if n.name == name)

    def value(self, name: str, scope: str | None = None) -> float | int | str | None:
        """The value of :meth:`get`, or None."""
        number = self.get(name, scope)
        return None if number is None else number.value

    @property
    def used_line_numbers(self) -> frozenset[int]:
        """The lines at least one number came from."""
        return frozenset(n.line_number for n in self.numbers)


# --- Reading one line ---------------------------------------------------------------------------


@dataclass(frozen=True)
class _Reading:
    name: str
    value: float | int | str
    unit: str
    printed: str
    printed_unit: str = ""
    resolution: float = 0.0
    scope: str = ""


def _decimals(text: str) -> int:
    return len(text) - text.index(".") - 1 if "." in text else 0


def _size(name: str, text: str, printed_unit: str) -> _Reading:
    """A size printed as ``text`` in ``printed_unit``, in bytes."""
    factor = PRINTED_UNITS[printed_unit]
    shown_unit = "GB" if printed_unit.startswith("GB") else printed_unit
    return _Reading(
        name, float(text) * factor, "B", f"{text} {shown_unit}", printed_unit, 10.0 ** -_decimals(text) * factor
    )


def _count(name: str, text: str, unit: str = "", printed_unit: str = "") -> _Reading:
    """A whole number, perhaps with thousands separators (``"1,234,567"``)."""
    return _Reading(name, int(text.replace(",", "")), unit, text + (f" {printed_unit}" if printed_unit else ""))


def _decimal(name: str, text: str, unit: str = "", suffix: str = "") -> _Reading:
    return _Reading(name, float(text), unit, text + suffix, "", 10.0 ** -_decimals(text))


def _text(name: str, text: str) -> _Reading:
    return _Reading(name, text, "text", text)


_NUM = r"-?\d{1,15}(?:\.\d{1,12})?"
_UNUM = r"\d{1,15}(?:\.\d{1,12})?"
_INT_SEP = r"(?:\d{1,3}(?:,\d{3}){1,6}|\d{1,19})"
_IS_INT = re.compile(r"\d{1,19}")
_IS_DECIMAL = re.compile(_NUM)
_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_ ]{0,60}")


def _key_values(text: str, separator: str = "=") -> dict[str, str]:
    """``key=value`` pairs separated by commas at the top level, as Python's reprs print them.

    Commas inside brackets or quotes belong to the value, so ``a=[1, 2], b='x, y'`` gives two
    pairs. With ``separator=":"`` it reads a dict's repr (``'a': 1, 'b': 'x'``, keys unquoted).
    One pass over the text; a part that is not ``key=value`` is skipped.
    """
    pairs: dict[str, str] = {}
    depth, quote, start = 0, "", 0
    parts: list[str] = []
    for index, char in enumerate(text):
        if quote:
            if char == quote:
                quote = ""
        elif char in "'\"":
            quote = char
        elif char in "([{":
            depth += 1
        elif char in ")]}":
            depth = max(0, depth - 1)
        elif char == "," and depth == 0:
            parts.append(text[start:index])
            start = index + 1
            if len(parts) >= _MAX_PAIRS:
                break
    else:
        parts.append(text[start:])
    for part in parts:
        key, sep, value = part.partition(separator)
        key = _unquoted(key.strip())
        if sep and _KEY.fullmatch(key) and key not in pairs:
            pairs[key] = value.strip()
    return pairs


def _unquoted(value: str) -> str:
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        return value[1:-1]
    return value


def _config_readings(pairs: dict[str, str], ints: dict[str, tuple[str, str]], texts: dict[str, str]) -> list[_Reading]:
    """Readings of the config keys asked for: whole numbers (``key: (name, unit)``) and names."""
    readings = []
    for key, value in pairs.items():
        if key in ints and _IS_INT.fullmatch(value):
            name, unit = ints[key]
            readings.append(_count(name, value, unit))
        elif key in ints and key in _RATIOS and _IS_DECIMAL.fullmatch(value):
            readings.append(_decimal(ints[key][0], value))
        elif key in texts:
            readings.append(_text(texts[key], _unquoted(value)))
    return readings


# Config keys that hold a fraction rather than a count.
_RATIOS = frozenset({"gpu_memory_utilization", "mem_fraction_static"})

_VLLM_CONFIG_INTS = {
    "max_seq_len": ("max_model_len_tokens", "tokens"),
    "tensor_parallel_size": ("tensor_parallel_size", ""),
    "pipeline_parallel_size": ("pipeline_parallel_size", ""),
    "data_parallel_size": ("data_parallel_size", ""),
    "block_size": ("block_size_tokens", "tokens"),
    "gpu_memory_utilization": ("gpu_memory_utilization", ""),
}
#: ``non-default args: {...}``: the options given on the command line, as a dict.
_VLLM_ARG_INTS = {
    "max_model_len": ("max_model_len_tokens", "tokens"),
    "tensor_parallel_size": ("tensor_parallel_size", ""),
    "pipeline_parallel_size": ("pipeline_parallel_size", ""),
    "data_parallel_size": ("data_parallel_size", ""),
    "gpu_memory_utilization": ("gpu_memory_utilization", ""),
    "max_num_seqs": ("max_num_seqs", "requests"),
    "max_num_batched_tokens": ("max_num_batched_tokens", "tokens"),
    "block_size": ("block_size_tokens", "tokens"),
}
_VLLM_CONFIG_TEXTS = {
    "model": "model",
    "dtype": "dtype",
    "quantization": "quantization",
    "kv_cache_dtype": "kv_cache_dtype",
}
_SGLANG_ARG_INTS = {
    "tp_size": ("tensor_parallel_size", ""),
    "pp_size": ("pipeline_parallel_size", ""),
    "dp_size": ("data_parallel_size", ""),
    "ep_size": ("expert_parallel_size", ""),
    "mem_fraction_static": ("mem_fraction_static", ""),
    "context_length": ("context_length_tokens", "tokens"),
    "chunked_prefill_size": ("chunked_prefill_size_tokens", "tokens"),
    "max_running_requests": ("max_running_requests", "requests"),
    "page_size": ("page_size_tokens", "tokens"),
}
_SGLANG_ARG_TEXTS = {
    "model_path": "model",
    "dtype": "dtype",
    "kv_cache_dtype": "kv_cache_dtype",
    "quantization": "quantization",
}
_SGLANG_SCHEDULER_INTS = {
    "max_total_num_tokens": ("max_total_num_tokens", "tokens"),
    "chunked_prefill_size": ("chunked_prefill_size_tokens", "tokens"),
    "max_prefill_tokens": ("max_prefill_tokens", "tokens"),
    "max_running_requests": ("max_running_requests", "requests"),
    "context_len": ("context_length_tokens", "tokens"),
}
_LLAMA_CONTEXT_PARAMS = {
    "n_seq_max": ("n_seq_max", ""),
    "n_ctx": ("n_ctx_tokens", "tokens"),
    "n_ctx_per_seq": ("n_ctx_per_seq_tokens", "tokens"),
    "n_ctx_seq": ("n_ctx_per_seq_tokens", "tokens"),
    "n_batch": ("n_batch_tokens", "tokens"),
    "n_ubatch": ("n_ubatch_tokens", "tokens"),
    "causal_attn": ("causal_attn", ""),
    "freq_base": ("rope_freq_base", ""),
    "freq_scale": ("rope_freq_scale", ""),
}
_LLAMA_CONTEXT_TEXTS = {"flash_attn": "flash_attn", "kv_unified": "kv_unified"}
_LLAMA_BUFFERS = {
    "model": "model_buffer_bytes",
    "KV": "kv_buffer_bytes",
    "compute": "compute_buffer_bytes",
    "output": "output_buffer_bytes",
    "RS": "recurrent_buffer_bytes",
    # llm_load_tensors: CUDA0 buffer size = ... (before "model" was added to the line)
    "": "model_buffer_bytes",
}


class _State:
    """What earlier lines say about later ones: the llama.cpp cache being built (iSWA)."""

    def __init__(self) -> None:
        self.llama_cache = ""


_Handler = Callable[[re.Match[str], _State], list[_Reading]]


def _vllm_available(m: re.Match[str], state: _State) -> list[_Reading]:
    return [_size("kv_cache_memory_bytes", m["gib"], "GiB")]


def _vllm_cache_size(m: re.Match[str], state: _State) -> list[_Reading]:
    readings = [_count("kv_cache_tokens", m["tokens"], "tokens", "tokens")]
    if m["len"] is not None:
        readings += _vllm_concurrency(m, state)
    return readings


def _vllm_concurrency(m: re.Match[str], state: _State) -> list[_Reading]:
    return [
        _decimal("max_concurrency", m["x"], "requests", "x"),
        _count("max_model_len_tokens", m["len"], "tokens", "tokens"),
    ]


def _vllm_loading(m: re.Match[str], state: _State) -> list[_Reading]:
    unit = "GiB" if m["unit"] == "GiB" else "GB (2^30 bytes)"
    readings = [_size("model_weights_bytes", m["mem"], unit)]
    if m.groupdict().get("s") is not None:
        readings.append(_decimal("model_load_time_s", m["s"], "s", " s"))
    return readings


def _vllm_max_model_len(m: re.Match[str], state: _State) -> list[_Reading]:
    return [_count("max_model_len_tokens", m["len"], "tokens")]


def _vllm_batched_tokens(m: re.Match[str], state: _State) -> list[_Reading]:
    return [_count("max_num_batched_tokens", m["n"], "tokens")]


def _vllm_auto_fit(m: re.Match[str], state: _State) -> list[_Reading]:
    # Its own names: the length the engine settled on after "Using max model len" printed the
    # one asked for, so neither hides the other.
    return [
        _count("auto_fit_from_max_model_len_tokens", m["before"], "tokens"),
        _count("auto_fit_max_model_len_tokens", m["after"], "tokens"),
    ]


def _vllm_blocks(m: re.Match[str], state: _State) -> list[_Reading]:
    return [_count("gpu_kv_blocks", m["gpu"], "blocks"), _count("cpu_kv_blocks", m["cpu"], "blocks")]


def _vllm_config(m: re.Match[str], state: _State) -> list[_Reading]:
    readings = [_text("vllm_version", m["version"])]
    return readings + _config_readings(_key_values(m["config"]), _VLLM_CONFIG_INTS, _VLLM_CONFIG_TEXTS)


def _vllm_args(m: re.Match[str], state: _State) -> list[_Reading]:
    return _config_readings(_key_values(m["args"], ":"), _VLLM_ARG_INTS, _VLLM_CONFIG_TEXTS)


def _sglang_weight_begin(m: re.Match[str], state: _State) -> list[_Reading]:
    return [_size("available_memory_before_weights_bytes", m["avail"], "GB (2^30 bytes)")]


def _sglang_weight_end(m: re.Match[str], state: _State) -> list[_Reading]:
    pairs = _key_values(m["rest"].rstrip("."))
    readings = []
    for key, name in (("avail mem", "available_memory_after_weights_bytes"), ("mem usage", "model_weights_bytes")):
        amount = _GB_VALUE.fullmatch(pairs.get(key, ""))
        if amount:
            readings.append(_size(name, amount["gb"], "GB (2^30 bytes)"))
    elapsed = _SECONDS_VALUE.fullmatch(pairs.get("elapsed", ""))
    if elapsed:
        readings.append(_decimal("model_load_time_s", elapsed["s"], "s", " s"))
    if "dtype" in pairs:
        readings.append(_text("dtype", pairs["dtype"]))
    return readings


def _sglang_kv_allocated(m: re.Match[str], state: _State) -> list[_Reading]:
    readings = [_count("kv_cache_tokens", m["tokens"], "tokens")]
    if m["kv"] is not None:
        # The MLA pool keeps one latent per token: its size is the whole cache.
        return readings + [_size("kv_cache_memory_bytes", m["kv"], "GB (2^30 bytes)")]
    return readings + [_size("k_bytes", m["k"], "GB (2^30 bytes)"), _size("v_bytes", m["v"], "GB (2^30 bytes)")]


def _sglang_pool_end(m: re.Match[str], state: _State) -> list[_Reading]:
    return [_size("available_memory_after_kv_cache_bytes", m["avail"], "GB (2^30 bytes)")]


def _sglang_scheduler(m: re.Match[str], state: _State) -> list[_Reading]:
    pairs = _key_values(m["pairs"])
    readings = _config_readings(pairs, _SGLANG_SCHEDULER_INTS, {})
    amount = _GB_VALUE.fullmatch(pairs.get("available_gpu_mem", ""))
    if amount:
        readings.append(_size("available_memory_bytes", amount["gb"], "GB (2^30 bytes)"))
    return readings


def _sglang_server_args(m: re.Match[str], state: _State) -> list[_Reading]:
    return _config_readings(_key_values(m["args"]), _SGLANG_ARG_INTS, _SGLANG_ARG_TEXTS)


def _llama_kv_size(m: re.Match[str], state: _State) -> list[_Reading]:
    scope = state.llama_cache
    state.llama_cache = ""  # the summary closes the cache its "creating" line opened
    groups = m.groupdict()
    readings = [_size("kv_cache_memory_bytes", m["size"], "MiB")]
    if groups.get("cells") is not None:  # the older "KV self size" line has no counts
        readings += [
            _count("kv_cells", m["cells"], "cells"),
            _count("kv_layers", m["layers"], "layers"),
            _count("kv_seqs", m["seqs"]),
        ]
        if groups.get("streams") is not None:
            readings.append(_count("kv_streams", m["streams"]))
    readings += [
        _text("k_cache_type", m["kt"]),
        _size("k_bytes", m["k"], "MiB"),
        _text("v_cache_type", m["vt"]),
        _size("v_bytes", m["v"], "MiB"),
    ]
    return [_scoped(r, scope) for r in readings]


def _llama_recurrent(m: re.Match[str], state: _State) -> list[_Reading]:
    return [
        _size("recurrent_state_bytes", m["size"], "MiB"),
        _count("recurrent_cells", m["cells"], "cells"),
        _count("recurrent_layers", m["layers"], "layers"),
        _count("recurrent_seqs", m["seqs"]),
        _text("r_state_type", m["rt"]),
        _size("r_state_bytes", m["r"], "MiB"),
        _text("s_state_type", m["st"]),
        _size("s_state_bytes", m["s"], "MiB"),
    ]


def _llama_creating(m: re.Match[str], state: _State) -> list[_Reading]:
    state.llama_cache = m["which"]
    return [_scoped(_count("kv_cells", m["cells"], "cells", "cells"), m["which"])]


def _llama_buffer(m: re.Match[str], state: _State) -> list[_Reading]:
    name = _LLAMA_BUFFERS[m["kind"] or ""]
    scope = m["device"] if name != "kv_buffer_bytes" or not state.llama_cache else f"{state.llama_cache} {m['device']}"
    return [_scoped(_size(name, m["size"], "MiB"), scope)]


def _llama_context(m: re.Match[str], state: _State) -> list[_Reading]:
    key, value = m["key"], m["value"]
    if key in _LLAMA_CONTEXT_TEXTS:
        return [_text(_LLAMA_CONTEXT_TEXTS[key], value)]
    name, unit = _LLAMA_CONTEXT_PARAMS[key]
    if _IS_INT.fullmatch(value):
        return [_count(name, value, unit)]
    if _IS_DECIMAL.fullmatch(value):
        return [_decimal(name, value, unit)]
    return []


def _llama_offloaded(m: re.Match[str], state: _State) -> list[_Reading]:
    return [_count("offloaded_layers", m["done"], "layers"), _count("offloadable_layers", m["of"], "layers")]


def _scoped(reading: _Reading, scope: str) -> _Reading:
    return dataclasses.replace(reading, scope=scope) if scope else reading


_GB_VALUE = re.compile(rf"(?P<gb>{_NUM}) ?GB")
_SECONDS_VALUE = re.compile(rf"(?P<s>{_UNUM}) ?s")
_FUNC = r"(?P<func>[A-Za-z_]\w{0,79}): "

#: Each engine's lines: (pattern matched against the whole message, what it gives).
_READERS: dict[str, tuple[tuple[re.Pattern[str], _Handler], ...]] = {
    VLLM: (
        (re.compile(rf"Available KV cache memory: (?P<gib>{_NUM}) GiB(?: \([^()]{{0,80}}\))?"), _vllm_available),
        (
            re.compile(
                rf"GPU KV cache size: (?P<tokens>{_INT_SEP}) tokens"
                rf"(?:, Maximum concurrency for (?P<len>{_INT_SEP}) tokens per request: (?P<x>{_UNUM})x)?"
            ),
            _vllm_cache_size,
        ),
        (
            re.compile(rf"Maximum concurrency for (?P<len>{_INT_SEP}) tokens per request: (?P<x>{_UNUM})x"),
            _vllm_concurrency,
        ),
        (
            re.compile(rf"Model loading took (?P<mem>{_NUM}) (?P<unit>GiB|GB)(?: memory)? and (?P<s>{_UNUM}) seconds"),
            _vllm_loading,
        ),
        (re.compile(rf"Loading model weights took (?P<mem>{_NUM}) (?P<unit>GB)"), _vllm_loading),
        (re.compile(r"# GPU blocks: (?P<gpu>\d{1,19}), # CPU blocks: (?P<cpu>\d{1,19})"), _vllm_blocks),
        (re.compile(r"Using max model len (?P<len>\d{1,19})"), _vllm_max_model_len),
        (re.compile(r"Chunked prefill is enabled with max_num_batched_tokens=(?P<n>\d{1,19})\."), _vllm_batched_tokens),
        (
            re.compile(
                r"Auto-fit max_model_len: reduced from (?P<before>\d{1,19}) to (?P<after>\d{1,19}) to fit in "
                rf"available GPU memory \({_NUM} GiB available for KV cache\)"
            ),
            _vllm_auto_fit,
        ),
        (re.compile(r"non-default args: \{(?P<args>.*)\}"), _vllm_args),
        (
            re.compile(
                r"Initializing an? (?:V1 )?LLM engine \(v(?P<version>[\w.+-]{1,60})\) with config: (?P<config>.+)"
            ),
            _vllm_config,
        ),
    ),
    SGLANG: (
        (re.compile(rf"Load weight begin\. avail mem=(?P<avail>{_NUM}) GB"), _sglang_weight_begin),
        (re.compile(r"Load weight end\. (?P<rest>.+)"), _sglang_weight_end),
        (
            re.compile(
                r"KV Cache is allocated\. #tokens: (?P<tokens>\d{1,19}), "
                rf"(?:K size: (?P<k>{_NUM}) GB, V size: (?P<v>{_NUM}) GB|KV size: (?P<kv>{_NUM}) GB)"
            ),
            _sglang_kv_allocated,
        ),
        (re.compile(rf"Memory pool end\. avail mem=(?P<avail>{_NUM}) GB"), _sglang_pool_end),
        (
            re.compile(r"(?:\[gpu(?:_id)?=\d{1,5}\] )?(?P<pairs>max_total_num_tokens=\d{1,19}(?:, .+)?)"),
            _sglang_scheduler,
        ),
        (re.compile(r"server_args=ServerArgs\((?P<args>.*)\)"), _sglang_server_args),
    ),
    LLAMA_CPP: (
        (
            re.compile(
                _FUNC
                + rf"size = *(?P<size>{_UNUM}) MiB \( *(?P<cells>\d{{1,19}}) cells, *(?P<layers>\d{{1,9}}) layers, "
                r"*(?P<seqs>\d{1,9})(?:/(?P<streams>\d{1,9}))? seqs\), "
                rf"K \((?P<kt>\w{{1,40}})\): *(?P<k>{_UNUM}) MiB, V \((?P<vt>\w{{1,40}})\): *(?P<v>{_UNUM}) MiB"
            ),
            _llama_kv_size,
        ),
        (
            re.compile(
                _FUNC + rf"KV self size *= *(?P<size>{_UNUM}) MiB, "
                rf"K \((?P<kt>\w{{1,40}})\): *(?P<k>{_UNUM}) MiB, V \((?P<vt>\w{{1,40}})\): *(?P<v>{_UNUM}) MiB"
            ),
            _llama_kv_size,
        ),
        (
            re.compile(
                _FUNC
                + rf"size = *(?P<size>{_UNUM}) MiB \( *(?P<cells>\d{{1,19}}) cells, *(?P<layers>\d{{1,9}}) layers, "
                rf"*(?P<seqs>\d{{1,9}}) seqs\), R \((?P<rt>\w{{1,40}})\): *(?P<r>{_UNUM}) MiB, "
                rf"S \((?P<st>\w{{1,40}})\): *(?P<s>{_UNUM}) MiB"
            ),
            _llama_recurrent,
        ),
        (
            re.compile(_FUNC + r"creating +(?P<which>non-SWA|SWA) KV cache, size = (?P<cells>\d{1,19}) cells"),
            _llama_creating,
        ),
        (
            re.compile(
                r"(?P<func>[A-Za-z_]\w{0,79}): *(?P<device>[A-Za-z_][\w.-]{0,79}) +"
                rf"(?:(?P<kind>model|KV|compute|output|RS) +)?buffer size = *(?P<size>{_UNUM}) MiB"
            ),
            _llama_buffer,
        ),
        (
            re.compile(
                _FUNC + r"(?P<key>n_seq_max|n_ctx|n_ctx_per_seq|n_ctx_seq|n_batch|n_ubatch|causal_attn|flash_attn"
                r"|kv_unified|freq_base|freq_scale) *= (?P<value>[\w.+-]{1,40})"
            ),
            _llama_context,
        ),
        (re.compile(_FUNC + r"offloaded (?P<done>\d{1,9})/(?P<of>\d{1,9}) layers to GPU"), _llama_offloaded),
    ),
}


# --- Prefixes -----------------------------------------------------------------------------------

_ANSI = re.compile(r"\x1b\[[0-9;?]{0,32}[ -/]{0,4}[@-~]")
# (EngineCore_DP0 pid=123) / (VllmWorker rank=0 pid=456) / (Worker_TP1 pid=7) / (RayWorkerWrapper pid=8)
_VLLM_PROCESS = re.compile(r"\((?P<proc>[A-Za-z][\w-]{0,60})((?: [a-z_]{1,20}=[\w.-]{1,40}){0,4})\) +(?P<rest>.*)")
_VLLM_LOGGER = re.compile(
    r"(?:DEBUG|INFO|WARNING|ERROR|CRITICAL) +(?:\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d{1,6})? +)?"
    r"(?:\[[\w.-]{1,80}:\d{1,6}\] +|[\w.-]{1,80}:\d{1,6}\]? +)(?P<rest>.*)"
)
_SGLANG_PREFIX = re.compile(
    r"\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:[.,]\d{1,6})?(?P<ranks>(?: [A-Z]{2,4}\d{1,5}){0,6})\] +"
    r"(?:(?:DEBUG|INFO|WARNING|ERROR) +[\w.-]{1,80}:\d{1,6}: +)?(?P<rest>.*)"
)
_LLAMA_TIMESTAMP = re.compile(r"\d{1,4}\.\d\d\.\d{3}\.\d{3} [DIWE] (?P<rest>.*)")
_RANK_IN_PROCESS = re.compile(r"(?:TP|DP|PP|EP)\d{1,5}")


def _strip_prefix(line: str) -> tuple[str | None, str, str]:
    """``(engine the prefix shows, scope, message)`` of a line without colour codes."""
    text = line.strip()
    scope, engine = "", None
    process = _VLLM_PROCESS.fullmatch(text)
    if process:
        engine, text = VLLM, process["rest"]
        fields = dict(f.split("=", 1) for f in process.group(2).split())
        rank = _RANK_IN_PROCESS.search(process["proc"])
        scope = f"rank {fields['rank']}" if "rank" in fields else (rank.group(0) if rank else "")
    logger = _VLLM_LOGGER.fullmatch(text)
    if logger:
        return VLLM, scope, logger["rest"].strip()
    if engine:
        return engine, scope, text
    sglang = _SGLANG_PREFIX.fullmatch(text)
    if sglang:
        return SGLANG, sglang["ranks"].strip(), sglang["rest"].strip()
    stamped = _LLAMA_TIMESTAMP.fullmatch(text)
    if stamped:
        return LLAMA_CPP, "", stamped["rest"].strip()
    return None, "", text


# --- The whole paste ----------------------------------------------------------------------------


def _as_text(data: str | bytes | bytearray) -> str:
    if isinstance(data, (bytes, bytearray)):
        if len(data) > MAX_INPUT_BYTES:
            raise EngineLogError(_too_large(len(data)))
        try:
            text = bytes(data).decode("utf-8")
        except UnicodeDecodeError:
            raise EngineLogError("The log is not UTF-8 text; paste the engine's printed start-up log.") from None
    elif isinstance(data, str):
        text = data
        if len(text) > MAX_INPUT_BYTES:
            raise EngineLogError(_too_large(len(text)))
        try:
            size = len(text.encode("utf-8"))
        except UnicodeEncodeError:
            raise EngineLogError("The log is not text (it holds unpaired surrogates); paste the printed log.") from None
        if size > MAX_INPUT_BYTES:
            raise EngineLogError(_too_large(size))
    else:
        raise EngineLogError(f"Expected the log as text, but received {type(data).__name__}.")
    if "\x00" in text:
        raise EngineLogError("The log is not text (it holds NUL bytes); paste the engine's printed start-up log.")
    return text


def _too_large(size: int) -> str:
    return f"The log is {size:,} bytes; at most {MAX_INPUT_BYTES:,} bytes (1 MB) of UTF-8 is read."


def _quote(line: str) -> str:
    return line if len(line) <= QUOTED_CHARS else line[: QUOTED_CHARS - 1] + "…"


def _lines(text: str) -> Iterator[tuple[int, str]]:
    """``(1-based number, line)`` for each line, split at ``\\n`` only (CRLF's ``\\r`` dropped)."""
    for index, line in enumerate(text.split("\n"), start=1):
        yield index, line[:-1] if line.endswith("\r") else line


@dataclass
class _Candidate:
    number: int
    line: str
    engine: str
    scope: str
    readings: list[_Reading]


def parse(text: str | bytes | bytearray) -> EngineLog:
    """Read an engine's start-up log into named numbers; name every other line.

    Args:
        text: The pasted log, as text or UTF-8 bytes, at most :data:`MAX_INPUT_BYTES` bytes.

    Returns:
        The engine, the numbers (SI units, each with its line) and the unused lines.

    Raises:
        EngineLogError: (a ValueError) when the input is too large or not text.
    """
    source = _as_text(text)
    state = _State()
    candidates: list[_Candidate] = []
    unused: dict[int, UnusedLine] = {}
    for number, raw in _lines(source):
        if len(raw) > MAX_LINE_CHARS:
            reason = f"longer than {MAX_LINE_CHARS:,} characters ({len(raw):,}): not read"
            unused[number] = UnusedLine(number, _quote(raw), reason)
            continue
        line = _ANSI.sub("", raw)
        if not line.strip():
            continue
        shown_engine, scope, message = _strip_prefix(line)
        found = _read(message, shown_engine, state)
        if found is None:
            unused[number] = UnusedLine(number, _quote(line.strip()), _REASON_UNKNOWN)
        else:
            engine, readings = found
            candidates.append(_Candidate(number, line.strip(), engine, scope, readings))
    engine = _winner(candidates)
    numbers, notes = _keep(candidates, engine, unused)
    return EngineLog(
        engine=engine,
        numbers=tuple(numbers),
        unused=tuple(unused[n] for n in sorted(unused)),
        notes=tuple(notes),
    )


def _read(message: str, shown_engine: str | None, state: _State) -> tuple[str, list[_Reading]] | None:
    """The engine whose format ``message`` has, and what it gives; the prefix's engine first."""
    order = ENGINES if shown_engine is None else (shown_engine, *(e for e in ENGINES if e != shown_engine))
    for engine in order:
        for pattern, handler in _READERS[engine]:
            match = pattern.fullmatch(message)
            if match:
                readings = [r for r in handler(match, state) if _finite(r)]
                if readings:
                    return engine, readings
    return None


def _finite(reading: _Reading) -> bool:
    return isinstance(reading.value, str) or math.isfinite(reading.value)


def _winner(candidates: list[_Candidate]) -> str | None:
    counts = {engine: 0 for engine in ENGINES}
    for candidate in candidates:
        counts[candidate.engine] += 1
    best = max(ENGINES, key=lambda engine: counts[engine])  # max keeps the first of a tie
    return best if counts[best] else None


def _keep(
    candidates: list[_Candidate], engine: str | None, unused: dict[int, UnusedLine]
) -> tuple[list[LogNumber], list[str]]:
    """One number per (name, scope), first line first; lines that add none become unused."""
    numbers: list[LogNumber] = []
    seen: dict[tuple[str, str], LogNumber] = {}
    repeats = conflicts = 0
    notes = []
    for c in candidates:
        if c.engine != engine:
            reason = f"reads as a {c.engine} line, but this is a {engine} log"
            unused[c.number] = UnusedLine(c.number, _quote(c.line), reason)
            continue
        kept, earlier = [], None
        for r in c.readings:
            scope = r.scope or c.scope
            first = seen.get((r.name, scope))
            if first is not None:
                earlier = earlier or first
                continue
            number = LogNumber(
                r.name, r.value, r.unit, r.printed, r.printed_unit, r.resolution, c.number, c.line, scope
            )
            seen[(r.name, scope)] = number
            kept.append(number)
        if kept:
            numbers += kept
            for r in c.readings:
                first = seen[(r.name, r.scope or c.scope)]
                if first.line_number != c.number and first.value != r.value:
                    conflicts += 1
                    if conflicts > _MAX_CONFLICT_NOTES:
                        continue
                    where = f" for {first.scope}" if first.scope else ""
                    notes.append(
                        f"Line {c.number} gives {r.name}{where} as {r.printed}; line {first.line_number}'s"
                        f" {first.printed} is kept."
                    )
        elif earlier is not None:
            repeats += 1
            same = all(seen[(r.name, r.scope or c.scope)].value == r.value for r in c.readings)
            where = f" for {earlier.scope}" if earlier.scope else ""
            reason = (
                f"repeats line {earlier.line_number}{where}"
                if same
                else f"gives {earlier.name} again{where} with another value; line {earlier.line_number}'s is kept"
            )
            unused[c.number] = UnusedLine(c.number, _quote(c.line), reason)
    if conflicts > _MAX_CONFLICT_NOTES:
        notes.append(f"{conflicts - _MAX_CONFLICT_NOTES:,} more values like these were read and not kept.")
    if repeats:
        notes.insert(
            0,
            f"{repeats} line{'s' if repeats != 1 else ''} repeated figures already read for the same rank or"
            " device (tensor-parallel workers print theirs each): one value is kept per name and scope.",
        )
    return numbers, notes
