"""When the calculators' runtime downloads: on the reader's first interaction or once the loaded
page is idle, never because a calculator scrolled into view, and never on a page without one.

"Runtime" is everything the live calculators need beyond the page: the module worker, Pyodide's
files and the packed roofline_core (all under ``assets/pyodide/`` but the worker).
"""

from __future__ import annotations

import gzip

import pytest

from benchmarks.bench_first_touch import SNAPSHOT_CACHED
from roofline_core.calculators import compute
from tests.support.browser_wait import HANG_MS

pytestmark = pytest.mark.browser

ROOT = "[data-calculator]"
RUNTIME_MARKERS = ("/assets/pyodide/", "/calculators/worker.mjs", ".wasm", ".zip")

# Runs before the page's scripts: an idle callback that never comes, so only an interaction can
# start the runtime (the timeout option included: the callback is simply never called).
NEVER_IDLE = "window.requestIdleCallback = () => 0;"


def runtime_requests(requests: list[str]) -> list[str]:
    return [url for url in requests if any(marker in url for marker in RUNTIME_MARKERS)]


def open_page(page_factory, url: str, *, never_idle: bool):
    page, watch = page_factory()
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    if never_idle:
        page.add_init_script(NEVER_IDLE)
    page.goto(url, wait_until="load")
    if page.locator(ROOT).count():
        # Mounted: the calculator module set the engine's state on the root.
        page.wait_for_selector(f"{ROOT}[data-engine]")
    return page, watch, requests


def test_no_runtime_bytes_before_the_first_interaction_then_live_after_it(page_factory, site_server):
    page, watch, requests = open_page(page_factory, site_server + "calculators/roofline-explorer/", never_idle=True)
    # In view, scrolled to, hovered over: none of that is a request for the calculator.
    page.locator(ROOT).scroll_into_view_if_needed()
    page.mouse.move(10, 10)
    page.wait_for_timeout(1_500)
    assert runtime_requests(requests) == []
    assert page.get_attribute(ROOT, "data-engine") == "idle"
    prerendered = page.text_content(f"{ROOT} [data-output]")

    page.focus(f"{ROOT} [data-slider-for=intensity]")
    # The prerendered numbers stay while Python loads.
    assert page.text_content(f"{ROOT} [data-output]") == prerendered
    page.keyboard.press("ArrowRight")
    page.wait_for_selector(f'{ROOT}[data-engine="live"]', timeout=HANG_MS)
    assert any("pyodide.asm.wasm" in url for url in requests)
    inputs = page.eval_on_selector(
        ROOT, "root => Object.fromEntries([...root.querySelectorAll('[name]')].map(c => [c.name, c.value]))"
    )
    assert inputs["intensity"] != "1"
    expected = {key: str(value["text"]) for key, value in compute("roofline-explorer", inputs)["outputs"].items()}
    page.wait_for_function(
        """expected => {
            const root = document.querySelector('[data-calculator]');
            return Object.entries(expected).every(([id, text]) =>
                root.querySelector(`[data-output="${id}"]`).textContent === text);
        }""",
        arg=expected,
        timeout=HANG_MS,
    )
    assert watch.page_errors == [] and watch.console_errors == []


def test_a_touch_before_the_calculator_has_mounted_starts_python_at_once(browser, site_server):
    # calculator.mjs held back, as on a slow phone while its module graph loads: the loader
    # starts Python from the reader's first touch without waiting for it (loader.mjs).
    context = browser.new_context(service_workers="block")
    try:
        held = []
        context.route("**/calculators/calculator.mjs", lambda route: held.append(route))
        page = context.new_page()
        page.add_init_script(NEVER_IDLE)
        page.goto(site_server + "calculators/roofline-explorer/", wait_until="load")
        # Requested by loader.mjs right after it began listening for the first touch.
        assert held, "calculator.mjs was not requested"
        with page.expect_request(lambda request: "/calculators/worker.mjs" in request.url, timeout=HANG_MS):
            page.focus(f"{ROOT} [name=intensity]")
        assert page.locator(f"{ROOT}[data-engine]").count() == 0  # not mounted yet
        for route in held:
            route.continue_()
        page.wait_for_selector(f'{ROOT}[data-engine="live"]', timeout=HANG_MS)
    finally:
        context.close()


