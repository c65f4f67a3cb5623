"""Offload and mixed GPUs: a model that does not fit on one GPU, split by layers between the GPU,
a second GPU and host memory (roofline_core.estimates.offload).

It opens on Llama 3.1 70B in 4-bit weights at an 8k context with an RTX 4090 in a desktop with
two DDR5-5600 channels: the card holds a little over half the layers, and the CPU's share of the
step, read at a tenth of the card's bandwidth, takes most of the time.
"""

from __future__ import annotations

from typing import Any

from roofline_core.calculators._common import (
    WEIGHT_FORMAT_READ,
    accelerator_input,
    context_input,
    dtype_input,
    model_config_input,
    model_input,
    model_of,
    parts_result,
)
from roofline_core.calculators.base import Calculator, Output, value
from roofline_core.estimates.offload import (
    CPU_COMPUTE,
    PCIE_STREAMING,
    OffloadEstimate,
    estimate_offload,
    most_gpu_layers,
    pcie_link_of,
)
from roofline_core.formatting import (
    format_bandwidth,
    format_bytes,
    format_memory_fit,
    format_percent,
    format_time,
    format_tokens_per_s,
    format_whole,
)
from roofline_core.hardware import ACCELERATORS
from roofline_core.vocabulary import Choice, OneOf, WholeNumber

#: How the GPU layer counts are chosen: the most each GPU holds, or the reader's own.
FIT, SET = "fit", "set"
NO_SECOND_GPU = "none"
#: The PCIe link: the GPU record's own, or a generation at 16 lanes.
AUTO_LINK = "auto"
PCIE_CHOICES = {"gen3-x16": (3, 16), "gen4-x16": (4, 16), "gen5-x16": (5, 16)}
#: Most layers a count field takes: more than any model has means "all", as llama.cpp's -ngl 999.
MAX_LAYERS = 999

_WHERE = {"gpu": "GPU", "second_gpu": "second GPU", "host": "CPU"}


def _gpus() -> tuple[Any, ...]:
    return tuple(a for a in ACCELERATORS.values() if a.kind == "gpu")


HOST = OneOf(
    id="host",
    label="Host CPU and memory",
    default="ryzen-9-9950x",
    noun_text="host CPU",
    help="The CPU whose memory holds the layers that are not on a GPU; its bandwidth is channels × DDR5 speed.",
    choices=tuple(Choice(value=a.slug, label=a.name, group=a.group) for a in ACCELERATORS.values() if a.kind == "cpu"),
)

LAYERS_MODE = OneOf(
    id="layers_mode",
    label="Layers on the GPUs",
    default=FIT,
    help="The most layers each GPU holds beside its share of the KV cache, or counts of your own (llama.cpp's -ngl).",
    choices=(
        Choice(value=FIT, label="The most that fit"),
        Choice(value=SET, label="Set the counts", uses=("gpu_layers", "second_gpu_layers")),
    ),
)

GPU_LAYERS = WholeNumber(
    id="gpu_layers",
    label="Layers on the GPU",
    unit="layers",
    default=40,
    minimum=0,
    maximum=MAX_LAYERS,
    help="As llama.cpp's -ngl; more than the model has puts every layer on the GPU.",
)

SECOND_GPU_LAYERS = WholeNumber(
    id="second_gpu_layers",
    label="Layers on the second GPU",
    unit="layers",
    default=0,
    minimum=0,
    maximum=MAX_LAYERS,
    help="The next layers after the first GPU's; left out with no second GPU.",
)

ENGINE_STYLE = OneOf(
    id="engine_style",
    label="Engine style",
    default=CPU_COMPUTE,
    help="Who runs the layers in host memory: the CPU (llama.cpp) or the GPU after copying them over PCIe (vLLM).",
    choices=(
        Choice(value=CPU_COMPUTE, label="CPU computes them (llama.cpp -ngl)"),
        Choice(value=PCIE_STREAMING, label="Streamed over PCIe every step (vLLM --cpu-offload-gb)"),
    ),
)

PCIE_LINK = OneOf(
    id="pcie",
    label="PCIe link",
    default=AUTO_LINK,
    help="The GPU's link to the host, for the PCIe style; Auto reads the card's record (Gen4 x16 where it names none).",
    choices=(
        Choice(value=AUTO_LINK, label="The GPU's own"),
        Choice(value="gen3-x16", label="PCIe 3.0 x16"),
        Choice(value="gen4-x16", label="PCIe 4.0 x16"),
        Choice(value="gen5-x16", label="PCIe 5.0 x16"),
    ),
)


