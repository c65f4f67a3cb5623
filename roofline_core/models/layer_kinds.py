"""Token mixers other than softmax attention: recurrent layers with a fixed state, and sparse attention.

Most 2025-26 releases no longer give every layer a KV cache that grows with the context:

* **Linear attention** (Gated DeltaNet in Qwen3-Next and Qwen3.5, Kimi Delta Attention in Kimi
  Linear, MiniMax's lightning attention) keeps, per sequence and layer, one matrix per head of
  ``key dim x value dim`` numbers, plus the last ``kernel - 1`` inputs of its short convolution.
  Decode reads and rewrites that state once per token whatever the context.
* **Mamba** layers (Mamba-2 in Nemotron-H, Granite 4.0-H and Falcon-H1; Mamba-1 in Jamba) keep
  ``heads x head dim x state size`` numbers (Mamba-1: ``inner width x state size``) and their
  convolution's last inputs.
* **Sparse attention** (DeepSeek Sparse Attention, DSA, in DeepSeek-V3.2,
  https://github.com/deepseek-ai/DeepSeek-V3.2-Exp/blob/main/DeepSeek_V3_2.pdf): the cache keeps
  every token, and a small "lightning indexer" with its own FP8 key per token scores all of them;
  attention then reads only the ``top_k`` best (2,048). Decode reads the indexer keys of every
  token but the attention cache of ``top_k`` tokens only.

The state shapes follow vLLM's allocation (``MambaStateShapeCalculator`` in
``vllm/model_executor/layers/mamba/mamba_utils.py``,
https://docs.vllm.ai/en/v0.11.2/api/vllm/model_executor/layers/mamba/mamba_utils/), which is what
a server holds per sequence. Its ``MambaStateDtypeCalculator`` keeps the convolution state in the
model's dtype and the recurrent (SSM) state in ``mamba_ssm_cache_dtype``, which defaults to the
model's dtype; configs that ask for more say so (Nemotron 3 and Qwen3.5 set
``mamba_ssm_cache_dtype`` / ``mamba_ssm_dtype`` to ``float32``), and the config reader takes it
from there.

Parameter counts per layer follow the Hugging Face ``transformers`` modules of each family
(``Qwen3NextGatedDeltaNet``, ``NemotronHMamba2Mixer``, ``JambaMambaMixer``, ``KimiDeltaAttention``)
and DeepSeek's ``Indexer`` (``inference/model.py`` of DeepSeek-V3.2-Exp). Standard library only.
"""

from __future__ import annotations

from dataclasses import dataclass

from roofline_core.hardware.dtypes import bytes_per_element

#: Gated DeltaNet (Qwen3-Next, Qwen3.5): https://arxiv.org/abs/2412.06464
GATED_DELTANET = "gated_deltanet"
#: Kimi Delta Attention (Kimi Linear): https://arxiv.org/abs/2510.26692
KDA = "kda"
#: MiniMax lightning attention (MiniMax-Text-01): https://arxiv.org/abs/2501.08313
LIGHTNING = "lightning"
#: Mamba-2 (Nemotron-H, Granite 4.0-H, Falcon-H1): https://arxiv.org/abs/2405.21060
MAMBA2 = "mamba2"
#: Mamba-1 (Jamba): https://arxiv.org/abs/2312.00752
MAMBA1 = "mamba1"
RECURRENT_KINDS = (GATED_DELTANET, KDA, LIGHTNING, MAMBA2, MAMBA1)

#: How each kind is named on the page.
RECURRENT_LABELS = {
    GATED_DELTANET: "Gated DeltaNet (linear attention)",
    KDA: "Kimi Delta Attention (linear attention)",
    LIGHTNING: "lightning attention (linear attention)",
    MAMBA2: "Mamba-2",
    MAMBA1: "Mamba",
}

