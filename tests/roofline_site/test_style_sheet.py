"""One style sheet per page: Material's sheets and the site's, joined in cascade order."""

from __future__ import annotations

import re

import pytest

from roofline_site.style_sheet import StyleSheetError, hashed_name, joined_sheet, theme_sheets

MAIN = "assets/stylesheets/main.57a0d79d.min.css"
PALETTE = "assets/stylesheets/palette.fb2fffe2.min.css"


def test_theme_sheets_come_in_the_order_material_links_them():
    paths = ["index.html", PALETTE, "assets/javascripts/bundle.a5f9d56c.min.js", MAIN]
    assert theme_sheets(paths, palette=True) == [MAIN, PALETTE]


def test_the_palette_sheet_joins_only_with_a_palette():
    assert theme_sheets([PALETTE, MAIN], palette=False) == [MAIN]


@pytest.mark.parametrize(
    "paths",
    [
        [PALETTE],  # no main sheet
        [MAIN],  # no palette sheet, yet the theme has a palette
        [MAIN, "assets/stylesheets/main.0123abcd.min.css", PALETTE],  # two main sheets
        ["assets/stylesheets/main.min.css", PALETTE],  # not named as Material names it
    ],
)
def test_another_theme_layout_is_refused_by_name(paths):
    with pytest.raises(
        StyleSheetError, match=r"assets/stylesheets/(main|palette)\.<hash>\.min\.css; expected exactly one"
    ):
        theme_sheets(paths, palette=True)


def test_joined_sheet_keeps_order_and_names_each_part():
    css = joined_sheet([("theme", "a{color:red}"), ("site_assets/site.css", "b{color:blue}\n")])
    assert (
        css.index("/* theme */")
        < css.index("a{color:red}")
        < css.index("/* site_assets/site.css */")
        < css.index("b{color:blue}")
    )


def test_joined_sheet_has_one_charset_rule_first_and_no_source_maps():
    css = joined_sheet(
        [
            ("main", '@charset "UTF-8";html{margin:0}\n/*# sourceMappingURL=main.57a0d79d.min.css.map*/'),
            ("palette", '@charset "UTF-8";body{color:red}/*# sourceMappingURL=palette.fb2fffe2.min.css.map*/'),
        ]
    )
    assert css.startswith('@charset "UTF-8";\n')
    assert css.count("@charset") == 1
    assert "sourceMappingURL" not in css
    assert "html{margin:0}" in css and "body{color:red}" in css


def test_name_follows_content():
    assert hashed_name("assets/roofline", "a{}") == hashed_name("assets/roofline", "a{}")
    assert hashed_name("assets/roofline", "a{}") != hashed_name("assets/roofline", "b{}")
    assert re.fullmatch(r"assets/roofline/site\.[0-9a-f]{16}\.css", hashed_name("assets/roofline", "a{}"))
