"""Term pages, the index, glossary.json, the feed and redirects, rendered without MkDocs."""

from __future__ import annotations

import dataclasses
import html
import json
import re
import xml.etree.ElementTree as ET

from roofline_site.glossary import SourceRef, mentions, render, reproduce
from roofline_site.glossary.validator import load_glossary
from tests.roofline_site.glossary.helpers import entry_text, write_glossary


def _glossary(tmp_path):
    write_glossary(
        tmp_path,
        {
            "alpha": entry_text(
                title="Alpha",
                aliases=["First"],
                related=["beta"],
                body="Alpha uses [[beta]]: {{ ridge_point accelerator=h100-sxm }}.\n",
            ),
            "beta": entry_text(
                title="Beta",
                category="metrics",
                summary="The second term.",
                added="2026-01-02",
                updated="2026-01-05",
                renamed_from=["old-beta"],
            ),
        },
    )
    return load_glossary(tmp_path)


def _term_page(glossary, slug):
    """Header HTML, the body's Markdown and the sections' HTML, as the hook puts them together."""
    entry = glossary.entries[slug]
    markdown = render.term_page_markdown(entry, glossary)
    header = render.term_page_header_html(entry, category_href="../category/hardware/")
    footer = render.term_page_footer_html(entry, glossary, index_href="../", term_href=lambda s: f"../{s}/")
    return markdown, header + markdown + footer


def test_term_page_has_header_body_related_sources_mentions_and_back(tmp_path):
    glossary = _glossary(tmp_path)
    markdown, page = _term_page(glossary, "alpha")
    assert markdown.startswith("---\ntitle: Alpha\ndescription: A term used only by the tests.\n")
    # The Markdown holds the body alone: the rest is built as HTML around its rendering. Its
    # number is marked for the sanitiser with a token of the entry's own Markdown (reproduce.py).
    token = reproduce.marker_token(glossary.entries["alpha"].body)
    assert (
        markdown.split("---\n\n", 1)[1]
        == f'Alpha uses [beta](beta.md): <span data-roofline-quantity="{token}-0">295 FLOP/byte</span>.\n'
    )
    order = [
        '<h1 id="alpha">Alpha',
        '<a class="glossary-tag glossary-tag--hardware" href="../category/hardware/"',
        "Also called: <em>First</em>",
        "Alpha uses [beta](beta.md): <span",
        '<h2 id="related-terms">Related terms',
        '<a data-glossary-role="related" href="../beta/">Beta</a>: The second term.',
        '<h2 id="sources">Sources',
        '<a href="https://example.org/source">A source</a>',
        "NVIDIA H100 Tensor Core GPU datasheet",
        render.MENTIONED_IN_MARKER,
        '<a class="glossary-back" data-glossary-role="back" href="../">← Back to glossary</a>',
    ]
    positions = [page.index(piece) for piece in order]
    assert positions == sorted(positions)


def test_front_matter_is_escaped_text_in_the_term_page(tmp_path):
    write_glossary(
        tmp_path,
        {
            "alpha": entry_text(title="Alpha", aliases=["<img src=x onerror=alert(1)>"]),
        },
    )
    glossary = load_glossary(tmp_path)
    entry = glossary.entries["alpha"]
    hostile = dataclasses.replace(
        entry,
        summary='A "quoted" <b>summary</b> & more.',
        sources=(
            SourceRef(
                title="<script>alert(1)</script>", url='https://example.org/a"onmouseover="x', note="<i>note</i>"
            ),
        ),
    )
    header = render.term_page_header_html(hostile, category_href="../category/hardware/")
    footer = render.term_page_footer_html(hostile, glossary, index_href="../", term_href=lambda s: f"../{s}/")
    assert "<em>&lt;img src=x onerror=alert(1)&gt;</em>" in header
    assert 'A "quoted" &lt;b&gt;summary&lt;/b&gt; &amp; more.' in header
    assert (
        '<a href="https://example.org/a&quot;onmouseover=&quot;x">&lt;script&gt;alert(1)&lt;/script&gt;</a>: &lt;i&gt;note&lt;/i&gt;'
        in footer
    )
    assert "<script" not in header + footer and "<img" not in header + footer


def test_markdown_text_shows_any_text_literally():
    import markdown as python_markdown

    hostile = "[x](javascript:alert(1)) *em* `code` <b> &amp; {: onclick=x } ![i](y) \\ # _u_"
    rendered = python_markdown.markdown(f"- [{render.markdown_text(hostile)}](x.md)", extensions=["attr_list"])
    # One list item holding one link whose text is the input, character for character.
    assert re.findall(r"<[a-z]+", rendered) == ["<ul", "<li", "<a"]
    assert html.unescape(re.fullmatch(r'<ul>\n<li><a href="x.md">(.*)</a></li>\n</ul>', rendered).group(1)) == hostile


