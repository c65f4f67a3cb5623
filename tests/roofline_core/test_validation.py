"""Model vs measurement: the bound and estimate of a row, the split, the fit and the report."""

from __future__ import annotations

import dataclasses
import zlib

import pytest

from roofline_core.estimates.communication import tensor_parallel_comm
from roofline_core.estimates.inference import decode_step, prefill_step, with_attention
from roofline_core.evidence.measurements import Measurement, MeasurementTable, WeightFormat
from roofline_core.evidence.validation import (
    EXCLUDED,
    FIT,
    HELD_BACK,
    SPEED_OF_LIGHT,
    Efficiencies,
    FasterThanLightError,
    RowError,
    fit_efficiencies,
    fit_regimes,
    fraction_of_speed_of_light,
    predict,
    relative_error,
    row_group,
    split_role,
    validate,
)
from roofline_core.hardware import get_accelerator
from roofline_core.models import get_model
from roofline_core.models.attention import decode_attention_cost, prefill_attention_cost
from tests.support.measurement_rows import measurement_row as _row

H100 = get_accelerator("h100-sxm")
LLAMA = get_model("llama-3-8b")


def _decode_s(row: Measurement, bandwidth: float, peak: float) -> float:
    context = row.input_tokens + row.output_tokens / 2
    kv = LLAMA.kv_bytes_per_token("fp16") * context * row.batch
    step = decode_step(
        params=LLAMA.streamed_params_per_token,
        peak_flop_per_s=peak,
        bandwidth_bytes_per_s=bandwidth,
        bytes_per_param=row.weight_format.bytes_per_weight,
        batch=row.batch,
        kv_cache_bytes=kv,
        devices=row.devices,
    )
    return with_attention(
        step, decode_attention_cost(LLAMA, context_tokens=round(context), batch=row.batch)
    ).step_time_s


def test_decode_bound_reads_weights_and_the_kv_cache_at_the_mean_context() -> None:
    row = _row()
    # 100 prompt tokens and 200 generated: the mean step sees 200 tokens of context.
    weights = LLAMA.streamed_params_per_token * 2
    kv = LLAMA.kv_bytes_per_token("fp16") * 200
    assert predict(row) == pytest.approx(H100.bandwidth_bytes_per_s / (weights + kv))
    assert predict(_row(metric="decode_ms_per_token", unit="ms")) == pytest.approx(1e3 * (weights + kv) / 3.35e12)


def test_block_scaled_formats_count_their_bits_per_weight() -> None:
    q4 = _row(weight_format=WeightFormat("q4_0", 4.5), input_tokens=1, output_tokens=1)
    fp16 = _row(input_tokens=1, output_tokens=1)
    weights_fp16 = LLAMA.streamed_params_per_token * 2
    weights_q4 = LLAMA.streamed_params_per_token * 4.5 / 8
    kv = LLAMA.kv_bytes_per_token("fp16") * 1.5
    assert predict(q4) / predict(fp16) == pytest.approx((weights_fp16 + kv) / (weights_q4 + kv))


def test_efficiencies_scale_bandwidth_and_compute_separately() -> None:
    decode = _row()
    assert predict(decode, Efficiencies(0.5, 1.0)) == pytest.approx(predict(decode) * 0.5)
    assert predict(decode, Efficiencies(1.0, 0.5)) == pytest.approx(predict(decode))  # memory-bound
    ttft = _row(metric="ttft_ms", unit="ms", input_tokens=4096, output_tokens=1)
    assert predict(ttft, Efficiencies(1.0, 0.5)) == pytest.approx(predict(ttft) * 2)  # compute-bound


