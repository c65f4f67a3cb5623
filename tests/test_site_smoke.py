"""The site builds strictly and makes no request to another host."""

from __future__ import annotations

import re

import pytest


@pytest.mark.slow
def test_home_page_has_no_external_asset(built_site):
    html = (built_site / "index.html").read_text(encoding="utf-8")
    assert "fonts.googleapis.com" not in html
    # A src= (script, image, frame) or a <link href> (style, font, icon) to another host would
    # load something from outside; plain <a href> links to other sites are fine.
    loads = re.findall(r'src="(https?://[^"]+)"', html) + re.findall(r'<link[^>]+href="(https?://[^"]+)"', html)
    assert [u for u in loads if not u.startswith("http://127.0.0.1")] == []


@pytest.mark.browser
def test_home_page_loads_without_leaving_localhost(site_server, page_factory, screenshots):
    for scheme in ("light", "dark"):
        page, watch = page_factory(color_scheme=scheme)
        page.goto(site_server, wait_until="networkidle")
        assert "Roofline Glossary" in page.title()
        screenshots.take(page, f"home-{scheme}.png")
        assert watch.external_requests == []
        assert watch.console_errors == []
        assert watch.page_errors == []
