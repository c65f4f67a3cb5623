"""Model vs measurement: each published measurement beside the roofline, and fitted efficiencies.

For every row of a :class:`~roofline_core.evidence.measurements.MeasurementTable` this computes

* the **speed of light**: the row's conditions on the public formula layer
  (:func:`~roofline_core.estimates.inference.decode_step`, :func:`~roofline_core.estimates.inference.prefill_step`)
  at the accelerator's peak bandwidth and peak compute;
* the **realistic estimate**: the same at a fraction of each peak (the efficiencies);
* the **ratio**: measured speed over the speed of light (1.0 would be a perfect run), and the
  estimate's error relative to the measurement.

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

import statistics
import zlib
from collections import Counter
from dataclasses import dataclass

from roofline_core.estimates.communication import tensor_parallel_comm
from roofline_core.estimates.efficiency import FITTED_BANDWIDTH_SHARE, FITTED_COMPUTE_SHARE
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

#: The efficiencies fitted on the repository's measurements table (``measurements/measurements.toml``),
#: for estimates that run where the table is not shipped (the browser). A test refits the table
#: and fails if these drift from it, so a new row that moves the fit updates them here too.
#: Shown with the fit's errors on the site's "Model vs measurement" page.
FITTED_EFFICIENCIES = Efficiencies(bandwidth=FITTED_BANDWIDTH_SHARE, compute=FITTED_COMPUTE_SHARE)


#: Kinds of row the page summarises separately: how far below the bound each kind lands differs.
GROUPS: tuple[str, ...] = (
    "decode, one device",
    "decode, several devices",
    "prefill and time to first token, one device",
    "prefill and time to first token, several devices",
    "static batch to completion",
)


def row_group(measurement: Measurement) -> str:
    """The :data:`GROUPS` entry a row belongs to."""
    devices = "one device" if measurement.devices == 1 else "several devices"
    if measurement.metric in _DECODE_METRICS:
        return f"decode, {devices}"
    if measurement.metric in ("ttft_ms", "prefill_tokens_per_s"):
        return f"prefill and time to first token, {devices}"
    return "static batch to completion"


def split_role(measurement: Measurement) -> str:
    """:data:`FIT`, :data:`HELD_BACK` or :data:`EXCLUDED`, by the fixed rule in the module docstring."""
    if measurement.exclude:
        return EXCLUDED
    if measurement.devices == 1 and zlib.crc32(measurement.id.encode("utf-8")) % 2 == 0:
        return FIT
    return HELD_BACK


def predict(measurement: Measurement, efficiencies: Efficiencies = SPEED_OF_LIGHT) -> float:
    """What the roofline predicts for the row's metric, in the row's unit.

    Args:
        measurement: The row (its conditions; its value is not used).
        efficiencies: Fractions of peak bandwidth and compute; :data:`SPEED_OF_LIGHT` gives the bound.

    Returns:
        The predicted value of ``measurement.metric``, in ``measurement.unit``.

    Raises:
        ValueError: for a mixture-of-experts row with more than one sequence, or a prefill of
            one, which this comparison does not model (expert routing over a batch).
    """
    m = measurement
    if m.model.is_moe and (m.batch > 1 or m.metric not in _DECODE_METRICS):
        raise ValueError(
            f"{m.id}: mixture-of-experts rows are compared at batch 1 decode only; "
            "expected batch = 1 and a decode metric, or exclude = the reason"
        )
    peak_flop_per_s = m.accelerator.peak_for(m.compute_format) * efficiencies.compute
    bandwidth_bytes_per_s = m.accelerator.bandwidth_bytes_per_s * efficiencies.bandwidth
    params = m.model.streamed_params_per_token

    def decode_s(context_tokens: float) -> float:
        step = decode_step(
            params=params,
            peak_flop_per_s=peak_flop_per_s,
            bandwidth_bytes_per_s=bandwidth_bytes_per_s,
            bytes_per_param=m.weight_format.bytes_per_weight,
            batch=m.batch,
            # The model's own rule: sliding-window layers cache at most their window.
            kv_cache_bytes=m.model.kv_cache_bytes(context_tokens=context_tokens, batch=m.batch, kv_dtype=m.kv_format),
            devices=m.devices,
        )
        # Attention's arithmetic over the context, as the site's estimates count it.
        attention = decode_attention_cost(m.model, context_tokens=round(context_tokens), batch=m.batch)
        return with_attention(step, attention).step_time_s + communication_s(m.batch)

    def prefill_s() -> float:
        step = prefill_step(
            params=params,
            prompt_tokens=m.input_tokens,
            peak_flop_per_s=peak_flop_per_s,
            bandwidth_bytes_per_s=bandwidth_bytes_per_s,
            bytes_per_param=m.weight_format.bytes_per_weight,
            batch=m.batch,
            devices=m.devices,
        )
        attention = prefill_attention_cost(m.model, prompt_tokens=m.input_tokens, batch=m.batch)
        return with_attention(step, attention).step_time_s + communication_s(m.batch * m.input_tokens)

    def communication_s(tokens: int) -> float:
        # Tensor-parallel rows pay two all-reduces per layer (roofline_core.estimates.communication); the
        # link runs at its own speed, not at the fitted fractions of memory and compute.
        if m.parallelism != "tensor":
            return 0.0
        return tensor_parallel_comm(m.model, m.accelerator, devices=m.devices, tokens=tokens).time_s

    # Decode time grows linearly with the context here, so the step at the mean context of the
    # generation (prompt plus half the output) is the mean step.
    mean_context_tokens = m.input_tokens + m.output_tokens / 2.0
    if m.metric == "decode_tokens_per_s_per_sequence":
        return 1.0 / decode_s(mean_context_tokens)
    if m.metric == "decode_ms_per_token":
        return decode_s(mean_context_tokens) * 1e3
    if m.metric == "ttft_ms":
        return prefill_s() * 1e3
    if m.metric == "prefill_tokens_per_s":
        return m.batch * m.input_tokens / prefill_s()
    if m.metric == "static_batch_output_tokens_per_s_per_device":
        # The prefill gives each sequence its first token; the rest come one decode step each.
        total_s = prefill_s() + (m.output_tokens - 1) * decode_s(mean_context_tokens)
        return m.batch * m.output_tokens / total_s / m.devices
    raise ValueError(f"{m.id}: unknown metric {m.metric!r}")


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
        estimate: The realistic estimate at the fitted efficiencies (None when excluded).
    """

    measurement: Measurement
    role: str
    speed_of_light: float | None
    estimate: float | None

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


