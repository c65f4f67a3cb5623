"""A decode step with the model split between a GPU, host memory and, optionally, a second GPU.

Two ways engines run a model that does not fit on the GPU:

- **The CPU computes the host's layers** (llama.cpp's ``-ngl N``, "max. number of layers to
  store in VRAM", https://github.com/ggml-org/llama.cpp/blob/master/tools/server/README.md): the
  first ``gpu_layers`` layers sit in GPU memory with their KV cache, the rest sit in host memory
  and the CPU runs them there, so a decode step reads those layers (and their cache) at the host's
  memory bandwidth. Only the activations of one token cross PCIe, a few kilobytes, left out.
- **The GPU computes every layer and the host's weights cross PCIe each step** (vLLM's
  ``--cpu-offload-gb``: "part of the model is loaded from CPU memory to GPU memory on the fly in
  each model forward pass", https://docs.vllm.ai/en/latest/configuration/engine_args.html): the
  offloaded weights are sent over the link on every step; the KV cache stays on the GPU.

A **second GPU** takes the next ``second_gpu_layers`` layers (llama.cpp's default
``--split-mode layer``): at batch 1 the devices work one after another, each reading its share
at its own bandwidth, so the step is the sum of the stages and the slower device's share sets
the pace.

Every device's share is that fraction of the whole model's decode step on that device
(:func:`~roofline_core.estimates.inference.estimate_decode` at batch 1), so with every layer on
the GPU the step is exactly the plain decode estimate's. The layers are taken as equal; the
input embedding and output head are shared out with them. Standard library only.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from roofline_core.estimates.headroom import DEFAULT_MEMORY_UTILISATION, reserved_bytes
from roofline_core.estimates.inference import (
    DecodeEstimate,
    MemoryFit,
    _kv_bytes_per_token,
    estimate_decode,
    fit_in_memory,
)
from roofline_core.estimates.parts import HOST_LAYERS, PCIE_TRANSFER, SECOND_DEVICE, BrokenIntoParts, Part
from roofline_core.formatting import format_bandwidth, format_bytes, format_time, format_whole
from roofline_core.hardware import AnyAccelerator
from roofline_core.models import AnyModel

#: The two engine styles: the CPU computes host-held layers (llama.cpp), or their weights are
#: streamed over PCIe to the GPU each step (vLLM's ``--cpu-offload-gb``).
CPU_COMPUTE, PCIE_STREAMING = "cpu", "pcie"
ENGINE_STYLES = (CPU_COMPUTE, PCIE_STREAMING)

#: PCIe transfer rate per lane, in GT/s, by generation; 3.0 onwards encode 128 bits in 130
#: (https://en.wikipedia.org/wiki/PCI_Express, "Comparison table": 3.0 8 GT/s, 4.0 16 GT/s,
#: 5.0 32 GT/s, each 128b/130b; 6.0 64 GT/s with FLIT encoding, about 242/256).
PCIE_GIGATRANSFERS: dict[int, float] = {3: 8.0, 4: 16.0, 5: 32.0, 6: 64.0}
_PCIE_ENCODING = {3: 128 / 130, 4: 128 / 130, 5: 128 / 130, 6: 242 / 256}
#: The link assumed when the GPU's record names none (an SXM module, a unified-memory chip).
DEFAULT_PCIE = (4, 16)

_PCIE_KIND = re.compile(r"PCIe\s*(?:Gen\s*)?(\d)(?:\.0)?\s*x(\d+)", re.IGNORECASE)


def pcie_bandwidth_bytes_per_s(*, generation: int, lanes: int = 16) -> float:
    """One direction's payload rate of a PCIe link, in bytes/s (Gen4 x16: 31.5 GB/s).

    >>> round(pcie_bandwidth_bytes_per_s(generation=4, lanes=16) / 1e9, 1)
    31.5
    """
    if generation not in PCIE_GIGATRANSFERS:
        raise ValueError(f"PCIe generation must be one of {sorted(PCIE_GIGATRANSFERS)}, got {generation!r}")
    if lanes not in (1, 2, 4, 8, 16):
        raise ValueError(f"PCIe lanes must be 1, 2, 4, 8 or 16, got {lanes!r}")
    return PCIE_GIGATRANSFERS[generation] * 1e9 * _PCIE_ENCODING[generation] / 8 * lanes


def pcie_link_of(accelerator: AnyAccelerator) -> tuple[int, int] | None:
    """``(generation, lanes)`` read from the GPU's interconnect (``"PCIe 4.0 x16"``), or None."""
    found = _PCIE_KIND.search(getattr(accelerator, "interconnect_kind", ""))
    if found is None or int(found.group(1)) not in PCIE_GIGATRANSFERS:
        return None
    return int(found.group(1)), int(found.group(2))


