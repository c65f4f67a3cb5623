"""Model vs measurement in Chromium: the summary first, named rows, the filter, both scroll bars, the sticky column."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser

PAGE = "model-vs-measurement/"
ROWS = "[data-measurements-table] tbody tr"


def test_the_page_leads_with_the_summary_and_its_chart(site_server, page_factory):
    page, watch = page_factory()
    page.goto(site_server + PAGE)
    headings = page.locator("article h2").all_text_contents()
    assert headings[0].startswith("At a glance"), headings
    summary_end = headings.index(next(h for h in headings if h.startswith("How the comparison works")))
    assert summary_end == 1
    chart = page.locator('article figure[data-figure-kind="measured-vs-predicted"]')
    chart.wait_for(state="visible")
    # The chart and the regime table sit above the method and the full table.
    method = page.locator("article h2", has_text="How the comparison works")
    assert chart.bounding_box()["y"] < method.bounding_box()["y"]
    assert page.locator("article h3", has_text="Error by regime").bounding_box()["y"] < method.bounding_box()["y"]
    assert watch.page_errors == [] and watch.external_requests == []


def test_without_scripts_every_row_shows_named_and_the_filter_box_stays_hidden(site_server, page_factory):
    page, _ = page_factory(java_script_enabled=False)
    page.goto(site_server + PAGE)
    rows = page.locator(ROWS)
    total = int(page.locator("[data-measurements-table]").get_attribute("data-measurements-table"))
    assert rows.count() == total > 50
    assert all(row.is_visible() for row in rows.all()[:5])
    assert page.locator(".measurements-table__filter").is_hidden()
    first = rows.first.locator("td").first.inner_text()
    assert "batch" in first and "\n" in first  # model / chip / engine and batch, one per line


def test_the_filter_keeps_the_rows_holding_every_word(site_server, page_factory):
    page, watch = page_factory()
    page.goto(site_server + PAGE)
    box = page.locator(".measurements-table__input")
    box.wait_for(state="visible")
    rows = page.locator(ROWS)
    total = rows.count()
    box.fill("H100 fp8")
    texts = [(row.inner_text().lower(), row.is_visible()) for row in rows.all()]
    shown = [text for text, visible in texts if visible]
    assert shown and len(shown) < total
    assert all("h100" in text and "fp8" in text for text in shown)
    assert all(not ("h100" in text and "fp8" in text) for text, visible in texts if not visible)
    assert page.locator(".measurements-table__status").inner_text() == f"{len(shown)} of {total} rows match."
    box.fill("no such chip")
    assert page.locator(".measurements-table__status").inner_text() == "No row matches “no such chip”."
    box.fill("")
    assert all(row.is_visible() for row in rows.all())
    assert watch.page_errors == [] and watch.console_errors == []


@pytest.mark.parametrize("width", [390, 1280])
def test_a_scroll_bar_above_the_table_moves_it_and_the_first_column_stays(site_server, page_factory, width):
    page, _ = page_factory(width=width)
    page.goto(site_server + PAGE)
    top = page.locator(".measurements-table__top")
    scroller = page.locator(".measurements-table__scroll")
    top.wait_for(state="visible")
    table_box = scroller.locator("table").bounding_box()
    assert top.bounding_box()["y"] + top.bounding_box()["height"] <= table_box["y"] + 1
    # Both bars span the same width of content, so one scroll position means the same in both.
    assert top.evaluate("e => e.scrollWidth") == scroller.evaluate("e => e.scrollWidth")
    first_cell = scroller.locator("tbody tr").first.locator("td").first
    left_before = first_cell.bounding_box()["x"]
    top.evaluate("e => { e.scrollLeft = 300; }")
    page.wait_for_function("() => document.querySelector('.measurements-table__scroll').scrollLeft > 0")
    assert scroller.evaluate("e => e.scrollLeft") == top.evaluate("e => e.scrollLeft") > 0
    assert first_cell.bounding_box()["x"] == pytest.approx(left_before, abs=1)  # sticky
    # And the other way round.
    scroller.evaluate("e => { e.scrollLeft = 0; }")
    page.wait_for_function("() => document.querySelector('.measurements-table__top').scrollLeft === 0")
