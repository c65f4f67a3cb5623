"""Inverse questions: given a model, hardware and a target, the largest or smallest setting that
meets it, and which constraint binds.

Each answer is the edge of what :func:`roofline_core.estimates.inference.memory_fit` and
:func:`roofline_core.estimates.inference.estimate_decode` accept, found by asking them (no second copy of
their formulas), so feeding an answer back lands exactly on its constraint: one more token,
sequence or bit no longer fits; the next smaller device count no longer fits or meets the latency.

>>> from roofline_core.hardware import ACCELERATORS
>>> from roofline_core.models import MODELS
>>> answer = largest_batch(model=MODELS["llama-3.1-8b"], accelerator=ACCELERATORS["h100-sxm"], context_tokens=8192)
>>> answer.value, answer.binding
(56, 'memory')
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from roofline_core.estimates.inference import TENSOR, MemoryFit, estimate_decode, memory_fit
from roofline_core.formatting import format_amount
from roofline_core.hardware import AnyAccelerator
from roofline_core.hardware.dtypes import WEIGHT_DTYPES, bytes_per_element
from roofline_core.models import AnyModel
from roofline_core.models.tensor_split import tensor_parallel_refusal

#: What binds an answer.
MEMORY = "memory"
LATENCY = "latency"
#: Nothing binds within the range searched (the answer is the range's end), or no value works.
NONE = "none"

#: The most devices :func:`fewest_devices` tries: more than any single serving deployment.
MAX_DEVICES = 1024
#: The largest batch :func:`best_batch_under_latency` tries when memory sets no limit.
MAX_BATCH = 1 << 20
#: Weight formats from most to fewest bits per weight (block-scaled formats with their scales);
#: 32-bit and the 16-bit duplicate are left out (no engine serves FP32 weights for speed).
FORMAT_LADDER: tuple[str, ...] = tuple(
    sorted((d for d in WEIGHT_DTYPES if d not in ("fp32", "fp16")), key=lambda d: -bytes_per_element(d))
)


@dataclass(frozen=True)
class Answer:
    """The answer to an inverse question.

    Attributes:
        value: The answer (tokens, sequences, devices or a format slug); None when no setting
            meets the target.
        binding: What stops it going further: :data:`MEMORY`, :data:`LATENCY` or :data:`NONE`.
        reason: One sentence with the numbers behind ``binding``.
    """

    value: int | str | None
    binding: str
    reason: str


#: What each binding is called in an answer's sentence.
_LIMITED_BY = {MEMORY: "memory", LATENCY: "the latency target"}


def sentence(answer: Answer, noun: str, *, fewest: bool = False) -> str:
    """An answer as a sentence a reader can take at face value.

    Args:
        answer: The answer of one inverse question.
        noun: The unit of a numeric answer, plural (``"tokens"``, ``"sequences"``,
            ``"devices"``); ``""`` for a weight format.
        fewest: True when the question asks for the fewest (devices): the answer is a floor,
            not a ceiling.

    Returns:
        ``"Up to 51 sequences fit in memory."``, ``"Does not fit."`` for no value
        or zero, never a bare binding in brackets.
    """
    value, binding = answer.value, answer.binding
    if value is None:
        if binding == LATENCY:
            return "Misses the latency target at every setting tried."
        if binding == MEMORY:
            return "Does not fit."
        return "No limit: memory never runs out for this question."
    if isinstance(value, str):
        if binding == MEMORY:
            return f"{value} is the widest weight format that fits."
        return f"{value} fits, and it is the widest weight format considered."
    if value == 0:
        return "Does not fit."
    amount = format_amount(value, noun)
    one = value == 1
    if fewest:
        needed = "is" if one else "are"
        goal = "meet the latency target" if binding == LATENCY else "hold it"
        return f"At least {amount} {needed} needed to {goal}."
    if binding == MEMORY:
        return f"Up to {amount} {'fits' if one else 'fit'} in memory."
    if binding == LATENCY:
        return f"Up to {amount} {'meets' if one else 'meet'} the latency target."
    return f"Up to {amount}; nothing limits it within the range searched."


def _gb(value: float) -> str:
    return f"{value / 1e9:.1f} GB"


def _setup(model: AnyModel, accelerator: AnyAccelerator, weight_dtype: str, kv_dtype: str) -> dict[str, Any]:
    """The arguments every question passes on unchanged."""
    return {"model": model, "accelerator": accelerator, "weight_dtype": weight_dtype, "kv_dtype": kv_dtype}


def _overflow(fit: MemoryFit) -> str:
    """Why nothing is left for the cache: the weights and the reserve alone, against the capacity."""
    return (
        f"weights {_gb(fit.weight_bytes)} and the runtime's reserve {_gb(fit.reserved_bytes)} "
        f"leave nothing of {_gb(fit.capacity_bytes)}"
    )


def longest_context(
    *,
    model: AnyModel,
    accelerator: AnyAccelerator,
    devices: int = 1,
    weight_dtype: str = "fp16",
    kv_dtype: str = "fp16",
    batch: int = 1,
) -> Answer:
    """Longest context (tokens per sequence) whose KV cache for ``batch`` sequences fits beside the
    weights and the runtime's reserve on ``devices`` x ``accelerator``."""
    fit = memory_fit(**_setup(model, accelerator, weight_dtype, kv_dtype), batch=batch, devices=devices)
    free = fit.free_bytes
    if fit.max_context_tokens is None:
        return Answer(None, NONE, "every layer's cache stops growing at its window: no context fills memory")
    if fit.max_context_tokens == 0:
        return Answer(0, MEMORY, _overflow(fit) if free <= 0 else f"not one token's cache fits in the {_gb(free)} left")
    return Answer(
        fit.max_context_tokens,
        MEMORY,
        f"{format_amount(batch, 'sequences')} of KV cache fill the {_gb(free)} left after weights and reserve",
    )


