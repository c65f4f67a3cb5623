"""A measured server placed under its roofline: how much of each step the model explains.

A reader measures a decode step (time per output token, tokens/s per sequence, or total output
tokens/s at a concurrency) or a prefill (time to first token for a prompt). This module puts the
measurement beside the speed-of-light estimate of the same scenario
(:func:`roofline_core.estimates.inference.estimate_decode` and :func:`~roofline_core.estimates.inference.estimate_prefill`
at full peak bandwidth) and splits the measured time into the estimate's own parts
(:mod:`roofline_core.estimates.parts`), grouped into these rows:

- **weights read**: the step's weight bytes at the devices' peak bandwidth;
- **KV cache read**: the rest of the step's bytes (the cache, and attention's own traffic) at
  peak bandwidth;
- **arithmetic beyond memory**: the step's FLOPs at the peak of its math format, minus the memory
  time. The roofline overlaps math with memory traffic and takes the larger of the two
  (:func:`roofline_core.estimates.inference.decode_step`), so only the part of the compute time that
  exceeds the memory time adds to the step;
- **communication**: the collectives the estimate adds on the critical path
  (:mod:`roofline_core.estimates.communication`);
- **pipeline idle**: for pipeline parallelism, the stages' idle time the estimate adds (a stage
  reads its weights once per micro-batch, and those reads count as weights, not idle time);
- **unexplained remainder**: measured minus modelled (launch overhead, scheduling, kernels
  below peak).

The modelled parts add up to the speed-of-light step time, and with the remainder to the
measured time. A measurement faster than the bound has a negative remainder; it is never
hidden: :attr:`Reconciliation.faster_than_bound` is set and the part says what to check.

Utilisations follow the usual definitions: MBU (model bandwidth utilisation) is the bytes the
step moves (as its parts count them) over the measured time, as a share of the devices' peak bandwidth; MFU is the
step's FLOPs over the measured time, as a share of the devices' peak at the math format.

Standard library only.
"""

from __future__ import annotations

from dataclasses import dataclass

from roofline_core.estimates.inference import TENSOR, StepEstimate, estimate_decode, estimate_prefill
from roofline_core.estimates.parts import (
    ACTIVATIONS,
    ATTENTION,
    COMMUNICATION_LATENCY,
    COMMUNICATION_TRANSFER,
    COMPUTE,
    KV_CACHE,
    MEMORY_LABELS,
    PIPELINE_IDLE,
    WEIGHTS,
    Working,
)
from roofline_core.estimates.parts import Part as TimePart
from roofline_core.hardware import AnyAccelerator
from roofline_core.hardware.compute_format import resolve_compute_dtype
from roofline_core.models import AnyModel

#: Ways a decode measurement is stated.
MS_PER_TOKEN = "ms_per_token"
TOKENS_PER_S_PER_SEQUENCE = "tokens_per_s_per_sequence"
TOTAL_TOKENS_PER_S = "total_tokens_per_s"
DECODE_MEASUREMENTS: tuple[str, ...] = (MS_PER_TOKEN, TOKENS_PER_S_PER_SEQUENCE, TOTAL_TOKENS_PER_S)

DECODE, PREFILL = "decode", "prefill"


@dataclass(frozen=True)
class Part:
    """One share of a measured step.

    Attributes:
        id: Stable key (``"weights"``, ``"kv_cache"``, ``"arithmetic"``, ``"communication"``,
            ``"pipeline_idle"``, ``"remainder"``).
        label: What the part is, for a reader.
        time_s: Its time, in seconds (negative only for the remainder of a measurement faster
            than the bound).
        share: ``time_s`` as a share of the measured time (1 = the whole step).
        closes: What typically closes this part, in one sentence.
        term: Slug of the glossary entry that explains it.
    """

    id: str
    label: str
    time_s: float
    share: float
    closes: str
    term: str


