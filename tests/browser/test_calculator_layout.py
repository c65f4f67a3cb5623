"""Answer first: each calculator's headline results and chart are in the first screen, on a
desktop and on a phone, and no calculator page scrolls sideways on a small phone."""

from __future__ import annotations

import pytest

from roofline_core.calculators import CALCULATORS, compute, definition
from tests.support.calculator_driver import calculator_states, save_data

pytestmark = pytest.mark.browser

ROOT = "[data-calculator]"
# The boxes that answer the calculator's question: its headline results, and its chart if it has one.
ANSWER = f"{ROOT} .roofline-calc__outputs--headline, {ROOT} [data-chart-box]"


def _open(page_factory, site_server: str, calculator_id: str, *, width: int, height: int):
    # The checks read the mounted page, whose values are the build's precomputed ones: the page
    # asks to save data, so it does not boot Python that no check waits for.
    page, watch = page_factory(width=width, height=height)
    save_data(page)
    page.goto(f"{site_server}calculators/{calculator_id}/", wait_until="load")
    page.wait_for_selector(f"{ROOT}[data-engine]")  # mounted: "More inputs" folded if narrow
    assert set(calculator_states(page)) == {"precomputed"}, (calculator_id, calculator_states(page))
    return page, watch


#: The screens each calculator is opened at, once each: a desktop and a phone (the answer in the
#: first screen, chart text readable); the phone's page is then narrowed to a small phone's width
#: (nothing scrolls sideways, the other inputs stay folded) rather than opened a third time: the
#: folding is decided at mount, and a phone and a small phone both fold. One visit serves every
#: check of its screen (a calculator's page, without its runtime: see _open).
SCREENS = {"desktop": (1280, 800), "phone": (390, 844)}
SMALL_PHONE = (360, 740)
CHARTED = frozenset(c for c in CALCULATORS if "chart" in compute(c, {}))


@pytest.mark.parametrize("screen", sorted(SCREENS))
@pytest.mark.parametrize("calculator_id", sorted(CALCULATORS))
def test_each_screen_shows_the_answer_first_and_never_scrolls_sideways(
    page_factory, site_server, calculator_id, screen
):
    width, height = SCREENS[screen]
    page, watch = _open(page_factory, site_server, calculator_id, width=width, height=height)
    _answer_in_the_first_screen(page, calculator_id, width, height)
    if calculator_id in CHARTED:
        _chart_text_is_readable(page, calculator_id)
    if screen == "phone":
        page.set_viewport_size({"width": SMALL_PHONE[0], "height": SMALL_PHONE[1]})
        _never_scrolls_sideways_and_folds_the_other_inputs(page)
    if screen == "desktop" and page.locator(f"{ROOT} [data-more-inputs]").count():
        # Desktop keeps every input in view beside the answer.
        assert page.get_attribute(f"{ROOT} [data-more-inputs]", "open") is not None
    assert watch.page_errors == []


def _answer_in_the_first_screen(page, calculator_id: str, width: int, height: int) -> None:
    boxes = page.eval_on_selector_all(ANSWER, "els => els.map(e => e.getBoundingClientRect().toJSON())")
    assert boxes, "no headline results found"
    for box in boxes:
        assert box["top"] >= 0 and box["bottom"] <= height, f"{calculator_id} at {width}px: {box} not in 0..{height}"


def _never_scrolls_sideways_and_folds_the_other_inputs(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= SMALL_PHONE[0]
    more = page.locator(f"{ROOT} [data-more-inputs]")
    if more.count():
        assert more.get_attribute("open") is None, "More inputs should be folded on a phone"


def _chart_text_is_readable(page, calculator_id: str) -> None:
    sizes = page.eval_on_selector_all(
        f"{ROOT} svg.roofline-chart text",
        """els => els.filter(e => getComputedStyle(e).display !== 'none')
              .map(e => parseFloat(getComputedStyle(e).fontSize) * e.getScreenCTM().a)""",
    )
    assert sizes and min(sizes) >= 11, (calculator_id, sorted(sizes)[:3])


def test_a_wide_table_scrolls_in_its_own_box_with_a_cue_and_its_key_column_in_view(page_factory, site_server):
    page, _watch = _open(page_factory, site_server, "operations-table", width=360, height=740)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    box = page.locator(f"{ROOT} [data-table] .md-typeset__scrollwrap")
    assert box.evaluate("e => e.scrollWidth > e.clientWidth"), "the table should overflow its box at 360 px"
    # The cue: shadows fixed at the box's edges, under covers that scroll with the content.
    style = box.evaluate("e => [getComputedStyle(e).backgroundImage, getComputedStyle(e).backgroundAttachment]")
    assert style[0].count("radial-gradient") == 2 and style[1] == "local, local, scroll, scroll", style
    # Scrolled to the end, the key column is still in the box and the others pass under it.
    key = page.locator(f"{ROOT} [data-table] tbody tr:not(.roofline-calc__prose-row) td:first-child").first
    other = page.locator(f"{ROOT} [data-table] tbody tr:not(.roofline-calc__prose-row) td:nth-child(2)").first
    box.evaluate("e => { e.scrollLeft = e.scrollWidth; }")
    page.wait_for_timeout(50)
    seen = box.bounding_box()
    cell = key.bounding_box()
    assert seen["x"] - 1 <= cell["x"] and cell["x"] + cell["width"] <= seen["x"] + seen["width"]
    assert other.bounding_box()["x"] < cell["x"] + cell["width"] - 1


SCENARIO = ("model", "accelerator", "devices", "batch", "context_tokens")


def _choice_label(calculator_id: str, field_id: str, value: str) -> str:
    field = next(f for f in definition(calculator_id)["inputs"] if f["id"] == field_id)
    return next(c["label"] for c in field["choices"] if c["value"] == value)


@pytest.mark.parametrize(("width", "height"), [(1280, 800), (390, 844)])
def test_what_fits_names_its_whole_scenario_in_the_first_screen_without_opening_more_inputs(
    page_factory, site_server, width, height
):
    page, watch = _open(page_factory, site_server, "what-fits", width=width, height=height)
    page.locator(ROOT).evaluate("e => e.scrollIntoView()")
    expected = {
        "model": _choice_label("what-fits", "model", "llama-3.1-70b"),
        "accelerator": _choice_label("what-fits", "accelerator", "h100-sxm"),
        "devices": "4",
        "batch": "16",
    }
    for field_id in SCENARIO:
        # A key input is a field in the first screen; any other is named in the scenario line.
        field = page.locator(f"{ROOT} .roofline-calc__inputs--key [name={field_id}]")
        named = page.locator(f"{ROOT} [data-scenario-for={field_id}]")
        shown = field if field.count() else named
        box = shown.bounding_box()
        assert shown.is_visible() and box["y"] >= 0 and box["y"] + box["height"] <= height, (field_id, box)
        if field_id in expected:
            assert named.locator("[data-scenario-value]").text_content() == expected[field_id]
    # The line follows the fields, and a tap on a name opens its field (folded on a phone).
    page.locator(f"{ROOT} [data-scenario-for=devices]").click()
    assert page.evaluate("document.activeElement.name") == "devices"
    page.fill(f"{ROOT} [name=devices]", "8")
    page.dispatch_event(f"{ROOT} [name=devices]", "input")
    assert page.text_content(f"{ROOT} [data-scenario-for=devices] [data-scenario-value]") == "8"
    assert watch.page_errors == []
