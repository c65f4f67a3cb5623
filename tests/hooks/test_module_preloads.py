"""Every page asks in its head for each module its scripts will import (hooks/site_assets.py,
partials/module-preloads.html): no import level waits for the one before it."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urljoin

import pytest

from roofline_site.module_preloads import static_imports

_MODULE_SCRIPT = re.compile(r'<script src="([^"]+)" type="module">')
_PRELOAD = re.compile(r'<link rel="modulepreload" href="([^"]+)">')
_MOUNTED_CALCULATOR = 'data-calculator="'
ASSETS = "assets/roofline"
CALCULATOR = "calculators/calculator.mjs"
PAGES = [
    "index.html",
    "glossary/decode/index.html",
    "calculators/roofline-explorer/index.html",
    "embed/kv-cache/index.html",
]


def _site_path(page: str, href: str) -> str:
    return urljoin("http://site/" + page, href).removeprefix("http://site/")


def _expected(built_site: Path, page: str, html: str) -> set[str]:
    """The static imports of the page's module scripts, and on a page with a calculator mounted
    at load, calculator.mjs (which loader.mjs imports then) and its imports."""
    scripts = {_site_path(page, src).removeprefix(ASSETS + "/") for src in _MODULE_SCRIPT.findall(html)}
    wanted: set[str] = set()
    for script in scripts:
        wanted |= set(static_imports(built_site / ASSETS, script))
    if _MOUNTED_CALCULATOR in html:
        wanted |= {CALCULATOR, *static_imports(built_site / ASSETS, CALCULATOR)}
    return {f"{ASSETS}/{m}" for m in wanted - scripts}


@pytest.mark.slow
@pytest.mark.parametrize("page", PAGES)
def test_each_module_a_page_will_import_is_preloaded_once(built_site, page):
    html = (built_site / page).read_text(encoding="utf-8")
    head = html.split("</head>", 1)[0]
    preloads = [_site_path(page, href) for href in _PRELOAD.findall(head)]
    assert len(preloads) == len(set(preloads))
    assert set(preloads) == _expected(built_site, page, html)
    assert "assets/roofline/glossary/place-popover.mjs" in preloads
    assert ("assets/roofline/calculators/engine.mjs" in preloads) == (_MOUNTED_CALCULATOR in html)
    for path in preloads:
        assert (built_site / path).is_file(), path
