"""CPU presets for llama.cpp-style inference: server and desktop processors, each figure quoted.

A CPU's memory bandwidth is its channels x 8 bytes (a 64-bit DDR5 channel) x the transfer rate;
where a source states the product it is quoted, otherwise the record computes it from the quoted
channel count and speed (``memory_arithmetic``). Capacity is a configuration, not a property of
the chip: each preset holds one 64 GB module per channel, written the same way.

Peaks are arithmetic from quoted inputs: cores x the per-core rate of the matrix or vector unit x
the clock. Intel states AMX's rate per core (1,024 BF16 operations per cycle); the clock is the
all-core base, a floor, since AMX clocks vary with load. For a desktop Zen 5 part, the quoted
AVX-512 rate of 16 FP32 multiply-adds per cycle gives a floor too: decode is bounded by bandwidth.
"""

from __future__ import annotations

from roofline_core.hardware.capacity_reasons import DDR_IS_BINARY

_NO_LINK = {"kind": "none (CPU socket)", "value": None, "unit": None, "direction": None}

#: One DDR5 channel is 64 bits wide: 8 bytes per transfer.
DDR5_CHANNEL_BYTES = 8
#: The module each preset assumes per channel, in GB.
MODULE_GB = 64

_STH_RDIMM = {
    "title": "ServeTheHome, Welcome Back Intel Xeon 6900P Reasserts Intel Server Leadership: memory subsystem",
    "url": "https://www.servethehome.com/welcome-back-intel-xeon-6900p-reasserts-intel-server-leadership/2/",
    "secondary": True,
    "quote": (
        "First off, let us talk about DDR5-6400. This is what a DDR5-6400 64GB RDIMM looks like on the front.\n...\n"
        "As a result, the MRDIMMs are able to achieve 8800MT/s transfer rates up from 6400MT/s."
    ),
}

_AMX = {
    "title": "Advanced Matrix Extensions (Wikipedia article, as mirrored), tile matrix multiply unit",
    "url": "https://artikel.siakadpt.com/en/Advanced_Matrix_Extensions",
    "secondary": True,
    "quote": (
        "Both extensions are available in the Granite Rapids set of server processors\n...\n"
        "4th Gen Intel Xeon Scalable processor can perform 2048 INT8 or 1024 BF16 operations per cycle"
    ),
}


def _memory(channels: int, mega_transfers_per_s: int | None, bandwidth_gb_s: float | None) -> dict:
    """Bandwidth (quoted, or channels x 8 bytes x MT/s) and capacity (channels x one module)."""
    bandwidth = bandwidth_gb_s
    if bandwidth is None:
        bandwidth = channels * DDR5_CHANNEL_BYTES * mega_transfers_per_s / 1000
    capacity = channels * MODULE_GB
    return {
        "memory_arithmetic": {
            "channels": channels,
            "mega_transfers_per_s": mega_transfers_per_s,
            "bytes_per_transfer": DDR5_CHANNEL_BYTES,
            "module_gb": MODULE_GB,
            "bandwidth_computed": bandwidth_gb_s is None,
        },
        "memory_bandwidth": {"value": bandwidth, "unit": "GB/s"},
        "memory_capacity": {"value": capacity, "unit": "GB"},
        "memory_exposed": {"value": capacity, "unit": "GiB", "why": DDR_IS_BINARY},
    }


def _cpu(
    *,
    slug: str,
    vendor: str,
    family: str,
    name: str,
    sources: list[dict],
    arithmetic: dict,
    memory: dict,
    power_w: float | None,
    notes: str,
) -> dict:
    missing = ["interconnect bandwidth", *([] if power_w is not None else ["board_power_w"])]
    return {
        "slug": slug,
        "vendor": vendor,
        "family": family,
        "kind": "cpu",
        "name": name,
        "sources": sources,
        "dense_peak_tera_per_s": {},
        "dense_halved_from_sparse": [],
        "peak_basis": "arithmetic",
        "peak_arithmetic": arithmetic,
        **memory,
        "interconnect": _NO_LINK,
        "board_power_w": power_w,
        "measured": False,
        "secondary_only": True,
        "complete": False,
        "missing": missing,
        "notes": notes,
    }


