"""Desktop and workstation GPUs: GeForce RTX 30/40/50, RTX workstation cards, Radeon and Arc.

Every figure is quoted from its source (see :func:`roofline_core.hardware.records.record`). Where
no source states a tensor peak, the peak is arithmetic from a stated figure and says so
(``peak_basis="arithmetic"``), because decode is bounded by bandwidth and a reader with the card
still wants its roofline:

- GeForce (Ampere, Ada, Blackwell) tensor cores run FP16 and BF16 with FP32 accumulation at
  twice the shader FP32 rate, and with FP16 accumulation at four times it. The RTX 4090's sheet
  shows the rule: 82.6 TFLOP/s FP32 shaders, 165.2 FP16 tensor with FP32 accumulate, 330.3 with
  FP16 accumulate (see the rtx-4090 record); the RTX 3090 likewise (35.6, 71, 142).
- Blackwell GeForce "AI TOPS" is FP4 with 2:4 sparsity; dense FP4 is half, FP8 a quarter, FP16
  with FP16 accumulate an eighth and with FP32 accumulate a sixteenth (RTX 5090: 3,352 AI TOPS,
  209.6 TFLOP/s FP16 with FP32 accumulate in its record).
- RTX workstation parts run FP32 accumulation at the full rate: 4 x the shader FP32 rate
  (RTX A6000: 38.7 TFLOP/s shaders, 154.8 FP16 tensor).
- Intel Xe cores' XMX engines run FP16 at half their INT8 rate and INT4 at twice it.
"""

from __future__ import annotations

from roofline_core.hardware.capacity_reasons import GDDR_IS_BINARY
from roofline_core.hardware.records import record

_ACCUMULATE_NOTE = (
    "Peaks are FP32-accumulate rates, the convention of every GeForce preset here: PyTorch and cuBLAS"
    " accumulate FP16 and BF16 matrix products in FP32 by default, and GeForce parts run that at half"
    " the FP16-accumulate rate (kept as the alternative)."
)

_AMPERE_LAUNCH = {
    "title": "Gaming PC Builder, RTX 3090, 3080 and 3070 specs (NVIDIA's launch figures; Tensor-FLOPS are FP16"
    " with FP16 accumulate, with sparsity)",
    "url": "https://gamingpcbuilder.com/rtx-3090-3080-and-3070-specs-details-unveiled",
    "secondary": True,
    "quote": "RTX 3090 | RTX 3080 | RTX 3070 |\n...\nVRAM | 24GB GDDR6X | 10GB GDDR6X | 8GB GDDR6 |\n"
    "Memory Bus | 384-bit | 320-bit | 256-bit |\nShader TFLOPS | 36 | 30 | 20 |\nRT-FLOPS | 69 | 58 | 40 |\n"
    "Tensor-FLOPS | 285 | 238 | 163 |",
}

_ADA_TABLE = {
    "title": "Club386, Complete GeForce RTX 4070 specifications (table; cells separated by | here)",
    "url": "https://www.club386.com/complete-geforce-rtx-4070-specifications-reveal-a-frugal-599-gpu/",
    "secondary": True,
    "quote": "GeForce | RTX 4090 | RTX 4080 | RTX 4070 TI | RTX 4070\nPeak FP32 TFLOPS | 82.6 | 48.7 | 40.1 | 29.1\n"
    "Memory size (GB) | 24 | 16 | 12 | 12\nBandwidth (GB/s) | 1,008 | 717 | 504 | 504\n"
    "Power (watts) | 450 | 320 | 285 | 200",
}

_BLACKWELL_TABLE = {
    "title": "TweakTown, NVIDIA GeForce RTX 50 Series specs (NVIDIA's CES 2025 table; AI TOPS are FP4 with sparsity)",
    "url": "https://www.tweaktown.com/news/102469/nvidia-geforce-rtx-50-series-specs-pricing-and-performance-plan-that-upgrade-today/index.html",
    "secondary": True,
    "quote": "GPU Specs GeForce RTX 5090 GeForce RTX 5080 GeForce RTX 5070 Ti GeForce RTX 5070 ... Tensor Cores (AI)"
    " 3352 AI TOPS (5th Gen) 1801 AI TOPS (5th Gen) 1406 AI TOPS (5th Gen) 988 AI TOPS (5th Gen) ... Memory"
    " 32GB GDDR7 16GB GDDR7 16GB GDDR7 12GB GDDR7 Memory Interface 512-bit 256-bit 256-bit 192-bit Bandwidth"
    " 1792 GB/sec 960 GB/sec 896",
}


