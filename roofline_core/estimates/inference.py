"""Inference estimates built on the roofline: decode, prefill, KV cache, batching, memory fit.

The low-level functions (:func:`kv_cache_bytes`, :func:`decode_step`, :func:`prefill_step`,
:func:`critical_batch`) take plain numbers and are the stable public API. The ``estimate_*``
functions and :func:`memory_fit` take a model (a preset :class:`~roofline_core.models.Model` or a
:class:`~roofline_core.models.CustomModel`) and an accelerator (a preset
:class:`~roofline_core.hardware.Accelerator` or a :class:`~roofline_core.hardware.CustomAccelerator`)
and fill those numbers in.

The model is the "speed of light": each step is as fast as the slower of its math at peak and
its bytes at (optionally derated) peak bandwidth. Real systems land below it: the seeds note that
about 70-80% of peak bandwidth is what serving stacks sustain, hence ``bandwidth_efficiency``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from dataclasses import fields as dataclass_fields

from roofline_core.estimates.communication import NONE as NO_COMMUNICATION
from roofline_core.estimates.communication import (
    STEP_LATENCY_S,
    CommCost,
    expert_parallel_comm,
    tensor_parallel_comm,
)
from roofline_core.estimates.efficiency import (
    DECODE,
    PREFILL,
    Regime,
    expected_range_s,
    expected_step_s,
    expected_tensor_parallel_s,
    regime_of_run,
)
from roofline_core.estimates.headroom import DEFAULT_MEMORY_UTILISATION, kv_cache_copies, reserved_bytes
from roofline_core.estimates.parts import (
    ACTIVATIONS,
    ATTENTION,
    COMMUNICATION_LATENCY,
    COMMUNICATION_TRANSFER,
    EFFICIENCY,
    KV_CACHE,
    PIPELINE_IDLE,
    WEIGHTS,
    BrokenIntoParts,
    Part,
    Working,
)
from roofline_core.estimates.parts import COMPUTE as COMPUTE_PART
from roofline_core.formatting import (
    format_amount,
    format_bandwidth,
    format_bytes,
    format_flop_per_s,
    format_flops,
    format_number,
    format_percent,
    format_time,
    format_whole,
)
from roofline_core.hardware import AnyAccelerator
from roofline_core.hardware.compute_format import resolve_compute_dtype
from roofline_core.hardware.dtypes import bytes_per_element
from roofline_core.models import AnyModel, Model
from roofline_core.models.attention import AttentionCost, decode_attention_cost, prefill_attention_cost
from roofline_core.models.tensor_split import tensor_parallel_refusal
from roofline_core.roofline import (
    COMPUTE,
    MEMORY,
    _require_non_negative,
    _require_positive,
    ridge_point,
)

#: Batch sizes of the decode throughput table in seed 004 (:func:`batch_sweep`, the CLI's sweep).
DEFAULT_SWEEP_BATCHES: tuple[int, ...] = (1, 2, 4, 8, 16, 32, 64, 128, 256)
#: Seed 004's batches continued past the H100 ridge (about batch 295), so a table or chart shows
#: the turn to compute-bound: the decode calculator's table and the decode-batch figure.
DECODE_TABLE_BATCHES: tuple[int, ...] = (*DEFAULT_SWEEP_BATCHES, 512, 1024)


#: How the work of a step is split over devices (``estimate_decode(parallelism=...)``).
TENSOR, PIPELINE, EXPERT = "tensor", "pipeline", "expert"
PARALLELISMS = (TENSOR, PIPELINE, EXPERT)


def _require_count(name: str, value: int) -> None:
    if not (isinstance(value, int) and not isinstance(value, bool) and value >= 1):
        raise ValueError(f"{name} must be a whole number >= 1, got {value!r}")


def _require_context(context_tokens: int) -> None:
    if not (isinstance(context_tokens, int) and context_tokens >= 0):
        raise ValueError(f"context_tokens must be a whole number >= 0, got {context_tokens!r}")


def kv_cache_bytes(
    *, layers: int, kv_heads: int, head_dim: int, tokens: int, batch: int = 1, bytes_per_element: float = 2
) -> float:
    """Size of an MHA or GQA key/value cache.

    Args:
        layers: Decoder layers.
        kv_heads: Key/value heads per layer.
        head_dim: Width of one head.
        tokens: Cached tokens per sequence (the context length).
        batch: Sequences.
        bytes_per_element: Bytes per cached element (2 for fp16).

    Returns:
        ``2 * layers * tokens * kv_heads * head_dim * bytes_per_element * batch``, in bytes
        (the 2 is one key and one value).
    """
    for name, value in (("layers", layers), ("kv_heads", kv_heads), ("head_dim", head_dim), ("batch", batch)):
        _require_count(name, value)
    if not (isinstance(tokens, int) and tokens >= 0):
        raise ValueError(f"tokens must be a whole number >= 0, got {tokens!r}")
    _require_positive("bytes_per_element", bytes_per_element)
    return 2.0 * layers * tokens * kv_heads * head_dim * bytes_per_element * batch


@dataclass(frozen=True)
class StepEstimate(BrokenIntoParts):
    """One forward step on the roofline.

    Attributes:
        flops: FLOPs of the step over all sequences and devices, in FLOP.
        bytes_moved: Bytes read over all devices, in bytes.
        tokens: Tokens the step produces or processes (batch for decode, batch x prompt for prefill).
        step_time_s: Time of the step, in seconds.
        peak_flop_per_s: Peak compute of one device, in FLOP/s.
        bandwidth_bytes_per_s: Bandwidth of one device, in bytes/s.
        devices: Devices the work is split over.
        byte_parts: ``bytes_moved`` by kind, as ``(label, bytes)`` with labels of
            :mod:`roofline_core.estimates.parts` (weights, KV cache, activations); empty means
            all of it is weights.
        attention_flops: The share of ``flops`` that is attention's arithmetic, in FLOP.
        peak_bandwidth_bytes_per_s: One device's peak bandwidth when ``bandwidth_bytes_per_s``
            is a sustained share of it; 0 when the two are the same.
        communication: The collectives whose time ``step_time_s`` includes beside the roofs.
        fixed_parts: Parts (with their working) recorded by an estimate whose time is not one
            roofline step plus communication (a pipeline); empty for every other step.
    """

    flops: float
    bytes_moved: float
    tokens: int
    step_time_s: float
    peak_flop_per_s: float
    bandwidth_bytes_per_s: float
    devices: int
    # How the step is made up, for its parts: bookkeeping beside the numbers above, so two steps
    # with the same numbers compare equal however they were built.
    byte_parts: tuple[tuple[str, float], ...] = field(default=(), compare=False)
    attention_flops: float = field(default=0.0, compare=False)
    peak_bandwidth_bytes_per_s: float = field(default=0.0, compare=False)
    communication: CommCost = field(default=NO_COMMUNICATION, compare=False)
    fixed_parts: tuple[tuple[Part, str], ...] = field(default=(), compare=False)

    @property
    def intensity_flop_per_byte(self) -> float:
        """Arithmetic intensity of the step, in FLOP/byte."""
        return self.flops / self.bytes_moved

    @property
    def ridge_point_flop_per_byte(self) -> float:
        return ridge_point(peak_flop_per_s=self.peak_flop_per_s, bandwidth_bytes_per_s=self.bandwidth_bytes_per_s)

    @property
    def combined_bandwidth_bytes_per_s(self) -> float:
        """Peak memory bandwidth of all the devices together, in bytes/s."""
        return self.bandwidth_bytes_per_s * self.devices

    @property
    def combined_peak_flop_per_s(self) -> float:
        """Peak FLOP/s of all the devices together."""
        return self.peak_flop_per_s * self.devices

    @property
    def memory_time_s(self) -> float:
        """The step's bytes at the devices' peak bandwidth, in seconds (the memory roof)."""
        return self.bytes_moved / self.combined_bandwidth_bytes_per_s

    @property
    def compute_time_s(self) -> float:
        """The step's FLOPs at the devices' peak, in seconds (the compute roof)."""
        return self.flops / self.combined_peak_flop_per_s

    @property
    def bound(self) -> str:
        """``"memory"`` or ``"compute"``: which roof sets :attr:`step_time_s`."""
        return COMPUTE if self.compute_time_s >= self.memory_time_s else MEMORY

    @property
    def tokens_per_s(self) -> float:
        """Tokens per second over all sequences, in tokens/s."""
        return self.tokens / self.step_time_s

    @property
    def compute_utilisation(self) -> float:
        """Achieved FLOP/s as a share of the devices' peak (0 to 1)."""
        return self.flops / self.step_time_s / self.combined_peak_flop_per_s

    def _parts_and_working(self) -> tuple[tuple[Part, str], ...]:
        if self.fixed_parts:
            return self.fixed_parts
        found: list[tuple[Part, str]] = []
        devices = self.devices
        on = f" ÷ {format_amount(devices, 'devices')}" if devices > 1 else ""
        peak_bw = self.peak_bandwidth_bytes_per_s or self.bandwidth_bytes_per_s
        at_peak = 0.0
        for label, size in self.byte_parts or ((WEIGHTS, self.bytes_moved),):
            seconds = size / (peak_bw * devices)
            at_peak += seconds
            if seconds > 0:
                found.append((Part(label, seconds), f"{format_bytes(size)}{on} ÷ {format_bandwidth(peak_bw)}"))
        memory_s = self.memory_time_s
        if peak_bw != self.bandwidth_bytes_per_s and memory_s > at_peak:
            share = self.bandwidth_bytes_per_s / peak_bw
            found.append(
                (
                    Part(EFFICIENCY, memory_s - at_peak),
                    f"{format_bytes(self.bytes_moved)}{on} ÷ {format_bandwidth(self.bandwidth_bytes_per_s)}"
                    f" ({format_percent(share)} of peak) − the same at peak",
                )
            )
        beyond = self.compute_time_s - memory_s
        if beyond > 0:
            whole = (
                f"{format_flops(self.flops)}{on} ÷ {format_flop_per_s(self.peak_flop_per_s)} − {format_time(memory_s)}"
            )
            attention = min(self.attention_flops / self.flops, 1.0)
            for label, share in ((COMPUTE_PART, 1.0 - attention), (ATTENTION, attention)):
                if share > 0:
                    found.append((Part(label, beyond * share), f"({whole}) × {format_percent(share)} of the FLOPs"))
        comm = self.communication
        if comm.latency_s > 0:
            steps = comm.latency_s / STEP_LATENCY_S / max(comm.collectives, 1)
            found.append(
                (
                    Part(COMMUNICATION_LATENCY, comm.latency_s),
                    f"{format_whole(comm.collectives)} {comm.kind or 'collective'}s × {format_number(steps)} steps"
                    f" × {format_time(STEP_LATENCY_S)}",
                )
            )
        if comm.transfer_s > 0 and comm.link_bytes_per_s > 0:
            found.append(
                (
                    Part(COMMUNICATION_TRANSFER, comm.transfer_s),
                    f"{format_bytes(comm.bytes_per_device)} sent per device ÷ {format_bandwidth(comm.link_bytes_per_s)}",
                )
            )
        return tuple(found)