def test_an_idle_page_starts_the_runtime_without_an_interaction(page_factory, site_server):
    page, watch, requests = open_page(page_factory, site_server + "calculators/kv-cache/", never_idle=False)
    page.wait_for_selector(f'{ROOT}[data-engine="live"]', timeout=HANG_MS)
    assert runtime_requests(requests)
    # No reader waits for an idle start: the calculators' worker fetched the runtime itself, and
    # no preload hint passed its megabytes through the page's main thread.
    assert page.locator("link[rel=preload][as=fetch]").count() == 0
    assert watch.page_errors == [] and watch.console_errors == []


# Runs before the page's scripts: the Network Information API as a browser reports it for a
# reader who saves data, or on a slow link.
LINK = "Object.defineProperty(Navigator.prototype, 'connection', {{ get: () => ({{ saveData: {save}, effectiveType: '{kind}' }}) }});"


@pytest.mark.parametrize(("save", "kind"), [("true", "4g"), ("false", "3g")], ids=["save-data", "slow link"])
def test_a_reader_saving_data_or_on_a_slow_link_gets_no_runtime_until_they_ask(page_factory, site_server, save, kind):
    page, watch = page_factory()
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.add_init_script(LINK.format(save=save, kind=kind))
    page.goto(site_server + "calculators/kv-cache/", wait_until="load")
    page.wait_for_selector(f"{ROOT}[data-engine]")
    # Past the idle callback's timeout: an idle start would have begun by now.
    page.wait_for_timeout(4_000)
    assert runtime_requests(requests) == []
    assert page.get_attribute(ROOT, "data-engine") == "idle"
    page.locator(f"{ROOT} input[type=text]:visible").first.focus()
    page.wait_for_selector(f'{ROOT}[data-engine="live"]', timeout=HANG_MS)
    assert watch.page_errors == [] and watch.console_errors == []


# The home page leads with a calculator now; "Vendor vocabulary" is a docs page without one.
@pytest.mark.parametrize("path", ["vendor-vocabulary/", "glossary/batching/"])
def test_pages_without_a_calculator_load_nothing_of_the_runtime(page_factory, site_server, path):
    page, watch, requests = open_page(page_factory, site_server + path, never_idle=False)
    assert page.locator(ROOT).count() == 0
    # Long enough for an idle callback (and its timeout) to have run.
    page.wait_for_timeout(3_500)
    assert runtime_requests(requests) == []
    assert not any("/calculators/calculator.mjs" in url for url in requests)
    assert watch.page_errors == [] and watch.console_errors == []


def engine_boot(page) -> str | None:
    """How the page's engine started Python: ``snapshot`` or ``plain`` (the page's own module
    instance), with why the snapshot was not used after a colon."""
    return page.evaluate(
        """async () => {
            const loader = document.querySelector('script[src*="calculators/loader.mjs"]').src;
            const engine = (await import(new URL('engine.mjs', loader).href)).currentEngine();
            return engine?.refused && engine.refused !== "not asked for" ? `${engine.boot}: ${engine.refused}` : engine?.boot ?? null;
        }"""
    )


def test_the_worker_boots_from_the_snapshot(page_factory, site_server):
    page, watch, requests = open_page(page_factory, site_server + "calculators/roofline-explorer/", never_idle=True)
    statuses: dict[str, int] = {}
    page.on("response", lambda response: statuses.__setitem__(response.url, response.status))
    page.focus(f"{ROOT} [data-slider-for=intensity]")
    page.wait_for_selector(f'{ROOT}[data-engine="live"]', timeout=HANG_MS)
    snapshots = [url for url in statuses if ".snapshot-" in url]
    assert snapshots and all(statuses[url] == 200 for url in snapshots), statuses
    assert engine_boot(page) == "snapshot"
    assert watch.page_errors == [] and watch.console_errors == []


def test_without_its_snapshot_the_worker_boots_the_ordinary_way(browser, site_server):
    context = browser.new_context(service_workers="block")
    try:
        page = context.new_page()
        context.route("**/*.snapshot-*", lambda route: route.fulfill(status=404, body="gone"))
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(site_server + "calculators/roofline-explorer/?intensity=64")
        page.wait_for_selector(f'{ROOT}[data-state="live"]', timeout=HANG_MS)
        # Refused because it is missing, and said why.
        assert engine_boot(page).startswith("plain: ") and "HTTP 404" in engine_boot(page)
        outputs = {
            key: str(value["text"])
            for key, value in compute("roofline-explorer", {"intensity": "64"})["outputs"].items()
        }
        shown = page.eval_on_selector(
            ROOT,
            "root => Object.fromEntries([...root.querySelectorAll('[data-output]')].map(o => [o.dataset.output, o.textContent]))",
        )
        assert shown == outputs
        assert errors == []
    finally:
        context.close()


