"""The command line that starts each serving engine with a scenario's settings.

For a scenario (a model, how many devices, the longest context a sequence may reach, how many
sequences run at once, the KV cache's format, the share of memory the engine may take),
:func:`engine_commands` gives the start command of vLLM, SGLang and llama.cpp's server, each flag
with what it sets and why, and notes where an engine cannot do what the scenario asks. Every flag
name and accepted value here is one the engine documents, at the version named in its
:class:`~roofline_core.sources.Source`; ``tests/roofline_core/test_engine_flags.py`` checks the
flags against those quotes.

The three engines size the same thing differently, and the commands say so:

- **vLLM** takes the longest sequence (``--max-model-len``) and the most sequences at once
  (``--max-num-seqs``); the KV cache takes what ``--gpu-memory-utilization`` leaves after the
  weights and the activation profile.
- **SGLang** takes the same two as ``--context-length`` and ``--max-running-requests``, and the
  share of memory for weights and the cache pool as ``--mem-fraction-static`` (computed for the
  device when not given).
- **llama.cpp's server** takes one context (``-c``) for all its slots (``-np``): with a slot count
  given, each slot gets ``-c / -np`` tokens (``n_ctx_per_seq`` in its log), so ``-c`` is the
  context per sequence times the sequences. Its cache formats are its own block formats.

Standard library only.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass

from roofline_core.questions.engine_log_check import llama_cpp_value_bytes
from roofline_core.sources import Source

VLLM_SOURCE = Source(
    title="vLLM documentation: Engine Arguments (vllm serve)",
    url="https://docs.vllm.ai/en/latest/serving/engine_args.html",
    states=(
        "usage: vllm serve [-h] [--model MODEL] ... [--max-model-len MAX_MODEL_LEN] ... "
        "[--tensor-parallel-size TENSOR_PARALLEL_SIZE] ... "
        "[--gpu-memory-utilization GPU_MEMORY_UTILIZATION] ... "
        "[--kv-cache-dtype {auto,fp8,fp8_e4m3,fp8_e5m2}] ... "
        "[--max-num-batched-tokens MAX_NUM_BATCHED_TOKENS] [--max-num-seqs MAX_NUM_SEQS]"
    ),
)
SGLANG_SOURCE = Source(
    title="SGLang docs/advanced_features/server_arguments.md (commit 004813e)",
    url=(
        "https://github.com/sgl-project/sglang/blob/004813e1dd464844bd92ddbca5cab8c024a75f78/"
        "docs/advanced_features/server_arguments.md"
    ),
    states=(
        "`--model-path` `--model`: The path of the model weights. This can be a local folder or a "
        "Hugging Face repo ID. | `--context-length`: The model's maximum context length. | "
        '`--kv-cache-dtype`: Data type for kv cache storage. "auto" will use model data type. '
        '"bf16" or "bfloat16" for BF16 KV cache. ... Options: `auto`, `fp8_e5m2`, `fp8_e4m3`, '
        "`bf16`, `bfloat16`, `fp4_e2m1` | `--mem-fraction-static`: The fraction of the memory used "
        "for static allocation (model weights and KV cache memory pool). | `--max-running-requests`: "
        "The maximum number of running requests. | `--tensor-parallel-size` `--tp-size`: The tensor "
        "parallelism size."
    ),
)
#: SGLang's chunked-prefill flag is not among the options the docs page above lists; the
#: argument's own declaration is. ``ServerArgs`` derives each flag from its field's name
#: (``chunked_prefill_size`` -> ``--chunked-prefill-size``, as its docstring says for ``tp_size``).
SGLANG_CHUNK_SOURCE = Source(
    title="SGLang python/sglang/srt/server_args.py (commit 001067f)",
    url=(
        "https://github.com/sgl-project/sglang/blob/001067fffe33427bee0ed2f007fb7551a1d76b44/"
        "python/sglang/srt/server_args.py"
    ),
    states=(
        "The primary CLI flag is auto-derived from the field name (``tp_size`` → ``--tp-size``). ... "
        'chunked_prefill_size: A[Optional[int], "The maximum number of tokens in a chunk for the chunked '
        'prefill. Setting this to -1 means disabling chunked prefill.", NS("schedule")] = None '
        "(the flag --chunked-prefill-size)"
    ),
)
LLAMA_CPP_SOURCE = Source(
    title="llama.cpp tools/server/README.md (commit 00dc805)",
    url="https://github.com/ggml-org/llama.cpp/blob/00dc8057ab28c9cb4c79a6dd6dfce07fe779f63b/tools/server/README.md",
    states=(
        "-c, --ctx-size N: size of the prompt context (default: 0, 0 = loaded from model); "
        "-ngl, --gpu-layers, --n-gpu-layers N: max. number of layers to store in VRAM, either an "
        "exact number, 'auto', or 'all' (default: auto); "
        "-ctk, --cache-type-k TYPE / -ctv, --cache-type-v TYPE: allowed values: f32, f16, bf16, "
        "q8_0, q4_0, q4_1, iq4_nl, q5_0, q5_1 (default: f16); "
        "-np, --parallel N: number of server slots (default: -1, -1 = auto); "
        "-sm, --split-mode {none,layer,row,tensor}: how to split the model across multiple GPUs, "
        "one of: - none: use one GPU only - layer (default): split layers and KV across GPUs "
        "(pipelined) - row: split weight across GPUs by rows (parallelized); "
        "-m, --model FNAME: model path to load; "
        "-kvu, --kv-unified: use single unified KV buffer shared across all sequences (default: "
        "enabled if number of slots is auto)"
    ),
)

#: The KV cache formats each engine accepts, by the project's format names; a format missing
#: here is one the engine cannot store its cache in.
VLLM_KV = {"fp16": "auto", "bf16": "auto", "fp8": "fp8"}
SGLANG_KV = {"fp16": "auto", "bf16": "bf16", "fp8": "fp8_e4m3"}
LLAMA_CPP_KV = {"fp32": "f32", "fp16": "f16", "bf16": "bf16"}

#: The share of each device's memory the commands give vLLM and SGLang unless told otherwise.
DEFAULT_MEMORY_FRACTION = 0.9


@dataclass(frozen=True)
class Flag:
    """One option on an engine's command line.

    Attributes:
        source: Where the engine documents this flag, when not in its command's ``source``.
    """

    name: str
    value: str
    why: str
    source: Source | None = None


@dataclass(frozen=True)
class EngineCommand:
    """How one engine is started for the scenario."""

    engine: str
    program: tuple[str, ...]
    model: str
    flags: tuple[Flag, ...]
    notes: tuple[str, ...]
    source: Source

    @property
    def text(self) -> str:
        """The command as one shell line, every word quoted where the shell needs it."""
        words = [*self.program, *([self.model] if self.model else [])]
        for flag in self.flags:
            words.extend([flag.name, flag.value] if flag.value else [flag.name])
        return " ".join(shlex.quote(word) for word in words)


def _whole(name: str, value: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{name} must be a whole number of at least 1, got {value!r}")
    return value


def engine_commands(
    *,
    model: str,
    devices: int = 1,
    context_tokens: int,
    sequences: int = 1,
    kv_dtype: str = "fp16",
    memory_fraction: float = DEFAULT_MEMORY_FRACTION,
    gguf_file: str = "model.gguf",
    batched_tokens: int | None = None,
    prefill_chunk_tokens: int | None = None,
) -> tuple[EngineCommand, ...]:
    """The vLLM, SGLang and llama.cpp commands that run ``sequences`` at once, each up to
    ``context_tokens`` long, on ``devices`` devices in tensor parallel.

    Args:
        model: The model's Hugging Face repository (``meta-llama/Llama-3.1-8B-Instruct``), which
            vLLM and SGLang load; llama.cpp loads ``gguf_file``.
        kv_dtype: The KV cache's format, by the project's names (``fp16``, ``bf16``, ``fp8`` ...).
        memory_fraction: The share of each device's memory vLLM and SGLang may take (0 < f <= 1).
        batched_tokens: The most tokens one vLLM step may process, decode tokens and a prefill
            chunk together (``--max-num-batched-tokens``, the chunked-prefill budget); None
            leaves vLLM's default.
        prefill_chunk_tokens: The most prompt tokens one step prefills (the chunked-prefill
            budget without the decode tokens: SGLang's ``--chunked-prefill-size`` counts only
            the chunk); None leaves SGLang's default.

    Raises:
        ValueError: for a count below 1 or a share outside (0, 1].

    >>> vllm, sglang, llama = engine_commands(model="org/model", devices=2, context_tokens=8192, sequences=4)
    >>> vllm.text
    'vllm serve org/model --tensor-parallel-size 2 --max-model-len 8192 --max-num-seqs 4 --kv-cache-dtype auto --gpu-memory-utilization 0.9'
    >>> llama.text
    'llama-server -m model.gguf -ngl all -c 32768 -np 4 -ctk f16 -ctv f16 -sm row'
    """
    _whole("devices", devices)
    _whole("context_tokens", context_tokens)
    _whole("sequences", sequences)
    if batched_tokens is not None:
        _whole("batched_tokens", batched_tokens)
    if prefill_chunk_tokens is not None:
        _whole("prefill_chunk_tokens", prefill_chunk_tokens)
    if not 0 < memory_fraction <= 1:
        raise ValueError(f"memory_fraction must be above 0 and at most 1, got {memory_fraction!r}")
    share = f"{memory_fraction:g}"
    return (
        _vllm(model, devices, context_tokens, sequences, kv_dtype, share, batched_tokens),
        _sglang(model, devices, context_tokens, sequences, kv_dtype, share, prefill_chunk_tokens),
        _llama_cpp(gguf_file, devices, context_tokens, sequences, kv_dtype),
    )


def _cache_why(value: str) -> str:
    return "auto keeps the cache in the model's own 16-bit format" if value == "auto" else f"the cache kept in {value}"


def _cache_format(engine: str, formats: dict[str, str], kv_dtype: str, notes: list[str], fallback: str) -> str:
    if kv_dtype in formats:
        return formats[kv_dtype]
    notes.append(
        f"{engine} cannot keep the KV cache in {kv_dtype.upper()}; the command keeps it in "
        f"{fallback}, so the cache takes more memory than the scenario assumes."
    )
    return fallback


def _vllm(
    model: str, devices: int, context: int, sequences: int, kv_dtype: str, share: str, batched: int | None
) -> EngineCommand:
    notes: list[str] = []
    kv = _cache_format("vLLM", VLLM_KV, kv_dtype, notes, "auto")
    flags: tuple[Flag, ...] = (
        Flag("--tensor-parallel-size", str(devices), "the model split over this many devices"),
        Flag("--max-model-len", str(context), "the longest a sequence may grow, prompt and output together"),
        Flag("--max-num-seqs", str(sequences), "the most sequences decoded together"),
        Flag("--kv-cache-dtype", kv, _cache_why(kv)),
        Flag("--gpu-memory-utilization", share, "the share of each device's memory for weights, cache and activations"),
    )
    if batched is not None:
        flags += (
            Flag(
                "--max-num-batched-tokens",
                str(batched),
                "the most tokens a step processes: one per running sequence plus the prefill chunk",
            ),
        )
    return EngineCommand("vLLM", ("vllm", "serve"), model, flags, tuple(notes), VLLM_SOURCE)


def _sglang(
    model: str, devices: int, context: int, sequences: int, kv_dtype: str, share: str, chunk: int | None
) -> EngineCommand:
    notes: list[str] = []
    kv = _cache_format("SGLang", SGLANG_KV, kv_dtype, notes, "auto")
    flags: tuple[Flag, ...] = (
        Flag("--model-path", model, "the model to load"),
        Flag("--tp-size", str(devices), "the model split over this many devices"),
        Flag("--context-length", str(context), "the longest a sequence may grow, prompt and output together"),
        Flag("--max-running-requests", str(sequences), "the most requests run together"),
        Flag("--kv-cache-dtype", kv, _cache_why(kv)),
        Flag("--mem-fraction-static", share, "the share of each device's memory for weights and the cache pool"),
    )
    if chunk is not None:
        flags += (
            Flag(
                "--chunked-prefill-size",
                str(chunk),
                "the most prompt tokens a step prefills (the chunk alone, decode tokens not counted)",
                SGLANG_CHUNK_SOURCE,
            ),
        )
    return EngineCommand("SGLang", ("python", "-m", "sglang.launch_server"), "", flags, tuple(notes), SGLANG_SOURCE)


def _llama_cpp(gguf_file: str, devices: int, context: int, sequences: int, kv_dtype: str) -> EngineCommand:
    notes: list[str] = []
    kv = _cache_format("llama.cpp", LLAMA_CPP_KV, kv_dtype, notes, "f16")
    if kv_dtype == "fp8":
        bits = 8 * (llama_cpp_value_bytes("q8_0") or 0)
        notes.append(
            f"Its nearest is q8_0, {bits:g} bits a value (blocks of 32 with a 16-bit scale): -ctk q8_0 -ctv q8_0."
        )
    flags = [
        Flag("-ngl", "all", "every layer on the GPU, as the scenario assumes"),
        Flag("-c", str(context * sequences), f"{context:,} tokens for each of {sequences} slots: -c is shared by them"),
        Flag("-np", str(sequences), "the slots, one for each sequence run together"),
        Flag("-ctk", kv, "the keys' cache format"),
        Flag("-ctv", kv, "the values' cache format"),
    ]
    if devices > 1:
        notes.append(
            "llama.cpp splits layers over devices by default (one after another, as in pipeline "
            "parallelism); -sm row splits each weight by rows, closer to tensor parallelism."
        )
        flags.append(Flag("-sm", "row", "each weight split over the devices by rows"))
    return EngineCommand("llama.cpp", ("llama-server", "-m"), gguf_file, tuple(flags), tuple(notes), LLAMA_CPP_SOURCE)
