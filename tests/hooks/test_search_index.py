"""The search index every page downloads holds each term's summary once: on the term's own page,
not again in the glossary index, the category pages or other terms' "Related terms"."""

from __future__ import annotations

import json
import re

import pytest

from tests.support.shipped_glossary import shipped_glossary


@pytest.mark.slow
def test_each_summary_is_indexed_once(built_site):
    docs = json.loads((built_site / "search" / "search_index.json").read_text(encoding="utf-8"))["docs"]
    glossary = shipped_glossary()
    for entry in glossary.entries.values():
        # Material indexes text as it shows it; a summary's first words are enough to find it.
        probe = entry.summary[:60]
        # Glossary pages only: the authoring guide may quote an entry as its example.
        places = sorted(
            {
                doc["location"].split("#")[0]
                for doc in docs
                if probe in doc["text"] and doc["location"].startswith("glossary")
            }
        )
        assert places == [f"glossary/{entry.slug}/"], (entry.slug, places)


@pytest.mark.slow
def test_sections_below_the_prose_are_shown_but_not_indexed(built_site):
    # Related terms, sources and "Mentioned in" join a term page after the search plugin has
    # read it: a search for a paper still finds the terms whose prose names it, and a search
    # for "sources" does not list every term.
    docs = json.loads((built_site / "search" / "search_index.json").read_text(encoding="utf-8"))["docs"]
    glossary = shipped_glossary()
    entry = glossary.entries["kv-cache"]
    page = (built_site / "glossary" / "kv-cache" / "index.html").read_text(encoding="utf-8")
    indexed = " ".join(doc["text"] for doc in docs if doc["location"].startswith("glossary/kv-cache/"))
    assert entry.sources[0].title not in indexed
    sections = ("#sources", "#related-terms", "#mentioned-in")
    assert not [d for d in docs if d["location"].startswith("glossary/") and d["location"].endswith(sections)]
    assert entry.sources[0].url in page
    positions = [page.index(f'id="{anchor}"') for anchor in ("related-terms", "sources", "mentioned-in")]
    assert positions == sorted(positions) and page.index('class="glossary-entry__body"') < positions[0]


@pytest.mark.slow
def test_no_page_keeps_the_closing_marker(built_site):
    leftovers = [p for p in built_site.rglob("*.html") if "glossary:closing" in p.read_text(encoding="utf-8")]
    assert leftovers == []


@pytest.mark.slow
def test_reproduce_section_is_shown_but_not_indexed_and_the_numbers_are(built_site):
    docs = json.loads((built_site / "search" / "search_index.json").read_text(encoding="utf-8"))["docs"]
    page = (built_site / "glossary" / "kv-cache" / "index.html").read_text(encoding="utf-8")
    assert "Reproduce the numbers on this page" in page and "roofline-reproduce__script" in page
    indexed = " ".join(doc["text"] for doc in docs if doc["location"].startswith("glossary/kv-cache/"))
    assert "Reproduce the numbers" not in indexed and "evaluate(" not in indexed and "data version" not in indexed
    # The numbers themselves stay searchable where the prose shows them.
    number = re.search(r'<span class="roofline-quantity" data-quantity="[0-9]+">([^<]+)</span>', page).group(1)
    assert number in indexed
