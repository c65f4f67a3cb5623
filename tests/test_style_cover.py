"""The dark palette's pages: the fewest pages that show every styled element, each in its setting."""

from __future__ import annotations

from tests.support.style_cover import covering_pages, style_signatures


def test_an_element_is_told_apart_by_its_classes_and_its_setting():
    html = (
        "<html><head><link class='x'></head><body><p class='note b a'>1</p>"
        "<div class='card'><p>2<br><em>3</em></p></div><p>4</p></body></html>"
    )
    assert style_signatures(html) == {
        " > body.",
        " > p.a.b.note",
        " > div.card",
        "card > p.",
        "card > br.",
        "card > em.",
        " > p.",
    }


def test_the_cover_holds_every_pages_signatures_with_fewest_pages(tmp_path):
    pages = {
        "a.html": "<body><p class='x'></p></body>",
        "b.html": "<body><p class='x'></p><p class='y'></p></body>",
        "c.html": "<body><p class='y'></p><p class='z'></p></body>",
        "d.html": "<body><p class='z'></p></body>",
    }
    for name, html in pages.items():
        (tmp_path / name).write_text(html, encoding="utf-8")
    chosen = covering_pages(tmp_path, sorted(pages))
    assert chosen == ["b.html", "c.html"]
    assert covering_pages(tmp_path, []) == []
