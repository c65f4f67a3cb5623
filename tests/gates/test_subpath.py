"""Gate: the site works when hosted under a sub-path, as on GitHub Pages (``/roofline-glossary/``).

The site is built with ``SITE_URL`` set to the prefixed address and served only under the
prefix (anything outside it is a 404). Every page's links and loads, the sitemap, the search
index and JSON/feed URLs are fetched over HTTP; then Chromium walks the site: instant
navigation, search, glossary previews and a calculator going live through Pyodide.
"""

from __future__ import annotations

import urllib.error
import urllib.request
from urllib.parse import urldefrag, urljoin, urlsplit

import pytest

from tests.support.browser_wait import HANG_MS
from tests.support.calculator_driver import make_live
from tests.support.link_check import feed_refs, json_url_refs, page_refs, sitemap_refs
from tests.support.site_build import PROJECT_ROOT, mkdocs_build
from tests.support.site_pages import html_pages, pages_with, url_path
from tests.support.static_server import StaticServer

pytestmark = pytest.mark.slow

PREFIX = "/roofline-glossary/"
SEARCH_WORD = "roofline"  # in the site name, so on every page of the index


@pytest.fixture(scope="module")
def subpath_site(tmp_path_factory):
    """``(site_dir, base_url)``: the site built for and served under ``PREFIX``."""
    site_dir = tmp_path_factory.mktemp("subpath-site")
    server = StaticServer(site_dir, prefix=PREFIX)
    result = mkdocs_build(PROJECT_ROOT / "mkdocs.yml", site_dir, env={"SITE_URL": server.url})
    assert result.returncode == 0, f"sub-path build failed:\n{result.stdout}\n{result.stderr}"
    with server:
        yield site_dir, server.url


def _status(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=30) as response:  # follows the folder redirects
            response.read()
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def test_every_reference_resolves_under_the_prefix(subpath_site):
    site_dir, base_url = subpath_site
    origin = base_url[: -len(PREFIX) + 1]
    references: dict[str, str] = {}  # absolute URL without fragment -> first place it was found

    def collect(refs, *, page_url: str, source: str) -> None:
        for ref in refs:
            absolute, _fragment = urldefrag(urljoin(page_url, ref.url.strip()))
            if absolute.startswith(origin) and absolute not in references:
                references[absolute] = f"{source}:{ref.line} ({ref.url})"

    for page in html_pages(site_dir):
        page_url = base_url + url_path(page)
        collect(page_refs((site_dir / page).read_text(encoding="utf-8")), page_url=page_url, source=page)
        references.setdefault(page_url, page)
    for data in sorted(site_dir.rglob("*")):
        name = data.relative_to(site_dir).as_posix()
        if data.parts[len(site_dir.parts)] == "assets" or data.suffix not in (".xml", ".json"):
            continue
        text = data.read_text(encoding="utf-8")
        if data.suffix == ".json":
            refs = json_url_refs(text)
        else:
            refs = sitemap_refs(text) if data.name == "sitemap.xml" else feed_refs(text)
        collect(refs, page_url=base_url, source=name)

    outside = [f"{where}: {url}" for url, where in references.items() if not urlsplit(url).path.startswith(PREFIX)]
    assert not outside, "references that leave the prefix (root-absolute URLs?):\n" + "\n".join(outside)
    broken = [
        f"{where}: {url} -> HTTP {status}" for url, where in references.items() if (status := _status(url)) != 200
    ]
    assert not broken, f"{len(broken)} of {len(references)} references fail under the prefix:\n" + "\n".join(
        broken[:50]
    )


@pytest.mark.browser
def test_site_works_end_to_end_in_the_browser_under_the_prefix(subpath_site, page_factory, screenshots):
    site_dir, base_url = subpath_site
    page, watch = page_factory()
    failed: list[str] = []
    outside: list[str] = []
    page.on("response", lambda r: r.status >= 400 and failed.append(f"{r.status} {r.url}"))
    page.on(
        "request",
        lambda r: r.url.startswith("http") and not urlsplit(r.url).path.startswith(PREFIX) and outside.append(r.url),
    )

    # Home page, then instant navigation through a visible link to another page of the site.
    page.goto(base_url, wait_until="networkidle")
    target = page.evaluate(
        """([base, here]) => [...document.querySelectorAll('.md-content a[href]')].findIndex(a =>
             a.offsetParent !== null && a.href.startsWith(base) && a.href.split('#')[0] !== here)""",
        [base_url, page.url.split("#")[0]],
    )
    assert target >= 0, "the home page links to no other page of the site"
    link = page.locator(".md-content a[href]").nth(target)
    expected = link.evaluate("a => a.href.split('#')[0]")
    link.click()
    page.wait_for_url(expected + "**")
    page.wait_for_load_state("networkidle")
    assert page.url.startswith(expected), f"instant navigation to {expected} ended at {page.url}"

    # Search: the worker loads the prefixed index and a result links under the prefix.
    page.goto(base_url, wait_until="networkidle")
    page.keyboard.press("s")  # Material's search shortcut ("/" and "s")
    query = page.locator("input.md-search__input")
    query.press_sequentially(SEARCH_WORD, delay=30)  # Material searches on key events, not on fill()
    first_result = page.locator(".md-search-result__item a").first
    first_result.wait_for(timeout=HANG_MS)
    result_href = first_result.get_attribute("href")
    first_result.click()
    page.wait_for_load_state("networkidle")
    assert page.url.startswith(base_url), f"search result {result_href} left the prefix: {page.url}"

    # Glossary previews, where the glossary has landed: hovering a term link shows its preview
    # (its summary comes from glossary.json, fetched under the prefix).
    # A page without a calculator (the home page has one now): booting Python there competes
    # with the preview for the CPU, and the preview is what this checks.
    with_calculators = set(pages_with(site_dir, "data-calculator="))
    glossary_pages = [p for p in pages_with(site_dir, "data-glossary-term") if p not in with_calculators]
    if glossary_pages:
        # "load", not "networkidle": a page with a calculator (whose labels link terms) keeps
        # fetching Python once idle, and the preview needs none of it.
        page.goto(base_url + url_path(glossary_pages[0]), wait_until="load")
        page.locator("a[data-glossary-term]").first.hover()
        preview = page.locator("#glossary-preview")
        preview.wait_for(state="visible", timeout=HANG_MS)
        assert preview.locator(".glossary-preview__summary").inner_text().strip(), "preview shows no summary"

    # Calculators, where they have landed: one goes live through Pyodide under the prefix.
    calculator_pages = pages_with(site_dir, "data-calculator=")
    if calculator_pages:
        page.goto(base_url + url_path(calculator_pages[0]), wait_until="load")
        _change, states = make_live(page)
        assert set(states) == {"live"}, f"{calculator_pages[0]}: calculators under the prefix: {states}"
    screenshots.take(page, "subpath-last-page.png")

    assert failed == [], f"failed requests under the prefix: {failed}"
    assert outside == [], f"requests outside the prefix: {outside}"
    assert watch.external_requests == [] and watch.page_errors == [] and watch.console_errors == []