def largest_batch(
    *,
    model: AnyModel,
    accelerator: AnyAccelerator,
    devices: int = 1,
    weight_dtype: str = "fp16",
    kv_dtype: str = "fp16",
    context_tokens: int,
) -> Answer:
    """Most sequences of ``context_tokens`` whose KV cache fits beside the weights and reserve."""
    fit = memory_fit(
        **_setup(model, accelerator, weight_dtype, kv_dtype), context_tokens=context_tokens, devices=devices
    )
    if fit.max_batch is None:
        return Answer(None, NONE, "a context of 0 tokens caches nothing: memory sets no batch limit")
    free = fit.free_bytes
    if free <= 0:
        return Answer(0, MEMORY, _overflow(fit))
    return Answer(
        fit.max_batch,
        MEMORY,
        f"each sequence caches {_gb(fit.kv_bytes_per_sequence)}; {_gb(free)} is left for the cache after weights and reserve",
    )


def least_quantised_format(
    *,
    model: AnyModel,
    accelerator: AnyAccelerator,
    devices: int = 1,
    kv_dtype: str = "fp16",
    batch: int = 1,
    context_tokens: int = 0,
) -> Answer:
    """The weight format with the most bits per weight (the least quantisation) that fits, from
    :data:`FORMAT_LADDER`."""
    previous = None
    for dtype in FORMAT_LADDER:
        fit = memory_fit(
            **_setup(model, accelerator, dtype, kv_dtype), batch=batch, context_tokens=context_tokens, devices=devices
        )
        if fit.fits:
            if previous is None:
                return Answer(
                    dtype,
                    NONE,
                    f"the widest format considered; {_gb(fit.used_bytes)} of {_gb(fit.capacity_bytes)} used",
                )
            return Answer(
                dtype,
                MEMORY,
                f"{previous} weights would not fit; {dtype} uses {_gb(fit.used_bytes)} of {_gb(fit.capacity_bytes)}",
            )
        previous = dtype
    return Answer(None, MEMORY, f"even {FORMAT_LADDER[-1]} weights do not fit with this KV cache")


def _step_ms(
    model, accelerator, devices, weight_dtype, kv_dtype, batch, context_tokens, parallelism, efficiency
) -> float:
    return (
        1e3
        * estimate_decode(
            model=model,
            accelerator=accelerator,
            weight_dtype=weight_dtype,
            kv_dtype=kv_dtype,
            batch=batch,
            context_tokens=context_tokens,
            devices=devices,
            parallelism=parallelism,
            bandwidth_efficiency=efficiency,
        ).step_time_s
    )


def tensor_parallel_counts(model: AnyModel) -> tuple[int, ...]:
    """The device counts tensor parallelism can split ``model`` over, up to :data:`MAX_DEVICES`.

    As vLLM splits a model (:func:`roofline_core.models.tensor_split.tensor_parallel_refusal`): the query heads, the feed-forward
    and expert widths and the padded vocabulary must divide evenly, and the key/value heads
    either divide evenly over the devices or, when there are fewer of them than devices, are
    replicated a whole number of times (MLA's latent cache has no KV heads to split). A model
    given only by its size has no widths: powers of two.
    """
    heads = getattr(model, "heads", 0)
    if not heads:
        return tuple(2**i for i in range(MAX_DEVICES.bit_length()))
    return tuple(n for n in range(1, min(heads, MAX_DEVICES) + 1) if tensor_parallel_refusal(model, n) is None)


