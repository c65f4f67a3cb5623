"""Model vs measurement: each published measurement beside the roofline, and fitted efficiencies.

For every row of a :class:`~roofline_core.evidence.measurements.MeasurementTable` this computes

* the **speed of light**: the row's conditions on the public formula layer
  (:func:`~roofline_core.estimates.inference.decode_step`, :func:`~roofline_core.estimates.inference.prefill_step`)
  at the accelerator's peak bandwidth and peak compute;
* the **realistic estimate**: the same at a fraction of each peak (the efficiencies);
* the **ratio**: measured speed over the speed of light (1.0 would be a perfect run), and the
  estimate's error relative to the measurement.

A continuous-batching **serving** row (a benchmark at a fixed concurrency) is one steady-state
step: a decode step at the concurrency plus the share of a prompt's prefill each step carries
(concurrency / output tokens of them); its mean TPOT is that step and its output rate is
concurrency / step. Its time to first token is the request's own prefill, one decode step of the
others and an M/D/1 queueing wait (:func:`_serving_wait_s`).

The efficiencies are fitted on one part of the rows and checked on the rest. The split is a fixed
rule that does not depend on the file's order: a single-device row whose id has an even CRC-32
is fitted on; every other row (odd CRC-32, or several devices) is held back. Multi-device rows are
always held back because the formula layer splits work over devices for free (no all-reduce),
so fitting on them would fold communication into the efficiencies. The fit is a grid search
minimising the median absolute percentage error of the fit rows.

Everything here is standard library, so it runs in CPython at build time like the rest of
:mod:`roofline_core`.
"""

from __future__ import annotations

import math
import statistics
import zlib
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from roofline_core.estimates.communication import tensor_parallel_comm
from roofline_core.estimates.efficiency import (
    ALL,
    FITTED,
    MIN_FIT_ROWS,
    Regime,
    RegimeConstants,
    expected_step_s,
    expected_tensor_parallel_s,
    log_residual,
    regime_of_run,
)
from roofline_core.estimates.inference import decode_step, prefill_step, with_attention
from roofline_core.evidence.measurements import Measurement, MeasurementTable
from roofline_core.models.attention import decode_attention_cost, prefill_attention_cost

FIT = "fit"
HELD_BACK = "held back"
EXCLUDED = "excluded"

#: Coarse then fine grid of the efficiency search (fractions of peak).
_COARSE_GRID: tuple[float, ...] = tuple(round(0.05 * i, 2) for i in range(2, 21))
_FINE_STEP = 0.01
_DECODE_METRICS = ("decode_tokens_per_s_per_sequence", "decode_ms_per_token")
_SERVING_METRICS = ("serving_output_tokens_per_s", "serving_tpot_ms", "serving_ttft_ms")


class RowError(ValueError):
    """A row the comparison cannot estimate, with the row's line in the data file.

    Attributes:
        line: Line of the row.
    """

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"{line}: {message}")
        self.line = line


@dataclass(frozen=True)
class Efficiencies:
    """Achievable fractions of peak.

    Attributes:
        bandwidth: Fraction of peak memory bandwidth sustained (0 < e <= 1).
        compute: Fraction of peak compute sustained (0 < e <= 1).
    """

    bandwidth: float
    compute: float

    def __post_init__(self) -> None:
        for name, value in (("bandwidth", self.bandwidth), ("compute", self.compute)):
            if not (isinstance(value, (int, float)) and 0 < value <= 1):
                raise ValueError(f"{name} efficiency must be in (0, 1], got {value!r}")


#: The roofline itself: every peak reached.
SPEED_OF_LIGHT = Efficiencies(bandwidth=1.0, compute=1.0)


#: Kinds of row the page summarises separately: how far below the bound each kind lands differs.
GROUPS: tuple[str, ...] = (
    "decode, one device",
    "decode, several devices",
    "prefill and time to first token, one device",
    "prefill and time to first token, several devices",
    "static batch to completion",
    "continuous-batching serving",
)


def row_group(measurement: Measurement) -> str:
    """The :data:`GROUPS` entry a row belongs to."""
    devices = "one device" if measurement.devices == 1 else "several devices"
    if measurement.metric in _DECODE_METRICS:
        return f"decode, {devices}"
    if measurement.metric in ("ttft_ms", "prefill_tokens_per_s"):
        return f"prefill and time to first token, {devices}"
    if measurement.metric in _SERVING_METRICS:
        return "continuous-batching serving"
    return "static batch to completion"


def split_role(measurement: Measurement) -> str:
    """:data:`FIT`, :data:`HELD_BACK` or :data:`EXCLUDED`, by the fixed rule in the module docstring."""
    if measurement.exclude:
        return EXCLUDED
    if measurement.devices == 1 and zlib.crc32(measurement.id.encode("utf-8")) % 2 == 0:
        return FIT
    return HELD_BACK


@dataclass(frozen=True)
class _Step:
    """One kind of forward step a row's run is made of, at the speed of light.

    Attributes:
        count: How many of these steps the run takes.
        phase: ``"decode"`` or ``"prefill"``.
        compute_s: FLOPs at the devices' peak, in seconds.
        memory_s: Bytes at the devices' peak bandwidth, in seconds (all of them).
        kv_memory_s: Of those, the KV cache's, in seconds.
        communication_s: Tensor parallelism's all-reduces on the α–β ring (the speed of light).
        expected_communication_s: The same as engines run them (:mod:`roofline_core.estimates.efficiency`).
        load: True for the steps of the load a serving row's request arrives into (they set its
            queueing wait, :func:`_serving_wait_s`, and are not themselves part of its time).
    """

    count: float
    phase: str
    compute_s: float
    memory_s: float
    kv_memory_s: float
    communication_s: float
    expected_communication_s: float
    load: bool = False