def test_index_lists_every_term_once_by_category_and_gives_the_a_to_z_order(tmp_path):
    glossary = _glossary(tmp_path)
    index = render.index_markdown(glossary)
    assert index.count("[Alpha](alpha.md)") == 1 and index.count("[Beta](beta.md)") == 1
    # Each category heading keeps its anchor and links to the category's own page.
    assert "### [Hardware](category/hardware.md) {#hardware}" in index
    assert "### [Metrics](category/metrics.md) {#metrics}" in index and "### [Memory]" not in index
    # A to Z is a view the script builds from this order, not a second list.
    letters = json.loads(html.unescape(re.search(r'data-glossary-az="([^"]*)"', index).group(1)))
    assert letters == [["A", ["alpha"]], ["B", ["beta"]]]
    assert "{#letter-" not in index
    assert "data-glossary-filter data-glossary-az" in index and "hidden>" in index  # shown only by the script


def test_glossary_json_fields(tmp_path):
    glossary = _glossary(tmp_path)
    data = json.loads(
        render.glossary_json(glossary, path_of=lambda s: f"glossary/{s}/", site_url="https://example.org/docs/")
    )
    assert [t["slug"] for t in data["terms"]] == ["alpha", "beta"]
    assert data["terms"][0] == {
        "slug": "alpha",
        "title": "Alpha",
        "category": "hardware",
        "summary": "A term used only by the tests.",
        "aliases": ["First"],
        "url": "https://example.org/docs/glossary/alpha/",
        "path": "glossary/alpha/",
        "added": "2026-01-01",
        "updated": "2026-01-01",
    }
    relative = json.loads(render.glossary_json(glossary, path_of=lambda s: f"glossary/{s}/", site_url=None))
    assert relative["terms"][1]["url"] == "glossary/beta/"


def test_rss_feed_newest_first_with_updates_marked(tmp_path):
    glossary = _glossary(tmp_path)
    xml = render.rss_feed(
        glossary,
        site_name="Site",
        site_url="https://example.org/",
        path_of=lambda s: f"glossary/{s}/",
        index_path="glossary/",
        feed_path="glossary/feed.xml",
    )
    channel = ET.fromstring(xml).find("channel")
    items = channel.findall("item")
    assert [i.findtext("title") for i in items] == ["Beta (updated)", "Alpha"]
    assert items[0].findtext("link") == "https://example.org/glossary/beta/"
    assert items[0].findtext("pubDate") == "Mon, 05 Jan 2026 00:00:00 +0000"
    assert channel.findtext("lastBuildDate") == "Mon, 05 Jan 2026 00:00:00 +0000"


def test_redirect_page_uses_no_script(tmp_path):
    html = render.redirect_html(
        title="Beta", target_href="../beta/", canonical_url="https://example.org/glossary/beta/"
    )
    assert '<meta http-equiv="refresh" content="0; url=../beta/">' in html
    assert '<link rel="canonical" href="https://example.org/glossary/beta/">' in html
    assert "<script" not in html


def test_redirects_cover_aliases_and_old_slugs(tmp_path):
    assert _glossary(tmp_path).redirects() == {"first": "alpha", "old-beta": "beta"}


def test_mentions_html_escapes_titles_and_is_empty_without_mentions():
    # The section moved to roofline_site.glossary.mentions (with the cap); its output is unchanged.
    section = mentions.section_html("Alpha", [("A <b>", "../a/")], everything=[("A <b>", "../a/")])
    assert section.startswith('<h2 id="mentioned-in">Mentioned in')
    assert section.endswith('<ul class="glossary-mentions"><li><a href="../a/">A &lt;b&gt;</a></li></ul>')
    assert mentions.section_html("Alpha", [], everything=[]) == ""


def test_feed_and_json_are_well_formed_whatever_the_front_matter_holds(tmp_path):
    glossary = _glossary(tmp_path)
    hostile = "A <b>bold</b> & ]]> <![CDATA[ </description></item> \x01\x0b\ud800 title"
    alpha = dataclasses.replace(glossary.entries["alpha"], title=hostile, summary=hostile, aliases=(hostile,))
    glossary = dataclasses.replace(glossary, entries={**glossary.entries, "alpha": alpha})
    xml = render.rss_feed(
        glossary,
        site_name="Site <&>",
        site_url="https://example.org/",
        path_of=lambda s: f"glossary/{s}/",
        index_path="glossary/",
        feed_path="glossary/feed.xml",
    )
    channel = ET.fromstring(xml).find("channel")
    shown = "A <b>bold</b> & ]]> <![CDATA[ </description></item>  title"
    assert [i.findtext("title") for i in channel.findall("item")][1] == shown
    assert channel.findall("item")[1].findtext("description") == shown
    data = json.loads(render.glossary_json(glossary, path_of=lambda s: f"glossary/{s}/", site_url=None))
    assert data["terms"][0]["aliases"] == [hostile]


