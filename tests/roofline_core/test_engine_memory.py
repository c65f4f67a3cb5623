"""Memory as vLLM, SGLang and llama.cpp allocate it (roofline_core.estimates.engine_memory).

Every expected figure is worked by hand from the model's config fields and the engine's rule the
module docstring cites.
"""

from __future__ import annotations

import math

import pytest

from roofline_core.engine_log import parse
from roofline_core.estimates.engine_memory import (
    llama_cpp_cells,
    sglang_max_total_tokens,
    vllm_allocation,
    vllm_layout,
)
from roofline_core.hardware import ACCELERATORS
from roofline_core.models import MODELS
from roofline_core.questions.engine_log_check import check_log

GIB = 2**30


def test_llama_8b_on_an_h100_at_0_9_by_hand():
    model = MODELS["llama-3.1-8b"]
    h100 = ACCELERATORS["h100-sxm"]
    assert h100.memory_bytes == 80 * GIB
    a = vllm_allocation(model, total_bytes=h100.memory_bytes, weight_bytes=8_030_261_248 * 2, context_tokens=32_768)
    # A page: 16 tokens x 2 (K, V) x 8 KV heads x 128 x 2 bytes = 65,536 bytes; one group of 32 layers.
    assert (a.layout.block_tokens, a.layout.page_bytes, a.layout.group_size, len(a.layout.groups)) == (
        16,
        65_536,
        32,
        1,
    )
    # Profiling: 8,192 tokens x (gate + up 2 x 14,336 + residual 2 x 4,096) x 2 bytes, and the FP32
    # logits of 1,024 sequences over 128,256 words (an 80 GiB GPU takes the large defaults).
    assert (a.batched_tokens, a.max_seqs) == (8192, 1024)
    assert a.activation_bytes == 8192 * 36_864 * 2 + 1024 * 128_256 * 4 == 1_129_316_352
    # 0.9 x 80 GiB = 77,309,411,328; less weights 16,060,522,496, activations, 0.2 GiB non-torch.
    assert a.budget_bytes == pytest.approx(77_309_411_328)
    assert a.available_bytes == pytest.approx(59_904_824_115.2)
    # floor(59,904,824,115.2 / 65,536 / 32) = 28,564 blocks = 457,024 tokens; 2,048 blocks a request.
    assert a.blocks == 28_564 and a.cache_tokens == 457_024
    assert a.max_concurrency == pytest.approx(28_564 / 2048)
    # The model needs 32,768 x 131,072 bytes a request; vLLM's blocks hold exactly that here.
    assert a.model_bytes_per_request == a.engine_bytes_per_request == 32_768 * 131_072
    assert sum(part for _, part in a.parts) == pytest.approx(a.total_bytes)
    assert a.outside_bytes == pytest.approx(0.1 * 80 * GIB)


def test_a_context_that_is_not_whole_blocks_rounds_up_per_request():
    model = MODELS["llama-3.1-8b"]
    a = vllm_allocation(model, total_bytes=80 * GIB, weight_bytes=16.06e9, context_tokens=1000)
    # ceil(1000 / 16) = 63 blocks = 1,008 tokens of pages for 1,000 tokens of state.
    assert a.engine_bytes_per_request == 63 * 65_536 * 32
    assert a.model_bytes_per_request == 1000 * 131_072
    assert a.max_concurrency == pytest.approx(a.blocks / 63)


def test_qwen3_next_hybrid_page_groups_and_state_slots_by_hand():
    model = MODELS["qwen3-next-80b-a3b"]
    # One device: Gated DeltaNet state 32 heads x 128 x 128 x 2 bytes = 1,048,576 plus the
    # convolution's last 3 inputs of (2 x 16 x 128 + 32 x 128) channels x 2 bytes = 49,152.
    # An attention token in one layer: 2 x 2 KV heads x 256 x 2 = 2,048 bytes, so the block grows
    # to 16 x ceil(1,097,728 / (16 x 2,048)) = 544 tokens, a page of 1,114,112 bytes.
    one = vllm_layout(model)
    assert (one.block_tokens, one.page_bytes) == (544, 1_114_112)
    # Tensor parallel 4: KV heads max(1, 2 // 4) = 1 (replicated), the state split 4 ways: 274,432
    # bytes; 1,024 bytes an attention token; 16 x ceil(274,432 / 16,384) = 272 tokens.
    four = vllm_layout(model, tensor_parallel=4)
    assert (four.block_tokens, four.page_bytes) == (272, 272 * 1024)
    # 12 attention and 36 linear layers: groups of 12, one attention group and three linear ones.
    assert four.group_size == 12
    assert [g.kind for g in four.groups] == ["full attention"] + ["Gated DeltaNet (linear attention)"] * 3
    # 10 GiB: floor(10,737,418,240 / 278,528 / 12) = 3,212 blocks; the log's tokens are
    # 3,212 // 4 groups x 272 = 218,416.
    assert four.blocks(10 * GIB) == 3212 and four.reported_tokens(3212) == 218_416
    # A request of 32,768 tokens: ceil(32,768 / 272) = 121 attention blocks and one state slot in
    # each linear group.
    assert four.blocks_per_request(32_768, batched_tokens=8192) == 124


