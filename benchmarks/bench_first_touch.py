"""First touch to live result, and bytes before the first interaction, as readers get them.

Everything is served like a static host (benchmarks/host_server.py: gzip, immutable caching for
hashed names). The machine's load average is printed at the start and the end of the run.

**Headline: as readers get it.** A fresh profile with the service worker allowed and the idle
start as shipped, on the roofline explorer, the decode calculator and a term page whose
calculator loads when scrolled to (``READER_PAGES``): the reader types a new value into the
calculator's first number field as soon as that field exists (before the calculator has
mounted), timed from that keystroke to the outputs showing Python's answer for it; the same with
the service worker blocked, and the bare Pyodide page, each profile in the same run.

Diagnostics, in one run, interleaved so that all see the same machine conditions (service worker
blocked, idle start held back, typing once the calculator has mounted):

- **first touch -> live result** on a calculator page: the reader types into the calculator as
  soon as it is mounted (before the idle start), timed to the outputs showing Python's answer.
  For each profile (desktop; CPU slowed 4x; network 20 Mbit/s with 40 ms round trip, through
  Chromium's own emulation) and each boot: *as shipped* (the worker chooses: the snapshot when it
  is cached or its timed download of the library shows a fast link, else the trimmed library, keeping the snapshot for
  next time); *snapshot* (forced: a copy whose worker is told its link is fast); *trimmed library* (served
  from a copy of the site without the snapshot). Cold (fresh browser context) and warm (a second
  page in the same context, after the first kept what it keeps: caches filled, new worker);
- **scenario link -> its own numbers**: the calculator page opened at a scenario other than its
  defaults (``SCENARIO``), timed from the start of navigation, and from the page's first
  contentful paint, until the outputs show Python's answer for it, as shipped, cold and warm;
- **bare Pyodide page** (the anchor): a page whose own worker boots Pyodide with its own library
  and no snapshot (a stock boot plus roofline_core) and runs one compute, cold
  (``site_pages.add_bare_pyodide_page``);
- **bytes before the first interaction**: the calculator page, a glossary term and the home page
  loaded with the idle start held back, until the network is quiet, against the same Markdown
  built by plain MkDocs + Material (bench_site_build.plain_twin); then the runtime's bytes per boot.

Bytes are as transferred (gzip where the host compresses). A measurement, not a test.

The headline ends with the first visit with the service worker over the one without it (the
issue's target: at most 1.05x), as the median of the run-by-run ratios of the two, measured
back to back in alternating order after an unmeasured warm-up of the host's gzip cache. On an
emulated link it also gives the download floor: the trimmed library's files as sent, over the
link's throughput, against the bare page. ``--baseline-site-dir`` runs another build's headline rows
(e.g. the same site before a change) interleaved with this one's, so a before/after sees the
same machine; ``--profile`` limits the run to some profiles.

Run: ``.venv/bin/python -m benchmarks.bench_first_touch [--runs 3] [--site-dir DIR] [--headline-only]
[--baseline-site-dir DIR] [--profile desktop ...]``
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import tempfile
from pathlib import Path

from benchmarks.bench_site_build import plain_twin, timed_build
from benchmarks.host_server import HostServer, served_body
from benchmarks.site_pages import BARE_DIR, add_bare_pyodide_page, copy_or_build_site, wait_for_bare_result
from roofline_site.calculators.assets import pyodide_site_assets
from tests.conftest import CHROMIUM, CHROMIUM_ARGS
from tests.support.site_build import PROJECT_ROOT

CALCULATOR_PAGE = "calculators/roofline-explorer/"
# A scenario link: inputs other than the defaults the page was prerendered for.
SCENARIO = "?intensity=64"
BYTE_PAGES = {"calculator page": CALCULATOR_PAGE, "glossary term": "glossary/roofline/", "home": ""}
NEVER_IDLE = "window.requestIdleCallback = () => 0;"
# Put before the worker script of a copy of the site: its timed download (worker.mjs) reads as
# a very fast link, so it takes the snapshot. A copy, not a Playwright route: intercepting
# requests turns Chromium's HTTP cache off.
FAST_LINK = (
    "performance.getEntriesByName = () => "
    "[{transferSize: 1, encodedBodySize: 1e9, responseStart: 0, responseEnd: 1}];\n"
)
SNAPSHOT_CACHED = """async () => {
  // The worker's snapshot cache is named by the site's path (roofline:<path>:pyodide-snapshot).
  for (const name of await caches.keys()) {
    if (name.endsWith(':pyodide-snapshot') && (await (await caches.open(name)).keys()).some((request) => request.url.includes('.snapshot-'))) return true;
  }
  return false;
}"""
# The pages readers meet calculators on: a calculator page of each kind, and a term page whose
# calculator is loaded when it comes near the viewport.
READER_PAGES = {
    "roofline explorer": "calculators/roofline-explorer/",
    "decode calculator": "calculators/decode-speed-of-light/",
    "term page (kv-cache)": "glossary/kv-cache/",
}

# Runs in the page as soon as it has committed: once the first calculator's first number field
# exists, type a new value into it (doubling what is there) and note when; then note when the
# calculator shows Python's answer for exactly that value.
TYPE_AT_ONCE = """
(() => {
  window.__typed = null;
  window.__liveMs = null;
  const FIELD = "[data-calculator] input[type=text][inputmode=decimal]";
  const later = () => document.querySelector("[data-calculator-later]");
  const type = () => {
    const box = document.querySelector(FIELD);
    if (!box) {
      later()?.scrollIntoView();
      return requestAnimationFrame(type);
    }
    const root = box.closest("[data-calculator]");
    const value = String(Number(box.value || "1") * 2);
    window.__typed = performance.now();
    box.focus();
    box.value = value;
    box.dispatchEvent(new Event("input", { bubbles: true }));
    const check = () => {
      if (root.dataset.state === "live" && box.value === value) {
        window.__liveMs = performance.now() - window.__typed;
      } else {
        requestAnimationFrame(check);
      }
    };
    check();
  };
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", type, { once: true });
  } else {
    type();
  }
})();
"""

PROFILES = {
    "desktop": {},
    "cpu 4x slower": {"cpu": 4},
    "20 Mbit/s, 40 ms": {"network": {"latency": 40, "throughput_bytes_per_s": 20e6 / 8}},
}


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

# Polled in a page opened at a scenario link: true once the calculator shows Python's answer,
# noting when (milliseconds since navigation began).
SCENARIO_LIVE = """
() => {
  const root = document.querySelector("[data-calculator]");
  if (!root || root.dataset.state !== "live") return false;
  window.__liveAtMs ??= performance.now();
  return true;
}
"""

ENGINE_BOOT = """async () => {
  const loader = document.querySelector('script[src*="calculators/loader.mjs"]').src;
  return (await import(new URL('engine.mjs', loader).href)).currentEngine()?.boot ?? null;
}"""


def trimmed_boot_bytes(site: Path) -> int:
    """Bytes the host sends for the boot from the trimmed library (Pyodide's runtime files, the
    library and roofline_core; what the worker downloads on a slow link): on a link of a given
    throughput, no first touch can go live sooner than these take to arrive (the download floor)."""
    assets = pyodide_site_assets(PROJECT_ROOT)
    paths = {site / name for name in (*assets.runtime_files, assets.core_zip, assets.stdlib_zip)}
    return sum(len(served_body(path, path.read_bytes())[0]) for path in paths)


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


def first_touch(context, base: str, profile: dict, *, boot: str | None, keep: bool) -> tuple[float, str]:
    """Time to the live result and the boot used; with ``keep``, stay until the worker has kept
    the snapshot for next time, as a reader who reads the answer would."""
    page = context.new_page()
    apply_profile(context, page, profile)
    page.add_init_script(NEVER_IDLE)
    page.goto(base + CALCULATOR_PAGE, wait_until="load")
    page.wait_for_selector("[data-calculator][data-engine]")
    elapsed = page.evaluate(FIRST_TOUCH)
    used = page.evaluate(ENGINE_BOOT)
    if boot is not None and used != boot:
        raise SystemExit(f"asked for the {boot} boot, the worker used {used}")
    # An async predicate's promise counts as true at once in wait_for_function: poll by hand.
    while keep and not page.evaluate(SNAPSHOT_CACHED):
        page.wait_for_timeout(250)
    page.close()
    return elapsed, used


def reader_touch(browser, url: str, profile: dict, *, service_workers: str) -> float:
    """Milliseconds from typing into a calculator field as soon as it exists to Python's answer
    for it, in a fresh profile, as a reader who types at once gets it."""
    context = browser.new_context(service_workers=service_workers)
    page = context.new_page()
    apply_profile(context, page, profile)
    page.add_init_script(TYPE_AT_ONCE)
    page.goto(url, wait_until="commit")
    page.wait_for_function("() => window.__liveMs !== null", timeout=180_000)
    elapsed = page.evaluate("() => window.__liveMs")
    context.close()
    return elapsed


def scenario_link(context, base: str, profile: dict) -> tuple[float, float]:
    """Milliseconds from opening ``SCENARIO`` on the calculator page to its live numbers, and
    from the page's first contentful paint (when the reader first sees it) to them."""
    page = context.new_page()
    apply_profile(context, page, profile)
    page.goto(base + CALCULATOR_PAGE + SCENARIO, wait_until="commit")
    page.wait_for_function(SCENARIO_LIVE, polling="raf", timeout=180_000)
    live, painted = page.evaluate(
        "() => [window.__liveAtMs, performance.getEntriesByName('first-contentful-paint')[0].startTime]"
    )
    if page.input_value("[data-calculator] [name=intensity]") != SCENARIO.split("=")[1]:
        raise SystemExit("the scenario link's inputs were not applied")
    page.close()
    return live, live - painted


