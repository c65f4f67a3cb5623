"""The service worker (site_assets/offline/sw.js, served as /sw.js): from a reader's first visit on,
the pages and calculators they opened work with the network gone (the live calculator computes
offline), and any other page gives the site's offline page, listing what can be read."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from urllib.parse import urljoin

import pytest

from roofline_core.calculators import compute
from roofline_site.offline_manifest import integrity
from tests.support.browser_wait import HANG_MS, wait_for_async
from tests.support.static_server import StaticServer

pytestmark = pytest.mark.browser

ROOT = "[data-calculator]"


def wait_until_controlled(page) -> None:
    """Until the service worker controls the page (it registers after load, then claims it)."""
    page.wait_for_function(
        "() => navigator.serviceWorker && navigator.serviceWorker.controller !== null", timeout=HANG_MS
    )


TERM_PAGE = "glossary/roofline/"
CALCULATOR_PAGE = "calculators/roofline-explorer/"
UNVISITED_PAGE = "glossary/tensor-cores/"

# Whether every one of the given addresses is in one of the worker's caches. Runs in the page.
ALL_KEPT = """async (hrefs) => {
  const names = (await caches.keys()).filter((name) => name.includes(":pages:") || name.includes(":runtime:"));
  const caches_ = await Promise.all(names.map((name) => caches.open(name)));
  for (const href of hrefs) {
    if (!(await Promise.all(caches_.map((cache) => cache.match(href)))).some(Boolean)) {
      return false;
    }
  }
  return true;
}"""
USED_FILES = "() => performance.getEntriesByType('resource').map((entry) => entry.name)"


def _boot_files(site: Path, base: str) -> list[str]:
    """The addresses of the files every boot of the calculators' runtime fetches (the snapshot
    aside), from the build's manifest: the calculators' worker fetches them itself, so they are
    in no page's Resource Timing."""
    manifest = base + "assets/roofline/calculators/runtime.mjs"
    text = (site / "assets" / "roofline" / "calculators" / "runtime.mjs").read_text(encoding="utf-8")
    runtime = json.loads(re.search(r"RUNTIME = Object.freeze\((\{.*?\})\);", text).group(1))
    index = urljoin(manifest, runtime["index"])
    names = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "pyodide-lock.json")
    return [urljoin(index, name) for name in names] + [urljoin(manifest, runtime[key]) for key in ("coreZip", "stdLib")]


def test_after_a_first_visit_the_page_and_its_live_calculator_work_offline(browser, built_site, site_server):
    files = _manifest(built_site)["files"]
    context = browser.new_context(service_workers="allow")
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        # A first visit, in a fresh profile: the page loads before any worker exists, so none of
        # its requests (nor the calculators' runtime, started by a focus) passes through one.
        page.goto(site_server + CALCULATOR_PAGE, wait_until="load")
        page.focus(f"{ROOT} [data-slider-for=intensity]")
        page.wait_for_selector(f'{ROOT}[data-engine="live"]', timeout=HANG_MS)
        used = [url for url in page.evaluate(USED_FILES) if url.startswith(site_server)]
        # The worker registers once the page has settled (its calculator live, the page idle).
        wait_until_controlled(page)
        page.goto(site_server + TERM_PAGE, wait_until="load")
        wait_until_controlled(page)
        wanted = [site_server + CALCULATOR_PAGE, site_server + TERM_PAGE, *_boot_files(built_site, site_server)]
        wanted += [url for url in used if url.split("?")[0][len(site_server) :] in files]
        # Fetched by pages only when a reader opens search, but kept from the first visit.
        wanted += [site_server + "search/search_index.json"]
        wait_for_async(page, ALL_KEPT, wanted, what="the pages and their files to be kept")

        context.set_offline(True)
        page.reload(wait_until="load")
        assert page.title() == "Roofline - Roofline Glossary", page.title()
        # Search works offline, though no page asked for its index while online.
        page.keyboard.press("/")
        page.locator("input.md-search__input").press_sequentially("bandwidth", delay=30)
        page.locator(".md-search-result__item a").first.wait_for(timeout=HANG_MS)
        # A scenario link of the visited calculator: the same file, its numbers live offline.
        page.goto(site_server + CALCULATOR_PAGE + "?intensity=64", wait_until="load")
        page.wait_for_selector(f'{ROOT}[data-state="live"]', timeout=HANG_MS)
        expected = {k: str(v["text"]) for k, v in compute("roofline-explorer", {"intensity": "64"})["outputs"].items()}
        shown = page.eval_on_selector(
            ROOT,
            "root => Object.fromEntries([...root.querySelectorAll('[data-output]')].map(o => [o.dataset.output, o.textContent]))",
        )
        assert shown == expected

        # A page never opened: the site's offline page, listing the two that were.
        response = page.goto(site_server + UNVISITED_PAGE, wait_until="load")
        assert response is not None and response.status == 503
        assert page.inner_text("h1") == "You are offline"
        page.wait_for_selector("#roofline-offline-list:not([hidden]) a", timeout=HANG_MS)
        listed = page.eval_on_selector_all(
            "#roofline-offline-list a", "links => links.map((a) => [a.textContent, a.href])"
        )
        assert ["Roofline", site_server + TERM_PAGE] in listed, listed
        assert ["Roofline explorer", site_server + CALCULATOR_PAGE] in listed, listed
        assert all(href.startswith(site_server) for _title, href in listed)
        assert page.inner_text("#roofline-offline-status") == f"{len(listed)} pages are kept on this device:"
        assert errors == []
    finally:
        context.close()


