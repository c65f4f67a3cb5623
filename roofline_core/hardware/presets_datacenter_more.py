"""Datacenter, desk-side and edge parts added after the first set: A100 PCIe 80GB, DGX Spark (GB10),
AMD Instinct MI355X, Intel Data Center GPU Max 1100 and NVIDIA Jetson AGX Orin 64GB.

Figures are quoted as in :mod:`roofline_core.hardware.presets_desktop`; the GB10's 16-bit peak is
arithmetic from NVIDIA's FP4 figure by the same rule as the Blackwell GeForce parts, since its
Blackwell SM is the GeForce one (6,144 CUDA cores, like the RTX 5070). The Jetson's 16-bit peak
is arithmetic from its GPU's sparse INT8 figure, and the Max 1100's from its matrix engines'
width and clock: neither maker's sheet read here states a dense 16-bit rate.
"""

from __future__ import annotations

from roofline_core.hardware.capacity_reasons import HBM_IS_BINARY, LPDDR_IS_BINARY
from roofline_core.hardware.records import record

#: What a DGX Spark leaves to its GPU: Linux and its page cache share the 128 GB, and no BIOS setting
#: splits it. A measurement after dropping the page cache, and the usual advice, are the sources.
DGX_SPARK_GPU_MEMORY = {
    "scheme": "measured-available",
    "value": 117,
    "unit": "GiB",
    "how_to_raise": (
        "No firmware split: the GPU takes what Linux leaves. Drop the page cache before loading "
        "(sudo sh -c 'sync; echo 3 > /proc/sys/vm/drop_caches') and keep an engine's memory "
        "fraction (vLLM --gpu-memory-utilization) at 0.85-0.90"
    ),
}

_DGX_SPARK_MEMORY_SOURCES = [
    {
        "title": "Hugging Face discussion on nvidia/GLM-5.3-Flash-FP4-Local: two DGX Sparks, free memory after the"
        " weights load (a measured start)",
        "url": "https://huggingface.co/nvidia/GLM-5.3-Flash-FP4-Local/discussions/7",
        "secondary": True,
        "quote": "On two GB10 machines (128 GB each, the DGX Spark design)\n...\nThe page cache was dropped before each"
        " start, leaving about 117 GiB available.",
    },
    {
        "title": "Conselara notes, DGX Spark GB10 hardware reference: memory architecture",
        "url": "https://conselara.dev/notes/dgx-spark-gb10-hardware-reference/",
        "secondary": True,
        "quote": "The 128 GB LPDDR5X pool is shared between CPU and GPU. There is no separate VRAM.\n...\n- Never set"
        " --gpu-memory-utilization above 0.90. In practice, 0.85–0.87 is the safe range.\n...\n- If you hit OOM at"
        " container startup, drop the page cache first:\nsudo sh -c 'sync; echo 3 > /proc/sys/vm/drop_caches'",
    },
]

