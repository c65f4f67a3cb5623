"""The scaffold command writes a valid entry and refuses duplicates."""

from __future__ import annotations

import datetime as dt

import pytest

from roofline_site.glossary import scaffold_text
from roofline_site.glossary.__main__ import main
from roofline_site.glossary.errors import GlossaryError
from roofline_site.glossary.scaffold import ScaffoldError, new_entry
from roofline_site.glossary.validator import load_glossary, read_entry
from tests.roofline_site.glossary.helpers import entry_text, write_glossary
from tests.roofline_site.glossary.test_validator import line_of


def test_new_entry_parses_with_its_fields_and_only_its_placeholders_refused(tmp_path):
    path = new_entry(tmp_path, "Paged attention", "techniques", today=dt.date(2026, 3, 1))
    assert path.name == "paged-attention.md"
    text = path.read_text(encoding="utf-8")
    entry, _ = read_entry(text, slug="paged-attention", path="glossary/paged-attention.md")
    assert (entry.title, entry.category, str(entry.added)) == ("Paged attention", "techniques", "2026-03-01")
    # An untouched scaffold previews but never publishes: each placeholder is named at its line.
    with pytest.raises(GlossaryError) as info:
        load_glossary(tmp_path)
    assert [str(p) for p in info.value.problems] == [
        f"glossary/paged-attention.md:{line_of(text, 'summary:')}: the summary is still the scaffold's placeholder;"
        " expected one plain sentence that defines the term and stands alone in a preview",
        f"glossary/paged-attention.md:{line_of(text, '- title: Replace')}: source 1 is still the scaffold's placeholder"
        " (https://example.org/replace-me); expected the title and https address of a document the entry took its"
        " facts from",
        f"glossary/paged-attention.md:{line_of(text, 'Start with the definition')}: the body still holds the"
        " scaffold's placeholder text; expected the entry's own words: its definition, why it matters and its numbers",
    ]


def test_a_filled_in_scaffold_is_valid(tmp_path):
    path = new_entry(tmp_path, "Paged attention", "techniques", summary="Paging the cache.")
    text = path.read_text(encoding="utf-8")
    filled = text.replace(scaffold_text.SOURCE_TITLE, "Kwon et al. (2023)").replace(
        scaffold_text.SOURCE_URL, "https://arxiv.org/abs/2309.06180"
    )
    filled = filled[: filled.index("Start with the definition")] + "Paged attention stores the cache in blocks.\n"
    path.write_text(filled, encoding="utf-8")
    assert load_glossary(tmp_path).entries["paged-attention"].summary == "Paging the cache."


def test_refuses_an_existing_file(tmp_path):
    new_entry(tmp_path, "Paged attention", "techniques")
    with pytest.raises(ScaffoldError, match="paged-attention.md already exists"):
        new_entry(tmp_path, "Paged  Attention", "techniques")


def test_refuses_a_title_that_is_another_entrys_alias(tmp_path):
    write_glossary(tmp_path, {"kv-cache": entry_text(title="KV cache", aliases=["Key-value cache"])})
    with pytest.raises(ScaffoldError, match="duplicates the alias of .*kv-cache.md"):
        new_entry(tmp_path, "Key-value cache", "memory")


def test_refuses_an_unknown_category(tmp_path):
    with pytest.raises(ScaffoldError, match="unknown category 'silicon'; expected one of hardware, memory"):
        new_entry(tmp_path, "Thing", "silicon")


def test_command_line(tmp_path, capsys):
    assert (
        main(
            [
                "--glossary-dir",
                str(tmp_path),
                "new",
                "Paged attention",
                "--category",
                "techniques",
                "--summary",
                "Paging the cache.",
            ]
        )
        == 0
    )
    capsys.readouterr()
    # The scaffold's placeholder source and body are named; filled in, the entry is valid.
    assert main(["--glossary-dir", str(tmp_path), "check"]) == 1
    assert "source 1 is still the scaffold's placeholder" in capsys.readouterr().err
    written = tmp_path / "paged-attention.md"
    text = written.read_text(encoding="utf-8").replace(scaffold_text.SOURCE_URL, "https://arxiv.org/abs/2309.06180")
    text = text.replace(scaffold_text.SOURCE_TITLE, "Kwon et al. (2023)")
    written.write_text(text[: text.index("Start with the definition")] + "Paging the cache.\n", encoding="utf-8")
    assert main(["--glossary-dir", str(tmp_path), "check"]) == 0
    assert "1 entries, all valid" in capsys.readouterr().out
    assert main(["--glossary-dir", str(tmp_path), "new", "Paged attention", "--category", "techniques"]) == 1
    assert "already exists" in capsys.readouterr().err
    (tmp_path / "broken.md").write_text("no front matter\n", encoding="utf-8")
    assert main(["--glossary-dir", str(tmp_path), "check"]) == 1
    assert f"{tmp_path.as_posix()}/broken.md:1: no front matter" in capsys.readouterr().err
