"""Headings reach the table of contents as text with slug ids (roofline_site/headings.py)."""

from __future__ import annotations

from dataclasses import dataclass, field

import markdown
import pytest

from roofline_site.glossary.sanitize import sanitise_entry_html
from roofline_site.headings import TOC_ID, heading_id_allowed, plain_toc, slugify, text_html

EXTENSIONS = ["attr_list", "md_in_html", "roofline_site.headings"]
TOC = {"toc": {"permalink": True, "slugify": slugify}}


def _convert(text: str) -> tuple[str, list[dict]]:
    md = markdown.Markdown(extensions=[*EXTENSIONS, "toc"], extension_configs=TOC)
    return md.convert(text), md.toc_tokens


@pytest.mark.parametrize(
    "heading",
    [
        "## Quoted { id='x\" onmouseover=\"alert(1)' }",
        "## Quoted { #__proto__ }",
        "## Reserved { #sources }",
        "## Prefixed { #md-sidebar }",
        "## Spaced { id='a b' }",
    ],
)
def test_a_hand_given_id_that_is_not_a_plain_slug_is_replaced_by_the_texts(heading):
    html, tokens = _convert(heading)
    assert tokens[0]["id"] == slugify(tokens[0]["name"], "-")
    assert TOC_ID.match(tokens[0]["id"]) and heading_id_allowed(tokens[0]["id"])
    assert "onmouseover" not in html


def test_a_plain_hand_given_id_is_kept():
    _html, tokens = _convert("## Kept { #my-own-id }")
    assert tokens[0]["id"] == "my-own-id"


def test_a_toc_label_cannot_replace_the_headings_text():
    _html, tokens = _convert('## Shown { data-toc-label="&lt;b&gt;other&lt;/b&gt;" }')
    assert tokens[0]["name"] == "Shown"


@pytest.mark.parametrize("text", ["2026 models", "Sources", "---", "Ünïcödé", "x" * 300, "related terms"])
def test_every_slug_survives_the_entry_sanitiser(text):
    slug = slugify(text, "-")
    assert heading_id_allowed(slug)
    assert f'id="{slug}"' in sanitise_entry_html(f'<h2 id="{slug}">{text}</h2>')


@pytest.mark.parametrize(
    ("markup", "text"),
    [
        ("A <b title='x>y'>bold</b> word", "A bold word"),
        ("A <img/alt=@/src=x/onerror=alert(1)> b", "A b"),
        ("Comment <!--><b>here</b>--> trick", "Comment here--&gt; trick"),
        ("A &lt;meta http-equiv=refresh&gt;", "A &lt;meta http-equiv=refresh&gt;"),
        ('Escaped > and "quotes" & more', "Escaped &gt; and &quot;quotes&quot; &amp; more"),
        ("<script>alert(1)</script>Safe", "Safe"),
    ],
)
def test_a_title_becomes_escaped_text(markup, text):
    assert text_html(markup) == text
    assert text_html(text) == text  # applying it again changes nothing
    assert "<" not in text_html(markup)


@dataclass
class _Item:
    title: str
    id: str
    children: list = field(default_factory=list)


def test_plain_toc_makes_every_level_text():
    items = [_Item("A <i>b</i>", "a", [_Item("C <img src=x onerror=1>", "c")])]
    plain_toc(items, where="docs/page.md")
    assert (items[0].title, items[0].children[0].title) == ("A b", "C")


@pytest.mark.parametrize("bad", ['x" onclick="1', "", "a b", "#x", "javascript:alert(1)"])
def test_plain_toc_refuses_an_id_that_is_not_a_slug(bad):
    with pytest.raises(ValueError, match=r"docs/page\.md: the heading id .* is not a slug; expected "):
        plain_toc([_Item("Fine", "fine", [_Item("Bad", bad)])], where="docs/page.md")