def test_prefill_and_ttft_follow_prefill_step() -> None:
    step = prefill_step(
        params=LLAMA.streamed_params_per_token,
        prompt_tokens=2048,
        peak_flop_per_s=989e12,
        bandwidth_bytes_per_s=3.35e12,
        batch=2,
    )
    # Plus causal attention over the prompt: 32 layers x 4 x 32 heads x 128 per query-key pair.
    step = with_attention(step, prefill_attention_cost(LLAMA, prompt_tokens=2048, batch=2))
    ttft = _row(metric="ttft_ms", unit="ms", input_tokens=2048, output_tokens=1, batch=2)
    prefill = _row(metric="prefill_tokens_per_s", input_tokens=2048, output_tokens=1, batch=2)
    assert predict(ttft) == pytest.approx(step.step_time_s * 1e3)
    assert predict(prefill) == pytest.approx(2 * 2048 / step.step_time_s)


def test_static_batch_throughput_is_prefill_then_decode_steps_per_device() -> None:
    row = _row(
        metric="static_batch_output_tokens_per_s_per_device",
        batch=64,
        input_tokens=128,
        output_tokens=128,
        devices=2,
        parallelism="tensor",
    )
    prefill = with_attention(
        prefill_step(
            params=LLAMA.streamed_params_per_token,
            prompt_tokens=128,
            peak_flop_per_s=989e12,
            bandwidth_bytes_per_s=3.35e12,
            batch=64,
            devices=2,
        ),
        prefill_attention_cost(LLAMA, prompt_tokens=128, batch=64),
    ).step_time_s
    # Tensor parallelism over two H100s: two all-reduces per layer, of 64 x 128 prompt tokens'
    # activations in the prefill and of 64 tokens' in each decode step.
    prefill += tensor_parallel_comm(LLAMA, H100, devices=2, tokens=64 * 128).time_s
    decode = _decode_s(row, 3.35e12, 989e12) + tensor_parallel_comm(LLAMA, H100, devices=2, tokens=64).time_s
    total_s = prefill + 127 * decode
    assert predict(row) == pytest.approx(64 * 128 / total_s / 2)


def _prefill_s(prompt_tokens: int, batch: int) -> float:
    step = prefill_step(
        params=LLAMA.streamed_params_per_token,
        prompt_tokens=prompt_tokens,
        peak_flop_per_s=989e12,
        bandwidth_bytes_per_s=3.35e12,
        batch=batch,
    )
    return with_attention(step, prefill_attention_cost(LLAMA, prompt_tokens=prompt_tokens, batch=batch)).step_time_s


def test_a_serving_step_is_a_decode_step_at_the_concurrency_plus_its_share_of_prompts() -> None:
    # 32 requests in flight, 1000 in and 500 out: every step decodes all 32 and, in the steady
    # state, carries 32 / 500 of a prompt's prefill (a request finishes every 500 / 32 steps).
    shape = {"batch": 32, "input_tokens": 1000, "output_tokens": 500}
    step_s = _decode_s(_row(**shape), 3.35e12, 989e12) + _prefill_s(1000, 32) / 500
    tpot = _row(metric="serving_tpot_ms", unit="ms", **shape)
    throughput = _row(metric="serving_output_tokens_per_s", **shape)
    assert predict(tpot) == pytest.approx(step_s * 1e3)
    assert predict(throughput) == pytest.approx(32 / step_s)
    assert row_group(tpot) == "continuous-batching serving"


def test_serving_ttft_is_the_prompt_plus_a_decode_step_plus_the_m_d_1_wait() -> None:
    alone = _row(metric="serving_ttft_ms", unit="ms", batch=1, input_tokens=1000, output_tokens=500)
    own = _prefill_s(1000, 1)
    assert predict(alone) == pytest.approx(own * 1e3)  # nothing else in flight: no wait
    loaded = dataclasses.replace(alone, batch=32)
    decode_s = _decode_s(dataclasses.replace(loaded, metric="decode_ms_per_token"), 3.35e12, 989e12)
    others_s = _decode_s(dataclasses.replace(loaded, metric="decode_ms_per_token", batch=31), 3.35e12, 989e12)
    share_s = _prefill_s(1000, 32) / 500
    rho = share_s / (decode_s + share_s)
    wait_s = rho * own / (2 * (1 - rho))
    assert predict(loaded) == pytest.approx((own + others_s + wait_s) * 1e3)
    assert predict(loaded) > predict(alone)


