"""First touch to live result, and bytes before the first interaction, as readers get them.

Everything is served like a static host (benchmarks/host_server.py: gzip, immutable caching for
hashed names). In one run, interleaved so that all see the same machine conditions:

- **first touch -> live result** on a calculator page: the reader types into the calculator as
  soon as it is mounted (before the idle start), timed to the outputs showing Python's answer.
  For each profile (desktop; CPU slowed 4x; network 20 Mbit/s with 40 ms round trip, through
  Chromium's own emulation) and each boot (the memory snapshot; the ordinary boot, served from a
  copy of the site without the snapshot so the worker falls back), cold (fresh browser context)
  and warm (a second page in the same context: caches filled, new worker);
- **bare Pyodide page** (the anchor): a page that only starts the same worker with the ordinary
  boot and runs one compute, cold, under the same profiles;
- **bytes before the first interaction**: the calculator page, a glossary term and the home page
  loaded with the idle start held back, until the network is quiet, against the same Markdown
  built by plain MkDocs + Material (bench_site_build.plain_twin); then the runtime's bytes per boot.

Bytes are as transferred (gzip where the host compresses). A measurement, not a test.

Run: ``.venv/bin/python -m benchmarks.bench_first_touch [--runs 3] [--site-dir DIR]``
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

from benchmarks.bench_site_build import plain_twin, timed_build
from benchmarks.host_server import HostServer
from roofline_site.calculators.assets import pyodide_site_assets
from tests.conftest import CHROMIUM, CHROMIUM_ARGS
from tests.support.site_build import PROJECT_ROOT, mkdocs_build

CALCULATOR_PAGE = "calculators/roofline-explorer/"
BYTE_PAGES = {"calculator page": CALCULATOR_PAGE, "glossary term": "glossary/roofline/", "home": ""}
BARE_DIR = "bench-bare"
NEVER_IDLE = "window.requestIdleCallback = () => 0;"
PROFILES = {
    "desktop": {},
    "cpu 4x slower": {"cpu": 4},
    "20 Mbit/s, 40 ms": {"network": {"latency": 40, "throughput_bytes_per_s": 20e6 / 8}},
}

BARE_HTML = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Bare Pyodide boot</title></head>
<body><p id="status">booting</p><script type="module" src="bare.mjs"></script></body></html>
"""

# Starts the site's own worker and runs one compute; served from the copy without a snapshot, so
# this is the ordinary Pyodide boot plus roofline_core.
BARE_MODULE = """
const t0 = performance.now();
const worker = new Worker(new URL("../assets/roofline/calculators/worker.mjs", import.meta.url), { type: "module" });
const indexURL = new URL("../{runtime_dir}", import.meta.url).href;
worker.addEventListener("message", (event) => {
  if (event.data.type === "ready") {
    worker.postMessage({ type: "compute", id: 1, calculator: "roofline-explorer", inputs: { intensity: "64" }, domId: "x" });
  } else if (event.data.type === "result") {
    window.__firstResultMs = performance.now() - t0;
  }
});
worker.postMessage({
  type: "boot",
  indexURL,
  lockFileURL: new URL("pyodide-lock.json", indexURL).href,
  coreZipURL: new URL("../{core_zip}", import.meta.url).href,
});
"""

# Runs in the calculator page: type into the box, wait for Python's answer.
FIRST_TOUCH = """
async () => {
  const root = document.querySelector("[data-calculator]");
  const box = root.querySelector("[name=intensity]");
  const t0 = performance.now();
  box.focus();
  box.value = "64";
  box.dispatchEvent(new Event("input", { bubbles: true }));
  await new Promise((resolve) => {
    const check = () => (root.dataset.state === "live" ? resolve() : requestAnimationFrame(check));
    check();
  });
  return performance.now() - t0;
}
"""

ENGINE_BOOT = """async () => {
  const loader = document.querySelector('script[src*="calculators/loader.mjs"]').src;
  return (await import(new URL('engine.mjs', loader).href)).currentEngine()?.boot ?? null;
}"""


def apply_profile(context, page, profile: dict) -> None:
    session = context.new_cdp_session(page)
    if "cpu" in profile:
        session.send("Emulation.setCPUThrottlingRate", {"rate": profile["cpu"]})
    if "network" in profile:
        net = profile["network"]
        session.send("Network.enable")
        session.send(
            "Network.emulateNetworkConditions",
            {
                "offline": False,
                "latency": net["latency"],
                "downloadThroughput": net["throughput_bytes_per_s"],
                "uploadThroughput": net["throughput_bytes_per_s"],
            },
        )


def new_context(browser):
    # No Playwright route: intercepting requests turns Chromium's HTTP cache off.
    return browser.new_context(service_workers="block")


def first_touch(context, base: str, profile: dict, boot: str) -> float:
    page = context.new_page()
    apply_profile(context, page, profile)
    page.add_init_script(NEVER_IDLE)
    page.goto(base + CALCULATOR_PAGE, wait_until="load")
    page.wait_for_selector("[data-calculator][data-engine]")
    elapsed = page.evaluate(FIRST_TOUCH)
    used = page.evaluate(ENGINE_BOOT)
    if used != boot:
        raise SystemExit(f"asked for the {boot} boot, the worker used {used}")
    page.close()
    return elapsed