#: Zen 4 and Zen 5 server cores: one AVX-512 FMA of 16 FP32 lanes per cycle, the rule the EPYC
#: presets count (Zen 5 has two 512-bit FMA pipes, so this is a floor there).
_CASSINDRA_AVX512 = {
    "title": "AI Cassindra, SIMD registers visualised (AVX-512 and AMX rates)",
    "url": "https://aicassindra.com/labs/transformer_math/simd_register_viz.html",
    "secondary": True,
    "quote": "AVX-512: 16 FP32 multiply-adds per cycle. AMX: tile matmul - 1024 BF16 ops per cycle.",
}


def _avx512(cores: int, clock_ghz: float, units_what: str) -> dict:
    return {
        "cores": cores,
        "cores_what": "cores",
        "units_per_core": 16,
        "units_what": units_what,
        "flop_per_clock_per_unit": 2,
        "clock_ghz": clock_ghz,
        "dtypes": ["fp16"],
    }


def _amx(cores: int, clock_ghz: float) -> dict:
    return {
        "cores": cores,
        "cores_what": "cores",
        "units_per_core": 1,
        "units_what": "AMX tile unit",
        "flop_per_clock_per_unit": 1024,
        "clock_ghz": clock_ghz,
        "dtypes": ["bf16"],
    }