@dataclass(frozen=True)
class Stage:
    """One device's share of a decode step.

    Attributes:
        where: ``"gpu"``, ``"second_gpu"`` or ``"host"``.
        device: The device's display name.
        layers: Layers it holds.
        seconds: Its share of the step at the speed of light, in seconds.
        expected_seconds: The same at the realistic speed of its regime, in seconds.
        bytes_read: Bytes it reads per step (weights and its KV cache), in bytes.
        bandwidth_bytes_per_s: Its memory bandwidth, in bytes/s.
    """

    where: str
    device: str
    layers: int
    seconds: float
    expected_seconds: float
    bytes_read: float
    bandwidth_bytes_per_s: float


@dataclass(frozen=True)
class OffloadEstimate(BrokenIntoParts):
    """A batch-1 decode step with the layers split between devices; its time is the sum of stages.

    Attributes:
        layers: The model's layers.
        gpu_layers: Layers held on the GPU.
        second_gpu_layers: Layers held on the second GPU.
        host_layers: Layers held in host memory.
        engine: One of :data:`ENGINE_STYLES`.
        stages: Each device's share, GPU first, then the second GPU, then the host (devices
            holding no layers left out, except the GPU in the PCIe style, which computes all).
        pcie_s: In the PCIe style, the host-held weights over the link, in seconds (else 0).
        pcie_bytes_per_s: The link's one-direction rate used, in bytes/s.
        host_weight_bytes: Weights held in host memory, in bytes.
        fits: ``(where, MemoryFit)`` for every device holding part of the model.
        gpu_only: The plain decode estimate with every layer on the GPU.
        gpu_share: Share of the layers the GPU computes (its own, and in the PCIe style the host's too).
    """

    layers: int
    gpu_layers: int
    second_gpu_layers: int
    host_layers: int
    engine: str
    stages: tuple[Stage, ...]
    pcie_s: float
    pcie_bytes_per_s: float
    host_weight_bytes: float
    fits: tuple[tuple[str, MemoryFit], ...]
    gpu_only: DecodeEstimate
    gpu_share: float = 0.0

    @property
    def step_time_s(self) -> float:
        """The step at the speed of light: the stages one after another, plus the link, in seconds."""
        return sum(stage.seconds for stage in self.stages) + self.pcie_s

    @property
    def expected_step_time_s(self) -> float:
        """The step at each device's realistic speed, plus the link, in seconds."""
        return sum(stage.expected_seconds for stage in self.stages) + self.pcie_s

    @property
    def tokens_per_s_per_sequence(self) -> float:
        """Tokens/s at the speed of light (one sequence)."""
        return 1.0 / self.step_time_s

    @property
    def expected_tokens_per_s_per_sequence(self) -> float:
        """Tokens/s at the devices' realistic speeds (one sequence)."""
        return 1.0 / self.expected_step_time_s

    @property
    def slowest(self) -> Stage:
        """The device stage that takes the longest (the PCIe transfer, a separate term, is not a stage)."""
        return max(self.stages, key=lambda stage: stage.seconds)

    @property
    def fits_everywhere(self) -> bool:
        """Whether every device holds its share beside the engine's reserve."""
        return all(fit.fits for _, fit in self.fits)

    def _parts_and_working(self) -> tuple[tuple[Part, str], ...]:
        found: list[tuple[Part, str]] = []
        share = self.gpu_share
        if share > 0:
            for part, text in zip(self.gpu_only.parts, self.gpu_only.working, strict=True):
                if part.seconds > 0:
                    found.append(
                        (Part(part.label, part.seconds * share), f"({text[1]}) × {_layers_text(share, self.layers)}")
                    )
        for stage in self.stages:
            if stage.where == "gpu" or stage.seconds <= 0:
                continue
            label = SECOND_DEVICE if stage.where == "second_gpu" else HOST_LAYERS
            whole = stage.seconds * self.layers / stage.layers
            found.append(
                (
                    Part(label, stage.seconds),
                    f"{format_whole(stage.layers)}/{format_whole(self.layers)} layers × {format_time(whole)}"
                    f" (the whole model on {stage.device}: its bytes ÷ {format_bandwidth(stage.bandwidth_bytes_per_s)})",
                )
            )
        if self.pcie_s > 0:
            found.append(
                (
                    Part(PCIE_TRANSFER, self.pcie_s),
                    f"{format_bytes(self.host_weight_bytes)} ÷ {format_bandwidth(self.pcie_bytes_per_s)}",
                )
            )
        return tuple(found)


