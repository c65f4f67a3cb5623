"""What a number is made of, in Chromium: a time's popover on a term page draws its parts (the bar
and the equation roofline_core lays out), a number that is not a time has none, and a
calculator's main time shows its parts before any script runs and keeps them with the number as
the reader changes an input."""

from __future__ import annotations

import pytest

from roofline_core.calculators import compute
from roofline_core.quantities import evaluate_reference
from roofline_core.view import calculator_view
from roofline_site.glossary.number_parts import value_parts
from tests.browser.test_calculators_browser import ROOT, form_inputs
from tests.support.browser_wait import HANG_MS
from tests.support.view_tree import nodes_with_class, tree_text

pytestmark = pytest.mark.browser

POPOVER = "#roofline-quantity-popover"
STEP = "decode_step_time model=llama-3-8b accelerator=h100-sxm batch=16"
PLAIN = "ridge_point accelerator=h100-sxm"


def _open(page, text: str):
    """Click the first number on the page that reads ``text``; the popover, once its content came."""
    page.locator("article .roofline-quantity[role=button]", has_text=text).first.click()
    popover = page.locator(POPOVER)
    popover.locator("code", has_text="evaluate(").wait_for()
    return popover


def _bar(locator) -> dict:
    """The drawn bar: each segment's class and on-screen width, and the bar's width."""
    return locator.locator("svg.roofline-parts__bar").evaluate(
        """svg => ({
            width: svg.getBoundingClientRect().width,
            height: svg.getBoundingClientRect().height,
            segments: [...svg.querySelectorAll('rect')].map(r => [r.classList[1], r.getBoundingClientRect().width]),
            label: svg.getAttribute('aria-label'),
        })"""
    )


@pytest.mark.parametrize("width", [1280, 390])
def test_a_times_popover_shows_its_parts_as_a_bar_and_an_equation(page_factory, site_server, width):
    page, watch = page_factory(width=width)
    page.goto(site_server + "glossary/decode/", wait_until="networkidle")
    value = evaluate_reference(STEP)
    expected = value_parts(value)
    popover = _open(page, value.text)
    parts = popover.locator(".roofline-quantity-popover__parts")
    parts.locator(".roofline-parts").wait_for(state="visible")

    # The equation is the one roofline_core wrote: the number as the page shows it, then each part.
    equation = parts.locator(".roofline-parts__equation").text_content()
    assert equation == tree_text(nodes_with_class(expected, "roofline-parts__equation")[0])
    assert equation.startswith(f"{value.text} = ")
    # One segment per part, in order, filling the bar by their shares.
    bar = _bar(parts)
    assert [label for label, _ in bar["segments"]] == [f"roofline-parts--{part.label}" for part in value.parts]
    assert sum(w for _, w in bar["segments"]) == pytest.approx(bar["width"], abs=1.0)
    assert bar["height"] >= 8  # a bar, not a hairline
    for (_, shown), part in zip(bar["segments"], value.parts, strict=True):
        assert shown == pytest.approx(part.seconds / value.number * bar["width"], abs=1.0)
    # Named in words for screen readers, not by colour alone.
    assert bar["label"].startswith(f"What {value.text} is made of: weights read ")
    # The popover keeps its snippet and buttons, and stays on a phone's screen.
    assert popover.get_by_role("button", name="Copy as Python").is_visible()
    box = popover.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= width
    assert watch.console_errors + watch.page_errors == []


def test_a_number_that_is_not_a_time_has_no_parts(page_factory, site_server):
    page, _ = page_factory()
    page.goto(site_server + "glossary/ridge-point/", wait_until="networkidle")
    popover = _open(page, evaluate_reference(PLAIN).text)
    assert popover.locator(".roofline-quantity-popover__parts").is_hidden()
    assert popover.locator(".roofline-parts").count() == 0


def _shown_parts(page) -> tuple[str, str]:
    """The main time's text and the equation under it."""
    return page.eval_on_selector(
        ROOT,
        """root => {
            const box = root.querySelector('[data-parts-for]');
            return [root.querySelector(`[data-output="${box.dataset.partsFor}"]`).textContent,
                    box.querySelector('.roofline-parts__equation').textContent];
        }""",
    )


def test_a_calculators_main_time_shows_its_parts_and_they_follow_the_number(browser, site_server):
    calculator = "decode-speed-of-light"
    context = browser.new_context(viewport={"width": 1280, "height": 900}, service_workers="block")
    try:
        # Before any script: the prerendered parts of the defaults.
        static = browser.new_context(java_script_enabled=False)
        page = static.new_page()
        page.goto(site_server + f"calculators/{calculator}/")
        before = _shown_parts(page)
        view = calculator_view(calculator, compute(calculator, {}), dom_id="x")
        output = page.get_attribute(f"{ROOT} [data-parts-for]", "data-parts-for")
        assert before[1] == tree_text(nodes_with_class(view["outputs"][output]["parts"], "roofline-parts__equation")[0])
        assert before[1].startswith(f"{before[0]} = ")
        static.close()

        page = context.new_page()
        page.goto(site_server + f"calculators/{calculator}/")
        page.wait_for_selector(f'{ROOT}[data-engine="live"]', timeout=HANG_MS)
        assert _shown_parts(page) == before
        bar = _bar(page.locator(f"{ROOT} [data-parts-for]"))
        assert bar["height"] >= 8 and bar["width"] > 200
        page.select_option(f"{ROOT} [name=model]", "llama-3-70b")
        page.wait_for_function(
            f"""() => document.querySelector('{ROOT} [data-output="{output}"]').textContent !== {before[0]!r}""",
            timeout=HANG_MS,
        )
        page.wait_for_selector(f'{ROOT}:not([data-state="computing"])')
        after = _shown_parts(page)
        assert after != before
        # The parts belong to the number shown: the equation starts with it, as CPython lays it out.
        assert after[1].startswith(f"{after[0]} = ")
        view = calculator_view(calculator, compute(calculator, form_inputs(page)), dom_id="x")
        assert after[1] == tree_text(nodes_with_class(view["outputs"][output]["parts"], "roofline-parts__equation")[0])
    finally:
        context.close()
