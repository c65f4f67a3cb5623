"""A term page's calculator arrives as the reader nears it, and at once for a scenario link."""

from __future__ import annotations

import re

import pytest

from tests.support.browser_wait import HANG_MS

pytestmark = pytest.mark.browser

SUMMARY = "section[data-calculator-later]#calculator-kv-cache"
CALCULATOR = "section[data-calculator]#calculator-kv-cache"
PART = re.compile(r"/assets/roofline/calculators/part/calculator\.[0-9a-f]{16}\.json$")


def _headline(page, root: str) -> dict[str, str]:
    return page.eval_on_selector(
        root,
        "root => Object.fromEntries([...root.querySelectorAll('.roofline-calc__outputs--headline [data-output]')]"
        ".map(dd => [dd.dataset.output, dd.textContent]))",
    )


def test_the_calculator_replaces_its_summary_as_the_reader_nears_it(site_server, page_factory):
    page, watch = page_factory(width=390, height=844)
    fetched = []
    page.on("request", lambda request: PART.search(request.url) and fetched.append(request.url))
    page.goto(site_server + "glossary/kv-cache/", wait_until="networkidle")
    # The page as served: the summary, with the numbers, and nothing of the calculator fetched.
    summary = _headline(page, SUMMARY)
    assert summary and all(summary.values()), summary
    assert page.locator(CALCULATOR).count() == 0 and fetched == []

    page.locator(SUMMARY).scroll_into_view_if_needed()
    page.wait_for_selector(f"{CALCULATOR}[data-engine]")  # in place and mounted
    assert len(fetched) == 1 and page.locator(SUMMARY).count() == 0
    # The calculator shows the numbers the summary showed.
    assert _headline(page, CALCULATOR) == summary
    assert watch.page_errors == [] and watch.console_errors == [] and watch.external_requests == []


def test_a_scenario_link_brings_the_calculator_at_once(site_server, page_factory):
    page, watch = page_factory(width=390, height=844)
    page.goto(site_server + "glossary/kv-cache/?batch=3", wait_until="networkidle")
    page.wait_for_selector(f"{CALCULATOR}[data-engine]")
    assert page.input_value(f"{CALCULATOR} [name=batch]") == "3"
    assert watch.page_errors == [] and watch.external_requests == []


def test_without_javascript_the_summary_and_its_link_stay(site_server, page_factory):
    page, _watch = page_factory(java_script_enabled=False)
    page.goto(site_server + "glossary/kv-cache/")
    assert page.locator(SUMMARY).count() == 1
    link = page.locator(f"{SUMMARY} a", has_text="Open the KV cache size calculator")
    assert link.get_attribute("href") == "../../calculators/kv-cache/"


RUNTIME_MARKERS = ("/assets/pyodide/", "/calculators/worker.mjs")


def test_a_calculator_below_the_fold_fetches_no_runtime_until_the_reader_scrolls_to_it(site_server, page_factory):
    """Placed a screen ahead of the reader, the calculator waits for them: a reader of the term who
    never reaches it downloads none of its runtime, even once the page is idle."""
    height = 1200
    page, watch = page_factory(width=1280, height=height)
    runtime: list[str] = []
    page.on("request", lambda request: any(m in request.url for m in RUNTIME_MARKERS) and runtime.append(request.url))
    page.goto(site_server + "glossary/kv-cache/", wait_until="load")
    page.wait_for_selector(f"{CALCULATOR}[data-engine]")  # placed and mounted without a scroll
    top = page.eval_on_selector(CALCULATOR, "root => root.getBoundingClientRect().top")
    # The case this checks: below the first screen, within the screen ahead that places it.
    assert height < top < 2 * height, top
    # Past the idle start's timeout (3 s after an idle page): an idle start would have begun.
    page.wait_for_timeout(4_500)
    assert runtime == [] and page.get_attribute(CALCULATOR, "data-engine") == "idle"

    # The engine's state changes before its first runtime request reaches Playwright's "request"
    # event, so the test waits for that request itself rather than reading the list at once.
    with page.expect_request(lambda request: any(m in request.url for m in RUNTIME_MARKERS), timeout=HANG_MS):
        page.locator(CALCULATOR).scroll_into_view_if_needed()
    page.wait_for_function(
        "() => document.querySelector('[data-calculator]').dataset.engine !== 'idle'", timeout=HANG_MS
    )
    assert runtime
    assert watch.page_errors == [] and watch.external_requests == []