def _layers_text(share: float, layers: int) -> str:
    return f"{format_whole(round(share * layers))}/{format_whole(layers)} layers"


def _layers_of(model: AnyModel) -> int:
    layers = getattr(model, "layers", 0) or 0
    if not layers:
        raise ValueError(f"{model.name}: splitting by layers needs the model's layer count")
    return layers


def _device_fit(
    model: AnyModel,
    accelerator: AnyAccelerator,
    *,
    weight_share: float,
    kv_share: float,
    weight_dtype: str,
    kv_dtype: str,
    context_tokens: int,
    memory_utilisation: float,
    capacity_bytes: float | None = None,
) -> MemoryFit:
    """Whether ``weight_share`` of the weights and ``kv_share`` of one sequence's cache fit on a device."""
    capacity = accelerator.fit_memory_bytes if capacity_bytes is None else capacity_bytes
    if capacity is None:
        raise ValueError(f"{accelerator.name}: memory capacity unknown; give memory_bytes")
    return fit_in_memory(
        capacity_bytes=capacity,
        weight_bytes=model.weight_bytes(weight_dtype) * weight_share,
        kv_bytes_per_token=_kv_bytes_per_token(model, kv_dtype, context_tokens) * kv_share,
        context_tokens=context_tokens,
        reserved_bytes=reserved_bytes(model, capacity_bytes=capacity, utilisation=memory_utilisation)
        if weight_share > 0 or kv_share > 0
        else 0.0,
    )


def most_gpu_layers(
    *,
    model: AnyModel,
    gpu: AnyAccelerator,
    weight_dtype: str = "fp16",
    kv_dtype: str = "fp16",
    context_tokens: int = 0,
    engine: str = CPU_COMPUTE,
    memory_utilisation: float = DEFAULT_MEMORY_UTILISATION,
) -> int:
    """The most layers the GPU holds beside its share of one sequence's KV cache and the reserve
    (in the PCIe style the whole cache stays on the GPU); 0 when not even one fits."""
    layers = _layers_of(model)
    best = 0
    for n in range(1, layers + 1):
        share = n / layers
        fit = _device_fit(
            model,
            gpu,
            weight_share=share,
            kv_share=share if engine == CPU_COMPUTE else 1.0,
            weight_dtype=weight_dtype,
            kv_dtype=kv_dtype,
            context_tokens=context_tokens,
            memory_utilisation=memory_utilisation,
        )
        if not fit.fits:
            break
        best = n
    return best