def test_ratio_is_a_share_of_the_speed_of_light_for_speeds_and_times() -> None:
    assert fraction_of_speed_of_light(_row(value=50.0), 200.0) == 0.25
    assert fraction_of_speed_of_light(_row(metric="ttft_ms", unit="ms", value=40.0), 10.0) == 0.25
    assert relative_error(_row(value=100.0), 120.0) == pytest.approx(0.2)


def test_mixture_of_experts_rows_beyond_batch_one_decode_are_refused() -> None:
    mixtral = get_model("mixtral-8x7b")
    assert predict(_row(model=mixtral)) > 0
    with pytest.raises(ValueError, match="batch 1 decode only"):
        predict(_row(model=mixtral, batch=8))
    with pytest.raises(ValueError, match="batch 1 decode only"):
        predict(_row(model=mixtral, metric="ttft_ms", unit="ms"))


def test_split_is_by_crc32_of_the_id_and_multi_device_rows_are_held_back() -> None:
    ids = [f"row-{i}" for i in range(40)]
    for row_id in ids:
        expected = FIT if zlib.crc32(row_id.encode()) % 2 == 0 else HELD_BACK
        assert split_role(_row(id=row_id)) == expected
        assert split_role(_row(id=row_id, devices=2, parallelism="tensor")) == HELD_BACK
        assert split_role(_row(id=row_id, exclude="speculative")) == EXCLUDED
    roles = {split_role(_row(id=row_id)) for row_id in ids}
    assert roles == {FIT, HELD_BACK}


def _synthetic(efficiencies: Efficiencies, count: int) -> list[Measurement]:
    rows = []
    for i in range(count):
        if i % 2:
            shape = {"metric": "ttft_ms", "unit": "ms", "input_tokens": 1024 * (1 + i % 3), "output_tokens": 1}
        else:
            shape = {"batch": 1 + i % 4, "input_tokens": 50 * (1 + i)}
        row = _row(id=f"s-{i}", **shape)
        rows.append(dataclasses.replace(row, value=predict(row, efficiencies)))
    return rows


def test_the_fit_recovers_the_efficiencies_that_made_the_data() -> None:
    truth = Efficiencies(bandwidth=0.73, compute=0.41)
    rows = _synthetic(truth, 12)
    fitted = fit_efficiencies(rows)
    assert (fitted.bandwidth, fitted.compute) == (0.73, 0.41)
    assert fit_efficiencies(list(reversed(rows))) == fitted


def test_validate_reports_errors_by_role_and_excludes_what_it_must() -> None:
    truth = Efficiencies(bandwidth=0.6, compute=0.5)
    rows = _synthetic(truth, 16)
    rows.append(_row(id="excluded-one", exclude="speculative decoding"))
    report = validate(MeasurementTable(rows=tuple(rows), declared_models={}, declared_accelerators={}, formats={}))
    assert report.efficiencies == truth
    # One share for every row recovers the data exactly; the regime fit (shares on a 0.01 grid,
    # a fixed cost and a KV share besides) lands within a tenth of a percent of it.
    assert all(c.uniform_error == pytest.approx(0, abs=1e-12) for c in report.comparisons if c.role != EXCLUDED)
    assert report.median_abs_error(FIT) == pytest.approx(0, abs=1e-3)
    assert report.median_abs_error(HELD_BACK) == pytest.approx(0, abs=1e-3)
    assert report.count(EXCLUDED) == 1
    excluded = [c for c in report.comparisons if c.role == EXCLUDED]
    assert excluded[0].speed_of_light is None and excluded[0].ratio is None and excluded[0].error is None
    assert report.count(FIT) + report.count(HELD_BACK) == 16
    assert report.rows_by_source_kind() == {"engine": 17}
    compared = [c for c in report.comparisons if c.role != EXCLUDED]
    for c in compared:
        assert c.speed_of_light == pytest.approx(predict(c.measurement, SPEED_OF_LIGHT))
        assert c.ratio < 1