@dataclass(frozen=True)
class Reconciliation:
    """A measurement beside its speed-of-light bound.

    Attributes:
        phase: ``"decode"`` or ``"prefill"``.
        measured_time_s: The measured step (decode) or time to first token (prefill), in seconds.
        bound_time_s: The speed-of-light time of the same step, in seconds.
        tokens: Tokens the step produces (the batch) or processes (the prompt tokens).
        bytes_moved: Bytes the step must move over all devices, in bytes.
        flops: FLOPs of the step over all devices, in FLOP.
        bandwidth_bytes_per_s: Peak bandwidth of all devices together, in bytes/s.
        peak_flop_per_s: Peak compute of all devices together at the math format, in FLOP/s.
        compute_dtype: The math format whose peak is used.
        parts: The measured time split into parts (see the module); their times add up to
            ``measured_time_s``.
        bound_parts: The speed-of-light time in the estimates' parts
            (:mod:`roofline_core.estimates.parts`), adding up to ``bound_time_s``;
            ``bound_working`` is the formula with the scenario's values behind each.
        measured_roof_bytes_per_s: The bandwidth all devices together measurably reach (each
            device's cited measurement, :attr:`~roofline_core.hardware.Accelerator.measured_bandwidth_bytes_per_s`),
            in bytes/s; None when the chip has no cited measurement.
        expected_time_s: The realistic time of the same step (the estimate's
            ``expected_step_time_s`` or ``expected_ttft_s``), in seconds; 0 when not given.
        expected_range_s: ``(fast, slow)``: its 80% prediction interval, in seconds.
    """

    phase: str
    measured_time_s: float
    bound_time_s: float
    tokens: int
    bytes_moved: float
    flops: float
    bandwidth_bytes_per_s: float
    peak_flop_per_s: float
    compute_dtype: str
    parts: tuple[Part, ...]
    bound_parts: tuple[TimePart, ...] = ()
    bound_working: Working = ()
    measured_roof_bytes_per_s: float | None = None
    expected_time_s: float = 0.0
    expected_range_s: tuple[float, float] = (0.0, 0.0)

    @property
    def within_expected_range(self) -> bool:
        """Whether the measurement lies inside the realistic estimate's 80% interval."""
        fast_s, slow_s = self.expected_range_s
        return fast_s <= self.measured_time_s <= slow_s

    @property
    def measured_tokens_per_s(self) -> float:
        """Tokens/s over the whole batch (decode) or prompt tokens/s (prefill), as measured."""
        return self.tokens / self.measured_time_s

    @property
    def bound_tokens_per_s(self) -> float:
        """Tokens/s at the speed of light."""
        return self.tokens / self.bound_time_s

    @property
    def share_of_bound(self) -> float:
        """How close the measurement is to the bound: bound time / measured time (1 = at it)."""
        return self.bound_time_s / self.measured_time_s

    @property
    def mbu(self) -> float:
        """Achieved memory bandwidth utilisation: bytes / measured time / peak bandwidth."""
        return self.bytes_moved / self.measured_time_s / self.bandwidth_bytes_per_s

    @property
    def mbu_of_measured_roof(self) -> float | None:
        """MBU against what the chip measurably reaches instead of its datasheet (None without a
        cited measurement): a run at 62% of the datasheet may be at 80% of the achievable."""
        if self.measured_roof_bytes_per_s is None:
            return None
        return self.bytes_moved / self.measured_time_s / self.measured_roof_bytes_per_s

    @property
    def mfu(self) -> float:
        """Achieved FLOP utilisation: FLOPs / measured time / peak FLOP/s at the math format."""
        return self.flops / self.measured_time_s / self.peak_flop_per_s

    @property
    def remainder_s(self) -> float:
        """Measured minus modelled time, in seconds (negative when faster than the bound)."""
        return self.measured_time_s - self.bound_time_s

    @property
    def faster_than_bound(self) -> bool:
        """Whether the measurement beats the speed of light: an inconsistency to check."""
        return self.measured_time_s < self.bound_time_s


def measured_step_time_s(*, kind: str, value: float, batch: int = 1) -> float:
    """The decode step a measurement states, in seconds.

    Args:
        kind: :data:`MS_PER_TOKEN` (TPOT or ITL, in ms), :data:`TOKENS_PER_S_PER_SEQUENCE`
            (tokens/s one sequence sees) or :data:`TOTAL_TOKENS_PER_S` (output tokens/s of all
            sequences together).
        value: The measurement, in the unit of ``kind``.
        batch: Sequences decoded together (a benchmark's concurrency); only the total rate
            depends on it.

    >>> measured_step_time_s(kind=TOTAL_TOKENS_PER_S, value=1600, batch=16)
    0.01
    """
    if not (isinstance(value, (int, float)) and value > 0):
        raise ValueError(f"a measurement must be a number > 0, got {value!r}")
    if not (isinstance(batch, int) and batch >= 1):
        raise ValueError(f"batch must be a whole number >= 1, got {batch!r}")
    if kind == MS_PER_TOKEN:
        return value / 1e3
    if kind == TOKENS_PER_S_PER_SEQUENCE:
        return 1.0 / value
    if kind == TOTAL_TOKENS_PER_S:
        return batch / value
    raise ValueError(f"unknown measurement {kind!r}; expected one of {', '.join(DECODE_MEASUREMENTS)}")


