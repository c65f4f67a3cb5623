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
