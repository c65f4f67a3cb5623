"""Bidirectional controls anywhere in an entry, and character references in its names and summary,
stop it with a located error.

The theme prints titles and summaries into ``<title>`` and attributes, where a browser decodes
``&lt`` or ``&copy`` even without ``;`` and where a right-to-left override reorders what a reader
sees. The rejected fixtures of the hostile corpus are read here one by one (the gate builds them
all with the site).
"""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest

from roofline_site.glossary.validator import read_entry
from tests.roofline_site.glossary.helpers import entry_text

REJECTED = Path(__file__).resolve().parents[2] / "fixtures" / "hostile" / "rejected"

#: (fixture, line, words in its one error).
FIXTURES = [
    ("title-bidi-override.md", 2, "bidirectional control U+202E (RIGHT-TO-LEFT OVERRIDE) in the file"),
    ("summary-bidi-isolate.md", 4, "bidirectional control U+2067 (RIGHT-TO-LEFT ISOLATE) in the file"),
    ("alias-bidi-mark.md", 6, "bidirectional control U+200F (RIGHT-TO-LEFT MARK) in the file"),
    ("body-bidi-override.md", 11, "bidirectional control U+202E (RIGHT-TO-LEFT OVERRIDE) in the file"),
    ("title-legacy-entity.md", 2, "field 'title': 'Ridge &lt point' holds markup characters"),
    ("summary-legacy-entity.md", 4, "field 'summary': 'Numbers &copy the vendor"),
    ("summary-numeric-reference.md", 4, "read as a character reference"),
    ("alias-entity.md", 6, "field 'aliases', item 1: 'R&ampD' holds markup characters"),
]


def _problems(text: str, slug: str) -> list[str]:
    _, found = read_entry(text, slug=slug, path=f"glossary/{slug}.md")
    return [str(problem) for problem in found]


@pytest.mark.parametrize(("name", "line", "words"), FIXTURES, ids=[f[0] for f in FIXTURES])
def test_each_fixture_gets_one_located_error(name, line, words):
    slug = name.removesuffix(".md")
    found = _problems((REJECTED / name).read_text(encoding="utf-8"), slug)
    assert len(found) == 1, found
    assert found[0].startswith(f"glossary/{name}:{line}: ") and words in found[0] and "; expected " in found[0], found


BIDI_CONTROLS = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"


@pytest.mark.parametrize("char", BIDI_CONTROLS, ids=[f"U+{ord(c):04X}" for c in BIDI_CONTROLS])
def test_every_bidi_control_is_refused_in_any_front_matter_string(char):
    # A source's title: no field-specific rule, the one file-wide rule catches it.
    text = entry_text(sources=[{"title": f"A{char}source", "url": "https://example.org/a"}])
    found = _problems(text, "example-term")
    line = text.splitlines().index(next(s for s in text.splitlines() if char in s)) + 1
    assert found == [
        f"glossary/example-term.md:{line}: bidirectional control U+{ord(char):04X} "
        f"({unicodedata.name(char)}) in the file; expected text in reading order with no direction "
        "controls: they show words in another order than they are read (in titles, summaries, names and code alike)"
    ]


REFERENCES = ["&lt", "&LT", "&copy", "&amp", "&amp;", "&hellip;", "&#60", "&#60;", "&#x3c", "&#X3C;", "&ampere"]


@pytest.mark.parametrize("reference", REFERENCES)
@pytest.mark.parametrize("field", ["title", "summary", "aliases"])
def test_an_ampersand_a_browser_reads_as_a_reference_is_refused(field, reference):
    value = f"Ridge {reference} point"
    text = entry_text(**{field: [value] if field == "aliases" else value + ("." if field == "summary" else "")})
    found = _problems(text, "example-term")
    assert len(found) == 1 and f"field '{field}'" in found[0], found
    assert "holds markup characters: an '&' that browsers read as a character reference" in found[0], found
    assert found[0].endswith("; expected the character itself, or 'and' in place of that '&'"), found


@pytest.mark.parametrize("plain", ["R&D", "AT&T", "Q&A", "Tom & Jerry", "a&b", "5 & 6"])
@pytest.mark.parametrize("field", ["title", "summary", "aliases"])
def test_an_ampersand_no_browser_decodes_is_fine(field, plain):
    value = f"Costs of {plain}"
    text = entry_text(**{field: [value] if field == "aliases" else value + ("." if field == "summary" else "")})
    assert _problems(text, "example-term") == []
