"""What chips measurably reach: a second, achievable roof beside each datasheet figure.

A datasheet's memory bandwidth is the pins' rate; a program streaming through memory gets less
(refresh, bank and page switches, the controllers' turnaround between reads and writes). A copy
or STREAM-like kernel over arrays far larger than the caches is the usual measure of what is left.
Each entry here cites one such measurement with the exact lines it comes from:

- ``bandwidth``: ``value``/``unit`` as the source prints it (or, with ``mean_of_bytes_per_s``, the
  mean of those runs, each printed in the quote), the ``method`` (what ran, how it counts bytes) and
  the ``source`` (title, address, verbatim ``quote``, ``secondary``: not the chip's maker).
  A run over ``sockets`` CPUs of a multi-socket server prints their total; the preset, one
  socket, takes that total divided by ``sockets`` (each socket has its own memory channels, and
  the runs bind threads to every socket's local memory).
- ``matmul`` (optional): dense matrix-multiply rates in TFLOP/s by dtype, ``mean_of_flop_per_s``
  per dtype, and their ``source``.

Records are keyed by preset slug; :mod:`roofline_core.hardware.accelerators` adds them to the
presets, which refuse a measured roof at or above the datasheet's. The tests check every figure
against its quote and the project's own runs against their result files.
"""

from __future__ import annotations

#: Where this project's dated GPU runs live in its repository (``benchmarks/gpu/results``).
#: The address is the repository's default (``extra.repository`` in mkdocs.yml); a fork that
#: deploys the site under another name changes both.
PROJECT_RESULTS = "https://github.com/OWNER/roofline-glossary/blob/main/benchmarks/gpu/results/"

_COPY_METHOD = (
    "copy of a 2 GiB bf16 tensor with PyTorch (bytes read plus bytes written), median of repeats, mean of two runs"
)
_MATMUL_METHOD = "8192 x 8192 x 8192 matrix product with PyTorch, median of repeats, mean of two runs"


#: STREAM's byte count: Triad reads two arrays and writes one, 24 bytes per element, all counted.
_STREAM_TRIAD = (
    "STREAM 5.10 Triad (a = b + s*c, FP64; bytes read plus written, non-temporal stores), best of 10, OpenMP over"
    " both sockets with one thread per {step} cores; the two-socket total divided by 2"
)
_OCI_TITLE = "Oracle Japan OCI tutorials, How to run STREAM on {shape} ({cpu})"
_OCI_URL = "https://github.com/oracle-japan/ocitutorials/blob/HEAD/content/hpc/benchmark/{page}/index.md"
_STREAM_HEADER = "Function    Best Rate MB/s  Avg time     Min time     Max time\n"


def _project_runs(first: str, second: str, lines: str) -> dict:
    return {
        "title": f"Roofline Glossary GPU runs {first}.json and {second}.json (benchmarks/gpu/measure.py)",
        "url": PROJECT_RESULTS + first + ".json",
        "secondary": False,
        "files": [f"benchmarks/gpu/results/{first}.json", f"benchmarks/gpu/results/{second}.json"],
        "quote": lines,
    }


_H100_RUNS = _project_runs(
    "2026-11-27-h100-sxm-run1",
    "2026-11-27-h100-sxm-run2",
    '"device_name": "NVIDIA H100 80GB HBM3" ... run1: "kind": "copy", "bandwidth_bytes_per_s": 2990724337606.856,'
    ' "note": "bytes read plus bytes written"; "kind": "bf16", "flop_per_s": 745144669972901.1;'
    ' "kind": "fp8 e4m3", "flop_per_s": 1314350014455738.8. run2: "kind": "copy",'
    ' "bandwidth_bytes_per_s": 2951916203661.815; "kind": "bf16", "flop_per_s": 736582628999163.8;'
    ' "kind": "fp8 e4m3", "flop_per_s": 1210915860051156.5',
)

