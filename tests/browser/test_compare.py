"""Comparing scenarios in the browser: pin A, change B, and both survive a reload of the URL."""

from __future__ import annotations

import re

import pytest

from roofline_core.calculators import compute
from tests.support.browser_wait import HANG_MS

pytestmark = pytest.mark.browser

ROOT = "[data-calculator]"


def _results(page) -> dict[str, tuple[str, str]]:
    """The comparison's results table: ``{label: (A, B)}``."""
    rows = page.eval_on_selector_all(
        f"{ROOT} .roofline-calc__compare-results tbody tr",
        "rows => rows.map(r => [...r.children].map(c => c.firstChild.textContent))",
    )
    return {label: (a, b) for label, a, b in rows}


def _wait_for_comparison(page, b_text: str) -> None:
    page.wait_for_function(
        "text => [...document.querySelectorAll('[data-compare-view] td')].some(td => td.firstChild.textContent === text)",
        arg=b_text,
        timeout=HANG_MS,
    )


def test_pin_a_change_b_reload_and_both_are_restored(page_factory, site_server):
    page, watch = page_factory()
    page.goto(site_server + "calculators/decode-speed-of-light/", wait_until="load")
    root = page.locator(ROOT).first
    pin = root.locator("[data-pin]")
    pin.wait_for(state="visible")
    pin.click()
    root.locator("[data-unpin]").wait_for(state="visible")

    page.select_option(f"{ROOT} [name=accelerator]", "h200")
    box = root.locator("[name=batch]")
    box.fill("16")
    box.dispatch_event("input")
    page.wait_for_url(re.compile(r"pin=.*batch=16|batch=16.*pin="))
    a = compute("decode-speed-of-light", {})["outputs"]
    b = compute("decode-speed-of-light", {"accelerator": "h200", "batch": "16"})["outputs"]
    _wait_for_comparison(page, b["step_time"]["text"])
    shown = _results(page)
    assert shown["Time per decode step"] == (a["step_time"]["text"], b["step_time"]["text"])
    changes = page.text_content(f"{ROOT} .roofline-calc__compare-changes")
    assert "Accelerator" in changes and "Batch size" in changes and "Memory bandwidth: 3.35 → 4.8 TB/s" in changes

    # The URL holds both: reloading it shows B in the form and A pinned beside it.
    page.reload(wait_until="load")
    _wait_for_comparison(page, b["step_time"]["text"])
    assert page.input_value(f"{ROOT} [name=batch]") == "16"
    assert page.input_value(f"{ROOT} [name=accelerator]") == "h200"
    assert _results(page)["Time per decode step"] == (a["step_time"]["text"], b["step_time"]["text"])

    # Stop comparing: the box goes and the link no longer carries A.
    root.locator("[data-unpin]").click()
    assert root.locator("[data-compare-box]").is_hidden()
    assert "pin=" not in page.url and "batch=16" in page.url
    assert not (watch.console_errors or watch.page_errors or watch.external_requests)


def test_a_link_with_a_broken_pin_says_so_and_keeps_b(page_factory, site_server):
    page, watch = page_factory()
    page.goto(site_server + "calculators/kv-cache/?pin=batch%3D-3&batch=4", wait_until="load")
    page.locator(f"{ROOT} [data-compare-view]").wait_for(timeout=HANG_MS)
    assert "cannot be computed" in page.text_content(f"{ROOT} [data-compare-view]")
    assert page.input_value(f"{ROOT} [name=batch]") == "4"
    assert not (watch.console_errors or watch.page_errors or watch.external_requests)


@pytest.mark.parametrize(("width", "height"), [(1280, 800), (390, 844)])
def test_while_comparing_a_to_b_and_the_ratio_lead_the_results_and_the_tables_follow_them(
    page_factory, site_server, width, height
):
    from roofline_core.calculators.compare import compare, effect_text

    page, watch = page_factory(width=width, height=height)
    # `pin=` pins the calculator's defaults as A; the form holds B.
    b_inputs = {"accelerator": "h200", "batch": "16"}
    page.goto(site_server + "calculators/decode-speed-of-light/?pin=&accelerator=h200&batch=16", wait_until="load")
    summary = page.locator(f"{ROOT} .roofline-calc__results [data-compare-summary-box]")
    summary.wait_for(state="visible", timeout=HANG_MS)
    a = compute("decode-speed-of-light", {})["outputs"]["step_time"]["text"]
    b = compute("decode-speed-of-light", b_inputs)["outputs"]["step_time"]["text"]
    ratio = effect_text(compare("decode-speed-of-light", {}, b_inputs).total_effect)
    assert summary.locator("[data-compare-a]").text_content() == a
    assert summary.locator("[data-compare-b]").text_content() == b
    assert summary.locator("[data-compare-ratio]").text_content() == f"({ratio})"

    def box(selector: str) -> dict:
        return page.locator(f"{ROOT} {selector}").first.evaluate("e => e.getBoundingClientRect().toJSON()")

    headline = box(".roofline-calc__outputs--headline")
    # The summary leads the results. "Pin" and "Stop comparing" sit above the headline beside the
    # inputs; on a phone under the headline and chart, which keep the first screen.
    assert box("[data-compare-summary-box]")["bottom"] <= headline["top"] + 1
    for selector in ("[data-pin]", "[data-unpin]"):
        if width > 540:
            assert box(selector)["bottom"] <= headline["top"] + 1, selector
        else:
            assert box(selector)["top"] >= box("[data-chart-box]")["bottom"], selector
    # The full tables come after the results.
    assert box("[data-compare-box]")["top"] >= box(".roofline-calc__results")["bottom"]
    # Scrolled to the calculator, the summary is in the first screen with the headline.
    page.locator(ROOT).evaluate("e => e.scrollIntoView()")
    for selector in ("[data-compare-summary-box]", "[data-unpin]"):
        shown = box(selector)
        assert 0 <= shown["top"] and shown["bottom"] <= height, selector
    assert not (watch.console_errors or watch.page_errors or watch.external_requests)


def test_pin_as_a_is_by_the_headline_before_any_comparison(page_factory, site_server):
    page, _watch = page_factory(width=1280, height=800)
    page.goto(site_server + "calculators/kv-cache/", wait_until="load")
    pin = page.locator(f"{ROOT} .roofline-calc__results [data-pin]")
    pin.wait_for(state="visible")
    headline = page.locator(f"{ROOT} .roofline-calc__outputs--headline").bounding_box()
    box = pin.bounding_box()
    assert box["y"] + box["height"] <= headline["y"] + 1 and headline["y"] - box["y"] < 120
