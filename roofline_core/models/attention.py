"""Attention's own arithmetic and memory traffic, beside the weight matmuls.

The weight matmuls cost 2 FLOPs per parameter per token whatever the context; attention costs
grow with it. Per layer and sequence, with ``h`` query heads of width ``d``:

- **Decode** (one new token attends over ``T`` cached tokens): QKᵀ and AV are ``2 h d T``
  FLOPs each, ``4 h d T`` together; the traffic is reading the cached keys and values, which
  the KV cache already counts.
- **Absorbed MLA decode** (DeepSeek-V2, https://arxiv.org/abs/2405.04434, section 2.1.3): the
  up-projections are folded into the query and the output, so every head scores the cached
  latent of width ``d_c`` plus the rotary key of width ``d_r`` and mixes the latent:
  ``2 h (d_c + d_r) T + 2 h d_c T`` FLOPs over a cache of only ``(d_c + d_r)`` elements per
  token. That is several times multi-head attention's FLOPs per cached byte, so MLA decode
  can reach the compute roof at batch 1.
- **Causal prefill** of ``P`` tokens: token ``i`` attends over ``i`` tokens, about half the
  full ``P x P`` square, so ``2 h d P^2`` FLOPs (``4 h d`` per query-key pair over half the pairs).
- **Sliding-window layers** attend over at most ``W`` tokens, in decode and in prefill.
- **Hybrid models** attend only in their attention layers; a recurrent layer (linear attention,
  Mamba) spends a fixed number of FLOPs per token on its state whatever the context, and a
  prefill runs it chunk by chunk (:mod:`roofline_core.models.layer_kinds`).
- **Sparse attention** (DeepSeek's DSA) attends over at most ``top_k`` cached tokens, like a
  window, but its indexer scores every cached token: ``2 x index heads x index width`` FLOPs
  per query and cached token, so the indexer, not attention, grows with a long context.
- **Chunked layers** (Llama 4) attend within fixed chunks of ``C`` tokens: a new token reads
  the ``T mod C`` earlier tokens of its chunk, and a prefill is a causal square per chunk,
  ``C (C + 1) / 2`` pairs each, about half a sliding window's ``C`` per token.

Prefill traffic depends on the kernel. Unfused, the ``P x P`` score matrix of every head goes
to memory and back (written by QKᵀ, read and written by softmax, read by AV). A tiled kernel
(FlashAttention) keeps scores on chip. In FlashAttention-2's loop order
(https://arxiv.org/abs/2307.08691, algorithm 1) each block of ``B_r`` query rows streams the
keys and values it needs, so K and V are read once per query block, the re-reads the
FlashAttention paper's IO analysis counts (https://arxiv.org/abs/2205.14135, theorem 2).
Counted from HBM, that would hold fused attention to about ``B_r`` FLOPs per 16-bit byte,
below an H100's ridge, yet FlashAttention-3 measures up to 740 TFLOP/s in FP16 on an H100
(https://arxiv.org/abs/2407.08608, abstract), far above what that traffic would allow at its
memory bandwidth: the re-reads of query blocks running side by side are served by the L2
cache. The estimate therefore counts Q, K, V and O crossing memory once for a tiled kernel.

Standard library only.
"""

from __future__ import annotations

from dataclasses import dataclass

from roofline_core.hardware.dtypes import bytes_per_element
from roofline_core.models.model import MLA, AnyModel, Model

#: Query rows per tile of a FlashAttention-2 style kernel (its forward pass uses 64 or 128;
#: 128 is the common choice for head widths up to 128).
QUERY_BLOCK_ROWS = 128


@dataclass(frozen=True)
class AttentionCost:
    """FLOPs and memory traffic of attention over all layers, for a whole batch.

    Attributes:
        flops: Score and mixing FLOPs (QKᵀ, softmax excluded, AV), in FLOP.
        bytes_moved: Bytes read and written by attention, beyond what the KV cache accounts
            for: 0 in decode (the cache read is the traffic), Q, K, V, O and any score
            matrix traffic in prefill.
    """

    flops: float
    bytes_moved: float


def _has_attention_shape(model: AnyModel) -> bool:
    # A custom model gives only its KV shape, not its query heads: no attention arithmetic.
    return isinstance(model, Model)


def _decode_flops_per_cached_token(model: Model) -> float:
    """Attention FLOPs one new token spends per cached token per layer."""
    if model.attention == MLA:
        return 2.0 * model.heads * (2 * model.mla_latent_dim + model.mla_rope_dim)
    return 4.0 * model.heads * model.head_dim