def test_index_shows_front_matter_as_text(tmp_path):
    import markdown as python_markdown

    glossary = _glossary(tmp_path)
    hostile = "[x](javascript:alert(1)) <img src=x onerror=alert(1)> {: onclick=alert(1) }"
    alpha = dataclasses.replace(
        glossary.entries["alpha"], title="Alpha " + hostile, summary=hostile, aliases=(hostile,)
    )
    glossary = dataclasses.replace(glossary, entries={**glossary.entries, "alpha": alpha})
    rendered = python_markdown.markdown(
        render.index_markdown(glossary).split("---\n\n", 1)[1], extensions=["attr_list", "md_in_html", "toc"]
    )
    from html.parser import HTMLParser

    found = []
    parser = HTMLParser()
    parser.handle_starttag = lambda tag, attrs: found.append((tag, dict(attrs)))
    parser.feed(rendered)
    assert {tag for tag, _ in found} <= {
        "h1",
        "h2",
        "h3",
        "p",
        "div",
        "label",
        "input",
        "button",  # the filter's view and empty-state buttons
        "em",
        "section",
        "ul",
        "li",
        "a",
        "span",
        "code",
    }
    assert not [
        (tag, a) for tag, a in found if any(name.startswith("on") for name in a) or "javascript" in a.get("href", "")
    ]
    # As text: title, summary and alias, once each (A to Z is a view of the same list).
    assert html.unescape(rendered).count("<img src=x onerror=alert(1)>") == 3


def test_a_page_per_category_lists_its_terms_with_summaries(tmp_path):
    glossary = _glossary(tmp_path)
    page = render.category_page_markdown(glossary, "metrics")
    assert render.category_src_uri("metrics") == "glossary/category/metrics.md"
    assert page.startswith("---\ntitle: 'Metrics: glossary category'\n")
    assert "# Metrics\n" in page and "1 term;" in page and "[the glossary index](../index.md)" in page
    # Its terms, linked relative to glossary/category/, with their summaries; no other category's.
    assert '- [Beta](../beta.md){ data-glossary-role="index" }' in page
    assert 'glossary-index__summary" data-search-exclude>The second term&#46;</span>' in page
    assert "[Alpha]" not in page
    # Links to every other category's page.
    assert "[Hardware](hardware.md)" in page and "[Metrics](metrics.md)" not in page


def test_an_empty_category_page_says_so(tmp_path):
    glossary = _glossary(tmp_path)
    assert "0 terms;" in render.category_page_markdown(glossary, "memory")


def test_markdown_text_keeps_apostrophes_and_quotes_readable():
    import markdown as python_markdown

    rendered = python_markdown.markdown(render.markdown_text('The chip\'s "peak" & <b>#1</b>'))
    assert html.unescape(re.sub(r"</?p>", "", rendered)) == 'The chip\'s "peak" & <b>#1</b>'
    assert "&amp;#" not in rendered


def test_term_pages_carry_a_breadcrumb_and_the_terms_before_and_after(tmp_path):
    glossary = _glossary(tmp_path)
    beta = glossary.entries["beta"]
    header = render.term_page_header_html(beta, category_href="../category/metrics/", index_href="../")
    assert header.split("</h1>\n", 1)[1].startswith(
        '<nav class="glossary-breadcrumb" aria-label="Breadcrumb" data-search-exclude><a href="../">Glossary</a> › '
        '<a href="../category/metrics/">Metrics</a> › <span aria-current="page">Beta</span></nav>'
    )
    footer = lambda slug: render.term_page_footer_html(  # noqa: E731
        glossary.entries[slug], glossary, index_href="../", term_href=lambda s: f"../{s}/"
    )
    # A to Z: Alpha, then Beta; the first has no previous term, the last no next one.
    assert '<a data-glossary-role="next" rel="next" href="../beta/">Beta →</a>' in footer(
        "alpha"
    ) and 'rel="prev"' not in footer("alpha")
    assert '<a data-glossary-role="previous" rel="prev" href="../alpha/">← Alpha</a>' in footer(
        "beta"
    ) and 'rel="next"' not in footer("beta")
