"""A scenario an entry links to has a preview page (a card with its result, for chats and blogs):
"Copy link" gives that page's address for the scenario, and the page forwards a reader to it."""

from __future__ import annotations

from playwright.sync_api import expect

from roofline_site import scenario_cards
from tests.browser.test_calculators_browser import ROOT
from tests.support.browser_wait import HANG_MS
from tests.support.site_build import PROJECT_ROOT

#: Linked from glossary/kv-cache.md; Llama 3 70B at 32k tokens are the calculator's defaults.
QUERY = "batch=8&kv_dtype=fp8"


def test_copy_link_gives_the_preview_page_which_forwards_to_the_scenario(browser, site_server):
    (scenario,) = [s for s in scenario_cards.entry_scenarios(PROJECT_ROOT / "glossary") if s.query == QUERY]
    context = browser.new_context(service_workers="block", permissions=["clipboard-read", "clipboard-write"])
    try:
        page = context.new_page()
        # The entry's link, with the defaults it names (the model and context) in it.
        page.goto(site_server + "calculators/kv-cache/?model=llama-3-70b&context_tokens=32768&" + QUERY)
        root = page.locator(ROOT)
        page.wait_for_selector(f"{ROOT} [data-copy-link]:not([hidden])", timeout=HANG_MS)
        root.locator("[data-copy-link]").click()
        root.locator("[data-copy-feedback]", has_text="Link copied.").wait_for()
        # The published address (the default build's site_url) of the scenario's preview page.
        assert page.evaluate("navigator.clipboard.readText()") == "http://127.0.0.1:8000/" + scenario.page_path
        # Another scenario has no preview: the page's address with its query, as before.
        box = page.locator(f"{ROOT} [name=batch]")
        box.fill("9")
        box.dispatch_event("input")
        page.wait_for_url(lambda url: "batch=9" in url)
        root.locator("[data-copy-link]").click()
        page.wait_for_function("async () => (await navigator.clipboard.readText()).includes('batch=9')")
        copied = page.evaluate("navigator.clipboard.readText()")
        assert copied.startswith("http://127.0.0.1:8000/calculators/kv-cache/?") and "scenario" not in copied

        # The preview page sends a reader on to the scenario, with no script.
        page.goto(site_server + scenario.page_path)
        page.wait_for_url(lambda url: url.endswith("/calculators/kv-cache/?" + QUERY))
        # The page's script takes the scenario from the address once it has mounted.
        expect(page.locator(f"{ROOT} [name=batch]")).to_have_value("8", timeout=HANG_MS)
    finally:
        context.close()
