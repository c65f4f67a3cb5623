"""The arithmetic intensity of LLM operations (the clickable table of seed 004).

Each entry computes its FLOPs and bytes from a model's shapes, so its place on the roofline
follows from the same formulas as everything else. Sizes default to Llama 3 70B (GQA, 8 KV
heads for 64 query heads) with a 4,096-token context, in fp16.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from roofline_core.estimates.inference import StepEstimate, _step
from roofline_core.estimates.parts import ACTIVATIONS, KV_CACHE, WEIGHTS
from roofline_core.formatting import bound_phrase, format_intensity, format_whole
from roofline_core.hardware import Accelerator
from roofline_core.models import Model
from roofline_core.models.attention import QUERY_BLOCK_ROWS
from roofline_core.roofline import MatmulCost, _require_positive, bound, matmul_cost, ridge_point

#: Every operation of :func:`operations_catalogue`, in table order, with a title that holds for
#: any sizes (the catalogue's own names state the sizes used).
OPERATION_KINDS: dict[str, str] = {
    "decode-gemv": "Decode projection, batch 1 (GEMV)",
    "decode-gemm-batched": "Decode projection, batched (GEMM)",
    "prefill-gemm": "Prefill projection (GEMM)",
    "decode-attention-mha": "Decode attention, MHA",
    "decode-attention-gqa": "Decode attention, GQA",
    "prefill-attention-unfused": "Prefill attention, unfused",
    "prefill-attention-fused": "Prefill attention, fused (FlashAttention)",
    "elementwise-add": "Elementwise op (residual add)",
}


@dataclass(frozen=True)
class Operation:
    """One operation placed on a roofline.

    Attributes:
        slug: Stable identifier (``"decode-gemv"``).
        name: Display name.
        shape: The sizes used, in words (``"1 x 8192 by 8192 x 8192"``).
        flops: FLOPs, in FLOP.
        bytes_moved: Bytes read and written, in bytes.
        bound: ``"memory"`` or ``"compute"`` on the chosen accelerator.
        why: One sentence on why it lands there.
        byte_parts: ``bytes_moved`` by kind (weights, KV cache, activations), for the parts of
            its time.
        attention: Whether its FLOPs are attention's (else matmul or elementwise arithmetic).
    """

    slug: str
    name: str
    shape: str
    flops: float
    bytes_moved: float
    bound: str
    why: str
    byte_parts: tuple[tuple[str, float], ...] = field(default=(), compare=False)
    attention: bool = field(default=False, compare=False)

    def step(self, *, peak_flop_per_s: float, bandwidth_bytes_per_s: float) -> StepEstimate:
        """The operation alone on one device: its time on the roofline, with its parts."""
        return _step(
            flops=self.flops,
            bytes_moved=self.bytes_moved,
            tokens=1,
            peak_flop_per_s=peak_flop_per_s,
            bandwidth_bytes_per_s=bandwidth_bytes_per_s,
            devices=1,
            byte_parts=self.byte_parts,
            attention_flops=self.flops if self.attention else 0.0,
        )

    @property
    def intensity_flop_per_byte(self) -> float:
        return self.flops / self.bytes_moved


def matvec_exact_cost(*, rows: int, cols: int, bytes_per_element: float = 2) -> MatmulCost:
    """A matrix-vector product counted exactly, as seed 003 does by hand.

    Each of ``rows`` outputs takes ``cols`` multiplies and ``cols - 1`` adds, and only the
    loads are counted (the matrix and the vector). :func:`~roofline_core.roofline.matmul_cost`
    instead counts 2 FLOPs per multiply-add and the output write, the convention for large sizes
    where the difference vanishes.

    Returns:
        ``MatmulCost(flops=rows * (2 * cols - 1), bytes_moved=(rows * cols + cols) * bytes_per_element)``.
    """
    _require_positive("rows", rows)
    _require_positive("cols", cols)
    _require_positive("bytes_per_element", bytes_per_element)
    return MatmulCost(flops=float(rows * (2 * cols - 1)), bytes_moved=(rows * cols + cols) * bytes_per_element)


def _attention_decode_cost(*, heads: int, kv_heads: int, head_dim: int, context_tokens: int, bpe: float) -> MatmulCost:
    # One new query per head scores every cached key (QK^T) and mixes every cached value (AV):
    # 2 FLOPs x head_dim per cached token each. The cache (K and V of the KV heads) is read once;
    # with GQA each KV head serves heads / kv_heads queries, so intensity rises by that factor.
    flops = 2 * 2.0 * heads * context_tokens * head_dim
    bytes_moved = 2.0 * kv_heads * context_tokens * head_dim * bpe
    return MatmulCost(flops=flops, bytes_moved=bytes_moved)


def _attention_prefill_cost(*, tokens: int, head_dim: int, bpe: float, fused: bool) -> MatmulCost:
    # Per head, no mask: QK^T and PV are 2 * T^2 * d FLOPs each. Unfused, the T x T score matrix
    # goes to memory and back: written by QK^T, read and written by softmax, read by PV (4 T^2
    # elements), besides Q, K, V and O (4 T d). Fused, the scores stay on chip and memory sees
    # Q, K, V and O about once (see roofline_core.models.attention for the K and V re-reads).
    flops = 4.0 * tokens * tokens * head_dim
    io = 4.0 * tokens * head_dim
    elements = io if fused else io + 4.0 * tokens * tokens
    return MatmulCost(flops=flops, bytes_moved=elements * bpe)


def operations_catalogue(
    *,
    accelerator: Accelerator,
    model: Model,
    batch: int = 64,
    prompt_tokens: int = 2048,
    context_tokens: int = 4096,
    bytes_per_element: float = 2,
    compute_dtype: str = "fp16",
) -> list[Operation]:
    """The operations table: FLOPs, bytes, intensity and bound of each common LLM operation.

    Args:
        accelerator: Where the operations run (sets the ridge).
        model: Shapes (hidden size, heads, KV heads, head width).
        batch: Sequences in the batched decode GEMM.
        prompt_tokens: Tokens in the prefill GEMM and prefill attention.
        context_tokens: Cached tokens read by decode attention.
        bytes_per_element: Bytes per weight, activation and cache element.
        compute_dtype: Format whose peak sets the ridge.
    """
    peak = accelerator.peak_for(compute_dtype)
    bw = accelerator.bandwidth_bytes_per_s
    ridge = ridge_point(peak_flop_per_s=peak, bandwidth_bytes_per_s=bw)
    d = model.hidden_size
    bpe = bytes_per_element
    gqa_kv_heads = model.kv_heads if model.kv_heads < model.heads else max(1, model.heads // 8)

    entries: list[tuple[str, str, str, MatmulCost, str]] = [
        (
            "decode-gemv",
            "Decode projection, batch 1 (GEMV)",
            f"1 token × {format_whole(d)} by {format_whole(d)} × {format_whole(d)} weights",
            matmul_cost(m=1, n=d, k=d, weight_bytes_per_element=bpe, activation_bytes_per_element=bpe),
            "every weight crosses the memory bus to be used in a single multiply-add",
        ),
        (
            "decode-gemm-batched",
            f"Decode projection, batch {format_whole(batch)} (GEMM)",
            f"{format_whole(batch)} tokens × {format_whole(d)} by {format_whole(d)} × {format_whole(d)} weights",
            matmul_cost(m=batch, n=d, k=d, weight_bytes_per_element=bpe, activation_bytes_per_element=bpe),
            f"each weight read is shared by {format_whole(batch)} sequences, so intensity grows with the batch",
        ),
        (
            "prefill-gemm",
            f"Prefill projection, {format_whole(prompt_tokens)}-token prompt (GEMM)",
            f"{format_whole(prompt_tokens)} tokens × {format_whole(d)} by {format_whole(d)} × {format_whole(d)} weights",
            matmul_cost(m=prompt_tokens, n=d, k=d, weight_bytes_per_element=bpe, activation_bytes_per_element=bpe),
            "each weight is reused across every prompt token processed in parallel",
        ),
        (
            "decode-attention-mha",
            "Decode attention, MHA (QKᵀ and AV)",
            f"{model.heads} query heads, {model.heads} KV heads, {format_whole(context_tokens)} cached tokens, head dim {model.head_dim}",
            _attention_decode_cost(
                heads=model.heads, kv_heads=model.heads, head_dim=model.head_dim, context_tokens=context_tokens, bpe=bpe
            ),
            "each cached key and value is read for one query only, about one multiply-add per element",
        ),
        (
            "decode-attention-gqa",
            "Decode attention, GQA (QKᵀ and AV)",
            f"{model.heads} query heads, {gqa_kv_heads} KV heads, {format_whole(context_tokens)} cached tokens, head dim {model.head_dim}",
            _attention_decode_cost(
                heads=model.heads,
                kv_heads=gqa_kv_heads,
                head_dim=model.head_dim,
                context_tokens=context_tokens,
                bpe=bpe,
            ),
            f"each cached key and value serves {model.heads // gqa_kv_heads} query heads, multiplying intensity by that group size",
        ),
        (
            "prefill-attention-unfused",
            "Prefill attention, unfused (scores in memory)",
            f"{format_whole(prompt_tokens)} tokens, head dim {model.head_dim}, one head",
            _attention_prefill_cost(tokens=prompt_tokens, head_dim=model.head_dim, bpe=bpe, fused=False),
            "the T × T score matrix is written to memory and read back around the softmax",
        ),
        (
            "prefill-attention-fused",
            "Prefill attention, fused (FlashAttention)",
            f"{format_whole(prompt_tokens)} tokens, head dim {model.head_dim}, one head",
            _attention_prefill_cost(tokens=prompt_tokens, head_dim=model.head_dim, bpe=bpe, fused=True),
            f"the scores stay in on-chip SRAM; K and V are re-read once per block of {QUERY_BLOCK_ROWS} query rows, "
            "but from cache, so memory sees Q, K, V and the output about once",
        ),
        (
            "elementwise-add",
            "Elementwise op (residual add)",
            f"{format_whole(prompt_tokens)} tokens × {format_whole(d)} features",
            MatmulCost(flops=float(prompt_tokens * d), bytes_moved=3.0 * prompt_tokens * d * bpe),
            "one addition per element against two reads and one write",
        ),
    ]
    weights = d * d * bpe  # the projections' weight matrix; the rest of their bytes are activations
    operations = []
    for slug, name, shape, cost, reason in entries:
        attention = "attention" in slug
        if slug in ("decode-gemv", "decode-gemm-batched", "prefill-gemm"):
            byte_parts = ((WEIGHTS, weights), (ACTIVATIONS, cost.bytes_moved - weights))
        elif slug.startswith("decode-attention"):
            byte_parts = ((KV_CACHE, cost.bytes_moved),)  # the cache read is all its traffic
        else:
            byte_parts = ((ACTIVATIONS, cost.bytes_moved),)
        which = bound(
            intensity_flop_per_byte=cost.intensity_flop_per_byte, peak_flop_per_s=peak, bandwidth_bytes_per_s=bw
        )
        side = "below" if which == "memory" else "at or above"
        why = (
            f"{reason[0].upper()}{reason[1:]}: {format_intensity(cost.intensity_flop_per_byte)} is {side} "
            f"the {accelerator.name} ridge of {format_intensity(ridge)}, so it is {bound_phrase(which)}."
        )
        operations.append(
            Operation(
                slug=slug,
                name=name,
                shape=shape,
                flops=cost.flops,
                bytes_moved=cost.bytes_moved,
                bound=which,
                why=why,
                byte_parts=byte_parts,
                attention=attention,
            )
        )
    return operations
