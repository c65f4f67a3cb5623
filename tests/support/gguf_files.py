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
