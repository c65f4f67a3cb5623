"""How far below the speed of light real servers run, by regime: the realistic estimate and its range.

The speed of light (:mod:`roofline_core.estimates.inference`) assumes every byte streams at the
datasheet bandwidth, every FLOP runs at the datasheet peak and devices talk for free. Real runs
miss it in ways that depend on the regime, so the realistic figure here is

``expected step = max(compute / compute share, memory / bandwidth share) + fixed step cost
+ expected communication``

- **bandwidth share** by weight-format family and, where the table has enough rows, by the kernel
  that reads the weights (16-bit, FP8 W8A8, weight-only 8-bit and 4-bit per kernel, GGUF block
  formats per llama.cpp backend): dequantising kernels do not stream at the 16-bit rate;
- **compute share** by family (prefill and large batches);
- a **fixed cost per step**, with and without CUDA graphs (kernel launches, the scheduler, the
  gaps between a layer's kernels);
- **communication** measured against published all-reduce timings: one-shot all-reduce latency
  by link (NVLink/NVSwitch or PCIe) and device count, a ring bandwidth term for large messages.

The shares and fixed costs are fitted by :mod:`roofline_core.evidence.validation` on the fit rows
of ``measurements/measurements.toml`` and copied here, because the browser computes without the
table; ``tests/data/test_measurements.py`` refits them and fails if they drift. A regime with
fewer than :data:`MIN_FIT_ROWS` fit rows uses its parent's constant (listed in
:data:`FALLBACKS`). The range is an 80% prediction interval: the 10th and 90th percentiles of the
held-back rows' residuals in the estimate's regime (:data:`INTERVALS`).

Every estimate that shows a realistic figure (decode, prefill, the calculators, the reconciler, the
comparison and the quantities) goes through :func:`expected_step_s` and :func:`expected_range_s`:
there is one implementation. Standard library only.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property

from roofline_core.estimates.communication import link_bandwidth_per_direction_bytes_per_s
from roofline_core.hardware import AnyAccelerator
from roofline_core.models import AnyModel, Model

# --- Regimes --------------------------------------------------------------------------------

DECODE, PREFILL = "decode", "prefill"

#: Weight-format families, in the order the page lists them.
SIXTEEN_BIT = "16-bit"
FP8 = "FP8 W8A8"
INT8_WEIGHT_ONLY = "8-bit weight-only"
FOUR_BIT_WEIGHT_ONLY = "4-bit weight-only"
GGUF_BLOCK = "GGUF block formats"
FAMILIES: tuple[str, ...] = (SIXTEEN_BIT, FP8, INT8_WEIGHT_ONLY, FOUR_BIT_WEIGHT_ONLY, GGUF_BLOCK)

#: The parent of every family: one constant fitted on every fit row.
ALL = "all"

#: Below this many fit rows a regime takes its parent's constant.
MIN_FIT_ROWS = 5

#: The two kinds of fixed cost per step.
WITH_GRAPHS, WITHOUT_GRAPHS = "CUDA graphs", "no CUDA graphs"

#: Layers a model known only by its size is charged the fixed cost of (a 7-8B decoder's depth).
DEFAULT_LAYERS = 32

#: Links, for the communication model.
NVLINK, PCIE = "NVLink", "PCIe"


@dataclass(frozen=True)
class Regime:
    """What decides how far below its speed of light a run lands.

    Attributes:
        phase: :data:`DECODE` or :data:`PREFILL`.
        family: One of :data:`FAMILIES`.
        kernel: The kernel or backend that reads the weights (``"AWQ GEMV"``, ``"llama.cpp
            Metal"``), ``""`` when unknown: the family's constant is used then.
        cuda_graphs: Whether the engine replays the step as a CUDA graph (or a compiled graph),
            which shrinks the fixed cost per step.
        memory: ``"HBM"`` for stacked high-bandwidth memory, ``"other"`` for GDDR and unified
            LPDDR, ``""`` when unknown: the same kernel streams a different share of each.
    """

    phase: str
    family: str
    kernel: str = ""
    cuda_graphs: bool = True
    memory: str = ""

    @cached_property
    def share_keys(self) -> tuple[str, ...]:
        """The keys of the shares, most specific first: ``"family/kernel/memory"``,
        ``"family/kernel"``, ``"family"``, :data:`ALL`."""
        keys = [ALL, self.family]
        if self.kernel:
            keys.append(f"{self.family}/{self.kernel}")
            if self.memory:
                keys.append(f"{self.family}/{self.kernel}/{self.memory}")
        elif self.memory:
            keys.append(f"{self.family}/{self.memory}")
        return tuple(reversed(keys))

    @cached_property
    def fixed_keys(self) -> tuple[str, ...]:
        """The keys of the fixed cost, most specific first: ``"<kind>/kernel"``, ``"<kind>"``, where
        the kind is :data:`PREFILL` (a pass over a prompt: more work per launch, no graph) or
        whether decode runs as a CUDA graph."""
        kind = PREFILL if self.phase == PREFILL else WITH_GRAPHS if self.cuda_graphs else WITHOUT_GRAPHS
        return (f"{kind}/{self.kernel}", kind) if self.kernel else (kind,)

    @property
    def share_key(self) -> str:
        """The most specific key of the shares."""
        return self.share_keys[0]

    @property
    def interval_key(self) -> str:
        """The most specific key of :data:`INTERVALS`: ``"phase/family"``."""
        return f"{self.phase}/{self.family}"


def family_of(weight_format: str, compute_format: str) -> str:
    """The :data:`FAMILIES` entry of a weight format (a dtype, a block format or a table's slug).

    Args:
        weight_format: ``"bf16"``, ``"fp8"``, ``"int4"``, ``"q4_0"``, ``"awq-int4-g128"``, ...
        compute_format: The format of the matrix math: FP8 weights with FP8 math are W8A8.
    """
    slug = weight_format.lower()
    if slug in ("fp16", "bf16", "fp32", "tf32"):
        return SIXTEEN_BIT
    if slug == "fp8":
        return FP8 if compute_format == "fp8" else INT8_WEIGHT_ONLY
    if slug == "int8":
        return FP8 if compute_format in ("fp8", "int8") else INT8_WEIGHT_ONLY
    if slug.startswith(("gguf", "q")) and not slug.startswith("qu"):
        return GGUF_BLOCK
    return FOUR_BIT_WEIGHT_ONLY


#: Engines that replay decode as a captured CUDA graph (or a compiled graph) by default.
_GRAPH_ENGINES = ("tensorrt-llm", "vllm", "sglang", "nim", "gpt-fast", "torch.compile", "fastertransformer")


def uses_cuda_graphs(engine: str) -> bool:
    """Whether ``engine`` (a measurement's engine text) runs decode as a graph.

    TensorRT-LLM, vLLM, SGLang and NIM capture decode in CUDA graphs; gpt-fast compiles it with
    ``torch.compile(mode="reduce-overhead")``, which does the same; FasterTransformer runs one C++
    loop without Python. llama.cpp, eager PyTorch (transformers, AutoAWQ, TinyChat), ExLlamaV2 and
    MLC launch kernel by kernel in the versions the table cites.
    """
    lowered = engine.lower()
    return any(name in lowered for name in _GRAPH_ENGINES)


def kernel_of(engine: str, family: str) -> str:
    """The kernel or backend that reads the weights, from a measurement's engine text (``""`` if none)."""
    lowered = engine.lower()
    if lowered.startswith("llama.cpp"):
        for backend in ("Metal", "CUDA", "ROCm", "Vulkan", "CPU"):
            if backend.lower() in lowered:
                return f"llama.cpp {backend}"
        return "llama.cpp"
    if family in (SIXTEEN_BIT, FP8):
        return ""
    for needle, name in (
        ("gemv", "AWQ GEMV"),
        ("exllamav2 kernel", "ExLlamaV2"),
        ("gemm", "AWQ GEMM"),
        ("tinychat", "AWQ GEMV"),
        ("exllamav2", "ExLlamaV2"),
        ("gpt-fast", "torch.compile"),
        ("mlc", "MLC"),
    ):
        if needle in lowered:
            return name
    return ""


def memory_class(accelerator: AnyAccelerator) -> str:
    """``"HBM"`` for a chip with stacked high-bandwidth memory, otherwise ``"other"``."""
    kind = (getattr(accelerator, "memory_kind", "") or "").upper()
    return "HBM" if kind.startswith("HBM") else "other"


def regime_of_run(
    *, phase: str, weight_format: str, compute_format: str, accelerator: AnyAccelerator, engine: str = ""
) -> Regime:
    """The :class:`Regime` of a run; ``engine`` empty means a serving engine with CUDA graphs."""
    family = family_of(weight_format, compute_format)
    memory = memory_class(accelerator)
    # Engines capture decode steps in CUDA graphs, not prefill (vLLM's and TensorRT-LLM's graphs
    # are per decode batch size), so a prefill pays the launch-by-launch fixed cost.
    graphs = phase == DECODE and (not engine or uses_cuda_graphs(engine))
    return Regime(phase, family, kernel_of(engine, family) if engine else "", graphs, memory)


# --- Fitted constants (copied from roofline_core.evidence.validation.fit_regimes) -------------
#
# Each value is the fit of the measurements it names: the fit rows of
# measurements/measurements.toml in its regime (every row there quotes its source; the "Model vs
# measurement" page lists them, with the keys each row falls under). The comment after a value
# says how many fit rows that is. Refresh all of them with
# `.venv/bin/python benchmarks/regime_report.py --constants` when a row moves the fit.

#: Sustained share of peak bandwidth reading the weights, by the keys of Regime.share_keys:
#: "family", "family/kernel", "family/kernel/memory" or "family/memory", and "all".
BANDWIDTH_SHARE: dict[str, float] = {
    "16-bit": 0.89,  # 42 fit rows
    "16-bit/HBM": 0.93,  # 13 fit rows
    "16-bit/llama.cpp CUDA": 0.95,  # 12 fit rows
    "16-bit/llama.cpp CUDA/other": 0.97,  # 8 fit rows
    "16-bit/llama.cpp Metal": 0.83,  # 12 fit rows
    "16-bit/llama.cpp Metal/other": 0.83,  # 12 fit rows
    "16-bit/other": 0.93,  # 5 fit rows
    "4-bit weight-only": 1.0,  # 17 fit rows
    "4-bit weight-only/AWQ GEMM": 1.0,  # 9 fit rows
    "4-bit weight-only/AWQ GEMM/other": 1.0,  # 9 fit rows
    "FP8 W8A8": 0.73,  # 36 fit rows
    "FP8 W8A8/HBM": 0.96,  # 30 fit rows
    "FP8 W8A8/other": 0.68,  # 6 fit rows
    "GGUF block formats": 0.82,  # 46 fit rows
    "GGUF block formats/llama.cpp CUDA": 0.9,  # 33 fit rows
    "GGUF block formats/llama.cpp CUDA/HBM": 0.61,  # 8 fit rows
    "GGUF block formats/llama.cpp CUDA/other": 0.94,  # 25 fit rows
    "GGUF block formats/llama.cpp Metal": 0.72,  # 11 fit rows
    "GGUF block formats/llama.cpp Metal/other": 0.72,  # 11 fit rows
    "all": 0.85,  # 145 fit rows
}

#: Sustained share of peak bandwidth while attention reads the KV cache, by the same keys: decode
#: attention kernels stream the cache less well than matrix-vector products stream weights.
KV_SHARE: dict[str, float] = {
    "16-bit": 0.72,  # 7 fit rows
    "16-bit/HBM": 0.74,  # 7 fit rows
    "FP8 W8A8": 0.92,  # 28 fit rows
    "FP8 W8A8/HBM": 0.85,  # 26 fit rows
    "GGUF block formats": 1.0,  # 11 fit rows
    "GGUF block formats/llama.cpp CUDA": 0.47,  # 8 fit rows
    "GGUF block formats/llama.cpp CUDA/other": 0.75,  # 6 fit rows
    "all": 0.84,  # 48 fit rows
}

#: Sustained share of peak compute, by family (prefill and compute-bound decode).
COMPUTE_SHARE: dict[str, float] = {
    "16-bit": 0.87,  # 22 fit rows
    "16-bit/HBM": 0.62,  # 10 fit rows
    "4-bit weight-only": 0.35,  # 5 fit rows
    "4-bit weight-only/AWQ GEMM": 0.35,  # 5 fit rows
    "4-bit weight-only/AWQ GEMM/other": 0.35,  # 5 fit rows
    "FP8 W8A8": 0.48,  # 33 fit rows
    "FP8 W8A8/HBM": 0.46,  # 29 fit rows
    "GGUF block formats": 0.72,  # 19 fit rows
    "GGUF block formats/llama.cpp CUDA": 0.71,  # 13 fit rows
    "GGUF block formats/llama.cpp CUDA/other": 0.66,  # 11 fit rows
    "GGUF block formats/llama.cpp Metal": 0.68,  # 5 fit rows
    "GGUF block formats/llama.cpp Metal/other": 0.68,  # 5 fit rows
    "all": 0.66,  # 79 fit rows
}

#: Fixed cost of a forward step per layer, in seconds, with and without CUDA graphs, and by the
#: engine's kernel where the table has enough rows: kernel launches, the scheduler and the gaps
#: between a layer's kernels, which a graph shrinks but does not remove. The project's own H100
#: SXM and H200 runs (benchmarks/gpu/results/, CUDA graphs) put the intercept of step time
#: against weight bytes at about 0.75 ms and 0.58 ms for 16-64-layer models.
FIXED_LAYER_S: dict[str, float] = {
    "CUDA graphs": 8.75e-05,  # 8 fit rows
    "CUDA graphs/torch.compile": 8.75e-05,  # 5 fit rows
    "no CUDA graphs": 9.55e-05,  # 55 fit rows
    "no CUDA graphs/llama.cpp CUDA": 0.0001005,  # 28 fit rows
    "no CUDA graphs/llama.cpp Metal": 0.00012,  # 14 fit rows
    "prefill": 7.6e-05,  # 43 fit rows
    "prefill/AWQ GEMM": 0.00012,  # 5 fit rows
    "prefill/llama.cpp CUDA": 0.0,  # 17 fit rows
    "prefill/llama.cpp Metal": 0.0,  # 9 fit rows
}

#: Regimes that took their parent's constant, with the fit rows they had.
FALLBACKS: dict[str, int] = {
    "16-bit/llama.cpp CUDA/HBM": 4,
    "4-bit weight-only/AWQ GEMV": 3,
    "4-bit weight-only/AWQ GEMV/other": 3,
    "4-bit weight-only/ExLlamaV2": 4,
    "4-bit weight-only/ExLlamaV2/other": 4,
    "4-bit weight-only/torch.compile": 1,
    "4-bit weight-only/torch.compile/HBM": 1,
    "8-bit weight-only": 4,
    "8-bit weight-only/torch.compile": 4,
    "8-bit weight-only/torch.compile/HBM": 4,
    "GGUF block formats/llama.cpp ROCm": 1,
    "GGUF block formats/llama.cpp ROCm/other": 1,
    "GGUF block formats/llama.cpp Vulkan": 1,
    "GGUF block formats/llama.cpp Vulkan/other": 1,
    "no CUDA graphs/AWQ GEMM": 4,
    "no CUDA graphs/AWQ GEMV": 3,
    "no CUDA graphs/ExLlamaV2": 4,
    "no CUDA graphs/llama.cpp ROCm": 1,
    "prefill/llama.cpp Vulkan": 1,
}

#: 80% prediction interval of measured speed over the expected speed, from the held-back rows'
#: residuals (distribution-free order statistics; validation.fit_intervals), by "phase/family",
#: then "phase", then :data:`ALL`, each key with at least MIN_FIT_ROWS held-back rows. The
#: "serving" keys are continuous-batching benchmarks at a fixed concurrency (the page's rows).
INTERVALS: dict[str, tuple[float, float]] = {
    "all": (0.65, 1.13),
    "decode": (0.78, 1.17),
    "decode/16-bit": (0.76, 1.19),
    "decode/4-bit weight-only": (0.86, 1.32),
    "decode/8-bit weight-only": (0.78, 1.25),
    "decode/FP8 W8A8": (0.58, 1.05),
    "decode/GGUF block formats": (0.78, 1.12),
    "prefill": (0.38, 1.09),
    "prefill/16-bit": (0.38, 1.11),
    "prefill/FP8 W8A8": (0.55, 1.09),
    "prefill/GGUF block formats": (0.26, 1.07),
    "serving": (0.15, 1.27),
    "serving/16-bit": (0.09, 0.97),
    "serving/FP8 W8A8": (0.55, 1.31),
    "static batch": (0.52, 1.12),
    "static batch/16-bit": (0.51, 1.21),
    "static batch/FP8 W8A8": (0.52, 1.12),
}


@dataclass(frozen=True)
class RegimeConstants:
    """One set of the fitted constants (the shipped set is :data:`FITTED`; the fit builds others).

    Attributes:
        bandwidth_share: :data:`BANDWIDTH_SHARE`'s shape.
        kv_share: :data:`KV_SHARE`'s shape.
        compute_share: :data:`COMPUTE_SHARE`'s shape.
        fixed_layer_s: :data:`FIXED_LAYER_S`'s shape.
        intervals: :data:`INTERVALS`'s shape.
        fallbacks: :data:`FALLBACKS`'s shape.
    """

    bandwidth_share: dict[str, float]
    kv_share: dict[str, float]
    compute_share: dict[str, float]
    fixed_layer_s: dict[str, float]
    intervals: dict[str, tuple[float, float]]
    fallbacks: dict[str, int]

    def bandwidth(self, regime: Regime) -> float:
        """Sustained share of peak bandwidth reading weights in ``regime`` (0 to 1)."""
        return _lookup(self.bandwidth_share, regime)

    def kv(self, regime: Regime) -> float:
        """Sustained share of peak bandwidth reading the KV cache in ``regime`` (0 to 1)."""
        return _lookup(self.kv_share, regime)

    def compute(self, regime: Regime) -> float:
        """Sustained share of peak compute in ``regime`` (0 to 1)."""
        return _lookup(self.compute_share, regime)

    def fixed(self, regime: Regime) -> float:
        """Fixed cost of one layer of a forward step in ``regime``, in seconds."""
        for key in regime.fixed_keys:
            if key in self.fixed_layer_s:
                return self.fixed_layer_s[key]
        return 0.0

    def interval(self, regime: Regime) -> tuple[float, float]:
        """``(low, high)``: measured speed over the expected speed, the 10th and 90th percentiles."""
        for key in (regime.interval_key, regime.phase, ALL):
            if key in self.intervals:
                return self.intervals[key]
        raise KeyError(f"no interval for {regime.interval_key!r}; expected one for {ALL!r} at least")


def _lookup(table: dict[str, float], regime: Regime) -> float:
    for key in regime.share_keys:
        if key in table:
            return table[key]
    raise KeyError(f"no constant for {regime.share_key!r}; expected one for {ALL!r} at least")


#: The constants above, as the estimates use them.
FITTED = RegimeConstants(BANDWIDTH_SHARE, KV_SHARE, COMPUTE_SHARE, FIXED_LAYER_S, INTERVALS, FALLBACKS)


# --- Communication, measured ------------------------------------------------------------------

#: One all-reduce of a decode-sized message (32 KiB) over NVLink/NVSwitch with a one-shot custom
#: kernel, by device count, in seconds: vLLM's custom all-reduce on H100, as SGLang's PR 2904
#: tabulates it (https://github.com/sgl-project/sglang/pull/2904): "| 2/4/8 | 32768 |
#: 0.0087/0.0092/0.0118 |" (latency in ms). Nearly flat in n, unlike a ring's 2(n-1) steps.
ONE_SHOT_LATENCY_S: dict[int, float] = {2: 8.7e-6, 4: 9.2e-6, 8: 11.8e-6}

#: Share of the NVLink line rate a ring all-reduce of a large message reaches: NCCL's maintainer,
#: https://github.com/NVIDIA/nccl-tests/issues/212: "450GB/s is the line rate. With the protocol
#: overhead (~20%) NCCL can get an effective NVLink bandwidth of 370GB/s".
RING_LINK_SHARE = 370 / 450

#: PCIe-only boxes fall back to NCCL's ring (vLLM disables its custom all-reduce on more than two
#: PCIe GPUs). A small all-reduce on 8 RTX 4090s over PCIe takes 42.14 us
#: (https://github.com/NVIDIA/nccl/issues/1530: "8 2 float sum -1 42.14"), 2(n-1) = 14 ring
#: steps, so about 3.0 us a step.
PCIE_STEP_LATENCY_S = 42.14e-6 / 14

#: Bus bandwidth of a large all-reduce over PCIe 4.0 between RTX 4090s, in bytes/s:
#: https://github.com/tinygrad/open-gpu-kernel-modules/issues/17: "33554432 8388608 float sum -1
#: 2174.8 15.43 24.69" (busbw 24.69 GB/s).
PCIE_BUS_BYTES_PER_S = 24.69e9


def link_of(accelerator: AnyAccelerator) -> str:
    """:data:`NVLINK` for a chip with a device-to-device fabric (NVLink, Infinity Fabric, ICI) faster
    than PCIe, otherwise :data:`PCIE`."""
    kind = (getattr(accelerator, "interconnect_kind", "") or "").lower()
    link = link_bandwidth_per_direction_bytes_per_s(accelerator)
    if link is None or "pcie" in kind or link <= 64e9:
        return PCIE
    return NVLINK


def one_shot_latency_s(devices: int) -> float:
    """One-shot all-reduce latency over NVLink at ``devices``, in seconds (linear between the
    measured 2, 4 and 8; held at 8's beyond)."""
    points = sorted(ONE_SHOT_LATENCY_S.items())
    if devices <= points[0][0]:
        return points[0][1]
    for (n0, t0), (n1, t1) in zip(points, points[1:]):
        if devices <= n1:
            return t0 + (t1 - t0) * (devices - n0) / (n1 - n0)
    return points[-1][1]


def expected_all_reduce_s(*, message_bytes: float, devices: int, accelerator: AnyAccelerator) -> float:
    """One all-reduce of ``message_bytes`` per device as engines run it, in seconds.

    NVLink: a one-shot kernel's latency plus the ring's bytes ``2(n-1)/n`` at the share of the line
    rate NCCL reaches. PCIe: NCCL's ring, ``2(n-1)`` steps at the measured step latency and the
    bytes at the measured bus bandwidth.
    """
    if devices <= 1:
        return 0.0
    ring_bytes = message_bytes * 2 * (devices - 1) / devices
    if link_of(accelerator) == NVLINK:
        link = link_bandwidth_per_direction_bytes_per_s(accelerator)
        assert link is not None  # link_of said NVLink, which needs a figure
        return one_shot_latency_s(devices) + ring_bytes / (link * RING_LINK_SHARE)
    return 2 * (devices - 1) * PCIE_STEP_LATENCY_S + ring_bytes / PCIE_BUS_BYTES_PER_S


def expected_tensor_parallel_s(
    model: AnyModel, accelerator: AnyAccelerator, *, devices: int, tokens: int, activation_bytes_per_element: float = 2
) -> float:
    """Tensor parallelism's two all-reduces per layer of ``tokens x hidden`` activations, in seconds.

    0 on one device. A model known only by its size (no layers or width) is charged nothing, as
    the speed of light does.
    """
    if devices <= 1 or not isinstance(model, Model):
        return 0.0
    message = tokens * model.hidden_size * activation_bytes_per_element
    return 2 * model.layers * expected_all_reduce_s(message_bytes=message, devices=devices, accelerator=accelerator)


# --- The one implementation -------------------------------------------------------------------


def expected_step_s(
    *,
    compute_s: float,
    memory_s: float,
    communication_s: float,
    regime: Regime,
    kv_memory_s: float = 0.0,
    layers: int | None = None,
    constants: RegimeConstants = FITTED,
) -> float:
    """The realistic time of one forward step, in seconds.

    Args:
        compute_s: The step's FLOPs at the devices' peak, in seconds.
        memory_s: The step's bytes other than the KV cache (weights, activations) at the
            devices' peak bandwidth, in seconds.
        kv_memory_s: The KV cache bytes the step reads at the devices' peak bandwidth, in seconds.
        communication_s: Communication on the critical path as engines run it, in seconds
            (:func:`expected_tensor_parallel_s` for tensor parallelism).
        regime: The run's :class:`Regime`.
        constants: The fitted constants (the fit passes candidates; everything else the default).

    Returns:
        ``max(compute_s / compute share, memory_s / bandwidth share + kv_memory_s / KV share)
        + fixed step cost + communication_s``.
    """
    memory = memory_s / constants.bandwidth(regime) + (kv_memory_s / constants.kv(regime) if kv_memory_s else 0.0)
    roofs = max(compute_s / constants.compute(regime), memory)
    return roofs + constants.fixed(regime) * (layers or DEFAULT_LAYERS) + communication_s


def expected_range_s(time_s: float, regime: Regime, constants: RegimeConstants = FITTED) -> tuple[float, float]:
    """``(fast, slow)``: the 80% prediction interval of a time ``time_s`` expected in ``regime``, in seconds."""
    low, high = constants.interval(regime)
    return (time_s / high, time_s / low)


def log_residual(*, measured_speed: float, expected_speed: float) -> float:
    """``ln(measured / expected)`` of two speeds: the residual the intervals are quantiles of."""
    return math.log(measured_speed / expected_speed)