def test_efficiencies_are_fractions_of_peak() -> None:
    with pytest.raises(ValueError, match="bandwidth efficiency must be in"):
        Efficiencies(bandwidth=0, compute=0.5)
    with pytest.raises(ValueError, match="compute efficiency must be in"):
        Efficiencies(bandwidth=0.5, compute=1.5)
    with pytest.raises(ValueError, match="no rows to fit on"):
        fit_efficiencies([])


def test_rows_are_grouped_by_kind_and_devices_with_their_median_ratio() -> None:
    assert row_group(_row()) == "decode, one device"
    assert row_group(_row(devices=4, parallelism="tensor")) == "decode, several devices"
    assert row_group(_row(metric="ttft_ms", unit="ms")) == "prefill and time to first token, one device"
    static = _row(metric="static_batch_output_tokens_per_s_per_device", batch=8)
    assert row_group(static) == "static batch to completion"
    rows = [
        dataclasses.replace(_row(id="a"), value=predict(_row()) * 0.5),
        dataclasses.replace(_row(id="b"), value=predict(_row()) * 0.7),
        dataclasses.replace(_row(id="c"), value=predict(_row()) * 0.9),
        dataclasses.replace(static, id="d", value=predict(static) * 0.4),
        _row(id="e", exclude="speculative"),
    ]
    report = validate(MeasurementTable(rows=tuple(rows), declared_models={}, declared_accelerators={}, formats={}))
    groups = report.ratios_by_group()
    assert list(groups) == ["decode, one device", "static batch to completion"]
    assert groups["decode, one device"] == (3, pytest.approx(0.7))
    assert groups["static batch to completion"] == (1, pytest.approx(0.4))


def test_validate_names_the_line_of_a_row_it_cannot_estimate() -> None:
    mixtral_batch = _row(id="moe", line=42, model=get_model("mixtral-8x7b"), batch=8)
    table = MeasurementTable(rows=(_row(), mixtral_batch), declared_models={}, declared_accelerators={}, formats={})
    with pytest.raises(
        RowError, match=r"^42: moe: mixture-of-experts rows are compared at batch 1 decode only; expected"
    ):
        validate(table)


def test_a_row_faster_than_its_speed_of_light_stops_the_check_with_file_line_and_ratio() -> None:
    row = _row(id="too-fast", line=77)
    row = dataclasses.replace(row, value=predict(row) * 1.5)
    table = MeasurementTable(
        rows=(_row(), row), declared_models={}, declared_accelerators={}, formats={}, filename="m.toml"
    )
    with pytest.raises(
        FasterThanLightError, match=r"^m\.toml:77: too-fast runs at 1\.50x its speed of light; expected at most 1\.00"
    ):
        validate(table)


def test_a_regime_with_fewer_than_5_fit_rows_falls_back_to_its_parent_and_says_so() -> None:
    bf16 = [_row(id=f"b-{i}", input_tokens=50 * (1 + i)) for i in range(6)]
    bf16 = [dataclasses.replace(r, value=predict(r, Efficiencies(0.8, 0.6))) for r in bf16]
    # Three rows of weight-only INT8: too few for a share of their own.
    int8 = [_row(id=f"i-{i}", weight_format=WeightFormat("int8", 8.0), input_tokens=60 * (1 + i)) for i in range(3)]
    int8 = [dataclasses.replace(r, value=predict(r, Efficiencies(0.5, 0.6))) for r in int8]
    constants = fit_regimes(bf16 + int8)
    assert constants.fallbacks["8-bit weight-only"] == 3
    assert "8-bit weight-only" not in constants.bandwidth_share
    assert "16-bit" in constants.bandwidth_share and "all" in constants.bandwidth_share
