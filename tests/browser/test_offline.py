"""The service worker (site_assets/offline/sw.js, served as /sw.js): pages and calculators a reader
has opened work again with the network gone, and the live calculator computes offline."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from roofline_core.calculators import compute
from tests.support.static_server import StaticServer

pytestmark = pytest.mark.browser

BOOT_TIMEOUT_MS = 60_000
ROOT = "[data-calculator]"


def wait_until_controlled(page) -> None:
    """Until the service worker controls the page (it registers after load, then claims it)."""
    page.wait_for_function(
        "() => navigator.serviceWorker && navigator.serviceWorker.controller !== null", timeout=20_000
    )


def test_a_visited_calculator_page_opens_and_goes_live_offline(browser, site_server):
    context = browser.new_context(service_workers="allow")
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(site_server + "calculators/roofline-explorer/", wait_until="load")
        wait_until_controlled(page)
        # Online once, through the worker: the page, its assets and the runtime are kept.
        page.reload(wait_until="load")
        page.focus(f"{ROOT} [data-slider-for=intensity]")
        page.wait_for_selector(f'{ROOT}[data-engine="live"]', timeout=BOOT_TIMEOUT_MS)
        page.close()

        context.set_offline(True)
        offline = context.new_page()
        offline.on("pageerror", lambda exc: errors.append(str(exc)))
        # A scenario link of the visited page: the same file, its numbers live offline.
        offline.goto(site_server + "calculators/roofline-explorer/?intensity=64", wait_until="load")
        assert offline.title()
        offline.wait_for_selector(f'{ROOT}[data-state="live"]', timeout=BOOT_TIMEOUT_MS)
        expected = {k: str(v["text"]) for k, v in compute("roofline-explorer", {"intensity": "64"})["outputs"].items()}
        shown = offline.eval_on_selector(
            ROOT,
            "root => Object.fromEntries([...root.querySelectorAll('[data-output]')].map(o => [o.dataset.output, o.textContent]))",
        )
        assert shown == expected
        assert errors == []
    finally:
        context.close()


def test_a_page_never_visited_is_not_invented_offline(browser, site_server):
    context = browser.new_context(service_workers="allow")
    try:
        page = context.new_page()
        page.goto(site_server, wait_until="load")
        wait_until_controlled(page)
        context.set_offline(True)
        with pytest.raises(Exception, match="ERR_INTERNET_DISCONNECTED|ERR_FAILED"):
            page.goto(site_server + "glossary/tensor-cores/", wait_until="load")
    finally:
        context.close()


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
    # Only the site's own, scoped caches hold what the worker kept, and only listed files.
    own = {name: urls for name, urls in cached.items() if name.startswith("roofline:/:")}
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
            page.goto(server.url, wait_until="load")
            wait_until_controlled(page)
            page.reload(wait_until="load")
            old = _manifest(site)["version"]
            assert any(old in name for name in page.evaluate("() => caches.keys()"))
            # The next build: another manifest, so other bytes in sw.js.
            worker = site / "sw.js"
            worker.write_text(worker.read_text(encoding="utf-8").replace(old, "f" * 16), encoding="utf-8")
            page.evaluate("() => navigator.serviceWorker.getRegistration().then((r) => r.update())")
            page.wait_for_function(
                "(old) => caches.keys().then((names) => !names.some((name) => name.includes(old)))",
                arg=old,
                timeout=20_000,
            )
            page.reload(wait_until="load")
            names = page.evaluate("() => caches.keys()")
    finally:
        context.close()
    assert not [name for name in names if old in name], names