def bare(browser, base: str, profile: dict) -> float:
    context = new_context(browser)
    page = context.new_page()
    apply_profile(context, page, profile)
    page.goto(base + BARE_DIR + "/", wait_until="load")
    wait_for_bare_result(page)
    elapsed = page.evaluate("() => window.__firstResultMs")
    context.close()
    return elapsed


def page_bytes(browser, url: str, *, start_runtime: bool = False) -> tuple[int, int]:
    """Bytes until the network is quiet with the idle start held back, then (if ``start_runtime``)
    the runtime's bytes after one touch, until the answer (not what is kept for later)."""
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
        after = sum(sizes)
    context.close()
    return before, after - before


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--site-dir", type=Path, help="an already built site (default: build one)")
    parser.add_argument("--headline-only", action="store_true", help="only the as-readers-get-it rows")
    parser.add_argument(
        "--baseline-site-dir",
        type=Path,
        help="another build (e.g. before a change): its headline rows run interleaved with this one's",
    )
    parser.add_argument("--profile", action="append", choices=list(PROFILES), help="only these profiles (default: all)")
    args = parser.parse_args(argv)
    profiles = {name: PROFILES[name] for name in args.profile or PROFILES}
    load_at_start = os.getloadavg()

    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        tmp_dir = Path(tmp)
        site = tmp_dir / "site"
        copy_or_build_site(site, args.site_dir)
        plain_site = tmp_dir / "plain-site"
        if args.headline_only:
            plain_site.mkdir()  # the byte rows that need it are not run
        else:
            timed_build(plain_twin(tmp_dir / "plain"), plain_site)
        assets = pyodide_site_assets(PROJECT_ROOT)
        # The same site without its snapshot: the worker's ordinary boot from the trimmed library.
        no_snapshot = tmp_dir / "site-no-snapshot"
        shutil.copytree(site, no_snapshot)
        for path in (no_snapshot / assets.runtime_dir).glob("*.snapshot-*"):
            path.unlink()
        add_bare_pyodide_page(no_snapshot)
        # The same site with a worker told its link is fast: the snapshot boot, forced.
        fast = tmp_dir / "site-fast-link"
        shutil.copytree(site, fast)
        worker = fast / "assets" / "roofline" / "calculators" / "worker.mjs"
        worker.write_text(FAST_LINK + worker.read_text(encoding="utf-8"), encoding="utf-8")
        rows: dict[tuple[str, str], list[float]] = {}
        shipped_used: dict[str, set[str]] = {}
        baseline_site = tmp_dir / "baseline-site"
        if args.baseline_site_dir:
            shutil.copytree(args.baseline_site_dir, baseline_site)
        else:
            baseline_site.mkdir()
        with (
            HostServer(baseline_site) as baseline_server,
            HostServer(site) as server,
            HostServer(fast) as fast_server,
            HostServer(no_snapshot) as without,
            HostServer(plain_site) as plain,
            sync_playwright() as playwright,
        ):
            # boot label -> (server, boot the worker must use, wait until the snapshot is kept)
            boots = {
                "as shipped": (server.url, None, True),
                "snapshot": (fast_server.url, "snapshot", False),
                "trimmed library": (without.url, "plain", False),
            }
            baseline = baseline_server if args.baseline_site_dir else None
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            headline: dict[tuple[str, str], list[float]] = {}
            sites = {"": server.url}
            if baseline is not None:
                sites[BASELINE] = baseline.url
            # Unmeasured: the host gzips each file on its first request and keeps the result, so
            # whichever cell came first paid for gzipping 9.6 MB of WebAssembly.
            for base in sites.values():
                reader_touch(browser, base + next(iter(READER_PAGES.values())), {}, service_workers="block")
            for run in range(args.runs):
                # Allowed and blocked back to back, in turns first, so that neither always meets
                # the machine as the other left it; their ratio is taken pair by pair.
                order = ("allow", "block") if run % 2 == 0 else ("block", "allow")
                for name, profile in profiles.items():
                    for page_name, path in READER_PAGES.items():
                        for suffix, base in sites.items():
                            for workers in order:
                                elapsed = reader_touch(browser, base + path, profile, service_workers=workers)
                                headline.setdefault((name, f"{page_name}, worker {workers}{suffix}"), []).append(
                                    elapsed
                                )
                    headline.setdefault((name, "bare Pyodide page"), []).append(bare(browser, without.url, profile))
            print_headline(headline, args.runs, load_at_start, profiles, list(sites), trimmed_boot_bytes(site))
            if args.headline_only:
                browser.close()
                return 0
            for _ in range(args.runs):
                for name, profile in profiles.items():
                    for label, (base, boot, keep) in boots.items():
                        context = new_context(browser)
                        cold, used = first_touch(context, base, profile, boot=boot, keep=keep)
                        warm, _ = first_touch(context, base, profile, boot=boot, keep=False)
                        context.close()
                        rows.setdefault((name, f"{label} cold"), []).append(cold)
                        rows.setdefault((name, f"{label} warm"), []).append(warm)
                        if boot is None:
                            shipped_used.setdefault(name, set()).add(used)
                    context = new_context(browser)
                    for state in ("cold", "warm"):
                        from_opening, from_paint = scenario_link(context, server.url, profile)
                        rows.setdefault((name, f"scenario link {state}"), []).append(from_opening)
                        rows.setdefault((name, f"  after first paint, {state}"), []).append(from_paint)
                    context.close()
                    rows.setdefault((name, "bare Pyodide page"), []).append(bare(browser, without.url, profile))
            byte_rows = {}
            for kind, path in BYTE_PAGES.items():
                site_before, _ = page_bytes(browser, server.url + path)
                plain_before, _ = page_bytes(browser, plain.url + path)
                byte_rows[kind] = (site_before, plain_before)
            runtime = {
                "snapshot": page_bytes(browser, fast_server.url + CALCULATOR_PAGE, start_runtime=True)[1],
                "trimmed library": page_bytes(browser, without.url + CALCULATOR_PAGE, start_runtime=True)[1],
                "bare Pyodide page": page_bytes(browser, without.url + BARE_DIR + "/", start_runtime=False)[0],
            }
            browser.close()

    print(f"First touch -> live result (ms), median of {args.runs}; {CALCULATOR_PAGE}; served with gzip and caching")
    names = list(profiles)
    print(f"{'boot':26}" + "".join(f"{n:>20}" for n in names))
    labels = [
        f"{label} {state}" for label in ("as shipped", "snapshot", "trimmed library") for state in ("cold", "warm")
    ]
    print("(scenario link: from opening the link, and from its first contentful paint, to its own numbers live)")
    scenario_rows = [
        f"{row} {state}" for state in ("cold", "warm") for row in ("scenario link", "  after first paint,")
    ]
    for label in [*labels, *scenario_rows, "bare Pyodide page"]:
        cells = [statistics.median(rows[(n, label)]) for n in names]
        print(f"{label:26}" + "".join(f"{c:>20.0f}" for c in cells))
    for label in labels:
        ratios = [
            statistics.median(rows[(n, label)]) / statistics.median(rows[(n, "bare Pyodide page")]) for n in names
        ]
        print(f"{label + ' / bare':26}" + "".join(f"{r:>19.2f}x" for r in ratios))
    used_cells = ["+".join(sorted(shipped_used[n])) for n in names]
    print(f"{'as shipped, cold, used':26}" + "".join(f"{c:>20}" for c in used_cells))
    print("\nBytes transferred before the first interaction (kB), against plain MkDocs + Material")
    print(f"{'page':18}{'site':>10}{'plain':>10}{'ratio':>8}")
    for kind, (ours, theirs) in byte_rows.items():
        print(f"{kind:18}{ours / 1e3:>10.1f}{theirs / 1e3:>10.1f}{ours / theirs:>7.2f}x")
    print("\nRuntime bytes to the first answer (MB, as transferred)")
    for boot, size in runtime.items():
        print(f"  {boot:20}{size / 1e6:8.2f}")
    print(
        f"\nLoad average (1, 5, 15 min): {load_text(load_at_start)} at the start, {load_text(os.getloadavg())} at the end"
    )
    return 0