def _step(
    *,
    flops: float,
    bytes_moved: float,
    tokens: int,
    peak_flop_per_s: float,
    bandwidth_bytes_per_s: float,
    devices: int,
    byte_parts: tuple[tuple[str, float], ...] = (),
    attention_flops: float = 0.0,
    peak_bandwidth_bytes_per_s: float = 0.0,
) -> StepEstimate:
    # The work is split evenly, so each device does 1/devices of the FLOPs and bytes; the step
    # takes as long as one device's share.
    step_time_s = max(flops / (peak_flop_per_s * devices), bytes_moved / (bandwidth_bytes_per_s * devices))
    return StepEstimate(
        flops=flops,
        bytes_moved=bytes_moved,
        tokens=tokens,
        step_time_s=step_time_s,
        peak_flop_per_s=peak_flop_per_s,
        bandwidth_bytes_per_s=bandwidth_bytes_per_s,
        devices=devices,
        byte_parts=byte_parts,
        attention_flops=attention_flops,
        peak_bandwidth_bytes_per_s=peak_bandwidth_bytes_per_s,
    )


def with_communication(step: StepEstimate, communication: CommCost) -> StepEstimate:
    """``step`` with ``communication`` on its critical path (not overlapped with the roofs)."""
    return replace(
        step,
        step_time_s=step.step_time_s + communication.time_s,
        communication=communication,
    )


