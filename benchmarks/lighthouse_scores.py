"""Lighthouse scores and key timings for the home page, a glossary term and a calculator page.

Usage (after scripts/setup)::

    .venv/bin/python benchmarks/lighthouse_scores.py [--runs 3] [--preset mobile|desktop]

Builds the site, serves it on 127.0.0.1 as a static host does (gzip, caching headers:
benchmarks/host_server.py) and runs the pinned Lighthouse (benchmarks/package.json,
installed here on first use with ``npm ci`` so that scripts/setup stays light) against Debian's
Chromium (``CHROME_PATH``, default /usr/bin/chromium) with the flags from ARCHITECTURE.md.
Prints the median over ``--runs`` of the performance, accessibility, best-practices and SEO
scores and of FCP, LCP, TBT and CLS. Lighthouse's default mobile run simulates a slow 4G
network and a 4x slower CPU, so its timings are estimates for a phone, not this machine's.
A measurement, not a test.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import tempfile
from pathlib import Path

from site_pages import PROJECT_ROOT, build_site, representative_pages

from benchmarks.host_server import HostServer
from tests.support.site_pages import url_path

BENCH_DIR = PROJECT_ROOT / "benchmarks"
LIGHTHOUSE = BENCH_DIR / "node_modules" / "lighthouse" / "cli" / "index.js"
CHROME_FLAGS = "--headless=new --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking --disable-component-update --disable-sync"
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
AUDITS = {
    "FCP": "first-contentful-paint",
    "LCP": "largest-contentful-paint",
    "TBT": "total-blocking-time",
    "CLS": "cumulative-layout-shift",
}


def ensure_lighthouse() -> None:
    if LIGHTHOUSE.is_file():
        return
    if shutil.which("npm") is None:
        raise SystemExit("lighthouse_scores: needs npm to install benchmarks/package.json")
    print("installing Lighthouse (benchmarks/package-lock.json) ...", flush=True)
    subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=BENCH_DIR, check=True)


def run_lighthouse(url: str, preset: str, out_dir: Path) -> dict:
    output = out_dir / "report.json"
    args = [
        "node",
        str(LIGHTHOUSE),
        url,
        "--quiet",
        "--output=json",
        f"--output-path={output}",
        f"--chrome-flags={CHROME_FLAGS}",
        "--only-categories=" + ",".join(CATEGORIES),
    ]
    if preset == "desktop":
        args.append("--preset=desktop")
    env = {**os.environ, "CHROME_PATH": os.environ.get("CHROME_PATH", "/usr/bin/chromium")}
    result = subprocess.run(args, capture_output=True, text=True, env=env, timeout=300)
    if result.returncode != 0 or not output.is_file():
        raise SystemExit(f"lighthouse failed on {url}:\n{result.stderr[-3000:]}")
    report = json.loads(output.read_text(encoding="utf-8"))
    if report.get("runtimeError"):
        raise SystemExit(f"lighthouse runtime error on {url}: {report['runtimeError']}")
    scores = {name: round(report["categories"][name]["score"] * 100) for name in CATEGORIES}
    timings = {key: report["audits"][audit]["numericValue"] for key, audit in AUDITS.items()}
    failing = sorted(
        f"{audit_id}"
        for cat in CATEGORIES
        for ref in report["categories"][cat]["auditRefs"]
        if ref["weight"] > 0
        and (audit_id := ref["id"]) in report["audits"]
        and report["audits"][audit_id].get("score") is not None
        and report["audits"][audit_id]["score"] < 0.9
    )
    return {"scores": scores, "timings": timings, "failing": failing}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--preset", choices=("mobile", "desktop"), default="mobile")
    options = parser.parse_args()
    ensure_lighthouse()
    with tempfile.TemporaryDirectory() as tmp:
        site_dir = Path(tmp) / "site"
        build_site(site_dir)
        pages = representative_pages(site_dir)
        print(
            f"Lighthouse 12.8.2 ({options.preset}), median of {options.runs} runs, Chrome at {os.environ.get('CHROME_PATH', '/usr/bin/chromium')}"
        )
        header = (
            f"{'page':<16} {'path':<34} "
            + " ".join(f"{c[:4]:>5}" for c in CATEGORIES)
            + f" {'FCP ms':>7} {'LCP ms':>7} {'TBT ms':>7} {'CLS':>6}"
        )
        print(header)
        with HostServer(site_dir) as server:
            for kind, page in pages.items():
                runs = [
                    run_lighthouse(server.url + url_path(page), options.preset, Path(tmp)) for _ in range(options.runs)
                ]
                scores = {c: statistics.median(r["scores"][c] for r in runs) for c in CATEGORIES}
                timings = {k: statistics.median(r["timings"][k] for r in runs) for k in AUDITS}
                print(
                    f"{kind:<16} {url_path(page) or '/':<34} "
                    + " ".join(f"{scores[c]:>5.0f}" for c in CATEGORIES)
                    + f" {timings['FCP']:>7.0f} {timings['LCP']:>7.0f} {timings['TBT']:>7.0f} {timings['CLS']:>6.3f}"
                )
                below = sorted(set().union(*(r["failing"] for r in runs)))
                if below:
                    print(f"{'':<16} audits below 0.9: {', '.join(below)}")


if __name__ == "__main__":
    main()