_ADA_SUPER_TABLE = {
    "title": "Svět hardware, Nvidia GeForce RTX 4000 Super (launch specification table, Czech; cells separated by"
    " line breaks)",
    "url": "https://www.svethardware.cz/nvidia-geforce-rtx-4000-super-prichazi-vice-jader-vice-pameti-nebo-nizsi-cena/60300",
    "secondary": True,
    "quote": "GeForce RTX 4070\n\nGeForce RTX 4070 Super\n\nGeForce RTX 4070 Ti GeForce RTX 4070 Ti Super\n\n"
    "GeForce RTX 4080 GeForce RTX 4080 Super GeForce RTX 4090 ... Počet CUDA jader\n\n"
    "5888 7168 7680 8448 9728 10240 16384 Základní takt\n\n1920 MHz 1980 MHz\n\n2310 MHz 2340 MHz\n\n"
    "2205 MHz 2295 MHz\n\n2235 MHz Boost takt\n\n2475 MHz 2475 GHz\n\n2610 MHz 2610 MHz\n\n2505 MHz 2550 MHz\n\n"
    "2520 MHz FP32 výkon\n\n29,15 TFLOPS 35,49 TFLOPS\n\n40,09 TFLOPS 44,1 TFLOPS\n\n48,74 TFLOPS 52,22 TFLOPS\n\n"
    "82,58 TFLOPS Paměti\n\n12 GB GDDR6X 12 GB GDDR6X 12 GB GDDR6X 16 GB GDDR6X\n\n16 GB GDDR6X 16 GB 24 GB GDDR6X"
    " ... Paměťová propustnost\n\n504 GB/s 504 GB/s\n\n504 GB/s 672 GB/s\n\n717 GB/s 736 GB/s\n\n1008 GB/s TGP\n\n"
    "200 W 220 W\n\n285 W 285 W\n\n320 W 320 W\n\n450 W",
}


def _fpsbench(card: str, url_tail: str, rows: str) -> dict:
    """A card's column of an fpsbench.com comparison page (TechPowerUp-style database figures)."""
    return {
        "title": f"fpsbench, GPU comparison: detailed specifications of the {card} (GPU database figures)",
        "url": f"https://fpsbench.com/compare/gpu/{url_tail}",
        "secondary": True,
        "quote": rows,
    }


def _ampere_geforce(slug: str, name: str, tensor_sparse: float, sources: list[dict], **figures) -> dict:
    """An Ampere GeForce card from NVIDIA's launch "Tensor-TFLOPS" (FP16 accumulate, with sparsity)."""
    return record(
        slug=slug,
        name=name,
        vendor="NVIDIA",
        family="GeForce",
        sources=sources,
        peaks={"fp16": tensor_sparse / 4, "bf16": tensor_sparse / 4},
        halved_from_sparse=("fp16", "bf16"),
        halved_for_fp32_accumulate=("fp16", "bf16"),
        fp32_accumulate=True,
        exposed_why=GDDR_IS_BINARY,
        notes=f"{tensor_sparse:g} Tensor-TFLOPS is NVIDIA's launch figure, FP16 with FP16 accumulate and 2:4"
        f" sparsity: dense FP16-accumulate is half of it, and the preset holds half again. {_ACCUMULATE_NOTE}"
        " BF16 runs at the FP16 rate on GA10x.",
        **figures,
    )


def _from_shader_rate(shader_tflops: float, *dtypes: str) -> dict[str, dict]:
    return {d: {"stated": shader_tflops, "factor": 2, "from": "FP32 shader TFLOP/s"} for d in dtypes}


def _arithmetic_geforce(slug: str, name: str, shader_tflops: float, sources: list[dict], **figures) -> dict:
    """An Ada or Blackwell GeForce card whose tensor peak is twice its stated shader FP32 rate."""
    peak = 2 * shader_tflops
    return record(
        slug=slug,
        name=name,
        vendor="NVIDIA",
        family="GeForce",
        sources=sources,
        peaks={"fp16": peak, "bf16": peak},
        arithmetic=_from_shader_rate(shader_tflops, "fp16", "bf16"),
        peak_basis="arithmetic",
        fp32_accumulate=True,
        exposed_why=GDDR_IS_BINARY,
        notes=f"No source read here states the tensor rate: it is 2 x the {shader_tflops:g} TFLOP/s shader FP32"
        f" rate, the GeForce rule the RTX 4090 and 3090 sheets show (module docstring). {_ACCUMULATE_NOTE}",
        **figures,
    )


def _blackwell_from_ai_tops(slug: str, name: str, ai_tops: float, sources: list[dict], **figures) -> dict:
    """A Blackwell GeForce card from NVIDIA's "AI TOPS" (FP4 with sparsity)."""
    fp16 = ai_tops / 16
    return record(
        slug=slug,
        name=name,
        vendor="NVIDIA",
        family="GeForce",
        sources=sources,
        peaks={"fp16": fp16, "bf16": fp16, "fp4": ai_tops / 2},
        halved_from_sparse=("fp4",),
        arithmetic={
            d: {"stated": ai_tops, "factor": 1 / 16, "from": "AI TOPS (FP4, sparse)"} for d in ("fp16", "bf16")
        },
        peak_basis="arithmetic",
        fp32_accumulate=True,
        exposed_why=GDDR_IS_BINARY,
        notes=f"{ai_tops:g} AI TOPS is FP4 with sparsity: dense FP4 is half. The 16-bit peak is a sixteenth of it"
        f" (dense, FP8, FP16 accumulate, FP32 accumulate: halved four times), which reproduces the RTX 5090's"
        f" 209.6 TFLOP/s from its 3,352 AI TOPS. {_ACCUMULATE_NOTE}",
        **figures,
    )