def decode_step(
    *,
    params: float,
    peak_flop_per_s: float,
    bandwidth_bytes_per_s: float,
    bytes_per_param: float = 2,
    batch: int = 1,
    kv_cache_bytes: float = 0,
    devices: int = 1,
) -> StepEstimate:
    """One decode step: every sequence in the batch produces one token.

    Weights and the KV cache are each read once per step; FLOPs are ``2 * params * batch``.

    Args:
        params: Parameters streamed per token (see :mod:`roofline_core.models`).
        peak_flop_per_s: Dense peak compute of one device, in FLOP/s.
        bandwidth_bytes_per_s: Memory bandwidth of one device, in bytes/s.
        bytes_per_param: Bytes per weight (2 for fp16, 1 for int8).
        batch: Sequences decoded together.
        kv_cache_bytes: KV-cache bytes read in the step, all sequences together, in bytes.
        devices: Devices the weights and work are split over (tensor parallelism).

    Returns:
        A :class:`StepEstimate` with ``tokens = batch``.

    An 8B-parameter model in FP16 on an H100 SXM streams 16 GB per step:

    >>> step = decode_step(params=8e9, peak_flop_per_s=989e12, bandwidth_bytes_per_s=3.35e12)
    >>> round(step.step_time_s * 1e3, 2), round(step.tokens_per_s), step.bound
    (4.78, 209, 'memory')
    """
    _require_positive("params", params)
    _require_positive("bytes_per_param", bytes_per_param)
    _require_count("batch", batch)
    _require_count("devices", devices)
    _require_non_negative("kv_cache_bytes", kv_cache_bytes)
    _require_positive("peak_flop_per_s", peak_flop_per_s)
    _require_positive("bandwidth_bytes_per_s", bandwidth_bytes_per_s)
    return _step(
        flops=2.0 * params * batch,
        bytes_moved=params * bytes_per_param + kv_cache_bytes,
        tokens=batch,
        peak_flop_per_s=peak_flop_per_s,
        bandwidth_bytes_per_s=bandwidth_bytes_per_s,
        devices=devices,
        byte_parts=((WEIGHTS, params * bytes_per_param), (KV_CACHE, kv_cache_bytes)),
    )


def prefill_step(
    *,
    params: float,
    prompt_tokens: int,
    peak_flop_per_s: float,
    bandwidth_bytes_per_s: float,
    bytes_per_param: float = 2,
    batch: int = 1,
    devices: int = 1,
) -> StepEstimate:
    """Processing whole prompts in one forward pass: the work before the first output token.

    Weights are read once; FLOPs are ``2 * params * prompt_tokens * batch``, so the intensity is
    about ``prompt_tokens * batch`` in fp16. Attention's own FLOPs, which grow with the square of
    the prompt, are left out, as in the seeds.

    Returns:
        A :class:`StepEstimate` with ``tokens = prompt_tokens * batch``; its ``step_time_s`` is
        the time to first token when nothing else is queued.
    """
    _require_positive("params", params)
    _require_count("prompt_tokens", prompt_tokens)
    _require_positive("bytes_per_param", bytes_per_param)
    _require_count("batch", batch)
    _require_count("devices", devices)
    _require_positive("peak_flop_per_s", peak_flop_per_s)
    _require_positive("bandwidth_bytes_per_s", bandwidth_bytes_per_s)
    tokens = prompt_tokens * batch
    return _step(
        flops=2.0 * params * tokens,
        bytes_moved=params * bytes_per_param,
        tokens=tokens,
        peak_flop_per_s=peak_flop_per_s,
        bandwidth_bytes_per_s=bandwidth_bytes_per_s,
        devices=devices,
    )


def critical_batch(
    *, peak_flop_per_s: float, bandwidth_bytes_per_s: float, weight_bytes_per_element: float = 2
) -> float:
    """Decode batch at which weight streaming reaches the ridge point.

    Decode intensity is ``2 * batch / weight_bytes_per_element`` (KV reads ignored), so the
    ridge is met at ``batch = ridge * weight_bytes_per_element / 2``: about 295 for fp16 on an
    H100, half that for int8 weights.

    Returns:
        The critical batch size (sequences; fractional, round up for a whole batch).
    """
    _require_positive("weight_bytes_per_element", weight_bytes_per_element)
    ridge = ridge_point(peak_flop_per_s=peak_flop_per_s, bandwidth_bytes_per_s=bandwidth_bytes_per_s)
    return ridge * weight_bytes_per_element / 2.0


# --- Estimates from presets ---------------------------------------------------------------


def _efficiency(value: float) -> float:
    if not (isinstance(value, (int, float)) and 0 < value <= 1):
        raise ValueError(f"bandwidth_efficiency must be in (0, 1], got {value!r}")
    return float(value)


@dataclass(frozen=True)
class MemoryFit:
    """Whether weights and KV cache fit in the devices' memory.

    Attributes:
        capacity_bytes: Memory of all devices together, in bytes.
        weight_bytes: All weights (every expert), in bytes.
        kv_bytes: KV cache of the whole batch at the given context, every copy the devices keep
            counted (:attr:`kv_copies`), in bytes.
        kv_bytes_per_sequence: KV cache of one sequence at the given context, every copy
            counted, in bytes.
        max_batch: Largest batch whose KV cache fits beside the weights at this context: 0 if
            the weights alone do not fit, ``None`` if there is no limit (a context of 0 tokens
            caches nothing).
        max_context_tokens: Longest context that fits for this batch: 0 if the weights alone
            do not fit, ``None`` if there is no limit (nothing is cached per token).
        reserved_bytes: Memory the serving runtime keeps from weights and cache (the share
            outside the engine and its activations, :mod:`roofline_core.estimates.headroom`), in bytes.
        kv_copies: How many devices keep each cached token (1 when the cache is split; the
            device count for an MLA model under tensor parallelism:
            :func:`roofline_core.estimates.headroom.kv_cache_copies`).
    """

    capacity_bytes: float
    weight_bytes: float
    kv_bytes: float
    kv_bytes_per_sequence: float
    max_batch: int | None
    max_context_tokens: int | None
    reserved_bytes: float = 0.0
    kv_copies: float = 1

    @property
    def used_bytes(self) -> float:
        """Weights plus KV cache, in bytes."""
        return self.weight_bytes + self.kv_bytes

    @property
    def free_bytes(self) -> float:
        """Memory left for the KV cache after the weights and the reserve, in bytes (negative
        when they alone overflow)."""
        return self.capacity_bytes - self.reserved_bytes - self.weight_bytes

    @property
    def fits(self) -> bool:
        """Whether weights, KV cache and the runtime's reserve fit in the capacity."""
        return self.used_bytes + self.reserved_bytes <= self.capacity_bytes

    @property
    def share_of_memory(self) -> float:
        """Weights plus KV as a share of capacity (may exceed 1)."""
        return self.used_bytes / self.capacity_bytes


