"""A warm build does not check an unchanged entry again; anything else is checked."""

from __future__ import annotations

import pytest

from roofline_site.glossary import check_cache as check_cache_module
from roofline_site.glossary import validator
from roofline_site.glossary.check_cache import CheckCache
from roofline_site.glossary.errors import GlossaryError
from roofline_site.glossary.validator import load_glossary
from tests.roofline_site.glossary.helpers import entry_text, write_glossary


@pytest.fixture
def checked(monkeypatch):
    """Slugs whose prose was checked, in order (the real check still runs)."""
    seen: list[str] = []
    real = validator.check_entry

    def counting(entry):
        seen.append(entry.slug)
        return real(entry)

    monkeypatch.setattr(validator, "check_entry", counting)
    return seen


def test_a_warm_load_skips_unchanged_entries_and_gives_the_same_glossary(tmp_path, checked):
    folder = write_glossary(tmp_path / "glossary", {"a": entry_text(title="A"), "b": entry_text(title="B")})
    cold = load_glossary(folder, check_cache=CheckCache(tmp_path / "cache"))
    assert checked == ["a", "b"]
    warm = load_glossary(folder, check_cache=CheckCache(tmp_path / "cache"))
    assert checked == ["a", "b"]  # nothing checked again
    assert dict(warm.entries) == dict(cold.entries)


def test_an_edited_entry_is_checked_again(tmp_path, checked):
    folder = write_glossary(tmp_path / "glossary", {"a": entry_text(title="A"), "b": entry_text(title="B")})
    load_glossary(folder, check_cache=CheckCache(tmp_path / "cache"))
    (folder / "b.md").write_text(entry_text(title="B", body="Now it says 3.35 TB/s.\n"), encoding="utf-8")
    with pytest.raises(GlossaryError, match="typed by hand"):
        load_glossary(folder, check_cache=CheckCache(tmp_path / "cache"))
    assert checked == ["a", "b", "b"]


def test_an_entry_with_a_problem_is_never_recorded(tmp_path, checked):
    folder = write_glossary(tmp_path / "glossary", {"a": entry_text(title="A", body="It moves 3.35 TB/s.\n")})
    for _ in range(2):
        with pytest.raises(GlossaryError, match="typed by hand"):
            load_glossary(folder, check_cache=CheckCache(tmp_path / "cache"))
    assert checked == ["a", "a"]


def test_other_checking_code_reads_nothing_on_record(tmp_path, checked, monkeypatch):
    folder = write_glossary(tmp_path / "glossary", {"a": entry_text(title="A")})
    load_glossary(folder, check_cache=CheckCache(tmp_path / "cache"))
    monkeypatch.setattr(check_cache_module, "checking_code_digest", lambda: "f" * 64)
    load_glossary(folder, check_cache=CheckCache(tmp_path / "cache"))
    assert checked == ["a", "a"]


@pytest.mark.parametrize("stored", ["not json", '{"a": 1}', '["short", 3]', ""])
def test_an_unreadable_record_means_nothing_on_record(tmp_path, checked, stored):
    folder = write_glossary(tmp_path / "glossary", {"a": entry_text(title="A")})
    cache = CheckCache(tmp_path / "cache")
    cache.directory.mkdir()
    cache.path.write_text(stored, encoding="utf-8")
    load_glossary(folder, check_cache=cache)
    assert checked == ["a"]
    assert CheckCache(tmp_path / "cache").passed(CheckCache.key(entry_text(title="A"), slug="a", path="glossary/a.md"))


def test_the_key_names_the_file_as_well_as_its_text():
    text = entry_text(title="A")
    keys = {
        CheckCache.key(text, slug="a", path="glossary/a.md"),
        CheckCache.key(text, slug="b", path="glossary/b.md"),
        CheckCache.key(text + " ", slug="a", path="glossary/a.md"),
    }
    assert len(keys) == 3
