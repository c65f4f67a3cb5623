"""An unchanged glossary is not read again; any change to a file or to the code reads it afresh."""

from __future__ import annotations

import pytest

from roofline_site.glossary import load_cache as load_cache_module
from roofline_site.glossary import validator
from roofline_site.glossary.errors import GlossaryError
from roofline_site.glossary.load_cache import LoadCache
from roofline_site.glossary.validator import load_glossary
from tests.roofline_site.glossary.helpers import entry_text, write_glossary

FULL = entry_text(
    title="Full",
    aliases=["Everything"],
    related=["plain"],
    sources=[
        {"title": "A source", "url": "https://example.org/a", "note": "the figure"},
        {"title": "Another", "url": "https://example.org/b"},
    ],
    updated="2026-03-04",
    renamed_from=["old-full"],
    body="Full links [[plain]].\n\n## More\n\nText.\n",
)


@pytest.fixture
def parsed(monkeypatch):
    """Slugs whose file was parsed, in order (the real parser still runs)."""
    seen: list[str] = []
    real = validator.read_entry

    def counting(text, *, slug, **kwargs):
        seen.append(slug)
        return real(text, slug=slug, **kwargs)

    monkeypatch.setattr(validator, "read_entry", counting)
    return seen


def _glossary(tmp_path):
    return write_glossary(tmp_path / "glossary", {"full": FULL, "plain": entry_text(title="Plain")})


def _load(folder, tmp_path, **kwargs):
    return load_glossary(folder, load_cache=LoadCache(tmp_path / "cache"), **kwargs)


def test_a_warm_load_parses_nothing_and_gives_an_equal_glossary(tmp_path, parsed):
    folder = _glossary(tmp_path)
    cold = _load(folder, tmp_path)
    warm = _load(folder, tmp_path)
    assert parsed == ["full", "plain"]
    assert warm.entries == cold.entries == load_glossary(folder).entries
    full = warm.entries["full"]
    assert full.updated.isoformat() == "2026-03-04" and full.sources[0].note == "the figure"
    assert full.lines == cold.entries["full"].lines and full.body_line == cold.entries["full"].body_line


@pytest.mark.parametrize(
    "change",
    [
        lambda folder: (folder / "plain.md").write_text(entry_text(title="Plain", summary="Changed."), "utf-8"),
        lambda folder: (folder / "new.md").write_text(entry_text(title="New"), "utf-8"),
        lambda folder: (folder / "plain.md").rename(folder / "plainer.md"),
    ],
    ids=["edited", "added", "renamed"],
)
def test_a_changed_folder_is_read_again(tmp_path, parsed, change):
    folder = _glossary(tmp_path)
    _load(folder, tmp_path)
    change(folder)
    # A renamed file breaks the link to it: the fresh read finds that too.
    try:
        glossary = _load(folder, tmp_path)
    except GlossaryError as exc:
        assert "plain" in str(exc)
    else:
        assert glossary.entries == load_glossary(folder).entries
    assert len(parsed) > 2


def test_a_glossary_with_a_problem_is_never_recorded(tmp_path, parsed):
    folder = write_glossary(tmp_path / "glossary", {"a": entry_text(title="A", related=["missing"])})
    for _ in range(2):
        with pytest.raises(GlossaryError, match="missing"):
            _load(folder, tmp_path)
    assert parsed == ["a", "a"]
    assert not (tmp_path / "cache").exists()


def test_other_checking_code_or_another_display_name_reads_afresh(tmp_path, parsed, monkeypatch):
    folder = _glossary(tmp_path)
    _load(folder, tmp_path)
    _load(folder, tmp_path, display_dir="terms")
    assert parsed == ["full", "plain"] * 2
    monkeypatch.setattr(load_cache_module, "checking_code_digest", lambda: "f" * 64)
    _load(folder, tmp_path, display_dir="terms")
    assert parsed == ["full", "plain"] * 3


@pytest.mark.parametrize(
    "stored", ["not json", "[]", '{"key": 1}', '{"entries": []}', "KEY_WITH_BAD_ENTRIES", "KEY_WITH_BAD_DATE", ""]
)
def test_a_damaged_record_means_nothing_on_record(tmp_path, parsed, stored):
    folder = _glossary(tmp_path)
    cache = LoadCache(tmp_path / "cache")
    load_glossary(folder, load_cache=cache)
    record = cache.path.read_text(encoding="utf-8")
    key = record.split('"key":"', 1)[1].split('"', 1)[0]
    if stored == "KEY_WITH_BAD_ENTRIES":
        stored = f'{{"key": "{key}", "entries": [{{"slug": "full"}}]}}'
    elif stored == "KEY_WITH_BAD_DATE":
        stored = record.replace('"added":"2026-01-01"', '"added":"yesterday"', 1)
    cache.path.write_text(stored, encoding="utf-8")
    assert load_glossary(folder, load_cache=cache).entries == load_glossary(folder).entries
    assert parsed == ["full", "plain"] * 3