DATACENTER_MORE_RECORDS: list[dict] = [
    record(
        slug="a100-pcie-80gb",
        name="NVIDIA A100 PCIe 80GB",
        vendor="NVIDIA",
        family="Ampere",
        sources=[
            {
                "title": "Thunder Compute, NVIDIA A100 specs: full guide (table of the four A100 variants)",
                "url": "https://www.thundercompute.com/blog/nvidia-a100-specs-full-guide",
                "secondary": True,
                "quote": "| Specification | A100 PCIe 40GB | A100 PCIe 80GB | A100 SXM 40GB | A100 SXM 80GB |\n...\n"
                "| A100 VRAM | 40GB HBM2 | 80GB HBM2e | 40GB HBM2 | 80GB HBM2e |\n| Memory Bandwidth | 1,555GB/s |"
                " 1,935GB/s | 1,555GB/s | 2,039GB/s |\n...\n| TDP | 250 W | 300 W | 400 W |",
            },
            {
                "title": "Glenn K. Lockwood, A100 (processor notes; theoretical peaks from NVIDIA's A100 datasheet)",
                "url": "https://glennklockwood.com/garden/processors/A100",
                "secondary": True,
                "quote": "Data Type | Vector | Matrix | Sparse |\n...\nTF32 | 156 | 312 | |\nFP16 | 312 | 624 | |\n"
                "BF16 | 312 | 624 | |\n...\nINT8 | 624 | 1248 | |",
            },
        ],
        peaks={"fp16": 312, "bf16": 312, "int8": 624},
        bandwidth=(1935, "GB/s"),
        capacity=(80, "GB"),
        memory_kind="HBM2e",
        exposed_why=HBM_IS_BINARY,
        link_kind="NVLink bridge",
        power_w=300,
        notes="Same GA100 rates as the SXM parts (dense 312 FP16/BF16, 624 with sparsity); the PCIe card has lower"
        " bandwidth (1,935 GB/s) and a 300 W limit. The table's TDP row has three cells for four columns: 250 W"
        " (PCIe 40GB), 300 W (PCIe 80GB), 400 W (both SXM parts). NVLink bridge bandwidth was not in the excerpts read.",
    ),
    record(
        slug="dgx-spark",
        name="NVIDIA DGX Spark (GB10)",
        vendor="NVIDIA",
        family="DGX Spark",
        sources=[
            {
                "title": "AI Infrastructure notes, NVIDIA DGX Spark (GB10 desktop AI), figures checked against NVIDIA's"
                " product page and hardware guide",
                "url": "https://ai-infrastructure.net/dgx-spark/",
                "secondary": True,
                "quote": "It delivers up to 1 PFLOP of FP4 (with sparsity) / up to 1,000 TOPS ... GB10 Grace Blackwell"
                " Superchip (~140 W TDP) ... 128 GB LPDDR5x unified, 273 GB/s (ATS)",
            },
            {
                "title": "Meterpreter, NVIDIA unveils the DGX Spark AI superchip (Hot Chips 2025 report)",
                "url": "https://meterpreter.org/a-supercomputer-on-your-desk-nvidia-unveils-the-dgx-spark-ai-superchip",
                "secondary": True,
                "quote": "the GPU die can deliver up to 1 petaFLOP of FP4 compute (with sparsity) or roughly 31 TFLOPS in"
                " FP32 ... 140W TDP ... 128 GB of LPDDR5x ... providing 273–301 GB/s of bandwidth.",
            },
        ],
        peaks={"fp16": 1000 / 16, "bf16": 1000 / 16, "fp4": 500},
        halved_from_sparse=("fp4",),
        arithmetic={d: {"stated": 1000, "factor": 1 / 16, "from": "TOPS (FP4, sparse)"} for d in ("fp16", "bf16")},
        peak_basis="arithmetic",
        fp32_accumulate=True,
        bandwidth=(273, "GB/s"),
        capacity=(128, "GB"),
        memory_kind="LPDDR5x",
        exposed_why=LPDDR_IS_BINARY,
        link_kind="ConnectX-7 200GbE x2",
        power_w=140,
        notes="1,000 TOPS is FP4 with sparsity (dense FP4 500). The 16-bit peak is a sixteenth of it, the Blackwell"
        " GeForce rule (FP32 accumulation at half rate), and agrees with 2 x the ~31 TFLOP/s FP32 figure. The"
        " 128 GB is shared with the CPU; 140 W is the GB10 package, the box's supply is larger. What the GPU can"
        " use is what Linux leaves: about 117 GiB measured after dropping the page cache.",
    ),
    {
        "slug": "max-1100",
        "vendor": "Intel",
        "family": "Data Center GPU Max",
        "name": "Intel Data Center GPU Max 1100",
        "sources": [
            {
                "title": "Geektopia, Intel will not launch the Max 1350 and focuses on a new Max 1450 (after Tom's Hardware)",
                "url": "https://geektopia.es/es/technology/2023/04/11/noticias/intel-no-lanzara-la-max-1350-para-centros-de-datos-y-se-centrara-en-una-nueva-max-1450.html",
                "secondary": True,
                "quote": "además de que llegará la Max 1100 (56 núcleos Xe o 7168 sombreadores, 48 GB de VRAM y 300 W de"
                " TDP) para el mercado global.",
            },
            {
                "title": "TopCPU, Intel Data Center GPU Max 1100 vs NVIDIA Tesla M4 (specification table)",
                "url": "https://www.topcpu.net/en/gpu-c/data-center-gpu-max-1100-vs-tesla-m4",
                "secondary": True,
                "quote": "Boost Clock has increased by 45% (1550MHz vs 1072MHz)\nMore VRAM (48GB vs 4GB)\nLarger VRAM"
                " bandwidth (1229GB/s vs 88.00GB/s)\n...\n48GB\nMemory Size\n4GB\nHBM2e\nMemory Type\n...\n7168\n"
                "Shading Units\n1024\n448\nTMUs\n64\n0\nROPs\n32\n448\nTensor Cores\n...\n300W\nTDP",
            },
            {
                "title": "Glenn K. Lockwood, Ponte Vecchio (processor notes): SKUs and the Xe core",
                "url": "https://glennklockwood.com/garden/processors/pvc",
                "secondary": True,
                "quote": "- Intel Data Center GPU Max 1100 (56 Xe Cores)\n...\n- 1 core = 8 vector engine + 8 matrix"
                " engines\n- 1 vector engine = 512 bits\n- 1 matrix engine = 4096 bits",
            },
        ],
        "dense_peak_tera_per_s": {},
        "dense_halved_from_sparse": [],
        "peak_basis": "arithmetic",
        "peak_arithmetic": {
            "cores": 56,
            "cores_what": "Xe cores",
            "units_per_core": 8,
            "units_what": "XMX matrix engines",
            "flop_per_clock_per_unit": 512,
            "clock_ghz": 1.55,
            "dtypes": ["fp16", "bf16"],
        },
        "memory_bandwidth": {"value": 1229, "unit": "GB/s"},
        "memory_capacity": {"value": 48, "unit": "GB"},
        "memory_exposed": {"value": 48, "unit": "GiB", "why": HBM_IS_BINARY},
        "memory_kind": "HBM2e",
        "interconnect": {"kind": "Xe Link", "value": None, "unit": None, "direction": None},
        "board_power_w": 300,
        "measured": False,
        "secondary_only": True,
        "complete": False,
        "missing": ["interconnect bandwidth"],
        "notes": "Peak: 56 Xe cores x 8 XMX matrix engines (448) x 512 FLOP per clock x 1.55 GHz = 356 TFLOP/s FP16"
        " and BF16. 512 FLOP per clock per engine is the 4,096-bit engine's width over 16-bit operands (256 lanes)"
        " times 2 for the multiply-add, assuming one engine operation per clock; no Intel sheet read states a 16-bit"
        " rate for the Max 1100, so this is the least sure peak here. 1,229 GB/s is the database's rounding"
        " of 1,228.8 (HBM2e on an 8,192-bit bus). Xe Link bandwidth was not in the excerpts read.",
    },
    record(
        slug="jetson-orin-64gb",
        name="NVIDIA Jetson AGX Orin 64GB",
        vendor="NVIDIA",
        family="Jetson",
        sources=[
            {
                "title": "Seeed Studio wiki, reComputer Classic J501 (Japanese): Jetson AGX Orin module specifications",
                "url": "https://github.com/Seeed-Studio/wiki-documents",
                "secondary": True,
                "quote": "| Module        | NVIDIA Jetson AGX Orin 32GB                           | NVIDIA Jetson AGX Orin"
                " 64GB                            |\n| AI Performance | 200 TOPS (INT8)                                      |"
                " 275 TOPS (INT8)                                        |\n| GPU           | 1792-core NVIDIA Ampere, 56"
                " Tensor Cores              | 2048-core NVIDIA Ampere, 64 Tensor Cores               |\n...\n| Memory"
                "        | 32GB 256-bit LPDDR5 @ 204.8 GB/s                      | 64GB 256-bit LPDDR5 @ 204.8 GB/s"
                "                       |",
            },
            {
                "title": "MZPH, notes on NVIDIA's Jetson AGX Orin series technical brief (GPU section)",
                "url": "https://mzph.cn/web/30785.shtml",
                "secondary": True,
                "quote": "GPU由两个GPC组成,共计16个SM单元,192KB L1 Cache和4MB L2 Cache。每个SM具备128个CUDA核(共计2048个-5.3 FP32"
                " TFLOPs)和4个第三代Tensor核(共计64个-170 sparse TOPs INT8)。",
            },
            {
                "title": "NVIDIA Developer Forums, What is the max power consumption of the Orin AGX 64GB? (quoting the"
                " module data sheet)",
                "url": "https://forums.developer.nvidia.com/t/what-is-the-max-power-consumption-of-the-orin-agx-64gb/324194",
                "secondary": True,
                "quote": "However, page 7 of the same datasheet states “JAO 64GB Maximum Module Power: Up to 60W”",
            },
        ],
        peaks={"fp16": 170 / 4, "bf16": 170 / 4, "int8": 85},
        halved_from_sparse=("int8",),
        arithmetic={d: {"stated": 170, "factor": 1 / 4, "from": "TOPS (GPU INT8, sparse)"} for d in ("fp16", "bf16")},
        peak_basis="arithmetic",
        bandwidth=(204.8, "GB/s"),
        capacity=(64, "GB"),
        memory_kind="LPDDR5",
        exposed_why=LPDDR_IS_BINARY,
        link_kind="none (single module)",
        power_w=60,
        notes="The GPU's 170 TOPS is INT8 with sparsity (the module's 275 adds the two DLAs): dense INT8 is 85, and the"
        " Ampere tensor cores run FP16 and BF16 at half the INT8 rate, so the 16-bit peak is 170 / 4 = 42.5 TFLOP/s"
        " (FP32 accumulation at full rate on this GPU). 204.8 GB/s is LPDDR5 on a 256-bit bus, shared with the 12"
        " CPU cores; no GPU-usable share was found, so the fit verdict uses all 64 GB. Power: the module's 15-60 W"
        " range at its top.",
    ),
]

# The GB10's GPU-usable memory and the sources for it (the record above predates them).
_DGX_SPARK = next(r for r in DATACENTER_MORE_RECORDS if r["slug"] == "dgx-spark")
_DGX_SPARK["sources"] += _DGX_SPARK_MEMORY_SOURCES
_DGX_SPARK["gpu_memory"] = DGX_SPARK_GPU_MEMORY