#: FLOPs per state element per token of a recurrent layer: decay the state (1 multiply), add the
#: new key-value outer product (1 multiply-add, 2 FLOPs; the delta rule first reads the state
#: against the key, 2 more) and read it against the query (2). Six covers the delta rule; Mamba
#: needs a little less. A coarse count: these layers cost far less than their weights per token.
STATE_FLOPS_PER_ELEMENT = 6
#: Tokens per chunk of the chunked (parallel) form a prefill runs: within a chunk the layer is
#: attention-like, quadratic in the chunk. 64 is flash-linear-attention's chunk size for Gated
#: DeltaNet and KDA (https://github.com/fla-org/flash-linear-attention, ``chunk_size=64``);
#: Mamba-2 configs use 128 or 256, which changes this term little against the weights.
PREFILL_CHUNK_TOKENS = 64


@dataclass(frozen=True)
class RecurrentMixer:
    """The token mixer of a recurrent layer: what it holds per sequence, and its weights.

    Attributes:
        kind: One of :data:`RECURRENT_KINDS`.
        heads: Value heads (Gated DeltaNet, KDA, lightning) or SSM heads (Mamba-2); for
            Mamba-1 the inner width (it has no heads: every channel has its own state).
        key_heads: Key heads (Gated DeltaNet) or B/C groups (Mamba-2); equal to ``heads`` where
            keys are not shared.
        key_dim: Width of one key head, or the SSM state size (Mamba).
        value_dim: Width of one value head, or the SSM head width (Mamba-2; 1 for Mamba-1).
        conv_kernel: Width of the short causal convolution (0 = none, as in lightning attention).
        state_dtype: Format of the recurrent state an engine keeps.
        conv_dtype: Format of the convolution state (the model's dtype).
        dt_rank: Mamba-1 only: rank of the step-size projection.
        gate_rank: KDA only: width of the low-rank forget and output gate projections (0 = full rank).
        conv_bias: Whether the convolution carries a bias (Mamba does; Gated DeltaNet does not).
    """

    kind: str
    heads: int
    key_heads: int
    key_dim: int
    value_dim: int
    conv_kernel: int
    state_dtype: str = "bf16"
    conv_dtype: str = "bf16"
    dt_rank: int = 0
    gate_rank: int = 0
    conv_bias: bool = False

    def __post_init__(self) -> None:
        if self.kind not in RECURRENT_KINDS:
            raise ValueError(f"recurrent kind must be one of {RECURRENT_KINDS}, got {self.kind!r}")
        for name in ("heads", "key_heads", "key_dim", "value_dim"):
            if getattr(self, name) < 1:
                raise ValueError(f"recurrent {name} must be at least 1, got {getattr(self, name)!r}")
        if self.conv_kernel < 0:
            raise ValueError(f"recurrent conv_kernel must be >= 0, got {self.conv_kernel!r}")

    @property
    def label(self) -> str:
        return RECURRENT_LABELS[self.kind]

    @property
    def inner_width(self) -> int:
        """Width of the value stream (heads x value width; Mamba-1: its inner width)."""
        return self.heads * self.value_dim

    @property
    def conv_channels(self) -> int:
        """Channels the short convolution runs over (vLLM's ``conv_dim``)."""
        if self.kind == GATED_DELTANET:
            return 2 * self.key_heads * self.key_dim + self.inner_width  # q, k and v
        if self.kind == KDA:
            return 3 * self.heads * self.key_dim  # q, k and v, each convolved on its own
        if self.kind == MAMBA2:
            return self.inner_width + 2 * self.key_heads * self.key_dim  # x, B and C
        if self.kind == MAMBA1:
            return self.inner_width
        return 0

    @property
    def kv_width(self) -> int:
        """Elements of the key and value (Mamba: B and x) one token feeds the state in one layer:
        what the layer would cache per token if it were attention."""
        if self.kind == KDA:
            return self.heads * self.key_dim + self.inner_width
        if self.kind == MAMBA1:
            return self.inner_width + self.key_dim
        return self.key_heads * self.key_dim + self.inner_width

    @property
    def state_elements(self) -> int:
        """Recurrent state of one sequence in one layer, in elements."""
        if self.kind == MAMBA1:
            return self.inner_width * self.key_dim
        return self.heads * self.key_dim * self.value_dim

    @property
    def conv_elements(self) -> int:
        """Convolution state of one sequence in one layer: the last ``kernel - 1`` inputs."""
        return self.conv_channels * max(self.conv_kernel - 1, 0)

    def state_bytes(self) -> float:
        """Bytes one sequence holds in one layer: recurrent state plus convolution state."""
        return self.state_elements * bytes_per_element(self.state_dtype) + self.conv_elements * bytes_per_element(
            self.conv_dtype
        )

    def decode_flops(self) -> float:
        """FLOPs of one token's state update and read in one layer (beyond its weight matmuls)."""
        return float(STATE_FLOPS_PER_ELEMENT * self.state_elements)

    def prefill_flops_per_token(self) -> float:
        """FLOPs per prompt token in one layer of the chunked form: the state work plus the
        attention-like products within a chunk (half a chunk of keys per query on average)."""
        within_chunk = 2.0 * self.heads * (self.key_dim + self.value_dim) * PREFILL_CHUNK_TOKENS / 2
        return self.decode_flops() + (0.0 if self.kind in (MAMBA1,) else within_chunk)

    def params(self, hidden: int) -> int:
        """Weights of the mixer in one layer, for a model of width ``hidden``."""
        h, k = hidden, self.conv_kernel
        conv = self.conv_channels * k + (self.conv_channels if self.conv_bias else 0)
        if self.kind == GATED_DELTANET:
            keys = self.key_heads * self.key_dim
            values = self.inner_width
            # in_proj_qkvz (q, k, v and the output gate z), in_proj_ba (beta and the decay per
            # head), conv1d, dt_bias and A_log per head, the gated norm, out_proj.
            return (
                h * (2 * keys + 2 * values) + h * 2 * self.heads + conv + 2 * self.heads + self.value_dim + values * h
            )
        if self.kind == KDA:
            width = self.heads * self.key_dim
            rank = self.gate_rank or self.key_dim
            # q, k, v; the forget gate (low rank) and its bias per channel; beta; the output
            # gate (low rank); A_log; the output norm; o_proj.
            gates = 2 * (h * rank + rank * width)
            return 3 * h * width + conv + gates + width + h * self.heads + self.heads + self.key_dim + width * h
        if self.kind == MAMBA2:
            inner, groups_state = self.inner_width, self.key_heads * self.key_dim
            in_proj = h * (2 * inner + 2 * groups_state + self.heads)  # z, x, B, C and the step size
            return in_proj + conv + 3 * self.heads + inner + inner * h  # dt_bias, A_log, D; norm; out_proj
        if self.kind == MAMBA1:
            inner, state = self.inner_width, self.key_dim
            x_proj = inner * (self.dt_rank + 2 * state)
            dt_proj = self.dt_rank * inner + inner
            # in_proj (x and z), conv, x_proj, dt_proj, A_log, D, out_proj, and Jamba's norms of
            # the step size, B and C.
            return (
                2 * h * inner + conv + x_proj + dt_proj + inner * state + inner + inner * h + self.dt_rank + 2 * state
            )
        # Lightning attention: q, k, v, an output gate and o_proj, with an output norm.
        width = self.inner_width
        return 4 * h * width + width * h + width


