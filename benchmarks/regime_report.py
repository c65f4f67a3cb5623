"""The cross-validated report of the regime-aware estimate on the measurements table, as text.

Usage::

    .venv/bin/python benchmarks/regime_report.py [--constants]

Fits the regime constants on the table's fit rows (roofline_core.evidence.validation), then prints,
for the held-back rows only: the median absolute error and the share within 25% per regime (format
family, device count, engine, phase) beside the model before regimes (one bandwidth and compute
share for every row), the 80% interval's leave-one-out coverage, the constants with the fit rows
behind each, the regimes that fell back to their parent, and the five rows explained worst.
``--constants`` prints the fitted constants as the Python literals
roofline_core/estimates/efficiency.py holds (what to paste there when a new row moves the fit;
tests/data/test_measurements.py fails until they agree). A report, not a test; about 5 CPU-seconds.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(PROJECT_ROOT))  # run as a script: make roofline_core importable

from roofline_core.estimates import efficiency  # noqa: E402
from roofline_core.evidence.measurements import load_measurements_file  # noqa: E402
from roofline_core.evidence.validation import (  # noqa: E402
    REGIMES,
    ValidationReport,
    fit_row_counts,
    held_back_by_regime,
    row_name,
    validate,
    worst_held_back,
)

DATA_FILE = PROJECT_ROOT / "measurements" / "measurements.toml"


def _percent(value: float | None) -> str:
    return "n/a" if value is None else f"{100 * value:.1f}%"


def report_lines(report: ValidationReport) -> list[str]:
    """The report as lines of text."""
    lines = ["Held-back rows only; 'before' is one share of bandwidth and compute for every row.", ""]
    header = f"{'regime':<34} {'rows':>4}  {'median error':>17}  {'within 25%':>15}  {'80% coverage':>12}"
    lines += [header, "-" * len(header)]
    for regime in (None, *REGIMES):
        if regime is not None:
            lines.append(f"by {regime}:")
        for value, e in held_back_by_regime(report, regime).items():
            lines.append(
                f"{value[:34]:<34} {e.rows:>4}  "
                f"{_percent(e.uniform_median_abs_error):>7} -> {_percent(e.median_abs_error):>6}  "
                f"{_percent(e.uniform_within_close):>6} -> {_percent(e.within_close):>6}  "
                f"{_percent(e.coverage):>12}"
            )
    counts = fit_row_counts(report)
    c = report.constants
    lines += ["", "Constants (fit rows behind each):"]
    for title, table, rows in (
        ("bandwidth share", c.bandwidth_share, counts["bandwidth"]),
        ("KV-cache share", c.kv_share, counts["kv"]),
        ("compute share", c.compute_share, counts["compute"]),
    ):
        lines += [f"  {title}:"] + [
            f"    {key:<44} {value:.2f}  ({rows.get(key, 0)} rows)" for key, value in table.items()
        ]
    lines += ["  fixed cost per layer:"] + [
        f"    {key:<44} {value * 1e6:.1f} us  ({counts['fixed'].get(key, 0)} rows)"
        for key, value in c.fixed_layer_s.items()
    ]
    lines += ["", f"Fell back to their parent (fewer than {efficiency.MIN_FIT_ROWS} fit rows):"]
    lines += [f"  {key} ({rows} fit rows)" for key, rows in c.fallbacks.items()]
    lines += ["", "Communication (measured, cited in roofline_core/estimates/efficiency.py):"]
    lines += [
        f"  one-shot all-reduce over NVLink, {n} devices: {t * 1e6:.1f} us"
        for n, t in efficiency.ONE_SHOT_LATENCY_S.items()
    ]
    lines += [
        f"  ring over NVLink at {_percent(efficiency.RING_LINK_SHARE)} of the line rate",
        f"  PCIe ring: {efficiency.PCIE_STEP_LATENCY_S * 1e6:.2f} us a step, {efficiency.PCIE_BUS_BYTES_PER_S / 1e9:.2f} GB/s",
    ]
    lines += ["", "Explained worst (held back):"]
    for comparison in worst_held_back(report):
        m = comparison.measurement
        lines.append(
            f"  {comparison.error:+.0%}  {m.id}: {row_name(m)}, {m.metric}, {m.input_tokens}/{m.output_tokens} tokens"
        )
    return lines


def constants_source(report: ValidationReport) -> str:
    """The fitted constants as the Python literals of roofline_core/estimates/efficiency.py."""
    counts = fit_row_counts(report)
    c = report.constants
    blocks = []
    for name, annotation, table, rows in (
        ("BANDWIDTH_SHARE", "dict[str, float]", c.bandwidth_share, counts["bandwidth"]),
        ("KV_SHARE", "dict[str, float]", c.kv_share, counts["kv"]),
        ("COMPUTE_SHARE", "dict[str, float]", c.compute_share, counts["compute"]),
        ("FIXED_LAYER_S", "dict[str, float]", c.fixed_layer_s, counts["fixed"]),
        ("FALLBACKS", "dict[str, int]", c.fallbacks, None),
        ("INTERVALS", "dict[str, tuple[float, float]]", c.intervals, None),
    ):
        body = [
            f"    {key!r}: {value!r},{'' if rows is None else f'  # {rows.get(key, 0)} fit rows'}"
            for key, value in table.items()
        ]
        blocks.append("\n".join([f"{name}: {annotation} = {{", *body, "}"]))
    return "\n\n".join(blocks).replace("'", '"') + "\n"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--constants", action="store_true", help="print the constants as efficiency.py's literals")
    args = parser.parse_args(argv)
    report = validate(load_measurements_file(str(DATA_FILE)))
    print(constants_source(report) if args.constants else "\n".join(report_lines(report)))


if __name__ == "__main__":
    main()
