"""Numbers on a term page in Chromium: clicking or pressing Enter on one opens "Copy as Python" and
"Cite"; the copied Python prints what the page shows; where the clipboard is refused, the text is
shown selected instead; without JavaScript the numbers stay plain text."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.support.site_build import PROJECT_ROOT

pytestmark = pytest.mark.browser

POPOVER = "#roofline-quantity-popover"
NUMBER = "article .roofline-quantity[data-quantity]"


def _cite(page) -> str:
    return page.locator(".roofline-reproduce__cite").text_content()


def test_a_clicked_number_copies_python_that_prints_it_and_the_page_citation(browser, site_server):
    context = browser.new_context(service_workers="block", permissions=["clipboard-read", "clipboard-write"])
    try:
        page = context.new_page()
        page.goto(site_server + "glossary/kv-cache/", wait_until="networkidle")
        number = page.locator(f'{NUMBER}[role="button"]').nth(3)
        shown = number.text_content()
        number.click()
        popover = page.locator(POPOVER)
        popover.wait_for(state="visible")
        assert number.get_attribute("aria-expanded") == "true"
        assert popover.get_attribute("aria-label") == f"{shown}: reproduce or cite"

        popover.get_by_role("button", name="Copy as Python").click()
        popover.locator(".roofline-quantity-popover__status", has_text="Python copied.").wait_for()
        snippet = page.evaluate("navigator.clipboard.readText()")
        run = subprocess.run(
            [sys.executable, "-c", snippet], capture_output=True, text=True, cwd=PROJECT_ROOT, timeout=60
        )
        assert run.returncode == 0, run.stderr
        assert run.stdout == shown + "\n"

        popover.get_by_role("button", name="Cite").click()
        popover.locator(".roofline-quantity-popover__status", has_text="Citation copied.").wait_for()
        assert page.evaluate("navigator.clipboard.readText()") == _cite(page)

        # "All numbers on this page" opens the collapsed section at the number's item.
        popover.get_by_role("link", name="All numbers on this page").click()
        popover.wait_for(state="hidden")
        assert page.locator("#roofline-numbers").get_attribute("open") is not None
        item = page.locator(f"#roofline-numbers-{number.get_attribute('data-quantity')}")
        assert item.locator("p").text_content() == shown
        assert item.is_visible()
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
    popover.get_by_role("button", name="Copy as Python").click()
    box = popover.locator("textarea")
    box.wait_for(state="visible")
    assert box.input_value().startswith("from roofline_core.quantities import evaluate\nprint(evaluate(")
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
    assert page.locator("#roofline-numbers-0 code").is_visible()
    assert "data version" in _cite(page)


def test_numbers_on_a_docs_page_open_the_popover_but_a_link_text_number_stays_a_link(page_factory, site_server):
    page, watch = page_factory()
    page.goto(site_server + "vendor-vocabulary/", wait_until="networkidle")
    assert page.locator(f'{NUMBER}[role="button"]').count() > 0
    assert page.locator("article a .roofline-quantity").count() > 0
    assert page.locator("article a .roofline-quantity[role]").count() == 0
    page.locator(f'{NUMBER}[role="button"]').first.click()
    page.locator(POPOVER).wait_for(state="visible")
    assert watch.page_errors == []