def _ada_from_cores(slug: str, name: str, cores: int, boost_mhz: int, sources: list[dict], **figures) -> dict:
    """An Ada GeForce card whose source gives its CUDA cores and boost clock but no tensor rate.

    The shader FP32 rate is cores x 2 FLOP (one multiply-add) x the boost clock; the tensor rate
    with FP32 accumulation is twice that (module docstring), so the peak is cores x 4 x clock.
    """
    factor = 4 * boost_mhz / 1e6  # TFLOP/s per CUDA core
    peak = cores * factor
    return record(
        slug=slug,
        name=name,
        vendor="NVIDIA",
        family="GeForce",
        sources=sources,
        peaks={"fp16": peak, "bf16": peak},
        arithmetic={
            d: {"stated": cores, "factor": factor, "from": f"CUDA cores x 2 FLOP x 2 (tensor) x {boost_mhz} MHz"}
            for d in ("fp16", "bf16")
        },
        peak_basis="arithmetic",
        fp32_accumulate=True,
        exposed_why=GDDR_IS_BINARY,
        notes=f"No source read here states the tensor rate: the shader FP32 rate is {cores:,} CUDA cores x 2 FLOP x"
        f" {boost_mhz} MHz boost = {cores * 2 * boost_mhz / 1e6:.2f} TFLOP/s (the table's FP32 row, written with"
        f" decimal commas), and the tensor rate with FP32 accumulation is 2 x that, the GeForce rule the RTX 4090"
        f" and 3090 sheets show (module docstring). This is arithmetic. {_ACCUMULATE_NOTE}",
        **figures,
    )


