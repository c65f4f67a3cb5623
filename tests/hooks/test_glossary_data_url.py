"""Every page names the glossary's data for the previews, relative to itself, so it resolves to
the site's ``glossary.json`` wherever the site is hosted (the theme template writes it)."""

from __future__ import annotations

import re
from urllib.parse import urljoin

import pytest

META = re.compile(r'<meta name="roofline:glossary-json" content="([^"]+)">')


@pytest.mark.slow
@pytest.mark.parametrize(
    "page",
    [
        "index.html",
        "glossary/index.html",
        "glossary/roofline/index.html",
        "calculators/kv-cache/index.html",
        "embed/kv-cache/index.html",
    ],
)
def test_each_page_names_the_sites_glossary_json(built_site, page):
    html = (built_site / page).read_text(encoding="utf-8")
    (named,) = META.findall(html)
    assert not named.startswith(("/", "http")), named  # relative: right under any sub-path
    base = "https://example.org/sub/path/"
    assert urljoin(base + page.removesuffix("index.html"), named) == base + "glossary.json"
    assert (built_site / "glossary.json").is_file()
