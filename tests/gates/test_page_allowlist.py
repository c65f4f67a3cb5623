"""Gate: every page of the built site holds only the elements and attributes its templates write
(roofline_site/page_allowlist.py), in the whole document: head, header, sidebars, table of
contents, article and footer. The hostile corpus's build gets the same check
(tests/gates/test_hostile_content.py)."""

from __future__ import annotations

import pytest

from roofline_site.page_allowlist import check_page
from tests.support.site_pages import html_pages, is_redirect_stub

pytestmark = pytest.mark.slow


def test_every_page_holds_only_what_its_templates_write(built_site):
    problems = []
    pages = html_pages(built_site)
    assert len(pages) > 100, pages
    for page in pages:
        text = (built_site / page).read_text(encoding="utf-8")
        problems += check_page(text, path=page, redirect=is_redirect_stub(text))
    assert problems == [], "\n".join(problems[:40])
