"""Unified-memory APUs other than Apple's: AMD's Ryzen AI Max (Strix Halo), each figure quoted.

AMD states the Radeon 8060S's compute units and clock but no FP16 FLOP/s for it, so the peak is
shader arithmetic at one fused multiply-add per stream processor per clock, the FP32 rate. RDNA
3.5 can issue two such operations at once and has FP16 matrix (WMMA) instructions, so kernels may
exceed this figure; decode, bounded by the 256 GB/s of memory, does not depend on it.

The GPU's share of the 128 GB is what AMD's Variable Graphics Memory dedicates to it (96 GB at
most, AMD says): the fit verdict uses that share.
"""

from __future__ import annotations

from roofline_core.hardware.capacity_reasons import LPDDR_IS_BINARY

_AMD_VGM = {
    "title": "AMD, FAQs: AMD Variable Graphics Memory, VRAM, AI Model Sizes, Quantization, MCP and More! (29 July 2025)",
    "url": "https://www.amd.com/en/blogs/2025/faqs-amd-variable-graphics-memory-vram-ai-model-sizes-quantization-mcp-more.html",
    "secondary": False,
    "quote": (
        "The AMD Ryzen™ AI Max+ 395 (128GB) processor with 96GB of Variable Graphics Memory offers an "
        "incredibly versatile way to solve this problem.\n...\nThis article will explore a key capability of "
        "AMD Ryzen™ AI Max+ systems to convert system RAM into discrete graphics memory"
    ),
}

APU_RECORDS: list[dict] = [
    {
        "slug": "ryzen-ai-max-395",
        "vendor": "AMD",
        "family": "Strix Halo",
        "name": "AMD Ryzen AI Max+ 395 (Radeon 8060S)",
        "sources": [
            _AMD_VGM,
            {
                "title": "Svět hardware, AMD představuje Ryzen AI Max (Strix Halo) s až 16 jádry a GPU se 40 CU",
                "url": "https://www.svethardware.cz/amd-predstavuje-ryzen-ai-max-strix-halo-s-az-16-jadry-a-gpu-se-40-cu/61477",
                "secondary": True,
                "quote": (
                    "V takovém případě mluvíme o vlajkové lodi Ryzen AI Max+ 395. Vedle toho tu najdeme GPU Radeon "
                    "8060S s architekturou RDNA 3.5, které má 40 CU, což je více než desktopové Radeony RX 7600 (ty "
                    "mají jen 32 CU). GPU běží na velmi vysoké frekvenci 2900 MHz.\n...\nVýchozí TDP činí 55 W, "
                    "konfigurovatelná je mezi 45 až 120 W.\n...\nVyužívat lze paměti LPDDR5x-8000, nicméně aby GPU "
                    "nebylo příliš škrceno pomalými pamětmi, je zde 256bitové rozhraní místo 128bitového. Díky tomu "
                    "činí paměťová propustnost 256 GB/s."
                ),
            },
            {
                "title": "SMMAVE, AMD spinge al massimo il suo Ryzen AI Max 300",
                "url": "https://smmave.it/hardware/amd-spinge-al-massimo-il-suo-ryzen-ai-max-300-potenza-e-ai-al-top/",
                "secondary": True,
                "quote": (
                    "Inoltre, la CPU allocherà fino a 96 GB di memoria per la GPU, utile per applicazioni AI che "
                    "richiedono molta memoria.\n...\n- Ryzen AI Max+ 395: 16 core Zen 5 e GPU RDNA 3.5 con 2560 "
                    "stream processor"
                ),
            },
        ],
        "dense_peak_tera_per_s": {},
        "dense_halved_from_sparse": [],
        "peak_basis": "arithmetic",
        "peak_arithmetic": {
            "cores": 40,
            "cores_what": "compute units",
            "units_per_core": 64,
            "units_what": "stream processors",
            "flop_per_clock_per_unit": 2,
            "clock_ghz": 2.9,
            "dtypes": ["fp16"],
        },
        "memory_bandwidth": {"value": 256, "unit": "GB/s"},
        "memory_capacity": {"value": 128, "unit": "GB"},
        "memory_exposed": {"value": 128, "unit": "GiB", "why": LPDDR_IS_BINARY},
        "gpu_memory": {
            "scheme": "stated-allocation",
            "value": 96,
            "unit": "GiB",
            "how_to_raise": (
                "AMD Variable Graphics Memory sets it, converting system RAM into graphics memory; AMD "
                "names 96 GB of a 128 GB system"
            ),
        },
        "interconnect": {"kind": "none (single package)", "value": None, "unit": None, "direction": None},
        "board_power_w": 120,
        "measured": False,
        "secondary_only": False,
        "complete": False,
        "missing": ["interconnect bandwidth"],
        "notes": (
            "Peak: 40 compute units x 64 stream processors (2,560) x 2 FLOP (one FMA) x 2.9 GHz = 14.8 TFLOP/s, "
            "the FP32 rate; AMD states no FP16 figure, and dual issue or WMMA kernels may reach more. 256 GB/s is "
            "LPDDR5X-8000 on a 256-bit bus (8,000 MT/s x 32 bytes). Power: the top of the 45-120 W configurable "
            "TDP (55 W by default). Memory options up to 128 GB; the preset holds 128 with 96 for the GPU."
        ),
    },
]
