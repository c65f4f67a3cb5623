"""The scaffold command writes a valid entry and refuses duplicates."""

from __future__ import annotations

import datetime as dt

import pytest

from roofline_site.glossary.__main__ import main
from roofline_site.glossary.scaffold import ScaffoldError, new_entry
from roofline_site.glossary.validator import load_glossary
from tests.roofline_site.glossary.helpers import entry_text, write_glossary


def test_new_entry_is_valid_as_written(tmp_path):
    path = new_entry(tmp_path, "Paged attention", "technique", today=dt.date(2026, 3, 1))
    assert path.name == "paged-attention.md"
    glossary = load_glossary(tmp_path)  # raises if the scaffold is invalid
    entry = glossary.entries["paged-attention"]
    assert (entry.title, entry.category, str(entry.added)) == ("Paged attention", "technique", "2026-03-01")


def test_refuses_an_existing_file(tmp_path):
    new_entry(tmp_path, "Paged attention", "technique")
    with pytest.raises(ScaffoldError, match="paged-attention.md already exists"):
        new_entry(tmp_path, "Paged  Attention", "technique")


def test_refuses_a_title_that_is_another_entrys_alias(tmp_path):
    write_glossary(tmp_path, {"kv-cache": entry_text(title="KV cache", aliases=["Key-value cache"])})
    with pytest.raises(ScaffoldError, match="duplicates the alias of .*kv-cache.md"):
        new_entry(tmp_path, "Key-value cache", "runtime")


def test_refuses_an_unknown_category(tmp_path):
    with pytest.raises(ScaffoldError, match="unknown category 'hardware'; expected one of concept"):
        new_entry(tmp_path, "Thing", "hardware")


def test_command_line(tmp_path, capsys):
    assert (
        main(
            [
                "--glossary-dir",
                str(tmp_path),
                "new",
                "Paged attention",
                "--category",
                "technique",
                "--summary",
                "Paging the cache.",
            ]
        )
        == 0
    )
    assert main(["--glossary-dir", str(tmp_path), "check"]) == 0
    assert "1 entries, all valid" in capsys.readouterr().out
    assert main(["--glossary-dir", str(tmp_path), "new", "Paged attention", "--category", "technique"]) == 1
    assert "already exists" in capsys.readouterr().err
    (tmp_path / "broken.md").write_text("no front matter\n", encoding="utf-8")
    assert main(["--glossary-dir", str(tmp_path), "check"]) == 1
    assert f"{tmp_path.as_posix()}/broken.md:1: no front matter" in capsys.readouterr().err