def fit_in_memory(
    *,
    capacity_bytes: float,
    weight_bytes: float,
    kv_bytes_per_token: float,
    batch: int = 1,
    context_tokens: int = 0,
    reserved_bytes: float = 0.0,
    kv_copies: float = 1,
) -> MemoryFit:
    """How weights and the KV cache of ``batch`` sequences share ``capacity_bytes`` of memory.

    Args:
        capacity_bytes: Memory of all devices together, in bytes.
        weight_bytes: Bytes of all weights, in bytes.
        kv_bytes_per_token: KV-cache bytes one token of one sequence adds, in bytes.
        batch: Sequences.
        context_tokens: Cached tokens per sequence.
        reserved_bytes: Memory kept back for the runtime (activations, workspace, the share an
            engine leaves unused), in bytes; 0 gives the bare capacity.
        kv_copies: How many devices keep each cached token (at least 1).
    """
    _require_positive("capacity_bytes", capacity_bytes)
    _require_non_negative("weight_bytes", weight_bytes)
    _require_non_negative("kv_bytes_per_token", kv_bytes_per_token)
    _require_count("batch", batch)
    _require_context(context_tokens)
    _require_non_negative("reserved_bytes", reserved_bytes)
    if not kv_copies >= 1:
        raise ValueError(f"kv_copies must be at least 1, got {kv_copies!r}")
    kv_bytes_per_token = kv_bytes_per_token * kv_copies
    per_sequence = kv_bytes_per_token * context_tokens
    free = capacity_bytes - reserved_bytes - weight_bytes
    max_batch: int | None
    max_context: int | None
    if free < 0:
        max_batch = 0
        max_context = 0
    else:
        max_batch = math.floor(free / per_sequence) if per_sequence > 0 else None
        max_context = (
            math.floor(context_for_kv_bytes(kv_bytes=free, kv_bytes_per_token=kv_bytes_per_token, batch=batch))
            if kv_bytes_per_token > 0
            else None
        )
    return MemoryFit(
        capacity_bytes=capacity_bytes,
        weight_bytes=weight_bytes,
        kv_bytes=per_sequence * batch,
        kv_bytes_per_sequence=per_sequence,
        max_batch=max_batch,
        max_context_tokens=max_context,
        reserved_bytes=reserved_bytes,
        kv_copies=kv_copies,
    )


def context_for_kv_bytes(*, kv_bytes: float, kv_bytes_per_token: float, batch: int = 1) -> float:
    """Context length at which the KV cache of ``batch`` sequences reaches ``kv_bytes``.

    The inverse of :func:`kv_cache_bytes` in the context: with ``kv_bytes`` set to the memory
    capacity it is the context at which the cache alone fills memory; set to the weight bytes,
    the context at which reading the cache costs as much as reading the weights.

    Args:
        kv_bytes: Bytes the cache of the whole batch should reach, in bytes.
        kv_bytes_per_token: KV-cache bytes one token of one sequence adds, in bytes.
        batch: Sequences.

    Returns:
        ``kv_bytes / (kv_bytes_per_token * batch)``, in tokens per sequence (fractional; round
        down for the longest context that stays within ``kv_bytes``).
    """
    _require_non_negative("kv_bytes", kv_bytes)
    _require_positive("kv_bytes_per_token", kv_bytes_per_token)
    _require_count("batch", batch)
    return kv_bytes / (kv_bytes_per_token * batch)


def _kv_bytes_per_token(model: AnyModel, kv_dtype: str, context_tokens: int) -> float:
    """KV bytes per cached token at ``context_tokens`` of context (the average over the context,
    which is less than a token's full cost once sliding-window layers stop growing); 0 for a
    model whose cache is unknown when nothing is cached."""
    if model.kv_cache_known:
        if context_tokens > 0:
            return model.kv_cache_bytes(context_tokens=context_tokens, kv_dtype=kv_dtype) / context_tokens
        return model.kv_bytes_per_token(kv_dtype)
    if context_tokens > 0:
        raise ValueError(
            f"context_tokens > 0 needs the KV-cache size of {model.name}; give its KV shape, "
            "or estimate at context_tokens=0"
        )
    return 0.0


def _kv_read_bytes(model: AnyModel, kv_dtype: str, context_tokens: int) -> float:
    """Cache bytes one sequence's decode step reads at ``context_tokens``
    (:meth:`~roofline_core.models.Model.kv_read_bytes`): what the cache holds, except that
    chunked layers (Llama 4) read only the new token's chunk so far, sparse attention reads
    ``top_k`` latents plus every indexer key, and a recurrent layer's fixed state is read and
    written back. A custom model reads its whole cache."""
    if isinstance(model, Model):
        return model.kv_read_bytes(context_tokens=context_tokens, kv_dtype=kv_dtype)
    return _kv_bytes_per_token(model, kv_dtype, context_tokens) * context_tokens


def memory_fit(
    *,
    model: AnyModel,
    accelerator: AnyAccelerator,
    weight_dtype: str = "fp16",
    kv_dtype: str = "fp16",
    batch: int = 1,
    context_tokens: int = 0,
    devices: int = 1,
    memory_utilisation: float = DEFAULT_MEMORY_UTILISATION,
    parallelism: str = TENSOR,
    data_parallel_attention: bool = False,
) -> MemoryFit:
    """:func:`fit_in_memory` for ``model`` on ``devices`` x ``accelerator``, with a serving engine's reserve.

    ``memory_utilisation`` is the share of memory the engine may use (as vLLM's
    ``gpu_memory_utilization``); the activations of a forward chunk are reserved inside it
    (:mod:`roofline_core.estimates.headroom`). 1.0 with no activations gives the bare capacity.
    Under tensor (or expert) ``parallelism`` an MLA model's latent cache is kept whole on every
    device, and KV heads fewer than the devices are repeated
    (:func:`~roofline_core.estimates.headroom.kv_cache_copies`). ``data_parallel_attention``
    (SGLang's ``--enable-dp-attention``) gives each device its own sequences instead: one copy
    of the cache, but every device holds all the attention weights.

    Raises:
        ValueError: if the accelerator's memory is unknown (a
            :class:`~roofline_core.hardware.CustomAccelerator` without ``memory_bytes``).
    """
    _require_count("devices", devices)
    _require_context(context_tokens)
    if accelerator.memory_bytes is None:
        raise ValueError(f"{accelerator.name}: memory capacity unknown; give memory_bytes")
    return model_memory_fit(
        model=model,
        # On unified memory, the share the GPU may use (roofline_core.hardware.unified_memory).
        capacity_bytes=accelerator.fit_memory_bytes * devices,
        weight_dtype=weight_dtype,
        kv_dtype=kv_dtype,
        batch=batch,
        context_tokens=context_tokens,
        devices=devices,
        memory_utilisation=memory_utilisation,
        parallelism=parallelism,
        data_parallel_attention=data_parallel_attention,
    )