def test_a_snapshot_that_arrives_ungzipped_boots_the_same(browser, site_server, built_site):
    # A host that sends the .gz file with Content-Encoding: gzip hands the worker its bytes
    # ungzipped; the worker ungzips as it reads (worker.mjs), so it must tell the two apart.
    (snapshot,) = built_site.glob("assets/pyodide/*/*.snapshot-*")
    context = browser.new_context(service_workers="block")
    try:
        context.route(
            "**/*.snapshot-*",
            lambda route: route.fulfill(status=200, body=gzip.decompress(snapshot.read_bytes())),
        )
        page = context.new_page()
        page.goto(site_server + "calculators/roofline-explorer/?intensity=64")
        page.wait_for_selector(f'{ROOT}[data-state="live"]', timeout=HANG_MS)
        assert engine_boot(page) == "snapshot"
    finally:
        context.close()


def test_the_next_page_boots_from_the_snapshot_without_downloading_it_again(browser, site_server):
    context = browser.new_context(service_workers="block")
    try:
        downloads: list[str] = []
        context.on("requestfinished", lambda request: downloads.append(request.url))
        for visit in range(2):
            page = context.new_page()
            page.goto(site_server + "calculators/kv-cache/", wait_until="load")
            page.wait_for_selector(f"{ROOT}[data-engine]")
            page.focus(f"{ROOT} [name=batch]")
            page.wait_for_selector(f'{ROOT}[data-engine="live"]', timeout=HANG_MS)
            assert engine_boot(page) == "snapshot"
            snapshots = [url for url in downloads if ".snapshot-" in url]
            # Once on the first visit (not twice: no preload of it), from Cache Storage after.
            assert len(snapshots) == 1, (visit, snapshots)
            page.close()
    finally:
        context.close()


# What the worker sees of a reader who saves data (navigator.connection in the worker, which
# tests cannot set through DevTools), stated in the worker script.
SAVES_DATA = 'Object.defineProperty(self.navigator, "connection", {value: {effectiveType: "4g", saveData: true}});\n'

# Stated in the worker script: its timed download of the library reads as a slow link (one byte
# a second), so a first visit does not use the snapshot.
SLOW_LINK = (
    "performance.getEntriesByName = () => "
    "[{transferSize: 1, encodedBodySize: 1, responseStart: 0, responseEnd: 1000}];\n"
)


def worker_prefixed(context, prefix: str) -> None:
    """Serve the calculators' worker script with ``prefix`` run before it, in every page of ``context``."""

    def patched(route):
        response = route.fetch()
        route.fulfill(response=response, body=prefix + response.text())

    context.route("**/calculators/worker.mjs", patched)


def test_a_reader_who_saves_data_never_downloads_the_snapshot(browser, site_server):
    context = browser.new_context(service_workers="block")
    try:
        page = context.new_page()
        worker_prefixed(context, SAVES_DATA)
        requests: list[str] = []
        context.on("request", lambda request: requests.append(request.url))
        page.goto(site_server + "calculators/kv-cache/", wait_until="load")
        page.wait_for_selector(f"{ROOT}[data-engine]")
        page.focus(f"{ROOT} [name=batch]")
        page.wait_for_selector(f'{ROOT}[data-engine="live"]', timeout=HANG_MS)
        assert engine_boot(page) == "plain"
        # Not now, and not later for the next visit either.
        page.wait_for_timeout(3_000)
        assert not [url for url in requests if ".snapshot-" in url]
    finally:
        context.close()


def test_without_a_fast_link_the_first_visit_boots_plain_and_keeps_the_snapshot_for_the_next(browser, site_server):
    context = browser.new_context(service_workers="block")
    try:
        worker_prefixed(context, SLOW_LINK)
        first = context.new_page()
        first.goto(site_server + "calculators/kv-cache/", wait_until="load")
        first.wait_for_selector(f"{ROOT}[data-engine]")
        first.focus(f"{ROOT} [name=batch]")
        first.wait_for_selector(f'{ROOT}[data-engine="live"]', timeout=HANG_MS)
        assert engine_boot(first) == "plain"
        # Fetched into Cache Storage once the answer is on screen.
        for _ in range(120):
            if first.evaluate(SNAPSHOT_CACHED):
                break
            first.wait_for_timeout(250)
        else:
            raise AssertionError("the snapshot was not kept within 30 s")
        first.close()
        second = context.new_page()
        second.goto(site_server + "calculators/roofline-explorer/", wait_until="load")
        second.wait_for_selector(f"{ROOT}[data-engine]")
        second.focus(f"{ROOT} [data-slider-for=intensity]")
        second.wait_for_selector(f'{ROOT}[data-engine="live"]', timeout=HANG_MS)
        assert engine_boot(second) == "snapshot"
    finally:
        context.close()