#: Bytes of one cached indexer key per token and layer in DeepSeek's DSA: 128 FP8 values and one
#: FP32 scale per block of 128 (``k_cache`` in ``float8_e4m3fn`` and ``k_scale_cache`` in
#: ``float32``, ``Indexer`` in DeepSeek-V3.2-Exp's ``inference/model.py``).
INDEXER_SCALE_BLOCK = 128


@dataclass(frozen=True)
class SparseAttention:
    """DeepSeek Sparse Attention: a lightning indexer picks the ``top_k`` cached tokens each query reads.

    Attributes:
        index_heads: Heads of the indexer (64 in DeepSeek-V3.2).
        index_head_dim: Width of an indexer head and of its one cached key per token (128).
        top_k: Cached tokens each query attends over (2,048).
    """

    index_heads: int
    index_head_dim: int
    top_k: int

    def __post_init__(self) -> None:
        for name in ("index_heads", "index_head_dim", "top_k"):
            if getattr(self, name) < 1:
                raise ValueError(f"sparse attention {name} must be at least 1, got {getattr(self, name)!r}")

    @property
    def key_bytes_per_token(self) -> float:
        """Bytes of the indexer's cached key per token and layer (FP8 values, FP32 block scales)."""
        blocks = -(-self.index_head_dim // INDEXER_SCALE_BLOCK)
        return self.index_head_dim * 1.0 + blocks * 4.0

    def params(self, hidden: int, q_latent_dim: int) -> int:
        """Weights of the indexer in one layer: its query from the compressed query (or the
        hidden state), its one key head and that key's LayerNorm, and its per-head weights."""
        q_in = q_latent_dim or hidden
        return (
            q_in * self.index_heads * self.index_head_dim
            + hidden * self.index_head_dim
            + 2 * self.index_head_dim
            + hidden * self.index_heads
        )

    def attended(self, context_tokens: int) -> int:
        """Cached tokens one query reads: all of them up to ``top_k``, then ``top_k``."""
        return min(context_tokens, self.top_k)

    def indexer_flops_per_cached_token(self) -> float:
        """Indexer FLOPs one query spends per cached token: a dot product per indexer head."""
        return 2.0 * self.index_heads * self.index_head_dim


#: DeepSeek-V4's two compressed kinds: Compressed Sparse Attention (CSA, every 4 tokens pooled into
#: one entry, a lightning indexer choosing ``top_k`` of them) and Heavily Compressed Attention
#: (HCA, every 128 tokens pooled, all entries read). ``compress_ratios`` in the config gives each
#: layer's ratio; 0 is a layer with the sliding window only.
CSA_RATIO = 4
HCA_RATIO = 128
#: Bytes of one compressor state element: vLLM keeps the pooling state in FP32
#: (``CompressorStateCache`` asserts ``torch.float32``, ``vllm/model_executor/layers/deepseek_compressor.py``
#: at commit 0de10a276eced6036e9752a223cba53c996d31cd).
COMPRESSOR_STATE_BYTES = 4


def _visible_entries_sum(prompt_tokens: int, ratio: int, cap: int) -> int:
    """Sum over a causal prompt of the compressed entries each query sees, at most ``cap``:
    the query at 1-based position ``t`` sees ``t // ratio`` finished windows (transformers'
    ``causal_threshold = (position_ids + 1) // compress_rate``)."""
    q, s = divmod(prompt_tokens, ratio)
    m = q - 1  # whole blocks k = 1..q-1 hold `ratio` queries seeing k entries each
    if m <= 0:
        full = 0
    elif m <= cap:
        full = ratio * m * (m + 1) // 2
    else:
        full = ratio * (cap * (cap + 1) // 2 + (m - cap) * cap)
    return full + (s + 1) * min(q, cap)


@dataclass(frozen=True)
class CompressedAttention:
    """DeepSeek-V4's hybrid attention (https://huggingface.co/deepseek-ai/DeepSeek-V4-Flash).

    Every layer is multi-query attention with one 512-wide head that is both key and value, over
    the last ``window`` tokens uncompressed. On top of that, ``csa_layers`` also attend over the
    context pooled ``CSA_RATIO`` tokens to one entry, of which a lightning indexer (its own
    compressed 128-wide FP8 keys, ``indexer``) picks ``indexer.top_k``; ``hca_layers`` attend over
    every entry of the context pooled ``HCA_RATIO`` to one. The rest keep the window only.

    What is held follows vLLM's DeepSeek-V4 code: ``DeepseekV4SWACache`` for the window,
    ``MLAAttentionSpec(compress_ratio=...)`` for the compressed entries and the indexer keys
    (``deepseek_v4_attention.py``, commit 0a291a2e1074b13971361df76245548a4ea4a77d), and per
    compressor a ``CompressorStateCache`` of ``coff x ratio`` tokens of FP32 running key and
    score (``coff`` = 2 for CSA's overlapping windows, 1 for HCA; ``deepseek_compressor.py``,
    commit 0de10a276eced6036e9752a223cba53c996d31cd). Weights follow transformers'
    ``DeepseekV4CSACompressor``, ``DeepseekV4HCACompressor`` and ``DeepseekV4Indexer``
    (``models/deepseek_v4/modeling_deepseek_v4.py``, commit 019760818965c71b0a4d38e95820ee0b6cee4240).

    Attributes:
        window: Uncompressed tokens every layer keeps and reads (``sliding_window``, 128).
        entry_dim: Width of one cached entry, compressed or not (``head_dim``, 512).
        csa_layers: Layers with ratio-4 compression and the indexer.
        hca_layers: Layers with ratio-128 compression.
        indexer: The CSA layers' lightning indexer (heads, key width, entries each query reads).
        q_latent_dim: Width of the compressed query (``q_lora_rank``).
        out_groups: Groups of heads the output projection maps each to ``out_rank`` (``o_groups``).
        out_rank: Width each group is projected to before the last projection (``o_lora_rank``).
    """

    window: int
    entry_dim: int
    csa_layers: int
    hca_layers: int
    indexer: SparseAttention
    q_latent_dim: int
    out_groups: int
    out_rank: int

    def __post_init__(self) -> None:
        for name in ("window", "entry_dim"):
            if getattr(self, name) < 1:
                raise ValueError(f"compressed attention {name} must be at least 1, got {getattr(self, name)!r}")
        if min(self.csa_layers, self.hca_layers) < 0:
            raise ValueError("compressed attention layer counts must be >= 0")
        for name in ("q_latent_dim", "out_groups", "out_rank"):
            if getattr(self, name) < 1:
                raise ValueError(f"compressed attention {name} must be at least 1, got {getattr(self, name)!r}")

    def attention_params(self, hidden: int, heads: int) -> int:
        """One layer's attention weights without its compressor: the compressed query (down,
        norm, up to every head), the one key-value head and its norm, the grouped low-rank output
        (each group of heads to ``out_rank``, then all groups to the width) and a sink per head
        (transformers' ``DeepseekV4Attention``)."""
        q = hidden * self.q_latent_dim + self.q_latent_dim + self.q_latent_dim * heads * self.entry_dim
        kv = hidden * self.entry_dim + self.entry_dim
        out = heads * self.entry_dim * self.out_rank + self.out_groups * self.out_rank * hidden
        return q + kv + out + heads

    @property
    def compressed_layers(self) -> int:
        return self.csa_layers + self.hca_layers

    def window_tokens(self, context_tokens: int) -> int:
        """Uncompressed tokens each layer holds and reads after ``context_tokens``."""
        return min(context_tokens, self.window)

    @staticmethod
    def entries(context_tokens: int, ratio: int) -> int:
        """Compressed entries after ``context_tokens``: one per finished window of ``ratio``."""
        return context_tokens // ratio

    def held_bytes(self, *, context_tokens: int, attention_layers: int, kv_dtype_bytes: float) -> float:
        """What one sequence's cache holds after ``context_tokens``: the window in every layer,
        the compressed entries, and the indexer's compressed keys (FP8 with FP32 block scales,
        whatever the cache format, as vLLM stores them)."""
        csa, hca = self.entries(context_tokens, CSA_RATIO), self.entries(context_tokens, HCA_RATIO)
        elements = (
            attention_layers * self.window_tokens(context_tokens) + self.csa_layers * csa + self.hca_layers * hca
        ) * self.entry_dim
        return elements * kv_dtype_bytes + self.csa_layers * csa * self.indexer.key_bytes_per_token

    def read_bytes(self, *, context_tokens: int, attention_layers: int, kv_dtype_bytes: float) -> float:
        """Cache bytes one decode step reads for one sequence: the window in every layer, every
        indexer key and ``top_k`` entries in a CSA layer, every entry in an HCA layer."""
        csa, hca = self.entries(context_tokens, CSA_RATIO), self.entries(context_tokens, HCA_RATIO)
        elements = (
            attention_layers * self.window_tokens(context_tokens)
            + self.csa_layers * self.indexer.attended(csa)
            + self.hca_layers * hca
        ) * self.entry_dim
        return elements * kv_dtype_bytes + self.csa_layers * csa * self.indexer.key_bytes_per_token

    def entries_read(self, context_tokens: int, attention_layers: int) -> int:
        """Cached entries (window and compressed) one new token attends over, all layers."""
        csa, hca = self.entries(context_tokens, CSA_RATIO), self.entries(context_tokens, HCA_RATIO)
        return (
            attention_layers * self.window_tokens(context_tokens)
            + self.csa_layers * self.indexer.attended(csa)
            + self.hca_layers * hca
        )

    @staticmethod
    def _state_elements(ratio: int, width: int) -> int:
        # coff x ratio tokens of running key (coff x width) and score (coff x width).
        coff = 2 if ratio == CSA_RATIO else 1
        return coff * ratio * 2 * coff * width

    @property
    def state_bytes(self) -> float:
        """Fixed bytes one sequence holds: each compressor's FP32 pooling state (CSA: the
        attention's and the indexer's compressor; HCA: one)."""
        csa = self._state_elements(CSA_RATIO, self.entry_dim) + self._state_elements(
            CSA_RATIO, self.indexer.index_head_dim
        )
        hca = self._state_elements(HCA_RATIO, self.entry_dim)
        return (self.csa_layers * csa + self.hca_layers * hca) * COMPRESSOR_STATE_BYTES

    @property
    def state_traffic_bytes(self) -> float:
        """Compressor state a decode step moves per sequence, on average: its token's row written,
        and once per ``ratio`` tokens the window read back to pool it."""

        def per_layer(ratio: int, width: int) -> float:
            coff = 2 if ratio == CSA_RATIO else 1
            row = 2 * coff * width
            return (row + self._state_elements(ratio, width) / ratio) * COMPRESSOR_STATE_BYTES

        csa = per_layer(CSA_RATIO, self.entry_dim) + per_layer(CSA_RATIO, self.indexer.index_head_dim)
        return self.csa_layers * csa + self.hca_layers * per_layer(HCA_RATIO, self.entry_dim)

    def params(self, hidden: int) -> int:
        """Weights of the compressors and indexers over all layers: each compressor's key and gate
        projections (two series, ``2 x width`` each, where CSA's windows overlap), its per-slot
        position bias and its norm; the indexer's query (from the compressed query), its per-head
        weights and its own compressor."""

        def compressor(ratio: int, width: int) -> int:
            coff = 2 if ratio == CSA_RATIO else 1
            return 2 * hidden * coff * width + ratio * coff * width + width

        ix = self.indexer
        indexer = self.q_latent_dim * ix.index_heads * ix.index_head_dim + hidden * ix.index_heads
        indexer += compressor(CSA_RATIO, ix.index_head_dim)
        csa = compressor(CSA_RATIO, self.entry_dim) + indexer
        return self.csa_layers * csa + self.hca_layers * compressor(HCA_RATIO, self.entry_dim)

    def indexer_decode_flops(self, context_tokens: int) -> float:
        """Indexer FLOPs of one new token: every CSA layer scores every compressed key."""
        return self.csa_layers * self.indexer.indexer_flops_per_cached_token() * self.entries(context_tokens, CSA_RATIO)

    def prefill_pairs(self, prompt_tokens: int, attention_layers: int) -> tuple[float, float]:
        """Query-entry pairs of a causal prefill over all layers (window and compressed entries
        attended), and query-key pairs the indexers score."""
        p, w = prompt_tokens, self.window
        window_pairs = p * (p + 1) / 2 if w >= p else w * (w + 1) / 2 + (p - w) * w
        csa_seen = _visible_entries_sum(p, CSA_RATIO, self.indexer.top_k)
        hca_seen = _visible_entries_sum(p, HCA_RATIO, p)
        scored = _visible_entries_sum(p, CSA_RATIO, p)
        attended = attention_layers * window_pairs + self.csa_layers * csa_seen + self.hca_layers * hca_seen
        return attended, float(self.csa_layers * scored)
