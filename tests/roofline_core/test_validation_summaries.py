"""What the Model vs measurement page leads with: named rows, error by regime, one speed axis, the chart."""

from __future__ import annotations

import statistics

import pytest

from roofline_core.evidence.validation import (
    HELD_BACK,
    REGIMES,
    Comparison,
    Efficiencies,
    ValidationReport,
    errors_by_regime,
    regime_of,
    row_name,
    tokens_per_s,
)
from roofline_core.figures.measured import BAND, measured_vs_predicted_figure
from tests.roofline_core.test_validation import H100, _row


def test_a_row_is_named_by_model_chip_engine_family_and_batch() -> None:
    row = _row(engine="llama.cpp (CUDA, llama-bench)", batch=8, devices=2)
    assert row_name(row) == "Llama 3 8B, 2 × NVIDIA H100 SXM, llama.cpp, batch 8"
    assert row_name(_row(engine="TensorRT-LLM")) == "Llama 3 8B, NVIDIA H100 SXM, TensorRT-LLM, batch 1"
    assert H100.name == "NVIDIA H100 SXM"


def test_every_metric_becomes_tokens_per_second() -> None:
    assert tokens_per_s(_row(metric="decode_ms_per_token"), 8.0) == pytest.approx(125.0)
    # 4 prompts of 100 tokens in 50 ms: 8,000 prompt tokens per second.
    assert tokens_per_s(_row(metric="ttft_ms", batch=4, input_tokens=100), 50.0) == pytest.approx(8000.0)
    assert tokens_per_s(_row(metric="prefill_tokens_per_s"), 9000.0) == 9000.0
    assert tokens_per_s(_row(), 42.0) == 42.0
    # Serving: a mean TPOT is one sequence's speed, a mean TTFT one prompt's tokens over its wait,
    # and the server's output rate stays as it is.
    assert tokens_per_s(_row(metric="serving_tpot_ms", batch=32), 20.0) == pytest.approx(50.0)
    assert tokens_per_s(_row(metric="serving_ttft_ms", batch=32, input_tokens=1000), 250.0) == pytest.approx(4000.0)
    assert tokens_per_s(_row(metric="serving_output_tokens_per_s", batch=32), 900.0) == 900.0
    assert regime_of(_row(metric="serving_tpot_ms", batch=32), "phase") == "serving"


def _report(rows_and_estimates) -> ValidationReport:
    return ValidationReport(
        comparisons=tuple(
            Comparison(
                measurement=row, role=role, speed_of_light=None if estimate is None else estimate * 2, estimate=estimate
            )
            for row, role, estimate in rows_and_estimates
        ),
        efficiencies=Efficiencies(0.7, 0.6),
    )


def test_errors_by_regime_are_medians_of_each_group_signed_on_speed() -> None:
    report = _report(
        [
            (_row(id="a", value=100.0), HELD_BACK, 110.0),  # decode, 10% fast
            (_row(id="b", value=100.0), "fit", 130.0),  # decode, 30% fast
            (_row(id="c", value=100.0, devices=2), HELD_BACK, 80.0),  # decode, 20% slow
            # A time: the estimate of 40 ms against 50 measured is 25% faster, though its error is -20%.
            (_row(id="d", metric="ttft_ms", value=50.0, unit="ms"), HELD_BACK, 40.0),
            (_row(id="e", exclude="no"), "excluded", None),
        ]
    )
    phases = errors_by_regime(report, "phase")
    assert list(phases) == ["decode", "prefill"]
    decode = phases["decode"]
    assert (decode.rows, decode.held_back) == (3, 2)
    assert decode.median_abs_error == pytest.approx(0.2)
    assert decode.median_error == pytest.approx(0.1)
    assert decode.median_ratio == pytest.approx(statistics.median([100 / 220, 100 / 260, 100 / 160]))
    assert phases["prefill"].median_error == pytest.approx(0.25)
    assert phases["prefill"].median_abs_error == pytest.approx(0.2)
    assert set(errors_by_regime(report, "devices")) == {"1 device", "2 devices"}
    assert all(regime_of(_row(), regime) for regime in REGIMES)
    with pytest.raises(ValueError, match="unknown regime 'chip'; expected one of phase, devices"):
        regime_of(_row(), "chip")


def test_the_chart_puts_each_compared_row_at_its_estimate_and_measured_speed() -> None:
    report = _report(
        [
            (_row(id="a", value=100.0), HELD_BACK, 110.0),
            (_row(id="b", metric="decode_ms_per_token", value=10.0, unit="ms"), HELD_BACK, 5.0),
            (_row(id="c", metric="ttft_ms", value=50.0, unit="ms", input_tokens=1000), "fit", 40.0),
        ]
    )
    figure = measured_vs_predicted_figure(report)
    (panel,) = figure["panels"]
    decode, prefill = panel["scatter"]
    assert decode["points"] == [[110.0, 100.0], [pytest.approx(200.0), pytest.approx(100.0)]]
    assert prefill["points"] == [[pytest.approx(25000.0), pytest.approx(20000.0)]]
    low, high = panel["x_range"]
    assert panel["y_range"] == [low, high] and low <= 100 and high >= 25000
    diagonal, below, above = panel["series"]
    assert diagonal["points"] == [[low, low], [high, high]]
    assert below["points"][1] == [high, pytest.approx(high / (1 + BAND))]
    assert above["points"][1] == [high, pytest.approx(high / (1 - BAND))]
    assert "2 of 3 lie within 25% of the diagonal" in figure["alt"]
    assert len(figure["table"]["rows"]) == 3