_H200_RUNS = _project_runs(
    "2026-11-27-h200-run1",
    "2026-11-27-h200-run2",
    '"device_name": "NVIDIA H200" ... run1: "kind": "copy", "bandwidth_bytes_per_s": 4225466730752.194,'
    ' "note": "bytes read plus bytes written"; "kind": "bf16", "flop_per_s": 792228386963329.0;'
    ' "kind": "fp8 e4m3", "flop_per_s": 1383771524255161.5. run2: "kind": "copy",'
    ' "bandwidth_bytes_per_s": 4200144686463.4155; "kind": "bf16", "flop_per_s": 782085133681497.6;'
    ' "kind": "fp8 e4m3", "flop_per_s": 1389760282704499.8',
)

#: Sasank Chilamkurthy's device-benchmarks: ``benchmark.py`` copies one float32 tensor into
#: another with PyTorch and counts 2 x the tensor's bytes (read plus write) over the mean time of
#: 10 repeats; the largest size is 2^26.5 elements (about 380 MB), past every cache here.
_CHSASANK_METHOD = (
    "PyTorch copy_ of a float32 tensor of up to about 380 MB (bytes read plus bytes written), mean of 10 repeats,"
    " the README table's figure"
)
_CHSASANK_URL = "https://github.com/chsasank/device-benchmarks/blob/02b8262e7ade1dc9a3cbba3b1e6bc345195c3adb/README.md"
_CHSASANK_HEADER = (
    "I copy a large tensor to measure bandwidth.\n...\n"
    "| Device | Device Type | TFLOPs (FP32) | TFLOPs (FP16)| TFLOPs (BF16) | TOPS (INT8) | Memory Bandwidth (GB/s) |\n"
    "...\n"
)


def _chsasank(gb_per_s: float, row: str) -> dict:
    """A GPU row of the device-benchmarks README table: its copy bandwidth in GB/s."""
    return {
        "bandwidth": {
            "value": gb_per_s,
            "unit": "GB/s",
            "method": _CHSASANK_METHOD,
            "source": {
                "title": "Sasank Chilamkurthy, device-benchmarks README: matrix-multiplication FLOP/s and copy"
                " bandwidth measured with PyTorch",
                "url": _CHSASANK_URL,
                "secondary": True,
                "quote": _CHSASANK_HEADER + row,
            },
        }
    }


