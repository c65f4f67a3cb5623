"""A serving engine's reserve and its start-up report, against hand derivations."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from roofline_core.estimates.headroom import (
    KV_BLOCK_TOKENS,
    activation_bytes,
    kv_cache_copies,
    kv_capacity,
    reserved_bytes,
)
from roofline_core.estimates.inference import memory_fit
from roofline_core.hardware import ACCELERATORS
from roofline_core.models import MODELS, CustomModel


def test_activation_bytes_of_one_chunk_by_hand() -> None:
    # Llama 3.1 8B, 2,048 tokens: the MLP's gate and up (2 x 14,336) are wider than attention's
    # Q, K, V and O ((2 x 32 + 2 x 8) x 128 = 10,240); plus twice the residual (2 x 4,096), in
    # 2 bytes; plus FP32 logits of 128 sequences over 128,256 tokens.
    expected = 2048 * (2 * 14_336 + 2 * 4096) * 2 + 128 * 128_256 * 4
    assert activation_bytes(MODELS["llama-3.1-8b"]) == expected == 216_662_016
    assert activation_bytes(CustomModel(streamed_params_per_token=8e9)) == 0


def test_reserve_is_the_share_outside_the_engine_plus_activations() -> None:
    model = MODELS["llama-3.1-8b"]
    assert reserved_bytes(model, capacity_bytes=80e9) == pytest.approx(8e9 + 216_662_016)
    assert reserved_bytes(model, capacity_bytes=80e9, utilisation=1.0) == 216_662_016
    with pytest.raises(ValueError):
        reserved_bytes(model, capacity_bytes=80e9, utilisation=0)


def test_kv_capacity_reports_blocks_tokens_and_requests() -> None:
    model = MODELS["llama-3.1-8b"]
    weights = model.weight_bytes()
    report = kv_capacity(model, capacity_bytes=80e9, weight_bytes=weights, kv_dtype="fp16", context_tokens=8192)
    budget = 80e9 - weights - (8e9 + 216_662_016)
    assert report.blocks == int(budget // (131_072 * 16))
    assert report.cache_tokens == 16 * report.blocks
    assert report.max_sequences == int(budget // (131_072 * 8192))


def test_the_engine_reserve_decides_whether_70b_in_fp16_runs_on_two_h100s_at_64k() -> None:
    # Two H100s expose 2 x 80 GiB (171.8 GB); 141 GB of weights leave a 64k sequence's 21.5 GB
    # of cache room in the bare memory but not once an engine keeps its reserve.
    model, h100 = MODELS["llama-3-70b"], ACCELERATORS["h100-sxm"]
    bare = memory_fit(model=model, accelerator=h100, devices=2, context_tokens=65_536, memory_utilisation=1.0)
    served = memory_fit(model=model, accelerator=h100, devices=2, context_tokens=65_536)
    assert bare.fits and not served.fits


@settings(max_examples=60, deadline=None)
@given(
    slug=st.sampled_from(["llama-3.1-8b", "llama-3-70b", "deepseek-v3", "gemma-2-9b", "qwen3-30b-a3b"]),
    devices=st.integers(1, 16),
    context=st.integers(1, 131_072),
    utilisation=st.floats(min_value=0.5, max_value=1.0),
)
def test_whatever_fits_leaves_the_reserve_free(slug, devices, context, utilisation) -> None:
    fit = memory_fit(
        model=MODELS[slug],
        accelerator=ACCELERATORS["h200"],
        devices=devices,
        context_tokens=context,
        memory_utilisation=utilisation,
    )
    if fit.fits:
        assert fit.weight_bytes + fit.kv_bytes <= fit.capacity_bytes * utilisation
    if fit.max_batch:
        assert (
            fit.weight_bytes + fit.max_batch * fit.kv_bytes_per_sequence + fit.reserved_bytes
            <= fit.capacity_bytes * (1 + 1e-12)
        )


def test_tensor_parallelism_keeps_an_mla_cache_whole_on_every_device() -> None:
    # vLLM's get_num_kv_heads is 1 for MLA: each rank caches the whole latent; GQA heads split
    # until there are more devices than heads, then repeat; pipeline stages never repeat.
    deepseek, llama_70b = MODELS["deepseek-v3"], MODELS["llama-3-70b"]
    assert kv_cache_copies(deepseek, devices=8) == 8
    assert kv_cache_copies(deepseek, devices=8, parallelism="expert") == 8
    assert kv_cache_copies(deepseek, devices=8, parallelism="pipeline") == 1
    assert kv_cache_copies(deepseek, devices=1) == 1
    assert kv_cache_copies(llama_70b, devices=8) == 1 and kv_cache_copies(llama_70b, devices=16) == 2


def test_deepseek_v3_in_fp8_on_eight_h200s_caches_an_eighth_of_a_split_cache() -> None:
    model, h200 = MODELS["deepseek-v3"], ACCELERATORS["h200"]
    fit = memory_fit(model=model, accelerator=h200, weight_dtype="fp8", devices=8, context_tokens=32_768)
    assert fit.kv_copies == 8
    # Each cached token costs its latent once per device.
    assert fit.max_context_tokens == math.floor(fit.free_bytes / (8 * model.kv_bytes_per_token("fp16")))
    engine = kv_capacity(
        model,
        capacity_bytes=fit.capacity_bytes,
        weight_bytes=fit.weight_bytes,
        kv_dtype="fp16",
        context_tokens=32_768,
        devices=8,
    )
    split = kv_capacity(
        model,
        capacity_bytes=fit.capacity_bytes,
        weight_bytes=fit.weight_bytes,
        kv_dtype="fp16",
        context_tokens=32_768,
        devices=8,
        parallelism="pipeline",
    )
    assert engine.cache_tokens == pytest.approx(split.cache_tokens / 8, abs=KV_BLOCK_TOKENS)
    assert engine.max_sequences == fit.max_batch == 22
