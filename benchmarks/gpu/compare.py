"""Set the GPU measurements beside roofline_core's estimates for the same scenarios.

    .venv/bin/python benchmarks/gpu/compare.py benchmarks/gpu/results/*.json

For each file written by ``benchmarks/gpu/measure.py`` it prints the achievable ceilings as shares
of the preset's datasheet figures, and every decode and prefill time as a share of the speed of
light that ``roofline_core`` computes for that model, chip, batch and context (bf16 weights and
cache, as measured). No GPU is needed: it only reads the JSON.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
import roofline_core as rc  # noqa: E402

# nvidia-smi's names for the parts the presets hold.
PRESET_OF_DEVICE = {
    "NVIDIA H200": "h200",
    "NVIDIA H100 80GB HBM3": "h100-sxm",
}


def load(paths: list[Path]) -> dict[str, list[dict]]:
    """The runs of each preset, read from measure.py's files."""
    runs: dict[str, list[dict]] = {}
    for path in paths:
        data = json.loads(path.read_text())
        if data.get("quick"):
            continue
        name = data["environment"]["device_name"]
        if name not in PRESET_OF_DEVICE:
            print(f"{path}: no preset for {name!r}; skipped")
            continue
        runs.setdefault(PRESET_OF_DEVICE[name], []).append(data)
    return runs


def median_over(runs: list[dict], pick) -> float:
    return statistics.median(pick(run) for run in runs)


def ceilings(slug: str, runs: list[dict]) -> None:
    chip = rc.get_accelerator(slug)
    print(
        f"\n## {chip.name} ({len(runs)} runs; datasheet {chip.bandwidth_bytes_per_s / 1e12:.2f} TB/s, "
        f"bf16 {chip.peak_flop_per_s['bf16'] / 1e12:.0f} TFLOP/s)"
    )
    print("| ceiling | measured (median of runs) | share of datasheet |")
    print("|---|---|---|")
    for kind in [row["kind"] for row in runs[0]["bandwidth"]]:
        value = median_over(
            runs, lambda run, kind=kind: next(r for r in run["bandwidth"] if r["kind"] == kind)["bandwidth_bytes_per_s"]
        )
        print(f"| {kind} | {value / 1e12:.2f} TB/s | {value / chip.bandwidth_bytes_per_s:.0%} |")
    for row in runs[0]["matmul"]:
        kind = row["kind"]
        if "flop_per_s" not in row:
            continue
        value = median_over(
            runs, lambda run, kind=kind: next(r for r in run["matmul"] if r["kind"] == kind)["flop_per_s"]
        )
        dtype = {"fp8 e4m3": "fp8", "tf32": "tf32"}.get(kind, kind)
        peak = chip.peak_flop_per_s.get(dtype)
        share = f"{value / peak:.0%}" if peak else "no datasheet figure"
        print(f"| {kind} matmul n={row['n']} | {value / 1e12:.0f} TFLOP/s | {share} |")


#: The time each phase's cells record.
MEASURED_KEY = {"decode": "step_s", "prefill": "time_s"}


def light_s(model, chip, phase: str, cell: dict) -> float:
    """The speed of light of a recorded cell, in seconds: bf16 weights and cache, as measured."""
    if phase == "decode":
        return rc.estimate_decode(
            model=model,
            accelerator=chip,
            weight_dtype="bf16",
            kv_dtype="bf16",
            batch=cell["batch"],
            context_tokens=cell["context_tokens"],
        ).step_time_s
    return rc.estimate_prefill(
        model=model, accelerator=chip, weight_dtype="bf16", prompt_tokens=cell["prompt_tokens"]
    ).step_time_s


def cells(runs: list[dict], chip, phase: str):
    """Each measured cell of ``phase``: (model, cell, median over the runs in seconds, speed of light)."""
    key = MEASURED_KEY[phase]
    for index, entry in enumerate(runs[0]["models"]):
        model = rc.get_model(entry["model"])
        for cell_index, cell in enumerate(entry[phase]):
            if key not in cell:
                continue
            measured = median_over(runs, lambda run, i=index, c=cell_index: run["models"][i][phase][c][key])
            yield model, cell, measured, light_s(model, chip, phase, cell)


def steps(slug: str, runs: list[dict]) -> None:
    chip = rc.get_accelerator(slug)
    print("\n| model | batch | context | measured step | speed of light | measured / light |")
    print("|---|---|---|---|---|---|")
    shares = []
    for model, cell, measured, light in cells(runs, chip, "decode"):
        shares.append(light / measured)
        print(
            f"| {model.name} | {cell['batch']} | {cell['context_tokens']:,} | {measured * 1e3:.3f} ms "
            f"| {light * 1e3:.3f} ms | {light / measured:.0%} of light's speed |"
        )
    print(
        f"\nDecode steps reach {min(shares):.0%} to {max(shares):.0%} of the speed of light "
        f"(median {statistics.median(shares):.0%})."
    )
    print("\n| model | prompt | measured prefill | speed of light | share |")
    print("|---|---|---|---|---|")
    for model, cell, measured, light in cells(runs, chip, "prefill"):
        print(
            f"| {model.name} | {cell['prompt_tokens']:,} | {measured * 1e3:.2f} ms "
            f"| {light * 1e3:.2f} ms | {light / measured:.0%} |"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", type=Path)
    args = parser.parse_args()
    for slug, runs in load(args.files).items():
        ceilings(slug, runs)
        steps(slug, runs)


if __name__ == "__main__":
    main()
