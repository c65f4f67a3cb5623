"""Links to terms are found in rendered HTML, marked for previews, and feed the link graph."""

from __future__ import annotations

from urllib.parse import urljoin, urlsplit

from hypothesis import given, settings
from hypothesis import strategies as st

from roofline_site.glossary.links import _ORIGIN, LinkGraph, PageRef, annotate_term_links, link_target, normalise_url

TERMS = {normalise_url("glossary/kv-cache/"): "kv-cache", normalise_url("glossary/decode/"): "decode"}


def test_marks_links_to_terms_from_any_page():
    html = '<p><a href="glossary/kv-cache/">cache</a> <a href="https://x.example/glossary/kv-cache/">ext</a> <a href="other/">o</a></p>'
    out, found = annotate_term_links(html, page_url="", term_urls=TERMS)
    assert out.count('data-glossary-term="kv-cache"') == 1
    assert '<a data-glossary-term="kv-cache" href="glossary/kv-cache/">' in out
    assert [(f.slug, f.mention) for f in found] == [("kv-cache", True)]


def test_resolves_relative_links_with_fragments():
    html = '<a href="../decode/#numbers">d</a><a href="#local">here</a>'
    out, found = annotate_term_links(html, page_url="glossary/kv-cache/", term_urls=TERMS)
    assert [f.slug for f in found] == ["decode"]
    assert 'href="#local"' in out and out.count("data-glossary-term") == 1


def test_links_to_the_page_itself_are_not_term_links():
    html = '<h2 id="x">X<a class="headerlink" href="#x">¶</a></h2><a href="./">self</a>'
    out, found = annotate_term_links(html, page_url="glossary/decode/", term_urls=TERMS)
    assert found == [] and out == html


def test_file_urls_without_directory_style():
    terms = {normalise_url("glossary/decode.html"): "decode"}
    _, found = annotate_term_links('<a href="decode.html">d</a>', page_url="glossary/kv-cache.html", term_urls=terms)
    assert [f.slug for f in found] == ["decode"]


def test_generated_links_are_not_mentions():
    html = '<a data-glossary-role="related" href="../decode/">Decode</a>'
    out, found = annotate_term_links(html, page_url="glossary/kv-cache/", term_urls=TERMS)
    assert [(f.slug, f.mention) for f in found] == [("decode", False)]
    assert 'data-glossary-term="decode"' in out


def test_link_graph_backlinks_sorted_without_self_mentions():
    graph = LinkGraph()
    home, zeta, decode = (
        PageRef("Home", "", "index.md"),
        PageRef("Zeta", "glossary/zeta/", "glossary/zeta.md"),
        PageRef("Decode", "glossary/decode/", "glossary/decode.md"),
    )
    graph.add(zeta, "decode")
    graph.add(home, "decode")
    graph.add(home, "decode")
    graph.add(decode, "decode", own_slug="decode")
    assert [p.title for p in graph.mentioned_in("decode")] == ["Home", "Zeta"]
    assert graph.terms_linked_from("") == {"decode"}
    graph.forget_page("")
    assert [p.title for p in graph.mentioned_in("decode")] == ["Zeta"]
    assert graph.mentioned_in("kv-cache") == []


def _by_urljoin(page_url: str, href: str) -> str | None:
    # The definition: resolve as a browser does, then keep the path if it is on the site.
    parts = urlsplit(urljoin(urljoin(_ORIGIN, page_url), href))
    return normalise_url(parts.path) if f"{parts.scheme}://{parts.netloc}/" == _ORIGIN else None


_SEGMENTS = st.sampled_from(
    ["..", ".", "", "a", "b.html", "index.html", "x:y", "%41", "c-d_e~f", "glossary", "Ünï", "...", ".a", "//h"]
)
_PAGES = st.sampled_from(["", "glossary/", "glossary/term-5/", "a/b/c/", "foo.html", "a/b.html", "a/index.html"])


@settings(max_examples=3000, deadline=None)
@given(_PAGES, st.lists(_SEGMENTS, max_size=6), st.sampled_from(["", "/", "?q", "#f", "?q#f", "/#x"]))
def test_a_links_target_is_where_a_browser_would_go(page_url, segments, tail):
    href = "/".join(segments) + tail
    base = urljoin(_ORIGIN, page_url)
    assert link_target(base, urlsplit(base).path.split("/")[1:-1], href) == _by_urljoin(page_url, href)
