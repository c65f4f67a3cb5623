"""'Mentioned in' (closest first, capped, then the full list) and the orphan report, without MkDocs."""

from __future__ import annotations

import re

from roofline_site.glossary import mentions
from roofline_site.glossary.links import LinkGraph, Mention, PageRef
from roofline_site.glossary.validator import load_glossary
from tests.roofline_site.glossary.helpers import entry_text, write_glossary

TERM_OF = {f"glossary/{slug}.md": slug for slug in ("decode", "prefill", "kv-cache", "hbm", "gemv", "lonely")}


def _glossary(tmp_path):
    write_glossary(
        tmp_path,
        {
            "decode": entry_text(title="Decode", category="serving", related=["gemv"]),
            "prefill": entry_text(title="Prefill", category="serving", body="Prefill comes before [[decode]].\n"),
            "kv-cache": entry_text(title="KV cache", category="memory", body="Read at every [[decode]] step.\n"),
            "hbm": entry_text(title="HBM", category="memory", body="[[decode]] reads it.\n"),
            "gemv": entry_text(title="GEMV", category="hardware", body="Decode's shape.\n"),
            "lonely": entry_text(title="Lonely", category="hardware", body="Links nothing.\n"),
        },
    )
    return load_glossary(tmp_path)


def _page(slug_or_name: str) -> PageRef:
    if slug_or_name in {v for v in TERM_OF.values()}:
        return PageRef(slug_or_name.capitalize(), f"glossary/{slug_or_name}/", f"glossary/{slug_or_name}.md")
    return PageRef(slug_or_name.capitalize(), f"{slug_or_name}/", f"{slug_or_name}.md")


def test_closest_puts_related_then_frequent_then_same_category_then_early(tmp_path):
    glossary = _glossary(tmp_path)
    found = [
        Mention(_page("hbm"), 1, 0.1),  # other category, early
        Mention(_page("prefill"), 1, 0.9),  # same category (serving), late
        Mention(_page("kv-cache"), 3, 0.9),  # links three times
        Mention(_page("gemv"), 1, 0.9),  # decode's front matter relates it
        Mention(_page("calculator"), 1, 0.05),  # a hand-written page, earliest of all
    ]
    ranked = mentions.closest("decode", found, glossary, term_of=TERM_OF)
    assert [m.page.title for m in ranked] == ["Gemv", "Kv-cache", "Prefill", "Calculator", "Hbm"]


def test_related_counts_from_either_side(tmp_path):
    glossary = _glossary(tmp_path)
    # gemv names nothing, decode names gemv: a mention of gemv by decode is related too.
    ranked = mentions.closest(
        "gemv", [Mention(_page("hbm"), 5, 0.0), Mention(_page("decode"), 1, 0.9)], glossary, term_of=TERM_OF
    )
    assert [m.page.title for m in ranked] == ["Decode", "Hbm"]


def test_ten_shown_then_and_n_more_linking_the_full_list_a_to_z():
    ranked = [(f"Page {i:02d}", f"../p{i}/") for i in range(25, 0, -1)]
    section = mentions.section_html("Decode & co", ranked, everything=sorted(ranked))
    shown = section.split('<ul class="glossary-mentions">', 1)[1].split("</ul>", 1)[0]
    assert re.findall(r">(Page \d+)<", shown) == [f"Page {i:02d}" for i in range(25, 15, -1)]
    assert '<p class="glossary-mentions__more"><a href="#mentioned-in-all">and 15 more</a></p>' in section
    full = section.split('<details class="glossary-mentions__all" id="mentioned-in-all">', 1)[1]
    assert full.startswith("<summary>All 25 pages that mention Decode &amp; co, A to Z</summary>")
    assert re.findall(r">(Page \d+)<", full) == [f"Page {i:02d}" for i in range(1, 26)]


def test_ten_or_fewer_have_no_more_link():
    pages = [(f"Page {i}", f"../p{i}/") for i in range(10)]
    section = mentions.section_html("Decode", pages, everything=pages)
    assert section.count("<li>") == 10
    assert "more</a>" not in section and "<details" not in section


def test_fill_reads_the_graph_and_makes_links_relative(tmp_path):
    glossary = _glossary(tmp_path)
    graph = LinkGraph()
    for i in range(12):
        graph.add(PageRef(f"Page {i:02d}", f"p{i:02d}/", f"p{i:02d}.md"), "decode", at=i / 12)
    graph.add(_page("hbm"), "decode")
    graph.add(_page("hbm"), "decode", at=0.5)
    section = mentions.fill("decode", graph, glossary, term_of=TERM_OF, href=lambda url: "../../" + url)
    # hbm links twice: first; the others by how early their link is.
    first = section.split("<li>", 2)[1]
    assert first == '<a href="../../glossary/hbm/">Hbm</a></li>'
    assert "and 3 more" in section and "All 13 pages that mention Decode" in section


def test_link_graph_counts_links_and_keeps_the_earliest():
    graph = LinkGraph()
    page = PageRef("Home", "", "index.md")
    graph.add(page, "decode", at=0.6)
    graph.add(page, "decode", at=0.2)
    graph.add(page, "decode", at=0.9)
    assert graph.mentions("decode") == [Mention(page, 3, 0.2)]


def test_orphans_are_terms_no_other_entry_links_to(tmp_path):
    glossary = _glossary(tmp_path)
    graph = LinkGraph()
    graph.add(_page("prefill"), "decode")
    graph.add(_page("home"), "gemv")  # a hand-written page does not count
    graph.add(_page("hbm"), "hbm", own_slug="hbm")  # nor does a page linking to itself
    orphans = mentions.orphans(glossary, graph, term_of=TERM_OF)
    assert orphans == ["gemv", "hbm", "kv-cache", "lonely", "prefill"]
    report = mentions.orphan_report(glossary, orphans)
    assert report == (
        "glossary: 5 terms are linked from no other entry's text: glossary/gemv.md, glossary/hbm.md, "
        "glossary/kv-cache.md, glossary/lonely.md, glossary/prefill.md; "
        "expected a [[slug]] link to each in another entry, where its reader needs the term"
    )
    assert mentions.orphan_report(glossary, []) is None
    assert "1 term is linked" in mentions.orphan_report(glossary, ["gemv"])
