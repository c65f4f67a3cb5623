"""The page a host serves for a missing address offers the glossary, the calculators and search."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser


def test_the_404_page_leads_to_the_glossary_calculators_and_search(page_factory, site_server, built_site):
    html = (built_site / "404.html").read_text(encoding="utf-8")
    # Served at any depth, so its links are rooted at site_url's path, never relative.
    for href in ('href="/glossary/"', 'href="/calculators/"'):
        assert href in html
    page, watch = page_factory(width=390, height=844)
    page.goto(site_server + "404.html")
    page.click("text=Search the site")
    assert page.is_checked("#__search")  # Material's search dialog is open
    page.keyboard.press("Escape")
    page.click("text=Browse the glossary")
    page.wait_for_url(site_server + "glossary/")
    assert watch.page_errors == [] and watch.external_requests == []
