"""When the calculators' runtime downloads: on the reader's first interaction or once the loaded
page is idle, never because a calculator scrolled into view, and never on a page without one.

"Runtime" is everything the live calculators need beyond the page: the module worker, Pyodide's
files and the packed roofline_core (all under ``assets/pyodide/`` but the worker).
"""

from __future__ import annotations

import pytest

from roofline_core.calculators import compute

pytestmark = pytest.mark.browser

BOOT_TIMEOUT_MS = 60_000
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
    page.wait_for_selector(f'{ROOT}[data-engine="live"]', timeout=BOOT_TIMEOUT_MS)
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
        timeout=10_000,
    )
    assert watch.page_errors == [] and watch.console_errors == []


def test_an_idle_page_starts_the_runtime_without_an_interaction(page_factory, site_server):
    page, watch, requests = open_page(page_factory, site_server + "calculators/kv-cache/", never_idle=False)
    page.wait_for_selector(f'{ROOT}[data-engine="live"]', timeout=BOOT_TIMEOUT_MS)
    assert runtime_requests(requests)
    assert watch.page_errors == [] and watch.console_errors == []


@pytest.mark.parametrize("path", ["", "glossary/batching/"])
def test_pages_without_a_calculator_load_nothing_of_the_runtime(page_factory, site_server, path):
    page, watch, requests = open_page(page_factory, site_server + path, never_idle=False)
    assert page.locator(ROOT).count() == 0
    # Long enough for an idle callback (and its timeout) to have run.
    page.wait_for_timeout(3_500)
    assert runtime_requests(requests) == []
    assert not any("/calculators/calculator.mjs" in url for url in requests)
    assert watch.page_errors == [] and watch.console_errors == []