# In the page, before its own scripts: a log of the calculator's engine states and of the
# service worker's registration, in the page's own clock, so the test reads their order rather
# than racing them.
TIMELINE = """
window.__timeline = [];
new MutationObserver((records) => {
  for (const record of records) {
    window.__timeline.push("engine " + record.target.dataset.engine);
  }
}).observe(document, { subtree: true, attributes: true, attributeFilter: ["data-engine"] });
const register = navigator.serviceWorker.register.bind(navigator.serviceWorker);
navigator.serviceWorker.register = (...args) => {
  window.__timeline.push("register");
  return register(...args);
};
"""


@pytest.mark.parametrize("path", [CALCULATOR_PAGE, "glossary/kv-cache/"], ids=["calculator page", "term page"])
def test_a_first_visit_boots_the_calculator_before_any_service_worker_exists(browser, built_site, site_server, path):
    """While a first visit's calculator boots, no worker is registered, so none controls the page
    or fetches a file: it neither competes with the boot nor holds a response back to copy it.
    Once the page has settled, the worker registers and keeps the runtime the page used. On a
    term page the calculator is placed when the reader scrolls to it."""
    context = browser.new_context(service_workers="allow")
    try:
        page = context.new_page()
        page.add_init_script(TIMELINE)
        page.goto(site_server + path, wait_until="load")
        if page.locator("[data-calculator-later]").count():
            page.locator("[data-calculator-later]").first.scroll_into_view_if_needed()
        # Typed at once, before Python is up: the calculator starts it.
        page.locator(f"{ROOT} input[type=text]:visible").first.fill("64")
        page.wait_for_selector(f'{ROOT}[data-engine="live"]', timeout=HANG_MS)
        wait_until_controlled(page)
        events = [event for event in page.evaluate("() => window.__timeline") if event != "engine idle"]
        # The state is written again when it has not changed: keep each change once.
        timeline = [event for index, event in enumerate(events) if index == 0 or event != events[index - 1]]
        assert timeline == ["engine loading", "engine live", "register"], events
        # Later pages are asked for while the worker starts, not after (navigation preload).
        preload = page.evaluate("() => navigator.serviceWorker.ready.then((r) => r.navigationPreload.getState())")
        assert preload["enabled"] is True, preload

        # Not from the page's Resource Timing: the calculators' worker fetched the runtime itself.
        runtime = _boot_files(built_site, site_server)
        wait_for_async(page, ALL_KEPT, runtime, what="the runtime to be kept once the page settled")
    finally:
        context.close()


def test_the_offline_page_is_kept_on_install_with_what_it_loads(built_site):
    offline = _manifest(built_site)["offline"]
    assert offline["page"] == "503.html"
    page = (built_site / "503.html").read_bytes()
    assert offline["integrity"] == integrity(page)
    # Its sheet, Material's bundle and the module that lists the kept pages, with their imports.
    assert any(re.fullmatch(r"assets/roofline/site\.[0-9a-f]{16}\.css", path) for path in offline["files"])
    assert "assets/roofline/offline/offline-page.mjs" in offline["files"]
    assert "assets/roofline/glossary/place-popover.mjs" in offline["files"]  # imported by glossary.js
    # Shown at any address, so its links are rooted at the site's path (as the 404 page's are).
    assert b'href="/glossary/"' in page


