"""Apple silicon presets: every M-series tier that runs models, each figure quoted.

Apple states memory bandwidth, capacity and GPU core counts, but no 16-bit FLOP/s. A few chips
keep a public PyTorch measurement (``measured``); the others compute their peak from the GPU's
core count and clock (``peak_basis: "arithmetic"``): each Apple GPU core has 128 ALUs, and each
ALU does one fused multiply-add (2 FLOP) per clock in FP16 as in FP32, 256 FP16 operations per
core per clock (Philip Turner's metal-benchmarks). Clocks are not published by Apple; they come
from that measurement table (M1, M2) or from a GPU database (M3, M4), so the peak is an estimate,
and decode, bounded by bandwidth, does not depend on it.

Capacity: each preset holds the largest standard memory configuration of its tier (the options
are in the notes); a reader with less picks Custom. The GPU may wire only part of it, by default
(``gpu_memory``: see :mod:`roofline_core.hardware.unified_memory`).

Of the binned GPU variants whose bandwidth differs, the 30-core M3 Max (300 GB/s, from Apple's own
tech specs) and the 32-core M4 Max (410 GB/s) are presets. The 32-core M5 Max is not: no source read
states its bandwidth except as "around" a figure, and the M5 Ultra had no published specification.
"""

from __future__ import annotations

from roofline_core.hardware.capacity_reasons import LPDDR_IS_BINARY

#: The GPU-usable share on every Mac: macOS's default wired limit.
MACOS_DEFAULT = {"scheme": "macos-default-wired-limit"}

_NO_LINK = {"kind": "none (single SoC)", "value": None, "unit": None, "direction": None}

_TURNER = {
    "title": "Philip Turner, metal-benchmarks README: overview of Apple-designed GPUs and operations per clock per core",
    "url": "https://github.com/philipturner/metal-benchmarks",
    "secondary": True,
}
_TURNER_ALUS = (
    "| Per Core | A14 | M1, A15 | GCN 5 | RDNA 1, 2 | RDNA 3 | Pascal | Turing | Ampere, Ada |\n...\n"
    "| F16 OPs/Clock | 256 | 256 | 256 | 256 | 512 | 4 | 256 | 256 |\n"
    "| F32 OPs/Clock | 128 | 256 | 128 | 128 | 256 | 256 | 128 | 256 |\n...\n"
    "Apple described each GPU core as having 128 ALUs."
)
_TURNER_HEADER = (
    "| Apple GPU | Generation | Clock Speed | Cores | GFLOPS F32 | GFLOPS F16 | GOPS I16/I32 |\n"
    "| --------- | ---------- | ----------: | ----: | ---------: | ---------: | -----------: |\n...\n"
)


def _turner(*rows: str) -> dict:
    """The metal-benchmarks table: its header and the chip's rows (if it has any), and the ALUs per core."""
    table = _TURNER_HEADER + "\n...\n".join(rows) + "\n...\n" if rows else ""
    return {**_TURNER, "quote": table + _TURNER_ALUS}


_ARS_M4 = {
    "title": "Ars Technica, Apple's M4, M4 Pro, and M4 Max compared to past generations and to each other (as republished)",
    "url": "https://goodnewsapodcast.com/apples-m4-m4-pro-and-m4-max-compared-to-past-generations-and-to-each-other",
    "secondary": True,
}
_ARS_HEADER = "CPU P/E-cores | GPU cores | RAM options | Display support (including internal) | Memory bandwidth | |\n"


def _ars(row: str) -> dict:
    return {**_ARS_M4, "quote": _ARS_HEADER + "---|---|---|---|---|---|\n" + row}


def _hmc(url: str, quote: str) -> dict:
    return {
        "title": "HMC Tech GPU database, Apple GPU specifications (shaders and clock)",
        "url": url,
        "secondary": True,
        "quote": quote,
    }


def _gpu_arithmetic(cores: int, clock_ghz: float) -> dict:
    """An Apple GPU's 16-bit peak: cores x 128 ALUs x one FMA (2 FLOP) per clock x clock."""
    return {
        "cores": cores,
        "cores_what": "GPU cores",
        "units_per_core": 128,
        "units_what": "ALUs",
        "flop_per_clock_per_unit": 2,
        "clock_ghz": clock_ghz,
        "dtypes": ["fp16"],
    }


def _apple(
    *,
    slug: str,
    name: str,
    sources: list[dict],
    cores: int,
    clock_ghz: float,
    bandwidth_gb_s: float,
    capacity_gb: int,
    notes: str,
) -> dict:
    """A record whose peak is shader arithmetic; every other field as the quoted records write it."""
    return {
        "slug": slug,
        "vendor": "Apple",
        "family": "Apple silicon",
        "name": name,
        "sources": sources,
        "dense_peak_tera_per_s": {},
        "dense_halved_from_sparse": [],
        "peak_basis": "arithmetic",
        "peak_arithmetic": _gpu_arithmetic(cores, clock_ghz),
        "memory_bandwidth": {"value": bandwidth_gb_s, "unit": "GB/s"},
        "memory_capacity": {"value": capacity_gb, "unit": "GB"},
        "memory_exposed": {"value": capacity_gb, "unit": "GiB", "why": LPDDR_IS_BINARY},
        "gpu_memory": MACOS_DEFAULT,
        "interconnect": _NO_LINK,
        "board_power_w": None,
        "measured": False,
        "secondary_only": not any(not s.get("secondary") for s in sources),
        "complete": False,
        "missing": ["interconnect bandwidth", "board_power_w"],
        "notes": notes,
    }


