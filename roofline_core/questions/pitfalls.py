"""Common wrong formulas in LLM sizing, and how far off each one is on a given model and chip.

Each function computes one number twice: the way ``roofline_core`` computes it everywhere else,
and the way a common mistake computes it. Their ratio is the size of the error on that
scenario. The mistakes are the ones public estimators have shipped and later fixed (see the
pitfalls page for the bug reports)::

    >>> from roofline_core.models import MODELS
    >>> p = kv_with_query_heads(MODELS["llama-3.1-8b"], context_tokens=8192, kv_dtype="fp16")
    >>> round(p.factor, 2)
    4.0

Standard library only, like the rest of ``roofline_core``.
"""

from __future__ import annotations

from dataclasses import dataclass

from roofline_core.estimates.inference import prefill_step
from roofline_core.formatting import format_bytes
from roofline_core.hardware import Accelerator
from roofline_core.hardware.block_formats import BlockFormat
from roofline_core.hardware.dtypes import bytes_per_element
from roofline_core.models import MLA, Model

#: Bytes in a gibibyte; a GB is 10**9 bytes.
GIB_BYTES = 2**30
GB_BYTES = 10**9


@dataclass(frozen=True)
class Pitfall:
    """One number computed right and computed the wrong way.

    Attributes:
        slug: Stable identifier (an anchor on the pitfalls page).
        title: The mistake, in a few words.
        measure: What the number is, as it reads inside a sentence (``"weight memory"``).
        unit: SI unit of both values (``"B"``, ``"s"``).
        right: The value as computed from the architecture and the dense vendor figures.
        wrong: The value the mistake gives.
        applies: False when this model or chip has nothing the mistake can get wrong (a dense
            model for the MoE mistake); then ``wrong`` equals ``right``.
        why: One sentence on where the difference comes from, for this scenario.
    """

    slug: str
    title: str
    measure: str
    unit: str
    right: float
    wrong: float
    applies: bool
    why: str

    @property
    def factor(self) -> float:
        """wrong / right: above 1 the mistake overstates, below 1 it understates."""
        return self.wrong / self.right


def kv_with_query_heads(model: Model, *, context_tokens: int, kv_dtype: str) -> Pitfall:
    """KV cache of one sequence sized with the query heads instead of the cached KV shape.

    Grouped-query and multi-query attention cache ``kv_heads`` key/value heads, not ``heads``;
    MLA caches one latent per layer. The wrong formula is ``2 * layers * heads * head_dim``
    per token (for MLA: full keys and values for every head, as an engine without MLA support
    would cache them).
    """
    right = model.kv_cache_bytes(context_tokens=context_tokens, kv_dtype=kv_dtype)
    growing = model.growing_kv_cache_bytes(context_tokens=context_tokens, kv_dtype=kv_dtype)
    per_token_right = model.kv_bytes_per_token(kv_dtype)
    if model.attention == MLA:
        # Uncompressed, every head caches a key of head_dim + the rotary part and a value of
        # v_head_dim (DeepSeek-V2 paper, section 2.1.3: the full per-token cache of MHA).
        key_width = model.head_dim + model.mla_rope_dim
        value_width = model.mla_v_head_dim or model.head_dim
        wrong_elements = model.attention_layers * model.heads * (key_width + value_width)
        why = "MLA caches one compressed latent per layer; every head's full key and value is far larger"
    else:
        wrong_elements = 2 * model.attention_layers * model.heads * model.head_dim
        why = f"{model.heads} query heads share {model.kv_heads} cached key/value heads"
    per_token_wrong = wrong_elements * bytes_per_element(kv_dtype)
    # The same tokens are held either way (sliding layers keep their window in both), and a
    # hybrid model's fixed state is the same in both.
    wrong = right - growing + growing * per_token_wrong / per_token_right
    applies = per_token_wrong != per_token_right
    if not applies:
        why = "multi-head attention caches every query head, so the two formulas agree"
    return Pitfall(
        "kv-query-heads", "KV cache sized with query heads", "KV cache per sequence", "B", right, wrong, applies, why
    )


