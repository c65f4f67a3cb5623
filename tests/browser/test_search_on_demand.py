"""Material's search index is fetched when the reader opens search, not as every page loads
(site_assets/search/index-on-demand.js), and search then works as before."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser

QUERY = "input.md-search__input"
FIRST_RESULT = ".md-search-result__item a"
# Resource Timing lists the request whether or not the HTTP cache answered it.
INDEX_FETCHES = """() => performance.getEntriesByType('resource')
  .filter((entry) => new URL(entry.name).pathname.endsWith('/search/search_index.json')).length"""


def _search_finds(page, word: str) -> None:
    page.locator(QUERY).press_sequentially(word, delay=30)  # Material searches on key events
    page.locator(FIRST_RESULT).first.wait_for()


@pytest.mark.parametrize("opening", ["shortcut key", "search button"])
def test_the_index_waits_until_the_reader_opens_search(site_server, page_factory, opening):
    # The search button is in the header on a phone; on a desktop the box is, and "/" opens it.
    page, watch = page_factory(width=390 if opening == "search button" else 1280, saves_data=True)
    page.goto(site_server + "glossary/roofline/", wait_until="networkidle")
    assert page.evaluate(INDEX_FETCHES) == 0
    if opening == "shortcut key":
        page.keyboard.press("/")
    else:
        page.locator("label.md-header__button[for=__search]").click()
    _search_finds(page, "bandwidth")
    assert page.evaluate(INDEX_FETCHES) == 1
    assert watch.page_errors == [] and watch.console_errors == []


def test_a_search_key_typed_into_a_field_is_text_not_search(site_server, page_factory):
    page, _ = page_factory(saves_data=True)
    page.goto(site_server + "glossary/", wait_until="networkidle")
    page.locator("[data-glossary-filter] input").press_sequentially("sf/")
    page.wait_for_load_state("networkidle")
    assert page.evaluate(INDEX_FETCHES) == 0


def test_an_address_with_a_search_query_searches_at_once(site_server, page_factory):
    page, watch = page_factory(saves_data=True)
    page.goto(site_server + "glossary/roofline/?q=decode", wait_until="load")
    page.locator(FIRST_RESULT).first.wait_for()
    assert page.evaluate(INDEX_FETCHES) == 1
    assert watch.page_errors == []


def test_the_glossary_filter_hands_its_words_to_search(site_server, page_factory):
    # No term matches, so the filter offers the whole site's search, which opens with the words.
    page, watch = page_factory(saves_data=True)
    page.goto(site_server + "glossary/", wait_until="networkidle")
    page.locator("[data-glossary-filter] input").press_sequentially("nemotron")
    page.locator("[data-glossary-search-site]").click()
    page.locator(FIRST_RESULT).first.wait_for()
    assert page.evaluate(INDEX_FETCHES) == 1
    assert watch.page_errors == []