#: Apple's tech specs for the 16-inch MacBook Pro (Nov 2023): the two M3 Max GPU variants' bandwidth.
_APPLE_M3_MAX_SPECS = {
    "title": "Apple Support, MacBook Pro (16-inch, Nov 2023) - Tech Specs",
    "url": "https://support.apple.com/en-au/117737",
    "secondary": False,
    "quote": (
        "Configurable to:\n\n    • M3 Max with 14-core CPU and 30-core GPU (300GB/s memory bandwidth), or M3 Max with"
        " 16-core CPU and 40-core GPU (400GB/s memory bandwidth)\n...\nConfigurable to 36GB (M3 Pro or M3 Max with"
        " 14-core CPU) or 96GB"
    ),
}

#: The M5 Pro and M5 Max as Apple announced them (3 March 2026), in a report's spec summary.
_M5_PRO_MAX = {
    "title": "Mikeshouts, Apple M5 Pro and M5 Max (spec highlights of Apple's announcement)",
    "url": "https://mikeshouts.com/apple-m5-pro-m5-max/amp",
    "secondary": True,
    "quote": (
        "M5 Pro\n18-core CPU (six super cores + twelve performance cores), up to 20-core GPU with Neural Accelerators,"
        " 16-core Neural Engine, up to 64 GB unified memory, up to 307 GB/s unified memory bandwidth, third-generation"
        " 3 nm process, hardware ray tracing, Thunderbolt 5 support.\nM5 Max\n18-core CPU (six super cores + twelve"
        " performance cores), up to 40-core GPU with Neural Accelerators, 16-core Neural Engine, up to 128 GB unified"
        " memory, up to 614 GB/s unified memory bandwidth"
    ),
}

#: The M5's GPU clock, the only M5-generation clock found: the Pro and Max use it.
_HMC_M5 = _hmc(
    "https://hmc-tech.com/gpu/apple-10-core-m5-vs-intel-uhd-620-1100mhz",
    "10-Core M5\n...\n1280 Shaders\nShared Memory\n1740MHz",
)