def moe_memory_from_active(model: Model, *, weight_bytes_per_param: float) -> Pitfall:
    """Weight memory of a mixture-of-experts model counted from its active parameters.

    Every expert must be resident, because the router picks different experts for each token;
    only the bytes a decode step reads depend on the active ones.
    """
    right = model.total_params * weight_bytes_per_param
    wrong = model.active_params_per_token * weight_bytes_per_param
    applies = model.is_moe
    why = (
        f"{model.experts_per_token} of {model.experts} routed experts work per token, but all are held in memory"
        if applies
        else "a dense model uses every parameter for every token"
    )
    return Pitfall(
        "moe-active-memory", "MoE memory from active parameters", "weight memory", "B", right, wrong, applies, why
    )


def gib_read_as_gb(*, needed_bytes: float) -> Pitfall:
    """A memory need computed in GiB (2**30 bytes) and compared with a capacity quoted in GB.

    The figure printed as "GB" is then the count of GiB: 7.4% smaller than the GB it claims,
    so a configuration that does not fit can look as if it does.
    """
    right = needed_bytes
    wrong = needed_bytes / GIB_BYTES * GB_BYTES
    return Pitfall(
        "gib-as-gb",
        "GiB read as GB",
        "weights and KV cache",
        "B",
        right,
        wrong,
        True,
        "a GiB is 1.074 GB, so a count of GiB labelled GB is too small",
    )


def quotes_sparse_rate(accelerator: Accelerator) -> bool:
    """Whether the accelerator's cited sheet states a rate "with sparsity" beside the dense one."""
    states = accelerator.source.states.lower()
    return "sparse" in states or "sparsity" in states


def sparse_peak_for_dense_model(
    model: Model, accelerator: Accelerator, *, prompt_tokens: int, weight_bytes_per_param: float, compute_dtype: str
) -> Pitfall:
    """Time to first token of one prompt with the 2:4 structured-sparsity peak, which is twice the dense one.

    The sparse rate holds only for weights pruned to the 2:4 pattern; a dense LLM runs at the
    dense rate, so the wrong time is too short wherever the prefill is compute-bound.
    """
    dense_peak = accelerator.peak_for(compute_dtype)

    def ttft(peak: float) -> float:
        return prefill_step(
            params=model.streamed_params_per_token,
            prompt_tokens=prompt_tokens,
            peak_flop_per_s=peak,
            bandwidth_bytes_per_s=accelerator.bandwidth_bytes_per_s,
            bytes_per_param=weight_bytes_per_param,
        ).step_time_s

    right = ttft(dense_peak)
    applies = quotes_sparse_rate(accelerator)
    wrong = ttft(2 * dense_peak) if applies else right
    if not applies:
        why = f"the cited sheet for the {accelerator.name} quotes no sparse rate to mistake for the dense one"
    elif wrong < right:
        why = "the prompt is compute-bound, so twice the peak halves the time"
    else:
        why = "the prompt is so short that reading the weights, not the arithmetic, sets the time"
    return Pitfall(
        "sparse-peak", "Sparse peak used for a dense model", "time to first token", "s", right, wrong, applies, why
    )


def sliding_window_ignored(model: Model, *, context_tokens: int, kv_dtype: str) -> Pitfall:
    """KV cache of one sequence with every layer caching the whole context.

    A sliding-window layer attends over at most its window, so an engine that sizes those
    layers by the window holds far less at a long context.
    """
    right = model.kv_cache_bytes(context_tokens=context_tokens, kv_dtype=kv_dtype)
    wrong = model.kv_bytes_per_token(kv_dtype) * context_tokens + model.state_bytes_per_sequence
    applies = model.sliding_layers > 0
    if not applies:
        why = "every layer attends over the whole context"
    elif context_tokens <= model.sliding_window:
        span = "chunk" if model.chunked_attention else "window"
        why = f"the context fits in the {model.sliding_window:,}-token {span}, so no layer drops a token yet"
    elif model.chunked_attention:
        why = (
            f"{model.sliding_layers} of {model.layers} layers attend within {model.sliding_window:,}-token chunks, "
            "so they hold one chunk at most"
        )
    else:
        why = f"{model.sliding_layers} of {model.layers} layers keep only the last {model.sliding_window:,} tokens"
    return Pitfall(
        "sliding-window-ignored",
        "Sliding window ignored",
        "KV cache per sequence",
        "B",
        right,
        wrong,
        applies,
        why,
    )


