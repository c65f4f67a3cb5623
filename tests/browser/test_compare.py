"""Comparing scenarios in the browser: pin A, change B, and both survive a reload of the URL."""

from __future__ import annotations

import re

import pytest

from roofline_core.calculators import compute

pytestmark = pytest.mark.browser

ROOT = "[data-calculator]"
BOOT_TIMEOUT_MS = 60_000


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
        timeout=BOOT_TIMEOUT_MS,
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
    page.locator(f"{ROOT} [data-compare-view]").wait_for(timeout=BOOT_TIMEOUT_MS)
    assert "cannot be computed" in page.text_content(f"{ROOT} [data-compare-view]")
    assert page.input_value(f"{ROOT} [name=batch]") == "4"
    assert not (watch.console_errors or watch.page_errors or watch.external_requests)
