"""The offload estimate: layers split between a GPU, host memory and a second GPU."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from roofline_core.calculators import compute
from roofline_core.estimates.inference import estimate_decode
from roofline_core.estimates.offload import (
    CPU_COMPUTE,
    PCIE_STREAMING,
    estimate_offload,
    most_gpu_layers,
    pcie_bandwidth_bytes_per_s,
    pcie_link_of,
)
from roofline_core.estimates.parts import HOST_LAYERS, PCIE_TRANSFER, SECOND_DEVICE, adds_up
from roofline_core.hardware import ACCELERATORS
from roofline_core.models import MODELS

GPU, GPU2, HOST = ACCELERATORS["rtx-4090"], ACCELERATORS["rtx-3090"], ACCELERATORS["ryzen-9-9950x"]
EIGHT_B = MODELS["llama-3.1-8b"]


def test_pcie_rates_by_hand():
    # 16 GT/s x 128/130 / 8 bits = 1.969 GB/s a lane; x16 = 31.5 GB/s; Gen5 doubles it.
    assert pcie_bandwidth_bytes_per_s(generation=4, lanes=16) == pytest.approx(16e9 * 128 / 130 / 8 * 16)
    assert pcie_bandwidth_bytes_per_s(generation=5, lanes=16) == pytest.approx(63.0e9, rel=1e-3)
    assert pcie_bandwidth_bytes_per_s(generation=3, lanes=8) == pytest.approx(7.88e9, rel=1e-3)


@pytest.mark.parametrize(
    ("slug", "link"),
    [
        ("rtx-4090", (4, 16)),
        ("rtx-5090", (5, 16)),
        ("rtx-4060-ti-16gb", (4, 8)),
        ("rtx-5060-ti-16gb", (5, 8)),
        ("h100-sxm", None),
        ("apple-m4-max", None),
    ],
)
def test_pcie_link_read_from_the_record(slug, link):
    assert pcie_link_of(ACCELERATORS[slug]) == link


def test_pcie_errors_name_what_is_allowed():
    with pytest.raises(ValueError, match="generation must be one of"):
        pcie_bandwidth_bytes_per_s(generation=2)
    with pytest.raises(ValueError, match="lanes must be 1, 2, 4, 8 or 16"):
        pcie_bandwidth_bytes_per_s(generation=4, lanes=3)


def test_half_the_layers_on_the_cpu_by_hand():
    # Llama 3.1 8B, 16-bit, no context: each device reads its half of the streamed weights at its
    # own bandwidth (decode at batch 1 is memory-bound on both), one after the other.
    weights = EIGHT_B.streamed_weight_bytes("fp16")
    estimate = estimate_offload(model=EIGHT_B, gpu=GPU, host=HOST, gpu_layers=16)
    expected = 0.5 * weights / GPU.bandwidth_bytes_per_s + 0.5 * weights / HOST.bandwidth_bytes_per_s
    assert estimate.step_time_s == pytest.approx(expected, rel=1e-9)
    # 16 GB over 1,008 GB/s and 89.6 GB/s: the CPU's half takes eleven times the GPU's.
    assert estimate.slowest.where == "host"
    assert [p.label for p in estimate.parts] == ["weights", HOST_LAYERS]
    assert adds_up(estimate.parts, estimate.step_time_s)


def test_pcie_streaming_by_hand():
    # vLLM's style: the GPU computes all 32 layers, and the host's 8 layers' weights cross a
    # Gen4 x16 link (the 4090's) every step.
    estimate = estimate_offload(model=EIGHT_B, gpu=GPU, host=HOST, gpu_layers=24, engine=PCIE_STREAMING)
    whole_on_gpu = estimate_decode(model=EIGHT_B, accelerator=GPU).step_time_s
    link = 16e9 * 128 / 130 / 8 * 16
    assert estimate.pcie_s == pytest.approx(EIGHT_B.weight_bytes("fp16") / 4 / link)
    assert estimate.step_time_s == pytest.approx(whole_on_gpu + estimate.pcie_s)
    assert estimate.parts[-1].label == PCIE_TRANSFER
    assert adds_up(estimate.parts, estimate.step_time_s)
    # A given link overrides the record's.
    gen5 = estimate_offload(model=EIGHT_B, gpu=GPU, host=HOST, gpu_layers=24, engine=PCIE_STREAMING, pcie=(5, 16))
    assert gen5.pcie_s == pytest.approx(estimate.pcie_s / 2)


def test_two_gpus_the_slower_sets_the_pace():
    # A 4090 (1,008 GB/s) and a 3090 (936 GB/s) with 16 layers each: the stages run one after
    # the other at batch 1, and the 3090's is the longer.
    estimate = estimate_offload(model=EIGHT_B, gpu=GPU, host=HOST, gpu_layers=16, second_gpu=GPU2, second_gpu_layers=16)
    each = [estimate_decode(model=EIGHT_B, accelerator=a).step_time_s / 2 for a in (GPU, GPU2)]
    assert estimate.step_time_s == pytest.approx(sum(each))
    assert estimate.slowest.where == "second_gpu"
    assert [p.label for p in estimate.parts][-1] == SECOND_DEVICE
    assert [where for where, _ in estimate.fits] == ["gpu", "second_gpu"]
    assert adds_up(estimate.parts, estimate.step_time_s)


def test_all_on_the_cpu_is_the_cpu_decode_estimate():
    estimate = estimate_offload(model=EIGHT_B, gpu=GPU, host=HOST, gpu_layers=0, context_tokens=4096)
    on_cpu = estimate_decode(model=EIGHT_B, accelerator=HOST, context_tokens=4096)
    assert estimate.step_time_s == on_cpu.step_time_s
    assert estimate.expected_step_time_s == on_cpu.expected_step_time_s


def test_memory_fit_per_device():
    # Llama 3.1 70B in 4 bits (about 35 GB) at 8k: not on a 24 GB card alone; its most layers fit
    # there, and one more does not.
    seventy = MODELS["llama-3.1-70b"]
    words = {"model": seventy, "weight_dtype": "int4", "context_tokens": 8192}
    most = most_gpu_layers(gpu=GPU, **words)
    assert 0 < most < seventy.layers
    fits = dict(estimate_offload(gpu=GPU, host=HOST, gpu_layers=most, **words).fits)
    assert fits["gpu"].fits and fits["host"].fits
    assert not dict(estimate_offload(gpu=GPU, host=HOST, gpu_layers=most + 1, **words).fits)["gpu"].fits
    # With every layer on the GPU, there is nothing in host memory to fit.
    assert [where for where, _ in estimate_offload(gpu=GPU, host=HOST, gpu_layers=80, **words).fits] == ["gpu"]


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"engine": "ram"}, "unknown engine style 'ram'"),
        ({"gpu_layers": 33}, "gpu_layers must be a whole number from 0 to 32"),
        ({"gpu_layers": -1}, "gpu_layers must be a whole number from 0 to 32"),
        ({"second_gpu_layers": 4}, "second_gpu_layers needs a second_gpu"),
        (
            {"second_gpu": GPU2, "gpu_layers": 20, "second_gpu_layers": 20},
            r"at most the model's 32 layers, got 20 \+ 20",
        ),
    ],
)
def test_errors(changes, message):
    with pytest.raises(ValueError, match=message):
        estimate_offload(**{"model": EIGHT_B, "gpu": GPU, "host": HOST, "gpu_layers": 16, **changes})


_GEFORCE = sorted(slug for slug, a in ACCELERATORS.items() if a.group == "NVIDIA GeForce")
_MODELS = sorted(slug for slug, m in MODELS.items() if getattr(m, "layers", 0))
_SCENARIO = {
    "gpu": st.sampled_from(_GEFORCE),
    "model": st.sampled_from(_MODELS),
    "dtype": st.sampled_from(["fp16", "fp8", "int4"]),
    "context": st.integers(min_value=0, max_value=32_768),
}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(**_SCENARIO, engine=st.sampled_from([CPU_COMPUTE, PCIE_STREAMING]), data=st.data())
def test_more_gpu_layers_never_slower(gpu, model, dtype, context, engine, data):
    # A GeForce card's memory outruns a desktop's two DDR5 channels (and PCIe), so moving a layer
    # onto it never lengthens the step, in either engine style.
    m = MODELS[model]
    n = data.draw(st.integers(min_value=0, max_value=m.layers - 1))
    words = {"model": m, "gpu": ACCELERATORS[gpu], "host": HOST, "weight_dtype": dtype, "context_tokens": context}
    fewer = estimate_offload(gpu_layers=n, engine=engine, **words)
    more = estimate_offload(gpu_layers=n + 1, engine=engine, **words)
    assert more.step_time_s <= fewer.step_time_s * (1 + 1e-12)
    assert adds_up(fewer.parts, fewer.step_time_s) and adds_up(more.parts, more.step_time_s)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(**_SCENARIO, engine=st.sampled_from([CPU_COMPUTE, PCIE_STREAMING]))
def test_all_layers_on_the_gpu_is_the_plain_decode_estimate(gpu, model, dtype, context, engine):
    m = MODELS[model]
    words = {"model": m, "weight_dtype": dtype, "context_tokens": context}
    estimate = estimate_offload(gpu=ACCELERATORS[gpu], host=HOST, gpu_layers=m.layers, engine=engine, **words)
    plain = estimate_decode(accelerator=ACCELERATORS[gpu], **words)
    assert estimate.tokens_per_s_per_sequence == plain.tokens_per_s_per_sequence
    assert estimate.expected_tokens_per_s_per_sequence == plain.expected_tokens_per_s_per_sequence


# --- The calculator -----------------------------------------------------------------------


def _outputs(**inputs):
    result = compute("offload", inputs)
    assert result["errors"] == {}
    return result


def test_calculator_opens_on_a_70b_that_half_fits_a_4090():
    result = _outputs()
    outputs = result["outputs"]
    most = most_gpu_layers(gpu=GPU, model=MODELS["llama-3.1-70b"], weight_dtype="int4", context_tokens=8192)
    assert outputs["split"]["value"] == most
    assert outputs["split"]["text"] == f"{most} on the GPU, {80 - most} in RAM (run by the CPU), of 80"
    # The CPU's share of the step dominates though it holds fewer layers.
    assert outputs["slowest"]["value"] == "host"
    assert outputs["gpu_fit"]["value"] is True and outputs["host_fit"]["value"] is True
    assert outputs["second_gpu_fit"]["text"] == "nothing held there"
    assert [row["where"]["value"] for row in result["table"]] == ["gpu", "host"]
    assert sum(row["time"]["value"] for row in result["table"]) == pytest.approx(outputs["step_time"]["value"])
    assert [item["label"] for item in result["parts"]["items"]] == ["weights", "kv_cache", HOST_LAYERS]


def test_calculator_counts_past_the_model_mean_every_layer():
    outputs = _outputs(layers_mode="set", gpu_layers=999, weight_dtype="fp16", model="llama-3.1-8b")["outputs"]
    plain = estimate_decode(model=EIGHT_B, accelerator=GPU, context_tokens=8192)
    assert outputs["tokens_per_s"]["value"] == plain.tokens_per_s_per_sequence
    assert outputs["host_fit"]["text"] == "nothing held there"


def test_calculator_two_gpus_and_pcie_streaming():
    # "The most that fit": the 3090 takes what the 4090 leaves, and the host nothing.
    fitted = _outputs(second_gpu="rtx-3090")["outputs"]
    assert fitted["split"]["text"].endswith("on the second GPU, of 80")
    assert fitted["host_fit"]["text"] == "nothing held there"
    # Forty layers each: the 3090's half is the longer stage.
    even = _outputs(second_gpu="rtx-3090", layers_mode="set", gpu_layers=40, second_gpu_layers=40)["outputs"]
    assert even["slowest"]["value"] == "second_gpu"
    assert even["split"]["text"] == "40 on the GPU, 40 on the second GPU, of 80"
    streamed = _outputs(engine_style="pcie", pcie="gen5-x16")
    assert streamed["table"][-1]["where"]["value"] == "pcie"
    assert streamed["outputs"]["pcie_rate"]["text"].endswith("one way over PCIe 5.0 x16")
    assert streamed["outputs"]["slowest"]["text"].startswith("the PCIe link")