def test_gemma_3_sliding_groups_hold_the_window_and_the_batch():
    layout = vllm_layout(MODELS["gemma-3-27b"])
    # 10 full and 52 sliding layers: groups of 10, so 1 full group and ceil(52 / 10) = 6 sliding.
    assert layout.group_size == 10 and len(layout.groups) == 7
    # Full: 32,768 / 16 = 2,048 blocks; sliding: ceil(min(1,023 + 8,192, 32,768) / 16) + 1 = 577.
    assert layout.blocks_per_request(32_768, batched_tokens=8192) == 2048 + 6 * 577


def test_a_hybrid_vllm_log_is_reproduced_with_the_hybrid_page():
    tokens = vllm_layout(MODELS["qwen3-next-80b-a3b"], tensor_parallel=4).reported_tokens(3212)
    log = parse(
        "INFO 11-27 12:00:05 [gpu_worker.py:298] Available KV cache memory: 10.00 GiB\n"
        f"INFO 11-27 12:00:06 [kv_cache_utils.py:1087] GPU KV cache size: {tokens:,} tokens\n"
        "INFO 11-27 12:00:06 [kv_cache_utils.py:1091] Maximum concurrency for 32,768 tokens per request: 25.90x"
    )
    checks = {c.name: c for c in check_log(log, model=MODELS["qwen3-next-80b-a3b"], tensor_parallel=4)}
    assert checks["kv_cache_tokens"].expected == 218_416 and checks["kv_cache_tokens"].agrees
    assert "272 tokens" in checks["kv_cache_tokens"].working
    # 218,416 // 272 x 4 = 3,212 blocks over 124 blocks a request.
    assert checks["max_concurrency"].expected == pytest.approx(3212 / 124) and checks["max_concurrency"].agrees


def test_sglang_pool_and_llama_cpp_padding_by_hand():
    model = MODELS["llama-3.1-8b"]
    # (80 - 16) GiB free after the weights, less 0.12 x 80 GiB: 54.4 GiB over 131,072 bytes a token.
    assert sglang_max_total_tokens(model, total_bytes=80 * GIB, weight_bytes=16 * GIB) == math.floor(
        54.4 * GIB / 131_072
    )
    assert llama_cpp_cells(4000) == 4096 and llama_cpp_cells(4097) == 4352


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (
            lambda: vllm_allocation(
                MODELS["llama-3.1-8b"], total_bytes=1, weight_bytes=0, context_tokens=1, utilisation=0
            ),
            "gpu_memory_utilization must be more than 0 and at most 1, got 0",
        ),
        (
            lambda: vllm_allocation(MODELS["llama-3.1-8b"], total_bytes=1, weight_bytes=0, context_tokens=0),
            "context_tokens must be at least 1, got 0",
        ),
        (lambda: vllm_layout(MODELS["llama-3.1-8b"], tensor_parallel=0), "tensor_parallel must be at least 1, got 0"),
        (lambda: vllm_layout(MODELS["llama-3.1-8b"], block_tokens=0), "block_tokens must be at least 1, got 0"),
        (
            lambda: sglang_max_total_tokens(
                MODELS["llama-3.1-8b"], total_bytes=1, weight_bytes=0, mem_fraction_static=2
            ),
            "mem_fraction_static must be more than 0 and at most 1, got 2",
        ),
        (lambda: llama_cpp_cells(0), "n_ctx must be at least 1, got 0"),
    ],
)
def test_each_refusal_says_what_it_expected(call, message):
    with pytest.raises(ValueError, match=message):
        call()