def estimate_offload(
    *,
    model: AnyModel,
    gpu: AnyAccelerator,
    host: AnyAccelerator,
    gpu_layers: int,
    weight_dtype: str = "fp16",
    kv_dtype: str = "fp16",
    context_tokens: int = 0,
    engine: str = CPU_COMPUTE,
    pcie: tuple[int, int] | None = None,
    second_gpu: AnyAccelerator | None = None,
    second_gpu_layers: int = 0,
    memory_utilisation: float = DEFAULT_MEMORY_UTILISATION,
) -> OffloadEstimate:
    """Batch-1 decode of ``model`` with ``gpu_layers`` layers on ``gpu``, ``second_gpu_layers`` on
    ``second_gpu`` and the rest in ``host`` memory (a CPU preset).

    Args:
        gpu_layers: Layers on the GPU (llama.cpp's ``-ngl``), 0 to the model's layers.
        engine: :data:`CPU_COMPUTE` (the CPU runs the host's layers at its memory bandwidth and
            16-bit peak) or :data:`PCIE_STREAMING` (their weights cross the link every step).
        pcie: ``(generation, lanes)`` of the GPU's link; None reads it from the GPU's record, or
            takes :data:`DEFAULT_PCIE` where the record names no PCIe link.
        second_gpu_layers: Layers on ``second_gpu`` (after the GPU's, before the host's).

    Raises:
        ValueError: for an unknown engine style, a layer count out of range, or layers on a
            second GPU that is not given.
    """
    if engine not in ENGINE_STYLES:
        raise ValueError(f"unknown engine style {engine!r}; expected one of {', '.join(ENGINE_STYLES)}")
    layers = _layers_of(model)
    for name, count in (("gpu_layers", gpu_layers), ("second_gpu_layers", second_gpu_layers)):
        if not (isinstance(count, int) and not isinstance(count, bool) and 0 <= count <= layers):
            raise ValueError(f"{name} must be a whole number from 0 to {layers}, got {count!r}")
    if second_gpu is None and second_gpu_layers:
        raise ValueError("second_gpu_layers needs a second_gpu")
    if gpu_layers + second_gpu_layers > layers:
        raise ValueError(
            f"gpu_layers + second_gpu_layers must be at most the model's {layers} layers, "
            f"got {gpu_layers} + {second_gpu_layers}"
        )
    host_layers = layers - gpu_layers - second_gpu_layers
    common = {"model": model, "weight_dtype": weight_dtype, "kv_dtype": kv_dtype, "context_tokens": context_tokens}
    gpu_only = estimate_decode(accelerator=gpu, **common)
    # In the PCIe style the GPU computes the host's layers too, after their weights arrive.
    gpu_share = (gpu_layers + (host_layers if engine == PCIE_STREAMING else 0)) / layers
    stages = []
    if gpu_share > 0:
        stages.append(_stage("gpu", gpu_only, gpu, gpu_share, round(gpu_share * layers)))
    fit_words = {"weight_dtype": weight_dtype, "kv_dtype": kv_dtype, "context_tokens": context_tokens}
    fits = [
        (
            "gpu",
            _device_fit(
                model,
                gpu,
                weight_share=gpu_layers / layers,
                kv_share=gpu_share if engine == PCIE_STREAMING else gpu_layers / layers,
                memory_utilisation=memory_utilisation,
                **fit_words,
            ),
        )
    ]
    if second_gpu is not None and second_gpu_layers:
        share = second_gpu_layers / layers
        stages.append(
            _stage(
                "second_gpu", estimate_decode(accelerator=second_gpu, **common), second_gpu, share, second_gpu_layers
            )
        )
        fits.append(
            (
                "second_gpu",
                _device_fit(
                    model,
                    second_gpu,
                    weight_share=share,
                    kv_share=share,
                    memory_utilisation=memory_utilisation,
                    **fit_words,
                ),
            )
        )
    host_share = host_layers / layers
    host_weight_bytes = model.weight_bytes(weight_dtype) * host_share
    link = pcie or pcie_link_of(gpu) or DEFAULT_PCIE
    link_rate = pcie_bandwidth_bytes_per_s(generation=link[0], lanes=link[1])
    pcie_s = 0.0
    if host_layers:
        if engine == CPU_COMPUTE:
            stages.append(_stage("host", estimate_decode(accelerator=host, **common), host, host_share, host_layers))
        else:
            # Every host-held weight crosses the link on every step; streamed weights a decode
            # step would not read (an MoE's idle experts) cross too, as vLLM moves whole tensors.
            pcie_s = host_weight_bytes / link_rate
        # The host memory holds the weights in either style, and the cache only when the CPU computes.
        fits.append(
            (
                "host",
                _device_fit(
                    model,
                    host,
                    weight_share=host_share,
                    kv_share=host_share if engine == CPU_COMPUTE else 0.0,
                    memory_utilisation=1.0,
                    capacity_bytes=host.memory_bytes,
                    **fit_words,
                ),
            )
        )
    return OffloadEstimate(
        layers=layers,
        gpu_layers=gpu_layers,
        second_gpu_layers=second_gpu_layers,
        host_layers=host_layers,
        engine=engine,
        stages=tuple(stages),
        pcie_s=pcie_s,
        pcie_bytes_per_s=link_rate,
        host_weight_bytes=host_weight_bytes,
        fits=tuple(fits),
        gpu_only=gpu_only,
        gpu_share=gpu_share,
    )


def _stage(where: str, whole: DecodeEstimate, device: AnyAccelerator, share: float, layers: int) -> Stage:
    """``share`` of the whole model's batch-1 step on ``device``: at batch 1 every term of the
    step (weight and cache bytes, FLOPs) is a sum over layers, so a share of layers is that
    share of each roof."""
    if not math.isfinite(whole.step_time_s):
        raise ValueError(f"{device.name}: the decode step is not finite")
    return Stage(
        where=where,
        device=device.name,
        layers=layers,
        seconds=whole.step_time_s * share,
        expected_seconds=whole.expected_step_time_s * share,
        bytes_read=whole.step.bytes_moved * share,
        bandwidth_bytes_per_s=device.bandwidth_bytes_per_s,
    )
