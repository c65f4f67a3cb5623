"""Shared by the site benchmarks: build the site once and pick representative pages.

Not a benchmark itself. ``build_site()`` runs ``mkdocs build --strict`` into a temporary folder;
``page_types()`` sorts every HTML page of a built site into kinds (home, glossary term, ...).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(PROJECT_ROOT))  # run as a script: make `tests.support` importable

from tests.support.site_pages import html_pages, is_redirect_stub  # noqa: E402


def build_site(site_dir: Path) -> None:
    """``mkdocs build --strict`` of the project into ``site_dir``; exits with its output on failure."""
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site_dir)],
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    if result.returncode != 0:
        raise SystemExit(f"mkdocs build failed:\n{result.stdout}\n{result.stderr}")


def copy_or_build_site(site_dir: Path, given: Path | None) -> None:
    """Into ``site_dir``: a copy of ``given`` (a benchmark's ``--site-dir``), else a fresh build."""
    if given is not None:
        shutil.copytree(given, site_dir)
    else:
        build_site(site_dir)


def page_kind(site_dir: Path, page: str) -> str:
    """``home``, ``glossary index``, ``glossary term``, ``calculator page``, ``embed``,
    ``redirect``, ``404`` or ``other page``."""
    text = (site_dir / page).read_text(encoding="utf-8")
    if is_redirect_stub(text):
        return "redirect"
    if page == "index.html":
        return "home"
    if page == "404.html":
        return "404"
    if page.startswith("embed/"):
        return "embed"
    if "data-calculator=" in text:
        return "calculator page"
    if page == "glossary/index.html":
        return "glossary index"
    if page.startswith("glossary/"):
        return "glossary term"
    return "other page"


def page_types(site_dir: Path) -> dict[str, list[str]]:
    """Every HTML page by kind, in path order."""
    kinds: dict[str, list[str]] = {}
    for page in html_pages(site_dir):
        kinds.setdefault(page_kind(site_dir, page), []).append(page)
    return kinds


def representative_pages(site_dir: Path) -> dict[str, str]:
    """One page per kind the benchmarks report: home, a term and a calculator page. The term is
    the flagship roofline page (figures and a live calculator: the heaviest term) when present,
    the calculator the roofline explorer; else the first of each kind."""
    kinds = page_types(site_dir)
    chosen = {"home": "index.html"}
    terms = [
        *kinds.get("glossary term", []),
        *(p for p in kinds.get("calculator page", []) if p.startswith("glossary/")),
    ]
    if terms:
        chosen["glossary term"] = (
            "glossary/roofline/index.html" if "glossary/roofline/index.html" in terms else terms[0]
        )
    calculators = [p for p in kinds.get("calculator page", []) if p.startswith("calculators/")]
    if calculators:
        explorer = "calculators/roofline-explorer/index.html"
        chosen["calculator page"] = explorer if explorer in calculators else calculators[0]
    return chosen


def add_stock_stdlib(site_dir: Path, runtime_dir: str) -> None:
    """Put Pyodide's own ``python_stdlib.zip`` beside the built runtime, for the bare Pyodide page
    (the anchor boots the way a page without this site's build would; the site ships a trimmed one)."""
    from roofline_site.pyodide_bundle import pyodide_package_dir
    from roofline_site.pyodide_stdlib import STOCK_NAME

    target = site_dir / runtime_dir / STOCK_NAME
    target.write_bytes((pyodide_package_dir(PROJECT_ROOT) / STOCK_NAME).read_bytes())


#: Where :func:`add_bare_pyodide_page` puts the anchor page, under the site's root.
BARE_DIR = "bench-bare"

_BARE_HTML = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Bare Pyodide boot</title></head>
<body><p id="status">booting</p><script type="module" src="bare.mjs"></script></body></html>
"""

# The page: starts the worker and notes when it has booted (``__bootMs``) and answered
# (``__firstResultMs``), or what failed (``__bareError``).
_BARE_MODULE = """
const t0 = performance.now();
const worker = new Worker(new URL("bare-worker.mjs", import.meta.url), { type: "module" });
worker.addEventListener("message", (event) => {
  if (event.data.type === "ready") {
    window.__bootMs = performance.now() - t0;
  } else if (event.data.type === "result") {
    window.__firstResultMs = performance.now() - t0;
    document.getElementById("status").textContent = "done";
  } else {
    window.__bareError = event.data.message;
  }
});
"""

# A stock boot: Pyodide's own loadPyodide with its own standard library, the site's packed
# roofline_core, then one compute. Not the site's worker: that takes every address from the
# build's manifest, so it would boot this site's trimmed library (or its snapshot).
_BARE_WORKER = """
import { loadPyodide } from "../{runtime_dir}pyodide.mjs";
const indexURL = new URL("../{runtime_dir}", import.meta.url).href;
try {
  const pyodide = await loadPyodide({ indexURL, stdLibURL: new URL("{stdlib}", indexURL).href });
  const zip = await (await fetch(new URL("../{core_zip}", import.meta.url))).arrayBuffer();
  pyodide.unpackArchive(zip, "zip", { extractDir: "/home/pyodide" });
  const view = pyodide.pyimport("roofline_core.view.calculator");
  self.postMessage({ type: "ready" });
  const json = view.compute_view_json("roofline-explorer", pyodide.toPy({ intensity: "64" }), "x");
  self.postMessage({ type: "result", bytes: json.length });
} catch (error) {
  self.postMessage({ type: "failed", message: String(error) });
}
"""


def add_bare_pyodide_page(site_dir: Path) -> None:
    """The benchmarks' anchor, at ``BARE_DIR/`` of ``site_dir``: a page that only boots Pyodide
    the stock way (its own standard library, no snapshot) plus this site's roofline_core in a
    module worker, and runs one compute."""
    from roofline_site.calculators.assets import pyodide_site_assets
    from roofline_site.pyodide_stdlib import STOCK_NAME

    assets = pyodide_site_assets(PROJECT_ROOT)
    add_stock_stdlib(site_dir, assets.runtime_dir)
    folder = site_dir / BARE_DIR
    folder.mkdir()
    (folder / "index.html").write_text(_BARE_HTML, encoding="utf-8")
    (folder / "bare.mjs").write_text(_BARE_MODULE, encoding="utf-8")
    worker = _BARE_WORKER.replace("{runtime_dir}", assets.runtime_dir).replace("{core_zip}", assets.core_zip)
    (folder / "bare-worker.mjs").write_text(worker.replace("{stdlib}", STOCK_NAME), encoding="utf-8")


def wait_for_bare_result(page, *, timeout_ms: float = 180_000) -> None:
    """Wait on an open bare page until its compute has answered; raise with its error if it failed."""
    page.wait_for_function(
        "() => window.__firstResultMs !== undefined || window.__bareError !== undefined", timeout=timeout_ms
    )
    if (error := page.evaluate("() => window.__bareError")) is not None:
        raise RuntimeError(f"the bare Pyodide page failed: {error}")
