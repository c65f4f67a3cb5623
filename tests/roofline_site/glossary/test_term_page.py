"""A term's page around its rendered body, without MkDocs: sanitised body, header, closing, contents."""

from __future__ import annotations

import pytest

from roofline_site.glossary import render, term_page
from roofline_site.glossary.contribute import Repository
from roofline_site.glossary.errors import GlossaryError
from roofline_site.glossary.validator import load_glossary
from tests.roofline_site.glossary.helpers import entry_text, write_glossary


def _glossary(tmp_path, **alpha):
    write_glossary(
        tmp_path / "glossary",
        {
            "alpha": entry_text(title="Alpha", body="Ridge: {{ ridge_point accelerator=h100-sxm }}.\n", **alpha),
            "beta": entry_text(title="Beta"),
        },
    )
    return load_glossary(tmp_path / "glossary", display_dir="glossary")


def test_body_is_sanitised_and_put_under_the_header(tmp_path):
    glossary = _glossary(tmp_path)
    entry = glossary.entries["alpha"]
    markdown = render.term_page_markdown(entry, glossary)
    # What the generator would render: the body's paragraph with its marked number, and a script.
    rendered = "<p>" + markdown.split("---\n\n", 1)[1].strip() + "</p>\n<script>alert(1)</script>"
    html = term_page.body_html(
        entry, glossary, rendered, trusted=[], category_href="../category/hardware/", index_href="../"
    )
    assert html.index('<h1 id="alpha">') < html.index(f'<div class="{render.BODY_CLASS}">')
    assert '<span class="roofline-quantity" data-quantity="0">295 FLOP/byte</span>' in html
    assert "<script" not in html and "data-roofline-quantity" not in html
    assert [n.text for n in term_page.numbers(entry, glossary)] == ["295 FLOP/byte"]


def test_closing_has_the_footer_and_the_repository_links_only_with_a_repository(tmp_path):
    glossary = _glossary(tmp_path)
    entry = glossary.entries["alpha"]
    args = {"index_href": "../", "term_href": lambda slug: f"../{slug}/", "reproduce_section": "<p>R</p>"}
    bare = term_page.closing_html(entry, glossary, repository=None, **args)
    assert render.MENTIONED_IN_MARKER in bare and "<p>R</p>" in bare and "Edit this page" not in bare
    linked = term_page.closing_html(
        entry, glossary, repository=Repository.from_settings("https://github.com/o/r", "main"), **args
    )
    assert linked.startswith(bare) and 'href="https://github.com/o/r/edit/main/glossary/alpha.md"' in linked


def test_toc_sections_leave_out_related_terms_when_there_are_none(tmp_path):
    assert [a for a, _ in term_page.toc_sections(_glossary(tmp_path).entries["alpha"])] == ["sources", "mentioned-in"]
    related = _glossary(tmp_path / "r", related=["beta"]).entries["alpha"]
    assert [a for a, _ in term_page.toc_sections(related)] == ["related-terms", "sources", "mentioned-in"]


def test_an_entry_over_its_render_budget_is_named(tmp_path):
    entry = _glossary(tmp_path).entries["alpha"]
    term_page.check_render_time(entry, 0.5, 10)
    with pytest.raises(GlossaryError) as error:
        term_page.check_render_time(entry, 12.34, 10)
    assert str(error.value) == (
        "glossary/alpha.md:10: rendering the entry took 12.3 s; expected under 10 s: simplify the body "
        "(long runs of unclosed brackets or angle brackets are slow to parse)"
    )


def test_build_html_missing_from_the_body_is_a_located_error(tmp_path):
    glossary = _glossary(tmp_path)
    with pytest.raises(GlossaryError) as error:
        term_page.body_html(
            glossary.entries["alpha"],
            glossary,
            "<p>No figure here.</p>",
            trusted=['<figure class="roofline-figure">drawn</figure>'],
            category_href="../category/hardware/",
            index_href="../",
        )
    assert str(error.value) == (
        "glossary/alpha.md:10: build-inserted fragment '<figure class=\"roofline-figure\">drawn</figure>' not found"
        " in the rendered body; expected each figure fence at the top level of the body"
    )
