"""Datacenter and desk-side parts added after the first set: A100 PCIe 80GB and DGX Spark (GB10).

Figures are quoted as in :mod:`roofline_core.hardware.presets_desktop`; the GB10's 16-bit peak is
arithmetic from NVIDIA's FP4 figure by the same rule as the Blackwell GeForce parts, since its
Blackwell SM is the GeForce one (6,144 CUDA cores, like the RTX 5070).
"""

from __future__ import annotations

from roofline_core.hardware.capacity_reasons import HBM_IS_BINARY, LPDDR_IS_BINARY
from roofline_core.hardware.records import record

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
        " 128 GB is shared with the CPU; 140 W is the GB10 package, the box's supply is larger.",
    ),
]