def model_memory_fit(
    *,
    model: AnyModel,
    capacity_bytes: float,
    weight_dtype: str = "fp16",
    kv_dtype: str = "fp16",
    batch: int = 1,
    context_tokens: int = 0,
    devices: int = 1,
    memory_utilisation: float = DEFAULT_MEMORY_UTILISATION,
    parallelism: str = TENSOR,
    data_parallel_attention: bool = False,
) -> MemoryFit:
    """:func:`fit_in_memory` for ``model`` in ``capacity_bytes`` over ``devices``, sliding-window
    layers capped, with a serving engine's reserve and the cache copies ``parallelism`` keeps
    (see :func:`memory_fit`)."""
    copies = kv_cache_copies(
        model, devices=devices, parallelism=parallelism, data_parallel_attention=data_parallel_attention
    )
    weight_bytes = model.weight_bytes(weight_dtype)
    if data_parallel_attention and devices > 1 and isinstance(model, Model):
        # Each device runs attention for its own sequences, so each holds every attention weight.
        weight_bytes += (devices - 1) * model.attention_weight_bytes(weight_dtype)
    fit = fit_in_memory(
        capacity_bytes=capacity_bytes,
        weight_bytes=weight_bytes,
        kv_bytes_per_token=_kv_bytes_per_token(model, kv_dtype, context_tokens),
        batch=batch,
        context_tokens=context_tokens,
        reserved_bytes=reserved_bytes(
            model, capacity_bytes=capacity_bytes, devices=devices, utilisation=memory_utilisation
        ),
        kv_copies=copies,
    )
    if fit.max_context_tokens and model.kv_cache_known:
        # Sliding-window layers stop growing at their window, so the longest context is not
        # linear in the free memory: ask the model.
        longest = model.context_for_kv_bytes(kv_bytes=fit.free_bytes / copies, batch=batch, kv_dtype=kv_dtype)
        fit = replace(fit, max_context_tokens=None if math.isinf(longest) else math.floor(longest))
    return fit


@dataclass(frozen=True)
class FitAlternatives:
    """What would make a scenario that does not fit in memory fit.

    Attributes:
        devices_needed: Fewest devices of the same kind that hold it, formats unchanged, among
            the counts tensor parallelism can split the model over
            (:func:`roofline_core.models.tensor_split.tensor_parallel_refusal`); None when no
            such count holds it (an MLA cache is kept whole on every device, so more devices
            cannot hold a sequence whose cache alone overflows one).
        weight_dtypes: Smaller weight formats that fit on the devices given, smallest step first.
    """

    devices_needed: int | None
    weight_dtypes: tuple[str, ...]


def fit_alternatives(
    *,
    model: AnyModel,
    device_memory_bytes: float,
    devices: int,
    weight_dtype: str,
    kv_dtype: str,
    batch: int,
    context_tokens: int,
    data_parallel_attention: bool = False,
) -> FitAlternatives:
    """More devices, or a smaller weight format, that would hold the weights and KV cache.

    Weights and cache are split over devices by tensor parallelism, as the calculators assume
    (an MLA cache kept whole on each), each device keeping a serving engine's reserve; the
    devices needed are the fewest that hold it all and that vLLM can split the model over
    (Llama 3 70B's 64 heads go 2, 4 or 8 ways, never 3).
    """

    def fit_in(dtype: str, on: int = devices) -> MemoryFit:
        return model_memory_fit(
            model=model,
            capacity_bytes=device_memory_bytes * on,
            weight_dtype=dtype,
            kv_dtype=kv_dtype,
            batch=batch,
            context_tokens=context_tokens,
            devices=on,
            data_parallel_attention=data_parallel_attention,
        )

    # Every device adds memory and a reserve proportional to it, so the search ends; the
    # bound only guards against a model too large for any cluster.
    # A model with widths splits at most as many ways as it has query heads.
    most = getattr(model, "heads", 0) or 65_536
    needed = next(
        (
            n
            for n in range(devices, most + 1)
            if tensor_parallel_refusal(model, n) is None and fit_in(weight_dtype, n).fits
        ),
        None,
    )
    smaller = [
        dtype
        for dtype in ("fp8", "int8", "fp4", "int4")
        if bytes_per_element(dtype) < bytes_per_element(weight_dtype) and fit_in(dtype).fits
    ]
    return FitAlternatives(devices_needed=needed, weight_dtypes=tuple(smaller))


@dataclass(frozen=True)
class DecodeEstimate:
    """A decode step of a model on an accelerator, with its memory picture.

    ``kv_bytes`` is the KV cache the step reads over all devices: each of the ``kv_copies``
    devices that keep a token (an MLA cache under tensor parallelism is kept whole on every
    one; :func:`~roofline_core.estimates.headroom.kv_cache_copies`) reads its own copy.
    """

    step: StepEstimate
    batch: int
    context_tokens: int
    kv_bytes: float
    weight_bytes_streamed: float
    memory: MemoryFit | None
    attention_flops: float = 0.0
    communication: CommCost = NO_COMMUNICATION
    pipeline_bubble: float = 0.0
    kv_copies: float = 1
    expected_step_time_s: float = 0.0
    expected_range_step_time_s: tuple[float, float] = (0.0, 0.0)
    regime: Regime | None = None

    @property
    def expected_tokens_per_s_per_sequence(self) -> float:
        """The realistic tokens/s each sequence sees: the step at the fitted shares of peak, fixed
        cost and measured communication of its regime (:mod:`roofline_core.estimates.efficiency`)."""
        return 1.0 / self.expected_step_time_s

    @property
    def expected_range_tokens_per_s_per_sequence(self) -> tuple[float, float]:
        """``(low, high)`` tokens/s per sequence: the 80% prediction interval of the realistic figure."""
        fast_s, slow_s = self.expected_range_step_time_s
        return (1.0 / slow_s, 1.0 / fast_s)

    @property
    def communication_share(self) -> float:
        """Share of the step spent in tensor parallelism's all-reduces (0 to 1)."""
        return self.communication.time_s / self.step.step_time_s

    @property
    def attention_share_of_flops(self) -> float:
        """Share of the step's FLOPs spent in attention over the context (0 to 1)."""
        return self.attention_flops / self.step.flops

    @property
    def step_time_s(self) -> float:
        return self.step.step_time_s

    @property
    def parts(self) -> tuple[Part, ...]:
        """:attr:`step_time_s` broken into parts that add up to it (the step's parts)."""
        return self.step.parts

    @property
    def working(self) -> Working:
        """The formula with this scenario's values behind each of :attr:`parts`."""
        return self.step.working

    @property
    def tokens_per_s_per_sequence(self) -> float:
        """Tokens/s each sequence sees (1 / step time)."""
        return 1.0 / self.step.step_time_s

    @property
    def tokens_per_s(self) -> float:
        """Tokens/s over the whole batch."""
        return self.step.tokens_per_s