def _second_gpu_input() -> OneOf:
    return OneOf(
        id="second_gpu",
        label="Second GPU",
        default=NO_SECOND_GPU,
        noun_text="second GPU",
        help="A second card in the same box, taking the next layers (llama.cpp's --split-mode layer).",
        choices=(
            Choice(value=NO_SECOND_GPU, label="None"),
            *(Choice(value=a.slug, label=a.name, group=a.group) for a in _gpus()),
        ),
    )


def offload_of(values: dict[str, Any]) -> OffloadEstimate:
    """The offload estimate of the form's values: counts clamped to the model's layers."""
    model = model_of(values)
    gpu = ACCELERATORS[values["accelerator"]]
    second = None if values["second_gpu"] == NO_SECOND_GPU else ACCELERATORS[values["second_gpu"]]
    words = {
        "model": model,
        "weight_dtype": values["weight_dtype"],
        "kv_dtype": values["kv_dtype"],
        "context_tokens": values["context_tokens"],
    }
    layers = model.layers
    if values["layers_mode"] == FIT:
        first = most_gpu_layers(gpu=gpu, engine=values["engine_style"], **words)
        rest = 0
        if second is not None and first < layers:
            # The second card's share of one sequence's cache goes with its layers, as on the first.
            rest = min(most_gpu_layers(gpu=second, **words), layers - first)
    else:
        first = min(values["gpu_layers"], layers)
        rest = min(values["second_gpu_layers"], layers - first) if second is not None else 0
    link = PCIE_CHOICES.get(values["pcie"])
    return estimate_offload(
        gpu=gpu,
        host=ACCELERATORS[values["host"]],
        gpu_layers=first,
        engine=values["engine_style"],
        pcie=link,
        second_gpu=second,
        second_gpu_layers=rest,
        **words,
    )


def _split_text(estimate: OffloadEstimate) -> str:
    shares = [f"{format_whole(estimate.gpu_layers)} on the GPU"]
    if estimate.second_gpu_layers:
        shares.append(f"{format_whole(estimate.second_gpu_layers)} on the second GPU")
    if estimate.host_layers:
        how = "run by the CPU" if estimate.engine == CPU_COMPUTE else "sent over PCIe"
        shares.append(f"{format_whole(estimate.host_layers)} in RAM ({how})")
    return f"{', '.join(shares)}, of {format_whole(estimate.layers)}"


def _fit_text(estimate: OffloadEstimate, where: str) -> dict[str, Any]:
    fit = dict(estimate.fits).get(where)
    if fit is None:
        return value("", "", "nothing held there")
    return value(fit.fits, "", format_memory_fit(fit))


def _slowest_text(estimate: OffloadEstimate) -> str:
    """The longest part of the step (a device's layers, or the PCIe link) and its share."""
    slowest = estimate.slowest
    total = estimate.step_time_s
    if estimate.pcie_s > slowest.seconds:
        return f"the PCIe link: {format_percent(estimate.pcie_s / total)} of the step ({format_time(estimate.pcie_s)})"
    return (
        f"the {_WHERE[slowest.where]}'s {format_whole(slowest.layers)} layers: "
        f"{format_percent(slowest.seconds / total)} of the step ({format_time(slowest.seconds)})"
    )