# What typically closes each part, and the glossary entry that explains it.
#: The row of the table each of the estimates' parts (:mod:`roofline_core.estimates.parts`) lands
#: in: what a step reads beyond its weights (the KV cache in decode, attention's own traffic in
#: prefill) is one row, and so are the math beyond the memory time and the two costs of
#: communication. A reconciliation is at peak bandwidth, so it has no efficiency part.
_ROW_OF_PART = {
    WEIGHTS: "weights",
    KV_CACHE: "kv_cache",
    ACTIVATIONS: "kv_cache",
    COMPUTE: "arithmetic",
    ATTENTION: "arithmetic",
    COMMUNICATION_LATENCY: "communication",
    COMMUNICATION_TRANSFER: "communication",
    PIPELINE_IDLE: "pipeline_idle",
}

_DECODE_PARTS = {
    "weights": (
        "Weights read",
        "The floor at this format: smaller weights (8- or 4-bit) or more devices sharing them shorten it.",
        "quantization",
    ),
    "kv_cache": (
        "KV cache read",
        "A smaller cache per token (FP8 cache, grouped-query or latent attention) or shorter contexts.",
        "kv-cache-quantisation",
    ),
    "arithmetic": (
        "Arithmetic beyond memory time",
        "Math that outlasts the memory traffic: a lower-precision math format, or attention "
        "kernels that split long contexts over the chip.",
        "flash-decoding",
    ),
    "communication": (
        "Communication",
        "Fewer devices, faster links, or collectives that overlap the math (custom all-reduce).",
        "all-reduce",
    ),
    "pipeline_idle": (
        "Pipeline stages idle",
        "More micro-batches in flight than stages, or tensor instead of pipeline parallelism.",
        "pipeline-parallelism",
    ),
    "remainder": (
        "Unexplained (launch overhead, scheduling, kernels)",
        "Kernel launches captured in CUDA graphs, fused kernels, and a scheduler that keeps the batch full.",
        "cuda-graphs",
    ),
}
_PREFILL_PARTS = {
    **_DECODE_PARTS,
    "weights": (
        "Weights read",
        "Rarely the limit in prefill; longer prompts or more of them per step hide it under the math.",
        "quantization",
    ),
    "kv_cache": (
        "Attention traffic",
        "A fused attention kernel (FlashAttention) keeps the score matrix out of memory.",
        "flashattention",
    ),
    "arithmetic": (
        "Arithmetic beyond memory time",
        "The prefill floor at this math format: FP8 math on chips with an FP8 peak, or more devices.",
        "tensor-cores",
    ),
    "remainder": (
        "Unexplained (queueing, scheduling, kernels)",
        "Less queueing in front of the prompt, chunked prefill sized to the chip, and kernels closer to peak.",
        "chunked-prefill",
    ),
}
_FASTER = (
    "Faster than the speed of light: inconsistent",
    "Check the batch (concurrency), the formats, the number of devices and whether speculative "
    "decoding or prefix caching served some tokens; a real step cannot beat its bound.",
    "speed-of-light",
)


def _parts(
    times: dict[str, float], *, measured_time_s: float, bound_time_s: float, table: dict[str, tuple[str, str, str]]
) -> tuple[Part, ...]:
    remainder = measured_time_s - bound_time_s
    parts = [
        Part(key, table[key][0], time_s, time_s / measured_time_s, table[key][1], table[key][2])
        for key, time_s in times.items()
    ]
    label, closes, term = _FASTER if remainder < 0 else table["remainder"]
    parts.append(Part("remainder", label, remainder, remainder / measured_time_s, closes, term))
    return tuple(parts)


def _reconciliation(
    phase: str,
    step: StepEstimate,
    *,
    measured_time_s: float,
    tokens: int,
    compute_dtype: str,
    table: dict[str, tuple[str, str, str]],
    expected_time_s: float,
    expected_range_s: tuple[float, float],
    measured_roof_bytes_per_s: float | None = None,
) -> Reconciliation:
    """The table's rows from the estimate's own parts of ``step`` (memory is the base; math adds
    only its time beyond the memory time; communication and idle time add on top: the parts'
    rule), beside the measurement."""
    times = dict.fromkeys(("weights", "kv_cache", "arithmetic", "communication"), 0.0)
    for part in step.parts:
        row = _ROW_OF_PART[part.label]
        times[row] = times.get(row, 0.0) + part.seconds
    if not times.get("pipeline_idle", 0.0) > 0:
        times.pop("pipeline_idle", None)
    bound_s = sum(times.values())
    # The bytes the step reads, as its parts count them: a pipeline's stages read their weights
    # once per micro-batch, more than the one read of an even split (``step.bytes_moved``).
    bytes_moved = sum(p.seconds for p in step.parts if p.label in MEMORY_LABELS) * step.combined_bandwidth_bytes_per_s
    return Reconciliation(
        phase=phase,
        measured_time_s=measured_time_s,
        bound_time_s=bound_s,
        tokens=tokens,
        bytes_moved=bytes_moved,
        flops=step.flops,
        bandwidth_bytes_per_s=step.combined_bandwidth_bytes_per_s,
        peak_flop_per_s=step.combined_peak_flop_per_s,
        compute_dtype=compute_dtype,
        parts=_parts(times, measured_time_s=measured_time_s, bound_time_s=bound_s, table=table),
        bound_parts=step.parts,
        bound_working=step.working,
        measured_roof_bytes_per_s=measured_roof_bytes_per_s,
        expected_time_s=expected_time_s,
        expected_range_s=expected_range_s,
    )