def _experts_read(model: AnyModel, batch: int) -> float:
    """Routed experts per MoE layer a decode step of ``batch`` sequences reads (0 for a dense model)."""
    if not model.is_moe:
        return 0.0
    # With many sequences, different tokens pick different experts; the step reads the union.
    # Expected distinct experts per MoE layer under uniform routing: E * (1 - (1 - k/E)^batch),
    # never more than all of them.
    e, k = model.experts, model.experts_per_token
    return max(float(k), e * (1.0 - (1.0 - k / e) ** batch))


def _weight_params_read(model: AnyModel, batch: int) -> float:
    """Parameters whose weights a decode step of ``batch`` sequences reads."""
    params = model.streamed_params_per_token
    if not model.is_moe:
        return params
    extra_experts = _experts_read(model, batch) - model.experts_per_token
    return params + extra_experts * model.expert_params * model.moe_layers


def _weight_bytes_read(model: AnyModel, weight_dtype: str, batch: int) -> float:
    """Bytes of the weights a decode step of ``batch`` sequences reads: a quantised config's
    parts at their own sizes (:meth:`roofline_core.models.Model.streamed_weight_bytes`)."""
    if not model.is_moe:
        return model.streamed_weight_bytes(weight_dtype)
    return model.streamed_weight_bytes(weight_dtype, experts_used=_experts_read(model, batch))


def estimate_decode(
    *,
    model: AnyModel,
    accelerator: AnyAccelerator,
    weight_dtype: str = "fp16",
    kv_dtype: str = "fp16",
    compute_dtype: str | None = None,
    batch: int = 1,
    context_tokens: int = 0,
    devices: int = 1,
    bandwidth_efficiency: float = 1.0,
    parallelism: str = TENSOR,
) -> DecodeEstimate:
    """Decode step of ``model`` on ``devices`` x ``accelerator`` at ``context_tokens`` of context.

    Args:
        model: A preset :class:`~roofline_core.models.Model` or a
            :class:`~roofline_core.models.CustomModel`.
        weight_dtype: Storage format of the weights.
        kv_dtype: Storage format of the KV cache.
        compute_dtype: Format of the matrix math, choosing the peak; None for what engines do
            with these weights on this chip (FP8 W8A8 or NVFP4 W4A4 where the chip has that
            peak, otherwise weight-only on the 16-bit peak, as INT8 and MXFP4 run by default; see
            :mod:`roofline_core.hardware.compute_format`).
        bandwidth_efficiency: Share of peak bandwidth actually sustained (0 < e <= 1).

    The step's FLOPs are the weight matmuls (2 per streamed parameter per sequence) plus
    attention over the context (for a preset model: ``4 * heads * head_dim`` per cached token
    per layer, the absorbed form for MLA, sliding layers over at most their window), so a long
    context can move decode toward the compute roof; see :mod:`roofline_core.models.attention`.

    ``memory`` of the result is None for a :class:`~roofline_core.hardware.CustomAccelerator`
    whose capacity is unknown.

    Raises:
        ValueError: for a value out of range, or ``context_tokens > 0`` with a custom model
            whose KV cache is unknown.
    """
    _require_count("batch", batch)
    _require_context(context_tokens)
    params = model.streamed_params_per_token
    # Every device that keeps a copy of the cache reads it: under tensor parallelism each device
    # attends with its own heads over an MLA model's whole latent cache.
    copies = kv_cache_copies(model, devices=devices, parallelism=parallelism)
    kv_bytes = _kv_read_bytes(model, kv_dtype, context_tokens) * batch * copies
    weights_read = _weight_bytes_read(model, weight_dtype, batch)
    # Bytes per streamed parameter: the format's size, or for a quantised config the average of
    # its quantised and 16-bit parts, scales included.
    bpp = model.streamed_weight_bytes(weight_dtype) / params
    bandwidth = accelerator.bandwidth_bytes_per_s * _efficiency(bandwidth_efficiency)
    # decode_step counts FLOPs from `params` (2 per streamed weight per token) and bytes from
    # the weights read; for an MoE batch those differ, so the extra expert bytes are passed as
    # extra "KV" traffic to keep one formula.
    step = decode_step(
        params=params,
        peak_flop_per_s=accelerator.peak_for(resolve_compute_dtype(compute_dtype, weight_dtype, accelerator)),
        bandwidth_bytes_per_s=bandwidth,
        bytes_per_param=bpp,
        batch=batch,
        # Never below 0: for a dense model the two are equal up to rounding.
        kv_cache_bytes=kv_bytes + max(0.0, weights_read - params * bpp),
        devices=devices,
    )
    # For the parts: the extra experts passed as "KV" traffic above are weights, and the
    # bandwidth above is the sustained share of the peak.
    step = replace(
        step,
        byte_parts=((WEIGHTS, weights_read), (KV_CACHE, kv_bytes)),
        peak_bandwidth_bytes_per_s=accelerator.bandwidth_bytes_per_s,
    )
    # Attention's own arithmetic over the cached tokens; its traffic is the KV read above.
    attention = decode_attention_cost(model, context_tokens=context_tokens, batch=batch)
    step = with_attention(step, attention)
    bubble = 0.0
    if parallelism not in PARALLELISMS:
        raise ValueError(f"unknown parallelism {parallelism!r}; expected one of {', '.join(PARALLELISMS)}")
    if parallelism == EXPERT:
        # Experts spread over the devices; each MoE layer dispatches every token's activation to
        # its experts' devices and combines the results (two all-to-alls).
        if not (isinstance(model, Model) and model.is_moe):
            raise ValueError("expert parallelism needs a mixture-of-experts model")
        communication = expert_parallel_comm(model, accelerator, devices=devices, tokens=batch)
    else:
        # Tensor parallelism's all-reduces sit on the critical path of a decode step.
        communication = tensor_parallel_comm(model, accelerator, devices=devices, tokens=batch)
    step = with_communication(step, communication)
    if parallelism == PIPELINE and devices > 1:
        # Each of the p = `devices` stages holds 1/p of the layers. Decode keeps the batch cycling
        # through them as m = min(batch, p) micro-batches: a micro-batch's next token needs all p
        # stages, one stage time each, so a step lasts p stage times, and with fewer
        # micro-batches than stages a share 1 - m/p of every stage's time is idle. (GPipe's
        # (p-1)/(m+p-1) is the bubble of a batch that drains before the next starts.)
        # Activations hop between stages point to point.
        micro = min(batch, devices)
        one_micro_batch_estimate = estimate_decode(
            model=model,
            accelerator=accelerator,
            weight_dtype=weight_dtype,
            kv_dtype=kv_dtype,
            compute_dtype=compute_dtype,
            batch=math.ceil(batch / micro),
            context_tokens=context_tokens,
            bandwidth_efficiency=bandwidth_efficiency,
        )
        one_micro_batch = one_micro_batch_estimate.step
        one_micro_batch_expected_s = one_micro_batch_estimate.expected_step_time_s
        stage = one_micro_batch.step_time_s / devices
        hop = STEP_LATENCY_S
        communication = CommCost((devices - 1) * hop, 0.0, devices - 1, True, (devices - 1) * hop, 0.0, "hop")
        bubble = 1 - micro / devices
        step = replace(step, step_time_s=devices * stage + communication.time_s, communication=communication)
        step = replace(
            step, fixed_parts=_pipeline_parts(one_micro_batch, micro=micro, stages=devices, hops=communication)
        )
    regime = regime_of_run(
        phase=DECODE,
        weight_format=weight_dtype,
        compute_format=resolve_compute_dtype(compute_dtype, weight_dtype, accelerator),
        accelerator=accelerator,
    )
    if parallelism == PIPELINE and devices > 1:
        # The stages run one after another: one micro-batch's realistic step, then the hops.
        expected_s = one_micro_batch_expected_s + communication.time_s
    else:
        expected_s = step_expected_s(
            step,
            regime,
            model=model,
            accelerator=accelerator,
            kv_bytes=kv_bytes,
            communication_s=(
                expected_tensor_parallel_s(model, accelerator, devices=devices, tokens=batch)
                if parallelism == TENSOR
                else communication.time_s
            ),
        )
    fit = (
        None
        if accelerator.memory_bytes is None
        else memory_fit(
            model=model,
            accelerator=accelerator,
            weight_dtype=weight_dtype,
            kv_dtype=kv_dtype,
            batch=batch,
            context_tokens=context_tokens,
            devices=devices,
            parallelism=parallelism,
        )
    )
    return DecodeEstimate(
        step=step,
        batch=batch,
        context_tokens=context_tokens,
        kv_bytes=kv_bytes,
        weight_bytes_streamed=weights_read,
        memory=fit,
        attention_flops=attention.flops,
        communication=communication,
        pipeline_bubble=bubble,
        kv_copies=copies,
        expected_step_time_s=expected_s,
        expected_range_step_time_s=expected_range_s(expected_s, regime),
        regime=regime,
    )


