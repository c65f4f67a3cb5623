"""Communication costs of multi-device inference, against hand derivations."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from roofline_core.estimates.communication import (
    STEP_LATENCY_S,
    all_reduce_time_s,
    all_to_all_time_s,
    communication_share,
    expert_parallel_comm,
    link_bandwidth_per_direction_bytes_per_s,
    pipeline_bubble_fraction,
    tensor_parallel_comm,
)
from roofline_core.estimates.inference import estimate_decode
from roofline_core.hardware import ACCELERATORS
from roofline_core.models import MODELS, CustomModel


@pytest.mark.parametrize(
    ("slug", "per_direction"),
    [
        ("h100-sxm", 450e9),  # "900 GB/s", the total of both directions
        ("h200", 450e9),  # "bidirectional"
        ("a100-sxm-80gb", 300e9),  # "300+300 GB/s": stated per direction
        ("gb300", 900e9),  # "unidirectional (1.8 TB/s total)"
        ("b200", 900e9),  # "total"
        ("tpu-v5p", 600e9),  # ICI, "bidirectional"
        ("rtx-4090", None),  # no link figure
    ],
)
def test_link_bandwidth_per_direction(slug: str, per_direction: float | None) -> None:
    assert link_bandwidth_per_direction_bytes_per_s(ACCELERATORS[slug]) == per_direction


def test_ring_all_reduce_and_all_to_all_by_hand() -> None:
    # 16 MB over 8 devices at 450 GB/s: 14 steps of 2 MB each = 28 MB / 450 GB/s = 62.2 us,
    # plus 14 latencies.
    t = all_reduce_time_s(message_bytes=16e6, devices=8, link_bandwidth_bytes_per_s=450e9)
    assert t == pytest.approx(14 * 16e6 / 8 / 450e9 + 14 * STEP_LATENCY_S)
    assert all_reduce_time_s(message_bytes=16e6, devices=1, link_bandwidth_bytes_per_s=450e9) == 0
    # All-to-all: 7/8 of the 16 MB leaves each device, 7 exchanges.
    a2a = all_to_all_time_s(message_bytes=16e6, devices=8, link_bandwidth_bytes_per_s=450e9)
    assert a2a == pytest.approx(16e6 * 7 / 8 / 450e9 + 7 * STEP_LATENCY_S)


def test_tensor_parallel_decode_of_llama_3_70b_on_eight_h100s() -> None:
    # 80 layers x 2 all-reduces of 1 token x 8,192 x 2 bytes.
    comm = tensor_parallel_comm(MODELS["llama-3-70b"], ACCELERATORS["h100-sxm"], devices=8, tokens=1)
    one = all_reduce_time_s(message_bytes=8192 * 2, devices=8, link_bandwidth_bytes_per_s=450e9)
    assert comm.collectives == 160 and comm.time_s == pytest.approx(160 * one)
    unknown = tensor_parallel_comm(MODELS["llama-3-70b"], ACCELERATORS["rtx-4090"], devices=2, tokens=1)
    assert not unknown.known and unknown.time_s == 0
    assert not tensor_parallel_comm(
        CustomModel(streamed_params_per_token=8e9), ACCELERATORS["h100-sxm"], devices=2, tokens=1
    ).known


def test_expert_parallel_all_to_alls() -> None:
    dsv3 = MODELS["deepseek-v3"]
    comm = expert_parallel_comm(dsv3, ACCELERATORS["h200"], devices=8, tokens=64)
    assert comm.collectives == 2 * dsv3.moe_layers
    per_device = 64 / 8 * 8 * 7168 * 2  # 8 of 64 tokens per device, 8 experts each, 7,168 wide
    one = all_to_all_time_s(message_bytes=per_device, devices=8, link_bandwidth_bytes_per_s=450e9)
    assert comm.time_s == pytest.approx(comm.collectives * one)


def test_expert_parallel_waits_for_the_busiest_device() -> None:
    # One sequence on eight devices: the device holding its token sends all of it to its 8
    # experts (7/8 of them remote); before, each device was charged an eighth of a token.
    dsv3 = MODELS["deepseek-v3"]
    comm = expert_parallel_comm(dsv3, ACCELERATORS["h200"], devices=8, tokens=1)
    whole_token = 1 * 8 * 7168 * 2
    assert comm.bytes_per_device == pytest.approx(comm.collectives * whole_token * 7 / 8)
    one = all_to_all_time_s(message_bytes=whole_token, devices=8, link_bandwidth_bytes_per_s=450e9)
    assert comm.time_s == pytest.approx(comm.collectives * one)
    # 9 tokens over 8 devices: the busiest holds 2.
    nine = expert_parallel_comm(dsv3, ACCELERATORS["h200"], devices=8, tokens=9)
    assert nine.bytes_per_device == pytest.approx(2 * comm.bytes_per_device)


def test_pipeline_bubble() -> None:
    assert pipeline_bubble_fraction(stages=1, microbatches=1) == 0
    assert pipeline_bubble_fraction(stages=4, microbatches=12) == pytest.approx(3 / 15)
    with pytest.raises(ValueError):
        pipeline_bubble_fraction(stages=0, microbatches=1)


def test_decode_estimate_reports_its_communication_share() -> None:
    est = estimate_decode(
        model=MODELS["llama-3-70b"], accelerator=ACCELERATORS["h100-sxm"], devices=4, batch=8, context_tokens=4096
    )
    assert est.communication.collectives == 160
    assert est.communication_share == pytest.approx(est.communication.time_s / est.step_time_s)
    assert 0 < est.communication_share < 0.5


@settings(max_examples=60, deadline=None)
@given(
    slug=st.sampled_from(["llama-3.1-8b", "llama-3-70b", "qwen3-235b-a22b", "deepseek-v3"]),
    chip=st.sampled_from(["h100-sxm", "h200", "b200", "mi250x", "tpu-v5p"]),
    batch=st.integers(1, 512),
    devices=st.integers(1, 63),
)
def test_more_devices_never_lower_the_communication_share(slug, chip, batch, devices) -> None:
    model, accelerator = MODELS[slug], ACCELERATORS[chip]
    fewer = tensor_parallel_comm(model, accelerator, devices=devices, tokens=batch).time_s
    more = tensor_parallel_comm(model, accelerator, devices=devices + 1, tokens=batch).time_s
    assert more >= fewer
    # A fixed amount of work split evenly: the share spent communicating never falls.
    work_s = 0.05
    assert communication_share(compute_time_s=work_s / (devices + 1), communication_time_s=more) >= communication_share(
        compute_time_s=work_s / devices, communication_time_s=fewer
    )


@settings(max_examples=40, deadline=None)
@given(small=st.floats(0, 1e9), extra=st.floats(0, 1e9), devices=st.integers(1, 64))
def test_collective_time_grows_with_the_message(small, extra, devices) -> None:
    kw = {"devices": devices, "link_bandwidth_bytes_per_s": 450e9}
    assert all_reduce_time_s(message_bytes=small + extra, **kw) >= all_reduce_time_s(message_bytes=small, **kw)
    assert all_to_all_time_s(message_bytes=small + extra, **kw) >= all_to_all_time_s(message_bytes=small, **kw)


def test_pipeline_decode_keeps_single_device_latency_and_idles_stages_at_small_batch() -> None:
    model, h100 = MODELS["llama-3-70b"], ACCELERATORS["h100-sxm"]
    kw = {"model": model, "accelerator": h100, "context_tokens": 4096}
    one_device = estimate_decode(batch=1, devices=1, **kw)
    staged = estimate_decode(batch=1, devices=4, parallelism="pipeline", **kw)
    # One sequence passes all four stages in turn: no faster than one device, plus three hops.
    assert staged.step_time_s == pytest.approx(one_device.step_time_s + 3 * STEP_LATENCY_S)
    assert staged.pipeline_bubble == pytest.approx(0.75)
    # Eight sequences as four micro-batches of two keep every stage busy.
    full = estimate_decode(batch=8, devices=4, parallelism="pipeline", **kw)
    assert full.pipeline_bubble == 0
    assert full.step_time_s == pytest.approx(estimate_decode(batch=2, devices=1, **kw).step_time_s + 3 * STEP_LATENCY_S)


def test_expert_parallel_decode_needs_experts() -> None:
    with pytest.raises(ValueError, match="mixture-of-experts"):
        estimate_decode(
            model=MODELS["llama-3-70b"], accelerator=ACCELERATORS["h100-sxm"], devices=4, parallelism="expert"
        )
    moe = estimate_decode(
        model=MODELS["qwen3-30b-a3b"], accelerator=ACCELERATORS["h100-sxm"], devices=4, batch=64, parallelism="expert"
    )
    assert moe.communication.collectives == 2 * MODELS["qwen3-30b-a3b"].moe_layers
