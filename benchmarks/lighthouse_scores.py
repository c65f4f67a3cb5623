"""Lighthouse scores and key timings for the home page, a glossary term and a calculator page.

Usage (after scripts/setup)::

    .venv/bin/python benchmarks/lighthouse_scores.py [--runs 3] [--preset mobile|desktop]
        [--site-dir DIR] [--baseline-site-dir DIR] [--page "decode calculator" ...]

Builds the site, serves it on 127.0.0.1 as a static host does (gzip, caching headers:
benchmarks/host_server.py) and runs the pinned Lighthouse (benchmarks/package.json,
installed here on first use with ``npm ci`` so that scripts/setup stays light) against Debian's
Chromium (``CHROME_PATH``, default /usr/bin/chromium) with the flags from ARCHITECTURE.md.
The pages are the home page, a glossary term, the roofline explorer and the decode calculator.
Each page is also measured on its plain twin (the same Markdown built by plain MkDocs + Material,
benchmarks/bench_site_build.py). Prints the median over ``--runs`` of the performance, accessibility, best-practices and SEO
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
from contextlib import ExitStack
from pathlib import Path

from site_pages import PROJECT_ROOT, build_site, representative_pages

from benchmarks.bench_site_build import plain_twin, timed_build
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


# The decode calculator: the calculator page the issue "Live in under a second" measures TBT on.
DECODE_PAGE = "calculators/decode-speed-of-light/index.html"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--preset", choices=("mobile", "desktop"), default="mobile")
    parser.add_argument("--site-dir", type=Path, help="an already built site (default: build one)")
    parser.add_argument(
        "--baseline-site-dir",
        type=Path,
        help="another build (e.g. before a change), measured interleaved with this one and plain Material",
    )
    parser.add_argument(
        "--page",
        action="append",
        choices=("home", "glossary term", "calculator page", "decode calculator"),
        help="only these pages (default: all)",
    )
    options = parser.parse_args()
    ensure_lighthouse()
    with tempfile.TemporaryDirectory() as tmp:
        site_dir = options.site_dir or Path(tmp) / "site"
        if not options.site_dir:
            build_site(site_dir)
        # The same Markdown built by plain MkDocs + Material, measured in the same run.
        plain_dir = Path(tmp) / "plain-site"
        timed_build(plain_twin(Path(tmp) / "plain"), plain_dir)
        pages = representative_pages(site_dir)
        if (site_dir / DECODE_PAGE).is_file():
            pages["decode calculator"] = DECODE_PAGE
        pages = {kind: page for kind, page in pages.items() if not options.page or kind in options.page}
        print(
            f"Lighthouse 12.8.2 ({options.preset}), median of {options.runs} runs, Chrome at {os.environ.get('CHROME_PATH', '/usr/bin/chromium')};"
            " served with gzip and caching headers (benchmarks/host_server.py); this build, the baseline"
            " (if any) and plain Material in turn, run by run"
        )
        header = (
            f"{'page':<22} {'path':<34} "
            + " ".join(f"{c[:4]:>5}" for c in CATEGORIES)
            + f" {'FCP ms':>7} {'LCP ms':>7} {'TBT ms':>7} {'CLS':>6}"
        )
        print(header)
        load_at_start = os.getloadavg()
        with ExitStack() as stack:
            bases = {"": stack.enter_context(HostServer(site_dir)).url}
            if options.baseline_site_dir:
                bases["  baseline"] = stack.enter_context(HostServer(options.baseline_site_dir)).url
            bases["  plain Material"] = stack.enter_context(HostServer(plain_dir)).url
            for kind, page in pages.items():
                runs: dict[str, list[dict]] = {label: [] for label in bases}
                for _ in range(options.runs):
                    for label, base in bases.items():
                        runs[label].append(run_lighthouse(base + url_path(page), options.preset, Path(tmp)))
                for label, results in runs.items():
                    scores = {c: statistics.median(r["scores"][c] for r in results) for c in CATEGORIES}
                    timings = {k: statistics.median(r["timings"][k] for r in results) for k in AUDITS}
                    print(
                        f"{label or kind:<22} {url_path(page) or '/':<34} "
                        + " ".join(f"{scores[c]:>5.0f}" for c in CATEGORIES)
                        + f" {timings['FCP']:>7.0f} {timings['LCP']:>7.0f} {timings['TBT']:>7.0f} {timings['CLS']:>6.3f}",
                        flush=True,
                    )
                    below = sorted(set().union(*(r["failing"] for r in results)))
                    if below:
                        print(f"{'':<22} audits below 0.9: {', '.join(below)}")
        load = ", ".join(f"{value:.2f}" for value in load_at_start)
        print(
            f"Load average (1, 5, 15 min): {load} at the start, {', '.join(f'{v:.2f}' for v in os.getloadavg())} at the end"
        )


if __name__ == "__main__":
    main()
