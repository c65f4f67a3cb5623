"""Does the idle start pay? A reader who types a few seconds after opening a calculator page,
with the idle start as shipped against the same page with it held back.

A calculator page starts Python by itself once the page is idle (engine.mjs,
``whenIdleAfterLoad``), so that a reader who types later finds it live; the price is the runtime's
megabytes for a reader who only reads. This measures both sides, as readers get them: a fresh
profile, the service worker allowed, the site served like a static host (gzip, immutable caching
for hashed names: benchmarks/host_server.py).

For each page, profile and delay (seconds after navigation began, ``--delay-s``), in fresh
contexts, interleaved so that both variants see the same machine conditions:

- **idle start (shipped)**: the page as built;
- **held back**: the same page with only the calculators' idle start held back (its idle callback,
  the one asked with the engine's 3 s deadline, never runs; every other idle callback does), so
  Python starts on the reader's keystroke, as on a Save-Data visit.

The reader types a new value into the calculator's first number field at the delay; the row is
the time from that keystroke to the outputs showing Python's answer for it (the median of
``--runs``), then the bytes the page had transferred before the keystroke (what a reader who never
types pays). The machine's load average is printed at the start and the end. A measurement, not a
test.

Run: ``.venv/bin/python -m benchmarks.bench_idle_start [--runs 3] [--site-dir DIR]
[--delay-s 2 5 10] [--profile desktop ...] [--page 'decode calculator' ...]``
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path

from benchmarks.bench_first_touch import PROFILES, apply_profile, load_text
from benchmarks.host_server import HostServer
from benchmarks.site_pages import copy_or_build_site
from tests.conftest import CHROMIUM, CHROMIUM_ARGS

PAGES = {
    "decode calculator": "calculators/decode-speed-of-light/",
    "roofline explorer": "calculators/roofline-explorer/",
}
#: Only the calculators' idle start: engine.mjs asks for it with a 3 s deadline (IDLE_TIMEOUT_MS);
#: the service worker's registration (register.mjs, 2 s) and every other idle callback still run.
HOLD_BACK_IDLE_START = """
(() => {
  const ask = window.requestIdleCallback.bind(window);
  window.requestIdleCallback = (callback, options) => (options?.timeout === 3000 ? 0 : ask(callback, options));
})();
"""
# At DELAY_MS after navigation began (and once the field exists), type a new value into the
# first calculator's first number field; note when the outputs show Python's answer for it.
TYPE_AT = """
(() => {
  window.__liveMs = null;
  window.__typedAtEpochMs = null;
  const FIELD = "[data-calculator] input[type=text][inputmode=decimal]";
  const type = () => {
    const box = document.querySelector(FIELD);
    if (!box || performance.now() < DELAY_MS) {
      return setTimeout(type, 20);
    }
    const root = box.closest("[data-calculator]");
    const value = String(Number(box.value || "1") * 2);
    const typed = performance.now();
    window.__typedAtEpochMs = Date.now();
    box.focus();
    box.value = value;
    box.dispatchEvent(new Event("input", { bubbles: true }));
    const check = () => {
      if (root.dataset.state === "live" && box.value === value) {
        window.__liveMs = performance.now() - typed;
      } else {
        requestAnimationFrame(check);
      }
    };
    check();
  };
  type();
})();
"""
VARIANTS = ("idle start (shipped)", "held back")


def reader_types_at(browser, url: str, profile: dict, *, delay_s: float, hold_back: bool) -> tuple[float, int]:
    """Milliseconds from the keystroke at ``delay_s`` to Python's answer, and the bytes the page
    (and its workers) had received before the keystroke."""
    context = browser.new_context(service_workers="allow")
    # The page's and its workers' downloads; the service worker's own requests (what it stores
    # for offline use, mostly from the HTTP cache) are not what the reader waits on or pays twice.
    finished: list[tuple[float, int]] = []
    context.on(
        "requestfinished",
        lambda request: (
            request.service_worker is None and finished.append((time.time(), request.sizes()["responseBodySize"]))
        ),
    )
    page = context.new_page()
    apply_profile(context, page, profile)
    if hold_back:
        page.add_init_script(HOLD_BACK_IDLE_START)
    page.add_init_script(TYPE_AT.replace("DELAY_MS", str(int(delay_s * 1000))))
    page.goto(url, wait_until="commit")
    page.wait_for_function("() => window.__liveMs !== null", timeout=180_000)
    live_ms, typed_at_epoch_ms = page.evaluate("() => [window.__liveMs, window.__typedAtEpochMs]")
    context.close()
    before = sum(size for at, size in finished if at * 1000 <= typed_at_epoch_ms)
    return live_ms, before


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--site-dir", type=Path, help="an already built site (default: build one)")
    parser.add_argument("--delay-s", type=float, nargs="+", default=[2.0, 5.0, 10.0])
    parser.add_argument("--profile", action="append", choices=list(PROFILES), help="only these profiles (default: all)")
    parser.add_argument("--page", action="append", choices=list(PAGES), help="only these pages (default: all)")
    args = parser.parse_args(argv)
    profiles = {name: PROFILES[name] for name in args.profile or PROFILES}
    pages = {name: PAGES[name] for name in args.page or PAGES}
    load_at_start = os.getloadavg()

    from playwright.sync_api import sync_playwright

    rows: dict[tuple[str, str, float, str], list[tuple[float, int]]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        site = Path(tmp) / "site"
        copy_or_build_site(site, args.site_dir)
        with HostServer(site) as server, sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            for _ in range(args.runs):
                for profile_name, profile in profiles.items():
                    for page_name, path in pages.items():
                        for delay_s in args.delay_s:
                            for variant in VARIANTS:
                                measured = reader_types_at(
                                    browser,
                                    server.url + path,
                                    profile,
                                    delay_s=delay_s,
                                    hold_back=variant == "held back",
                                )
                                rows.setdefault((profile_name, page_name, delay_s, variant), []).append(measured)
            browser.close()

    print(
        f"Keystroke -> live result (ms) and kB received before the keystroke, median of {args.runs}; "
        "fresh profile, service worker allowed, served with gzip and caching"
    )
    print(f"{'profile':18}{'page':20}{'typed at':>9}" + "".join(f"{v:>28}" for v in VARIANTS) + f"{'ratio':>8}")
    for profile_name in profiles:
        for page_name in pages:
            for delay_s in args.delay_s:
                cells = []
                for variant in VARIANTS:
                    measured = rows[(profile_name, page_name, delay_s, variant)]
                    live = statistics.median(m[0] for m in measured)
                    received = statistics.median(m[1] for m in measured)
                    cells.append((live, received))
                text = "".join(f"{live:>14.0f} ms {received / 1e3:>8.0f} kB" for live, received in cells)
                ratio = cells[0][0] / cells[1][0]
                print(f"{profile_name:18}{page_name:20}{delay_s:>8.0f}s{text}{ratio:>7.2f}x")
    print(
        f"\nLoad average (1, 5, 15 min): {load_text(load_at_start)} at the start, {load_text(os.getloadavg())} at the end"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
