"""The home page leads with a live calculator: above the fold on a desktop and on a phone, and live."""

from __future__ import annotations

import pytest

from tests.support.calculator_driver import make_live

pytestmark = pytest.mark.browser

CALCULATOR = '[data-calculator="roofline-explorer"]'


@pytest.mark.parametrize(("width", "height"), [(1280, 900), (390, 844)])
def test_the_home_page_leads_with_a_calculator_above_the_fold(site_server, page_factory, width, height):
    # Boxes of the prerendered calculator: the page asks to save data, so it boots no Python
    # that this check never waits for (the next test makes it live).
    page, watch = page_factory(width=width, height=height, saves_data=True)
    page.goto(site_server)
    content = page.locator("article > :not(h1):not(a):not(p)").first
    # The first block after the title and its lede is the calculator.
    assert content.evaluate(f"el => el.matches('{CALCULATOR}')")
    for part in ('[data-output="attainable"]', '[data-output="bound"]', "[data-chart-box]"):
        box = page.locator(f"{CALCULATOR} {part}").bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height, (part, box)
    assert watch.page_errors == [] and watch.external_requests == []


def test_the_home_page_calculator_goes_live(site_server, page_factory):
    page, watch = page_factory(width=390, height=844)
    page.goto(site_server)
    _, states = make_live(page)
    assert states == ["live"]
    assert watch.page_errors == []
