"""How long one calculator compute takes, on CPython and inside Pyodide (Node), in the same run.

Usage (after scripts/setup)::

    .venv/bin/python benchmarks/bench_compute.py [--calls 300]

Each calculator's ``compute(id, defaults)``, and ``compute_view_json`` (what the browser's
worker calls: compute, lay out the chart and table, serialise), is called ``--calls`` times
after a warm-up call;
the script prints the median and 90th percentile of one call per calculator and runtime.
Pyodide runs the same zip the site serves (roofline_site.pyodide_bundle), in the pinned npm
package under Node, so its numbers stand in for the browser's worker. A measurement, not a test.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(PROJECT_ROOT))  # run as a script: make `tests.pyodide` importable

from roofline_site.pyodide_bundle import core_zip_bytes  # noqa: E402
from tests.pyodide import key_numbers  # noqa: E402

RUNNER = PROJECT_ROOT / "tests" / "pyodide" / "run_in_pyodide.mjs"


def _pyodide_timings(calls: int) -> dict:
    node = shutil.which("node")
    if node is None or not (PROJECT_ROOT / "node_modules" / "pyodide" / "pyodide.mjs").is_file():
        raise SystemExit("bench_compute: needs node and node_modules/pyodide; run scripts/setup")
    with tempfile.TemporaryDirectory() as tmp:
        zip_path = Path(tmp) / "roofline_core.zip"
        zip_path.write_bytes(core_zip_bytes())
        result = subprocess.run(
            [
                node,
                str(RUNNER),
                str(zip_path),
                str(PROJECT_ROOT / "tests" / "pyodide" / "key_numbers.py"),
                f"bench_json({calls})",
            ],
            capture_output=True,
            text=True,
            check=False,
        )
    if result.returncode != 0:
        raise SystemExit(f"bench_compute: the Pyodide run failed:\n{result.stderr}")
    return json.loads(result.stdout)


def _percentile(samples: list[float], share: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=300, help="calls per calculator and runtime (default 300)")
    args = parser.parse_args()
    runs = [json.loads(key_numbers.bench_json(args.calls)), _pyodide_timings(args.calls)]
    tables = {
        "timings_s": "compute(id, defaults)",
        "view_timings_s": "compute_view_json(id, defaults, dom_id), the browser's whole round trip",
    }
    for key, what in tables.items():
        print(f"{what}: one call, {args.calls} calls per calculator after a warm-up\n")
        header = f"{'calculator':<24}" + "".join(f"{run['runtime'][:34]:>38}" for run in runs)
        print(header)
        print(f"{'':<24}" + "".join(f"{'median ms':>24}{'p90 ms':>14}" for _ in runs))
        for calc_id in runs[0][key]:
            cells = ""
            for run in runs:
                samples = run[key][calc_id]
                cells += f"{statistics.median(samples) * 1e3:>24.3f}{_percentile(samples, 0.9) * 1e3:>14.3f}"
            print(f"{calc_id:<24}{cells}")
        print()


if __name__ == "__main__":
    main()
