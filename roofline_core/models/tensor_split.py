"""Which tensor-parallel degrees a model splits over, as vLLM splits its layers.

vLLM refuses a degree that does not divide a width it splits: every split layer divides its
width with ``divide``, which asserts an exact division (vllm/distributed/utils.py). The rules
here are read from vLLM's layers (https://github.com/vllm-project/vllm, vllm/model_executor/layers/).

Standard library only.
"""

from __future__ import annotations

from roofline_core.models.model import MLA, AnyModel

#: vLLM pads the vocabulary (input embedding and output head) to a multiple of this before
#: splitting it over tensor-parallel ranks (``DEFAULT_VOCAB_PADDING_SIZE`` in
#: https://github.com/vllm-project/vllm/blob/main/vllm/model_executor/layers/vocab_parallel_embedding.py).
VOCAB_PADDING = 64


def padded_vocab(vocab_size: int) -> int:
    """The vocabulary rounded up to :data:`VOCAB_PADDING`, as vLLM's ``pad_vocab_size`` does."""
    return -(-vocab_size // VOCAB_PADDING) * VOCAB_PADDING


def tensor_parallel_split_widths(model: AnyModel) -> tuple[tuple[str, int], ...]:
    """The widths vLLM divides by the tensor-parallel degree, each with its name; empty for a
    model given only by its size.

    Every split layer divides its width with vLLM's ``divide``, which asserts an exact division
    (vllm/distributed/utils.py): the query heads (``QKVParallelLinear``, and
    ``ModelConfig.verify_with_parallel_config`` refuses the degree up front), a dense MLP's
    feed-forward width (``MergedColumnParallelLinear`` asserts ``output_size % tp_size == 0``,
    ``RowParallelLinear`` divides its input), each expert's width when the experts are split by
    tensor parallelism (``FusedMoE`` asserts ``intermediate_size % tp_size == 0``), and the
    vocabulary after padding to :data:`VOCAB_PADDING` (``VocabParallelEmbedding`` and
    ``ParallelLMHead``: ``divide(num_embeddings_padded, tp_size)``). The KV heads follow their
    own rule (:func:`tensor_parallel_counts`).
    """
    heads = getattr(model, "heads", 0)
    if not heads:
        return ()
    widths = [("query heads", heads)]
    if not model.is_moe or model.dense_layers:
        # An all-MoE config's dense ``intermediate_size`` is never built.
        widths.append(("feed-forward width", model.ffn_size))
    if model.is_moe:
        widths.append(("expert width", model.moe_ffn_size))
        if model.shared_experts and model.shared_expert_ffn_size:
            widths.append(("shared-expert width", model.shared_expert_ffn_size))
    widths.append(("padded vocabulary", padded_vocab(model.vocab_size)))
    return tuple(widths)


def tensor_parallel_refusal(model: AnyModel, devices: int) -> str | None:
    """Why vLLM refuses ``devices``-way tensor parallelism for ``model``, or None when it splits.

    >>> from roofline_core.models import MODELS
    >>> tensor_parallel_refusal(MODELS["qwen2.5-7b"], 28)
    'the feed-forward width 18944 does not divide by 28'
    """
    for name, width in tensor_parallel_split_widths(model):
        if width % devices:
            return f"the {name} {width} {'do' if name.endswith('s') else 'does'} not divide by {devices}"
    heads = getattr(model, "heads", 0)
    if heads and model.attention != MLA:
        kv = model.kv_heads
        # Fewer KV heads than devices: each is replicated a whole number of times
        # (QKVParallelLinear: ``num_kv_head_replicas = divide(tp_size, total_num_kv_heads)``).
        if (devices % kv if devices >= kv else kv % devices) != 0:
            return f"the {kv} KV heads neither divide by {devices} nor replicate evenly over it"
    return None
