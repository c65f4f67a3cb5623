"""roofline_core.questions.inverse: each answer, fed back, sits exactly at its constraint."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from roofline_core.calculators import CALCULATORS, compute
from roofline_core.estimates.headroom import DEFAULT_MEMORY_UTILISATION, activation_bytes
from roofline_core.estimates.inference import estimate_decode, memory_fit
from roofline_core.hardware import ACCELERATORS
from roofline_core.models import MODELS
from roofline_core.models.tensor_split import padded_vocab, tensor_parallel_refusal, tensor_parallel_split_widths
from roofline_core.questions.inverse import (
    FORMAT_LADDER,
    LATENCY,
    MEMORY,
    NONE,
    Answer,
    best_batch_under_latency,
    fewest_devices,
    largest_batch,
    least_quantised_format,
    longest_context,
    sentence,
    tensor_parallel_counts,
)

H100 = ACCELERATORS["h100-sxm"]
LLAMA_8B = MODELS["llama-3.1-8b"]
LLAMA_70B = MODELS["llama-3.1-70b"]

models = st.sampled_from(sorted(MODELS))
accelerators = st.sampled_from(sorted(slug for slug, a in ACCELERATORS.items() if a.memory_bytes))
kv_dtypes = st.sampled_from(["fp16", "fp8"])
weight_dtypes = st.sampled_from(["bf16", "fp8", "int4"])


def _fits(model, accelerator, **kwargs) -> bool:
    return memory_fit(model=model, accelerator=accelerator, **kwargs).fits


def test_largest_batch_by_hand():
    # Llama 3.1 8B in FP16 on one H100 at 8,192 tokens: 90 % of 80 GB, less the activations and
    # 16.06 GB of weights, over 131,072 bytes x 8,192 tokens per sequence.
    free = 80e9 * DEFAULT_MEMORY_UTILISATION - activation_bytes(LLAMA_8B) - LLAMA_8B.weight_bytes("fp16")
    expected = math.floor(free / (131_072 * 8192))
    answer = largest_batch(model=LLAMA_8B, accelerator=H100, context_tokens=8192)
    assert (answer.value, answer.binding) == (expected, MEMORY)
    assert "left for the cache" in answer.reason


def test_a_model_too_large_says_why_with_its_numbers():
    answer = largest_batch(model=LLAMA_70B, accelerator=H100, devices=1, context_tokens=8192)
    assert (answer.value, answer.binding) == (0, MEMORY)
    assert "weights 141.1 GB" in answer.reason and "reserve" in answer.reason


def test_a_context_of_zero_sets_no_batch_limit():
    assert largest_batch(model=LLAMA_8B, accelerator=H100, context_tokens=0).binding == NONE


def test_least_quantised_format_on_one_h100_for_70b_is_below_16_bits():
    answer = least_quantised_format(model=LLAMA_70B, accelerator=H100, context_tokens=8192, batch=4)
    assert answer.binding == MEMORY and answer.value in FORMAT_LADDER
    assert FORMAT_LADDER.index(answer.value) > FORMAT_LADDER.index("bf16")


@settings(max_examples=40, deadline=None)
@given(models, accelerators, st.integers(1, 8), weight_dtypes, kv_dtypes, st.integers(1, 64))
def test_longest_context_fits_and_one_more_token_does_not(model, accelerator, devices, weight_dtype, kv_dtype, batch):
    m, a = MODELS[model], ACCELERATORS[accelerator]
    answer = longest_context(
        model=m, accelerator=a, devices=devices, weight_dtype=weight_dtype, kv_dtype=kv_dtype, batch=batch
    )
    common = dict(devices=devices, weight_dtype=weight_dtype, kv_dtype=kv_dtype, batch=batch)
    if answer.value is None:
        assert answer.binding == NONE
        return
    assert answer.binding == MEMORY
    if answer.value > 0:
        assert _fits(m, a, context_tokens=answer.value, **common)
    assert not _fits(m, a, context_tokens=answer.value + 1, **common)


@settings(max_examples=40, deadline=None)
@given(models, accelerators, st.integers(1, 8), weight_dtypes, kv_dtypes, st.integers(1, 200_000))
def test_largest_batch_fits_and_one_more_sequence_does_not(
    model, accelerator, devices, weight_dtype, kv_dtype, context
):
    m, a = MODELS[model], ACCELERATORS[accelerator]
    answer = largest_batch(
        model=m, accelerator=a, devices=devices, weight_dtype=weight_dtype, kv_dtype=kv_dtype, context_tokens=context
    )
    common = dict(devices=devices, weight_dtype=weight_dtype, kv_dtype=kv_dtype, context_tokens=context)
    assert answer.binding == MEMORY
    if answer.value > 0:
        assert _fits(m, a, batch=answer.value, **common)
    assert not _fits(m, a, batch=answer.value + 1, **common)


@settings(max_examples=40, deadline=None)
@given(models, accelerators, st.integers(1, 8), kv_dtypes, st.integers(1, 32), st.integers(0, 131_072))
def test_least_quantised_format_fits_and_the_next_wider_does_not(model, accelerator, devices, kv_dtype, batch, context):
    m, a = MODELS[model], ACCELERATORS[accelerator]
    answer = least_quantised_format(
        model=m, accelerator=a, devices=devices, kv_dtype=kv_dtype, batch=batch, context_tokens=context
    )
    common = dict(devices=devices, kv_dtype=kv_dtype, batch=batch, context_tokens=context)
    if answer.value is None:
        assert not _fits(m, a, weight_dtype=FORMAT_LADDER[-1], **common)
        return
    assert _fits(m, a, weight_dtype=answer.value, **common)
    at = FORMAT_LADDER.index(answer.value)
    if at > 0:
        assert answer.binding == MEMORY
        assert not _fits(m, a, weight_dtype=FORMAT_LADDER[at - 1], **common)


def _step_ms(m, a, **kwargs) -> float:
    return 1e3 * estimate_decode(model=m, accelerator=a, **kwargs).step_time_s


@settings(max_examples=30, deadline=None)
@given(models, accelerators, st.integers(1, 32), st.integers(0, 32_768), st.sampled_from([None, 5.0, 20.0, 80.0]))
def test_fewest_devices_meet_the_target_and_one_fewer_does_not(model, accelerator, batch, context, limit_ms):
    m, a = MODELS[model], ACCELERATORS[accelerator]
    answer = fewest_devices(model=m, accelerator=a, batch=batch, context_tokens=context, max_ms_per_token=limit_ms)
    common = dict(batch=batch, context_tokens=context)

    def meets(n: int) -> bool:
        return _fits(m, a, devices=n, **common) and (
            limit_ms is None or _step_ms(m, a, devices=n, **common) <= limit_ms
        )

    counts = tensor_parallel_counts(m)
    if answer.value is None:
        assert answer.binding in (MEMORY, LATENCY)
        assert not any(meets(n) for n in counts)
        return
    assert answer.value in counts and meets(answer.value)
    for fewer in counts[: counts.index(answer.value)]:
        assert not meets(fewer)


@settings(max_examples=30, deadline=None)
@given(models, accelerators, st.integers(1, 8), st.integers(0, 32_768), st.sampled_from([5.0, 20.0, 80.0]))
def test_best_batch_meets_latency_and_memory_and_one_more_sequence_breaks_one(
    model, accelerator, devices, context, limit_ms
):
    m, a = MODELS[model], ACCELERATORS[accelerator]
    answer = best_batch_under_latency(
        model=m, accelerator=a, devices=devices, context_tokens=context, max_ms_per_token=limit_ms
    )
    common = dict(devices=devices, context_tokens=context)
    if answer.value is None:
        return
    b = answer.value
    assert _fits(m, a, batch=b, **common) and _step_ms(m, a, batch=b, **common) <= limit_ms
    more = b + 1
    broken = not _fits(m, a, batch=more, **common) or _step_ms(m, a, batch=more, **common) > limit_ms
    assert broken or answer.binding == NONE
    if answer.binding == LATENCY:
        assert _step_ms(m, a, batch=more, **common) > limit_ms


def test_device_counts_are_those_tensor_parallelism_can_split_the_heads_over():
    # vLLM's QKVParallelLinear: query heads divide evenly; KV heads divide evenly, or are
    # replicated a whole number of times when the devices outnumber them.
    # 28 query and 4 KV heads would allow 28, but its 18,944-wide MLP does not split 28 ways
    # (vLLM refuses it: issue 31, item 10).
    assert tensor_parallel_counts(MODELS["qwen2.5-7b"]) == (1, 2, 4)
    assert tensor_parallel_counts(LLAMA_70B) == (1, 2, 4, 8, 16, 32, 64)  # 64 query, 8 KV heads
    # MLA caches a latent, not KV heads: only the 128 query heads must divide.
    assert tensor_parallel_counts(MODELS["deepseek-v3"]) == (1, 2, 4, 8, 16, 32, 64, 128)


def test_device_counts_also_divide_the_feed_forward_expert_and_padded_vocabulary_widths():
    # vLLM divides each split width exactly (MergedColumnParallelLinear, FusedMoE,
    # VocabParallelEmbedding after padding the vocabulary to a multiple of 64).
    assert tensor_parallel_refusal(MODELS["qwen2.5-7b"], 28) == "the feed-forward width 18944 does not divide by 28"
    assert tensor_parallel_refusal(MODELS["qwen2.5-7b"], 4) is None
    # Phi-4: 40 query and 10 KV heads, but 100,352 tokens (already a multiple of 64) split only 1 or 2 ways
    # among the head-compatible counts.
    assert padded_vocab(100_352) == 100_352 and padded_vocab(32_001) == 32_064
    assert tensor_parallel_refusal(MODELS["phi-4"], 10) == "the padded vocabulary 100352 does not divide by 10"
    assert tensor_parallel_counts(MODELS["phi-4"]) == (1, 2)
    # Mixtral 8x22B: 48 heads, but each 16,384-wide expert and the 32,000-token vocabulary stop at 16.
    assert tensor_parallel_counts(MODELS["mixtral-8x22b"]) == (1, 2, 4, 8, 16)
    # An all-MoE config's unused dense width does not count; Qwen3-30B-A3B's experts are 768 wide.
    assert ("feed-forward width", 6144) not in tensor_parallel_split_widths(MODELS["qwen3-30b-a3b"])
    assert ("expert width", 768) in tensor_parallel_split_widths(MODELS["qwen3-30b-a3b"])
    for model in MODELS.values():
        for n in tensor_parallel_counts(model):
            assert all(width % n == 0 for _, width in tensor_parallel_split_widths(model))


def test_fewest_devices_never_answers_a_count_vllm_refuses():
    # Qwen2.5-7B, 256 sequences of 32k tokens on H100s: four devices do not hold the cache, and
    # the next count the heads allow, 28, is refused by vLLM; before, 28 was the answer.
    answer = fewest_devices(model=MODELS["qwen2.5-7b"], accelerator=H100, batch=256, context_tokens=32_768)
    assert answer.value is None and answer.binding == MEMORY
    assert "up to 4" in answer.reason


# Answers as sentences (issue 30): zero or no setting reads "Does not fit.", and no answer is a
# bare binding in brackets such as "bf16 (nothing binds)".


@pytest.mark.parametrize(
    ("answer", "noun", "fewest", "expected"),
    [
        (Answer(0, MEMORY, "why"), "tokens", False, "Does not fit."),
        (Answer(0, MEMORY, "why"), "sequences", False, "Does not fit."),
        (Answer(None, MEMORY, "why"), "devices", True, "Does not fit."),
        (Answer(None, MEMORY, "why"), "", False, "Does not fit."),
        (Answer(None, LATENCY, "why"), "sequences", False, "Misses the latency target at every setting tried."),
        (Answer(None, NONE, "why"), "sequences", False, "No limit: memory never runs out for this question."),
        (Answer(1, MEMORY, "why"), "sequences", False, "Up to 1 sequence fits in memory."),
        (Answer(51, MEMORY, "why"), "sequences", False, "Up to 51 sequences fit in memory."),
        (Answer(40, LATENCY, "why"), "sequences", False, "Up to 40 sequences meet the latency target."),
        (Answer(32768, MEMORY, "why"), "tokens", False, "Up to 32,768 tokens fit in memory."),
        (Answer(1, MEMORY, "why"), "devices", True, "At least 1 device is needed to hold it."),
        (Answer(8, LATENCY, "why"), "devices", True, "At least 8 devices are needed to meet the latency target."),
        (Answer("bf16", NONE, "why"), "", False, "bf16 fits, and it is the widest weight format considered."),
        (Answer("fp8", MEMORY, "why"), "", False, "fp8 is the widest weight format that fits."),
    ],
)
def test_each_kind_of_answer_reads_as_a_sentence(answer, noun, fewest, expected):
    assert sentence(answer, noun, fewest=fewest) == expected


def _what_fits_texts(**changes) -> dict[str, str]:
    values = {**CALCULATORS["what-fits"].defaults(), **changes}
    return {key: out["text"] for key, out in compute("what-fits", values)["outputs"].items()}


def test_what_fits_says_does_not_fit_for_a_model_too_large():
    # 70B at 16 bits on one H100: no context, batch or best batch fits.
    texts = _what_fits_texts(devices=1, weight_dtype="bf16")
    assert texts["longest_context"] == texts["largest_batch"] == texts["best_batch"] == "Does not fit."


@settings(max_examples=25, deadline=None)
@given(
    models,
    accelerators,
    st.sampled_from([1, 2, 4, 8]),
    weight_dtypes,
    st.integers(1, 256),
    st.sampled_from([1, 1024, 131_072]),
    st.sampled_from([0.5, 20.0, 5000.0]),
)
def test_every_what_fits_answer_is_a_sentence(model, accelerator, devices, weights, batch, context, limit_ms):
    texts = _what_fits_texts(
        model=model,
        accelerator=accelerator,
        devices=devices,
        weight_dtype=weights,
        batch=batch,
        context_tokens=context,
        max_ms_per_token=limit_ms,
    )
    for key in ("longest_context", "largest_batch", "fewest_devices", "least_quantised_format", "best_batch"):
        text = texts[key]
        assert text.endswith(".") and "(" not in text and "binds" not in text, (key, text)
        assert text[0].isupper() or text.split()[0] in FORMAT_LADDER, (key, text)
        assert not text.startswith("0 "), (key, text)
