"""Measure the live calculators against the built site in headless Chromium.

Prints medians over cold runs (a fresh browser context each time, so nothing is cached) of:

- first contentful paint of the calculator page;
- first interaction -> first live result: the reader types into the calculator as soon as the
  page has loaded, until the outputs show Pyodide's answer (this includes booting Pyodide);
- one recompute round trip: after the first result, many slider moves in a row, each timed
  from the input event to the outputs being rewritten;
- main-thread long tasks (count and total time, up to the end of the slider moves);
- bytes transferred (response bodies, including the worker's downloads);

next to a bare page that only boots Pyodide the stock way (its own library, no snapshot) with
roofline_core in a worker and runs one compute (``site_pages.add_bare_pyodide_page``), generated
in a temporary copy of the site and measured in the same run.

Usage::

    .venv/bin/python -m benchmarks.bench_calculators [--runs 5] [--moves 40] [--site-dir DIR]

(run from the project root, as a module, so it can reuse tests/support's server and Chromium flags)
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
from pathlib import Path

from benchmarks.host_server import HostServer
from benchmarks.site_pages import BARE_DIR, add_bare_pyodide_page, copy_or_build_site, wait_for_bare_result
from tests.conftest import CHROMIUM, CHROMIUM_ARGS

CALCULATOR_PAGE = "calculators/roofline-explorer/"

# Recorded in every page before its own scripts run: long tasks and paint timings.
INIT_SCRIPT = """
window.__longTasks = [];
new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__longTasks.push(e.duration); })
  .observe({ type: "longtask", buffered: true });
"""


# Runs in the calculator page: type into the box, wait for the live result.
FIRST_RESULT = """
async () => {
  const root = document.querySelector("[data-calculator]");
  const box = root.querySelector("[name=intensity]");
  const t0 = performance.now();
  box.value = "64";
  box.dispatchEvent(new Event("input", { bubbles: true }));
  await new Promise((resolve) => {
    const check = () => (root.dataset.state === "live" ? resolve() : requestAnimationFrame(check));
    check();
  });
  return performance.now() - t0;
}
"""

# Runs in the calculator page once live: many slider moves, each timed to the outputs' rewrite.
SLIDER_MOVES = """
async (moves) => {
  const root = document.querySelector("[data-calculator]");
  const slider = root.querySelector("[data-slider-for=intensity]");
  const output = root.querySelector("[data-output=attainable]");
  const times = [];
  for (let i = 0; i < moves; i++) {
    const written = new Promise((resolve) => {
      const observer = new MutationObserver(() => { observer.disconnect(); resolve(); });
      observer.observe(output, { childList: true, characterData: true, subtree: true });
    });
    const t0 = performance.now();
    slider.value = String(-1 + (i % 40) * 0.1);
    slider.dispatchEvent(new Event("input", { bubbles: true }));
    await written;
    times.push(performance.now() - t0);
  }
  return times;
}
"""


def measure_calculator(browser, base: str, moves: int) -> dict[str, float]:
    context = browser.new_context(service_workers="block")
    transferred = _count_bytes(context)
    page = context.new_page()
    page.add_init_script(INIT_SCRIPT)
    page.goto(base + CALCULATOR_PAGE, wait_until="load")
    page.wait_for_selector("[data-calculator][data-engine]")
    fcp = page.evaluate("performance.getEntriesByName('first-contentful-paint')[0].startTime")
    first_ms = page.evaluate(FIRST_RESULT)
    round_trips = page.evaluate(SLIDER_MOVES, moves)
    long_tasks = page.evaluate("window.__longTasks")
    page.wait_for_load_state("networkidle")
    context.close()
    return {
        "fcp_ms": fcp,
        "first_live_ms": first_ms,
        "round_trip_ms": statistics.median(round_trips),
        "long_tasks": len(long_tasks),
        "long_task_ms": sum(long_tasks),
        "bytes": sum(transferred),
    }


def measure_bare(browser, base: str) -> dict[str, float]:
    context = browser.new_context(service_workers="block")
    transferred = _count_bytes(context)
    page = context.new_page()
    page.add_init_script(INIT_SCRIPT)
    page.goto(base + BARE_DIR + "/", wait_until="load")
    wait_for_bare_result(page)
    result = page.evaluate(
        """() => ({fcp: performance.getEntriesByName('first-contentful-paint')[0].startTime,
                  boot: window.__bootMs, first: window.__firstResultMs, long: window.__longTasks})"""
    )
    page.wait_for_load_state("networkidle")
    context.close()
    return {
        "fcp_ms": result["fcp"],
        "first_live_ms": result["first"],
        "boot_ms": result["boot"],
        "long_tasks": len(result["long"]),
        "long_task_ms": sum(result["long"]),
        "bytes": sum(transferred),
    }


def _count_bytes(context) -> list[int]:
    sizes: list[int] = []

    def finished(request) -> None:
        sizes.append(request.sizes()["responseBodySize"])

    context.on("requestfinished", finished)
    return sizes


def _median(rows: list[dict[str, float]], key: str) -> float | None:
    values = [row[key] for row in rows if key in row]
    return statistics.median(values) if values else None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="cold runs per page (default 5)")
    parser.add_argument("--moves", type=int, default=40, help="slider moves per run (default 40)")
    parser.add_argument("--site-dir", type=Path, help="an already built site (default: build one)")
    args = parser.parse_args(argv)

    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        site = Path(tmp) / "site"
        copy_or_build_site(site, args.site_dir)
        add_bare_pyodide_page(site)
        with HostServer(site) as server, sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            calculator_rows, bare_rows = [], []
            for _ in range(args.runs):
                # Interleaved, so both pages see the same machine conditions.
                calculator_rows.append(measure_calculator(browser, server.url, args.moves))
                bare_rows.append(measure_bare(browser, server.url))
            browser.close()

    print(f"Medians over {args.runs} cold runs ({CALCULATOR_PAGE}; slider: {args.moves} moves per run)")
    print(f"{'metric':44} {'calculator page':>16} {'bare Pyodide page':>18}")
    lines = [
        ("first contentful paint (ms)", "fcp_ms", "{:.0f}"),
        ("first interaction -> first live result (ms)", "first_live_ms", "{:.0f}"),
        ("  bare page: worker boot only (ms)", "boot_ms", "{:.0f}"),
        ("one recompute round trip (ms)", "round_trip_ms", "{:.1f}"),
        ("main-thread long tasks (count)", "long_tasks", "{:.0f}"),
        ("main-thread long tasks (total ms)", "long_task_ms", "{:.0f}"),
        ("bytes transferred (MB)", "bytes", "{:.2f}"),
    ]
    for label, key, fmt in lines:
        cells = []
        for rows in (calculator_rows, bare_rows):
            value = _median(rows, key)
            if value is not None and key == "bytes":
                value /= 1e6
            cells.append("-" if value is None else fmt.format(value))
        print(f"{label:44} {cells[0]:>16} {cells[1]:>18}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