@dataclass(frozen=True)
class ValidationReport:
    """The whole comparison.

    Attributes:
        comparisons: One per row, in file order.
        efficiencies: The fitted efficiencies.
    """

    comparisons: tuple[Comparison, ...]
    efficiencies: Efficiencies

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
    """Efficiencies minimising the median absolute relative error over ``rows``.

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


def validate(table: MeasurementTable) -> ValidationReport:
    """Fit the efficiencies on the fit rows and compare every row.

    Raises:
        RowError: naming the line of a row that cannot be estimated.
        ValueError: if no row is a fit row.
    """
    roles = [split_role(m) for m in table.rows]
    for m, role in zip(table.rows, roles):
        if role != EXCLUDED:
            try:
                predict(m)
            except ValueError as error:
                raise RowError(m.line, str(error)) from None
    fitted = fit_efficiencies([m for m, role in zip(table.rows, roles) if role == FIT])
    comparisons = tuple(
        Comparison(measurement=m, role=role, speed_of_light=None, estimate=None)
        if role == EXCLUDED
        else Comparison(measurement=m, role=role, speed_of_light=predict(m), estimate=predict(m, fitted))
        for m, role in zip(table.rows, roles)
    )
    return ValidationReport(comparisons=comparisons, efficiencies=fitted)


# --- Summaries for readers: named rows, error by regime, speeds on one axis -------------------

#: Ways the page splits the compared rows to show where the estimate holds and where it does not.
REGIMES: tuple[str, ...] = ("phase", "devices", "weight format", "engine")


def phase_of(measurement: Measurement) -> str:
    """``"decode"``, ``"prefill"`` (time to first token included) or ``"static batch"``."""
    if measurement.metric in _DECODE_METRICS:
        return "decode"
    if measurement.metric in ("ttft_ms", "prefill_tokens_per_s"):
        return "prefill"
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
    if regime == "weight format":
        return measurement.weight_format.slug
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
    if m.metric == "decode_ms_per_token":
        return 1e3 / value
    if m.metric == "ttft_ms":
        return m.batch * m.input_tokens / (value / 1e3)
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