def fewest_devices(
    *,
    model: AnyModel,
    accelerator: AnyAccelerator,
    weight_dtype: str = "fp16",
    kv_dtype: str = "fp16",
    batch: int = 1,
    context_tokens: int = 0,
    max_ms_per_token: float | None = None,
    parallelism: str = TENSOR,
    bandwidth_efficiency: float = 1.0,
) -> Answer:
    """Fewest devices, among :func:`tensor_parallel_counts`, that hold the weights and KV cache
    and, when ``max_ms_per_token`` is given, decode a step within it."""

    def fits(n: int) -> bool:
        return memory_fit(
            **_setup(model, accelerator, weight_dtype, kv_dtype), batch=batch, context_tokens=context_tokens, devices=n
        ).fits

    # Every device adds the same memory and reserve, so the fit only improves with the count.
    counts = tensor_parallel_counts(model)
    by_memory = next((n for n in counts if fits(n)), None)
    if by_memory is None:
        return Answer(None, MEMORY, f"no count tensor parallelism can split it over (up to {counts[-1]}) holds it")
    at = counts.index(by_memory)
    if at:
        fewer_count = counts[at - 1]
        verb = "does" if fewer_count == 1 else "do"
        fewer = f"{format_amount(fewer_count, 'devices')} {verb} not hold weights and cache"
    else:
        fewer = "one device holds it"
    if max_ms_per_token is None:
        return Answer(by_memory, MEMORY, fewer)
    # Communication grows with the count while the per-device work shrinks, so the step time is
    # not monotonic in it: try each count in turn.
    for index, n in enumerate(counts[at:], start=at):
        step_ms = _step_ms(
            model, accelerator, n, weight_dtype, kv_dtype, batch, context_tokens, parallelism, bandwidth_efficiency
        )
        if step_ms <= max_ms_per_token:
            if n == by_memory:
                return Answer(n, MEMORY, f"{fewer}; at {n} a step takes {step_ms:.3g} ms")
            return Answer(
                n,
                LATENCY,
                f"memory needs {by_memory}; {counts[index - 1]} take longer than {max_ms_per_token:g} ms a step",
            )
    return Answer(None, LATENCY, f"no count up to {counts[-1]} decodes a step within {max_ms_per_token:g} ms")


def best_batch_under_latency(
    *,
    model: AnyModel,
    accelerator: AnyAccelerator,
    devices: int = 1,
    weight_dtype: str = "fp16",
    kv_dtype: str = "fp16",
    context_tokens: int = 0,
    max_ms_per_token: float,
    parallelism: str = TENSOR,
    bandwidth_efficiency: float = 1.0,
) -> Answer:
    """The batch with the most tokens/s whose decode step stays within ``max_ms_per_token`` and
    whose KV cache fits.

    A larger batch never shortens the step and never lowers tokens/s (the weights are read once
    for all sequences), so the answer is the largest batch that meets both.
    """
    memory_limit = largest_batch(
        model=model,
        accelerator=accelerator,
        devices=devices,
        weight_dtype=weight_dtype,
        kv_dtype=kv_dtype,
        context_tokens=context_tokens,
    )
    upper = MAX_BATCH if memory_limit.value is None else int(memory_limit.value)
    if upper == 0:
        return Answer(None, MEMORY, memory_limit.reason)

    def fast(batch: int) -> bool:
        return (
            _step_ms(
                model,
                accelerator,
                devices,
                weight_dtype,
                kv_dtype,
                batch,
                context_tokens,
                parallelism,
                bandwidth_efficiency,
            )
            <= max_ms_per_token
        )

    if not fast(1):
        return Answer(None, LATENCY, f"one sequence already takes longer than {max_ms_per_token:g} ms a step")
    best = _last(fast, 1, upper)
    if best == upper:
        return Answer(best, MEMORY if memory_limit.value is not None else NONE, memory_limit.reason)
    return Answer(best, LATENCY, f"{best + 1} sequences take longer than {max_ms_per_token:g} ms a step")


def _last(ok: Callable[[int], bool], low: int, high: int) -> int:
    """Largest n in [low, high] with ok(n), for ok monotonic (True then False) and ok(low)."""
    while low < high:
        middle = math.ceil((low + high) / 2)
        if ok(middle):
            low = middle
        else:
            high = middle - 1
    return low