# What another page on this origin could do: write into the worker's caches. Runs in the page.
POISON = """async ([bundlePath, page]) => {
  const names = await caches.keys();
  const runtime = names.find((name) => /^roofline:\\/[^:]*:runtime:/.test(name));
  const forged = new Response('window.__poisoned = (window.__poisoned || 0) + 1;', {headers: {'Content-Type': 'text/javascript'}});
  await (await caches.open(runtime)).put(new URL(bundlePath, location).href, forged.clone());
  // Caches of the old, unscoped names and of another site's path on this origin.
  await (await caches.open('roofline-runtime-v1')).put(new URL(bundlePath, location).href, forged.clone());
  await (await caches.open('roofline:/other-site/:runtime:0')).put(new URL(page, location).href, forged.clone());
  return runtime;
}"""

CACHED_URLS = """async () => {
  const found = {};
  for (const name of await caches.keys()) {
    found[name] = (await (await caches.open(name)).keys()).map((request) => request.url);
  }
  return found;
}"""


def _bundle_path(site: Path) -> str:
    (bundle,) = (site / "assets" / "javascripts").glob("bundle.*.min.js")
    return "assets/javascripts/" + bundle.name


@pytest.mark.parametrize("with_headers", [False, True], ids=["meta-csp-only", "headers-csp"])
def test_a_forged_file_in_the_cache_is_never_served(browser, built_site, with_headers):
    from tests.gates.conftest import shipped_headers

    context = browser.new_context(service_workers="allow")
    try:
        with StaticServer(built_site, headers=shipped_headers(built_site) if with_headers else None) as server:
            page = context.new_page()
            page.goto(server.url, wait_until="load")
            wait_until_controlled(page)
            page.reload(wait_until="load")  # through the worker: the bundle is kept
            runtime = page.evaluate(POISON, [_bundle_path(built_site), "index.html"])
            assert runtime
            for url in ("glossary/", "glossary/roofline/", ""):
                page.goto(server.url + url, wait_until="load")
                assert page.evaluate("() => window.__poisoned") is None, url
                # Material's bundle, the real one, ran: its observable and storage helpers exist.
                assert page.evaluate("() => typeof document$ !== 'undefined' && typeof __md_get === 'function'")
            cached = page.evaluate(CACHED_URLS)
    finally:
        context.close()
    manifest = _manifest(built_site)
    # Only the site's own, scoped caches hold what the worker kept, and only listed files. (The
    # home page's calculator may also have made its Pyodide snapshot cache: the calculators'
    # worker's, site_assets/calculators/worker.mjs, not this worker's, and holding no site file.)
    own = {
        name: urls
        for name, urls in cached.items()
        if name.startswith("roofline:/:") and name != "roofline:/:pyodide-snapshot"
    }
    assert set(own) <= {f"roofline:/:pages:{manifest['version']}", f"roofline:/:runtime:{manifest['version']}"}, cached
    for urls in own.values():
        for url in urls:
            path = url.split("://", 1)[1].split("/", 1)[1].split("?")[0]
            assert path in manifest["files"], url


def _manifest(site: Path) -> dict:
    text = (site / "sw.js").read_text(encoding="utf-8")
    return json.loads(re.search(r"const MANIFEST = (\{.*?\});\n", text).group(1))


def test_a_new_build_drops_the_old_builds_caches(browser, built_site, tmp_path):
    site = tmp_path / "site"
    shutil.copytree(built_site, site)
    context = browser.new_context(service_workers="allow")
    try:
        with StaticServer(site) as server:
            page = context.new_page()
            # A page without a calculator: this is about the worker's caches, and a calculator's
            # runtime downloads, still running through the replaced worker, race its replacement.
            page.goto(server.url + "vendor-vocabulary/", wait_until="load")
            wait_until_controlled(page)
            page.reload(wait_until="load")
            old = _manifest(site)["version"]
            assert any(old in name for name in page.evaluate("() => caches.keys()"))
            # The next build: another manifest, so other bytes in sw.js.
            worker = site / "sw.js"
            worker.write_text(worker.read_text(encoding="utf-8").replace(old, "f" * 16), encoding="utf-8")
            page.evaluate("() => navigator.serviceWorker.getRegistration().then((r) => r.update())")
            wait_for_async(
                page,
                "(old) => caches.keys().then((names) => !names.some((name) => name.includes(old)))",
                old,
                what="the old build's caches to go",
            )
            page.reload(wait_until="load")
            # Still gone once the reloaded page has asked the workers to keep what it used: the
            # replaced worker writes only into caches that still exist (sw.js ownCache).
            wait_for_async(
                page,
                "(old) => caches.keys().then((names) => !names.some((name) => name.includes(old)))",
                old,
                what="the old build's caches to go",
            )
            names = page.evaluate("() => caches.keys()")
    finally:
        context.close()
    assert not [name for name in names if old in name], names
    assert any("f" * 16 in name for name in names), names