APPLE_RECORDS: list[dict] = [
    {
        "slug": "apple-m2-ultra",
        "vendor": "Apple",
        "family": "Apple silicon",
        "name": "Apple M2 Ultra (76-core GPU)",
        "sources": [
            {
                "title": "Apple Newsroom, Apple introduces M2 Ultra (5 June 2023)",
                "url": "https://www.apple.com/pt/newsroom/2023/06/apple-introduces-m2-ultra",
                "secondary": False,
                "quote": "Its unified memory architecture supports up to a breakthrough 192GB of memory capacity, which is 50 percent more than M1 Ultra, and features 800GB/s of memory bandwidth — twice that of M2 Max.",
            },
            {
                "title": "Sasank Chilamkurthy, device-benchmarks README: matrix-multiplication FLOP/s and copy bandwidth measured with PyTorch (MPS on Apple GPUs)",
                "url": "https://github.com/chsasank/device-benchmarks/blob/7ccc88389b1eabd05365756bfd507bb6bc1d7ae0/README.md",
                "secondary": True,
                "quote": "I use fp32 matrix multiplication to measure FLOPs (floating point operations per second). I copy a large tensor to measure bandwidth.\n...\n| Device | Device Type | TFLOPs (FP32) | TFLOPs (FP16)| TFLOPs (BF16) | TOPS (INT8) | Memory Bandwidth (GB/s) |\n...\n| Apple M1 Pro GPU 16-core | GPU | 3.7 | 4.3 |  |  | 176 |\n...\n| Apple M2 Ultra GPU (76 Core) | GPU | 20 |  |  |  | 636 |\n...\n| Apple M4 Max GPU (16C,40C,128G) | GPU | 13.27 | 13.29 |  |  | 396 |",
            },
        ],
        "dense_peak_tera_per_s": {"fp16": 20},
        "dense_halved_from_sparse": [],
        "memory_bandwidth": {"value": 800, "unit": "GB/s"},
        "memory_capacity": {"value": 192, "unit": "GB"},
        "memory_exposed": {
            "value": 192,
            "unit": "GiB",
            "why": LPDDR_IS_BINARY,
        },
        "gpu_memory": MACOS_DEFAULT,
        "interconnect": {"kind": "none (single SoC)", "value": None, "unit": None, "direction": None},
        "board_power_w": None,
        "measured": True,
        "secondary_only": False,
        "complete": False,
        "missing": ["interconnect bandwidth", "board_power_w"],
        "notes": "Apple publishes no FLOP/s figure for its GPUs, so the 16-bit peak is a public measurement (PyTorch matmul on the Metal backend), not a vendor figure, and real kernels may do better or worse. Unified memory is shared with the CPU. Only an FP32 measurement was found for the M2 Ultra (20 TFLOP/s); it stands in for the 16-bit rate because the same benchmark measures FP16 at about the FP32 rate on other Apple GPUs (M4 Max 13.29 vs 13.27, M1 Pro 4.3 vs 3.7).",
    },
    {
        "slug": "apple-m3-max",
        "vendor": "Apple",
        "family": "Apple silicon",
        "name": "Apple M3 Max (40-core GPU)",
        "sources": [
            {
                "title": "MacMegasite, M4 Max chip ... 35% increase in memory bandwidth",
                "url": "https://macmegasite.com/2024/10/30/m4-max-chip-has-16-core-cpu-40-core-gpu-and-35-increase-in-memory-bandwidth",
                "secondary": True,
                "quote": "That compares to the M3 Max specs of 14-core CPU, 40-core GPU and 400 GB/s of memory bandwidth.",
            },
            {
                "title": "Clubic, Avec ses puces M3, M3 Pro et M3 Max, Apple essaye encore de vous faire jouer sur Mac",
                "url": "https://www.clubic.com/actualite-507205-avec-ses-puces-m3-m3-pro-et-m3-max-apple-essaye-encore-de-vous-faire-jouer-sur-mac.html",
                "secondary": True,
                "quote": "tandis que le modèle le plus haut de gamme du M3 Max embarque 16 cœurs de CPU, 40 cœurs de GPU et 128 Go de mémoire.",
            },
            {
                "title": "torch-performance-test-data database: PyTorch matmul TFLOPS per precision, best of 1024 to 10240 square sizes, contributed per device",
                "url": "https://github.com/zzc0721/torch-performance-test-data/blob/9d82827637262c4351e3f9483f96b8cff57a601f/database.md",
                "secondary": True,
                "quote": "| device                                       | fp32   | tf32   | fp16    | bf16    | note                                                                                     | contributor                                         |\n...\n| Apple M3 Max 16CPU+40GPU 60GB                | 11.50  |        | 12.84   | 11.25   | 笔记本                                                                                   | [gouzil](https://github.com/gouzil)                 |",
            },
            {
                "title": "Sasank Chilamkurthy, device-benchmarks README: matrix-multiplication FLOP/s and copy bandwidth measured with PyTorch (MPS on Apple GPUs)",
                "url": "https://github.com/chsasank/device-benchmarks/blob/7ccc88389b1eabd05365756bfd507bb6bc1d7ae0/README.md",
                "secondary": True,
                "quote": "I use fp32 matrix multiplication to measure FLOPs (floating point operations per second). I copy a large tensor to measure bandwidth.\n...\n| Device | Device Type | TFLOPs (FP32) | TFLOPs (FP16)| TFLOPs (BF16) | TOPS (INT8) | Memory Bandwidth (GB/s) |\n...\n| Apple M3 Max GPU (40 Core) | GPU | 11.4 |  |  |  | 318 |",
            },
        ],
        "dense_peak_tera_per_s": {"fp16": 12.84},
        "dense_halved_from_sparse": [],
        "memory_bandwidth": {"value": 400, "unit": "GB/s"},
        "memory_capacity": {"value": 128, "unit": "GB"},
        "memory_exposed": {
            "value": 128,
            "unit": "GiB",
            "why": LPDDR_IS_BINARY,
        },
        "gpu_memory": MACOS_DEFAULT,
        "interconnect": {"kind": "none (single SoC)", "value": None, "unit": None, "direction": None},
        "board_power_w": None,
        "measured": True,
        "secondary_only": True,
        "complete": False,
        "missing": ["interconnect bandwidth", "board_power_w"],
        "notes": "Apple publishes no FLOP/s figure for its GPUs, so the 16-bit peak is a public measurement (PyTorch matmul on the Metal backend), not a vendor figure, and real kernels may do better or worse. Unified memory is shared with the CPU. FP16 12.84 TFLOP/s measured on a 40-core M3 Max; a second PyTorch run measured 11.4 TFLOP/s in FP32. The 400 GB/s and 128 GB are the top (40-core GPU) configuration's figures, from secondary reports of Apple's launch.",
    },
    {
        "slug": "apple-m4-max",
        "vendor": "Apple",
        "family": "Apple silicon",
        "name": "Apple M4 Max (40-core GPU)",
        "sources": [
            {
                "title": "MacRumors, Apple Announces M4 Max Chip (30 October 2024)",
                "url": "https://www.macrumors.com/2024/10/30/apple-announces-m4-max-chip/",
                "secondary": True,
                "quote": "M4 Max supports up to 128GB of unified memory with up to 546GB/s of memory bandwidth.",
            },
            {
                "title": "torch-performance-test-data database: PyTorch matmul TFLOPS per precision, best of 1024 to 10240 square sizes, contributed per device",
                "url": "https://github.com/zzc0721/torch-performance-test-data/blob/9d82827637262c4351e3f9483f96b8cff57a601f/database.md",
                "secondary": True,
                "quote": "| device                                       | fp32   | tf32   | fp16    | bf16    | note                                                                                     | contributor                                         |\n...\n| Apple M4 Max 16CPU+40GPU 64GB                | 13.78  | 13.77  | 14.82   | 13.18   | 笔记本；PyTorch 2.8.0 + MPS                                                              | [Alexw1111](https://github.com/Alexw1111)         |",
            },
            {
                "title": "Sasank Chilamkurthy, device-benchmarks README: matrix-multiplication FLOP/s and copy bandwidth measured with PyTorch (MPS on Apple GPUs)",
                "url": "https://github.com/chsasank/device-benchmarks/blob/7ccc88389b1eabd05365756bfd507bb6bc1d7ae0/README.md",
                "secondary": True,
                "quote": "I use fp32 matrix multiplication to measure FLOPs (floating point operations per second). I copy a large tensor to measure bandwidth.\n...\n| Device | Device Type | TFLOPs (FP32) | TFLOPs (FP16)| TFLOPs (BF16) | TOPS (INT8) | Memory Bandwidth (GB/s) |\n...\n| Apple M4 Max GPU (16C,40C,128G) | GPU | 13.27 | 13.29 |  |  | 396 |",
            },
        ],
        "dense_peak_tera_per_s": {"fp16": 14.82},
        "dense_halved_from_sparse": [],
        "memory_bandwidth": {"value": 546, "unit": "GB/s"},
        "memory_capacity": {"value": 128, "unit": "GB"},
        "memory_exposed": {
            "value": 128,
            "unit": "GiB",
            "why": LPDDR_IS_BINARY,
        },
        "gpu_memory": MACOS_DEFAULT,
        "interconnect": {"kind": "none (single SoC)", "value": None, "unit": None, "direction": None},
        "board_power_w": None,
        "measured": True,
        "secondary_only": True,
        "complete": False,
        "missing": ["interconnect bandwidth", "board_power_w"],
        "notes": "Apple publishes no FLOP/s figure for its GPUs, so the 16-bit peak is a public measurement (PyTorch matmul on the Metal backend), not a vendor figure, and real kernels may do better or worse. Unified memory is shared with the CPU. FP16 14.82 TFLOP/s is the best of the sizes one contributor measured; a second benchmark measured 13.29 TFLOP/s FP16 on a 128 GB M4 Max. Top configuration (40-core GPU).",
    },
    _apple(
        slug="apple-m1-max",
        name="Apple M1 Max (32-core GPU)",
        sources=[
            {
                "title": "Trusted Reviews, Apple M1 Max: specs, performance and TDP",
                "url": "https://www.trustedreviews.com/news/apple-m1-max-specs-performance-tdp-4174187",
                "secondary": True,
                "quote": "The specs we do know are that it supports 400gbps data bandwidth, which is six times than the original M1 and twice that of the M1 Pro.\n...\nOutside of this it will support 64GB of unified memory. It’s being pitched as the most powerful chip in Apple’s line for creative work with it featuring the same 10 CPU cores as the M1 Pro, but a much more impressive 32GPU cores.",
            },
            _turner("| M1 Max | Apple 7 | 1296 MHz | 32 | 10620 | 10620 | 5308 |"),
        ],
        cores=32,
        clock_ghz=1.296,
        bandwidth_gb_s=400,
        capacity_gb=64,
        notes="Apple's 400 GB/s (the article's 'gbps' is Apple's GB/s). Memory options 32 or 64 GB; the preset holds 64. The 24-core M1 Max has the same bandwidth. Peak: 32 cores x 128 ALUs x 2 x 1.296 GHz, the metal-benchmarks table's 10,620 GFLOPS F16.",
    ),
    _apple(
        slug="apple-m1-ultra",
        name="Apple M1 Ultra (64-core GPU)",
        sources=[
            {
                "title": "iDownloadBlog, Apple unveils the M1 Ultra chip with 128GB unified memory, UltraFusion architecture and more",
                "url": "https://www.idownloadblog.com/2022/03/08/apple-m1-ultra-initial-features/",
                "secondary": True,
                "quote": "Apple during today’s “Peek Performance” presentation announced next-generation Apple silicon, the new M1 Ultra chip that has a 20-core CPU, 64-core GPU, up to 128 gigabytes of unified memory and more.\n...\nThe M1 Ultra supports up to 128 gigabytes of unified memory with 800GB/s memory bandwidth, which Apple says is “10x the latest Intel desktop chip”.",
            },
            _turner("| M1 Ultra | Apple 7 | 1296 MHz | 64 | 21230 | 21230 | 10620 |"),
        ],
        cores=64,
        clock_ghz=1.296,
        bandwidth_gb_s=800,
        capacity_gb=128,
        notes="Memory options 64 or 128 GB; the preset holds 128. The 48-core M1 Ultra has the same bandwidth. Peak: 64 cores x 128 ALUs x 2 x 1.296 GHz.",
    ),
    _apple(
        slug="apple-m2",
        name="Apple M2 (10-core GPU)",
        sources=[
            _ars("Apple M2 (high) | 4/4 | 10 | 8/16/24GB | Up to two | 102.4GB/s |"),
            _turner("| M2 | Apple 8 | 1398 MHz | 10 | 3579 | 3579 | 1789 |"),
        ],
        cores=10,
        clock_ghz=1.398,
        bandwidth_gb_s=102.4,
        capacity_gb=24,
        notes="Memory options 8, 16 or 24 GB; the preset holds 24. 102.4 GB/s is LPDDR5-6400 on a 128-bit bus (Apple rounds it to 100 GB/s). The 8-core M2 has the same bandwidth. Peak: 10 cores x 128 ALUs x 2 x 1.398 GHz.",
    ),
    _apple(
        slug="apple-m2-pro",
        name="Apple M2 Pro (19-core GPU)",
        sources=[
            _ars("Apple M2 Pro (high) | 8/4 | 19 | 16/32GB | Up to three | 204.8GB/s |"),
            _turner("| M2 Pro | Apple 9 | &ge;1398 MHz | 18-20 | &ge;6441 | &ge;6441 | &ge;3221 |"),
        ],
        cores=19,
        clock_ghz=1.398,
        bandwidth_gb_s=204.8,
        capacity_gb=32,
        notes="Memory options 16 or 32 GB; the preset holds 32. The 16-core M2 Pro has the same bandwidth. The clock is the table's lower bound (at least 1,398 MHz, from supply-chain reports); peak: 19 cores x 128 ALUs x 2 x 1.398 GHz.",
    ),
    _apple(
        slug="apple-m2-max",
        name="Apple M2 Max (38-core GPU)",
        sources=[
            {
                "title": "HungryGeeks, M1 Max, M2 Max, M4 Max compared: how high-end Apple Silicon has evolved",
                "url": "https://hungrygeeks.ph/m1-max-m2-max-m4-max-compared-how-high-end-apple-silicon-has-evolved/?noamp=mobile",
                "secondary": True,
                "quote": "M1 Max, M2 Max, M4 Max- SpecificationsFeatureM1 MaxM2 MaxM4 MaxCPU Cores10-core (8P + 2E ) 12-core (8P + 4E ) 14-core ( 10P + 4E ) or 16-coreGPU Cores32-core30-core or 38-core32-core or 40-coreNeural Engine16-core16-core ( faster ) 16-coreTransistors57B67BNot specifiedMemoryUp to 64GBUp to 96GBUp to 128GBMemory Bandwidth400GB/s400GB/s410GB/s ( 14-core ) or 546GB/s ( 16-core )",
            },
            _turner("| M2 Max | Apple 9 | &ge;1398 MHz | 38 | &ge;13600 | &ge;13600 | &ge;6800 |"),
        ],
        cores=38,
        clock_ghz=1.398,
        bandwidth_gb_s=400,
        capacity_gb=96,
        notes="Memory options 32, 64 or 96 GB; the preset holds 96. The 30-core M2 Max has the same bandwidth. Peak: 38 cores x 128 ALUs x 2 x 1.398 GHz (the clock a lower bound, as the table says).",
    ),
    _apple(
        slug="apple-m3",
        name="Apple M3 (10-core GPU)",
        sources=[
            {
                "title": "TellForce blog, Apple unveils M3, M3 Pro and M3 Max 3nm processors",
                "url": "https://www.tellforceblog.com/2023/10/apple-unveils-m3-m3-pro-and-m3-max-3nm-processors.html",
                "secondary": True,
                "quote": "It has a 10-core GPU featuring the next-generation architecture that is 65 percent faster than M1 for graphics performance. The M3 has an 8-core CPU, with four performance cores and four efficiency cores, that is up to 35 percent faster than M1 for CPU performance. And it supports up to 24GB of unified memory.",
            },
            _ars("Apple M3 (high) | 4/4 | 16 | 8/16/24GB | Up to two | 102.4GB/s |"),
            _hmc(
                "https://hmc-tech.com/gpu/apple_10_core_m3",
                "10-Core M3 Specs\n10-Core M3\n1280 Shaders\nShared Memory\n1398MHz\n|\nFP32\n3.58 TFLOPS\n|\nFP16\n3.58 TFLOPS",
            ),
        ],
        cores=10,
        clock_ghz=1.398,
        bandwidth_gb_s=102.4,
        capacity_gb=24,
        notes="Memory options 8, 16 or 24 GB; the preset holds 24. The republished Ars table's '16' GPU cores for the M3 is an error (Apple: 10-core GPU); its bandwidth column is used. Peak: 10 cores x 128 ALUs x 2 x 1.398 GHz (1,280 shaders at 1,398 MHz, the database's 3.58 TFLOPS).",
    ),
    _apple(
        slug="apple-m3-pro",
        name="Apple M3 Pro (18-core GPU)",
        sources=[
            _ars("Apple M3 Pro (high) | 6/6 | 18 | 18/36GB | Up to three | 153.6GB/s |"),
            _hmc(
                "https://hmc-tech.com/gpu/apple-8-core-m4-fl-vs-apple-18-core-m3-pro",
                "18-Core M3 Pro\n...\n2304 Shaders\nShared Memory\n1398MHz\n|\n...\nFP16\n6.44 TFLOPS",
            ),
            _turner(),
        ],
        cores=18,
        clock_ghz=1.398,
        bandwidth_gb_s=153.6,
        capacity_gb=36,
        notes="Memory options 18 or 36 GB; the preset holds 36. The 14-core M3 Pro has the same bandwidth. Peak: 18 cores x 128 ALUs x 2 x 1.398 GHz (2,304 shaders at 1,398 MHz).",
    ),
    _apple(
        slug="apple-m3-ultra",
        name="Apple M3 Ultra (80-core GPU)",
        sources=[
            {
                "title": "Ars Technica, Apple announces M3 Ultra (as republished)",
                "url": "https://inforeader.com/i/?a=reader&rid=67c916097fa95&search=%23m3%2Bultra",
                "secondary": True,
                "quote": "CPU P/E-cores | GPU cores | RAM options | Memory bandwidth | |\n---|---|---|---|---|\nApple M3 Ultra (low) | 20/8 | 60 | 96/256GB | 819.2GB/s |\nApple M3 Ultra (high) | 24/8 | 80 | 128GB/256GB/512GB | 819.2GB/s |",
            },
            {
                "title": "Michael Tsai, Apple M3 Ultra (quoting Apple Newsroom, 5 March 2025)",
                "url": "https://mjtsai.com/blog/2025/03/05/apple-m3-ultra/",
                "secondary": True,
                "quote": "M3 Ultra is built using Apple’s innovative UltraFusion packaging architecture, which links two M3 Max dies over 10,000 high-speed connections that offer low latency and high bandwidth.\n...\nStarting at 96GB, it can be configured up to 512GB, or over half a terabyte.",
            },
            _hmc(
                "https://hmc-tech.com/gpu/apple-32-core-m4-max-vs-apple-40-core-m3-max",
                "40-Core M3 Max\n...\n5120 Shaders\nShared Memory\n1398MHz",
            ),
            _turner(),
        ],
        cores=80,
        clock_ghz=1.398,
        bandwidth_gb_s=819.2,
        capacity_gb=512,
        notes="Memory options 96 or 256 GB (60-core GPU), 256 or 512 GB (80-core); the preset holds 512. Both GPU variants have 819.2 GB/s. No clock is listed for the M3 Ultra itself; it is two M3 Max dies, so the M3 Max's 1,398 MHz is used: 80 cores x 128 ALUs x 2 x 1.398 GHz.",
    ),
    _apple(
        slug="apple-m4",
        name="Apple M4 (10-core GPU)",
        sources=[
            _ars("Apple M4 (high) | 4/6 | 10 | 16/24/32GB | Up to three | 120GB/s |"),
            _hmc(
                "https://hmc-tech.com/gpu/apple-10-core-m4-vs-apple-24-core-m1-max",
                "10-Core M4 vs 24-Core M1 Max\n...\n| 1280 Shaders Shared Memory 1470MHz |\n| Peak AI Performance 3.76 TFLOPS FP16 |",
            ),
            _turner(),
        ],
        cores=10,
        clock_ghz=1.47,
        bandwidth_gb_s=120,
        capacity_gb=32,
        notes="Memory options 16, 24 or 32 GB; the preset holds 32. The 8-core M4 has the same bandwidth. Peak: 10 cores x 128 ALUs x 2 x 1.47 GHz (1,280 shaders at 1,470 MHz).",
    ),
    _apple(
        slug="apple-m4-pro",
        name="Apple M4 Pro (20-core GPU)",
        sources=[
            {
                "title": "TechMoran, Apple unveils its most powerful chips: the M4 Pro and M4 Max",
                "url": "https://techmoran.com/2024/10/31/apple-unveils-its-most-powerful-chips-the-m4-pro-and-m4-max/?amp=1",
                "secondary": True,
                "quote": "Supporting up to 64GB of unified memory at 273GB/s bandwidth, it offers 75% more bandwidth than the M3 Pro",
            },
            _ars("Apple M4 Pro (high) | 10/4 | 20 | 24/48/64GB | Up to three | 273GB/s |"),
            _hmc(
                "https://hmc-tech.com/gpu/apple-20-core-m4-pro-vs-intel-hd-620-1000mhz",
                "20-Core M4 Pro\n...\n2560 Shaders\nShared Memory\n1470MHz\n...\nFP16\n7.53 TFLOPS",
            ),
            _turner(),
        ],
        cores=20,
        clock_ghz=1.47,
        bandwidth_gb_s=273,
        capacity_gb=64,
        notes="Memory options 24, 48 or 64 GB; the preset holds 64. The 16-core M4 Pro has the same bandwidth. No public GPU matmul measurement of an M4 Pro was found, so the peak is shader arithmetic: 20 cores x 128 ALUs x 2 x 1.47 GHz (2,560 shaders at 1,470 MHz).",
    ),
    _apple(
        slug="apple-m4-max-32c",
        name="Apple M4 Max (32-core GPU)",
        sources=[
            {
                "title": "HungryGeeks, M1 Max, M2 Max, M4 Max compared: how high-end Apple Silicon has evolved",
                "url": "https://hungrygeeks.ph/m1-max-m2-max-m4-max-compared-how-high-end-apple-silicon-has-evolved/?noamp=mobile",
                "secondary": True,
                "quote": "GPU Cores32-core30-core or 38-core32-core or 40-core\n...\nMemory Bandwidth400GB/s400GB/s410GB/s ( 14-core ) or 546GB/s ( 16-core )",
            },
            {
                "title": "ITmedia report on the M4 Pro and M4 Max MacBook Pro (30 October 2024), as stored in the LLM_Dataset collection",
                "url": "https://huggingface.co/datasets/Yinxing/LLM_Dataset/blob/main/MacPro.txt",
                "secondary": True,
                "quote": "M4 Maxは、14コアCPU/32コアGPUと16コアCPU/40コアCPUの2種類で、前者がメモリ36GBのみ、後者が最大128GBまでとなっている。",
            },
            _hmc(
                "https://hmc-tech.com/gpu/apple-32-core-m4-max-vs-apple-40-core-m3-max",
                "32-Core M4 Max\n40-Core M3 Max\n4096 Shaders\nShared Memory\n1678MHz",
            ),
            _turner(),
        ],
        cores=32,
        clock_ghz=1.678,
        bandwidth_gb_s=410,
        capacity_gb=36,
        notes="The binned M4 Max (14-core CPU, 32-core GPU): 410 GB/s instead of 546, and 36 GB of memory only (the report's '前者がメモリ36GBのみ'). Peak: 32 cores x 128 ALUs x 2 x 1.678 GHz, the database's clock for this part; it lists 1,470 MHz for the M4 and M4 Pro, so this peak is the least sure of the Apple ones.",
    ),
    _apple(
        slug="apple-m5",
        name="Apple M5 (10-core GPU)",
        sources=[
            {
                "title": "The Decoder, Apple's M5 chip brings faster AI to MacBook, iPad and Vision Pro",
                "url": "https://the-decoder.com/apples-m5-chip-brings-faster-ai-to-macbook-ipad-and-vision-pro/",
                "secondary": True,
                "quote": 'Apple says the M5 delivers more than four times the GPU performance for AI tasks compared to the previous M4 chip. Each of the ten GPU cores includes a built-in "Neural Accelerator."\n...\nThe chip uses a third-generation 3 nm manufacturing process, offers 153 GB/s of shared memory bandwidth (about 30 percent more than before), and supports up to 32 GB of unified memory.',
            },
            _hmc(
                "https://hmc-tech.com/gpu/apple-10-core-m5-vs-intel-uhd-620-1100mhz",
                "10-Core M5\n...\n1280 Shaders\nShared Memory\n1740MHz\n...\nFP32\n4.45 TFLOPS\n...\nFP16\n8.91 TFLOPS\n4.45 TFLOPS Tensor (FP16 Accumulate)",
            ),
            _turner(),
        ],
        cores=10,
        clock_ghz=1.74,
        bandwidth_gb_s=153,
        capacity_gb=32,
        notes="Memory options up to 32 GB; the preset holds 32. Peak: 10 cores x 128 ALUs x 2 x 1.74 GHz = 4.45 TFLOP/s, the shader rate; each GPU core also has a Neural Accelerator for matrix math, which the database lists at 8.91 TFLOPS FP16 and Apple puts at over 4x the M4's GPU AI compute, so prefill may run faster than this peak says. Decode, bounded by 153 GB/s, does not depend on it.",
    ),
    _apple(
        slug="apple-m3-max-30c",
        name="Apple M3 Max (30-core GPU)",
        sources=[
            _APPLE_M3_MAX_SPECS,
            _hmc(
                "https://hmc-tech.com/gpu/apple-32-core-m4-max-vs-apple-40-core-m3-max",
                "40-Core M3 Max\n...\n5120 Shaders\nShared Memory\n1398MHz",
            ),
            _turner(),
        ],
        cores=30,
        clock_ghz=1.398,
        bandwidth_gb_s=300,
        capacity_gb=96,
        notes="The binned M3 Max (14-core CPU, 30-core GPU): Apple's tech specs give it 300 GB/s against the 40-core"
        " part's 400, and memory of 36 or 96 GB; the preset holds 96. Peak: 30 cores x 128 ALUs x 2 x 1.398 GHz,"
        " the clock the database lists for the 40-core M3 Max (same GPU design, fewer cores enabled).",
    ),
    _apple(
        slug="apple-m5-pro",
        name="Apple M5 Pro (20-core GPU)",
        sources=[_M5_PRO_MAX, _HMC_M5, _turner()],
        cores=20,
        clock_ghz=1.74,
        bandwidth_gb_s=307,
        capacity_gb=64,
        notes="Memory up to 64 GB; the preset holds 64. Peak: 20 cores x 128 ALUs x 2 x 1.74 GHz, the shader rate at"
        " the M5's GPU clock (no clock was found for the M5 Pro; it is the same GPU core design). Each GPU core"
        " has a Neural Accelerator for matrix math, so prefill may beat this peak; decode is bounded by 307 GB/s.",
    ),
    _apple(
        slug="apple-m5-max",
        name="Apple M5 Max (40-core GPU)",
        sources=[_M5_PRO_MAX, _HMC_M5, _turner()],
        cores=40,
        clock_ghz=1.74,
        bandwidth_gb_s=614,
        capacity_gb=128,
        notes="Memory up to 128 GB; the preset holds 128. Peak: 40 cores x 128 ALUs x 2 x 1.74 GHz, the shader rate at"
        " the M5's GPU clock (no clock was found for the M5 Max). Each GPU core has a Neural Accelerator, so"
        " prefill may beat this peak; decode is bounded by 614 GB/s.",
    ),
    _apple(
        slug="apple-m1",
        name="Apple M1 (8-core GPU)",
        sources=[
            {
                "title": "MrLiambi's blog, New Apple silicon: M1 Pro and M1 Max double down on performance potential",
                "url": "https://www.liambi.com/2021/10/new-apple-silicon-m1-pro-and-m1-max.html",
                "secondary": True,
                "quote": "M1: 8-core CPU, 7- or 8-core GPU, 68GB/s memory bandwidth, up to 16GB unified memory\n"
                "  • M1 Pro: 8- or 10-core CPU, 14- or 16-core GPU, 200GB/s memory bandwidth, up to 32GB unified memory",
            },
            _turner("| M1 | Apple 7 | 1278 MHz | 8 | 2617 | 2617 | 1309 |"),
        ],
        cores=8,
        clock_ghz=1.278,
        bandwidth_gb_s=68,
        capacity_gb=16,
        notes="Memory options 8 or 16 GB; the preset holds 16. 68 GB/s as the source rounds it (LPDDR4X-4266 on a"
        " 128-bit bus is 68.25 GB/s). The 7-core M1 has the same bandwidth. Peak: 8 cores x 128 ALUs x 2 x 1.278 GHz,"
        " the metal-benchmarks table's 2,617 GFLOPS F16.",
    ),
    _apple(
        slug="apple-m1-pro",
        name="Apple M1 Pro (16-core GPU)",
        sources=[
            {
                "title": "9to5Mac, Apple unveils next-generation M1 Pro and M1 Max chips for new Macs (18 October 2021)",
                "url": "https://9to5mac.com/2021/10/18/apple-unveils-next-generation-m1-pro-and-m1-max-chips-for-new-macs/",
                "secondary": True,
                "quote": "Here are the specs of the M1 Pro, as announced by Apple's Johnny Srouji during today's event:\n"
                "- 200GB/s memory bandwidth\n- Up to 32GB of unified memory\n...\n- Up to 10-core CPU\n"
                "- Up to 16-core GPU",
            },
            _turner("| M1 Pro | Apple 7 | 1296 MHz | 16 | 5308 | 5308 | 2654 |"),
        ],
        cores=16,
        clock_ghz=1.296,
        bandwidth_gb_s=200,
        capacity_gb=32,
        notes="Memory options 16 or 32 GB; the preset holds 32. The 14-core M1 Pro has the same bandwidth. Peak: 16"
        " cores x 128 ALUs x 2 x 1.296 GHz, the metal-benchmarks table's 5,308 GFLOPS F16.",
    ),
]

_TIERS = ("", "pro", "max", "ultra")


def _lineup_order(record: dict) -> tuple[int, int, float]:
    """M1 before M2; within a generation base, Pro, Max, Ultra; a binned variant (fewer GPU cores,
    less bandwidth) before the full chip: the order lists show."""
    generation, _, tier = record["slug"].removeprefix("apple-m").partition("-")
    return int(generation), _TIERS.index(tier.partition("-")[0]), record["memory_bandwidth"]["value"]


APPLE_RECORDS.sort(key=_lineup_order)