def bare(browser, base: str, profile: dict) -> float:
    context = new_context(browser)
    page = context.new_page()
    apply_profile(context, page, profile)
    page.goto(base + BARE_DIR + "/", wait_until="load")
    page.wait_for_function("() => window.__firstResultMs !== undefined", timeout=180_000)
    elapsed = page.evaluate("() => window.__firstResultMs")
    context.close()
    return elapsed


def page_bytes(browser, url: str, *, start_runtime: bool = False) -> tuple[int, int]:
    """Bytes until the network is quiet with the idle start held back, then (if ``start_runtime``)
    the runtime's bytes after one touch."""
    context = new_context(browser)
    sizes: list[int] = []
    context.on("requestfinished", lambda request: sizes.append(request.sizes()["responseBodySize"]))
    page = context.new_page()
    page.add_init_script(NEVER_IDLE)
    page.goto(url, wait_until="networkidle")
    before = sum(sizes)
    after = before
    if start_runtime:
        page.evaluate(FIRST_TOUCH)
        page.wait_for_load_state("networkidle")
        after = sum(sizes)
    context.close()
    return before, after - before


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--site-dir", type=Path, help="an already built site (default: build one)")
    args = parser.parse_args(argv)

    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        tmp_dir = Path(tmp)
        site = tmp_dir / "site"
        if args.site_dir:
            shutil.copytree(args.site_dir, site)
        else:
            result = mkdocs_build(PROJECT_ROOT / "mkdocs.yml", site)
            if result.returncode != 0:
                print(result.stdout, result.stderr, file=sys.stderr)
                return 1
        plain_site = tmp_dir / "plain-site"
        timed_build(plain_twin(tmp_dir / "plain"), plain_site)
        assets = pyodide_site_assets(PROJECT_ROOT)
        # The same site without its snapshot: the worker's ordinary boot.
        no_snapshot = tmp_dir / "site-no-snapshot"
        shutil.copytree(site, no_snapshot)
        for path in (no_snapshot / assets.runtime_dir).glob("*.snapshot-*"):
            path.unlink()
        (no_snapshot / BARE_DIR).mkdir()
        (no_snapshot / BARE_DIR / "index.html").write_text(BARE_HTML, encoding="utf-8")
        (no_snapshot / BARE_DIR / "bare.mjs").write_text(
            BARE_MODULE.replace("{runtime_dir}", assets.runtime_dir).replace("{core_zip}", assets.core_zip),
            encoding="utf-8",
        )
        (site / BARE_DIR).mkdir()
        (site / BARE_DIR / "index.html").write_text(BARE_HTML, encoding="utf-8")
        (site / BARE_DIR / "bare.mjs").write_text(
            BARE_MODULE.replace("{runtime_dir}", assets.runtime_dir).replace("{core_zip}", assets.core_zip),
            encoding="utf-8",
        )
        rows: dict[tuple[str, str], list[float]] = {}
        with (
            HostServer(site) as server,
            HostServer(no_snapshot) as without,
            HostServer(plain_site) as plain,
            sync_playwright() as playwright,
        ):
            bases = {"snapshot": server.url, "plain": without.url}
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            for _ in range(args.runs):
                for name, profile in PROFILES.items():
                    for boot in ("snapshot", "plain"):
                        context = new_context(browser)
                        rows.setdefault((name, f"{boot} cold"), []).append(
                            first_touch(context, bases[boot], profile, boot)
                        )
                        rows.setdefault((name, f"{boot} warm"), []).append(
                            first_touch(context, bases[boot], profile, boot)
                        )
                        context.close()
                    rows.setdefault((name, "bare Pyodide page"), []).append(bare(browser, without.url, profile))
            byte_rows = {}
            for kind, path in BYTE_PAGES.items():
                site_before, _ = page_bytes(browser, server.url + path)
                plain_before, _ = page_bytes(browser, plain.url + path)
                byte_rows[kind] = (site_before, plain_before)
            runtime = {
                boot: page_bytes(browser, base + CALCULATOR_PAGE, start_runtime=True)[1] for boot, base in bases.items()
            }
            browser.close()

    print(f"First touch -> live result (ms), median of {args.runs}; {CALCULATOR_PAGE}; served with gzip and caching")
    names = list(PROFILES)
    print(f"{'boot':22}" + "".join(f"{n:>20}" for n in names))
    for label in ("snapshot cold", "snapshot warm", "plain cold", "plain warm", "bare Pyodide page"):
        cells = [statistics.median(rows[(n, label)]) for n in names]
        print(f"{label:22}" + "".join(f"{c:>20.0f}" for c in cells))
    for label in ("snapshot cold", "snapshot warm", "plain cold"):
        ratios = [
            statistics.median(rows[(n, label)]) / statistics.median(rows[(n, "bare Pyodide page")]) for n in names
        ]
        print(f"{label + ' / bare':22}" + "".join(f"{r:>19.2f}x" for r in ratios))
    print("\nBytes transferred before the first interaction (kB), against plain MkDocs + Material")
    print(f"{'page':18}{'site':>10}{'plain':>10}{'ratio':>8}")
    for kind, (ours, theirs) in byte_rows.items():
        print(f"{kind:18}{ours / 1e3:>10.1f}{theirs / 1e3:>10.1f}{ours / theirs:>7.2f}x")
    print("\nRuntime bytes after the first touch (MB, as transferred)")
    for boot, size in runtime.items():
        print(f"  {boot:10}{size / 1e6:8.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