CPU_RECORDS: list[dict] = [
    _cpu(
        slug="xeon-6980p",
        vendor="Intel",
        family="Xeon 6 (Granite Rapids)",
        name="Intel Xeon 6980P (Granite Rapids, 12 x DDR5-6400)",
        sources=[
            {
                "title": "Nishiki-out, Intel Xeon 6900P announced (specification tables)",
                "url": "https://nishikiout.net/entry/2024/09/25/013943",
                "secondary": True,
                "quote": (
                    "6700E | 6700P | 6900E | 6900P | |\n---|---|---|---|---|\n最大消費電力 | 350W | 350W | 500W | 500W |"
                    "\n...\nメモリch数 | 8 | 8 | 12 | 12 |\n...\n6980P | 128C/256T | 2.0 GHz | 3.2 GHz | 3.9 GHz | 500W | 504MB |"
                ),
            },
            {
                "title": "Wccftech, Intel Xeon 6900P Granite Rapids P-core launched with 128 cores",
                "url": "https://wccftech.com/intel-xeon-6900p-granite-rapids-p-core-launched-128-cores-tackles-amd-epyc-turin/amp",
                "secondary": True,
                "quote": (
                    "- Up To 6400 MT/s DDR5 Support\n- Up To 8800 MT/s MRDIMM Support\n- Up To 128 performance cores\n...\n"
                    "- Intel Advanced Matrix Extensions (Intel AMX) with FP16 support"
                ),
            },
            _AMX,
            _STH_RDIMM,
        ],
        arithmetic=_amx(128, 2.0),
        memory=_memory(12, 6400, None),
        power_w=500,
        notes=(
            "Peak: 128 cores x 1,024 BF16 FLOP per clock (AMX; AMX-FP16 runs FP16 at the same rate) x 2.0 GHz base "
            "= 262 TFLOP/s, a floor (all-core boost 3.2 GHz). Bandwidth: 12 channels x 8 bytes x 6,400 MT/s = "
            "614.4 GB/s; with MRDIMM-8800 it is 844.8 GB/s. Capacity: one 64 GB RDIMM per channel (768 GB); more "
            "per channel is common. llama.cpp uses AMX for some quantised formats; its other kernels run on AVX-512."
        ),
    ),
    _cpu(
        slug="xeon-8480plus",
        vendor="Intel",
        family="Xeon 4th gen (Sapphire Rapids)",
        name="Intel Xeon Platinum 8480+ (Sapphire Rapids, 8 x DDR5-4800)",
        sources=[
            {
                "title": "ServeTheHome, Intel Xeon Max 9480 deep dive: conceptual diagrams",
                "url": "https://servethehome.com/intel-xeon-max-9480-deep-dive-intel-has-64gb-hbm2e-onboard-like-a-gpu-or-ai-accelerator/3",
                "secondary": True,
                "quote": (
                    "here is the Intel Xeon Platinum 8480+ conceptual core and memory diagram.\nOne can see that there "
                    "are four 14-core tiles each with two channels DDR5 memory.\n...\nCombined, these four 14-core tiles "
                    "give us 56 cores and 8 channels of DDR5 memory."
                ),
            },
            {
                "title": "TechnoSports, Intel next-gen LGA 7529 Xeon CPUs (memory bandwidth against Sapphire Rapids)",
                "url": "https://technosports.co.in/intel-next-gen-lga-7529-xeon-cpus",
                "secondary": True,
                "quote": (
                    "When all channels are fully utilised, such a memory subsystem can provide up to 614.4 GB/s – 768 "
                    "GB/s of bandwidth, which is a significant improvement over Sapphire Rapids’ 307.2 GB/s."
                ),
            },
            {
                "title": "Cheap5v, The next-gen Xeon CPU features 56 cores and a 350W TDP (leak of a Sapphire Rapids sample)",
                "url": "https://cheap5v.com/the-next-gen-xeon-cpu-features-56-cores-and-a-350w-tdp-leaks.html",
                "secondary": True,
                "quote": (
                    "They’ll have up to 56 cores and 112 threads, with a maximum TDP of 350 watts.\n...\nThe disclosed "
                    "CPU also has a 1.9 GHz base clock and a 3.3 GHz boost clock, with a single-core boost frequency of "
                    "3.7 GHz.\n...\nThe Xeon Platinum 8476 or the Platinum 8480 could represent this architecture, as "
                    "both are expected to have 56 cores and 112 threads."
                ),
            },
            _AMX,
            _STH_RDIMM,
        ],
        arithmetic=_amx(56, 1.9),
        memory=_memory(8, None, 307.2),
        power_w=350,
        notes=(
            "Peak: 56 cores x 1,024 BF16 FLOP per clock (AMX) x 1.9 GHz = 109 TFLOP/s, at the base clock of a 56-core "
            "engineering sample (the only clock quoted here; the shipping part's may differ a little). Bandwidth: "
            "8 channels of DDR5-4800, 307.2 GB/s as quoted (8 x 8 bytes x 4,800 MT/s). Capacity: one 64 GB RDIMM per "
            "channel (512 GB). No FP16 AMX on this generation: FP16 math falls back to the BF16 rate."
        ),
    ),
    _cpu(
        slug="ryzen-9-9950x",
        vendor="AMD",
        family="Ryzen desktop (Zen 5)",
        name="AMD Ryzen 9 9950X (2 x DDR5-5600)",
        sources=[
            {
                "title": "Tim Dobbs, The AMD Ryzen 9 9950X CPU (specifications)",
                "url": "https://timdobbs.substack.com/p/the-amd-ryzen-9-9950x-cpu",
                "secondary": True,
                "quote": (
                    "Specifications\nCores: 16\nThreads: 32\nBase Clock Speed: 4.4 GHz\nBoost Clock Speed: Up to 5.7 GHz\n"
                    "Cache Memory: 80MB (64MB L3 + 16MB L2)\nTDP (Thermal Design Power): 170W\n...\n"
                    "Memory Support: Dual-channel DDR5-5600"
                ),
            },
            {
                "title": "AI Cassindra, SIMD registers visualised (AVX-512 and AMX rates)",
                "url": "https://aicassindra.com/labs/transformer_math/simd_register_viz.html",
                "secondary": True,
                "quote": "AVX-512: 16 FP32 multiply-adds per cycle. AMX: tile matmul - 1024 BF16 ops per cycle.",
            },
            {**_STH_RDIMM, "quote": "This is what a DDR5-6400 64GB RDIMM looks like on the front."},
        ],
        arithmetic={
            "cores": 16,
            "cores_what": "cores",
            "units_per_core": 16,
            "units_what": "FP32 multiply-adds (AVX-512)",
            "flop_per_clock_per_unit": 2,
            "clock_ghz": 4.4,
            "dtypes": ["fp16"],
        },
        memory=_memory(2, 5600, None),
        power_w=170,
        notes=(
            "Peak: 16 cores x 16 FP32 multiply-adds x 2 FLOP x 4.4 GHz = 2.25 TFLOP/s, one AVX-512 FMA per cycle: a "
            "floor, since desktop Zen 5 cores have two 512-bit FMA pipes and AVX512-BF16 dot products (up to 4x this), "
            "not quoted here. CPU kernels convert 16-bit weights to FP32, so the FP32 rate stands for the 16-bit peak. "
            "Bandwidth: 2 channels x 8 bytes x 5,600 MT/s = 89.6 GB/s. Capacity: one 64 GB module per channel (128 GB)."
        ),
    ),
    _cpu(
        slug="epyc-9654",
        vendor="AMD",
        family="EPYC 4th gen (Genoa)",
        name="AMD EPYC 9654 (Genoa, 12 x DDR5-4800)",
        sources=[
            {
                "title": "LLMPerf, AMD EPYC 9000 series (Genoa - Turin): summary table (after TechPowerUp's CPU database)",
                "url": "https://llmperf.net/categories/cpu/AMD-EPYC-9000-Genoa-Turin-CPUs",
                "secondary": True,
                "quote": (
                    "CPU Model AMD EPYC 9654 (Genoa, 4th Gen) AMD EPYC 9965 (Turin Dense, 5th Gen)\n...\n"
                    "Microarchitecture Zen 4 (x86-64)\n...\nMax Cores / Threads 96 cores / 192 threads\n...\n"
                    "Base Clock 2.40 GHz\nMax Turbo Clock 3.70 GHz\nTDP (Thermal Design Power) 360 W (typical SKUs)"
                ),
            },
            {
                "title": "Dell Technologies InfoHub, DDR5 memory bandwidth for next-generation PowerEdge servers featuring"
                " 4th Gen AMD EPYC processors",
                "url": "https://infohub.delltechnologies.com/en-us/p/ddr5-memory-bandwidth-for-next-generation-poweredge-servers-featuring-4th-gen-amd-epyc-processors/",
                "secondary": True,
                "quote": (
                    "Each socket supports up to 12 DIMMs at speeds of up to 4,800 MT/s.\n...\n"
                    "The memory runs at speeds of up to 4,800 MT/s"
                ),
            },
            {
                "title": "Alexander J. Yee, Zen5's AVX512 teardown (numberworld.org)",
                "url": "https://www.numberworld.org/blogs/2024_8_7_zen5_avx512_teardown/",
                "secondary": True,
                "quote": (
                    'But AMD\'s first AVX512 implementation (in Zen4) was not a "native" implementation. Instead, it'
                    ' reused the existing 256-bit hardware from Zen3 by "double-pumping" 512-bit instructions into'
                    " the 256-bit hardware on consecutive cycles."
                ),
            },
            {
                "title": "AI Cassindra, SIMD registers visualised (AVX-512 and AMX rates)",
                "url": "https://aicassindra.com/labs/transformer_math/simd_register_viz.html",
                "secondary": True,
                "quote": "AVX-512: 16 FP32 multiply-adds per cycle. AMX: tile matmul - 1024 BF16 ops per cycle.",
            },
            _STH_RDIMM,
        ],
        arithmetic={
            "cores": 96,
            "cores_what": "cores",
            "units_per_core": 16,
            "units_what": "FP32 multiply-adds (one AVX-512 FMA, double-pumped)",
            "flop_per_clock_per_unit": 2,
            "clock_ghz": 2.40,
            "dtypes": ["fp16"],
        },
        memory=_memory(12, 4800, None),
        power_w=360,
        notes=(
            "Peak: 96 cores x 16 FP32 multiply-adds x 2 FLOP x 2.40 GHz base = 7.37 TFLOP/s. Zen 4 runs a 512-bit"
            " FMA as two halves on its 256-bit units, so one AVX-512 FMA per core per cycle is the rule here; CPU"
            " kernels convert 16-bit weights to FP32, so the FP32 rate stands for the 16-bit peak (AVX512-BF16 dot"
            " products, not quoted, can do more). Bandwidth: 12 channels x 8 bytes x 4,800 MT/s = 460.8 GB/s."
            " Capacity: one 64 GB RDIMM per channel (768 GB). No AMX on AMD parts."
        ),
    ),
    _cpu(
        slug="epyc-9755",
        vendor="AMD",
        family="EPYC 5th gen (Turin)",
        name="AMD EPYC 9755 (Turin, 12 x DDR5-6400)",
        sources=[
            {
                "title": "Meftah, AMD EPYC 9755 processor (report of the leaked specifications)",
                "url": "https://meftah.com/news/amd-epyc-9755-processor",
                "secondary": True,
                "quote": (
                    "پردازنده AMD EPYC 9755 بخشی از خانواده نسل پنجم EPYC با نام رمز «تورین» است که دارای 128 هسته و"
                    " 256 رشته بر اساس معماری هسته Zen 5 است. این پردازنده، فرکانس پایه 2.70 گیگاهرتز و فرکانس بوست"
                    " حداکثر 4.10 گیگاهرتز دارد"
                ),
            },
            {
                "title": "Hubbry (Wikipedia's Epyc article, as mirrored): infobox",
                "url": "https://www.hubbry.com/Epyc/encyclopedias",
                "secondary": True,
                "quote": (
                    "Cores\n  • up to 192 cores/384 threads per socket\nMemory (RAM)\n  • up to 12 memory channels at"
                    " 6400 MT/s"
                ),
            },
            {
                "title": "Oracle Japan OCI tutorials, STREAM on BM.Standard.E6.256 (two EPYC 9755): test system",
                "url": "https://github.com/oracle-japan/ocitutorials/blob/HEAD/content/hpc/benchmark/run-stream-e6/index.md",
                "secondary": True,
                "quote": (
                    "CPU： **AMD EPYC** 9755ベース x 2（256コア）\n    - メモリ： DDR5 3.072 TB\n    - 理論性能："
                    " 11.0592 TFLOPS（ベース動作周波数2.7 GHz時）\n    - メモリ帯域： 1,228.8 GB/s"
                ),
            },
            _CASSINDRA_AVX512,
            _STH_RDIMM,
        ],
        arithmetic=_avx512(128, 2.7, "FP32 multiply-adds (one AVX-512 FMA)"),
        memory=_memory(12, 6400, None),
        power_w=None,
        notes=(
            "Peak: 128 cores x 16 FP32 multiply-adds x 2 FLOP x 2.7 GHz base = 11.1 TFLOP/s, one AVX-512 FMA per core"
            " per cycle: a floor, since Zen 5 server cores have two 512-bit FMA pipes (the rule matches Oracle's"
            " 11.0592 TFLOPS FP64 figure for two sockets). CPU kernels convert 16-bit weights to FP32, so the FP32 rate"
            " stands for the 16-bit peak. Bandwidth: 12 channels x 8 bytes x 6,400 MT/s = 614.4 GB/s, the speed Oracle's"
            " two-socket host runs (1,228.8 GB/s for two); AMD's validated speed on many boards is DDR5-6000 (576 GB/s)."
            " Capacity: one 64 GB RDIMM per channel (768 GB). No TDP figure was found in a source read, so the board"
            " power is left out."
        ),
    ),
]
