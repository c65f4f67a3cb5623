"""Memory a serving engine keeps back from the KV cache, and the questions it answers at start-up.

An engine does not give the KV cache all of an accelerator's memory. vLLM budgets a fraction of
it for the whole executor, ``gpu_memory_utilization`` (0.92 by default in
``vllm/config/cache.py`` as of 2026, 0.9 in earlier releases), and inside that budget it first
profiles the weights and the peak activations of a forward pass; what remains becomes KV
blocks of ``block_size`` tokens (16 by default, ``CacheConfig.DEFAULT_BLOCK_SIZE``). It then
prints how many tokens the cache holds and how many requests of the longest context fit at once.

This module estimates the same budget:

- the share of memory left outside the engine, ``1 - utilisation`` (default 0.9: the more
  cautious of vLLM's old and new defaults);
- the activations of one forward chunk: for ``chunk_tokens`` tokens, the widest layer's
  intermediates (gate and up projections of the MLP, or the attention's Q, K, V and output)
  plus the residual stream, in 16 bits, and the FP32 logits of the sequences being sampled.
  This is an estimate of what profiling measures, not a measurement; CUDA graphs, the
  communication library and allocator fragmentation are taken to fit in the share outside
  the engine.

Standard library only.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from roofline_core.models import MLA, AnyModel, Model

#: Share of memory the engine may use; the rest stays outside it (see the module docstring).
DEFAULT_MEMORY_UTILISATION = 0.9
#: Tokens per KV block (vLLM's ``CacheConfig.DEFAULT_BLOCK_SIZE``).
KV_BLOCK_TOKENS = 16
#: Tokens of one profiling forward chunk, and sequences whose logits are sampled at once: the
#: class defaults of vLLM's ``SchedulerConfig`` (``DEFAULT_MAX_NUM_BATCHED_TOKENS = 2048``,
#: ``DEFAULT_MAX_NUM_SEQS = 128``; engines raise both for large GPUs, so this is a floor).
CHUNK_TOKENS = 2048
SAMPLED_SEQUENCES = 128


#: Ways of splitting a model (``estimate_decode(parallelism=...)``) in which attention is split by
#: heads over the devices: tensor parallelism, and expert parallelism, whose engines run the
#: attention layers tensor-parallel over the same devices unless data-parallel attention is on.
HEAD_SPLIT_PARALLELISMS = ("tensor", "expert")


def kv_cache_copies(
    model: AnyModel, *, devices: int = 1, parallelism: str = "tensor", data_parallel_attention: bool = False
) -> float:
    """How many copies of each cached token the devices hold together (1: the cache is split).

    Tensor parallelism splits the cache by KV heads, and a head cannot be split further: vLLM
    gives each device ``max(1, kv_heads // devices)`` heads, replicating them once devices
    outnumber KV heads, and an MLA model has one latent "head" that every device keeps whole
    (``ModelConfig.get_num_kv_heads`` returns 1 when ``use_mla``: "When using MLA during decode
    it becomes MQA"; https://github.com/vllm-project/vllm/blob/main/vllm/config/model.py).
    SGLang does the same unless ``--enable-dp-attention`` runs attention data-parallel
    (``data_parallel_attention``): each device then caches its own sequences whole, one copy in
    all (https://docs.sglang.ai/advanced_features/server_arguments.html). Pipeline stages split
    the layers, so their caches never repeat.

    >>> from roofline_core.models import MODELS
    >>> kv_cache_copies(MODELS["deepseek-v3"], devices=8), kv_cache_copies(MODELS["llama-3-70b"], devices=16)
    (8, 2.0)
    """
    if devices <= 1 or parallelism not in HEAD_SPLIT_PARALLELISMS or data_parallel_attention:
        return 1
    if getattr(model, "attention", None) == MLA:
        return devices
    kv_heads = getattr(model, "kv_heads", 0)
    if not kv_heads:
        return 1  # a model known by its cache size alone: split evenly
    return max(1.0, devices * max(1, kv_heads // devices) / kv_heads)


def activation_bytes(model: AnyModel, *, devices: int = 1, chunk_tokens: int = CHUNK_TOKENS) -> float:
    """Peak activation memory of one forward chunk over all devices, in bytes (0 for a model known only by size).

    Tensor parallelism splits the MLP's and attention's intermediates and the vocabulary over the
    devices; the residual stream is held whole on each.

    >>> from roofline_core.models import MODELS
    >>> round(activation_bytes(MODELS["llama-3.1-8b"]) / 1e6)
    217
    """
    if not isinstance(model, Model):
        return 0.0
    mlp_width = model.moe_ffn_size * max(model.experts_per_token, 1) if model.is_moe else model.ffn_size
    attention_width = (2 * model.heads + 2 * model.kv_heads) * model.head_dim
    widest = max(2 * mlp_width, attention_width)
    per_device = chunk_tokens * (widest / devices + 2 * model.hidden_size) * 2
    logits = SAMPLED_SEQUENCES * model.vocab_size / devices * 4
    return (per_device + logits) * devices


def reserved_bytes(
    model: AnyModel, *, capacity_bytes: float, devices: int = 1, utilisation: float = DEFAULT_MEMORY_UTILISATION
) -> float:
    """Memory an engine keeps from weights and KV cache: the share outside it plus the activations, in bytes.

    Raises:
        ValueError: if ``utilisation`` is not in (0, 1].
    """
    if not 0.0 < utilisation <= 1.0:
        raise ValueError(f"utilisation must be more than 0 and at most 1, got {utilisation!r}")
    return (1.0 - utilisation) * capacity_bytes + activation_bytes(model, devices=devices)


@dataclass(frozen=True)
class KvCapacity:
    """What an engine would report at start-up about its KV cache.

    Attributes:
        kv_budget_bytes: Memory left for the KV cache, all devices together, in bytes (negative
            when the weights and reserve alone overflow).
        cache_tokens: Tokens the cache holds (whole blocks), at full per-token cost.
        blocks: KV blocks of :data:`KV_BLOCK_TOKENS` tokens.
        max_sequences: Requests of ``context_tokens`` that fit at once (vLLM's "maximum
            concurrency"), whole requests only.
    """

    kv_budget_bytes: float
    cache_tokens: int
    blocks: int
    max_sequences: int


def kv_capacity(
    model: Model,
    *,
    capacity_bytes: float,
    weight_bytes: float,
    kv_dtype: str,
    context_tokens: int,
    devices: int = 1,
    utilisation: float = DEFAULT_MEMORY_UTILISATION,
    parallelism: str = "tensor",
    data_parallel_attention: bool = False,
) -> KvCapacity:
    """The KV budget after weights and reserve, in blocks, tokens and requests of ``context_tokens``;
    a token held on several devices (:func:`kv_cache_copies`) costs each of them."""
    budget = (
        capacity_bytes
        - weight_bytes
        - reserved_bytes(model, capacity_bytes=capacity_bytes, devices=devices, utilisation=utilisation)
    )
    copies = kv_cache_copies(
        model, devices=devices, parallelism=parallelism, data_parallel_attention=data_parallel_attention
    )
    per_token = model.kv_bytes_per_token(kv_dtype) * copies
    if budget <= 0 or per_token == 0:
        return KvCapacity(budget, 0, 0, 0)
    blocks = math.floor(budget / (per_token * KV_BLOCK_TOKENS))
    per_request = model.kv_cache_bytes(context_tokens=max(context_tokens, 1), kv_dtype=kv_dtype) * copies
    return KvCapacity(budget, blocks * KV_BLOCK_TOKENS, blocks, math.floor(budget / per_request))