def decode_attention_cost(model: AnyModel, *, context_tokens: int, batch: int = 1) -> AttentionCost:
    """Attention of one decode step: every sequence's new token over its ``context_tokens``.

    >>> from roofline_core.models.presets import MODELS
    >>> cost = decode_attention_cost(MODELS["llama-3.1-8b"], context_tokens=1000)
    >>> cost.flops == 32 * 4 * 32 * 128 * 1000
    True
    """
    if not _has_attention_shape(model):
        return AttentionCost(0.0, 0.0)
    assert isinstance(model, Model)
    recurrent = model.recurrent_layers * model.recurrent.decode_flops() if model.recurrent else 0.0
    ca = model.compressed_attention
    if ca is not None:
        # One shared key-value head: a score and a mix per query head per entry read.
        attended = ca.entries_read(context_tokens, model.attention_layers)
        flops = 4.0 * model.heads * ca.entry_dim * attended + ca.indexer_decode_flops(context_tokens) + recurrent
        return AttentionCost(flops * batch, 0.0)
    full_layers = model.attention_layers - model.sliding_layers
    local = model.local_tokens_read(context_tokens) if model.sliding_layers else 0
    sparse = model.sparse_attention
    per_full_layer = sparse.attended(context_tokens) if sparse else context_tokens
    per_token = _decode_flops_per_cached_token(model)
    # Full-attention layers may have heads of their own width (Gemma 4's 512 against 256).
    per_full_token = per_token * model.full_layer_head_dim / model.head_dim if model.attention != MLA else per_token
    flops = full_layers * per_full_layer * per_full_token + model.sliding_layers * local * per_token + recurrent
    if sparse:
        flops += full_layers * sparse.indexer_flops_per_cached_token() * context_tokens
    return AttentionCost(flops * batch, 0.0)


def _chunked_pairs(prompt_tokens: int, chunk: int) -> float:
    """Query-key pairs of causal attention within chunks of ``chunk`` tokens (Llama 4): every
    whole chunk is a causal square of its own, and the rest is a smaller one."""
    whole, rest = divmod(prompt_tokens, chunk)
    return whole * chunk * (chunk + 1) / 2 + rest * (rest + 1) / 2


def _causal_pairs(prompt_tokens: int, window: int) -> float:
    """Query-key pairs under a causal mask (token i sees i tokens, at most ``window``)."""
    p = prompt_tokens
    if not window or window >= p:
        return p * (p + 1) / 2
    # The first `window` tokens see 1..window; the rest see exactly `window`.
    return window * (window + 1) / 2 + (p - window) * window


def prefill_attention_cost(
    model: AnyModel, *, prompt_tokens: int, batch: int = 1, act_dtype: str = "fp16", tiled: bool = True
) -> AttentionCost:
    """Attention of a causal prefill of ``prompt_tokens`` per sequence.

    MLA models are counted in their prefill form, which engines run like multi-head attention
    on the decompressed keys (``head_dim + rope`` wide) and values.

    Args:
        act_dtype: Format of the activations and scores crossing memory.
        tiled: A FlashAttention-style kernel (scores stay on chip) if True; otherwise the
            unfused form that writes the score matrix.
    """
    if not _has_attention_shape(model) or prompt_tokens == 0:
        return AttentionCost(0.0, 0.0)
    assert isinstance(model, Model)
    recurrent = AttentionCost(0.0, 0.0)
    if model.recurrent is not None:
        # Chunked scan: linear in the prompt; its traffic is the layer's activations, which the
        # weight matmuls around it already move, so only FLOPs are added.
        recurrent = AttentionCost(
            model.recurrent_layers * model.recurrent.prefill_flops_per_token() * prompt_tokens * batch, 0.0
        )
    if not model.attention_layers:
        return recurrent
    bpe = bytes_per_element(act_dtype)
    ca = model.compressed_attention
    if ca is not None:
        attended, scored = ca.prefill_pairs(prompt_tokens, model.attention_layers)
        flops = 4.0 * model.heads * ca.entry_dim * attended + ca.indexer.indexer_flops_per_cached_token() * scored
        # Q in and O out per query head, the one entry per token once; untiled, the scores too.
        io = prompt_tokens * (2 * model.heads + 1) * ca.entry_dim * model.attention_layers
        scores = 0.0 if tiled else 4.0 * model.heads * attended
        return AttentionCost(flops * batch + recurrent.flops, (io + scores) * bpe * batch)
    if model.attention == MLA:
        qk_dim, v_dim, kv_heads = (
            model.head_dim + model.mla_rope_dim,
            model.mla_v_head_dim or model.head_dim,
            model.heads,
        )
    else:
        qk_dim, v_dim, kv_heads = model.head_dim, model.head_dim, model.kv_heads
    h, p = model.heads, prompt_tokens
    flops = 0.0
    traffic = 0.0
    sparse = model.sparse_attention
    sliding_shape = (qk_dim, v_dim, kv_heads)
    for sliding in (False, True):
        layers = model.sliding_layers if sliding else model.attention_layers - model.sliding_layers
        if layers == 0:
            continue
        qk_dim, v_dim, kv_heads = sliding_shape
        if not sliding and model.attention != MLA:
            # Full-attention layers in their own shape (Gemma 4), else the same as the rest.
            qk_dim = v_dim = model.full_layer_head_dim
            kv_heads = model.full_layer_kv_heads
        window = model.sliding_window if sliding else (sparse.top_k if sparse else 0)
        pairs = _chunked_pairs(p, window) if sliding and model.chunked_attention else _causal_pairs(p, window)
        if sparse and not sliding:
            # Every query's indexer scores all the tokens before it; attention then reads top_k.
            flops += layers * sparse.indexer_flops_per_cached_token() * _causal_pairs(p, 0)
        flops += layers * 2.0 * h * (qk_dim + v_dim) * pairs
        io = p * h * (qk_dim + v_dim)  # Q in, O out, once
        kv_once = p * kv_heads * (qk_dim + v_dim)
        if tiled:
            traffic += layers * (io + kv_once) * bpe
        else:
            # QK^T writes the scores, softmax reads and writes them, AV reads them.
            traffic += layers * (io + kv_once + 4.0 * h * p * p) * bpe
    return AttentionCost(flops * batch + recurrent.flops, traffic * batch)
