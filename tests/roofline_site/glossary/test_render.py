"""Term pages, the index, glossary.json, the feed and redirects, rendered without MkDocs."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

from roofline_site.glossary import render
from roofline_site.glossary.validator import load_glossary
from tests.roofline_site.glossary.helpers import entry_text, write_glossary


def _glossary(tmp_path):
    write_glossary(
        tmp_path,
        {
            "alpha": entry_text(title="Alpha", aliases=["First"], related=["beta"], body="Alpha uses [[beta]]: {{ ridge_point accelerator=h100-sxm }}.\n"),
            "beta": entry_text(title="Beta", category="metric", summary="The second term.", added="2026-01-02", updated="2026-01-05", renamed_from=["old-beta"]),
        },
    )
    return load_glossary(tmp_path)


def test_term_page_has_header_body_related_sources_mentions_and_back(tmp_path):
    glossary = _glossary(tmp_path)
    page = render.term_page_markdown(glossary.entries["alpha"], glossary)
    assert page.startswith("---\ntitle: Alpha\ndescription: A term used only by the tests.\n")
    order = ["# Alpha", "[concept](index.md#concept)", "Also called: *First*", "Alpha uses [beta](beta.md): 295 FLOP/byte.",
             "## Related terms", '[Beta](beta.md){ data-glossary-role="related" }: The second term.',
             "## Sources", "[A source](https://example.org/source)", "NVIDIA H100 Tensor Core GPU datasheet",
             "## Mentioned in", render.MENTIONED_IN_MARKER, "[← Back to glossary](index.md)"]
    positions = [page.index(piece) for piece in order]
    assert positions == sorted(positions)


def test_index_lists_every_term_by_category_and_a_to_z(tmp_path):
    glossary = _glossary(tmp_path)
    index = render.index_markdown(glossary)
    assert index.count("[Alpha](alpha.md)") == 2 and index.count("[Beta](beta.md)") == 2
    assert "### Concept {#concept}" in index and "### Metric {#metric}" in index and "### Silicon" not in index
    assert "### A {#letter-a}" in index and "### B {#letter-b}" in index
    assert "data-glossary-filter hidden" in index  # shown only by the script


def test_glossary_json_fields(tmp_path):
    glossary = _glossary(tmp_path)
    data = json.loads(render.glossary_json(glossary, path_of=lambda s: f"glossary/{s}/", site_url="https://example.org/docs/"))
    assert [t["slug"] for t in data["terms"]] == ["alpha", "beta"]
    assert data["terms"][0] == {
        "slug": "alpha", "title": "Alpha", "category": "concept", "summary": "A term used only by the tests.",
        "aliases": ["First"], "url": "https://example.org/docs/glossary/alpha/", "path": "glossary/alpha/",
        "added": "2026-01-01", "updated": "2026-01-01",
    }
    relative = json.loads(render.glossary_json(glossary, path_of=lambda s: f"glossary/{s}/", site_url=None))
    assert relative["terms"][1]["url"] == "glossary/beta/"


def test_rss_feed_newest_first_with_updates_marked(tmp_path):
    glossary = _glossary(tmp_path)
    xml = render.rss_feed(glossary, site_name="Site", site_url="https://example.org/", path_of=lambda s: f"glossary/{s}/",
                          index_path="glossary/", feed_path="glossary/feed.xml")
    channel = ET.fromstring(xml).find("channel")
    items = channel.findall("item")
    assert [i.findtext("title") for i in items] == ["Beta (updated)", "Alpha"]
    assert items[0].findtext("link") == "https://example.org/glossary/beta/"
    assert items[0].findtext("pubDate") == "Mon, 05 Jan 2026 00:00:00 +0000"
    assert channel.findtext("lastBuildDate") == "Mon, 05 Jan 2026 00:00:00 +0000"


def test_redirect_page_uses_no_script(tmp_path):
    html = render.redirect_html(title="Beta", target_href="../beta/", canonical_url="https://example.org/glossary/beta/")
    assert '<meta http-equiv="refresh" content="0; url=../beta/">' in html
    assert '<link rel="canonical" href="https://example.org/glossary/beta/">' in html
    assert "<script" not in html


def test_redirects_cover_aliases_and_old_slugs(tmp_path):
    assert _glossary(tmp_path).redirects() == {"first": "alpha", "old-beta": "beta"}


def test_mentions_html_escapes_titles():
    assert render.mentions_html([("A <b>", "../a/")]) == '<ul class="glossary-mentions"><li><a href="../a/">A &lt;b&gt;</a></li></ul>'
    assert "No other page" in render.mentions_html([])