def _compute(values: dict[str, Any]) -> dict[str, Any]:
    estimate = offload_of(values)
    gpu = ACCELERATORS[values["accelerator"]]
    link = PCIE_CHOICES.get(values["pcie"]) or pcie_link_of(gpu)
    link_words = f"PCIe {link[0]}.0 x{link[1]}" if link else "PCIe 4.0 x16 (assumed: the record names no PCIe link)"
    per_s = estimate.tokens_per_s_per_sequence
    expected = estimate.expected_tokens_per_s_per_sequence
    gpu_only = estimate.gpu_only.tokens_per_s_per_sequence
    outputs = {
        "tokens_per_s": value(per_s, "tokens/s", format_tokens_per_s(per_s)),
        "realistic": value(
            expected,
            "tokens/s",
            f"about {format_tokens_per_s(expected)}, each device at its fitted share of peak",
        ),
        "step_time": value(estimate.step_time_s, "s", format_time(estimate.step_time_s)),
        "split": value(estimate.gpu_layers, "layers", _split_text(estimate)),
        "slowest": value(estimate.slowest.where, "", _slowest_text(estimate)),
        "gpu_only": value(
            gpu_only,
            "tokens/s",
            f"{format_tokens_per_s(gpu_only)} (this split gets {format_percent(per_s / gpu_only)} of it)",
        ),
        "gpu_fit": _fit_text(estimate, "gpu"),
        "second_gpu_fit": _fit_text(estimate, "second_gpu"),
        "host_fit": _fit_text(estimate, "host"),
        "pcie_rate": value(
            estimate.pcie_bytes_per_s,
            "B/s",
            f"{format_bandwidth(estimate.pcie_bytes_per_s)} one way over {link_words}",
        ),
    }
    total = estimate.step_time_s
    table = [
        {
            "where": value(stage.where, "", _WHERE[stage.where]),
            "device": value(stage.device, "", stage.device),
            "layers": value(stage.layers, "layers", format_whole(stage.layers)),
            "bytes": value(stage.bytes_read, "B", format_bytes(stage.bytes_read)),
            "bandwidth": value(stage.bandwidth_bytes_per_s, "B/s", format_bandwidth(stage.bandwidth_bytes_per_s)),
            "time": value(stage.seconds, "s", format_time(stage.seconds)),
            "share": value(stage.seconds / total, "1", format_percent(stage.seconds / total)),
        }
        for stage in estimate.stages
    ]
    if estimate.pcie_s > 0:
        table.append(
            {
                "where": value("pcie", "", "PCIe link"),
                "device": value(link_words, "", link_words),
                "layers": value(0, "layers", "–"),
                "bytes": value(estimate.host_weight_bytes, "B", format_bytes(estimate.host_weight_bytes)),
                "bandwidth": value(estimate.pcie_bytes_per_s, "B/s", format_bandwidth(estimate.pcie_bytes_per_s)),
                "time": value(estimate.pcie_s, "s", format_time(estimate.pcie_s)),
                "share": value(estimate.pcie_s / total, "1", format_percent(estimate.pcie_s / total)),
            }
        )
    parts = parts_result("step_time", total, estimate.parts, estimate.working)
    return {"outputs": outputs, "table": table, "parts": parts}


OFFLOAD = Calculator(
    id="offload",
    title="Offload and mixed GPUs: layers on the GPU, the rest in RAM",
    description=(
        "Tokens/s of a model split by layers between a GPU, a second GPU and the host's memory "
        "(llama.cpp's -ngl, vLLM's --cpu-offload-gb), where the time goes, and what fits where."
    ),
    inputs=(
        model_input(default="llama-3.1-70b"),
        model_config_input(),
        dtype_input(id="weight_dtype", label="Weight format", default="int4", help="How the weights are stored."),
        dtype_input(id="kv_dtype", label="KV cache format", help="How cached keys and values are stored."),
        context_input(default=8192, min=1, slider=True),
        accelerator_input().variant(label="GPU", default="rtx-4090"),
        HOST,
        LAYERS_MODE,
        GPU_LAYERS,
        SECOND_GPU_LAYERS,
        ENGINE_STYLE,
        PCIE_LINK,
        _second_gpu_input(),
    ),
    outputs=(
        Output("tokens_per_s", "Tokens/s (speed of light)"),
        Output("realistic", "Realistic speed"),
        Output("step_time", "Time per token"),
        Output("split", "Where the layers are"),
        Output("slowest", "What takes longest"),
        Output("gpu_only", "With every layer on the GPU"),
        Output("gpu_fit", "Fits on the GPU"),
        Output("second_gpu_fit", "Fits on the second GPU"),
        Output("host_fit", "Fits in host memory"),
        Output("pcie_rate", "PCIe link"),
        WEIGHT_FORMAT_READ,
    ),
    headline=("tokens_per_s", "split", "slowest"),
    key_inputs=("model", "accelerator"),
    compute=_compute,
    table_columns=(
        Output("where", "Where"),
        Output("device", "Device"),
        Output("layers", "Layers"),
        Output("bytes", "Bytes read per token"),
        Output("bandwidth", "Bandwidth"),
        Output("time", "Time"),
        Output("share", "Share"),
    ),
)
