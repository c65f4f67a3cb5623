"""Whole-site weight: bytes per page type, and for calculator pages before and after the live
runtime (Pyodide) loads.

Usage (after scripts/setup)::

    .venv/bin/python benchmarks/site_weight.py

Builds the site, serves it on 127.0.0.1 and opens every page in Debian's Chromium with an empty
cache, summing the bytes of every response until the network is idle ("first load"), apart
from the calculators' runtime (Pyodide, the roofline_core zip, the worker), which starts by
itself once a calculator is in view. For one page of each calculator kind it changes an input
by keyboard, waits until the calculators are live and adds the runtime's bytes ("live"). The site
is served like a static host (benchmarks/host_server.py); the byte columns are the files' own
sizes and what a host that gzips text (level 6; .wasm, .zip and images as they are) sends.
Also prints the site's files on disk by type. A measurement, not a test.
"""

from __future__ import annotations

import gzip
import statistics
import tempfile
from collections import defaultdict
from pathlib import Path
from urllib.parse import unquote, urlsplit

from site_pages import build_site, page_types

from benchmarks.host_server import HostServer
from tests.conftest import CHROMIUM, CHROMIUM_ARGS
from tests.support.calculator_driver import make_live
from tests.support.site_pages import url_path

# Static hosts (GitHub Pages, Netlify, Cloudflare) compress text and WebAssembly, not zips or PNGs.
COMPRESSIBLE = {".html", ".css", ".js", ".mjs", ".json", ".svg", ".xml", ".txt", ".map", ".wasm", ""}
#: The calculators' live runtime: Pyodide's files, the roofline_core zip and the module worker.
RUNTIME_MARKERS = ("/assets/pyodide/", "/calculators/worker.mjs")


def _gzip_size(path: Path, cache: dict[Path, int]) -> int:
    if path not in cache:
        data = path.read_bytes()
        cache[path] = len(gzip.compress(data, 6, mtime=0)) if path.suffix in COMPRESSIBLE else len(data)
    return cache[path]


class Meter:
    """Sums response bytes (as served, and as a gzipping host would send them)."""

    def __init__(self, site_dir: Path, base_url: str) -> None:
        self.site_dir, self.base_url = site_dir, base_url
        self.raw = self.gzipped = self.requests = 0
        self.runtime_raw = self.runtime_gzipped = self.runtime_requests = 0
        self._gzip_cache: dict[Path, int] = {}

    def on_response(self, response) -> None:
        if not response.url.startswith(self.base_url) or response.status != 200:
            return
        relative = unquote(urlsplit(response.url).path)[len(urlsplit(self.base_url).path) :]
        path = self.site_dir / relative
        if relative == "" or relative.endswith("/"):
            path = path / "index.html"
        if not path.is_file():
            return
        if any(marker in response.url for marker in RUNTIME_MARKERS):
            self.runtime_requests += 1
            self.runtime_raw += path.stat().st_size
            self.runtime_gzipped += _gzip_size(path, self._gzip_cache)
        else:
            self.requests += 1
            self.raw += path.stat().st_size
            self.gzipped += _gzip_size(path, self._gzip_cache)


def _kb(n: float) -> str:
    return f"{n / 1000:,.1f} kB"


def main() -> None:
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        site_dir = Path(tmp) / "site"
        build_site(site_dir)
        kinds = page_types(site_dir)
        by_ext: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        for path in site_dir.rglob("*"):
            if path.is_file():
                by_ext[path.suffix or "(none)"][0] += 1
                by_ext[path.suffix or "(none)"][1] += path.stat().st_size
        total = sum(size for _count, size in by_ext.values())
        print(f"Site on disk: {sum(c for c, _ in by_ext.values())} files, {_kb(total)}")
        for ext, (count, size) in sorted(by_ext.items(), key=lambda item: -item[1][1])[:10]:
            print(f"  {ext:<8} {count:>5} files {_kb(size):>14}")

        rows = []
        live_rows = []
        with HostServer(site_dir) as server, sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            for kind, pages in kinds.items():
                if kind == "redirect":
                    continue
                first_raw, first_gz, counts = [], [], []
                for page_name in pages:
                    context = browser.new_context(service_workers="block")  # empty cache per page
                    page = context.new_page()
                    meter = Meter(site_dir, server.url)
                    page.on("response", meter.on_response)
                    page.goto(server.url + url_path(page_name), wait_until="networkidle")
                    first_raw.append(meter.raw)
                    first_gz.append(meter.gzipped)
                    counts.append(meter.requests)
                    if kind in ("calculator page", "embed") and page_name == pages[0]:
                        make_live(page)
                        page.wait_for_load_state("networkidle")
                        before = (meter.raw, meter.gzipped, meter.requests)
                        runtime = (meter.runtime_raw, meter.runtime_gzipped, meter.runtime_requests)
                        live_rows.append((kind, page_name, before, tuple(a + b for a, b in zip(before, runtime))))
                    context.close()
                rows.append(
                    (
                        kind,
                        len(pages),
                        statistics.median(first_raw),
                        statistics.median(first_gz),
                        max(first_raw),
                        statistics.median(counts),
                    )
                )
            browser.close()

        print(
            "\nFirst load per page type, without the calculators' runtime (empty cache, until network idle; median over the type's pages)"
        )
        print(f"  {'page type':<16} {'pages':>5} {'requests':>8} {'bytes':>14} {'gzipped':>14} {'largest':>14}")
        for kind, count, raw, gz, largest, requests in rows:
            print(f"  {kind:<16} {count:>5} {requests:>8.0f} {_kb(raw):>14} {_kb(gz):>14} {_kb(largest):>14}")
        if live_rows:
            print("\nCalculator pages: before and after the live runtime loads (Pyodide, roofline_core)")
            for kind, name, before, after in live_rows:
                print(
                    f"  {kind:<16} {url_path(name):<30} before {_kb(before[0])} ({_kb(before[1])} gzipped, {before[2]} requests);"
                    f" live {_kb(after[0])} ({_kb(after[1])} gzipped, {after[2]} requests)"
                )
        if "redirect" in kinds:
            print(f"\nRedirect stubs: {len(kinds['redirect'])} (not measured: they forward at once)")


if __name__ == "__main__":
    main()