DESKTOP_RECORDS: list[dict] = [
    _ampere_geforce(
        "rtx-3060-12gb",
        "NVIDIA GeForce RTX 3060 12GB",
        101,
        [
            {
                "title": "Techtaks, GeForce RTX 3060: NVIDIA finally details the specifications",
                "url": "https://techtaks.com/geforce-rtx-3060-nvidia-finally-details-the-specifications/",
                "secondary": True,
                "quote": "the RTX 3060 will deliver 13 shader-TFLOPs, 25 RT-TFLOPs in Ray Tracing and 101 tensor-TFLOPs"
                " dedicated to NVIDIA DLSS",
            },
            {
                "title": "Guru3D, GeForce RTX 40 Series specs table (RTX 4060 Ti, RTX 4060, RTX 3060 Ti, RTX 3060 columns)",
                "url": "https://www.guru3d.com/story/geforce-rtx-4060-ti-gpu-pictured/",
                "secondary": True,
                "quote": "RTX 4060 TiRTX 4060RTX 3060 TiRTX 3060\n...\nMemory 8 GB G6 8 GB G6 8 GB G6 12 GB G6\n"
                "Memory Bus 128-bit 128-bit 256-bit 192-bit\nMemory Bandwidth 288 GB/s 288 GB/s 448 GB/s 360 GB/s\n"
                "TDP 160W 115W 200W 170W",
            },
        ],
        bandwidth=(360, "GB/s"),
        capacity=(12, "GB"),
        memory_kind="GDDR6",
        link_kind="PCIe 4.0 x16 (no NVLink)",
        power_w=170,
    ),
    _arithmetic_geforce(
        "rtx-3060-ti",
        "NVIDIA GeForce RTX 3060 Ti",
        16.20,
        [
            _fpsbench(
                "GeForce RTX 3060 Ti",
                "amd-radeon-540-vs-nvidia-geforce-rtx-3060-ti",
                "GeForce RTX 3060 Ti ... Memory Size ... 8 GB ... Memory Type ... GDDR6 ... Bandwidth ... 448.0 GB/s"
                " ... FP32 (TFLOPS) ... 16.20 TFLOPS ... Tensor Cores ... 152 ... TDP ... 200 W",
            )
        ],
        bandwidth=(448.0, "GB/s"),
        capacity=(8, "GB"),
        memory_kind="GDDR6",
        link_kind="PCIe 4.0 x16 (no NVLink)",
        power_w=200,
    ),
    _ampere_geforce(
        "rtx-3070",
        "NVIDIA GeForce RTX 3070",
        163,
        [
            _AMPERE_LAUNCH,
            {
                "title": "Wine n Food, A breakdown of all RTX 3070 specifications",
                "url": "https://winenfood.com/a-breakdown-of-all-rtx-3070-specifications",
                "secondary": True,
                "quote": "Memory Size: 8 GB\n  • Memory Type: GDDR6\n  • Memory Interface: 256-bit\n"
                "  • Memory Bandwidth: 448 GB/s\n  • Tensor Cores: 3rd Generation\n  • RT Cores: 2nd Generation\n"
                "  • TDP (Total Graphics Power): 220 Watts",
            },
        ],
        bandwidth=(448, "GB/s"),
        capacity=(8, "GB"),
        memory_kind="GDDR6",
        link_kind="PCIe 4.0 x16 (no NVLink)",
        power_w=220,
    ),
    _ampere_geforce(
        "rtx-3080",
        "NVIDIA GeForce RTX 3080 10GB",
        238,
        [
            _AMPERE_LAUNCH,
            {
                "title": "TechPowerUp, NVIDIA GeForce Ampere architecture, board design (RTX 3080)",
                "url": "https://www.techpowerup.com/review/nvidia-geforce-ampere-architecture-board-design-gaming-tech-software/2.html",
                "secondary": True,
                "quote": "The chip features a 320-bit wide GDDR6X memory interface that drives 10 GB of memory at 19 Gbps,"
                " which works out to 760 GB/s memory bandwidth. NVIDIA rates the board power of the RTX 3080 at 320 W.",
            },
        ],
        bandwidth=(760, "GB/s"),
        capacity=(10, "GB"),
        memory_kind="GDDR6X",
        link_kind="PCIe 4.0 x16 (no NVLink)",
        power_w=320,
    ),
    _ampere_geforce(
        "rtx-3090-ti",
        "NVIDIA GeForce RTX 3090 Ti",
        320,
        [
            {
                "title": "Stealth Optional, RTX 3090 Ti power: how many teraflops",
                "url": "https://stealthoptional.com/how-to/rtx-3090-ti-power-teraflops-gigabytes/",
                "secondary": True,
                "quote": "the RTX 3090 has 36 teraflops of GPU performance, 35.6 shader teraflops, 69.5 RT teraflops, and"
                " 285 Tensor teraflops. The RTX 3090 Ti meanwhile, will come with 40 teraflops. Additionally, there are"
                " 40 shader teraflops, 78 RT teraflops, and 320 Tensor teraflops.",
            },
            {
                "title": "TweakTown, NVIDIA GeForce RTX 3090 Ti: full specs, price, performance details",
                "url": "https://www.tweaktown.com/news/84164/nvidia-geforce-rtx-3090-ti-full-specs-price-performance-details/index.html",
                "secondary": True,
                "quote": "24GB GDDR6X, gigantic 450W TDP ... capable of just over 1TB/sec of memory bandwidth (well,"
                " 1008GB/sec memory bandwidth to be specific).",
            },
        ],
        bandwidth=(1008, "GB/s"),
        capacity=(24, "GB"),
        memory_kind="GDDR6X",
        link_kind="NVLink bridge",
        power_w=450,
    ),
    _arithmetic_geforce(
        "rtx-4060",
        "NVIDIA GeForce RTX 4060",
        15.11,
        [
            _fpsbench(
                "GeForce RTX 4060",
                "nvidia-geforce-rtx-4060-vs-nvidia-t600",
                "NVIDIA GeForce RTX 4060 ... Memory Size ... 8 GB ... Memory Type ... GDDR6 ... Memory Bus ... 128 bit"
                " ... Bandwidth ... 272.0 GB/s ... FP32 (TFLOPS) ... 15.11 TFLOPS ... TDP ... 115 W",
            )
        ],
        bandwidth=(272.0, "GB/s"),
        capacity=(8, "GB"),
        memory_kind="GDDR6",
        link_kind="PCIe 4.0 x8 (no NVLink)",
        power_w=115,
    ),
    _arithmetic_geforce(
        "rtx-4060-ti-16gb",
        "NVIDIA GeForce RTX 4060 Ti 16GB",
        22.06,
        [
            {
                "title": "CPUtronic, NVIDIA GeForce RTX 4060 Ti 16 GB (TechPowerUp-derived figures)",
                "url": "https://cputronic.com/gpu/nvidia-geforce-rtx-4060-ti-16-gb",
                "secondary": True,
                "quote": "The 16GB of GDDR6 memory and a memory clock of 2250MHz ... With a TDP of 165W ... With a"
                " theoretical performance of 22.06 TFLOPS",
            },
            {
                "title": "The FPS Review, NVIDIA GeForce RTX 4060 Ti GPU family specifications",
                "url": "https://www.thefpsreview.com/?p=133840",
                "secondary": True,
                "quote": "Memory consists of 8GB of GDDR6 at 18GHz on a 128-bit memory bus. This provides 288GB/s of"
                " actual memory bandwidth.",
            },
        ],
        bandwidth=(288, "GB/s"),
        capacity=(16, "GB"),
        memory_kind="GDDR6",
        link_kind="PCIe 4.0 x8 (no NVLink)",
        power_w=165,
    ),
    _arithmetic_geforce(
        "rtx-4070",
        "NVIDIA GeForce RTX 4070",
        29.1,
        [_ADA_TABLE],
        bandwidth=(504, "GB/s"),
        capacity=(12, "GB"),
        memory_kind="GDDR6X",
        link_kind="PCIe 4.0 x16 (no NVLink)",
        power_w=200,
    ),
    _ada_from_cores(
        "rtx-4070-super",
        "NVIDIA GeForce RTX 4070 Super",
        7168,
        2475,
        [_ADA_SUPER_TABLE],
        bandwidth=(504, "GB/s"),
        capacity=(12, "GB"),
        memory_kind="GDDR6X",
        link_kind="PCIe 4.0 x16 (no NVLink)",
        power_w=220,
    ),
    _arithmetic_geforce(
        "rtx-4070-ti",
        "NVIDIA GeForce RTX 4070 Ti",
        40.1,
        [_ADA_TABLE],
        bandwidth=(504, "GB/s"),
        capacity=(12, "GB"),
        memory_kind="GDDR6X",
        link_kind="PCIe 4.0 x16 (no NVLink)",
        power_w=285,
    ),
    _ada_from_cores(
        "rtx-4070-ti-super",
        "NVIDIA GeForce RTX 4070 Ti Super",
        8448,
        2610,
        [_ADA_SUPER_TABLE],
        bandwidth=(672, "GB/s"),
        capacity=(16, "GB"),
        memory_kind="GDDR6X",
        link_kind="PCIe 4.0 x16 (no NVLink)",
        power_w=285,
    ),
    _arithmetic_geforce(
        "rtx-4080",
        "NVIDIA GeForce RTX 4080",
        48.7,
        [_ADA_TABLE],
        bandwidth=(717, "GB/s"),
        capacity=(16, "GB"),
        memory_kind="GDDR6X",
        link_kind="PCIe 4.0 x16 (no NVLink)",
        power_w=320,
    ),
    _ada_from_cores(
        "rtx-4080-super",
        "NVIDIA GeForce RTX 4080 Super",
        10240,
        2550,
        [_ADA_SUPER_TABLE],
        bandwidth=(736, "GB/s"),
        capacity=(16, "GB"),
        memory_kind="GDDR6X",
        link_kind="PCIe 4.0 x16 (no NVLink)",
        power_w=320,
    ),
    _arithmetic_geforce(
        "rtx-5060-ti-16gb",
        "NVIDIA GeForce RTX 5060 Ti 16GB",
        23.70,
        [
            {
                "title": "FPS Bench, GeForce RTX 5060 Ti 16 GB specifications (RTX 5060 Ti 16 GB column of a comparison;"
                " TechPowerUp-derived)",
                "url": "https://fpsbench.com/compare/gpu/amd-radeon-540-vs-nvidia-geforce-rtx-5060-ti-16-gb",
                "secondary": True,
                "quote": "GeForce RTX 5060 Ti 16 GB ... Memory Size 16 GB ... Memory Type GDDR7 ... Memory Bus 128 bit ..."
                " Bandwidth 448.0 GB/s ... FP32 (TFLOPS) 23.70 TFLOPS ... TDP 180 W ... Bus Interface PCIe 5.0 x8",
            }
        ],
        bandwidth=(448, "GB/s"),
        capacity=(16, "GB"),
        memory_kind="GDDR7",
        link_kind="PCIe 5.0 x8 (no NVLink)",
        power_w=180,
    ),
    _arithmetic_geforce(
        "rtx-5070",
        "NVIDIA GeForce RTX 5070",
        30.87,
        [
            {
                "title": "FPS Bench, GeForce RTX 5070 specifications (RTX 5070 column of a comparison; TechPowerUp-derived)",
                "url": "https://fpsbench.com/compare/gpu/intel-iris-xe-max-graphics-vs-nvidia-geforce-rtx-5070",
                "secondary": True,
                "quote": "GeForce RTX 5070 ... Memory Size 12 GB ... Memory Type GDDR7 ... Memory Bus 192 bit ..."
                " Bandwidth 672.0 GB/s ... FP32 (TFLOPS) 30.87 TFLOPS ... TDP 250 W",
            },
            _BLACKWELL_TABLE,
        ],
        bandwidth=(672, "GB/s"),
        capacity=(12, "GB"),
        memory_kind="GDDR7",
        link_kind="PCIe 5.0 x16 (no NVLink)",
        power_w=250,
    ),
    _blackwell_from_ai_tops(
        "rtx-5070-ti",
        "NVIDIA GeForce RTX 5070 Ti",
        1406,
        [
            _BLACKWELL_TABLE,
            {
                "title": "SMBOM, RTX 5070 Ti specifications (pre-launch report of a 300 W TGP)",
                "url": "https://www.smbom.com/news/14435",
                "secondary": True,
                "quote": "The RTX 5070 Ti is expected to have a 300W Total Graphics Power (TGP)",
            },
        ],
        bandwidth=(896, "GB/s"),
        capacity=(16, "GB"),
        memory_kind="GDDR7",
        link_kind="PCIe 5.0 x16 (no NVLink)",
        power_w=300,
    ),
    _blackwell_from_ai_tops(
        "rtx-5080",
        "NVIDIA GeForce RTX 5080",
        1801,
        [
            _BLACKWELL_TABLE,
            {
                "title": "RTX 5080 / GB203 deep dive (figures from NVIDIA's RTX Blackwell whitepaper)",
                "url": "https://www.brojogopalsapui.com/dark/ai-foundations/sub_contents/AI_hardware/rtx5080_deep_dive_opus_dark.html",
                "secondary": True,
                "quote": "Memory\n16 GBGDDR7 @ 30 Gbps\nBus / BW\n256-bit960 GB/s\n...\nTGP\n360W",
            },
        ],
        bandwidth=(960, "GB/s"),
        capacity=(16, "GB"),
        memory_kind="GDDR7",
        link_kind="PCIe 5.0 x16 (no NVLink)",
        power_w=360,
    ),
    record(
        slug="rtx-a6000",
        name="NVIDIA RTX A6000",
        vendor="NVIDIA",
        family="RTX workstation",
        sources=[
            {
                "title": "ServeTheHome, NVIDIA RTX A6000 48GB GPU (NVIDIA's specification table)",
                "url": "https://servethehome.com/nvidia-rtx-a6000-48gb-gpu-drops-quadro-designation",
                "secondary": True,
                "quote": "GPU Memory | 48 GB GDDR6 with ECC | |\nMemory Interface | 384-bit | |\nMemory Bandwidth |"
                " 768 GB/s | |\nMax Power Consumption | 300W | |\n...\nNVLink Interconnect | 112.5 GB/s (bidirectional) | |",
            },
            {
                "title": "LLMPerf, NVIDIA RTX A6000 key specifications (tensor rates from Microway's Ampere comparison)",
                "url": "https://llmperf.net/categories/gpu/Nvidia-A6000-GPUs",
                "secondary": True,
                "quote": "Mixed-Precision (FP16/BF16) 154.8 TFLOPS1 (FP16/BF16 Tensor compute) (In-Depth Comparison of"
                " NVIDIA \u201cAmpere\u201d GPU Accelerators - Microway)\nINT8 Performance 309.7 TOPS (INT8 tensor"
                " operations per second)",
            },
        ],
        peaks={"fp16": 154.8, "bf16": 154.8, "int8": 309.7},
        bandwidth=(768, "GB/s"),
        capacity=(48, "GB"),
        memory_kind="GDDR6",
        exposed_why=GDDR_IS_BINARY,
        link_kind="NVLink bridge",
        link=(112.5, "GB/s", "both directions (stated as bidirectional)"),
        power_w=300,
        notes="Dense FP16/BF16 tensor rate (309.7 with sparsity); workstation parts run FP32 accumulation at the full"
        " rate, so no accumulate convention applies. ECC, when switched on, takes a share of the 48 GB.",
    ),
    record(
        slug="rtx-6000-ada",
        name="NVIDIA RTX 6000 Ada Generation",
        vendor="NVIDIA",
        family="RTX workstation",
        sources=[
            {
                "title": "Hugging Face dataset ohdoking/gpu_spec (table view of nvidia_gpu.csv)",
                "url": "https://huggingface.co/datasets/ohdoking/gpu_spec",
                "secondary": True,
                "quote": "Manufacturer | Model | Memory (GB) | TDP (W) | CUDA Cores | FP32 TFLOPS | Architecture\n...\n"
                "NVIDIA | NVIDIA RTX 6000 Ada Generation | 48 | 300 | 18,176 | 91.1 | Ada Lovelace |",
            },
            {
                "title": "Grafikkarten.com, NVIDIA RTX 6000 Grafikkarte der Ada-Generation (spec table, German)",
                "url": "https://www.grafikkarten.com/de/news/nvidia-rtx-6000-grafikkarte-der-ada-generation",
                "secondary": True,
                "quote": "Speichermenge/-typ 48 GByte GDDR6X 24 GByte GDDR6X\nSpeicherinterface/-transferrate 384 Bit /"
                " 960 GByte/s 384 Bit / 1008 GByte/s\nStromverbrauch 300 Watt 450 Watt",
            },
        ],
        peaks={"fp16": 364.4, "bf16": 364.4},
        arithmetic={d: {"stated": 91.1, "factor": 4, "from": "FP32 shader TFLOP/s"} for d in ("fp16", "bf16")},
        peak_basis="arithmetic",
        bandwidth=(960, "GB/s"),
        capacity=(48, "GB"),
        memory_kind="GDDR6",
        exposed_why=GDDR_IS_BINARY,
        link_kind="PCIe 4.0 x16 (no NVLink)",
        power_w=300,
        notes="No source read here states the tensor rate: it is 4 x the 91.1 TFLOP/s shader rate, the workstation"
        " rule (full-rate FP32 accumulation; the RTX A6000's 154.8 is 4 x 38.7). The German table's 'GDDR6X' is"
        " an error of that page: the card uses GDDR6 with ECC.",
    ),
    record(
        slug="rtx-pro-6000",
        name="NVIDIA RTX PRO 6000 Blackwell Workstation Edition",
        vendor="NVIDIA",
        family="RTX workstation",
        sources=[
            {
                "title": "Hardware Corner, RTX 5090 vs RTX PRO 6000 spec comparison",
                "url": "https://hardware-corner.net/rtx-5090-vs-rtx-pro-6000-spec-comparison-20250321",
                "secondary": True,
                "quote": "The RTX Pro 6000 boasts an impressive 96GB of GDDR7 memory with error correction (ECC), running on"
                " a 512-bit bus that provides a massive 1,792 GB/s of memory bandwidth ... While the RTX 5090 is rated"
                " for 575W of board power, the Pro 6000 pushes this further to a full 600W",
            },
            {
                "title": "RTX PRO 6000 Blackwell variants (report of NVIDIA's GTC 2025 figures, Portuguese)",
                "url": "https://ferreiradozezere.net/entretenimento/a-mansao-na-qual-adele-viveu-nao-e-vendida-por-ser-assombrada/2388/",
                "secondary": True,
                "quote": "a NVIDIA liste até 125 tflops de computação FP32 através dos shaders e 4000 tops a partir dos"
                " núcleos de tração",
            },
        ],
        peaks={"fp16": 500, "bf16": 500, "fp4": 2000},
        halved_from_sparse=("fp4",),
        arithmetic={d: {"stated": 4000, "factor": 1 / 8, "from": "AI TOPS (FP4, sparse)"} for d in ("fp16", "bf16")},
        peak_basis="arithmetic",
        bandwidth=(1792, "GB/s"),
        capacity=(96, "GB"),
        memory_kind="GDDR7",
        exposed_why=GDDR_IS_BINARY,
        link_kind="PCIe 5.0 x16 (no NVLink)",
        power_w=600,
        notes="4,000 AI TOPS is FP4 with sparsity (dense FP4 2,000). The 16-bit peak is an eighth of it (dense, FP8,"
        " FP16), with FP32 accumulation at the full rate on workstation parts; it agrees with 4 x the 125 TFLOP/s"
        " shader rate, the workstation rule.",
    ),
    record(
        slug="rx-7900-xtx",
        name="AMD Radeon RX 7900 XTX",
        vendor="AMD",
        family="Radeon",
        sources=[
            {
                "title": "Tom's Hardware (via bloglaralemi), AMD Radeon RX 7900 series deep dive, spec table",
                "url": "https://bloglaralemi.com/2022/11/14/amd-radeon-rx-7900-collection-deep-dive/",
                "secondary": True,
                "quote": "Graphics Card RX 7900 XTX RX 7900 XT RX 6950 XT\n...\nVRAM (GB) 24 20 16\n...\nTFLOPS FP32"
                " (Enhance) 61.4 51.6 23.7\nTFLOPS FP16 (FP8) 123 103 47.4\nBandwidth (GBps) 960 800 576\nTDP (watts)"
                " 355 300 335",
            }
        ],
        peaks={"fp16": 123, "bf16": 123},
        bandwidth=(960, "GB/s"),
        capacity=(24, "GB"),
        memory_kind="GDDR6",
        exposed_why=GDDR_IS_BINARY,
        link_kind="PCIe 4.0 x16",
        power_w=355,
        notes="The table's 123 TFLOP/s FP16 (AMD's figure, rounded) counts RDNA 3's dual-issue WMMA matrix"
        " instructions at the boost clock; BF16 runs at the same WMMA rate. Sustained matrix throughput sits well below it, so the"
        " compute roof is the least sure number of this card; decode is bounded by the 960 GB/s.",
    ),
    record(
        slug="rx-7900-xt",
        name="AMD Radeon RX 7900 XT",
        vendor="AMD",
        family="Radeon",
        sources=[
            {
                "title": "Tom's Hardware (via bloglaralemi), AMD Radeon RX 7900 series deep dive, spec table",
                "url": "https://bloglaralemi.com/2022/11/14/amd-radeon-rx-7900-collection-deep-dive/",
                "secondary": True,
                "quote": "Graphics Card RX 7900 XTX RX 7900 XT RX 6950 XT\n...\nVRAM (GB) 24 20 16\n...\nTFLOPS FP32"
                " (Enhance) 61.4 51.6 23.7\nTFLOPS FP16 (FP8) 123 103 47.4\nBandwidth (GBps) 960 800 576\nTDP (watts)"
                " 355 300 335",
            }
        ],
        peaks={"fp16": 103, "bf16": 103},
        bandwidth=(800, "GB/s"),
        capacity=(20, "GB"),
        memory_kind="GDDR6",
        exposed_why=GDDR_IS_BINARY,
        link_kind="PCIe 4.0 x16",
        power_w=300,
        notes="The table's 103 TFLOP/s FP16 counts RDNA 3's dual-issue WMMA instructions at the boost clock, as for"
        " the RX 7900 XTX; BF16 runs at the same rate. The table gives 300 W; AMD's own board-power figure for"
        " the reference card is higher (315 W, not quoted here). Decode is bounded by the 800 GB/s.",
    ),
    record(
        slug="rx-9070-xt",
        name="AMD Radeon RX 9070 XT",
        vendor="AMD",
        family="Radeon",
        sources=[
            {
                "title": "HMC Tech GPU database, AMD Radeon RX 9070 XT vs AMD Radeon RX 7900 XTX",
                "url": "https://hmc-tech.com/gpu/amd-radeon-rx-9070-xt-vs-amd-radeon-rx-7900-xtx",
                "secondary": True,
                "quote": "| 4096 Shaders 16GB GDDR6 2970MHz | 6144 Shaders 24GB GDDR6 2500MHz |\n...\n"
                "| FP32 48.66 TFLOPS | FP32 61.44 TFLOPS |\n| FP16 97.32 TFLOPS | FP16 122.88 TFLOPS |\n...\n"
                "| TDP 304W | TDP 355W |",
            },
            {
                "title": "AZ Hot Deal, Exploring AMD's Radeon RX 9070 series specifications (after VideoCardz)",
                "url": "https://azhotdeal.com/exploring-amds-radeon-rx-9070-series-specifications/",
                "secondary": True,
                "quote": "Both models share identical memory configurations: 16 GB of GDDR6 memory that operates at 20 Gbps"
                " on a 256-bit bus, resulting in an impressive 640 GB/s bandwidth.",
            },
        ],
        peaks={"fp16": 97.32, "bf16": 97.32},
        bandwidth=(640, "GB/s"),
        capacity=(16, "GB"),
        memory_kind="GDDR6",
        exposed_why=GDDR_IS_BINARY,
        link_kind="PCIe 5.0 x16",
        power_w=304,
        notes="97.32 TFLOP/s is the database's FP16 figure, twice the FP32 shader rate (4,096 shaders, dual issue,"
        " 2,970 MHz boost); RDNA 4's WMMA matrix instructions are reported to run FP16 at twice that again, a"
        " figure no source read here states, so the compute roof is a floor. BF16 is taken at the FP16 rate."
        " Decode is bounded by the 640 GB/s.",
    ),
    record(
        slug="radeon-pro-w7900",
        name="AMD Radeon PRO W7900",
        vendor="AMD",
        family="Radeon PRO",
        sources=[
            {
                "title": "IT Creations, AMD Radeon PRO W7900 GPU",
                "url": "https://www.itcreations.com/amd-gpu/amd-radeon-pro-w7900-gpu",
                "secondary": True,
                "quote": "It houses 96x Ray Accelerators, 192x AI Accelerators, 6144x Stream Processors, and 96x Compute"
                " Units. The memory capacity on the AMD Radeon W7900 GPU is 48GB of GDDR6 of memory. The bandwidth on"
                " this card delivers a blazing fast speed of 864 GB/s and a memory interface of 384-bit. ... With a"
                " thermal design point (TDP) of 295W",
            },
            {
                "title": "Hugging Face hardware page, AMD PRO W7900",
                "url": "https://huggingface.co/hardware/pro-w7900",
                "secondary": True,
                "quote": "PRO W7900\n\nAMD GPU\n...\nMemory\n48GB\nTFLOPS\n122.6\nPower\n295W",
            },
        ],
        peaks={"fp16": 122.6, "bf16": 122.6},
        bandwidth=(864, "GB/s"),
        capacity=(48, "GB"),
        memory_kind="GDDR6",
        exposed_why=GDDR_IS_BINARY,
        link_kind="PCIe 4.0 x16",
        power_w=295,
        notes="The Hugging Face page does not name the precision of its 122.6 TFLOPS; it is the FP16 (WMMA) rate,"
        " counted as the RX 7900 XTX's 123 is (the same 96-CU Navi 31 at a lower clock; the FP32 shader rate is"
        " half of it). The least sure figure of this card; decode is bounded by the 864 GB/s.",
    ),
    record(
        slug="arc-b580",
        name="Intel Arc B580",
        vendor="Intel",
        family="Arc",
        sources=[
            {
                "title": "FPS Bench, Intel Arc B580 specifications (B580 column of a comparison; TechPowerUp-derived)",
                "url": "https://fpsbench.com/compare/gpu/intel-arc-b580-vs-intel-hd-graphics-p4600",
                "secondary": True,
                "quote": "Intel Arc B580 ... Memory Size 12 GB ... Memory Type GDDR6 ... Memory Bus 192 bit ..."
                " Bandwidth 456.0 GB/s ... XMX Cores 160 ... TDP 190 W",
            },
            {
                "title": "HMC Tech, Intel Arc B580 vs Intel Arc A580",
                "url": "https://hmc-tech.com/gpu/intel-arc-b580-vs-intel-arc-a580",
                "secondary": True,
                "quote": "| Peak AI Performance 437.45 TOPS INT4 Tensor | Peak AI Performance 393.22 TOPS INT4 Tensor |",
            },
        ],
        peaks={"fp16": 437.45 / 4, "bf16": 437.45 / 4, "int8": 437.45 / 2},
        arithmetic={
            "fp16": {"stated": 437.45, "factor": 1 / 4, "from": "INT4 XMX TOPS"},
            "bf16": {"stated": 437.45, "factor": 1 / 4, "from": "INT4 XMX TOPS"},
            "int8": {"stated": 437.45, "factor": 1 / 2, "from": "INT4 XMX TOPS"},
        },
        peak_basis="arithmetic",
        bandwidth=(456, "GB/s"),
        capacity=(12, "GB"),
        memory_kind="GDDR6",
        exposed_why=GDDR_IS_BINARY,
        link_kind="PCIe 4.0 x8",
        power_w=190,
        notes="XMX engines run INT8 at half the INT4 rate and FP16/BF16 at half the INT8 rate; Intel's own sheet"
        " was not read here.",
    ),
    record(
        slug="arc-a770",
        name="Intel Arc A770 16GB",
        vendor="Intel",
        family="Arc",
        sources=[
            {
                "title": "Svět hardware, Intel zveřejnil oficiální specifikace grafických karet Arc (Czech)",
                "url": "https://www.svethardware.cz/intel-zverejnil-oficialni-specifikace-grafickych-karet-arc/58344",
                "secondary": True,
                "quote": "Arc A770 bude na plnohodnotném čipu s 32 Xe-Core, 32 RT jednotkami a 512 XMX. Zvýší se i takt na"
                " 2100 MHz ... Spotřeba zůstává na 225 W, nicméně vyšší frekvence 256bitových pamětí zvýší propustnost"
                " na 560 GB/s. Zatímco výrobci budou obvykle dělat 8GB varianty, ta přímo od Intelu má mít kapacitu 16 GB.",
            },
            {
                "title": "Hacker News comment on XMX matrix rates (mirror)",
                "url": "https://ser1.dastresanart.com/item?id=38677545",
                "secondary": True,
                "quote": "Intel Xe-HPG (used in the Arc A cards) also offers very aggressive matrix acceleration via XMX,"
                " with 137.6 FP16 TFlops at base clock, vs. 17.2 FP32 TFlops.",
            },
        ],
        peaks={"fp16": 137.6, "bf16": 137.6},
        peak_basis="arithmetic",
        bandwidth=(560, "GB/s"),
        capacity=(16, "GB"),
        memory_kind="GDDR6",
        exposed_why=GDDR_IS_BINARY,
        link_kind="PCIe 4.0 x16",
        power_w=225,
        notes="137.6 TFLOP/s is arithmetic from the unit counts: 512 XMX engines x 128 FP16 FLOP per clock x"
        " 2.1 GHz; no Intel FP16 matrix figure was read here.",
    ),
]
