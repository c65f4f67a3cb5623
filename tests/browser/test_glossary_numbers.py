"""Numbers on a term page in Chromium: clicking or pressing Enter on one opens "Copy as Python" and
"Cite"; the copied Python prints what the page shows; where the clipboard is refused, the text is
shown selected instead; without JavaScript the numbers stay plain text."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from playwright.sync_api import expect

from tests.support.site_build import PROJECT_ROOT

pytestmark = pytest.mark.browser

POPOVER = "#roofline-quantity-popover"
NUMBER = "article .roofline-quantity[data-quantity]"
SCRIPT_FETCHES = "performance.getEntriesByType('resource').filter(e => e.name.includes('/roofline/numbers/')).length"


def _cite(page) -> str:
    return page.locator(".roofline-reproduce__cite").text_content()


def test_a_clicked_number_copies_python_that_prints_it_and_the_page_citation(browser, site_server):
    context = browser.new_context(service_workers="block", permissions=["clipboard-read", "clipboard-write"])
    try:
        page = context.new_page()
        page.goto(site_server + "glossary/kv-cache/", wait_until="networkidle")
        number = page.locator(f'{NUMBER}[role="button"]').nth(3)
        shown = number.text_content()
        assert page.evaluate(SCRIPT_FETCHES) == 0  # the numbers' script comes when asked for
        number.click()
        popover = page.locator(POPOVER)
        popover.wait_for(state="visible")
        assert number.get_attribute("aria-expanded") == "true"
        assert popover.get_attribute("aria-label") == f"{shown}: reproduce or cite"
        popover.locator("code", has_text="print(evaluate(").wait_for()

        popover.get_by_role("button", name="Copy as Python").click()
        popover.locator(".roofline-quantity-popover__status", has_text="Python copied.").wait_for()
        snippet = page.evaluate("navigator.clipboard.readText()")
        run = subprocess.run(
            [sys.executable, "-c", snippet], capture_output=True, text=True, cwd=PROJECT_ROOT, timeout=60
        )
        assert run.returncode == 0, run.stderr
        assert run.stdout == shown + "\n"
        # It says where to get roofline_core, and the data version is the page's: no warning.
        assert snippet.startswith("# pip install --force-reinstall ") and run.stderr == ""

        popover.get_by_role("button", name="Cite").click()
        popover.locator(".roofline-quantity-popover__status", has_text="Citation copied.").wait_for()
        assert page.evaluate("navigator.clipboard.readText()") == _cite(page)

        # "All numbers on this page" opens the collapsed section at the number's item.
        popover.get_by_role("link", name="All numbers on this page").click()
        popover.wait_for(state="hidden")
        assert page.locator("#roofline-numbers").get_attribute("open") is not None
        item = page.locator(f"#roofline-numbers-{number.get_attribute('data-quantity')}")
        item.wait_for(state="visible")
        assert item.locator("p").text_content() == shown
        assert item.locator("code").text_content() == snippet.rstrip("\n")
        # Scrolled to it. (Not page.url: Material's navigation.tracking rewrites the address to
        # the nearest heading's anchor as the page scrolls, so the hash may already be '#sources'.)
        expect(item).to_be_in_viewport()
        assert page.evaluate(SCRIPT_FETCHES) == 1  # once per page, however often it is needed
    finally:
        context.close()


def test_opening_the_section_or_linking_a_number_lists_every_number_with_its_python(page_factory, site_server):
    page, watch = page_factory()
    page.goto(site_server + "glossary/decode/", wait_until="networkidle")
    shown = page.locator(NUMBER).evaluate_all("els => els.map(e => [e.dataset.quantity, e.textContent])")
    page.locator("#roofline-numbers summary").click()
    items = page.locator("#roofline-numbers .roofline-reproduce__list > li")
    items.first.wait_for(state="visible")
    assert items.count() == len({index for index, _ in shown})
    # Listed under the script's link, above the citation.
    order = page.locator("#roofline-numbers > *").evaluate_all("els => els.map(e => e.tagName + '.' + e.className)")
    assert order.index("OL.roofline-reproduce__list") == order.index("P.") + 1 < len(order) - 1
    for index, text in shown:
        assert page.locator(f"#roofline-numbers-{index} > p").text_content() == text
        code = page.locator(f"#roofline-numbers-{index} code").text_content()
        # The install line, the import, the pin to the page's data version, then the number's
        # line (a time's also prints its parts: print((value := evaluate(...)).text, ...)).
        assert re.match(
            r"# pip install --force-reinstall \S+/wheels/roofline_core-\S+\.whl.*\n"
            r"from roofline_core\.quantities import evaluate\n"
            r"from roofline_core\.version import check_data_version\n"
            r"check_data_version\('[0-9a-f]{12}'\)  # .*\n"
            r"print\((\(value := )?evaluate\(",
            code,
        ), code
    # A link to one number's item (shared from the popover) opens the section there.
    page.goto(site_server + "glossary/decode/#roofline-numbers-5", wait_until="networkidle")
    # Polled, not read once: the page may still be settling (its scroll-tracking rewrites the
    # address as the item scrolls into view).
    page.wait_for_function(
        "() => document.getElementById('roofline-numbers').open"
        " && document.getElementById('roofline-numbers-5')?.checkVisibility()"
    )
    assert watch.page_errors == [] and watch.console_errors == []


def test_if_the_script_cannot_be_fetched_the_popover_says_where_the_python_is(browser, site_server):
    context = browser.new_context(service_workers="block")
    try:
        page = context.new_page()
        page.route("**/assets/roofline/numbers/*", lambda route: route.abort())
        page.goto(site_server + "glossary/kv-cache/", wait_until="networkidle")
        page.locator(f'{NUMBER}[role="button"]').first.click()
        popover = page.locator(POPOVER)
        popover.locator("code", has_text="could not be loaded").wait_for()
        popover.get_by_role("button", name="Copy as Python").click()
        assert "could not be loaded" in popover.locator(".roofline-quantity-popover__status").text_content()
        # The citation needs nothing fetched.
        assert popover.get_by_role("button", name="Cite").is_visible()
    finally:
        context.close()


def test_keyboard_opens_and_escape_closes_returning_focus(page_factory, site_server):
    page, watch = page_factory()
    page.goto(site_server + "glossary/roofline/", wait_until="networkidle")
    number = page.locator(f'{NUMBER}[role="button"]').first
    number.focus()
    page.keyboard.press("Enter")
    popover = page.locator(POPOVER)
    popover.wait_for(state="visible")
    assert page.evaluate("document.activeElement.textContent") == "Copy as Python"
    page.keyboard.press("Escape")
    popover.wait_for(state="hidden")
    assert number.get_attribute("aria-expanded") == "false"
    assert page.evaluate("document.activeElement.classList.contains('roofline-quantity')")
    # Space toggles it too, without scrolling the page.
    scrolled = page.evaluate("window.scrollY")
    page.keyboard.press(" ")
    popover.wait_for(state="visible")
    assert page.evaluate("window.scrollY") == scrolled
    # Clicking elsewhere closes it.
    page.locator("article h1").click()
    popover.wait_for(state="hidden")
    assert watch.page_errors == [] and watch.console_errors == []


def test_where_the_clipboard_is_refused_the_python_is_shown_selected(page_factory, site_server):
    page, watch = page_factory(width=390, height=844)
    page.add_init_script(
        "Object.defineProperty(navigator, 'clipboard', {value: {writeText: () => Promise.reject(new Error('denied'))}})"
    )
    page.goto(site_server + "glossary/kv-cache/", wait_until="networkidle")
    page.locator(f'{NUMBER}[role="button"]').first.click()
    popover = page.locator(POPOVER)
    # The snippet first: a click while it loads says "still loading" (and copies nothing).
    popover.locator("code", has_text="print(evaluate(").wait_for()
    popover.get_by_role("button", name="Copy as Python").click()
    box = popover.locator("textarea")
    box.wait_for(state="visible")
    # The number's snippet: the install line first, its print line last.
    lines = box.input_value().splitlines()
    assert lines[0].startswith("# pip install --force-reinstall ") and lines[-1].startswith("print(evaluate(")
    assert box.evaluate("el => el.selectionEnd - el.selectionStart") == len(box.input_value())
    assert "selected below" in popover.locator(".roofline-quantity-popover__status").text_content()
    # On a phone the popover stays inside the screen.
    left, right = popover.evaluate("el => [el.getBoundingClientRect().left, el.getBoundingClientRect().right]")
    assert 0 <= left and right <= 390
    assert watch.page_errors == []


def test_without_javascript_numbers_are_plain_text_and_the_section_is_readable(page_factory, site_server):
    page, _watch = page_factory(java_script_enabled=False)
    page.goto(site_server + "glossary/kv-cache/")
    assert page.locator(NUMBER).count() > 0
    assert page.locator(f"{NUMBER}[role], {NUMBER}[tabindex]").count() == 0
    page.locator("#roofline-numbers summary").click()
    link = page.locator("#roofline-numbers a.roofline-reproduce__script")
    assert link.is_visible() and link.get_attribute("download") == "kv-cache-numbers.py"
    assert "data version" in _cite(page)


def test_numbers_on_a_docs_page_open_the_popover_but_a_link_text_number_stays_a_link(page_factory, site_server):
    page, watch = page_factory()
    page.goto(site_server + "vendor-vocabulary/", wait_until="networkidle")
    # The popover script gives the numbers their role once it runs (networkidle can come first).
    page.locator(f'{NUMBER}[role="button"]').first.wait_for()
    assert page.locator("article a .roofline-quantity").count() > 0
    assert page.locator("article a .roofline-quantity[role]").count() == 0
    page.locator(f'{NUMBER}[role="button"]').first.click()
    page.locator(POPOVER).wait_for(state="visible")
    assert watch.page_errors == []
