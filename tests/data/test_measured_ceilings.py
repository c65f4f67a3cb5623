"""Every measured (achievable) roof quotes its measurement and lies below the datasheet's roof.

The project's own runs are checked against the result files they cite, so a re-run that replaces
a file without updating the ceiling fails here.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from statistics import fmean

import pytest

from roofline_core.hardware import ACCELERATORS, TERA
from roofline_core.hardware.accelerators import _UNIT_BYTES
from roofline_core.hardware.measured_ceilings import MEASURED_CEILINGS

ROOT = Path(__file__).resolve().parents[2]
_NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")


def _stated(text: str) -> list[float]:
    return [float(n.replace(",", "")) for n in _NUMBER.findall(text)]


def _is_stated(value: float, text: str) -> bool:
    return any(abs(n - value) <= 1e-9 * max(1.0, value) for n in _stated(text))


SLUGS = sorted(MEASURED_CEILINGS)


def test_the_requested_chips_have_a_measured_roof() -> None:
    assert {"h100-sxm", "h200", "a100-sxm-80gb", "mi300x"} <= set(SLUGS)
    assert set(SLUGS) <= set(ACCELERATORS), "a measured roof for a chip that is not a preset"


@pytest.mark.parametrize("slug", SLUGS)
def test_each_measured_bandwidth_appears_in_its_quote(slug: str) -> None:
    entry = MEASURED_CEILINGS[slug]["bandwidth"]
    source = entry["source"]
    assert source["url"].startswith("https://") and source["title"].strip() and entry["method"].strip()
    runs = entry.get("mean_of_bytes_per_s")
    if runs:
        # A mean of runs: each run is quoted, and the value is their mean as rounded.
        assert all(_is_stated(run, source["quote"]) for run in runs), slug
        assert entry["value"] * _UNIT_BYTES[entry["unit"]] == pytest.approx(fmean(runs), rel=5e-3)
    else:
        assert _is_stated(entry["value"], source["quote"]), f"{slug}: {entry['value']} not in its quote"


@pytest.mark.parametrize("slug", SLUGS)
def test_each_measured_roof_is_below_its_datasheet_roof(slug: str) -> None:
    chip = ACCELERATORS[slug]
    measured = chip.measured_bandwidth_bytes_per_s
    assert measured is not None and 0 < measured < chip.bandwidth_bytes_per_s, slug
    # A copy kernel reaches most of the pins' rate; a figure far below is a misread unit.
    assert measured > 0.6 * chip.bandwidth_bytes_per_s, slug
    assert chip.measured_bandwidth_source is not None
    for dtype, rate in chip.measured_peak_flop_per_s.items():
        assert 0 < rate < chip.peak_for(dtype), (slug, dtype)


@pytest.mark.parametrize("slug", [s for s in SLUGS if "matmul" in MEASURED_CEILINGS[s]])
def test_each_measured_matmul_rate_is_the_mean_of_its_quoted_runs(slug: str) -> None:
    entry = MEASURED_CEILINGS[slug]["matmul"]
    for dtype, tera in entry["tera_per_s"].items():
        runs = entry["mean_of_flop_per_s"][dtype]
        assert all(_is_stated(run, entry["source"]["quote"]) for run in runs), (slug, dtype)
        assert tera * TERA == pytest.approx(fmean(runs), rel=1e-3), (slug, dtype)


@pytest.mark.parametrize("slug", [s for s in SLUGS if "files" in MEASURED_CEILINGS[s]["bandwidth"]["source"]])
def test_the_projects_own_runs_match_their_result_files(slug: str) -> None:
    entry = MEASURED_CEILINGS[slug]
    files = entry["bandwidth"]["source"]["files"]
    results = [json.loads((ROOT / path).read_text(encoding="utf-8")) for path in files]
    copies = [next(b["bandwidth_bytes_per_s"] for b in r["bandwidth"] if b["kind"] == "copy") for r in results]
    assert copies == entry["bandwidth"]["mean_of_bytes_per_s"]
    matmul = entry.get("matmul")
    if matmul:
        kinds = {"bf16": "bf16", "fp16": "fp16", "fp8": "fp8 e4m3"}
        for dtype, runs in matmul["mean_of_flop_per_s"].items():
            assert runs == [next(m["flop_per_s"] for m in r["matmul"] if m["kind"] == kinds[dtype]) for r in results]


def test_desktop_cards_and_macs_have_a_measured_roof() -> None:
    """Consumer GPUs and Apple silicon, where most readers run models, have a second roof too."""
    assert {"rtx-3090", "rtx-4090", "rx-7900-xtx", "arc-a770", "apple-m1-pro", "apple-m2-ultra"} <= set(SLUGS)
    assert len(SLUGS) >= 14


#: The server CPUs with a cited STREAM run (two-socket hosts, one socket's share).
CPU_CEILINGS = {"epyc-9654": 2, "epyc-9755": 2, "xeon-8480plus": 2}


def test_cpu_presets_have_a_stream_roof_of_one_socket() -> None:
    for slug, sockets in CPU_CEILINGS.items():
        entry = MEASURED_CEILINGS[slug]["bandwidth"]
        assert entry["sockets"] == sockets and "divided by 2" in entry["method"], slug
        total = entry["value"] * _UNIT_BYTES[entry["unit"]]
        assert ACCELERATORS[slug].measured_bandwidth_bytes_per_s == pytest.approx(total / sockets), slug
        assert ACCELERATORS[slug].kind == "cpu"
    # Genoa: 715,650.4 MB/s over two sockets is 357.8 GB/s a socket, 78% of 460.8 GB/s.
    genoa = ACCELERATORS["epyc-9654"]
    assert genoa.measured_bandwidth_bytes_per_s == pytest.approx(357.8252e9)
    assert genoa.measured_bandwidth_bytes_per_s / genoa.bandwidth_bytes_per_s == pytest.approx(0.7765, abs=1e-4)