def test_a_runtime_that_cannot_load_says_so_in_a_sentence_and_retry_goes_live(browser, site_server):
    context = browser.new_context(viewport={"width": 360, "height": 740}, service_workers="block")
    try:
        blocked: list[str] = []

        def abort(route):
            blocked.append(route.request.url)
            route.abort()

        # On the context: the worker's own requests (pyodide.mjs and the rest) go through it.
        context.route("**/assets/pyodide/**", abort)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(site_server + "calculators/kv-cache/", wait_until="load")
        page.wait_for_selector(f"{ROOT}[data-engine]")
        page.focus(f"{ROOT} [name=context_tokens]")
        page.wait_for_selector(f'{ROOT}[data-engine="failed"]', timeout=HANG_MS)
        assert blocked
        status = page.text_content(f"{ROOT} [data-status]")
        # A sentence for a reader: what is shown and what to do, no error text from the runtime.
        assert status.startswith("Showing precomputed values: live recalculation could not start.")
        assert "retry" in status and "Error" not in status and "http" not in status
        retry = page.locator(f"{ROOT} [data-retry]")
        assert retry.is_visible() and retry.text_content() == "Retry"
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        assert page.is_disabled(f"{ROOT} [name=context_tokens]")

        context.unroute("**/assets/pyodide/**", abort)
        retry.click()
        page.wait_for_selector(f'{ROOT}[data-engine="live"]', timeout=HANG_MS)
        page.wait_for_selector(f'{ROOT}[data-state="live"]', timeout=HANG_MS)
        assert retry.is_hidden() and page.is_enabled(f"{ROOT} [name=context_tokens]")
        page.fill(f"{ROOT} [name=context_tokens]", "4096")
        expected = compute("kv-cache", {"context_tokens": "4096"})["outputs"]["kv_bytes"]["text"]
        page.wait_for_function(
            "([sel, want]) => document.querySelector(sel).textContent === want",
            arg=[f'{ROOT} [data-output="kv_bytes"]', expected],
        )
        assert errors == []
    finally:
        context.close()


def test_a_scenario_link_that_cannot_go_live_keeps_its_values_and_says_the_results_are_the_defaults(
    browser, site_server
):
    # A phone opens a scenario link while the runtime cannot load: the notice and Retry are at
    # the top of the calculator, in the first screen; the fields keep the link's values, and the
    # results (prerendered for the page's starting inputs) say which inputs they are for.
    context = browser.new_context(viewport={"width": 390, "height": 844}, service_workers="block")
    try:
        context.route("**/assets/pyodide/**", lambda route: route.abort())
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(site_server + "calculators/roofline-explorer/?accelerator=h200&intensity=64", wait_until="load")
        page.wait_for_selector(f'{ROOT}[data-engine="failed"]', timeout=HANG_MS)

        notice = page.locator(f"{ROOT} [data-failure]")
        retry = notice.locator("[data-retry]")
        assert notice.is_visible() and retry.is_visible()
        assert notice.text_content().startswith("Showing precomputed values: live recalculation could not start.")
        headline = page.locator(f"{ROOT} .roofline-calc__outputs--headline").bounding_box()
        for shown in (notice.bounding_box(), retry.bounding_box()):
            # Without scrolling, and above the answer.
            assert 0 <= shown["y"] and shown["y"] + shown["height"] <= 844 and shown["y"] < headline["y"]

        assert page.input_value(f"{ROOT} [name=intensity]") == "64"
        assert page.input_value(f"{ROOT} [name=accelerator]") == "h200"
        defaults = compute("roofline-explorer", {})["outputs"]
        assert page.text_content(f'{ROOT} [data-output="attainable"]') == defaults["attainable"]["text"]
        marked = page.locator(f"{ROOT} [data-results-for]")
        assert marked.is_visible()
        text = marked.text_content()
        assert text.startswith("Not for the inputs shown: these results are for the page's starting inputs")
        assert "Arithmetic intensity 1 FLOP/byte" in text and "NVIDIA H100 SXM" in text
        assert marked.bounding_box()["y"] < headline["y"]
        assert errors == []
    finally:
        context.close()
