"""Every page of the built site loads one style sheet: Material's and the site's, joined."""

from __future__ import annotations

import re
from pathlib import Path

from tests.support.site_build import PROJECT_ROOT

MATERIAL_CSS = Path(__import__("material").__file__).parent / "templates" / "assets" / "stylesheets"
_STYLE_SHEET_LINK = re.compile(r'<link rel="stylesheet" href="([^"]*)">')


def test_every_page_links_the_one_content_named_sheet(built_site):
    pages = sorted(built_site.rglob("*.html"))
    linked = set()
    for page in pages:
        html = page.read_text(encoding="utf-8")
        if 'http-equiv="refresh"' in html:
            continue  # a redirect page, with no style at all
        links = _STYLE_SHEET_LINK.findall(html)
        assert len(links) == 1, f"{page.relative_to(built_site)} links {links}"
        assert re.search(r"assets/roofline/site\.[0-9a-f]{16}\.css\Z", links[0]), links[0]
        linked.add((page.parent / links[0]).resolve() if not links[0].startswith("/") else built_site / links[0][1:])
    assert len(linked) == 1
    assert next(iter(linked)).is_file()


def test_the_sheet_holds_materials_sheets_then_the_sites(built_site):
    (sheet,) = (built_site / "assets" / "roofline").glob("site.*.css")
    css = sheet.read_text(encoding="utf-8")
    main = next(MATERIAL_CSS.glob("main.*.min.css")).read_text(encoding="utf-8")
    palette = next(MATERIAL_CSS.glob("palette.*.min.css")).read_text(encoding="utf-8")
    # Each part as it is, less its @charset rule and source map comment.
    strip = lambda text: re.sub(r"/\*# sourceMappingURL=[^*]*\*/", "", text).replace('@charset "UTF-8";', "").strip()  # noqa: E731
    theme_end = css.index(strip(palette)) + len(strip(palette))
    assert css.index(strip(main)) < css.index(strip(palette))
    site_parts = sorted((PROJECT_ROOT / "site_assets").rglob("*.css"))
    assert site_parts
    for part in site_parts:
        assert css.index(part.read_text(encoding="utf-8").strip()) > theme_end, part