def _measured_roof(accelerator: AnyAccelerator, devices: int) -> float | None:
    """All devices' measured bandwidth together, or None (a custom chip has no measurement)."""
    measured = getattr(accelerator, "measured_bandwidth_bytes_per_s", None)
    return None if measured is None else measured * devices


def reconcile_decode(
    *,
    model: AnyModel,
    accelerator: AnyAccelerator,
    measured_time_s: float,
    weight_dtype: str = "fp16",
    kv_dtype: str = "fp16",
    compute_dtype: str | None = None,
    batch: int = 1,
    context_tokens: int = 0,
    devices: int = 1,
    parallelism: str = TENSOR,
) -> Reconciliation:
    """A measured decode step beside :func:`~roofline_core.estimates.inference.estimate_decode` at peak bandwidth.

    Args:
        measured_time_s: The measured step, in seconds (see :func:`measured_step_time_s`).
        The others: as for :func:`~roofline_core.estimates.inference.estimate_decode`.

    Overlap rule: memory traffic (weights, then the KV cache) is the base of the step; math
    adds only its time beyond the memory time (the roofline's max); communication and pipeline
    idle time add on top, as the estimate adds them.

    Raises:
        ValueError: for a measurement that is not a positive number, or what ``estimate_decode``
            refuses.
    """
    _require_time(measured_time_s)
    estimate = estimate_decode(
        model=model,
        accelerator=accelerator,
        weight_dtype=weight_dtype,
        kv_dtype=kv_dtype,
        compute_dtype=compute_dtype,
        batch=batch,
        context_tokens=context_tokens,
        devices=devices,
        parallelism=parallelism,
    )
    return _reconciliation(
        DECODE,
        estimate.step,
        measured_time_s=measured_time_s,
        tokens=batch,
        compute_dtype=resolve_compute_dtype(compute_dtype, weight_dtype, accelerator),
        table=_DECODE_PARTS,
        measured_roof_bytes_per_s=_measured_roof(accelerator, devices),
        expected_time_s=estimate.expected_step_time_s,
        expected_range_s=estimate.expected_range_step_time_s,
    )


def reconcile_prefill(
    *,
    model: AnyModel,
    accelerator: AnyAccelerator,
    ttft_s: float,
    prompt_tokens: int,
    weight_dtype: str = "fp16",
    compute_dtype: str | None = None,
    devices: int = 1,
    parallelism: str = TENSOR,
) -> Reconciliation:
    """A measured time to first token beside :func:`~roofline_core.estimates.inference.estimate_prefill` of one prompt.

    The prompt is prefilled alone (batch 1): a TTFT measured under load includes queueing behind
    other requests, which lands in the remainder. Prefill is usually compute-bound, so its MFU
    is the figure to read.

    Args:
        ttft_s: The measured time to first token, in seconds.
        prompt_tokens: Tokens in the prompt.
        The others: as for :func:`~roofline_core.estimates.inference.estimate_prefill`.
    """
    _require_time(ttft_s)
    step = estimate_prefill(
        model=model,
        accelerator=accelerator,
        prompt_tokens=prompt_tokens,
        weight_dtype=weight_dtype,
        compute_dtype=compute_dtype,
        devices=devices,
        parallelism=parallelism,
    )
    return _reconciliation(
        PREFILL,
        step,
        measured_time_s=ttft_s,
        tokens=prompt_tokens,
        compute_dtype=resolve_compute_dtype(compute_dtype, weight_dtype, accelerator),
        table=_PREFILL_PARTS,
        measured_roof_bytes_per_s=_measured_roof(accelerator, devices),
        expected_time_s=step.expected_ttft_s,
        expected_range_s=step.expected_range_ttft_s,
    )


def _require_time(seconds: float) -> None:
    if not (isinstance(seconds, (int, float)) and seconds > 0 and seconds < float("inf")):
        raise ValueError(f"a measured time must be a number of seconds > 0, got {seconds!r}")
