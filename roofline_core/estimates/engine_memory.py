"""Memory as the engine allocates it, beside the bytes the model's state needs.

The model says what a sequence's cache needs (:meth:`roofline_core.models.Model.kv_cache_bytes`);
an engine hands out memory in its own units, and rounds. This module follows those rules, each
from the engine's source at a named version, so a reader sees both figures side by side and why
they differ.

**vLLM** (V1 engine, rules as of v0.11.0):

- *Budget* (``vllm/v1/worker/gpu_worker.py``, ``determine_available_memory``): the instance may
  use ``total memory x gpu_memory_utilization`` (``CacheConfig.gpu_memory_utilization``, 0.9 by
  default in ``vllm/config/cache.py``). From that it takes what a profiling forward pass used:
  the weights, the peak of PyTorch's activations, and the memory that grew outside PyTorch
  (communication buffers, cuBLAS workspaces). The rest is "Available KV cache memory". CUDA
  graphs are captured after the cache is allocated, so they and the CUDA context live in the
  share outside the budget, ``1 - gpu_memory_utilization``.
- *Profiling run* (``vllm/v1/worker/gpu_model_runner.py``, ``profile_run``): one dummy forward of
  ``max_num_batched_tokens`` tokens and a sampler run over ``max_num_seqs`` sequences' logits in
  FP32. On a GPU of 70 GiB or more (an A100 aside) the OpenAI server's defaults are 8,192
  tokens and 1,024 sequences, 2,048 and 256 below (``vllm/engine/arg_utils.py``,
  ``_set_default_args``). Activation bytes here are an estimate of that peak, not a measurement.
- *Pages* (``vllm/v1/kv_cache_interface.py``): each layer's cache is made of blocks of
  ``block_size`` tokens (16 by default); a block of an attention layer is a page of
  ``block_size x 2 x kv_heads_per_device x head_dim x dtype bytes`` (the MLA latent instead of
  keys and values; ``MLAAttentionSpec``), a Mamba or linear-attention layer's "page" is one
  sequence's whole state (``MambaSpec.page_size_bytes``).
- *Groups* (``vllm/v1/core/kv_cache_utils.py``, ``_get_kv_cache_groups_uniform_page_size``): layers
  of one kind form groups of ``group_size`` layers, the smallest count of any kind (the largest
  when no kind has 25% more layers than another), the last group of a kind padded. The pool is
  ``group_size`` tensors of ``num_blocks`` pages, one layer of every group sharing each tensor:
  ``num_blocks = available // page_bytes // group_size`` (``get_num_blocks``).
- *Hybrid page* (``vllm/model_executor/models/config.py``,
  ``HybridAttentionMambaModelConfig.verify_and_update_config``): attention and Mamba layers must
  share one page size, so the attention block grows to the smallest multiple of 16 tokens whose
  page holds one sequence's state of a Mamba layer (Qwen3-Next: 544 tokens), and the Mamba page is
  padded up to it. Models whose attention is MLA (Kimi Linear, served from releases after
  v0.11.0) round to 64 tokens instead, the MLA kernels' block alignment (the ``use_mla`` branch,
  ``kernel_block_alignment_size = 64``, at commit 1936cf3841ed of that file; 128 with the
  CUTLASS MLA backend, not modelled). Prefix caching stays off for these models, as v0.11.0's
  ``MambaModelConfig`` sets it; later releases may keep it on for a model that supports it and
  then round the block to the Mamba kernel's chunk (256 tokens), which is not modelled.
- *Reported* (``_report_kv_cache_config``): "GPU KV cache size" is ``num_blocks // groups x
  block_size`` tokens; "Maximum concurrency" is ``num_blocks`` over the blocks one request of
  ``max_model_len`` tokens takes in every group (``get_max_concurrency_for_kv_cache_config``):
  ``ceil(len / block)`` for full attention, ``ceil(min(window - 1 + max_num_batched_tokens, len) /
  block) + 1`` for a sliding window (``SlidingWindowSpec.max_memory_usage_bytes``), one (its state
  slot) for a Mamba group.

**SGLang** (``python/sglang/srt/model_executor/model_runner.py``, ``profile_max_num_token``, as of
v0.5): after loading the weights it keeps ``total x (1 - mem_fraction_static)`` free and gives
the rest of the free memory to the token pool: ``max_total_num_tokens = rest // cell_size``,
``cell_size = layers x kv_heads_per_device x head_dim x 2 x dtype bytes`` (the MLA latent
instead). ``--mem-fraction-static`` defaults by GPU size (``server_args.py``); 0.88 is the value
for an 80 GB GPU at tensor parallel 1 in v0.5.

**llama.cpp** (``src/llama-context.cpp``, 2025): the context ``n_ctx`` is rounded up to a multiple
of the cache's padding, 256 (``llama_kv_cache::get_padding``), and the cache holds that many cells
per sequence of every cached layer.

Standard library only.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from roofline_core.hardware.dtypes import bytes_per_element
from roofline_core.models.model import MLA, Model

#: The vLLM release whose source these rules follow.
VLLM_VERSION = "v0.11.0"
#: ``CacheConfig.gpu_memory_utilization`` default (``vllm/config/cache.py``, v0.11.0).
VLLM_DEFAULT_UTILISATION = 0.9
#: ``CacheConfig`` block size default, in tokens, and the attention kernels' block alignment the
#: hybrid page rounds to (``HybridAttentionMambaModelConfig``, ``kernel_block_alignment_size``).
VLLM_BLOCK_TOKENS = 16
#: The alignment for a hybrid model whose attention is MLA: "Other MLA backends: kernel_block_size
#: 64 alignment" (``vllm/model_executor/models/config.py`` at commit
#: 1936cf3841edb9781b06c50fc4daf4bac9d3b23e).
VLLM_MLA_BLOCK_ALIGNMENT = 64
#: Server defaults on a GPU of 70 GiB or more (not an A100) and below (``arg_utils.py``, v0.11.0).
VLLM_LARGE_GPU_BYTES = 70 * 2**30
VLLM_BATCHED_TOKENS = {True: 8192, False: 2048}
VLLM_MAX_SEQS = {True: 1024, False: 256}
#: Memory that grows outside PyTorch during profiling on one device (cuBLAS workspace, NCCL
#: buffers): an assumption, about what vLLM's own "non-torch memory" line reads on one H100
#: (0.1 to 0.3 GiB); tensor parallel adds NCCL's buffers, so it is doubled there.
VLLM_NON_TORCH_BYTES = 0.2 * 2**30

#: SGLang v0.5's ``mem_fraction_static`` for an 80 GB GPU at tensor parallel 1 (``server_args.py``).
SGLANG_MEM_FRACTION_STATIC = 0.88
#: llama.cpp pads the context to whole multiples of this many cells (``llama_kv_cache::get_padding``).
LLAMA_CPP_CTX_PADDING = 256

FULL = "full attention"
SLIDING = "sliding window"


@dataclass(frozen=True)
class CacheGroup:
    """One of vLLM's KV cache groups: layers of one kind that share the pool's tensors.

    Attributes:
        kind: ``"full attention"``, ``"sliding window"`` or the recurrent layer's label.
        layers: Model layers in this group (a padded last group has fewer than the group size).
        state_bytes: For a recurrent group, one sequence's state in one layer before padding, in
            bytes (0 for attention).
    """

    kind: str
    layers: int
    state_bytes: float = 0.0


@dataclass(frozen=True)
class VllmLayout:
    """How vLLM lays out one device's KV cache for a model.

    Attributes:
        block_tokens: Tokens per attention block (raised for a hybrid model).
        page_bytes: Bytes of one block of one layer: the page every group shares.
        group_size: Layers per group; the pool has this many tensors.
        groups: Every group, in the order full, sliding, recurrent.
        window_tokens: The sliding window (0 without one).
        notes: Sentences on how the page was reached.
    """

    block_tokens: int
    page_bytes: int
    group_size: int
    groups: tuple[CacheGroup, ...]
    window_tokens: int = 0
    notes: tuple[str, ...] = ()

    def blocks(self, available_bytes: float) -> int:
        """Blocks the pool holds in ``available_bytes`` (``get_num_blocks``)."""
        if available_bytes <= 0:
            return 0
        return int(available_bytes // self.page_bytes // self.group_size)

    def pool_bytes(self, blocks: int) -> float:
        """Bytes ``blocks`` blocks take over the pool's tensors."""
        return float(blocks * self.page_bytes * self.group_size)

    def reported_tokens(self, blocks: int) -> int:
        """The "GPU KV cache size" line: blocks per group in tokens."""
        return blocks // len(self.groups) * self.block_tokens

    def blocks_per_request(self, context_tokens: int, *, batched_tokens: int) -> int:
        """Blocks one request of ``context_tokens`` takes in every group together."""
        total = 0
        for group in self.groups:
            if group.kind == FULL:
                total += math.ceil(context_tokens / self.block_tokens)
            elif group.kind == SLIDING:
                held = min(self.window_tokens - 1 + batched_tokens, context_tokens)
                total += math.ceil(held / self.block_tokens) + 1
            else:
                total += 1  # one state slot per request
        return total

    def max_concurrency(self, blocks: int, context_tokens: int, *, batched_tokens: int) -> float:
        """The "Maximum concurrency" line: requests of ``context_tokens`` the blocks hold."""
        return blocks / self.blocks_per_request(context_tokens, batched_tokens=batched_tokens)


