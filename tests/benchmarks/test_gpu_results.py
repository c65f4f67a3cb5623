"""The recorded GPU runs (benchmarks/gpu/results/) against roofline_core's speed of light.

No measured step may beat the speed of light that roofline_core computes for the same model, chip
and scenario: one that did would mean a wrong preset or a wrong count of bytes or FLOPs.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import roofline_core as rc
from benchmarks.gpu.compare import MEASURED_KEY, PRESET_OF_DEVICE, light_s

ROOT = Path(__file__).resolve().parents[2]
RESULTS = sorted((ROOT / "benchmarks" / "gpu" / "results").glob("*.json"))


def test_results_are_recorded_with_their_conditions():
    assert len(RESULTS) >= 2
    for path in RESULTS:
        environment = json.loads(path.read_text())["environment"]
        assert environment["device_name"] in PRESET_OF_DEVICE, path.name
        for key in ("date_utc", "torch", "cuda", "load_average"):
            assert environment[key], (path.name, key)
        assert path.name.startswith(environment["date_utc"][:10]), path.name


def test_no_measured_step_beats_the_speed_of_light():
    for path in RESULTS:
        data = json.loads(path.read_text())
        chip = rc.get_accelerator(PRESET_OF_DEVICE[data["environment"]["device_name"]])
        for entry in data["models"]:
            model = rc.get_model(entry["model"])
            for phase, key in MEASURED_KEY.items():
                for cell in entry[phase]:
                    assert light_s(model, chip, phase, cell) <= cell[key], (path.name, entry["model"], phase, cell)
        for row in data["bandwidth"]:
            assert row["bandwidth_bytes_per_s"] < chip.bandwidth_bytes_per_s, (path.name, row["kind"])


def test_compare_prints_every_model():
    printed = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "gpu" / "compare.py"), *map(str, RESULTS)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "## NVIDIA H100 SXM" in printed and "## NVIDIA H200" in printed
    for slug in ("llama-3.2-1b", "llama-3.1-8b", "qwen3-32b"):
        assert rc.get_model(slug).name in printed
