"""Accelerator presets: dense peak compute per number format, memory bandwidth and capacity.

Every value is the vendor's *dense* figure. Several spec sheets lead with "with sparsity"
numbers (2:4 structured sparsity doubles them); where a sheet only states the sparse figure,
``source.states`` quotes it and the preset holds half of it, which is what dense matrix math
can reach.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from roofline_core.hardware.dtypes import DTYPES
from roofline_core.hardware.unified_memory import gpu_usable_memory
from roofline_core.roofline import _require_positive, ridge_point
from roofline_core.sources import Source

TERA = 1e12
GIGA = 1e9
#: One gibibyte. Device memory is built from binary-sized DRAM dies, so the capacity a device
#: exposes is a whole number of GiB even where its sheet writes "GB" (an H100 "80 GB" is 80 GiB).
GIB = 2**30

#: How a preset's peak was obtained, surest first: ``"vendor"`` (the maker's sheet states it),
#: ``"arithmetic"`` (computed from stated unit counts, clock and per-clock rate, where the maker
#: states no FLOP/s figure), ``"measured"`` (a public benchmark, where nothing else exists).
#: Decode is bounded by bandwidth, so a chip is listed even where its peak is the least sure kind.
PEAK_BASES = ("vendor", "arithmetic", "measured")

#: How each basis reads where a page says how sure a peak is.
PEAK_BASIS_WORDS = {
    "vendor": "stated by the maker (or a copy of its sheet)",
    "arithmetic": "computed from stated figures by a stated rule; no source read states it",
    "measured": "a public measurement; the maker states no FLOP/s figure",
}

#: The two memory roofs of a chip: the datasheet's peak, and what a cited measurement reached.
CEILINGS = ("datasheet", "measured")

#: Families listed apart from their vendor's datacenter parts in every select (grouped as
#: "<vendor> <family>"), so a reader finds a desktop or edge card among a few dozen of its kind.
FAMILIES_LISTED_APART = frozenset({"GeForce", "RTX workstation", "Radeon", "Radeon PRO", "Arc", "Jetson", "DGX Spark"})

#: 16-bit formats that run at one tensor-core rate, so a chip listing one computes the other.
SIXTEEN_BIT_TWINS = {"fp16": "bf16", "bf16": "fp16"}

#: What a preset is, and the heading lists group it under.
KINDS: dict[str, str] = {"gpu": "GPUs", "tpu": "TPUs", "npu": "AI accelerators", "cpu": "CPUs"}

#: Kinds by family, for records that do not state one (every other family is a GPU's).
_FAMILY_KINDS = {"TPU": "tpu", "Trainium": "npu", "Gaudi": "npu"}

#: How a preset's peak was obtained, surest first: ``"vendor"`` (the maker's sheet states it),
#: ``"arithmetic"`` (computed from stated unit counts, clock and per-clock rate, where the maker
#: states no FLOP/s figure), ``"measured"`` (a public benchmark, where nothing else exists).
#: Decode is bounded by bandwidth, so a chip is listed even where its peak is the least sure kind.
#: (The same names and words as the helper branch adding GPU presets uses, so the two agree.)
PEAK_BASES = ("vendor", "arithmetic", "measured")

#: How each basis reads where a page says how sure a peak is.
PEAK_BASIS_WORDS = {
    "vendor": "stated by the maker (or a copy of its sheet)",
    "arithmetic": "computed from stated figures by a stated rule; no source read states it",
    "measured": "a public measurement; the maker states no FLOP/s figure",
}

#: The short mark lists put after a peak that no sheet states.
PEAK_BASIS_MARKS = {"vendor": "", "arithmetic": "computed", "measured": "measured"}


class _PeakLookup:
    """Peak and ridge by number format, shared by :class:`Accelerator` and :class:`CustomAccelerator`."""

    name: str
    peak_flop_per_s: dict[str, float]
    bandwidth_bytes_per_s: float

    def supports(self, dtype: str) -> bool:
        """Whether the matrix units compute in ``dtype`` (see :meth:`peak_for`)."""
        return self._peak_key(dtype) is not None

    def _peak_key(self, dtype: str) -> str | None:
        if dtype in self.peak_flop_per_s:
            return dtype
        # FP16 and BF16 are the same 16-bit tensor-core rate on every preset that lists both;
        # TPUs have no FP16 units, so "16-bit math" there means BF16 (and the reverse for a
        # chip that lists FP16 only).
        twin = SIXTEEN_BIT_TWINS.get(dtype)
        if twin is not None and twin in self.peak_flop_per_s:
            return twin
        return None

    def peak_for(self, dtype: str) -> float:
        """Dense peak compute when the matrix math runs in ``dtype``, in FLOP/s.

        This is the one place that decides which peak a number format uses on an accelerator:
        every estimate, calculator, figure, quantity and the command line call it.

        Raises:
            KeyError: naming the formats this accelerator supports.
        """
        key = self._peak_key(dtype)
        if key is None:
            supported = ", ".join(self.peak_flop_per_s)
            raise KeyError(f"{self.name} has no {dtype} peak; supported: {supported}")
        return self.peak_flop_per_s[key]

    def ridge_point(self, dtype: str = "fp16") -> float:
        """Ridge point for ``dtype``, in FLOP/byte."""
        return ridge_point(peak_flop_per_s=self.peak_for(dtype), bandwidth_bytes_per_s=self.bandwidth_bytes_per_s)


@dataclass(frozen=True)
class Accelerator(_PeakLookup):
    """One processor that runs a model: a GPU, TPU or other accelerator chip, the GPU of a
    unified-memory system on a chip (Apple silicon, Strix Halo), or a server or desktop CPU.

    Attributes:
        slug: Stable identifier used in URLs and the command line (``"h100-sxm"``).
        name: Display name.
        peak_flop_per_s: Dense peak per number format, in FLOP/s (int8 in OP/s), keyed by
            dtype slug. Only formats the matrix units support natively are listed.
        bandwidth_bytes_per_s: Peak memory bandwidth, in bytes/s.
        memory_bytes: Memory capacity as the device exposes it, in bytes (an H100 "80 GB" is
            80 GiB, 85.9e9 bytes); every fit verdict uses it.
        memory_kind: What the memory is (``"HBM3"``, ``"GDDR6X"``).
        memory_stated: The capacity as the vendor writes it (``"80 GB"``); ``source.states`` says
            how it was read.
        source: Where the numbers come from.
        notes: How the figures were read (which column, what was halved).
        interconnect_kind: The device-to-device link (``"NVLink"``, ``"ICI"``, ``"PCIe Gen4 x16"``).
        interconnect_bandwidth_bytes_per_s: Its bandwidth as the source states it, in bytes/s
            (None when no source gave it).
        interconnect_direction: Whether that figure is one direction's (``"per direction ..."``)
            or both directions' together (``"both directions ..."``), then how the source put it.
        board_power_w: Board (or module) power, in watts (None when no source gave it).
        vendor: Maker, for grouping in lists.
        family: Architecture or product family, for grouping in lists.
        peak_is_measured: True when the peak is a public measurement, not a vendor figure.
        peak_basis: How the peaks were obtained, one of :data:`PEAK_BASES` (``"measured"``
            exactly when ``peak_is_measured``); pages say how sure a peak is from it.
        peak_working: For an arithmetic peak, the arithmetic written out with its quoted inputs
            (``"40 GPU cores x 128 ALUs x 2 FLOP per clock x 1.398 GHz = 14.3 TFLOP/s"``); empty
            otherwise (a measured peak's notes say what was measured).
        measured_bandwidth_bytes_per_s: The memory bandwidth a cited measurement reached (a
            copy or STREAM-like kernel), in bytes/s: the achievable roof beside the datasheet's
            ``bandwidth_bytes_per_s``, always below it; None when no measurement is cited.
        measured_bandwidth_source: Where that measurement comes from (None with no measurement).
        measured_bandwidth_method: What was run and how it counts bytes (``"BabelStream Copy,
            FP64, bytes read plus written"``).
        measured_peak_flop_per_s: Matrix-multiply rates a cited measurement reached, in FLOP/s by
            dtype, each below the datasheet peak (empty when none is cited).
        measured_peak_source: Where those rates come from (None when there are none).
        secondary_only: True when no vendor document is among the sources.
        accumulate: For GeForce parts, whose tensor cores run FP32 accumulation at half the
            FP16-accumulate rate: the accumulation the peaks assume (``"FP32"``); empty elsewhere.
        fp16_accumulate_peak_flop_per_s: For those parts, the FP16-accumulate peaks, the stated
            alternative, in FP/s by dtype (empty elsewhere).
        kind: What the processor is, a key of :data:`KINDS` (``"gpu"``, ``"cpu"``); lists group
            CPUs apart, and a CPU has no device link.
        group: The heading the chip is listed under in selects: its vendor, "<vendor> <family>"
            for the families in :data:`FAMILIES_LISTED_APART`, or ``"CPUs: Intel"`` for a CPU.
        gpu_usable_memory_bytes: On unified memory, the share of ``memory_bytes`` the GPU may
            use by default (macOS's wired limit, a BIOS allocation), in bytes; None where the
            chip's memory is its own. Every fit verdict uses it (:attr:`fit_memory_bytes`).
        gpu_memory_advice: How a reader raises that share, where the vendor documents how.
    """

    slug: str
    name: str
    peak_flop_per_s: dict[str, float]
    bandwidth_bytes_per_s: float
    memory_bytes: float
    memory_kind: str
    source: Source
    notes: str = field(default="")
    interconnect_kind: str = ""
    interconnect_bandwidth_bytes_per_s: float | None = None
    interconnect_direction: str = ""
    board_power_w: float | None = None
    vendor: str = ""
    family: str = ""
    peak_is_measured: bool = False
    peak_basis: str = "vendor"
    peak_working: str = ""
    secondary_only: bool = False
    memory_stated: str = ""
    accumulate: str = ""
    fp16_accumulate_peak_flop_per_s: dict[str, float] = field(default_factory=dict)
    kind: str = "gpu"
    group: str = ""
    gpu_usable_memory_bytes: float | None = None
    gpu_memory_advice: str = ""
    measured_bandwidth_bytes_per_s: float | None = None
    measured_bandwidth_source: Source | None = None
    measured_bandwidth_method: str = ""
    measured_peak_flop_per_s: dict[str, float] = field(default_factory=dict)
    measured_peak_source: Source | None = None

    def __post_init__(self) -> None:
        if self.peak_basis not in PEAK_BASES:
            raise ValueError(f"{self.slug}: peak_basis must be one of {PEAK_BASES}, got {self.peak_basis!r}")
        if (self.peak_basis == "measured") != self.peak_is_measured:
            raise ValueError(f"{self.slug}: peak_basis {self.peak_basis!r} disagrees with peak_is_measured")
        unknown = set(self.peak_flop_per_s) - set(DTYPES)
        if unknown:
            raise ValueError(f"{self.slug}: unknown dtypes in peak_flop_per_s: {sorted(unknown)}")
        if "fp16" not in self.peak_flop_per_s and "bf16" not in self.peak_flop_per_s:
            raise ValueError(f"{self.slug}: needs a 16-bit peak, the reference for LLM inference")
        if self.kind not in KINDS:
            raise ValueError(f"{self.slug}: kind must be one of {', '.join(KINDS)}, got {self.kind!r}")
        self._check_measured()

    @property
    def fit_memory_bytes(self) -> float:
        """The memory a model must fit in, in bytes: the GPU-usable share of unified memory, else
        the whole capacity."""
        return self.memory_bytes if self.gpu_usable_memory_bytes is None else self.gpu_usable_memory_bytes

    @property
    def peak_mark(self) -> str:
        """The short word lists put after a peak no sheet states (``"computed"``, ``"measured"``);
        empty for a vendor figure."""
        return PEAK_BASIS_MARKS[self.peak_basis]

    def _check_measured(self) -> None:
        """A measured roof needs its own source and lies below the datasheet's: a program cannot
        beat the pins, so a figure above them is a misread (or a cache-resident test)."""
        measured = self.measured_bandwidth_bytes_per_s
        if measured is not None:
            if self.measured_bandwidth_source is None:
                raise ValueError(f"{self.slug}: a measured bandwidth needs measured_bandwidth_source")
            if not 0 < measured < self.bandwidth_bytes_per_s:
                raise ValueError(
                    f"{self.slug}: measured bandwidth {measured:g} B/s must lie between 0 and the datasheet's "
                    f"{self.bandwidth_bytes_per_s:g} B/s"
                )
        if self.measured_peak_flop_per_s and self.measured_peak_source is None:
            raise ValueError(f"{self.slug}: measured peaks need measured_peak_source")
        for dtype, rate in self.measured_peak_flop_per_s.items():
            if not 0 < rate < self.peak_for(dtype):
                raise ValueError(f"{self.slug}: measured {dtype} rate {rate:g} must lie below the datasheet peak")

    def bandwidth_for(self, ceiling: str = "datasheet") -> float:
        """The memory roof named ``ceiling`` (one of :data:`CEILINGS`), in bytes/s.

        Raises:
            KeyError: for an unknown ceiling, or ``"measured"`` on a chip with no cited measurement.
        """
        if ceiling == "datasheet":
            return self.bandwidth_bytes_per_s
        if ceiling == "measured" and self.measured_bandwidth_bytes_per_s is not None:
            return self.measured_bandwidth_bytes_per_s
        if ceiling == "measured":
            raise KeyError(f"{self.name} has no cited bandwidth measurement")
        raise KeyError(f"unknown ceiling {ceiling!r}; expected one of {', '.join(CEILINGS)}")


@dataclass(frozen=True)
class CustomAccelerator(_PeakLookup):
    """Hardware described by a person's own numbers (the command line's ``--peak-tflops``).

    It has the same interface as :class:`Accelerator` for the estimates, but no preset and so no
    source; ``memory_bytes`` may be unknown, and then no memory fit is reported.

    Attributes:
        peak_flop_per_s: Dense peak per number format, in FLOP/s.
        bandwidth_bytes_per_s: Memory bandwidth, in bytes/s.
        memory_bytes: Memory capacity in bytes, or None when not given.
        name: Display name.
    """

    peak_flop_per_s: dict[str, float]
    bandwidth_bytes_per_s: float
    memory_bytes: float | None = None
    name: str = "Custom accelerator"

    @property
    def fit_memory_bytes(self) -> float | None:
        """The memory a model must fit in, in bytes: all of it (a reader's own numbers)."""
        return self.memory_bytes

    def __post_init__(self) -> None:
        for dtype, peak in self.peak_flop_per_s.items():
            _require_positive(f"peak_flop_per_s[{dtype!r}]", peak)
        _require_positive("bandwidth_bytes_per_s", self.bandwidth_bytes_per_s)
        if self.memory_bytes is not None:
            _require_positive("memory_bytes", self.memory_bytes)


#: Anything the estimates accept as hardware.
AnyAccelerator = Accelerator | CustomAccelerator


_NVIDIA_H100 = Source(
    title="NVIDIA H100 Tensor Core GPU datasheet",
    url="https://www.nvidia.com/en-us/data-center/h100/",
    states=(
        "H100 SXM: FP16/BF16 Tensor Core 1,979 TFLOPS*, FP8 3,958 TFLOPS*, INT8 3,958 TOPS*, "
        "TF32 989 TFLOPS*, 80 GB, 3.35 TB/s. H100 PCIe: FP16/BF16 1,513 TFLOPS*, FP8 3,026 TFLOPS*, "
        "INT8 3,026 TOPS*, TF32 756 TFLOPS*, 80 GB, 2 TB/s. *With sparsity; dense is one-half."
    ),
)

_NVIDIA_H200 = Source(
    title="NVIDIA H200 Tensor Core GPU",
    url="https://www.nvidia.com/en-us/data-center/h200/",
    states=(
        "H200 SXM: FP16/BF16 Tensor Core 1,979 TFLOPS*, FP8 3,958 TFLOPS*, INT8 3,958 TOPS*, "
        "TF32 989 TFLOPS*, 141 GB HBM3e, 4.8 TB/s. *With sparsity; dense is one-half."
    ),
)

_NVIDIA_B200 = Source(
    title="NVIDIA DGX B200 datasheet; HGX B200 per-GPU dense and sparse rates as tabulated by G. Lockwood",
    url="https://glennklockwood.com/garden/processors/B200",
    states=(
        "HGX B200 (1,000 W), dense matrix / sparse: TF32 1,100 / 2,200 TFLOPS, FP16 and BF16 "
        "2,250 / 4,500, FP8 4,500 / 9,000, INT8 4,500 / 9,000, FP4 9,000 / 18,000. "
        "DGX B200 (8 GPUs): 1,440 GB HBM3e, 64 TB/s, i.e. 180 GB and 8 TB/s per GPU."
    ),
)

_NVIDIA_A100 = Source(
    title="NVIDIA A100 Tensor Core GPU datasheet",
    url="https://www.nvidia.com/en-us/data-center/a100/",
    states=(
        "A100 SXM: FP16/BF16 Tensor Core 312 TFLOPS (624 with sparsity), TF32 156 (312), "
        "INT8 624 TOPS (1,248). 40GB: HBM2, 1,555 GB/s. 80GB: HBM2e, 2,039 GB/s."
    ),
)

_NVIDIA_L40S = Source(
    title="NVIDIA L40S GPU datasheet",
    url="https://www.nvidia.com/en-us/data-center/l40s/",
    states=(
        "L40S: FP16/BF16 Tensor Core 362.05 TFLOPS (733 with sparsity), FP8 733 (1,466), "
        "TF32 183 (366), 48 GB GDDR6, 864 GB/s (the sheet lists no INT8 figure for the L40S)."
    ),
)

_NVIDIA_ADA = Source(
    title="NVIDIA Ada Lovelace GPU architecture whitepaper, appendix A (GeForce RTX 4090)",
    url="https://images.nvidia.com/aem-dam/Solutions/geforce/ada/nvidia-ada-gpu-architecture.pdf",
    states=(
        "RTX 4090: peak FP16 Tensor TFLOPS with FP32 accumulate 165.2 (330.4 with sparsity), "
        "peak FP8 Tensor with FP32 accumulate 330.3 (660.6), peak INT8 Tensor TOPS 660.6 "
        "(1,321.2), 24 GB GDDR6X, 1,008 GB/s."
    ),
)

_AMD_MI300X = Source(
    title="AMD Instinct MI300X accelerator data sheet",
    url="https://www.amd.com/en/products/accelerators/instinct/mi300/mi300x.html",
    states=(
        "MI300X: peak FP16 and BF16 1,307.4 TFLOPS (2,614.9 with structured sparsity), "
        "FP8 2,614.9 TFLOPS (5,229.8), INT8 2,614.9 TOPS (5,229.8), TF32 653.7 TFLOPS, "
        "192 GB HBM3, 5.3 TB/s peak memory bandwidth."
    ),
)

_GOOGLE_TPU_V5E = Source(
    title="Google Cloud TPU v5e documentation",
    url="https://cloud.google.com/tpu/docs/v5e",
    states="TPU v5e chip: 197 TFLOP/s BF16, 393 TOP/s INT8, 16 GB HBM2 at 819 GB/s.",
)


def _peaks(**tera_per_s: float) -> dict[str, float]:
    """Spec sheets quote teraFLOP/s; the presets store FLOP/s."""
    return {dtype: value * TERA for dtype, value in tera_per_s.items()}


_VENDOR_SHEET_PRESETS: tuple[Accelerator, ...] = (
    Accelerator(
        slug="h100-sxm",
        name="NVIDIA H100 SXM",
        # The seeds (001, 004) and the datasheet round 1,979 / 2 to 989 TFLOP/s.
        peak_flop_per_s=_peaks(tf32=494.5, bf16=989, fp16=989, fp8=1979, int8=1979),
        bandwidth_bytes_per_s=3.35 * TERA,
        memory_bytes=80 * GIB,
        memory_stated="80 GB",
        memory_kind="HBM3",
        source=_NVIDIA_H100,
    ),
    Accelerator(
        slug="h100-pcie",
        name="NVIDIA H100 PCIe",
        peak_flop_per_s=_peaks(tf32=378, bf16=756.5, fp16=756.5, fp8=1513, int8=1513),
        bandwidth_bytes_per_s=2.0 * TERA,
        memory_bytes=80 * GIB,
        memory_stated="80 GB",
        memory_kind="HBM2e",
        source=_NVIDIA_H100,
    ),
    Accelerator(
        slug="h200",
        name="NVIDIA H200 SXM",
        peak_flop_per_s=_peaks(tf32=494.5, bf16=989, fp16=989, fp8=1979, int8=1979),
        bandwidth_bytes_per_s=4.8 * TERA,
        memory_bytes=141 * GIB,
        memory_stated="141 GB",
        memory_kind="HBM3e",
        source=_NVIDIA_H200,
    ),
    Accelerator(
        slug="b200",
        name="NVIDIA B200 (HGX)",
        peak_flop_per_s=_peaks(tf32=1100, bf16=2250, fp16=2250, fp8=4500, int8=4500, fp4=9000),
        # Per GPU as the HGX B200 sheet states it (see the record); the DGX total / 8 gives 8 TB/s.
        bandwidth_bytes_per_s=7.7 * TERA,
        memory_bytes=180 * GIB,
        memory_stated="180 GB",
        memory_kind="HBM3e",
        source=_NVIDIA_B200,
    ),
    Accelerator(
        slug="a100-sxm-40gb",
        name="NVIDIA A100 SXM 40GB",
        peak_flop_per_s=_peaks(tf32=156, bf16=312, fp16=312, int8=624),
        bandwidth_bytes_per_s=1555 * GIGA,
        memory_bytes=40 * GIB,
        memory_stated="40 GB",
        memory_kind="HBM2",
        source=_NVIDIA_A100,
    ),
    Accelerator(
        slug="a100-sxm-80gb",
        name="NVIDIA A100 SXM 80GB",
        peak_flop_per_s=_peaks(tf32=156, bf16=312, fp16=312, int8=624),
        bandwidth_bytes_per_s=2039 * GIGA,
        memory_bytes=80 * GIB,
        memory_stated="80 GB",
        memory_kind="HBM2e",
        source=_NVIDIA_A100,
    ),
    Accelerator(
        slug="l40s",
        name="NVIDIA L40S",
        peak_flop_per_s=_peaks(tf32=183, bf16=362.05, fp16=362.05, fp8=733),
        bandwidth_bytes_per_s=864 * GIGA,
        memory_bytes=48 * GIB,
        memory_stated="48 GB",
        memory_kind="GDDR6",
        source=_NVIDIA_L40S,
    ),
    Accelerator(
        slug="rtx-4090",
        name="NVIDIA GeForce RTX 4090",
        # FP32 accumulation, as PyTorch and cuBLAS use for FP16/BF16 matrix products by default;
        # GeForce parts run it at half the FP16-accumulate rate (the record keeps that alternative).
        peak_flop_per_s=_peaks(bf16=165.2, fp16=165.2, fp8=330.3, int8=660.6),
        bandwidth_bytes_per_s=1008 * GIGA,
        memory_bytes=24 * GIB,
        memory_stated="24 GB",
        memory_kind="GDDR6X",
        source=_NVIDIA_ADA,
    ),
    Accelerator(
        slug="mi300x",
        name="AMD Instinct MI300X",
        peak_flop_per_s=_peaks(tf32=653.7, bf16=1307.4, fp16=1307.4, fp8=2614.9, int8=2614.9),
        bandwidth_bytes_per_s=5.3 * TERA,
        memory_bytes=192 * GIB,
        memory_stated="192 GB",
        memory_kind="HBM3",
        source=_AMD_MI300X,
    ),
    Accelerator(
        slug="tpu-v5e",
        name="Google TPU v5e",
        peak_flop_per_s=_peaks(bf16=197, int8=393),
        bandwidth_bytes_per_s=819 * GIGA,
        memory_bytes=16 * GIB,
        memory_stated="16 GB",
        memory_kind="HBM2",
        source=_GOOGLE_TPU_V5E,
    ),
)

_UNIT_BYTES = {"GB": 1e9, "GiB": GIB, "TB": 1e12, "GB/s": 1e9, "TB/s": 1e12, "Tb/s": 1e12 / 8, "MB/s": 1e6, "B/s": 1.0}


def _bytes(quantity: dict | None) -> float | None:
    """A ``{"value", "unit"}`` figure in bytes (or bytes/s), None if no source gave it."""
    if not quantity or quantity.get("value") is None:
        return None
    return quantity["value"] * _UNIT_BYTES[quantity["unit"]]


def _quotes(record: dict) -> str:
    return "\n\n".join(s["quote"] for s in record["sources"])


#: How a link figure's direction must begin: one direction's figure, or both directions' summed.
#: The per-direction reading (roofline_core.estimates.communication) halves only the second, so
#: wording such as "2x 900 GB/s" must be read here, once, into one of the two.
LINK_DIRECTIONS = ("per direction", "both directions")


def _link_direction(record: dict) -> str:
    """The record's link direction, checked against :data:`LINK_DIRECTIONS`.

    Raises:
        ValueError: if a link figure's direction begins with neither.
    """
    link = record.get("interconnect") or {}
    direction = link.get("direction") or ""
    if link.get("value") is not None and not direction.startswith(LINK_DIRECTIONS):
        raise ValueError(
            f"{record['slug']}: interconnect direction must begin with 'per direction' or "
            f"'both directions', got {direction!r}"
        )
    return direction


def _capacity(record: dict) -> tuple[float | None, str]:
    """The capacity as the device exposes it, in bytes, and the sentence saying how it was read."""
    stated = record.get("memory_capacity") or {}
    exposed = record.get("memory_exposed") or {}
    if stated.get("value") is None:
        return None, ""
    if exposed.get("unit") != "GiB":
        raise ValueError(f"{record['slug']}: expected memory_exposed in GiB beside memory_capacity, got {exposed!r}")
    text = (
        f"Capacity as stated: {stated['value']:g} {stated['unit']}; as the device exposes it: "
        f"{exposed['value']:g} GiB ({exposed['why']})."
    )
    return exposed["value"] * GIB, text


def _source(quoted: dict) -> Source:
    return Source(title=quoted["title"], url=quoted["url"], states=quoted["quote"])


def _measured_fields(slug: str) -> dict:
    """The measured roofs :mod:`roofline_core.hardware.measured_ceilings` cites for ``slug``."""
    from roofline_core.hardware.measured_ceilings import MEASURED_CEILINGS

    entry = MEASURED_CEILINGS.get(slug)
    if entry is None:
        return {}
    fields: dict = {}
    bandwidth = entry.get("bandwidth")
    if bandwidth:
        # A multi-socket run prints the sockets' total; a CPU preset is one socket.
        fields["measured_bandwidth_bytes_per_s"] = _bytes(bandwidth) / bandwidth.get("sockets", 1)
        fields["measured_bandwidth_source"] = _source(bandwidth["source"])
        fields["measured_bandwidth_method"] = bandwidth["method"]
    peaks = entry.get("matmul")
    if peaks:
        fields["measured_peak_flop_per_s"] = {d: tera * TERA for d, tera in peaks["tera_per_s"].items()}
        fields["measured_peak_source"] = _source(peaks["source"])
    return fields


def _record_fields(record: dict) -> dict:
    """What a research record adds to any preset: link, power, grouping, provenance and the
    measured roofs cited for it."""
    link = record.get("interconnect") or {}
    return {
        **_measured_fields(record["slug"]),
        "interconnect_kind": link.get("kind") or "",
        "interconnect_bandwidth_bytes_per_s": _bytes(link),
        "interconnect_direction": _link_direction(record),
        "board_power_w": record.get("board_power_w"),
        "vendor": record["vendor"],
        "family": record["family"],
        "kind": _kind(record),
        "group": _group(record),
        "peak_is_measured": bool(record.get("measured")),
        "peak_basis": _peak_basis(record),
        "peak_working": _peak_working(record),
        "accumulate": record.get("accumulate") or "",
        "fp16_accumulate_peak_flop_per_s": {
            dtype: tera * TERA for dtype, tera in (record.get("fp16_accumulate_dense_tera_per_s") or {}).items()
        },
    }


#: Vendors that publish no 16-bit FLOP/s figure for their chips (Apple states memory bandwidth
#: and capacity, at most an FP32 figure), so a peak for one of their chips comes from a public
#: measurement or from shader arithmetic, never from a "vendor" figure.
VENDORS_WITHOUT_PUBLISHED_PEAKS = frozenset({"Apple"})

#: The inputs an arithmetic peak multiplies, in the order the working writes them.
ARITHMETIC_INPUTS = ("cores", "units_per_core", "flop_per_clock_per_unit", "clock_ghz")


def _kind(record: dict) -> str:
    return record.get("kind") or _FAMILY_KINDS.get(record["family"], "gpu")


def _group(record: dict) -> str:
    """The heading a preset is listed under: "CPUs: <vendor>" for a CPU, "<vendor> <family>" for
    the families in :data:`FAMILIES_LISTED_APART`, else its vendor."""
    vendor, family = record["vendor"], record["family"]
    if _kind(record) == "cpu":
        return f"{KINDS['cpu']}: {vendor}"
    return f"{vendor} {family}" if family in FAMILIES_LISTED_APART else vendor


def _peak_basis(record: dict) -> str:
    """The record's ``peak_basis``; records written before it say ``measured: True`` or nothing.

    Raises:
        ValueError: if the basis is unknown, or disagrees with the record's ``measured`` flag.
    """
    basis = record.get("peak_basis") or ("measured" if record.get("measured") else "vendor")
    if basis not in PEAK_BASES:
        raise ValueError(f"{record['slug']}: peak_basis must be one of {PEAK_BASES}, got {basis!r}")
    if bool(record.get("measured")) != (basis == "measured"):
        raise ValueError(f"{record['slug']}: measured is {record.get('measured')!r} but peak_basis is {basis!r}")
    return basis


def arithmetic_peak_tera_per_s(arithmetic: dict) -> float:
    """A peak from its quoted inputs: cores x units per core x FLOP per clock per unit x clock.

    Args:
        arithmetic: A record's ``peak_arithmetic``: ``cores``, ``units_per_core``,
            ``flop_per_clock_per_unit`` (2 for a fused multiply-add) and ``clock_ghz`` (GHz).

    Returns:
        The peak in TFLOP/s.
    """
    cores, units, flop, clock_ghz = (arithmetic[key] for key in ARITHMETIC_INPUTS)
    return cores * units * flop * clock_ghz * GIGA / TERA


def _peak_working(record: dict) -> str:
    """The arithmetic behind an arithmetic peak, written out; empty for other bases."""
    arithmetic = record.get("peak_arithmetic")
    if not arithmetic:
        return ""
    return (
        f"{arithmetic['cores']:g} {arithmetic['cores_what']} x {arithmetic['units_per_core']:g} "
        f"{arithmetic['units_what']} x {arithmetic['flop_per_clock_per_unit']:g} FLOP per clock "
        f"x {arithmetic['clock_ghz']:g} GHz = {arithmetic_peak_tera_per_s(arithmetic):.3g} TFLOP/s"
    )


def _record_peaks(record: dict) -> dict[str, float]:
    """The record's dense peaks in FLOP/s: as quoted, or computed from its arithmetic.

    Raises:
        ValueError: if an arithmetic record has no inputs, or a non-arithmetic one has some.
    """
    peaks = {dtype: tera * TERA for dtype, tera in (record.get("dense_peak_tera_per_s") or {}).items() if tera}
    arithmetic = record.get("peak_arithmetic")
    if arithmetic and _peak_basis(record) != "arithmetic":
        raise ValueError(f"{record['slug']}: peak_arithmetic goes with peak_basis 'arithmetic' only")
    if arithmetic:
        # Derived, not typed: the peak is whatever the quoted inputs multiply to.
        peak = arithmetic_peak_tera_per_s(arithmetic) * TERA
        peaks.update({dtype: peak for dtype in arithmetic["dtypes"]})
    return peaks


def _from_record(record: dict) -> Accelerator | None:
    """The preset a record describes, or None if it lacks a 16-bit peak, bandwidth or capacity.

    Raises:
        ValueError: if a chip whose vendor publishes no FLOP/s figure has a peak that is
            neither a measurement nor shader arithmetic.
    """
    peaks = _record_peaks(record)
    if peaks and record["vendor"] in VENDORS_WITHOUT_PUBLISHED_PEAKS and _peak_basis(record) == "vendor":
        raise ValueError(
            f"{record['slug']}: {record['vendor']} publishes no FLOP/s figure; expected its peak to be "
            "a cited measurement (measured: True) or shader arithmetic (peak_basis: 'arithmetic')"
        )
    bandwidth = _bytes(record.get("memory_bandwidth"))
    memory, capacity_text = _capacity(record)
    if not ({"fp16", "bf16"} & set(peaks)) or bandwidth is None or memory is None:
        return None
    gpu_usable, advice = gpu_usable_memory(record, memory)
    first = record["sources"][0]
    # Every list that shows the name (calculator selects, figures) then says the peak is measured.
    name = f"{record['name']} (measured peak)" if record.get("measured") else record["name"]
    return Accelerator(
        slug=record["slug"],
        name=name,
        peak_flop_per_s=peaks,
        bandwidth_bytes_per_s=bandwidth,
        memory_bytes=memory,
        memory_kind=record.get("memory_kind", ""),
        memory_stated=_stated_capacity(record),
        source=Source(title=first["title"], url=first["url"], states=_quotes(record) + "\n\n" + capacity_text),
        gpu_usable_memory_bytes=gpu_usable,
        gpu_memory_advice=advice,
        notes=record.get("notes") or "",
        secondary_only=bool(record.get("secondary_only")),
        **_record_fields(record),
    )


def _stated_capacity(record: dict) -> str:
    stated = record.get("memory_capacity") or {}
    return f"{stated['value']:g} {stated['unit']}" if stated.get("value") is not None else ""


def _with_record(preset: Accelerator, record: dict) -> Accelerator:
    """A vendor-sheet preset with the link, power and grouping its research record adds; the
    record's quotes join the preset's source so each added figure is quoted too.

    Raises:
        ValueError: if the preset's capacity is not the one the record says the device exposes.
    """
    memory, capacity_text = _capacity(record)
    if memory != preset.memory_bytes:
        raise ValueError(f"{preset.slug}: memory_bytes {preset.memory_bytes:g} but its record exposes {memory!r}")
    source = Source(
        title=preset.source.title,
        url=preset.source.url,
        states=preset.source.states + "\n\nAlso: " + _quotes(record) + "\n\n" + capacity_text,
    )
    return replace(preset, source=source, **_record_fields(record))


def _load_presets() -> dict[str, Accelerator]:
    from roofline_core.hardware.accelerator_presets import ACCELERATOR_RECORDS

    sheets = {a.slug: a for a in _VENDOR_SHEET_PRESETS}
    built: list[Accelerator] = []
    for record in ACCELERATOR_RECORDS:
        preset = _with_record(sheets[record["slug"]], record) if record["slug"] in sheets else _from_record(record)
        if preset is not None:
            built.append(preset)
    return {a.slug: a for a in _listing_order(built)}


def _listing_order(presets: list[Accelerator]) -> list[Accelerator]:
    """Vendors in the order their first record appears, each vendor's groups likewise, records in
    their order within a group: every select shows one unbroken run per heading, however the
    modules of records are gathered."""
    vendors: dict[str, int] = {}
    groups: dict[str, int] = {}
    for a in presets:
        vendors.setdefault(a.vendor, len(vendors))
        groups.setdefault(a.group, len(groups))
    return sorted(presets, key=lambda a: (vendors[a.vendor], groups[a.group]))


#: Every accelerator preset by slug, grouped by vendor. The first ten carry the vendor sheet's
#: figures (above); the rest are built from the quoted records in
#: :mod:`roofline_core.hardware.accelerator_presets`, which also add links and power to all of them.
ACCELERATORS: dict[str, Accelerator] = _load_presets()


def accelerators_by_vendor() -> dict[str, list[Accelerator]]:
    """The presets grouped by vendor, in the order lists show them."""
    groups: dict[str, list[Accelerator]] = {}
    for a in ACCELERATORS.values():
        groups.setdefault(a.vendor, []).append(a)
    return groups


def get_accelerator(slug: str) -> Accelerator:
    """Return the preset named ``slug``.

    Raises:
        KeyError: with the accepted slugs, if ``slug`` is unknown.
    """
    try:
        return ACCELERATORS[slug]
    except KeyError:
        raise KeyError(f"unknown accelerator {slug!r}; expected one of {', '.join(ACCELERATORS)}") from None
