"""GGUF files for the header reader's tests, written by the reference writer (the pinned ``gguf``
package from llama.cpp) so the reader is checked against the format as llama.cpp writes it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
from gguf import GGML_QUANT_SIZES, GGMLQuantizationType, GGUFWriter

T = GGMLQuantizationType


def add(writer: GGUFWriter, name: str, ggml_type: T, shape: tuple[int, ...]) -> None:
    """A tensor of ``shape`` (ggml order: the row first) in ``ggml_type``, zeros of the right size.

    Quantised types are written as raw bytes (``raw_dtype``), as llama.cpp's quantiser writes them.
    """
    block, size = GGML_QUANT_SIZES[ggml_type]
    numpy_shape = tuple(reversed(shape))
    plain = {T.F32: np.float32, T.F16: np.float16, T.F64: np.float64, T.I8: np.int8, T.I16: np.int16}
    plain |= {T.I32: np.int32, T.I64: np.int64}
    if ggml_type in plain:
        writer.add_tensor(name, np.zeros(numpy_shape, plain[ggml_type]))
        return
    rows = numpy_shape[:-1]
    writer.add_tensor(name, np.zeros((*rows, shape[0] // block * size), np.uint8), raw_dtype=ggml_type)


def write(path: Path, arch: str, metadata: dict[str, Any], tensors: list[tuple[str, T, tuple[int, ...]]]) -> Path:
    """Write a GGUF file: ``metadata`` as ``{key: (adder, value)}`` and the tensors in order."""
    writer = GGUFWriter(str(path), arch)
    for key, (adder, value) in metadata.items():
        getattr(writer, f"add_{adder}")(key, value)
    for name, ggml_type, shape in tensors:
        add(writer, name, ggml_type, shape)
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return path


# A small Llama in llama.cpp's Q4_K_M recipe: Q4_K for most matrices, Q6_K for the output head,
# the value projection and the down projection (llama-quant.cpp's use_more_bits layers), F32 norms.
HIDDEN, HEADS, KV_HEADS, HEAD_DIM, FFN, VOCAB, LAYERS = 256, 4, 2, 64, 512, 320, 2


def llama_q4_k_m(path: Path, *, tied: bool = False, vocab: int = VOCAB) -> Path:
    metadata: dict[str, Any] = {
        "general.name": ("string", "Tiny Llama"),
        "general.file_type": ("uint32", 15),
        "llama.block_count": ("uint32", LAYERS),
        "llama.context_length": ("uint32", 8192),
        "llama.embedding_length": ("uint32", HIDDEN),
        "llama.feed_forward_length": ("uint32", FFN),
        "llama.attention.head_count": ("uint32", HEADS),
        "llama.attention.head_count_kv": ("uint32", KV_HEADS),
        "llama.rope.dimension_count": ("uint32", HEAD_DIM),
        "llama.attention.layer_norm_rms_epsilon": ("float32", 1e-5),
        "tokenizer.ggml.model": ("string", "gpt2"),
        "tokenizer.ggml.tokens": ("array", [f"t{i}" for i in range(vocab)]),
        "tokenizer.ggml.scores": ("array", [float(i) for i in range(vocab)]),
    }
    tensors = [("token_embd.weight", T.Q4_K, (HIDDEN, vocab))]
    for i in range(LAYERS):
        tensors += [
            (f"blk.{i}.attn_norm.weight", T.F32, (HIDDEN,)),
            (f"blk.{i}.attn_q.weight", T.Q4_K, (HIDDEN, HEADS * HEAD_DIM)),
            (f"blk.{i}.attn_k.weight", T.Q4_K, (HIDDEN, KV_HEADS * HEAD_DIM)),
            (f"blk.{i}.attn_v.weight", T.Q6_K, (HIDDEN, KV_HEADS * HEAD_DIM)),
            (f"blk.{i}.attn_output.weight", T.Q4_K, (HEADS * HEAD_DIM, HIDDEN)),
            (f"blk.{i}.ffn_norm.weight", T.F32, (HIDDEN,)),
            (f"blk.{i}.ffn_gate.weight", T.Q4_K, (HIDDEN, FFN)),
            (f"blk.{i}.ffn_up.weight", T.Q4_K, (HIDDEN, FFN)),
            (f"blk.{i}.ffn_down.weight", T.Q6_K, (FFN, HIDDEN)),
        ]
    tensors.append(("output_norm.weight", T.F32, (HIDDEN,)))
    if not tied:
        tensors.append(("output.weight", T.Q6_K, (HIDDEN, vocab)))
    return write(path, "llama", metadata, tensors)


EXPERTS, EXPERTS_USED, MOE_FFN = 8, 2, 256


def qwen3_moe(path: Path) -> Path:
    """A small Qwen3 MoE: Q8_0 attention, Q4_K experts, F32 router and norms (q and k norms too)."""
    metadata: dict[str, Any] = {
        "general.file_type": ("uint32", 7),
        "qwen3moe.block_count": ("uint32", LAYERS),
        "qwen3moe.context_length": ("uint32", 32768),
        "qwen3moe.embedding_length": ("uint32", HIDDEN),
        "qwen3moe.feed_forward_length": ("uint32", FFN),
        "qwen3moe.attention.head_count": ("uint32", HEADS),
        "qwen3moe.attention.head_count_kv": ("uint32", KV_HEADS),
        "qwen3moe.attention.key_length": ("uint32", 128),
        "qwen3moe.attention.value_length": ("uint32", 128),
        "qwen3moe.expert_count": ("uint32", EXPERTS),
        "qwen3moe.expert_used_count": ("uint32", EXPERTS_USED),
        "qwen3moe.expert_feed_forward_length": ("uint32", MOE_FFN),
    }
    head_dim = 128
    tensors = [("token_embd.weight", T.Q8_0, (HIDDEN, VOCAB))]
    for i in range(LAYERS):
        tensors += [
            (f"blk.{i}.attn_norm.weight", T.F32, (HIDDEN,)),
            (f"blk.{i}.attn_q.weight", T.Q8_0, (HIDDEN, HEADS * head_dim)),
            (f"blk.{i}.attn_q_norm.weight", T.F32, (head_dim,)),
            (f"blk.{i}.attn_k.weight", T.Q8_0, (HIDDEN, KV_HEADS * head_dim)),
            (f"blk.{i}.attn_k_norm.weight", T.F32, (head_dim,)),
            (f"blk.{i}.attn_v.weight", T.Q8_0, (HIDDEN, KV_HEADS * head_dim)),
            (f"blk.{i}.attn_output.weight", T.Q8_0, (HEADS * head_dim, HIDDEN)),
            (f"blk.{i}.ffn_norm.weight", T.F32, (HIDDEN,)),
            (f"blk.{i}.ffn_gate_inp.weight", T.F32, (HIDDEN, EXPERTS)),
            (f"blk.{i}.ffn_gate_exps.weight", T.Q4_K, (HIDDEN, MOE_FFN, EXPERTS)),
            (f"blk.{i}.ffn_up_exps.weight", T.Q4_K, (HIDDEN, MOE_FFN, EXPERTS)),
            (f"blk.{i}.ffn_down_exps.weight", T.Q4_K, (MOE_FFN, HIDDEN, EXPERTS)),
        ]
    tensors += [("output_norm.weight", T.F32, (HIDDEN,)), ("output.weight", T.Q8_0, (HIDDEN, VOCAB))]
    return write(path, "qwen3moe", metadata, tensors)


def _blocks(layers: int, per_layer: list[tuple[str, T, tuple[int, ...]]]) -> list[tuple[str, T, tuple[int, ...]]]:
    return [(f"blk.{i}.{name}", ggml_type, shape) for i in range(layers) for name, ggml_type, shape in per_layer]


def gemma3(path: Path, *, pattern: int | list[bool] | None = None) -> Path:
    """A small Gemma 3: tied embeddings (no output.weight), q/k norms, 1 global layer in 6 (or
    as ``pattern`` says: every n-th global, or one bool per layer, True for sliding)."""
    layers, hidden, head_dim = 6, 256, 128
    metadata: dict[str, Any] = {
        "gemma3.block_count": ("uint32", layers),
        "gemma3.embedding_length": ("uint32", hidden),
        "gemma3.feed_forward_length": ("uint32", 512),
        "gemma3.attention.head_count": ("uint32", 4),
        "gemma3.attention.head_count_kv": ("uint32", 1),
        "gemma3.attention.key_length": ("uint32", head_dim),
        "gemma3.attention.value_length": ("uint32", head_dim),
        "gemma3.attention.sliding_window": ("uint32", 512),
    }
    if isinstance(pattern, int):
        metadata["gemma3.attention.sliding_window_pattern"] = ("uint32", pattern)
    elif pattern is not None:
        metadata["gemma3.attention.sliding_window_pattern"] = ("array", pattern)
    per_layer = [
        ("attn_norm.weight", T.F32, (hidden,)),
        ("attn_q.weight", T.Q4_0, (hidden, 4 * head_dim)),
        ("attn_q_norm.weight", T.F32, (head_dim,)),
        ("attn_k.weight", T.Q4_0, (hidden, head_dim)),
        ("attn_k_norm.weight", T.F32, (head_dim,)),
        ("attn_v.weight", T.Q8_0, (hidden, head_dim)),
        ("attn_output.weight", T.Q4_0, (4 * head_dim, hidden)),
        ("post_attention_norm.weight", T.F32, (hidden,)),
        ("ffn_norm.weight", T.F32, (hidden,)),
        ("ffn_gate.weight", T.Q4_0, (hidden, 512)),
        ("ffn_up.weight", T.Q4_0, (hidden, 512)),
        ("ffn_down.weight", T.Q8_0, (512, hidden)),
        ("post_ffw_norm.weight", T.F32, (hidden,)),
    ]
    tensors = [("token_embd.weight", T.Q8_0, (hidden, VOCAB)), *_blocks(layers, per_layer)]
    tensors.append(("output_norm.weight", T.F32, (hidden,)))
    return write(path, "gemma3", metadata, tensors)


def deepseek2(path: Path) -> Path:
    """A small DeepSeek-V3: MLA (q and kv latents), one leading dense layer, a shared expert."""
    layers, hidden, heads, q_lora, kv_lora, rope, nope, v = 3, 256, 2, 128, 128, 32, 64, 64
    metadata: dict[str, Any] = {
        "deepseek2.block_count": ("uint32", layers),
        "deepseek2.embedding_length": ("uint32", hidden),
        "deepseek2.feed_forward_length": ("uint32", 512),
        "deepseek2.attention.head_count": ("uint32", heads),
        "deepseek2.attention.head_count_kv": ("uint32", 1),
        "deepseek2.attention.q_lora_rank": ("uint32", q_lora),
        "deepseek2.attention.kv_lora_rank": ("uint32", kv_lora),
        # As recent llama.cpp writes MLA: the absorbed key (latent + rope) and the per-head widths.
        "deepseek2.attention.key_length": ("uint32", kv_lora + rope),
        "deepseek2.attention.value_length": ("uint32", kv_lora),
        "deepseek2.attention.key_length_mla": ("uint32", nope + rope),
        "deepseek2.attention.value_length_mla": ("uint32", v),
        "deepseek2.rope.dimension_count": ("uint32", rope),
        "deepseek2.leading_dense_block_count": ("uint32", 1),
        "deepseek2.expert_count": ("uint32", EXPERTS),
        "deepseek2.expert_used_count": ("uint32", EXPERTS_USED),
        "deepseek2.expert_shared_count": ("uint32", 1),
        "deepseek2.expert_feed_forward_length": ("uint32", MOE_FFN),
    }
    attention = [
        ("attn_norm.weight", T.F32, (hidden,)),
        ("attn_q_a.weight", T.Q8_0, (hidden, q_lora)),
        ("attn_q_a_norm.weight", T.F32, (q_lora,)),
        ("attn_q_b.weight", T.Q8_0, (q_lora, heads * (nope + rope))),
        ("attn_kv_a_mqa.weight", T.Q8_0, (hidden, kv_lora + rope)),
        ("attn_kv_a_norm.weight", T.F32, (kv_lora,)),
        ("attn_kv_b.weight", T.Q8_0, (kv_lora, heads * (nope + v))),
        ("attn_output.weight", T.Q8_0, (heads * v, hidden)),
        ("ffn_norm.weight", T.F32, (hidden,)),
    ]
    dense = [
        ("ffn_gate.weight", T.Q8_0, (hidden, 512)),
        ("ffn_up.weight", T.Q8_0, (hidden, 512)),
        ("ffn_down.weight", T.Q8_0, (512, hidden)),
    ]
    moe = [
        ("ffn_gate_inp.weight", T.F32, (hidden, EXPERTS)),
        ("exp_probs_b.bias", T.F32, (EXPERTS,)),
        ("ffn_gate_exps.weight", T.IQ2_XXS, (hidden, MOE_FFN, EXPERTS)),
        ("ffn_up_exps.weight", T.IQ2_XXS, (hidden, MOE_FFN, EXPERTS)),
        ("ffn_down_exps.weight", T.IQ3_S, (MOE_FFN, hidden, EXPERTS)),
        ("ffn_gate_shexp.weight", T.Q8_0, (hidden, MOE_FFN)),
        ("ffn_up_shexp.weight", T.Q8_0, (hidden, MOE_FFN)),
        ("ffn_down_shexp.weight", T.Q8_0, (MOE_FFN, hidden)),
    ]
    tensors = [("token_embd.weight", T.Q8_0, (hidden, VOCAB))]
    for i in range(layers):
        tensors += [(f"blk.{i}.{n}", t, s) for n, t, s in attention + (dense if i == 0 else moe)]
    tensors += [("output_norm.weight", T.F32, (hidden,)), ("output.weight", T.Q8_0, (hidden, VOCAB))]
    return write(path, "deepseek2", metadata, tensors)


def gpt_oss(path: Path) -> Path:
    """A small gpt-oss: MXFP4 experts with biases, attention biases and sinks, alternate sliding layers."""
    layers, hidden, heads, head_dim = 2, 256, 4, 64
    metadata: dict[str, Any] = {
        "gpt-oss.block_count": ("uint32", layers),
        "gpt-oss.embedding_length": ("uint32", hidden),
        "gpt-oss.feed_forward_length": ("uint32", MOE_FFN),
        "gpt-oss.attention.head_count": ("uint32", heads),
        "gpt-oss.attention.head_count_kv": ("uint32", 2),
        "gpt-oss.attention.key_length": ("uint32", head_dim),
        "gpt-oss.attention.value_length": ("uint32", head_dim),
        "gpt-oss.attention.sliding_window": ("uint32", 128),
        "gpt-oss.expert_count": ("uint32", EXPERTS),
        "gpt-oss.expert_used_count": ("uint32", EXPERTS_USED),
        "gpt-oss.expert_feed_forward_length": ("uint32", MOE_FFN),
    }
    per_layer = [
        ("attn_norm.weight", T.F32, (hidden,)),
        ("attn_q.weight", T.BF16, (hidden, heads * head_dim)),
        ("attn_q.bias", T.F32, (heads * head_dim,)),
        ("attn_k.weight", T.BF16, (hidden, 2 * head_dim)),
        ("attn_k.bias", T.F32, (2 * head_dim,)),
        ("attn_v.weight", T.BF16, (hidden, 2 * head_dim)),
        ("attn_v.bias", T.F32, (2 * head_dim,)),
        ("attn_output.weight", T.BF16, (heads * head_dim, hidden)),
        ("attn_output.bias", T.F32, (hidden,)),
        ("attn_sinks.weight", T.F32, (heads,)),
        ("post_attention_norm.weight", T.F32, (hidden,)),
        ("ffn_gate_inp.weight", T.F32, (hidden, EXPERTS)),
        ("ffn_gate_inp.bias", T.F32, (EXPERTS,)),
        ("ffn_gate_exps.weight", T.MXFP4, (hidden, MOE_FFN, EXPERTS)),
        ("ffn_gate_exps.bias", T.F32, (MOE_FFN, EXPERTS)),
        ("ffn_up_exps.weight", T.MXFP4, (hidden, MOE_FFN, EXPERTS)),
        ("ffn_up_exps.bias", T.F32, (MOE_FFN, EXPERTS)),
        ("ffn_down_exps.weight", T.MXFP4, (MOE_FFN, hidden, EXPERTS)),
        ("ffn_down_exps.bias", T.F32, (hidden, EXPERTS)),
    ]
    tensors = [("token_embd.weight", T.BF16, (hidden, VOCAB)), *_blocks(layers, per_layer)]
    tensors += [("output_norm.weight", T.F32, (hidden,)), ("output.weight", T.BF16, (hidden, VOCAB))]
    return write(path, "gpt-oss", metadata, tensors)