MEASURED_CEILINGS: dict[str, dict] = {
    "h100-sxm": {
        "bandwidth": {
            "value": 2.97,
            "unit": "TB/s",
            "mean_of_bytes_per_s": [2990724337606.856, 2951916203661.815],
            "method": _COPY_METHOD,
            "source": _H100_RUNS,
        },
        "matmul": {
            "tera_per_s": {"bf16": 740.9, "fp8": 1262.6},
            "mean_of_flop_per_s": {
                "bf16": [745144669972901.1, 736582628999163.8],
                "fp8": [1314350014455738.8, 1210915860051156.5],
            },
            "method": _MATMUL_METHOD,
            "source": _H100_RUNS,
        },
    },
    "h200": {
        "bandwidth": {
            "value": 4.21,
            "unit": "TB/s",
            "mean_of_bytes_per_s": [4225466730752.194, 4200144686463.4155],
            "method": _COPY_METHOD,
            "source": _H200_RUNS,
        },
        "matmul": {
            "tera_per_s": {"bf16": 787.2, "fp8": 1386.8},
            "mean_of_flop_per_s": {
                "bf16": [792228386963329.0, 782085133681497.6],
                "fp8": [1383771524255161.5, 1389760282704499.8],
            },
            "method": _MATMUL_METHOD,
            "source": _H200_RUNS,
        },
    },
    "a100-sxm-80gb": {
        "bandwidth": {
            "value": 1709360.800,
            "unit": "MB/s",
            "method": "BabelStream 5.0 Copy, CUDA, FP64, 268.4 MB arrays (bytes read plus written), best of 100",
            "source": {
                "title": "UKRI benchmark suite, BabelStream: example performance data (Tursa, A100-SXM4-80GB)",
                "url": "https://github.com/ukri-bench/benchmark-BabelStream/blob/HEAD/README.md",
                "secondary": True,
                "quote": "Using CUDA device NVIDIA A100-SXM4-80GB\nDriver: 12030\n...\nFunction    MBytes/sec  Min (sec)"
                "   Max         Average\nCopy        1709360.800 0.00031     0.00032     0.00032\n"
                "Mul         1676181.608 0.00032     0.00033     0.00033\n"
                "Add         1715845.543 0.00047     0.00048     0.00047\n"
                "Triad       1724827.354 0.00047     0.00047     0.00047",
            },
        },
    },
    "a100-sxm-40gb": {
        "bandwidth": {
            "value": 1394571.325,
            "unit": "MB/s",
            "method": "BabelStream 4.0 Copy, CUDA, FP64, 268.4 MB arrays (bytes read plus written), best of 100",
            "source": {
                "title": "ALCF Beginners Guide, Polaris examples: BabelStream on an A100-SXM4-40GB",
                "url": "https://github.com/argonne-lcf/ALCFBeginnersGuide/blob/HEAD/polaris/02_profiling.md",
                "secondary": True,
                "quote": "Using CUDA device NVIDIA A100-SXM4-40GB\nDriver: 11040\nFunction    MBytes/sec  Min (sec)"
                "   Max         Average\nCopy        1394571.325 0.00038     0.00039     0.00039\n"
                "Mul         1356858.489 0.00040     0.00040     0.00040\n"
                "Add         1369610.580 0.00059     0.00059     0.00059\n"
                "Triad       1377425.601 0.00058     0.00059     0.00059",
            },
        },
    },
    "mi300x": {
        "bandwidth": {
            "value": 4255995.148,
            "unit": "MB/s",
            "method": "BabelStream 5.0 Copy, HIP, FP64, 2147.5 MB arrays (bytes read plus written), 50 runs;"
            " AMD's minimum passing score for an acceptance test is 4,177,285 MB/s",
            "source": {
                "title": "AMD Instinct MI300X system acceptance guide: performance benchmarking, BabelStream",
                "url": "https://github.com/ROCm/system-acceptance-docs/blob/HEAD/docs/performance-bench/mi300x.rst",
                "secondary": False,
                "quote": "Using HIP device AMD Instinct MI300X\n...\nFunction MBytes/sec Min (sec) Max Average\n"
                "Copy 4255995.148 0.00101 0.00117 0.00106\nMul 4115971.910 0.00104 0.00111 0.00106\n"
                "Add 3956389.991 0.00163 0.00170 0.00165\nTriad 3948061.647 0.00163 0.00180 0.00166\n"
                "... Average, Pass/Fail memory bandwidth for BabelStream benchmarking ... Copy 4,177,285",
            },
        },
    },
    # Server CPUs: STREAM on two-socket hosts, per socket (see the module docstring).
    "epyc-9654": {
        "bandwidth": {
            "value": 715650.4,
            "unit": "MB/s",
            "sockets": 2,
            "method": _STREAM_TRIAD.format(step=2) + "; NPS1 (one NUMA node per socket), Oracle's Genoa shape",
            "source": {
                "title": _OCI_TITLE.format(shape="BM.Standard.E5.192", cpu="two EPYC 9654-based CPUs"),
                "url": _OCI_URL.format(page="run-stream-e5"),
                "secondary": True,
                "quote": "CPU： **AMD EPYC** 9654ベース x 2（192コア）\n    - メモリ： DDR5 2.3 TB\n...\n    - メモリ帯域："
                " 921.6 GB/s\n...\n[ **NPS1** の場合]\n...\n" + _STREAM_HEADER + "Copy:          681724.7     0.010136"
                "     0.010094     0.010191\nScale:         685595.0     0.010068     0.010037     0.010095\nAdd:"
                "           721807.1     0.014329     0.014300     0.014359\nTriad:         715650.4     0.014469"
                "     0.014423     0.014515",
            },
        },
    },
    "epyc-9755": {
        "bandwidth": {
            "value": 986224.2,
            "unit": "MB/s",
            "sockets": 2,
            "method": _STREAM_TRIAD.format(step=8) + "; NPS1, Oracle's Turin shape (memory at DDR5-6400)",
            "source": {
                "title": _OCI_TITLE.format(shape="BM.Standard.E6.256", cpu="two EPYC 9755-based CPUs"),
                "url": _OCI_URL.format(page="run-stream-e6"),
                "secondary": True,
                "quote": "CPU： **AMD EPYC** 9755ベース x 2（256コア）\n...\n    - メモリ帯域： 1,228.8 GB/s\n...\n"
                "[ **NPS1** の場合]\n...\n" + _STREAM_HEADER + "Copy:          936354.1     0.007465     0.007349"
                "     0.007697\nScale:         934051.1     0.007419     0.007367     0.007455\nAdd:           986516.4"
                "     0.010497     0.010463     0.010529\nTriad:         986224.2     0.010486     0.010466     0.010522",
            },
        },
    },
    "xeon-8480plus": {
        "bandwidth": {
            "value": 372.228,
            "unit": "GB/s",
            "sockets": 2,
            "method": "My Stream Benchmark, MPI, 112 processes over two sockets, 'axpy (TRIAD)' kernel (bytes read plus"
            " written as the tool counts them), 50 repetitions; the two-socket total divided by 2. The DIMM population"
            " is not stated, so this is what that host reached, likely below a fully populated DDR5-4800 socket",
            "source": {
                "title": "S. Rizzi (simon-r), My_Stream_Benchmark RESULTS.md: Intel Xeon Platinum 8480+ (2x NUMA CPUs)",
                "url": "https://github.com/simon-r/My_Stream_Benchmark/blob/HEAD/RESULTS.md",
                "secondary": True,
                "quote": "## Intel(R) Xeon(R) Platinum 8480+ (2x NUMA CPUs)\n...\n    Number of MPI processes:"
                "               112\n...\n    Test            Total bandwidth        clock  \n...\n"
                "    FMA:            379.202 GB/s,          78.594036 ms\n    copy:           354.011 GB/s,"
                "          42.092840 ms\n    axpy (TRIAD):   372.228 GB/s,          60.048817 ms",
            },
        },
    },
    # One person's PyTorch copy runs on desktop GPUs and Macs (README table, pinned commit).
    "rtx-3090": _chsasank(831, "| Nvidia 3090 | GPU | 27 |  |  |  | 831 |"),
    "rtx-4090": _chsasank(912, "| Nvidia 4090 | GPU | 58 |  | 168 | NA | 912 |"),
    "rtx-4070-super": _chsasank(411, "| Nvidia 4070 Super | GPU | 23 |  |  |  | 411 |"),
    "a10": _chsasank(469, "| Nvidia A10 24GB | GPU | 14 | 54 | 56 | NA | 469 |"),
    "rx-7900-xtx": _chsasank(792, "| AMD 7900 XTX | GPU | 26 |  | 104 | NA | 792 |"),
    "arc-a770": _chsasank(452, "| Intel Arc 770 16GB | GPU | 15 |  | 90 | 174 | 452 |"),
    "apple-m1": _chsasank(56, "| Apple M1 GPU | GPU | 1.4 |  |  |  |  | 56 |"),
    "apple-m1-pro": _chsasank(176, "| Apple M1 Pro GPU 16-core | GPU | 3.7 | 4.3 |  |  | 176 |"),
    "apple-m2": _chsasank(90, "| Apple M2 GPU | GPU | 2 |  | NA | NA | 90 |"),
    "apple-m2-ultra": _chsasank(636, "| Apple M2 Ultra GPU (76 Core) | GPU | 20 |  |  |  | 636 |"),
}