def step_expected_s(
    step: StepEstimate,
    regime: Regime,
    *,
    model: AnyModel,
    accelerator: AnyAccelerator,
    kv_bytes: float,
    communication_s: float,
) -> float:
    """The realistic time of ``step`` in ``regime``: its roofs at the devices' peaks (whatever
    bandwidth efficiency the reader chose), through :func:`~roofline_core.estimates.efficiency.expected_step_s`."""
    at_peak = accelerator.bandwidth_bytes_per_s * step.devices
    return expected_step_s(
        compute_s=step.compute_time_s,
        memory_s=(step.bytes_moved - kv_bytes) / at_peak,
        kv_memory_s=kv_bytes / at_peak,
        communication_s=communication_s,
        regime=regime,
        layers=getattr(model, "layers", 0) or None,
    )


def estimate_prefill(
    *,
    model: AnyModel,
    accelerator: AnyAccelerator,
    prompt_tokens: int,
    weight_dtype: str = "fp16",
    compute_dtype: str | None = None,
    batch: int = 1,
    devices: int = 1,
    bandwidth_efficiency: float = 1.0,
    fused_attention: bool = True,
    parallelism: str = TENSOR,
) -> PrefillEstimate:
    """Prefill of ``batch`` prompts of ``prompt_tokens`` tokens; ``step_time_s`` is the time to first token.

    The streamed parameters set the FLOPs and their weights are read once. For an MoE preset a
    long prompt touches every expert, so all expert weights are read once.

    Args:
        model: A preset :class:`~roofline_core.models.Model` or a
            :class:`~roofline_core.models.CustomModel`.
        weight_dtype: Storage format of the weights (sets the bytes per parameter).
        compute_dtype: Format of the matrix math, choosing the peak; None for what engines do
            with these weights on this chip (FP8 W8A8 or NVFP4 W4A4 where the chip has that
            peak, otherwise weight-only on the 16-bit peak, as INT8 and MXFP4 run by default; see
            :mod:`roofline_core.hardware.compute_format`).
        bandwidth_efficiency: Share of peak bandwidth actually sustained (0 < e <= 1).
        fused_attention: Whether attention runs as a tiled kernel (FlashAttention) or unfused,
            writing its score matrix to memory (see :mod:`roofline_core.models.attention`).
        parallelism: :data:`TENSOR` (two all-reduces per layer) or :data:`EXPERT` (an MoE
            model's experts spread over the devices, two all-to-alls per MoE layer); a
            pipeline's prefill is not modelled.

    Attention's causal FLOPs over the prompt are added for a preset model (about
    ``2 * heads * head_dim * prompt^2`` per layer), so a long prompt costs more than its
    weight matmuls alone.
    """
    bpp = model.streamed_weight_bytes(weight_dtype) / model.streamed_params_per_token
    compute_dtype = resolve_compute_dtype(compute_dtype, weight_dtype, accelerator)
    step = prefill_step(
        params=model.streamed_params_per_token,
        prompt_tokens=prompt_tokens,
        peak_flop_per_s=accelerator.peak_for(compute_dtype),
        bandwidth_bytes_per_s=accelerator.bandwidth_bytes_per_s * _efficiency(bandwidth_efficiency),
        bytes_per_param=bpp,
        batch=batch,
        devices=devices,
    )
    if model.is_moe:
        all_weights_read = model.streamed_weight_bytes(weight_dtype, experts_used=model.experts)
        step = _step(
            flops=step.flops,
            bytes_moved=max(step.bytes_moved, all_weights_read),
            tokens=step.tokens,
            peak_flop_per_s=step.peak_flop_per_s,
            bandwidth_bytes_per_s=step.bandwidth_bytes_per_s,
            devices=devices,
        )
    step = replace(step, peak_bandwidth_bytes_per_s=accelerator.bandwidth_bytes_per_s)
    # Attention's activations stay 16-bit in mainstream engines even when the weights' matmuls
    # run in 8 bits; its FLOPs are counted at the step's peak.
    attention = prefill_attention_cost(model, prompt_tokens=prompt_tokens, batch=batch, tiled=fused_attention)
    step = with_attention(step, attention)
    tokens = batch * prompt_tokens
    if parallelism == EXPERT:
        if not (isinstance(model, Model) and model.is_moe):
            raise ValueError("expert parallelism needs a mixture-of-experts model")
        communication = expert_parallel_comm(model, accelerator, devices=devices, tokens=tokens)
        expected_communication_s = communication.time_s
    elif parallelism == TENSOR:
        communication = tensor_parallel_comm(model, accelerator, devices=devices, tokens=tokens)
        expected_communication_s = expected_tensor_parallel_s(model, accelerator, devices=devices, tokens=tokens)
    else:
        raise ValueError(f"prefill models parallelism {TENSOR!r} or {EXPERT!r}, not {parallelism!r}")
    step = with_communication(step, communication)
    regime = regime_of_run(
        phase=PREFILL, weight_format=weight_dtype, compute_format=compute_dtype, accelerator=accelerator
    )
    expected_s = step_expected_s(
        step, regime, model=model, accelerator=accelerator, kv_bytes=0.0, communication_s=expected_communication_s
    )
    fields = {f.name: getattr(step, f.name) for f in dataclass_fields(StepEstimate)}
    return PrefillEstimate(
        **fields, expected_ttft_s=expected_s, expected_range_ttft_s=expected_range_s(expected_s, regime), regime=regime
    )


