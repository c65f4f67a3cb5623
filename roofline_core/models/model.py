"""The model type: a transformer decoder's architecture, and its parameter counts derived.

Parameter counts are computed from the architecture, never typed in, and checked in the tests
against the totals the model cards state (for example 6.74B for Llama 2 7B, 46.7B total and
12.9B active for Mixtral 8x7B, 671B total and 37B active for DeepSeek-V3).

Three counts matter for inference:

* ``total_params``: everything that must sit in memory (all experts of an MoE model).
* ``active_params_per_token``: what one token touches, the figure model cards quote.
* ``streamed_params_per_token``: what one decode step reads from memory per token: the active
  parameters less the input embedding table, of which only one row per token is gathered. This
  is the ``params`` of :func:`roofline_core.estimates.inference.decode_step`.

This module imports neither the config importer nor the presets, which are built on it
(:mod:`roofline_core.models.hf_config`, :mod:`roofline_core.models.presets`): that keeps the imports one-way.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from roofline_core.hardware.block_formats import BLOCK_FORMATS
from roofline_core.hardware.dtypes import bytes_per_element
from roofline_core.models.layer_kinds import CompressedAttention, RecurrentMixer, SparseAttention
from roofline_core.models.quantisation import (
    ATTENTION,
    EMBEDDING,
    EXPERTS,
    LINEAR_PARTS,
    LM_HEAD,
    MLP,
    SIXTEEN_BIT,
    WeightQuantisation,
)
from roofline_core.roofline import _require_positive
from roofline_core.sources import Source

MHA = "mha"
GQA = "gqa"
MLA = "mla"
ATTENTION_KINDS = (MHA, GQA, MLA)


@dataclass(frozen=True)
class Model:
    """A transformer decoder's architecture.

    All models here use a gated (SwiGLU) MLP: three ``hidden x ffn`` matrices per MLP.

    Attributes:
        slug: Stable identifier (``"llama-3-8b"``).
        name: Display name.
        layers: Decoder layers.
        hidden_size: Model width (``d_model``).
        heads: Query heads.
        kv_heads: Key/value heads (equal to ``heads`` for MHA, fewer for GQA).
        head_dim: Width of one query/key head.
        ffn_size: Width of a dense MLP.
        vocab_size: Vocabulary size.
        tied_embeddings: Whether the output head reuses the input embedding matrix.
        attention: ``"mha"``, ``"gqa"`` or ``"mla"``.
        source: Where the architecture fields come from.
        mla_latent_dim: MLA only: width of the compressed KV latent that is cached per layer.
        mla_rope_dim: MLA only: width of the decoupled rotary key, cached beside the latent.
        mla_q_latent_dim: MLA only: width of the compressed query (0 = no query compression).
        mla_v_head_dim: MLA only: width of one value head.
        experts: MoE only: routed experts per MoE layer (0 for a dense model).
        experts_per_token: MoE only: routed experts each token uses.
        shared_experts: MoE only: experts every token uses.
        moe_ffn_size: MoE only: width of one expert's MLP.
        dense_layers: MoE only: layers that keep a dense MLP of ``ffn_size`` (leading ones in
            DeepSeek, every other one in Llama 4 Maverick; only the count matters here).
        shared_expert_ffn_size: MoE only: width of a shared expert's MLP (0 = ``moe_ffn_size``).
        sliding_window: Tokens a sliding-window (or chunked) attention layer attends over at
            most (0 = no such layers).
        sliding_layers: How many of the layers attend over at most ``sliding_window`` tokens;
            the others attend over the whole context.
        qkv_bias: Whether the query, key and value projections carry biases (Qwen2, gpt-oss).
        out_bias: Whether the attention output projection carries a bias (gpt-oss).
        family: Model family for grouping in lists (``"Llama"``, ``"Qwen"``).
        recurrent: Hybrid models only: the token mixer of the layers that keep a fixed-size state
            instead of a KV cache (linear attention or Mamba, :mod:`roofline_core.models.layer_kinds`).
        recurrent_layers: How many layers use ``recurrent``; the rest attend (unless mixer-free).
        parallel_hybrid: Whether every recurrent layer also attends, side by side (Falcon-H1),
            rather than in place of attention (Qwen3-Next, Nemotron-H, Jamba).
        mixer_free_layers: Blocks with no token mixer at all, only an MLP (Nemotron-H's ``-``
            and ``E`` blocks).
        mlp_free_layers: Blocks with no MLP, only a token mixer (Nemotron-H's ``M`` and ``*``).
        mlp_matrices: Weight matrices per MLP or expert: 3 for a gated (SwiGLU) MLP, 2 for a plain
            one (Nemotron-H's squared ReLU).
        attention_output_gate: Whether the query projection also yields a sigmoid gate on the
            attention output, doubling its width (Qwen3-Next's gated attention).
        sparse_attention: DeepSeek Sparse Attention's indexer and top-k (None for dense attention).
        chunked_attention: Whether the ``sliding_layers`` attend within fixed chunks of
            ``sliding_window`` tokens (Llama 4) rather than over a window that slides: a token
            sees only the earlier tokens of its own chunk, so the cache such a layer reads holds
            0 to ``sliding_window - 1`` earlier tokens, restarting at every chunk boundary.
        attention_sinks: Whether every attention layer has one learned sink logit per query
            head (gpt-oss): parameters, not cached tokens.
        mtp_layers: Multi-token-prediction modules (DeepSeek-V3, GLM-4.5, MiMo, MiniMax-M2):
            each one decoder layer of the model's kind plus a projection of the hidden state
            and the next token's embedding (``2 * hidden -> hidden``) and three norms; the
            embedding table and output head are the main model's. Their weights are held
            (:attr:`held_params`, :meth:`weight_bytes`) but read only when speculative decoding
            drafts with them, so they are neither in :attr:`total_params` (the publishers' counts
            leave them out: DeepSeek-V3's 671B is without its 14B module) nor streamed.
        global_head_dim: Head width of the full-attention layers where it differs from the
            sliding ones' (Gemma 4: 512 against 256); 0 = ``head_dim``.
        global_kv_heads: Key/value heads of the full-attention layers where they differ
            (Gemma 4: 4 against 16); 0 = ``kv_heads``.
        global_values_from_keys: Whether the full-attention layers have no value projection,
            their values being the key projection's output normed (Gemma 4's
            ``attention_k_eq_v``): one projection fewer, but keys and values are still cached.
        kv_shared_layers: Layers at the end of the stack that compute no keys or values of their
            own but attend over the cache of an earlier layer of their kind (Gemma 3n's
            ``num_kv_shared_layers``): they read a cache but hold none.
        kv_shared_sliding_layers: How many of ``kv_shared_layers`` are sliding-window layers.
        per_layer_embedding_params: A second embedding table that gives every layer a small
            input of its own per token (Gemma 3n's per-layer embeddings, ``vocab_size_per_layer_input
            x layers x hidden_size_per_layer_input``): held, and like the main table gathered one
            row per token, never streamed.
        auxiliary_params: Weights outside the blocks modelled above that every token still reads
            (Gemma 3n's AltUp projections and router, LAuReL's low-rank residual, the per-layer
            inputs' projections and their norms; DeepSeek-V4's hyper-connection mixing weights).
        compressed_attention: DeepSeek-V4's attention (None otherwise): every layer one shared
            key-value head over a window of recent tokens, most layers also over the context
            pooled 4 or 128 tokens to one entry (:class:`~roofline_core.models.layer_kinds.CompressedAttention`).
            It replaces the attention shape, the cache and the reads counted for other models;
            ``heads`` and ``head_dim`` are its query heads and its entry width.
        notes: Sentences about how the config was read (for a ``model_type`` this project does
            not know, which known layout read it).
        quantisation: What the config's ``quantization_config`` says about the stored weights
            (None for none). It refines the bytes of its own format: :meth:`weight_bytes` and
            :meth:`streamed_weight_bytes` in ``quantisation.weight_dtype`` count the quantised
            parts at its bytes per weight (scales included) and the rest at 16 bits. Any other
            format narrower than 16 bits applies to the linear layers only, as real quantised
            checkpoints do (see :meth:`part_format`).
    """

    slug: str
    name: str
    layers: int
    hidden_size: int
    heads: int
    kv_heads: int
    head_dim: int
    ffn_size: int
    vocab_size: int
    tied_embeddings: bool
    attention: str
    source: Source
    mla_latent_dim: int = 0
    mla_rope_dim: int = 0
    mla_q_latent_dim: int = 0
    mla_v_head_dim: int = 0
    experts: int = 0
    experts_per_token: int = 0
    shared_experts: int = 0
    moe_ffn_size: int = 0
    dense_layers: int = 0
    shared_expert_ffn_size: int = 0
    sliding_window: int = 0
    sliding_layers: int = 0
    qkv_bias: bool = False
    out_bias: bool = False
    family: str = ""
    quantisation: WeightQuantisation | None = None
    recurrent: RecurrentMixer | None = None
    recurrent_layers: int = 0
    parallel_hybrid: bool = False
    mixer_free_layers: int = 0
    mlp_free_layers: int = 0
    mlp_matrices: int = 3
    attention_output_gate: bool = False
    sparse_attention: SparseAttention | None = None
    chunked_attention: bool = False
    attention_sinks: bool = False
    mtp_layers: int = 0
    global_head_dim: int = 0
    global_kv_heads: int = 0
    global_values_from_keys: bool = False
    kv_shared_layers: int = 0
    kv_shared_sliding_layers: int = 0
    per_layer_embedding_params: int = 0
    auxiliary_params: int = 0
    compressed_attention: CompressedAttention | None = None
    notes: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.attention not in ATTENTION_KINDS:
            raise ValueError(f"{self.slug}: attention must be one of {ATTENTION_KINDS}, got {self.attention!r}")
        if self.attention == MHA and self.kv_heads != self.heads:
            raise ValueError(f"{self.slug}: MHA needs kv_heads == heads")
        if self.attention == GQA and not (0 < self.kv_heads < self.heads and self.heads % self.kv_heads == 0):
            raise ValueError(f"{self.slug}: GQA needs kv_heads to divide heads and be fewer")
        if self.attention == MLA and self.mla_latent_dim <= 0:
            raise ValueError(f"{self.slug}: MLA needs mla_latent_dim")
        if not 0 <= self.sliding_layers <= self.layers or (self.sliding_layers and self.sliding_window <= 0):
            raise ValueError(f"{self.slug}: sliding_layers must be 0..layers, with a positive sliding_window")
        if (self.recurrent is None) != (self.recurrent_layers == 0) or self.recurrent_layers < 0:
            raise ValueError(f"{self.slug}: recurrent layers need their mixer, and a mixer needs layers")
        if min(self.mixer_free_layers, self.mlp_free_layers) < 0 or self.mlp_matrices not in (2, 3):
            raise ValueError(f"{self.slug}: mixer_free_layers and mlp_free_layers must be >= 0, mlp_matrices 2 or 3")
        if not 0 <= self.sliding_layers <= self.attention_layers:
            raise ValueError(
                f"{self.slug}: {self.recurrent_layers} recurrent, {self.mixer_free_layers} mixer-free and "
                f"{self.sliding_layers} sliding layers do not fit in {self.layers} layers"
            )
        if self.chunked_attention and not self.sliding_layers:
            raise ValueError(f"{self.slug}: chunked_attention needs sliding_layers (the chunked ones)")
        if self.mtp_layers < 0:
            raise ValueError(f"{self.slug}: mtp_layers must be >= 0")
        if min(self.per_layer_embedding_params, self.auxiliary_params) < 0:
            raise ValueError(f"{self.slug}: per_layer_embedding_params and auxiliary_params must be >= 0")
        if not (
            0 <= self.kv_shared_sliding_layers <= min(self.kv_shared_layers, self.sliding_layers)
            and self.kv_shared_layers - self.kv_shared_sliding_layers <= self.attention_layers - self.sliding_layers
            and self.kv_shared_layers < self.attention_layers
        ):
            raise ValueError(
                f"{self.slug}: {self.kv_shared_layers} layers sharing an earlier cache "
                f"({self.kv_shared_sliding_layers} sliding) do not fit in {self.attention_layers} attention layers "
                "(at least one must hold its own)"
            )
        if self.global_kv_heads and self.heads % self.global_kv_heads:
            raise ValueError(f"{self.slug}: global_kv_heads must divide heads")
        if self.attention == MLA and (self.global_head_dim or self.global_kv_heads or self.global_values_from_keys):
            raise ValueError(f"{self.slug}: a separate full-attention shape needs MHA or GQA")
        ca = self.compressed_attention
        if ca is not None and (
            ca.compressed_layers > self.attention_layers or self.sliding_layers or self.sparse_attention is not None
        ):
            raise ValueError(
                f"{self.slug}: compressed attention needs its {ca.compressed_layers} compressed layers within "
                f"{self.attention_layers} attention layers, and no other sliding or sparse layers"
            )

    # Parameter counts -------------------------------------------------------------------

    @property
    def is_moe(self) -> bool:
        return self.experts > 0

    @property
    def embedding_params(self) -> int:
        """Input embedding table."""
        return self.vocab_size * self.hidden_size

    @property
    def output_head_params(self) -> int:
        """Output projection to the vocabulary (counted once more only if untied)."""
        return 0 if self.tied_embeddings else self.vocab_size * self.hidden_size

    @property
    def attention_layers(self) -> int:
        """Layers that attend and so keep a KV cache: all of them, less the recurrent layers (unless
        they run beside attention, as in Falcon-H1) and the MLP-only blocks."""
        recurrent = 0 if self.parallel_hybrid else self.recurrent_layers
        return self.layers - self.mixer_free_layers - recurrent

    @property
    def mixer_params(self) -> int:
        """Weights of every layer's token mixer: the attention layers (with any sparse-attention
        indexer) and the recurrent layers."""
        attention = self.attention_params
        if self.compressed_attention is not None:
            attention += self.compressed_attention.params(self.hidden_size)
        if self.sparse_attention is not None:
            attention += self.attention_layers * self.sparse_attention.params(self.hidden_size, self.mla_q_latent_dim)
        if self.recurrent is not None:
            attention += self.recurrent_layers * self.recurrent.params(self.hidden_size)
        return attention

    @property
    def attention_params_per_layer(self) -> int:
        h = self.hidden_size
        if self.compressed_attention is not None:
            return self.compressed_attention.attention_params(h, self.heads)
        if self.attention == MLA:
            q_head = self.head_dim + self.mla_rope_dim
            if self.mla_q_latent_dim:
                q = h * self.mla_q_latent_dim + self.mla_q_latent_dim + self.mla_q_latent_dim * self.heads * q_head
            else:
                q = h * self.heads * q_head
            kv_down = h * (self.mla_latent_dim + self.mla_rope_dim) + self.mla_latent_dim
            kv_up = self.mla_latent_dim * self.heads * (self.head_dim + self.mla_v_head_dim)
            out = self.heads * self.mla_v_head_dim * h
            return q + kv_down + kv_up + out
        return self._gqa_params(self.kv_heads, self.head_dim, values=True)

    def _gqa_params(self, kv_heads: int, head_dim: int, *, values: bool) -> int:
        """One MHA/GQA layer's parameters with ``kv_heads`` heads of ``head_dim`` (and a value
        projection unless ``values`` is False)."""
        h = self.hidden_size
        kv_projections = 2 if values else 1
        # A gated attention's query projection also yields the output gate: twice as wide.
        q_and_out = (3 if self.attention_output_gate else 2) * h * self.heads * head_dim
        k_and_v = kv_projections * h * kv_heads * head_dim
        biases = (self.heads + kv_projections * kv_heads) * head_dim if self.qkv_bias else 0
        biases += h if self.out_bias else 0
        # gpt-oss: one learned sink logit per query head (https://arxiv.org/abs/2508.10925, 2.1).
        sinks = self.heads if self.attention_sinks else 0
        return q_and_out + k_and_v + biases + sinks

    @property
    def has_global_shape(self) -> bool:
        """Whether the full-attention layers have their own head width, KV heads or no value
        projection (Gemma 4)."""
        return bool(self.global_head_dim or self.global_kv_heads or self.global_values_from_keys)

    @property
    def full_layer_head_dim(self) -> int:
        """Head width of a full-attention layer."""
        return self.global_head_dim or self.head_dim

    @property
    def full_layer_kv_heads(self) -> int:
        """Key/value heads of a full-attention layer."""
        return self.global_kv_heads or self.kv_heads

    @property
    def attention_params(self) -> int:
        """Attention parameters over the attention layers (full-attention layers in their own shape)."""
        if not self.has_global_shape:
            return self.attention_layers * self.attention_params_per_layer
        full = self._gqa_params(
            self.full_layer_kv_heads, self.full_layer_head_dim, values=not self.global_values_from_keys
        )
        return (
            self.sliding_layers * self.attention_params_per_layer + (self.attention_layers - self.sliding_layers) * full
        )

    def _mlp_params(self, width: int) -> int:
        return self.mlp_matrices * self.hidden_size * width

    @property
    def _norm_params(self) -> int:
        # Two RMSNorms per layer and a final one.
        return (2 * self.layers + 1) * self.hidden_size

    @property
    def moe_layers(self) -> int:
        """Layers whose MLP is a mixture of experts (0 for a dense model)."""
        return self.layers - self.mlp_free_layers - self.dense_layers if self.is_moe else 0

    @property
    def expert_params(self) -> int:
        """Parameters of one routed expert's MLP in one layer (0 for a dense model)."""
        return self._mlp_params(self.moe_ffn_size) if self.is_moe else 0

    def _mlp_params_all_layers(self, experts_used: int) -> int:
        dense = (self.layers - self.mlp_free_layers - self.moe_layers) * self._mlp_params(self.ffn_size)
        if not self.is_moe:
            return dense
        router = self.hidden_size * self.experts
        shared = self.shared_experts * self._mlp_params(self.shared_expert_ffn_size or self.moe_ffn_size)
        per_moe_layer = experts_used * self.expert_params + shared + router
        return dense + self.moe_layers * per_moe_layer

    @property
    def total_params(self) -> int:
        """Every parameter, all experts included: what must fit in memory."""
        return (
            self.embedding_params
            + self.per_layer_embedding_params
            + self.output_head_params
            + self.mixer_params
            + self._mlp_params_all_layers(self.experts)
            + self._norm_params
            + self.auxiliary_params
        )

    def _mtp_module_params(self, experts_used: int) -> int:
        """One multi-token-prediction module with ``experts_used`` routed experts: a decoder layer
        like the last one (a MoE layer for a MoE model), the projection of ``[hidden; embedding]``
        back to the width, and its three norms (DeepSeek-V3, https://arxiv.org/abs/2412.19437,
        section 2.2: the embedding and output head are shared with the main model)."""
        h = self.hidden_size
        if self.is_moe:
            shared = self.shared_experts * self._mlp_params(self.shared_expert_ffn_size or self.moe_ffn_size)
            mlp = experts_used * self.expert_params + shared + h * self.experts
        else:
            mlp = self._mlp_params(self.ffn_size)
        return self.attention_params_per_layer + mlp + 2 * h + 2 * h * h + 3 * h

    @property
    def mtp_params(self) -> int:
        """Parameters of the multi-token-prediction modules, all experts (0 without them)."""
        return self.mtp_layers * self._mtp_module_params(self.experts)

    @property
    def mtp_streamed_params_per_draft(self) -> int:
        """Parameters one draft token of the first MTP module reads: its layer with the routed
        experts a token uses, and the shared output head once more (0 without MTP)."""
        if not self.mtp_layers:
            return 0
        return self._mtp_module_params(self.experts_per_token) + self.vocab_size * self.hidden_size

    @property
    def held_params(self) -> int:
        """Every parameter the weights hold: :attr:`total_params` and the MTP modules."""
        return self.total_params + self.mtp_params

    @property
    def streamed_params_per_token(self) -> int:
        """Parameters one decode step reads per token: linear layers, norms and the output head.

        The input embedding is excluded (one row is gathered per token); a tied output head
        still counts, because the whole matrix is multiplied.
        """
        head = self.vocab_size * self.hidden_size  # tied or not, the head matrix is read
        return (
            head
            + self.mixer_params
            + self._mlp_params_all_layers(self.experts_per_token)
            + self._norm_params
            + self.auxiliary_params
        )

    @property
    def active_params_per_token(self) -> int:
        """Parameters one token uses, embedding tables included (a row of each is gathered; Gemma
        3n's per-layer table too): the model card's "active" figure."""
        embedding = 0 if self.tied_embeddings else self.embedding_params
        return self.streamed_params_per_token + embedding + self.per_layer_embedding_params

    # KV cache ---------------------------------------------------------------------------

    @property
    def kv_cache_known(self) -> bool:
        """Always True: a preset's architecture fixes its KV cache (see :class:`CustomModel`)."""
        return True

    @property
    def cached_sliding_layers(self) -> int:
        """Sliding (or chunked) layers that hold a cache of their own."""
        return self.sliding_layers - self.kv_shared_sliding_layers

    @property
    def cached_full_layers(self) -> int:
        """Full-attention layers that hold a cache of their own (not sharing an earlier one's)."""
        return self.attention_layers - self.sliding_layers - (self.kv_shared_layers - self.kv_shared_sliding_layers)

    @property
    def kv_elements_per_token(self) -> int:
        """Cached elements per token over the attention layers that hold a cache (keys and
        values, or the MLA latent). Recurrent layers cache nothing per token; their fixed state is
        :meth:`state_bytes_per_sequence`; layers sharing an earlier layer's cache add nothing."""
        ca = self.compressed_attention
        if ca is not None:
            # A token in the window, and its share of the entries it will be pooled into.
            return self.attention_layers * ca.entry_dim + (ca.csa_layers / 4 + ca.hca_layers / 128) * ca.entry_dim
        full, sliding = self._kv_elements_per_layer()
        return self.cached_full_layers * full + self.cached_sliding_layers * sliding

    def _kv_elements_per_layer(self) -> tuple[int, int]:
        """Cached elements per token of one full-attention layer and of one sliding layer."""
        if self.attention == MLA:
            latent = self.mla_latent_dim + self.mla_rope_dim
            return latent, latent
        return 2 * self.full_layer_kv_heads * self.full_layer_head_dim, 2 * self.kv_heads * self.head_dim

    def kv_bytes_per_token(self, kv_dtype: str = "fp16") -> float:
        """KV-cache bytes one token adds while every attention layer still holds it, in bytes.

        For a model with sliding-window layers this is the cost of a token within the window;
        beyond it, use :meth:`kv_cache_bytes`, which caps those layers. A sparse-attention model
        adds its indexer's key (FP8, whatever ``kv_dtype``) in every attention layer.
        """
        indexer = self.sparse_attention.key_bytes_per_token * self.cached_full_layers if self.sparse_attention else 0.0
        ca = self.compressed_attention
        if ca is not None:
            indexer = ca.csa_layers * ca.indexer.key_bytes_per_token / 4
        return self.kv_elements_per_token * bytes_per_element(kv_dtype) + indexer

    @property
    def state_bytes_per_sequence(self) -> float:
        """Fixed bytes one sequence holds whatever its length: the recurrent state and convolution
        state of every recurrent layer, in bytes (0 for a model that only attends)."""
        compressors = self.compressed_attention.state_bytes if self.compressed_attention is not None else 0.0
        if self.recurrent is None:
            return compressors
        return self.recurrent_layers * self.recurrent.state_bytes() + compressors

    def growing_kv_cache_bytes(self, *, context_tokens: int, batch: int = 1, kv_dtype: str = "fp16") -> float:
        """The part of :meth:`kv_cache_bytes` that grows with the context: the attention layers'
        KV cache (sliding layers capped at their window), in bytes."""
        if self.compressed_attention is not None:
            return batch * self.compressed_attention.held_bytes(
                context_tokens=context_tokens,
                attention_layers=self.attention_layers,
                kv_dtype_bytes=bytes_per_element(kv_dtype),
            )
        local = min(context_tokens, self.sliding_window) if self.sliding_layers else 0
        return self._growing_bytes(
            full_tokens=context_tokens, local_tokens=local, batch=batch, kv_dtype=kv_dtype, held=True
        )

    def kv_cache_bytes(self, *, context_tokens: int, batch: int = 1, kv_dtype: str = "fp16") -> float:
        """Cache memory of ``batch`` sequences of ``context_tokens`` tokens each, in bytes.

        Full-attention layers cache every token; sliding-window (and chunked) layers at most
        ``sliding_window`` of them, as the engines that serve Gemma 2/3, gpt-oss and Llama 4
        allocate them. For chunked layers this is the most a sequence that has reached
        ``context_tokens`` has held (a full chunk), which is what memory must allow; what a
        decode step reads is :meth:`kv_read_bytes`. A hybrid model adds the fixed state of its
        recurrent layers for every sequence (:attr:`state_bytes_per_sequence`, in its own format
        whatever ``kv_dtype``), which does not grow: only the attention layers' share grows.
        """
        growing = self.growing_kv_cache_bytes(context_tokens=context_tokens, batch=batch, kv_dtype=kv_dtype)
        return growing + self.state_bytes_per_sequence * batch

    def _growing_bytes(
        self, *, full_tokens: float, local_tokens: float, batch: int, kv_dtype: str, held: bool = False
    ) -> float:
        """Bytes the attention layers hold (``held``: only the layers with a cache of their own)
        or read (every attention layer, a sharing one reading the cache it shares) with
        ``full_tokens`` in each full-attention layer and ``local_tokens`` in each sliding or
        chunked one, plus any indexer keys."""
        full_layer, sliding_layer = self._kv_elements_per_layer()
        if held:
            full, sliding = self.cached_full_layers, self.cached_sliding_layers
        else:
            full, sliding = self.attention_layers - self.sliding_layers, self.sliding_layers
        elements = full * full_layer * full_tokens + sliding * sliding_layer * local_tokens
        indexer = self.sparse_attention.key_bytes_per_token * full * full_tokens if self.sparse_attention else 0.0
        return (elements * bytes_per_element(kv_dtype) + indexer) * batch

    def local_tokens_read(self, context_tokens: int) -> int:
        """Cached tokens a new token reads in each sliding or chunked layer, after ``context_tokens``.

        A sliding window reads the last ``min(context, window)``; a chunked layer reads the
        earlier tokens of the new token's own chunk, ``context mod chunk`` (0 to ``chunk - 1``:
        the token after a full chunk starts the next one and sees only itself).
        """
        if self.chunked_attention:
            return context_tokens % self.sliding_window
        return min(context_tokens, self.sliding_window)

    def kv_read_bytes(self, *, context_tokens: int, batch: int = 1, kv_dtype: str = "fp16") -> float:
        """Cache bytes one decode step reads (and writes back) for ``batch`` sequences of
        ``context_tokens`` cached tokens each, in bytes.

        The whole KV cache of dense attention, except that chunked layers (Llama 4) read only
        the new token's chunk so far (:meth:`local_tokens_read`). Sparse attention reads every
        token's indexer key but the latent of only ``top_k`` tokens per layer. A recurrent layer
        reads its state and writes it back, every step, whatever the context.
        """
        ca = self.compressed_attention
        if ca is not None:
            read = ca.read_bytes(
                context_tokens=context_tokens,
                attention_layers=self.attention_layers,
                kv_dtype_bytes=bytes_per_element(kv_dtype),
            )
            return (read + ca.state_traffic_bytes) * batch
        local = self.local_tokens_read(context_tokens) if self.sliding_layers else 0
        sparse = self.sparse_attention
        if sparse is None:
            growing = self._growing_bytes(
                full_tokens=context_tokens, local_tokens=local, batch=batch, kv_dtype=kv_dtype
            )
        else:
            indexer = sparse.key_bytes_per_token * (self.attention_layers - self.sliding_layers) * context_tokens
            latents = self._growing_bytes(
                full_tokens=sparse.attended(context_tokens), local_tokens=local, batch=1, kv_dtype=kv_dtype
            ) - sparse.key_bytes_per_token * (self.attention_layers - self.sliding_layers) * sparse.attended(
                context_tokens
            )
            growing = (latents + indexer) * batch
        return growing + 2 * self.state_bytes_per_sequence * batch

    def decode_cache_read_bytes(self, *, context_tokens: int, batch: int = 1, kv_dtype: str = "fp16") -> float:
        """The same as :meth:`kv_read_bytes` (the name this module's hybrid support first used)."""
        return self.kv_read_bytes(context_tokens=context_tokens, batch=batch, kv_dtype=kv_dtype)

    def context_for_kv_bytes(self, *, kv_bytes: float, batch: int = 1, kv_dtype: str = "fp16") -> float:
        """Longest context (fractional tokens) whose cache for ``batch`` sequences fits ``kv_bytes``.

        The inverse of :meth:`kv_cache_bytes`: the fixed state of a hybrid model's recurrent
        layers comes off first (0 if even that does not fit); then linear in the context while
        every attention layer grows, then growing with the full-attention layers only. Infinite
        if no layer grows and the fixed part fits.
        """
        kv_bytes = kv_bytes - self.state_bytes_per_sequence * batch
        if kv_bytes < 0:
            return 0.0
        if self.compressed_attention is not None:
            return self._compressed_context_for(kv_bytes=kv_bytes, batch=batch, kv_dtype=kv_dtype)
        per_token_all = self.kv_bytes_per_token(kv_dtype) * batch
        if per_token_all == 0:
            return math.inf
        if not self.sliding_layers:
            return kv_bytes / per_token_all
        window = self.sliding_window
        at_window = per_token_all * window
        if kv_bytes <= at_window:
            return kv_bytes / per_token_all
        full_layer, _ = self._kv_elements_per_layer()
        indexer = self.sparse_attention.key_bytes_per_token if self.sparse_attention else 0.0
        per_token_full = self.cached_full_layers * (full_layer * bytes_per_element(kv_dtype) + indexer) * batch
        if per_token_full == 0:
            return math.inf
        return window + (kv_bytes - at_window) / per_token_full

    def _compressed_context_for(self, *, kv_bytes: float, batch: int, kv_dtype: str) -> float:
        """The longest whole context whose growing cache fits ``kv_bytes`` (compressed attention
        grows in steps, one entry per finished window, so the answer is a whole token count)."""

        def held(tokens: int) -> float:
            return self.growing_kv_cache_bytes(context_tokens=tokens, batch=batch, kv_dtype=kv_dtype)

        ca = self.compressed_attention
        assert ca is not None
        if not ca.compressed_layers:
            return math.inf if held(ca.window) <= kv_bytes else float(self._last_fitting(held, kv_bytes, ca.window))
        high = max(ca.window, 1)
        while held(high) <= kv_bytes:
            high *= 2
        return float(self._last_fitting(held, kv_bytes, high))

    @staticmethod
    def _last_fitting(held: Callable[[int], float], kv_bytes: float, high: int) -> int:
        """The largest ``t`` in ``0..high`` with ``held(t) <= kv_bytes`` (``held`` non-decreasing)."""
        low = 0
        while low < high:
            mid = (low + high + 1) // 2
            if held(mid) <= kv_bytes:
                low = mid
            else:
                high = mid - 1
        return low

    # Weights in bytes, by part ------------------------------------------------------------

    def weight_parts(self, *, experts_used: float | None = None, streamed: bool = False) -> dict[str, float]:
        """Parameters by part (the parts a ``quantization_config`` names), with ``experts_used``
        routed experts per MoE layer (default: all of them) and, for ``streamed``, what a decode
        step reads (the output head whether tied or not, no embedding table).

        The parts add up to :attr:`held_params` (:attr:`total_params` and any MTP modules) or,
        streamed with ``experts_per_token``, to :attr:`streamed_params_per_token`. ``"sixteen_bit"`` holds the norms and MoE routers,
        which every method here leaves in the model's dtype.
        """
        used = self.experts if experts_used is None else experts_used
        dense = (self.layers - self.mlp_free_layers - self.moe_layers) * self._mlp_params(self.ffn_size)
        shared = self.shared_experts * self._mlp_params(self.shared_expert_ffn_size or self.moe_ffn_size)
        parts = {
            EMBEDDING: 0 if streamed else self.embedding_params + self.per_layer_embedding_params,
            LM_HEAD: self.vocab_size * self.hidden_size if streamed else self.output_head_params,
            ATTENTION: self.mixer_params,
            # Gemma 3n's auxiliary weights are linear layers, quantised as the MLPs are.
            MLP: dense + self.moe_layers * shared + self.auxiliary_params,
            EXPERTS: self.moe_layers * used * self.expert_params,
            SIXTEEN_BIT: self._norm_params + (self.moe_layers * self.hidden_size * self.experts if self.is_moe else 0),
        }
        if self.mtp_layers and not streamed:
            # Held, never streamed: each module's layer, its 2h x h projection (a linear layer,
            # stored like the dense MLPs) and its norms and router.
            n, h = self.mtp_layers, self.hidden_size
            parts[ATTENTION] += n * self.attention_params_per_layer
            if self.is_moe:
                parts[MLP] += n * (shared + 2 * h * h)
                parts[EXPERTS] += n * used * self.expert_params
                parts[SIXTEEN_BIT] += n * (5 * h + h * self.experts)
            else:
                parts[MLP] += n * (self._mlp_params(self.ffn_size) + 2 * h * h)
                parts[SIXTEEN_BIT] += n * 5 * h
        return parts

    def part_format(self, part: str, weight_dtype: str) -> tuple[str, float]:
        """The format one part of the weights (a key of :meth:`weight_parts`) is stored in when the
        model's weights are in ``weight_dtype``, and the bytes one of its weights takes.

        The config's ``quantization_config`` decides for its own format. Without one, a format
        narrower than 16 bits applies to the linear layers of the decoder blocks only: quantised
        checkpoints keep the input embedding (a table lookup, not a matrix product), the norms
        and MoE routers in 16 bits, and nearly always the output head too. AWQ and GPTQ leave
        ``lm_head`` unquantised (AutoAWQ's ``modules_to_not_convert``, GPTQModel's
        ``lm_head=False`` default), and llm-compressor's FP8 and W4A16 recipes list
        ``ignore=["lm_head"]`` (https://github.com/vllm-project/llm-compressor/tree/main/examples).
        So a W4A16 Llama 3.1 8B is about 5.7 GB, not the 4 GB that four bits of every weight give.
        GGUF formats are the exception: llama.cpp quantises every tensor
        (:attr:`~roofline_core.hardware.block_formats.BlockFormat.whole_file`). A file that lists
        every tensor's type (a GGUF header, :mod:`roofline_core.models.gguf`) gives each part's
        exact stored bytes instead (:attr:`WeightQuantisation.part_bytes`).
        """
        q = self.quantisation
        if q is not None and q.weight_dtype == weight_dtype:
            if q.part_bytes:
                return weight_dtype, self._stored_bytes_per_weight(part, dict(q.part_bytes))
            if part in q.quantised_parts:
                return weight_dtype, q.bytes_per_weight
            return q.unquantised_dtype, bytes_per_element(q.unquantised_dtype)
        size = bytes_per_element(weight_dtype)
        block = BLOCK_FORMATS.get(weight_dtype)
        if size < 2 and part not in LINEAR_PARTS and not (block is not None and block.whole_file):
            sixteen = q.unquantised_dtype if q is not None else "bf16"
            return sixteen, bytes_per_element(sixteen)
        return weight_dtype, size

    def _stored_bytes_per_weight(self, part: str, stored: dict[str, int]) -> float:
        """Bytes per weight of ``part`` from the exact stored bytes the quantisation carries: the
        part's bytes over the part's parameters, so counting the part's parameters (all experts
        or some, the head streamed or not) gives the file's own bytes for it. A tied output head
        is the embedding matrix, read at the embedding's bytes."""
        if part == LM_HEAD and self.tied_embeddings:
            part = EMBEDDING
        params = self.weight_parts()[part]
        return stored.get(part, 0) / params if params else 0.0

    def _bytes(self, parts: dict[str, float], weight_dtype: str) -> float:
        return sum(n * self.part_format(part, weight_dtype)[1] for part, n in parts.items())

    def _parts_decide(self, weight_dtype: str) -> bool:
        """Whether parts are stored in different formats (else every weight is ``weight_dtype``)."""
        q = self.quantisation
        return (q is not None and q.weight_dtype == weight_dtype) or bytes_per_element(weight_dtype) < 2

    def attention_weight_bytes(self, weight_dtype: str = "fp16") -> float:
        """Bytes of the attention layers' weights in ``weight_dtype``, in bytes (in their own
        format, :meth:`part_format`): what each device holds whole under data-parallel attention."""
        return self._bytes({ATTENTION: self.mixer_params}, weight_dtype)

    def weight_bytes(self, weight_dtype: str = "fp16") -> float:
        """Bytes to hold every weight in ``weight_dtype`` (MTP modules included), in bytes, each
        part in its own format (:meth:`part_format`)."""
        if not self._parts_decide(weight_dtype):
            return self.held_params * bytes_per_element(weight_dtype)
        return self._bytes(self.weight_parts(), weight_dtype)

    def streamed_weight_bytes(self, weight_dtype: str = "fp16", *, experts_used: float | None = None) -> float:
        """Bytes of the weights one decode step reads, ``experts_used`` routed experts per MoE
        layer (default ``experts_per_token``), in bytes, each part in its own format
        (:meth:`part_format`: the output head of a 4- or 8-bit model is read in 16 bits)."""
        used = self.experts_per_token if experts_used is None else experts_used
        if not self._parts_decide(weight_dtype):
            extra = (used - self.experts_per_token) * self.expert_params * self.moe_layers
            return (self.streamed_params_per_token + extra) * bytes_per_element(weight_dtype)
        return self._bytes(self.weight_parts(experts_used=used, streamed=True), weight_dtype)


@dataclass(frozen=True)
class CustomModel:
    """A model known by its numbers rather than a published config (the calculators' "Custom").

    It has the interface of :class:`Model` that the estimates use, so :func:`estimate_decode`,
    :func:`estimate_prefill` and :func:`memory_fit` in :mod:`roofline_core.estimates.inference` take either.
    It has no expert structure: a decode step reads ``streamed_params_per_token`` whatever the
    batch, and prefill reads those weights once (for a mixture of experts, give the active
    parameters and set ``total_params`` to all of them for the memory fit).

    The KV cache is known from one of: ``layers`` with ``kv_heads`` and ``head_dim`` (MHA or
    GQA); ``layers`` with ``mla_latent_dim`` (and ``mla_rope_dim``) for MLA; or
    ``kv_elements_per_token`` directly (bytes per token divided by the cache format's bytes per
    element). With none of them, :attr:`kv_cache_known` is False and only a context of 0 tokens
    can be estimated.

    Attributes:
        streamed_params_per_token: Parameters one decode step reads per token.
        total_params: Parameters held in memory; defaults to ``streamed_params_per_token``.
        attention: ``"mha"``, ``"gqa"`` or ``"mla"`` (which KV shape applies).
        layers: Decoder layers (0 = unknown).
        kv_heads: Key/value heads per layer (MHA/GQA).
        head_dim: Width of one head (MHA/GQA).
        mla_latent_dim: MLA: width of the cached latent per layer.
        mla_rope_dim: MLA: width of the decoupled rotary key cached beside it.
        kv_elements_per_token: Cached elements per token over all layers, when the shape is not
            given.
        name: Display name.
    """

    streamed_params_per_token: float
    total_params: float | None = None  # type: ignore[assignment]  # filled in __post_init__
    attention: str = GQA
    layers: int = 0
    kv_heads: int = 0
    head_dim: int = 0
    mla_latent_dim: int = 0
    mla_rope_dim: int = 0
    kv_elements_per_token: float | None = None  # type: ignore[assignment]  # filled in __post_init__
    name: str = "Custom model"

    def __post_init__(self) -> None:
        _require_positive("streamed_params_per_token", self.streamed_params_per_token)
        if self.total_params is None:
            object.__setattr__(self, "total_params", self.streamed_params_per_token)
        _require_positive("total_params", self.total_params)
        if self.total_params < self.streamed_params_per_token:
            raise ValueError(
                f"{self.name}: total_params ({self.total_params:g}) must be at least "
                f"streamed_params_per_token ({self.streamed_params_per_token:g})"
            )
        if self.attention not in ATTENTION_KINDS:
            raise ValueError(f"{self.name}: attention must be one of {ATTENTION_KINDS}, got {self.attention!r}")
        shape = self._shape_elements_per_token()
        if shape is not None and self.kv_elements_per_token is not None:
            raise ValueError(f"{self.name}: give the KV shape or kv_elements_per_token, not both")
        if shape is not None:
            object.__setattr__(self, "kv_elements_per_token", shape)
        elif self.kv_elements_per_token is not None and not (
            isinstance(self.kv_elements_per_token, (int, float)) and self.kv_elements_per_token >= 0
        ):
            raise ValueError(f"{self.name}: kv_elements_per_token must be >= 0, got {self.kv_elements_per_token!r}")

    def _shape_elements_per_token(self) -> int | None:
        """Elements per token from the KV shape, None if no shape is given."""
        if self.attention == MLA:
            parts = {"layers": self.layers, "mla_latent_dim": self.mla_latent_dim}
        else:
            parts = {"layers": self.layers, "kv_heads": self.kv_heads, "head_dim": self.head_dim}
        given = {key: v for key, v in parts.items() if v}
        if not given and not self.mla_rope_dim:
            return None
        for key, v in {**parts, "mla_rope_dim": self.mla_rope_dim}.items():
            if not (isinstance(v, int) and not isinstance(v, bool) and v >= 0):
                raise ValueError(f"{self.name}: {key} must be a whole number >= 0, got {v!r}")
        missing = [key for key, v in parts.items() if not v]
        if missing:
            raise ValueError(f"{self.name}: the {self.attention.upper()} KV shape needs {', '.join(missing)} as well")
        if self.attention == MLA:
            # One latent plus the decoupled rotary key per layer, shared by every head.
            return self.layers * (self.mla_latent_dim + self.mla_rope_dim)
        return 2 * self.layers * self.kv_heads * self.head_dim

    @property
    def state_bytes_per_sequence(self) -> float:
        """Always 0: a custom model is given by its KV cache, with no fixed recurrent state."""
        return 0.0

    @property
    def is_moe(self) -> bool:
        """Always False: a custom model's expert routing is unknown."""
        return False

    @property
    def active_params_per_token(self) -> float:
        """The streamed parameters (the embedding table is unknown, so nothing is added)."""
        return self.streamed_params_per_token

    @property
    def kv_cache_known(self) -> bool:
        """Whether the KV shape (or elements per token) was given."""
        return self.kv_elements_per_token is not None

    def kv_bytes_per_token(self, kv_dtype: str = "fp16") -> float:
        """KV-cache bytes one token adds, in bytes, for cache format ``kv_dtype``.

        Raises:
            ValueError: if the KV cache is unknown (see :attr:`kv_cache_known`).
        """
        if self.kv_elements_per_token is None:
            raise ValueError(
                f"{self.name}: KV-cache size unknown; give layers with kv_heads and head_dim, "
                "the MLA latent widths, or kv_elements_per_token"
            )
        return self.kv_elements_per_token * bytes_per_element(kv_dtype)

    def kv_cache_bytes(self, *, context_tokens: int, batch: int = 1, kv_dtype: str = "fp16") -> float:
        """KV cache of ``batch`` sequences of ``context_tokens`` tokens each, in bytes (every layer full)."""
        if context_tokens == 0:
            return 0.0
        return self.kv_bytes_per_token(kv_dtype) * context_tokens * batch

    def context_for_kv_bytes(self, *, kv_bytes: float, batch: int = 1, kv_dtype: str = "fp16") -> float:
        """Longest context (fractional tokens) whose cache for ``batch`` sequences fits ``kv_bytes``."""
        return kv_bytes / (self.kv_bytes_per_token(kv_dtype) * batch)

    def weight_bytes(self, weight_dtype: str = "fp16") -> float:
        """Bytes to hold every weight in ``weight_dtype``, in bytes."""
        return self.total_params * bytes_per_element(weight_dtype)

    def streamed_weight_bytes(self, weight_dtype: str = "fp16", *, experts_used: float | None = None) -> float:
        """Bytes of the weights one decode step reads (no expert structure: ``experts_used`` is ignored)."""
        return self.streamed_params_per_token * bytes_per_element(weight_dtype)


#: Anything the estimates accept as a model.
AnyModel = Model | CustomModel
