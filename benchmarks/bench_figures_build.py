"""Time site builds with a cold and a warm figure cache, and count the figures drawn.

Cold: every build gets an empty cache folder (``ROOFLINE_FIGURES_CACHE_DIR``), so every figure
is drawn with matplotlib. Warm: builds reuse one filled folder, so nothing is drawn. Each build
is a fresh ``mkdocs build --strict`` process, as a contributor runs it.

    .venv/bin/python benchmarks/bench_figures_build.py [--runs 3]
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parents[1]
REPORT = re.compile(r"figures: (\d+) drawn, (\d+) from the cache")


def build(site_dir: Path, cache_dir: Path) -> tuple[float, int, int]:
    """One strict build; returns (seconds, figures drawn, figures from the cache)."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "ROOFLINE_FIGURES_CACHE_DIR": str(cache_dir)}
    args = [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site_dir)]
    start = time.perf_counter()
    result = subprocess.run(args, cwd=PROJECT_ROOT, env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if result.returncode != 0:
        raise SystemExit(f"build failed:\n{result.stderr}")
    match = REPORT.search(result.stderr)
    if not match:
        raise SystemExit("the build did not report its figures (is hooks/fences.py in mkdocs.yml?)")
    return seconds, int(match.group(1)), int(match.group(2))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="builds of each kind (default 3)")
    runs = parser.parse_args().runs
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        cold = [build(root / f"site-cold-{i}", root / f"cache-cold-{i}") for i in range(runs)]
        warm_cache = root / "cache-warm"
        build(root / "site-fill", warm_cache)
        warm = [build(root / f"site-warm-{i}", warm_cache) for i in range(runs)]
    for name, rows in (("cold", cold), ("warm", warm)):
        times = [seconds for seconds, _, _ in rows]
        drawn = {d for _, d, _ in rows}
        cached = {c for _, _, c in rows}
        print(
            f"{name}: median {statistics.median(times):.2f} s over {runs} builds "
            f"(min {min(times):.2f}, max {max(times):.2f}); figures drawn {sorted(drawn)}, from cache {sorted(cached)}"
        )
    saved = statistics.median(t for t, _, _ in cold) - statistics.median(t for t, _, _ in warm)
    print(f"drawing the figures costs {saved:.2f} s of a cold build")


if __name__ == "__main__":
    main()
