"""The service worker (site_assets/offline/sw.js, served as /sw.js): pages and calculators a reader
has opened work again with the network gone, and the live calculator computes offline."""

from __future__ import annotations

import pytest

from roofline_core.calculators import compute

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