_STEPS: dict[int, tuple[Measurement, tuple[_Step, ...]]] = {}


def _steps(m: Measurement) -> tuple[_Step, ...]:
    """The steps of a row's run (cached: the fit evaluates them many times)."""
    cached = _STEPS.get(id(m))
    if cached is not None and cached[0] is m:
        return cached[1]
    if m.model.is_moe and (m.batch > 1 or m.metric not in _DECODE_METRICS):
        raise ValueError(
            f"{m.id}: mixture-of-experts rows are compared at batch 1 decode only; "
            "expected batch = 1 and a decode metric, or exclude = the reason"
        )
    peak_flop_per_s = m.accelerator.peak_for(m.compute_format)
    bandwidth_bytes_per_s = m.accelerator.bandwidth_bytes_per_s
    params = m.model.streamed_params_per_token
    # A pipeline's stages run one after another for one sequence: with fewer sequences than
    # stages only `batch` devices work at a time (estimate_decode's rule for a pipeline).
    working = min(m.batch, m.devices) if m.parallelism == "pipeline" else m.devices

    def communication(tokens: int) -> tuple[float, float]:
        # Tensor-parallel rows pay two all-reduces per layer; the link runs at its own speed.
        if m.parallelism != "tensor":
            return 0.0, 0.0
        sol = tensor_parallel_comm(m.model, m.accelerator, devices=m.devices, tokens=tokens).time_s
        return sol, expected_tensor_parallel_s(m.model, m.accelerator, devices=m.devices, tokens=tokens)

    def decode(count: float, batch: int) -> _Step:
        # Decode time grows linearly with the context here, so the step at the mean context of
        # the generation (prompt plus half the output) is the mean step.
        context_tokens = m.input_tokens + m.output_tokens / 2.0
        # The model's own rule: sliding-window layers cache at most their window.
        kv_bytes = m.model.kv_cache_bytes(context_tokens=context_tokens, batch=batch, kv_dtype=m.kv_format)
        step = decode_step(
            params=params,
            peak_flop_per_s=peak_flop_per_s,
            bandwidth_bytes_per_s=bandwidth_bytes_per_s,
            bytes_per_param=m.weight_format.bytes_per_weight,
            batch=batch,
            kv_cache_bytes=kv_bytes,
            devices=working,
        )
        # Attention's arithmetic over the context, as the site's estimates count it.
        attention = decode_attention_cost(m.model, context_tokens=round(context_tokens), batch=batch)
        step = with_attention(step, attention)
        kv_s = kv_bytes / step.combined_bandwidth_bytes_per_s
        return _Step(count, "decode", step.compute_time_s, step.memory_time_s, kv_s, *communication(batch))

    def prefill(count: float, batch: int) -> _Step:
        step = prefill_step(
            params=params,
            prompt_tokens=m.input_tokens,
            peak_flop_per_s=peak_flop_per_s,
            bandwidth_bytes_per_s=bandwidth_bytes_per_s,
            bytes_per_param=m.weight_format.bytes_per_weight,
            batch=batch,
            devices=working,
        )
        attention = prefill_attention_cost(m.model, prompt_tokens=m.input_tokens, batch=batch)
        step = with_attention(step, attention)
        return _Step(
            count, "prefill", step.compute_time_s, step.memory_time_s, 0.0, *communication(batch * m.input_tokens)
        )

    if m.metric in _DECODE_METRICS:
        steps: tuple[_Step, ...] = (decode(1, m.batch),)
    elif m.metric in ("ttft_ms", "prefill_tokens_per_s"):
        steps = (prefill(1, m.batch),)
    elif m.metric == "static_batch_output_tokens_per_s_per_device":
        # The prefill gives each sequence its first token; the rest come one decode step each.
        # A batch whose KV cache at full length does not fit beside the weights runs in waves of
        # the sequences that fit, one after the other (the engine queues the rest).
        resident = _resident_batch(m)
        waves = math.ceil(m.batch / resident)
        steps = (prefill(waves, resident), decode(waves * (m.output_tokens - 1), resident))
    elif m.metric in ("serving_output_tokens_per_s", "serving_tpot_ms"):
        # A server kept at `batch` requests in flight: every decode step advances all of them, and
        # in the steady state a request finishes (and a new prompt is prefilled) every
        # output_tokens / batch steps. So each step carries, on average, batch / output_tokens
        # prompts' prefill: the step a sequence sees is one decode step at the concurrency plus
        # that share of a `batch`-prompt prefill. Its time is the mean time per output token, and
        # `batch` tokens come out of it (the server's output tokens per second).
        steps = (decode(1, m.batch), prefill(1.0 / m.output_tokens, m.batch))
    elif m.metric == "serving_ttft_ms":
        # A request's own prompt in one pass; with other requests in flight, the pass also carries
        # their decode tokens (chunked prefill mixes them), about one decode step of batch - 1
        # sequences, and the prompt may wait behind others' prompts: the server's steady-state
        # step (the two load steps) sets how busy prefill keeps it (_serving_wait_s).
        steps = (prefill(1, 1),)
        if m.batch > 1:
            load = (decode(1, m.batch), prefill(1.0 / m.output_tokens, m.batch))
            steps += (decode(1, m.batch - 1), *(replace(step, load=True) for step in load))
    else:
        raise ValueError(f"{m.id}: unknown metric {m.metric!r}")
    _STEPS[id(m)] = (m, steps)
    return steps


