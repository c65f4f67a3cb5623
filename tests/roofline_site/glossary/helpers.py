"""Build entry files for tests: a valid entry by default, with any field changed or removed."""

from __future__ import annotations

from pathlib import Path

import yaml

VALID_FIELDS = {
    "title": "Example term",
    "category": "hardware",
    "summary": "A term used only by the tests.",
    "sources": [{"title": "A source", "url": "https://example.org/source"}],
    "added": "2026-01-01",
}
VALID_BODY = "The example term is defined here.\n"
_REMOVE = object()


def entry_text(body: str = VALID_BODY, **changes) -> str:
    """A whole entry file; ``field=REMOVE`` drops a field, other keywords replace it."""
    fields = dict(VALID_FIELDS)
    for key, value in changes.items():
        if value is _REMOVE:
            fields.pop(key, None)
        else:
            fields[key] = value
    return "---\n" + yaml.safe_dump(fields, sort_keys=False, allow_unicode=True) + "---\n" + body


REMOVE = _REMOVE


def write_glossary(directory: Path, entries: dict[str, str]) -> Path:
    """Write ``{slug: file text}`` into ``directory`` and return it."""
    directory.mkdir(parents=True, exist_ok=True)
    for slug, text in entries.items():
        (directory / f"{slug}.md").write_text(text, encoding="utf-8")
    return directory
