"""Shared by the site benchmarks: build the site once and pick representative pages.

Not a benchmark itself. ``build_site()`` runs ``mkdocs build --strict`` into a temporary folder;
``page_types()`` sorts every HTML page of a built site into kinds (home, glossary term, ...).
"""

from __future__ import annotations

import os
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
