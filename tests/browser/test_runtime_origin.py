"""The calculators load code only from the build's manifest, mount only the build's roots, and
come back from a fatal error in Python with Retry (issue "Safe by construction, second round").

* The runtime's addresses come from ``assets/roofline/calculators/runtime.mjs`` (written by the
  build), never from a calculator root's attributes: a root that names another host gets
  nothing from it, and a manifest that named one would be refused.
* A root without the build's token (``data-build-token``) is never mounted.
* After a fatal error the calculator says so and Retry starts a new worker.
"""

from __future__ import annotations

import re

import pytest

from tests.support.browser_wait import HANG_MS
from tests.support.static_server import StaticServer

pytestmark = pytest.mark.browser

ROOT = "[data-calculator]"
ELSEWHERE = "http://127.0.0.2:9/"

# A copy of the page's calculator, as markup that went round the sanitiser would place it:
# pointing the runtime at another host, with or without the real token.
FORGE = """([elsewhere, keepToken]) => {
  const real = document.querySelector('[data-calculator]');
  const forged = real.cloneNode(true);
  forged.id = 'forged-calculator';
  delete forged.dataset.engine;  // set when the real one mounted
  forged.dataset.pyodideIndexUrl = elsewhere;
  forged.dataset.coreZipUrl = elsewhere + 'core.zip';
  forged.dataset.stdlibUrl = elsewhere + 'stdlib.zip';
  if (!keepToken) forged.dataset.buildToken = '0'.repeat(32);
  real.before(forged);
}"""


def _requests(page) -> list[str]:
    seen: list[str] = []
    page.on("request", lambda request: seen.append(request.url))
    return seen


def test_a_root_without_the_builds_token_is_never_mounted(page_factory, site_server):
    page, watch = page_factory()
    page.add_init_script("window.requestIdleCallback = () => 0;")
    page.goto(site_server + "calculators/kv-cache/", wait_until="load")
    page.wait_for_selector(f"{ROOT}[data-engine]")
    page.evaluate(FORGE, [ELSEWHERE, False])
    # Material's instant navigation and the loader mount again on every page change.
    page.evaluate("() => import('./../../assets/roofline/calculators/calculator.mjs').then(m => m.mountAll(document))")
    page.wait_for_timeout(300)
    assert page.get_attribute("#forged-calculator", "data-engine") is None
    assert page.get_attribute("#calculator-kv-cache", "data-engine") == "idle"


@pytest.fixture(params=[False, True], ids=["meta-csp-only", "headers-csp"])
def served(request, built_site):
    """The built site, served without and with the CSP headers it ships (``_headers``)."""
    from tests.gates.conftest import shipped_headers

    headers = shipped_headers(built_site) if request.param else None
    with StaticServer(built_site, headers=headers) as server:
        yield server.url


def test_the_worker_loads_only_what_the_manifest_names(page_factory, served):
    site_server = served
    page, watch = page_factory()
    requests = _requests(page)
    page.goto(site_server + "calculators/kv-cache/", wait_until="load")
    page.wait_for_selector(f"{ROOT}[data-engine]")
    # The worst case: a forged root that even carries the token; the worker still ignores it.
    page.evaluate(FORGE, [ELSEWHERE, True])
    page.evaluate("() => import('./../../assets/roofline/calculators/calculator.mjs').then(m => m.mountAll(document))")
    page.locator("#forged-calculator [data-slider-for]").first.focus()
    page.keyboard.press("ArrowRight")
    page.wait_for_selector('#forged-calculator[data-engine="live"]', timeout=HANG_MS)
    assert [url for url in requests if not url.startswith(site_server)] == []
    assert watch.external_requests == []


def test_a_manifest_naming_another_origin_is_refused(page_factory, served):
    site_server = served
    page, watch = page_factory()
    requests = _requests(page)

    def foreign_manifest(route):
        text = route.fetch().text()
        route.fulfill(body=re.sub(r'"index": "[^"]*"', f'"index": "{ELSEWHERE}"', text), content_type="text/javascript")

    page.route("**/calculators/runtime.mjs", foreign_manifest)
    page.goto(site_server + "calculators/kv-cache/", wait_until="load")
    page.wait_for_selector(f"{ROOT}[data-engine]")
    page.locator(f"{ROOT} [data-slider-for]").first.focus()
    page.keyboard.press("ArrowRight")
    page.wait_for_selector(f'{ROOT}[data-engine="failed"]', timeout=HANG_MS)
    assert [url for url in requests if url.startswith(ELSEWHERE)] == []
    assert page.locator(f"{ROOT} [data-retry]").is_visible()


# Prepended to the real worker: the first compute at batch 777 answers as Pyodide does after a
# fatal error (the error object carries pyodide_fatal_error), and this worker answers no more.
FATAL_ONCE = """
let fatal = false;
self.addEventListener("message", (event) => {
  const message = event.data;
  if (message.type === "compute" && (fatal || String(message.inputs.batch) === "777")) {
    fatal = true;
    event.stopImmediatePropagation();
    self.postMessage({ type: "fatal", id: message.id, message: "Pyodide has suffered a fatal error" });
  }
});
"""


def test_after_a_fatal_error_retry_starts_a_new_worker(page_factory, site_server):
    page, watch = page_factory()
    workers: list[str] = []

    def fatal_once(route):
        workers.append(route.request.url)
        body = route.fetch().text()
        # Only the first worker: the one Retry starts is the real one.
        route.fulfill(body=(FATAL_ONCE if len(workers) == 1 else "") + body, content_type="text/javascript")

    page.route("**/calculators/worker.mjs", fatal_once)
    page.goto(site_server + "calculators/kv-cache/", wait_until="load")
    page.wait_for_selector(f"{ROOT}[data-engine]")  # mounted: what is typed now is read
    batch = page.locator(f'{ROOT} input[name="batch"]')
    batch.fill("8")
    page.wait_for_selector(f'{ROOT}[data-engine="live"]', timeout=HANG_MS)
    page.wait_for_selector(f'{ROOT}[data-state="live"]', timeout=HANG_MS)
    batch.fill("777")
    page.wait_for_selector(f'{ROOT}[data-engine="failed"]', timeout=HANG_MS)
    status = page.text_content(f"{ROOT} [data-status]")
    assert status.startswith("Showing precomputed values: Python stopped"), status
    page.click(f"{ROOT} [data-retry]")
    page.wait_for_selector(f'{ROOT}[data-engine="live"]', timeout=HANG_MS)
    batch.fill("16")
    page.wait_for_selector(f'{ROOT}[data-state="live"]', timeout=HANG_MS)
    assert len(workers) == 2, workers
    assert page.input_value(f'{ROOT} input[name="batch"]') == "16"