def block_scales_ignored(model: Model, *, block_format: BlockFormat) -> Pitfall:
    """Weight memory of a block-scaled format counted at its element bits, scales left out.

    Every weight is taken to be stored in the format, the way a whole-model estimate is made;
    real files keep some tensors (often embeddings, norms) wider.
    """
    right = model.total_params * block_format.bytes_per_weight
    wrong = model.total_params * block_format.element_bits / 8
    why = (
        f"{block_format.label} stores {block_format.bits_per_weight:g} bits per weight with its scales, "
        f"not {block_format.element_bits}"
    )
    return Pitfall(
        "block-scales-ignored",
        "Block scales left out",
        f"weight memory in {block_format.label}",
        "B",
        right,
        wrong,
        True,
        why,
    )


def recurrent_state_as_kv_cache(model: Model, *, context_tokens: int, kv_dtype: str) -> Pitfall:
    """Cache of one sequence with a hybrid model's recurrent layers sized like attention's KV cache.

    A linear-attention or Mamba layer folds every token into a state of fixed size; it keeps no
    per-token keys and values. The mistake caches, for every token, the key and value each such
    layer computes (its key and value widths, in the KV cache format), so the estimate grows
    with the context where the real state does not.
    """
    right = model.kv_cache_bytes(context_tokens=context_tokens, kv_dtype=kv_dtype)
    growing = model.growing_kv_cache_bytes(context_tokens=context_tokens, kv_dtype=kv_dtype)
    mixer = model.recurrent
    if mixer is None:
        return Pitfall(
            "state-as-kv-cache",
            "Recurrent state sized like a KV cache",
            "cache per sequence",
            "B",
            right,
            right,
            False,
            "every layer that mixes tokens attends, so there is no recurrent state to mis-size",
        )
    per_token = model.recurrent_layers * mixer.kv_width * bytes_per_element(kv_dtype)
    wrong = growing + per_token * context_tokens
    why = (
        f"{model.recurrent_layers} {mixer.label} layers hold {format_bytes(model.state_bytes_per_sequence)} "
        f"per sequence whatever the context, not {format_bytes(per_token)} more per token"
    )
    return Pitfall(
        "state-as-kv-cache", "Recurrent state sized like a KV cache", "cache per sequence", "B", right, wrong, True, why
    )


def linear_layers_as_attention(model: Model, *, context_tokens: int, kv_dtype: str) -> Pitfall:
    """Cache of one sequence with every layer of a hybrid model counted as an attention layer.

    The common formula ``2 x layers x KV heads x head size x tokens`` takes ``num_hidden_layers``
    for the layers that cache; in a hybrid model only the attention layers do (one in four in
    Qwen3-Next and Qwen3.5, fewer than one in ten in Nemotron-H).
    """
    right = model.kv_cache_bytes(context_tokens=context_tokens, kv_dtype=kv_dtype)
    growing = model.growing_kv_cache_bytes(context_tokens=context_tokens, kv_dtype=kv_dtype)
    applies = model.attention_layers != model.layers
    wrong = growing * model.layers / model.attention_layers if applies and model.attention_layers else right
    if not applies:
        why = "every layer attends and keeps a KV cache"
    else:
        why = f"only {model.attention_layers} of {model.layers} layers attend and keep keys and values"
    return Pitfall(
        "linear-as-attention",
        "Hybrid layers counted as attention",
        "cache per sequence",
        "B",
        right,
        wrong,
        applies,
        why,
    )