def load_text(load: tuple[float, float, float]) -> str:
    return ", ".join(f"{value:.2f}" for value in load)


# The bound on what the service worker may cost a first visit: with it, at most 5% slower
# than without it.
WORKER_COST_TARGET = 1.05
BASELINE = " (baseline)"


def paired_ratio(numerators: list[float], denominators: list[float]) -> float:
    """The median of run-by-run ratios: two cells measured back to back in each run share that
    run's machine, so their ratio drifts less than the ratio of their medians."""
    return statistics.median(a / b for a, b in zip(numerators, denominators, strict=True))


def print_headline(
    rows: dict[tuple[str, str], list[float]],
    runs: int,
    load_at_start,
    profiles: dict[str, dict],
    suffixes: list[str],
    floor_bytes: int,
) -> None:
    """The as-readers-get-it table: medians, each page's ratio to the bare Pyodide page, the
    download floor on emulated links, and the first visit with the service worker over the one
    without it, against WORKER_COST_TARGET."""
    names = list(profiles)
    print(
        f"As readers get it: typing at once -> live result (ms), cold, fresh profile, median of {runs}; "
        "served with gzip and caching"
    )
    width = 66
    print(f"{'page':{width}}" + "".join(f"{n:>20}" for n in names))
    labels = [f"{page}, worker {w}{suffix}" for page in READER_PAGES for suffix in suffixes for w in ("allow", "block")]
    bare_ms = {n: statistics.median(rows[(n, "bare Pyodide page")]) for n in names}
    for label in [*labels, "bare Pyodide page"]:
        print(f"{label:{width}}" + "".join(f"{statistics.median(rows[(n, label)]):>20.0f}" for n in names))
    for label in labels:
        cells = [statistics.median(rows[(n, label)]) / bare_ms[n] for n in names]
        print(f"{label + ' / bare':{width}}" + "".join(f"{c:>19.2f}x" for c in cells))
    floors = {
        n: floor_bytes / p["network"]["throughput_bytes_per_s"] * 1000 for n, p in profiles.items() if "network" in p
    }
    if floors:
        label = f"download floor (trimmed library, {floor_bytes / 1e6:.2f} MB as sent) / bare"
        print(
            f"{label:{width}}"
            + "".join(f"{floors[n] / bare_ms[n]:>19.2f}x" if n in floors else f"{'-':>20}" for n in names)
        )
    worst = (0.0, "", "")
    for page in READER_PAGES:
        for suffix in suffixes:
            cells = [
                paired_ratio(rows[(n, f"{page}, worker allow{suffix}")], rows[(n, f"{page}, worker block{suffix}")])
                for n in names
            ]
            print(
                f"{page + suffix + ': first visit with / without worker':{width}}"
                + "".join(f"{c:>19.2f}x" for c in cells)
            )
            if not suffix:
                worst = max(worst, *((c, page, n) for c, n in zip(cells, names, strict=True)))
    verdict = "within" if worst[0] <= WORKER_COST_TARGET else "OVER"
    print(
        f"First visit with the service worker / without it: worst {worst[0]:.2f}x ({worst[1]}, {worst[2]}), "
        f"{verdict} the target of {WORKER_COST_TARGET:.2f}x"
    )
    if BASELINE in suffixes:
        for page in READER_PAGES:
            cells = [
                statistics.median(rows[(n, f"{page}, worker allow")])
                / statistics.median(rows[(n, f"{page}, worker allow{BASELINE}")])
                for n in names
            ]
            print(f"{page + ', worker allowed: this / baseline':{width}}" + "".join(f"{c:>19.2f}x" for c in cells))
    print(f"Load average (1, 5, 15 min): {load_text(load_at_start)} at the start, {load_text(os.getloadavg())} now\n")


if __name__ == "__main__":
    raise SystemExit(main())