def _resident_batch(m: Measurement) -> int:
    """Sequences of a static batch that fit in the devices' memory at once (the whole batch when
    the accelerator's capacity is unknown, or it fits).

    The whole capacity counts, no headroom: this bounds the run, so it must not be pessimistic.
    """
    capacity = getattr(m.accelerator, "memory_bytes", None)
    if not capacity:
        return m.batch
    room = capacity * m.devices - m.model.total_params * m.weight_format.bytes_per_weight
    per_sequence = m.model.kv_cache_bytes(
        context_tokens=m.input_tokens + m.output_tokens, batch=1, kv_dtype=m.kv_format
    )
    if per_sequence <= 0 or room <= 0:
        return m.batch
    return max(1, min(m.batch, int(room // per_sequence)))


def _value_from_time(m: Measurement, total_s: float) -> float:
    """The row's metric, in its unit, for a run of ``total_s`` seconds (one step for decode)."""
    if m.metric == "decode_tokens_per_s_per_sequence":
        return 1.0 / total_s
    if m.metric in ("decode_ms_per_token", "ttft_ms", "serving_tpot_ms", "serving_ttft_ms"):
        return total_s * 1e3
    if m.metric == "serving_output_tokens_per_s":
        return m.batch / total_s
    if m.metric == "prefill_tokens_per_s":
        return m.batch * m.input_tokens / total_s
    return m.batch * m.output_tokens / total_s / m.devices


def predict(measurement: Measurement, efficiencies: Efficiencies = SPEED_OF_LIGHT) -> float:
    """What the roofline predicts for the row's metric, in the row's unit, at uniform fractions of peak.

    Args:
        measurement: The row (its conditions; its value is not used).
        efficiencies: Fractions of peak bandwidth and compute; :data:`SPEED_OF_LIGHT` gives the bound.

    Returns:
        The predicted value of ``measurement.metric``, in ``measurement.unit``.

    Raises:
        ValueError: for a mixture-of-experts row with more than one sequence, or a prefill of
            one, which this comparison does not model (expert routing over a batch).
    """
    return _value_from_time(
        measurement,
        _run_time_s(
            measurement,
            lambda s: max(s.compute_s / efficiencies.compute, s.memory_s / efficiencies.bandwidth) + s.communication_s,
        ),
    )


def _run_time_s(m: Measurement, step_s: Callable[[_Step], float]) -> float:
    """The row's time (one step's for decode and serving), with each step timed by ``step_s``."""
    steps = _steps(m)
    times = [step_s(s) for s in steps]
    total = sum(s.count * t for s, t in zip(steps, times) if not s.load)
    if any(s.load for s in steps):
        total += _serving_wait_s(steps, times)
    return total


def _serving_wait_s(steps: tuple[_Step, ...], times: list[float]) -> float:
    """How long a serving row's prompt waits behind other prompts, in seconds.

    The load steps are the server's steady-state step: one decode step at the concurrency and the
    share of prompts' prefill it carries. Prefill keeps the server busy for the fraction
    ``rho = prefill share / step`` of the time; with arrivals treated as random (many requests
    finishing independently) and a prompt's prefill taking a fixed time ``P`` (the row's own
    prefill step), the mean wait is the M/D/1 queue's ``rho P / (2 (1 - rho))`` (Pollaczek-
    Khinchine with a deterministic service time). Benchmarks whose requests finish in lockstep
    (fixed output lengths, all started at once) queue in waves and wait longer than this.
    """
    own_prefill = times[0]
    load = [(s, s.count * t) for s, t in zip(steps, times) if s.load]
    step_s = sum(t for _, t in load)
    prefill_s = sum(t for s, t in load if s.phase == "prefill")
    rho = min(prefill_s / step_s, 0.99) if step_s > 0 else 0.0
    return rho * own_prefill / (2.0 * (1.0 - rho))


_REGIMES: dict[tuple[int, str], tuple[Measurement, Regime]] = {}


def row_regime(measurement: Measurement, phase: str) -> Regime:
    """The :class:`~roofline_core.estimates.efficiency.Regime` of a row's ``phase`` steps (cached:
    the fit asks for it many times)."""
    cached = _REGIMES.get((id(measurement), phase))
    if cached is not None and cached[0] is measurement:
        return cached[1]
    regime = _regime_of_row(measurement, phase)
    _REGIMES[(id(measurement), phase)] = (measurement, regime)
    return regime


def _regime_of_row(measurement: Measurement, phase: str) -> Regime:
    m = measurement
    return regime_of_run(
        phase=phase,
        weight_format=m.weight_format.slug,
        compute_format=m.compute_format,
        accelerator=m.accelerator,
        engine=m.engine,
    )


def predict_expected(measurement: Measurement, constants: RegimeConstants = FITTED) -> float:
    """The realistic estimate of the row's metric, in the row's unit: every step through
    :func:`roofline_core.estimates.efficiency.expected_step_s` at ``constants``."""
    return _value_from_time(
        measurement,
        _run_time_s(
            measurement,
            lambda s: expected_step_s(
                compute_s=s.compute_s,
                memory_s=s.memory_s - s.kv_memory_s,
                kv_memory_s=s.kv_memory_s,
                layers=measurement.model.layers,
                communication_s=s.expected_communication_s,
                regime=row_regime(measurement, s.phase),
                constants=constants,
            ),
        ),
    )


def fraction_of_speed_of_light(measurement: Measurement, speed_of_light: float) -> float:
    """Measured speed over the speed of light (so time metrics are inverted): 1.0 is a perfect run."""
    if measurement.higher_is_faster:
        return measurement.value / speed_of_light
    return speed_of_light / measurement.value


def relative_error(measurement: Measurement, estimate: float) -> float:
    """``(estimate - measured) / measured``, in the row's unit (positive: the estimate is higher)."""
    return (estimate - measurement.value) / measurement.value


@dataclass(frozen=True)
class Comparison:
    """One row beside the roofline.

    Attributes:
        measurement: The row.
        role: :data:`FIT`, :data:`HELD_BACK` or :data:`EXCLUDED`.
        speed_of_light: The bound, in the row's unit (None when excluded).
        estimate: The realistic estimate by regime (:func:`predict_expected`; None when excluded).
        expected_range: The estimate's 80% interval in the row's unit, slow end first for a speed
            and fast end first for a time (None when excluded).
        uniform_estimate: The estimate at one bandwidth and compute share for every row (the
            model before regimes, kept for comparison; None when excluded).
    """

    measurement: Measurement
    role: str
    speed_of_light: float | None
    estimate: float | None
    expected_range: tuple[float, float] | None = None
    uniform_estimate: float | None = None

    @property
    def ratio(self) -> float | None:
        """Measured speed as a fraction of the speed of light."""
        if self.speed_of_light is None:
            return None
        return fraction_of_speed_of_light(self.measurement, self.speed_of_light)

    @property
    def error(self) -> float | None:
        """The estimate's error relative to the measurement."""
        if self.estimate is None:
            return None
        return relative_error(self.measurement, self.estimate)

    @property
    def uniform_error(self) -> float | None:
        """The one-share estimate's error relative to the measurement."""
        if self.uniform_estimate is None:
            return None
        return relative_error(self.measurement, self.uniform_estimate)

    @property
    def inside_range(self) -> bool | None:
        """Whether the measurement lies in :attr:`expected_range`."""
        if self.expected_range is None:
            return None
        low, high = sorted(self.expected_range)
        return low <= self.measurement.value <= high


@dataclass(frozen=True)
class ValidationReport:
    """The whole comparison.

    Attributes:
        comparisons: One per row, in file order.
        efficiencies: One bandwidth and compute share fitted on every fit row (the model
            before regimes, shown beside the regime fit).
        constants: The regime constants fitted on the fit rows, intervals from the held-back rows.
        loo_coverage: For each held-back row id, whether it lies inside the interval built from
            the other held-back rows of its regime (leave one out): the interval's honest coverage.
    """

    comparisons: tuple[Comparison, ...]
    efficiencies: Efficiencies
    constants: RegimeConstants = FITTED
    loo_coverage: dict[str, bool] = field(default_factory=dict)

    def _errors(self, role: str, devices: str = "all") -> list[float]:
        return [
            abs(c.error)
            for c in self.comparisons
            if c.role == role
            and c.error is not None
            and (devices == "all" or (devices == "single") == (c.measurement.devices == 1))
        ]

    def median_abs_error(self, role: str, devices: str = "all") -> float | None:
        """Median absolute relative error of the rows in ``role`` (None if there are none).

        Args:
            role: :data:`FIT` or :data:`HELD_BACK`.
            devices: ``"all"``, ``"single"`` (one device) or ``"multi"`` (several).
        """
        errors = self._errors(role, devices)
        return statistics.median(errors) if errors else None

    def count(self, role: str, devices: str = "all") -> int:
        """Rows in ``role`` (all of them, or single- or multi-device ones)."""
        if role == EXCLUDED:
            return sum(1 for c in self.comparisons if c.role == EXCLUDED)
        return len(self._errors(role, devices))

    def ratios_by_group(self) -> dict[str, tuple[int, float]]:
        """Rows compared and their median ratio, for each kind of row (see :func:`row_group`).

        Returns:
            Group name to (rows, median share of the speed of light), groups in :data:`GROUPS` order.
        """
        ratios: dict[str, list[float]] = {group: [] for group in GROUPS}
        for c in self.comparisons:
            if c.ratio is not None:
                ratios[row_group(c.measurement)].append(c.ratio)
        return {group: (len(values), statistics.median(values)) for group, values in ratios.items() if values}

    def rows_by_source_kind(self) -> dict[str, int]:
        """How many rows (excluded ones included) each kind of source gave."""
        return dict(sorted(Counter(c.measurement.source_kind for c in self.comparisons).items()))


def fit_efficiencies(rows: list[Measurement] | tuple[Measurement, ...]) -> Efficiencies:
    """One bandwidth and compute share minimising the median absolute relative error over ``rows``.

    A coarse grid (steps of 0.05 from 0.10 to 1.00 for each) finds the region, a fine one
    (steps of 0.01 around it) the value; ties go to the smaller mean error, then the higher
    efficiencies, so the answer does not depend on the order of the rows.

    Raises:
        ValueError: if ``rows`` is empty.
    """
    if not rows:
        raise ValueError("no rows to fit on")

    def score(e: Efficiencies) -> tuple[float, float, float, float]:
        errors = [abs(relative_error(m, predict(m, e))) for m in rows]
        return (statistics.median(errors), statistics.fmean(errors), -e.bandwidth, -e.compute)

    best = min((Efficiencies(b, c) for b in _COARSE_GRID for c in _COARSE_GRID), key=score)
    fine_b = _fine_around(best.bandwidth)
    fine_c = _fine_around(best.compute)
    return min((Efficiencies(b, c) for b in fine_b for c in fine_c), key=score)


def _fine_around(value: float) -> list[float]:
    steps = range(-5, 6)
    return sorted({round(value + i * _FINE_STEP, 2) for i in steps if 0 < round(value + i * _FINE_STEP, 2) <= 1})


# --- The regime fit ---------------------------------------------------------------------------

#: Grids of the regime fit: shares in steps of 0.01, fixed costs per layer in steps of 0.5 us up to 120 us.
_SHARE_GRID: tuple[float, ...] = tuple(round(0.01 * i, 2) for i in range(5, 101))
_FIXED_GRID_S: tuple[float, ...] = tuple(round(5e-7 * i, 7) for i in range(0, 241))
#: Most rounds of the coordinate search (fixed costs, then shares, then again); it stops as soon as
#: a round changes nothing, which on the repository's table happens by the eighth.
_MAX_ROUNDS = 12


def _share_keys(regime: Regime) -> tuple[str, ...]:
    """The share keys of a regime, most general first."""
    return tuple(reversed(regime.share_keys))


def _depth(key: str) -> int:
    """0 for :data:`ALL`, 1 for a family (or a kind of fixed cost), one more per ``/`` part."""
    return 0 if key == ALL else key.count("/") + 1


def _steps_regimes(m: Measurement) -> list[Regime]:
    return [row_regime(m, s.phase) for s in _steps(m)]


def _compute_matters(m: Measurement) -> bool:
    """Whether any step of the row is compute-bound at the speed of light (only those rows say
    anything about the compute share)."""
    return any(s.compute_s >= s.memory_s for s in _steps(m))


def _kv_matters(m: Measurement) -> bool:
    """Whether the KV cache is at least a twentieth of some step's bytes (only those rows say anything
    about the KV share)."""
    return any(s.kv_memory_s >= 0.05 * s.memory_s for s in _steps(m))


def _members(rows: list[Measurement] | tuple[Measurement, ...]) -> dict[str, dict[str, list[Measurement]]]:
    """The rows each constant is fitted on, by table (``bandwidth``, ``kv``, ``compute``, ``fixed``) and key."""
    members: dict[str, dict[str, list[Measurement]]] = {"bandwidth": {}, "kv": {}, "compute": {}, "fixed": {}}
    for m in rows:
        for key in {k for regime in _steps_regimes(m) for k in _share_keys(regime)}:
            members["bandwidth"].setdefault(key, []).append(m)
            if _compute_matters(m):
                members["compute"].setdefault(key, []).append(m)
            if _kv_matters(m):
                members["kv"].setdefault(key, []).append(m)
        # Runs made of several kinds of step (static batches, serving) say nothing clean about one
        # kind's fixed cost.
        if m.metric != "static_batch_output_tokens_per_s_per_device" and m.metric not in _SERVING_METRICS:
            for key in row_regime(m, phase_of(m)).fixed_keys:
                members["fixed"].setdefault(key, []).append(m)
    return members


def fit_regimes(rows: list[Measurement] | tuple[Measurement, ...]) -> RegimeConstants:
    """The regime constants minimising the median absolute relative error over ``rows`` (fit rows).

    A coordinate search: the fixed step costs (with and without CUDA graphs) on the decode rows of
    each kind, then each bandwidth share on the rows it applies to (:data:`ALL` on every row, a
    family on its rows, ``family/kernel`` on its rows), then each compute share on the rows with a
    compute-bound step, three rounds. A key with fewer than
    :data:`~roofline_core.estimates.efficiency.MIN_FIT_ROWS` rows is not fitted: its rows use
    the parent's value, and the key is listed in ``fallbacks`` with its row count. Ties go to
    the smaller mean error, then the larger share or smaller cost, so the answer does not depend
    on the order of the rows. Intervals are left empty (:func:`validate` fills them from the
    held-back rows).

    Raises:
        ValueError: if ``rows`` is empty.
    """
    if not rows:
        raise ValueError("no rows to fit on")
    bandwidth: dict[str, float] = {ALL: 0.7}
    kv: dict[str, float] = {ALL: 0.7}
    compute: dict[str, float] = {ALL: 0.6}
    fixed: dict[str, float] = {}
    groups = _members(rows)
    members, kv_members = groups["bandwidth"], groups["kv"]
    compute_members, fixed_members = groups["compute"], groups["fixed"]
    fallbacks = {k: len(v) for k, v in sorted((members | fixed_members).items()) if len(v) < MIN_FIT_ROWS and k != ALL}

    def constants(depth: int = 99, fixed_depth: int = 99) -> RegimeConstants:
        # A key is fitted as its members' regime: with the keys below it left out, so a parent is
        # fitted on all its rows (the value its children fall back to), not on the leftovers.
        def upto(table: dict[str, float], depth: int = depth) -> dict[str, float]:
            return {k: v for k, v in table.items() if _depth(k) <= depth}

        return RegimeConstants(
            upto(bandwidth), upto(kv), upto(compute), upto(fixed, fixed_depth), {ALL: (1.0, 1.0)}, {}
        )

    def score(candidate_rows: list[Measurement], trial: RegimeConstants) -> tuple[float, float]:
        errors = [abs(relative_error(m, predict_expected(m, trial))) for m in candidate_rows]
        return (statistics.median(errors), statistics.fmean(errors))

    def order(keys: dict[str, list[Measurement]]) -> list[str]:
        # General keys first, so a family starts from the fitted parent value.
        return sorted(keys, key=lambda k: (_depth(k), k))

    previous = None
    for _ in range(_MAX_ROUNDS):
        current = (dict(bandwidth), dict(kv), dict(compute), dict(fixed))
        if current == previous:
            break
        previous = current
        for key in order(fixed_members):
            if len(fixed_members[key]) < MIN_FIT_ROWS:
                continue

            def fixed_score(value: float, key: str = key) -> tuple:
                fixed[key] = value
                return (*score(fixed_members[key], constants(fixed_depth=_depth(key))), value)

            fixed[key] = min(_FIXED_GRID_S, key=fixed_score)
        for table, groups in ((bandwidth, members), (kv, kv_members), (compute, compute_members)):
            for key in order(groups):
                # ALL is fitted on whatever rows there are (it is every key's last parent).
                if len(groups[key]) < (1 if key == ALL else MIN_FIT_ROWS):
                    table.pop(key, None)
                    continue

                def share_score(value: float, key: str = key, table: dict = table, groups: dict = groups) -> tuple:
                    table[key] = value
                    return (*score(groups[key], constants(_depth(key))), -value)

                table[key] = min(_SHARE_GRID, key=share_score)
    return RegimeConstants(
        dict(sorted(bandwidth.items())),
        dict(sorted(kv.items())),
        dict(sorted(compute.items())),
        dict(sorted(fixed.items())),
        {},
        fallbacks,
    )


def _interval_keys(c: Comparison) -> tuple[str, ...]:
    """The interval keys of a compared row, most specific first (``phase/family``, ``phase``, :data:`ALL`)."""
    phase = phase_of(c.measurement)
    family = row_regime(c.measurement, "decode").family
    return (f"{phase}/{family}", phase, ALL)


def _speed_residual(c: Comparison) -> float:
    m = c.measurement
    return log_residual(measured_speed=tokens_per_s(m, m.value), expected_speed=tokens_per_s(m, c.estimate))


def _decile_interval(residuals: list[float]) -> tuple[float, float]:
    """An 80% prediction interval from log residuals, as factors on the expected speed (2 decimals).

    Distribution-free: of ``n`` sorted residuals, a new one falls between the ``i``-th and the
    ``j``-th with probability ``(j - i) / (n + 1)``, so ``i = floor(0.1 (n + 1))`` and
    ``j = ceil(0.9 (n + 1))`` (kept within 1..n) give at least 80%. The plain 10th and 90th
    percentiles of a sample of 20 cover a new row only about 72% of the time.
    """
    ordered = sorted(residuals)
    n = len(ordered)
    low = min(n, max(1, math.floor(0.1 * (n + 1))))
    high = max(1, min(n, math.ceil(0.9 * (n + 1))))
    return (round(math.exp(ordered[low - 1]), 2), round(math.exp(ordered[high - 1]), 2))


def fit_intervals(held_back: list[Comparison]) -> dict[str, tuple[float, float]]:
    """80% intervals from the held-back rows' residuals, for every key with at least
    :data:`~roofline_core.estimates.efficiency.MIN_FIT_ROWS` rows (and always :data:`ALL`)."""
    residuals: dict[str, list[float]] = {}
    for c in held_back:
        for key in _interval_keys(c):
            residuals.setdefault(key, []).append(_speed_residual(c))
    return {
        key: _decile_interval(values)
        for key, values in sorted(residuals.items())
        if len(values) >= MIN_FIT_ROWS or (key == ALL and len(values) >= 2)
    }


def _leave_one_out(held_back: list[Comparison]) -> dict[str, bool]:
    """Whether each held-back row lies in the interval of the other held-back rows of its regime."""
    residuals = {c.measurement.id: _speed_residual(c) for c in held_back}
    by_key: dict[str, list[str]] = {}
    for c in held_back:
        for key in _interval_keys(c):
            by_key.setdefault(key, []).append(c.measurement.id)
    inside: dict[str, bool] = {}
    for c in held_back:
        row_id = c.measurement.id
        for key in _interval_keys(c):
            others = [residuals[i] for i in by_key[key] if i != row_id]
            if len(others) >= MIN_FIT_ROWS or key == ALL:
                if len(others) < 2:
                    break
                low, high = _decile_interval(others)
                inside[row_id] = math.log(low) <= residuals[row_id] <= math.log(high)
                break
    return inside


class FasterThanLightError(RowError):
    """A row measured faster than its own speed of light: a wrong preset, format or quote."""

    def __init__(self, filename: str, line: int, message: str) -> None:
        ValueError.__init__(self, f"{filename}:{line}: {message}")
        self.line = line


def validate(table: MeasurementTable, constants: RegimeConstants | None = None) -> ValidationReport:
    """Fit the regime constants on the fit rows, the intervals on the held-back rows, and compare every row.

    ``constants`` skips the fit and compares with them instead: the site passes the constants it
    ships (:data:`~roofline_core.estimates.efficiency.FITTED`), which
    tests/data/test_measurements.py holds equal to the fit, so a build pays for no search over
    shares (most of a minute of CPU); the intervals are still made from the held-back rows.

    Raises:
        RowError: naming the line of a row that cannot be estimated.
        FasterThanLightError: ``<file>:<line>: ...`` for a row measured above its speed of light,
            with the ratio.
        ValueError: if no row is a fit row.
    """
    roles = [split_role(m) for m in table.rows]
    for m, role in zip(table.rows, roles):
        if role != EXCLUDED:
            try:
                bound = predict(m)
            except ValueError as error:
                raise RowError(m.line, str(error)) from None
            ratio = fraction_of_speed_of_light(m, bound)
            if ratio > 1.0:
                raise FasterThanLightError(
                    table.filename,
                    m.line,
                    f"{m.id} runs at {ratio:.2f}x its speed of light; expected at most 1.00 "
                    "(check the accelerator, the weight format, the device count and the quote)",
                )
    fit_rows = [m for m, role in zip(table.rows, roles) if role == FIT]
    uniform = fit_efficiencies(fit_rows)
    fitted = fit_regimes(fit_rows) if constants is None else constants

    def compare(m: Measurement, role: str, constants: RegimeConstants) -> Comparison:
        if role == EXCLUDED:
            return Comparison(measurement=m, role=role, speed_of_light=None, estimate=None)
        estimate = predict_expected(m, constants)
        low, high = constants.interval(row_regime(m, phase_of(m))) if constants.intervals else (1.0, 1.0)
        return Comparison(
            measurement=m,
            role=role,
            speed_of_light=predict(m),
            estimate=estimate,
            expected_range=_scaled_range(m, estimate, low, high),
            uniform_estimate=predict(m, uniform),
        )

    first = [compare(m, role, fitted) for m, role in zip(table.rows, roles)]
    held_back = [c for c in first if c.role == HELD_BACK]
    intervals = fit_intervals(held_back) if len(held_back) >= 2 else {ALL: (1.0, 1.0)}
    with_intervals = RegimeConstants(
        fitted.bandwidth_share, fitted.kv_share, fitted.compute_share, fitted.fixed_layer_s, intervals, fitted.fallbacks
    )
    comparisons = tuple(compare(m, role, with_intervals) for m, role in zip(table.rows, roles))
    return ValidationReport(
        comparisons=comparisons,
        efficiencies=uniform,
        constants=with_intervals,
        loo_coverage=_leave_one_out([c for c in comparisons if c.role == HELD_BACK]),
    )


def _scaled_range(m: Measurement, estimate: float, low: float, high: float) -> tuple[float, float]:
    """The interval of speed factors ``(low, high)`` applied to an estimate in the row's unit."""
    if m.higher_is_faster:
        return (estimate * low, estimate * high)
    return (estimate / high, estimate / low)


# --- Summaries for readers: named rows, error by regime, speeds on one axis -------------------

#: Ways the page splits the compared rows to show where the estimate holds and where it does not.
REGIMES: tuple[str, ...] = ("phase", "devices", "format family", "engine")


def phase_of(measurement: Measurement) -> str:
    """``"decode"``, ``"prefill"`` (time to first token included), ``"static batch"`` or
    ``"serving"`` (a continuous-batching server at a fixed concurrency)."""
    if measurement.metric in _DECODE_METRICS:
        return "decode"
    if measurement.metric in ("ttft_ms", "prefill_tokens_per_s"):
        return "prefill"
    if measurement.metric in _SERVING_METRICS:
        return "serving"
    return "static batch"


def engine_family(measurement: Measurement) -> str:
    """The engine without its qualifiers: ``"llama.cpp (CUDA, llama-bench)"`` -> ``"llama.cpp"``."""
    return measurement.engine.split(" (", 1)[0].strip()


def regime_of(measurement: Measurement, regime: str) -> str:
    """The value of ``regime`` (one of :data:`REGIMES`) for a row, as the page names it.

    Raises:
        ValueError: for a regime not in :data:`REGIMES`.
    """
    if regime == "phase":
        return phase_of(measurement)
    if regime == "devices":
        return "1 device" if measurement.devices == 1 else f"{measurement.devices} devices"
    if regime == "format family":
        return row_regime(measurement, "decode").family
    if regime == "engine":
        return engine_family(measurement)
    raise ValueError(f"unknown regime {regime!r}; expected one of {', '.join(REGIMES)}")


def row_name(measurement: Measurement) -> str:
    """A row as a reader names it: ``"Llama-2-7B, 2 × NVIDIA A100 SXM 80GB, TensorRT-LLM, batch 8"``."""
    m = measurement
    chip = f"{m.devices} × {m.accelerator.name}" if m.devices > 1 else m.accelerator.name
    return f"{m.model.name}, {chip}, {engine_family(m)}, batch {m.batch}"


def tokens_per_s(measurement: Measurement, value: float) -> float:
    """``value`` of the row's metric as a speed in tokens per second (higher is faster).

    Decode times per token become tokens per second of one sequence; a time to first token
    becomes the prompt tokens processed per second. Rates are returned as they are. This puts
    every row on one axis, where a perfect estimate lies on the diagonal.
    """
    m = measurement
    if m.metric in ("decode_ms_per_token", "serving_tpot_ms"):
        return 1e3 / value
    if m.metric == "ttft_ms":
        return m.batch * m.input_tokens / (value / 1e3)
    if m.metric == "serving_ttft_ms":
        return m.input_tokens / (value / 1e3)
    return value


@dataclass(frozen=True)
class RegimeError:
    """How the estimate fares on the compared rows of one regime value.

    Attributes:
        rows: Rows compared (fitted on and held back).
        held_back: Of those, rows the fit did not see.
        median_abs_error: Median absolute relative error of the estimate (0.1 is 10%).
        median_error: Median signed relative error (positive: the estimate is faster than measured).
        median_ratio: Median measured share of the speed of light.
    """

    rows: int
    held_back: int
    median_abs_error: float
    median_error: float
    median_ratio: float


def errors_by_regime(report: ValidationReport, regime: str) -> dict[str, RegimeError]:
    """The estimate's error on the compared rows, split by ``regime`` (one of :data:`REGIMES`).

    Returns:
        Regime value to its :class:`RegimeError`, most rows first (ties by name).
    """
    groups: dict[str, list[Comparison]] = {}
    for c in report.comparisons:
        if c.error is not None and c.ratio is not None:
            groups.setdefault(regime_of(c.measurement, regime), []).append(c)
    summaries = {
        value: RegimeError(
            rows=len(members),
            held_back=sum(1 for c in members if c.role == HELD_BACK),
            median_abs_error=statistics.median(abs(c.error) for c in members),
            # A speed estimate that is too high and a time estimate that is too low both mean
            # "faster than measured": the sign is taken on the speed.
            median_error=statistics.median(_speed_error(c) for c in members),
            median_ratio=statistics.median(c.ratio for c in members),
        )
        for value, members in groups.items()
    }
    return dict(sorted(summaries.items(), key=lambda item: (-item[1].rows, item[0])))


def _speed_error(c: Comparison) -> float:
    m = c.measurement
    return tokens_per_s(m, c.estimate) / tokens_per_s(m, m.value) - 1.0


# --- The cross-validated report by regime -------------------------------------------------------

#: An estimate within this share of the measurement counts as close (the report's second column).
CLOSE = 0.25


@dataclass(frozen=True)
class HeldBackError:
    """The held-back rows of one regime value: the regime fit against one share for every row.

    Attributes:
        rows: Held-back rows.
        median_abs_error: Median absolute relative error of the regime estimate.
        within_close: Share of rows the regime estimate gets within :data:`CLOSE`.
        uniform_median_abs_error: The same for one bandwidth and compute share for every row (before).
        uniform_within_close: The same for one share (before).
        coverage: Share of rows inside the 80% interval built from the other held-back rows of
            their regime (leave one out), None when none has an interval.
    """

    rows: int
    median_abs_error: float
    within_close: float
    uniform_median_abs_error: float
    uniform_within_close: float
    coverage: float | None


def held_back_by_regime(report: ValidationReport, regime: str | None = None) -> dict[str, HeldBackError]:
    """The held-back rows' errors and interval coverage, split by ``regime`` (one of :data:`REGIMES`;
    None for all rows under ``"all held-back rows"``), most rows first (ties by name)."""
    groups: dict[str, list[Comparison]] = {}
    for c in report.comparisons:
        if c.role == HELD_BACK and c.error is not None:
            key = "all held-back rows" if regime is None else regime_of(c.measurement, regime)
            groups.setdefault(key, []).append(c)

    def summary(members: list[Comparison]) -> HeldBackError:
        errors = [abs(c.error) for c in members if c.error is not None]
        uniform = [abs(c.uniform_error) for c in members if c.uniform_error is not None]
        inside = [report.loo_coverage[c.measurement.id] for c in members if c.measurement.id in report.loo_coverage]
        return HeldBackError(
            rows=len(members),
            median_abs_error=statistics.median(errors),
            within_close=sum(e <= CLOSE for e in errors) / len(errors),
            uniform_median_abs_error=statistics.median(uniform),
            uniform_within_close=sum(e <= CLOSE for e in uniform) / len(uniform),
            coverage=sum(inside) / len(inside) if inside else None,
        )

    summaries = {value: summary(members) for value, members in groups.items()}
    return dict(sorted(summaries.items(), key=lambda item: (-item[1].rows, item[0])))


def worst_held_back(report: ValidationReport, count: int = 5) -> list[Comparison]:
    """The ``count`` held-back rows the regime estimate explains worst (largest absolute error)."""
    held = [c for c in report.comparisons if c.role == HELD_BACK and c.error is not None]
    return sorted(held, key=lambda c: (-abs(c.error), c.measurement.id))[:count]


def fit_row_counts(report: ValidationReport) -> dict[str, dict[str, int]]:
    """Fit rows behind each constant: ``{"bandwidth": {key: rows}, "kv": ..., "compute": ..., "fixed": ...}``."""
    members = _members([c.measurement for c in report.comparisons if c.role == FIT])
    return {name: {key: len(rows) for key, rows in groups.items()} for name, groups in members.items()}