#: Why vLLM's pages are not given for DeepSeek-V4: it keeps the window, the compressed entries,
#: the indexer keys and the compressors' FP32 state in caches of their own block sizes, aligned to
#: 576 bytes (``deepseek_v4_attention.py`` and ``deepseek_compressor.py``, vLLM commits
#: 0a291a2e1074b13971361df76245548a4ea4a77d and 0de10a276eced6036e9752a223cba53c996d31cd), which the
#: groups below do not describe; the model's own cache (``Model.kv_cache_bytes``) still counts them.
COMPRESSED_NOT_MODELLED = (
    "not modelled for compressed attention (DeepSeek-V4): vLLM keeps its window, compressed entries, "
    "indexer keys and compressor state in pools of their own page sizes"
)


def _kv_heads_per_device(kv_heads: int, tensor_parallel: int) -> int:
    # ModelConfig.get_num_kv_heads: max(1, heads // tp); a head is replicated, never split.
    return max(1, kv_heads // tensor_parallel)


def _attention_bytes_per_token(model: Model, *, tensor_parallel: int, kv_dtype: str, sliding: bool) -> float:
    """Cache bytes one token adds to one attention layer on one device."""
    value_bytes = bytes_per_element(kv_dtype)
    if model.attention == MLA:
        latent = (model.mla_latent_dim + model.mla_rope_dim) * value_bytes
        indexer = model.sparse_attention.key_bytes_per_token if model.sparse_attention and not sliding else 0.0
        return latent + indexer
    heads, width = (
        (model.kv_heads, model.head_dim) if sliding else (model.full_layer_kv_heads, model.full_layer_head_dim)
    )
    return 2 * _kv_heads_per_device(heads, tensor_parallel) * width * value_bytes


def vllm_layout(
    model: Model, *, tensor_parallel: int = 1, kv_dtype: str = "bf16", block_tokens: int = VLLM_BLOCK_TOKENS
) -> VllmLayout:
    """vLLM's KV cache groups and page for ``model`` on each of ``tensor_parallel`` devices.

    >>> from roofline_core.models import MODELS
    >>> layout = vllm_layout(MODELS["qwen3-next-80b-a3b"])
    >>> layout.block_tokens, layout.page_bytes, layout.group_size, len(layout.groups)
    (544, 1114112, 12, 4)
    """
    if tensor_parallel < 1:
        raise ValueError(f"tensor_parallel must be at least 1, got {tensor_parallel!r}")
    if block_tokens < 1:
        raise ValueError(f"block_tokens must be at least 1, got {block_tokens!r}")
    if model.compressed_attention is not None:
        raise ValueError(COMPRESSED_NOT_MODELLED)
    kinds: list[tuple[str, int, float]] = []
    # A layer that shares an earlier layer's cache (Gemma 3n's last 15) gets no KV cache spec of
    # its own: vLLM points it at its target's (``kv_sharing_target_layer_name``).
    full_layers = model.cached_full_layers
    if full_layers:
        kinds.append((FULL, full_layers, 0.0))
    if model.cached_sliding_layers:
        kinds.append((SLIDING, model.cached_sliding_layers, 0.0))
    state = 0.0
    if model.recurrent is not None and model.recurrent_layers:
        # Heads (and the convolution's channels) are split over the devices.
        state = model.recurrent.state_bytes() / tensor_parallel
        kinds.append((model.recurrent.label, model.recurrent_layers, state))
    if not kinds:
        raise ValueError(f"{model.name} keeps no cache vLLM would allocate")
    per_token = _attention_bytes_per_token(
        model, tensor_parallel=tensor_parallel, kv_dtype=kv_dtype, sliding=not full_layers
    )
    notes: list[str] = []
    if state and per_token:
        alignment = VLLM_MLA_BLOCK_ALIGNMENT if model.attention == MLA else VLLM_BLOCK_TOKENS
        aligned = alignment * math.ceil(state / (alignment * per_token))
        if aligned > block_tokens:
            notes.append(
                f"attention blocks grow from {block_tokens} to {aligned} tokens so that one page holds a "
                f"sequence's {model.recurrent.label} state ({state:,.0f} bytes a layer), padded to the page"
            )
            block_tokens = aligned
    page = math.ceil(block_tokens * per_token) if per_token else math.ceil(state)
    counts = [count for _, count, _ in kinds]
    group_size = min(counts)
    if max(counts) < group_size * 1.25:
        group_size = max(counts)
    groups: list[CacheGroup] = []
    for kind, count, kind_state in kinds:
        for start in range(0, count, group_size):
            groups.append(CacheGroup(kind=kind, layers=min(group_size, count - start), state_bytes=kind_state))
    if len(groups) > 1:
        notes.append(
            f"{len(groups)} groups of {group_size} layers share {group_size} tensors of pages"
            + (", the last group of a kind padded" if any(g.layers < group_size for g in groups) else "")
        )
    window = model.sliding_window if model.sliding_layers else 0
    return VllmLayout(block_tokens, page, group_size, tuple(groups), window, tuple(notes))


@dataclass(frozen=True)
class VllmAllocation:
    """What vLLM would reserve on each device at start-up, beside what the model needs.

    Attributes:
        total_bytes: One device's memory, in bytes.
        utilisation: ``gpu_memory_utilization``.
        budget_bytes: ``total x utilisation``, in bytes.
        weight_bytes: One device's share of the weights, in bytes.
        activation_bytes: Estimated peak of the profiling run's activations, in bytes.
        non_torch_bytes: Memory grown outside PyTorch while profiling (assumed), in bytes.
        available_bytes: "Available KV cache memory", in bytes (negative when it overflows).
        layout: The groups and page.
        blocks: Blocks in the pool.
        pool_bytes: Bytes of those blocks (at most ``available_bytes``).
        cache_tokens: The "GPU KV cache size" vLLM prints, in tokens.
        max_concurrency: Requests of ``context_tokens`` that fit at once, as vLLM prints it.
        context_tokens: The request length it is computed for (``max_model_len``).
        model_bytes_per_request: What the model's state needs for one such request on one
            device, in bytes (no rounding).
        engine_bytes_per_request: What vLLM allocates for it: its blocks' pages, in bytes.
        batched_tokens: ``max_num_batched_tokens`` profiled.
        max_seqs: ``max_num_seqs`` profiled.
    """

    total_bytes: float
    utilisation: float
    budget_bytes: float
    weight_bytes: float
    activation_bytes: float
    non_torch_bytes: float
    available_bytes: float
    layout: VllmLayout
    blocks: int
    pool_bytes: float
    cache_tokens: int
    max_concurrency: float
    context_tokens: int
    model_bytes_per_request: float
    engine_bytes_per_request: float
    batched_tokens: int
    max_seqs: int

    @property
    def outside_bytes(self) -> float:
        """The share outside the budget, where CUDA graphs and the CUDA context live, in bytes."""
        return self.total_bytes - self.budget_bytes

    @property
    def parts(self) -> tuple[tuple[str, float], ...]:
        """Ordered ``(label, bytes)`` pairs that add up to ``total_bytes``."""
        return (
            ("weights", self.weight_bytes),
            ("activation profile", self.activation_bytes),
            ("non-torch memory", self.non_torch_bytes),
            ("KV cache pool", self.pool_bytes),
            (
                "unused remainder of the budget",
                self.budget_bytes - self.weight_bytes - self.activation_bytes - self.non_torch_bytes - self.pool_bytes,
            ),
            ("outside gpu_memory_utilization (CUDA graphs, CUDA context)", self.outside_bytes),
        )


def profile_activation_bytes(model: Model, *, tensor_parallel: int, batched_tokens: int, max_seqs: int) -> float:
    """Estimated peak activations of vLLM's profiling run on one device, in bytes.

    The widest layer's intermediates for ``batched_tokens`` tokens (the MLP's gate and up
    projections, or the attention's Q, K, V and output), split over the devices, plus the
    residual stream held whole, in 16 bits; and the FP32 logits of ``max_seqs`` sequences
    (the vocabulary split over the devices).
    """
    mlp_width = model.moe_ffn_size * max(model.experts_per_token, 1) if model.is_moe else model.ffn_size
    attention_width = (2 * model.heads + 2 * model.kv_heads) * model.head_dim
    widest = max(2 * mlp_width, attention_width)
    hidden = batched_tokens * (widest / tensor_parallel + 2 * model.hidden_size) * 2
    logits = max_seqs * model.vocab_size / tensor_parallel * 4
    return hidden + logits


def vllm_allocation(
    model: Model,
    *,
    total_bytes: float,
    weight_bytes: float,
    context_tokens: int,
    kv_dtype: str = "bf16",
    tensor_parallel: int = 1,
    utilisation: float = VLLM_DEFAULT_UTILISATION,
    block_tokens: int = VLLM_BLOCK_TOKENS,
    batched_tokens: int | None = None,
    max_seqs: int | None = None,
    non_torch_bytes: float | None = None,
) -> VllmAllocation:
    """What vLLM reserves on each device of a tensor-parallel group, and the KV pool it is left with.

    Args:
        model: The model served.
        total_bytes: One device's memory, in bytes.
        weight_bytes: All the weights, in bytes (split evenly over the devices).
        context_tokens: ``max_model_len``, in tokens.
        kv_dtype: The cache's format.
        tensor_parallel: Devices the model is split over.
        utilisation: ``gpu_memory_utilization``, in (0, 1].
        block_tokens: ``--block-size``, in tokens.
        batched_tokens: ``max_num_batched_tokens``; None for the server's default on this GPU.
        max_seqs: ``max_num_seqs``; None for the server's default on this GPU.
        non_torch_bytes: Memory outside PyTorch, in bytes; None for :data:`VLLM_NON_TORCH_BYTES`
            (doubled under tensor parallel).

    Raises:
        ValueError: if ``utilisation`` is not in (0, 1] or ``context_tokens`` is below 1.

    >>> from roofline_core.models import MODELS
    >>> a = vllm_allocation(MODELS["llama-3.1-8b"], total_bytes=80 * 2**30, weight_bytes=16.06e9,
    ...                     context_tokens=32768)
    >>> a.layout.page_bytes, a.blocks > 0
    (65536, True)
    """
    if not 0.0 < utilisation <= 1.0:
        raise ValueError(f"gpu_memory_utilization must be more than 0 and at most 1, got {utilisation!r}")
    if context_tokens < 1:
        raise ValueError(f"context_tokens must be at least 1, got {context_tokens!r}")
    large = total_bytes >= VLLM_LARGE_GPU_BYTES
    batched = VLLM_BATCHED_TOKENS[large] if batched_tokens is None else batched_tokens
    seqs = VLLM_MAX_SEQS[large] if max_seqs is None else max_seqs
    non_torch = VLLM_NON_TORCH_BYTES * (2 if tensor_parallel > 1 else 1) if non_torch_bytes is None else non_torch_bytes
    layout = vllm_layout(model, tensor_parallel=tensor_parallel, kv_dtype=kv_dtype, block_tokens=block_tokens)
    budget = total_bytes * utilisation
    weights = weight_bytes / tensor_parallel
    activations = profile_activation_bytes(
        model, tensor_parallel=tensor_parallel, batched_tokens=batched, max_seqs=seqs
    )
    available = budget - weights - activations - non_torch
    blocks = layout.blocks(available)
    per_request_blocks = layout.blocks_per_request(context_tokens, batched_tokens=batched)
    model_need = _model_bytes_per_request(model, context_tokens, tensor_parallel=tensor_parallel, kv_dtype=kv_dtype)
    return VllmAllocation(
        total_bytes=float(total_bytes),
        utilisation=utilisation,
        budget_bytes=budget,
        weight_bytes=weights,
        activation_bytes=activations,
        non_torch_bytes=non_torch,
        available_bytes=available,
        layout=layout,
        blocks=blocks,
        pool_bytes=layout.pool_bytes(blocks),
        cache_tokens=layout.reported_tokens(blocks),
        max_concurrency=blocks / per_request_blocks,
        context_tokens=context_tokens,
        model_bytes_per_request=model_need,
        engine_bytes_per_request=float(per_request_blocks * layout.page_bytes * layout.group_size),
        batched_tokens=batched,
        max_seqs=seqs,
    )


def _model_bytes_per_request(model: Model, context_tokens: int, *, tensor_parallel: int, kv_dtype: str) -> float:
    """What one request's state needs on one device, with no pages: the attention layers' tokens
    (a sliding layer's window) and the recurrent layers' state, in bytes."""
    full = model.cached_full_layers
    need = (
        full
        * context_tokens
        * _attention_bytes_per_token(model, tensor_parallel=tensor_parallel, kv_dtype=kv_dtype, sliding=False)
    )
    if model.cached_sliding_layers:
        need += (
            model.cached_sliding_layers
            * min(context_tokens, model.sliding_window)
            * _attention_bytes_per_token(model, tensor_parallel=tensor_parallel, kv_dtype=kv_dtype, sliding=True)
        )
    if model.recurrent is not None:
        need += model.recurrent_layers * model.recurrent.state_bytes() / tensor_parallel
    return need


def sglang_max_total_tokens(
    model: Model,
    *,
    total_bytes: float,
    weight_bytes: float,
    kv_dtype: str = "bf16",
    tensor_parallel: int = 1,
    mem_fraction_static: float = SGLANG_MEM_FRACTION_STATIC,
    other_bytes: float = 0.0,
) -> int:
    """SGLang's ``max_total_num_tokens`` on each device: the free memory after the weights (and
    ``other_bytes``, the CUDA context and the like) less ``total x (1 - mem_fraction_static)``,
    over one token's cell in every layer.

    >>> from roofline_core.models import MODELS
    >>> sglang_max_total_tokens(MODELS["llama-3.1-8b"], total_bytes=80 * 2**30, weight_bytes=16 * 2**30)
    445644
    """
    if not 0.0 < mem_fraction_static <= 1.0:
        raise ValueError(f"mem_fraction_static must be more than 0 and at most 1, got {mem_fraction_static!r}")
    free = total_bytes - weight_bytes / tensor_parallel - other_bytes
    rest = free - total_bytes * (1.0 - mem_fraction_static)
    cell = (model.cached_full_layers + model.cached_sliding_layers) * _attention_bytes_per_token(
        model, tensor_parallel=tensor_parallel, kv_dtype=kv_dtype, sliding=False
    )
    return max(0, int(rest // cell))


def llama_cpp_cells(n_ctx: int, *, padding: int = LLAMA_CPP_CTX_PADDING) -> int:
    """Cells llama.cpp's cache holds for a requested context ``n_ctx``: rounded up to ``padding``.

    >>> llama_cpp_cells(4000), llama_cpp_cells(4096)
    (4096, 4096)
    """
    if n_ctx < 1:
        raise ValueError(f"n_ctx must be at least 1, got {n_ctx!r}")
    return padding * math.ceil(n_ctx / padding)
