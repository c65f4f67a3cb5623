"""Hand-written pages' term links and numbers, checked and rewritten without MkDocs."""

from __future__ import annotations

from pathlib import Path

import pytest

from roofline_site.glossary import doc_pages
from roofline_site.glossary.errors import GlossaryError
from roofline_site.glossary.validator import load_glossary
from tests.roofline_site.glossary.helpers import entry_text, write_glossary


def _glossary(tmp_path):
    write_glossary(tmp_path / "glossary", {"alpha": entry_text(title="Alpha")})
    return load_glossary(tmp_path / "glossary")


def test_display_path_is_relative_to_the_project_where_it_can_be(tmp_path):
    assert doc_pages.display_path(tmp_path / "docs", tmp_path, "a/b.md") == "docs/a/b.md"
    outside = tmp_path.parent / "elsewhere"
    assert doc_pages.display_path(outside, tmp_path, "b.md") == f"{outside.resolve().as_posix()}/b.md"


def test_check_reports_every_problem_of_every_page(tmp_path):
    glossary = _glossary(tmp_path)
    pages = [
        ("index.md", "docs/index.md", "# Home\n\nRead [[alpah]].\n"),
        ("more.md", "docs/more.md", "Fine: [[alpha]].\n\nBroken: [text](glossary/gamma.md).\n"),
    ]
    with pytest.raises(GlossaryError) as error:
        doc_pages.check(pages, glossary)
    lines = str(error.value).splitlines()
    assert len(lines) == 2
    assert lines[0].startswith("docs/index.md:3: link to unknown term [[alpah]]; ")
    assert lines[1].startswith("docs/more.md:3: ")
    doc_pages.check([("ok.md", "docs/ok.md", "[[alpha]]\n")], glossary)


def test_rewrite_counts_the_front_matter_lines_and_wraps_numbers(tmp_path):
    glossary = _glossary(tmp_path)
    source = "---\ntitle: T\n---\n\nSee [[alpha]]: {{ ridge_point accelerator=h100-sxm }}.\n"
    markdown = source.split("---\n", 2)[2]
    result = doc_pages.rewrite_page(markdown, source=source, src_uri="t.md", path="docs/t.md", glossary=glossary)
    assert "[alpha](glossary/alpha.md)" in result.text
    # Trusted: the wrapper straight away, not the sanitiser's marker an entry's number gets.
    assert '<span class="roofline-quantity" data-quantity="0">295 FLOP/byte</span>' in result.text
    assert "data-roofline-quantity" not in result.text
    assert [text for _reference, text in result.quantities] == ["295 FLOP/byte"]
    with pytest.raises(GlossaryError) as error:
        doc_pages.rewrite_page(
            markdown.replace("alpha", "alpah"),
            source=source.replace("alpha", "alpah"),
            src_uri="t.md",
            path="docs/t.md",
            glossary=glossary,
        )
    assert str(error.value).startswith("docs/t.md:5: link to unknown term [[alpah]]")


def test_a_path_outside_helps_nobody(tmp_path):
    # The docs folder is named as the project names it, not by an absolute path, when inside it.
    assert not doc_pages.display_path(Path(tmp_path / "docs"), tmp_path, "x.md").startswith("/")