@dataclass(frozen=True, eq=False)
class PrefillEstimate(StepEstimate):
    """A prefill (:func:`estimate_prefill`): the step at the speed of light, with the realistic time
    to first token beside it.

    Attributes:
        expected_ttft_s: The realistic time to first token, in seconds: the pass at the fitted
            shares of peak, fixed cost and measured communication of its regime
            (:mod:`roofline_core.estimates.efficiency`). ``step_time_s`` stays the speed of light.
        expected_range_ttft_s: ``(fast, slow)``: its 80% prediction interval, in seconds.
        regime: The regime whose constants made it.
    """

    expected_ttft_s: float = field(default=0.0, compare=False)
    expected_range_ttft_s: tuple[float, float] = field(default=(0.0, 0.0), compare=False)
    regime: Regime | None = field(default=None, compare=False)

    def __eq__(self, other: object) -> bool:
        # The speed-of-light step is the estimate's identity: equal to the plain step it extends
        # (estimate_prefill(...) == prefill_step(...) for the same numbers), either way round.
        if not isinstance(other, StepEstimate):
            return NotImplemented
        return all(getattr(self, f.name) == getattr(other, f.name) for f in dataclass_fields(StepEstimate) if f.compare)

    __hash__ = StepEstimate.__hash__


def with_attention(step: StepEstimate, attention: AttentionCost) -> StepEstimate:
    """``step`` with attention's FLOPs and traffic added (unchanged when there is none)."""
    if attention.flops == 0 and attention.bytes_moved == 0:
        return step
    byte_parts = step.byte_parts or ((WEIGHTS, step.bytes_moved),)
    if attention.bytes_moved:
        byte_parts = (*byte_parts, (ACTIVATIONS, attention.bytes_moved))
    return _step(
        flops=step.flops + attention.flops,
        bytes_moved=step.bytes_moved + attention.bytes_moved,
        tokens=step.tokens,
        peak_flop_per_s=step.peak_flop_per_s,
        bandwidth_bytes_per_s=step.bandwidth_bytes_per_s,
        devices=step.devices,
        byte_parts=byte_parts,
        attention_flops=step.attention_flops + attention.flops,
        peak_bandwidth_bytes_per_s=step.peak_bandwidth_bytes_per_s,
    )


def _pipeline_parts(
    one_micro_batch: StepEstimate, *, micro: int, stages: int, hops: CommCost
) -> tuple[tuple[Part, str], ...]:
    """Parts of a pipelined decode step, seen from one stage.

    The step lasts ``stages`` stage times; a stage works for ``micro`` of them (its layers'
    share of one micro-batch's step, once per micro-batch) and idles for the rest, then the
    activations hop between stages.
    """
    busy = micro / stages
    found = [
        (
            Part(part.label, part.seconds * busy),
            f"({text}) × {format_whole(micro)} ÷ {format_whole(stages)} stages busy",
        )
        for part, text in zip(one_micro_batch.parts, (t for _, t in one_micro_batch.working))
    ]
    if micro < stages:
        idle = one_micro_batch.step_time_s * (1 - busy)
        found.append(
            (
                Part(PIPELINE_IDLE, idle),
                f"{format_time(one_micro_batch.step_time_s)} × {format_whole(stages - micro)}"
                f" ÷ {format_whole(stages)} stages idle",
            )
        )
    if hops.latency_s > 0:
        found.append(
            (
                Part(COMMUNICATION_LATENCY, hops.latency_s),
                f"{format_whole(hops.collectives)} hops × {format_time(STEP_LATENCY_S)}",
            )
        )
    return tuple(found)


@dataclass(frozen=True)
class SweepRow:
    """One row of the decode batch table (seed 004)."""

    batch: int
    intensity_flop_per_byte: float
    bound: str
    step_time_s: float
    tokens_per_s: float
    compute_utilisation: float


def batch_sweep(
    *,
    params: float,
    peak_flop_per_s: float,
    bandwidth_bytes_per_s: float,
    bytes_per_param: float = 2,
    batches: tuple[int, ...] = DEFAULT_SWEEP_BATCHES,
    kv_bytes_per_sequence: float = 0,
    devices: int = 1,
) -> list[SweepRow]:
    """Decode step time and throughput as the batch grows (the table in seed 004).

    Args:
        params: Parameters streamed per token.
        kv_bytes_per_sequence: KV-cache bytes each sequence adds to a step, in bytes.
        batches: Batch sizes, one row each.
    """
    rows = []
    for b in batches:
        step = decode_step(
            params=params,
            peak_flop_per_s=peak_flop_per_s,
            bandwidth_bytes_per_s=bandwidth_bytes_per_s,
            bytes_per_param=bytes_per_param,
            batch=b,
            kv_cache_bytes=kv_bytes_per_sequence * b,
            devices=devices,
        )
        rows.append(
            SweepRow(
                batch=b,
                intensity_flop_per_byte=step.intensity_flop_per_byte,
                bound=step.bound,
                step_time_s=step.step_time_s,
                tokens_per_s=step.tokens_per_s,
                compute_utilisation=step.compute_utilisation,
            )
        )
    return rows
