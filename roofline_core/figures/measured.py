"""Data of the "measured against predicted" chart of the Model vs measurement page.

Not a fence kind: its input is a whole :class:`~roofline_core.evidence.validation.ValidationReport`
(the published measurements compared with this package), which only the build has, so the page
asks for it directly. Every row becomes a speed in tokens per second
(:func:`~roofline_core.evidence.validation.tokens_per_s`), so rows of every metric share one pair of log
axes and a perfect estimate lies on the diagonal.
"""

from __future__ import annotations

from roofline_core.evidence.validation import ValidationReport, errors_by_regime, phase_of, row_name, tokens_per_s
from roofline_core.figures._common import compact_tick, decade_range, log_ticks
from roofline_core.figures.schema import Figure
from roofline_core.formatting import format_number, format_percent

KIND = "measured-vs-predicted"
#: The dashed band either side of the diagonal: an estimate within it is within this share.
BAND = 0.25
#: Phases in the order the legend lists them.
PHASES = ("decode", "prefill", "static batch")
_PHASE_LABELS = {
    "decode": "decode (tokens/s per sequence)",
    "prefill": "prefill (prompt tokens/s)",
    "static batch": "static batch (output tokens/s per device)",
}


def measured_vs_predicted_figure(report: ValidationReport) -> Figure:
    """Each compared row's measured speed against the realistic estimate, both in tokens/s."""
    pairs = [
        (c, tokens_per_s(c.measurement, c.estimate), tokens_per_s(c.measurement, c.measurement.value))
        for c in report.comparisons
        if c.estimate is not None
    ]
    if not pairs:
        raise ValueError("no compared rows to plot")
    low, high = decade_range(min(min(x, y) for _, x, y in pairs), max(max(x, y) for _, x, y in pairs))
    groups = [
        {"label": _PHASE_LABELS[phase], "points": [[x, y] for c, x, y in pairs if phase_of(c.measurement) == phase]}
        for phase in PHASES
    ]
    within = sum(1 for _, x, y in pairs if abs(x / y - 1) <= BAND)
    phases = errors_by_regime(report, "phase")
    alt = (
        f"Log-log scatter of {len(pairs)} published measurements: the realistic estimate in tokens per second "
        f"across, the measured speed up. {within} of {len(pairs)} lie within {format_percent(BAND)} of the diagonal. "
        + " ".join(
            f"{phase.capitalize()}: {phases[phase].rows} rows, median error {format_percent(phases[phase].median_abs_error)}."
            for phase in PHASES
            if phase in phases
        )
    )
    rows = sorted(pairs, key=lambda item: (phase_of(item[0].measurement), row_name(item[0].measurement)))
    return {
        "kind": KIND,
        "title": "Measured speed against the estimate",
        "alt": alt,
        "parameters": {},
        "panels": [
            {
                "x_label": "Estimated speed (tokens/s)",
                "y_label": "Measured speed (tokens/s)",
                "x_unit": "tokens/s",
                "y_unit": "tokens/s",
                "x_scale": "log",
                "y_scale": "log",
                "x_range": [low, high],
                "y_range": [low, high],
                "x_ticks": log_ticks(low, high, compact_tick),
                "y_ticks": log_ticks(low, high, compact_tick),
                "series": [
                    {
                        "label": "measured = estimate",
                        "points": [[low, low], [high, high]],
                        "dashed": False,
                        "reference": True,
                    },
                    {
                        "label": f"±{format_percent(BAND)}",
                        "points": [[low, low / (1 + BAND)], [high, high / (1 + BAND)]],
                        "dashed": True,
                        "reference": True,
                    },
                    {
                        "label": f"±{format_percent(BAND)}",
                        "points": [[low, low / (1 - BAND)], [high, high / (1 - BAND)]],
                        "dashed": True,
                        "reference": True,
                    },
                ],
                "scatter": [group for group in groups if group["points"]],
                "legend": True,
            }
        ],
        "table": {
            "columns": ["row", "phase", "estimate (tok/s)", "measured (tok/s)", "error"],
            "rows": [
                [
                    row_name(c.measurement),
                    phase_of(c.measurement),
                    format_number(x),
                    format_number(y),
                    ("+" if x > y else "") + format_percent(x / y - 1),
                ]
                for c, x, y in rows
            ],
        },
        "facts": {},
    }
