"""Remember the last glossary that loaded without a problem, so an unchanged one is not read again.

Reading a glossary means parsing every entry's front matter and checking links, related terms and
names across entries: about 50 ms of each warm build for this site's 85 terms, for the same
answer whenever no file and no checking code changed. The key is a SHA-256 of the code that
reads and checks entries (:func:`.check_cache.checking_code_digest`), of how messages name the
folder, and of every entry file's name and bytes; on a match the entries are rebuilt from the
record and nothing is parsed or checked again. Only a glossary with no problem is recorded, so a
build with a problem always reports it afresh.

The record is one JSON file in ``.cache/glossary-load/``, written atomically; a missing,
unreadable or foreign record means "not on record".
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from roofline_site.atomic_write import write_atomic
from roofline_site.glossary.check_cache import checking_code_digest
from roofline_site.glossary.entry import Entry, SourceRef
from roofline_site.node_artifacts import input_key

CACHE_DIR_NAME = ".cache/glossary-load"
RECORD_NAME = "glossary.json"


def glossary_key(files: Iterable[tuple[str, bytes]], *, display_dir: str) -> str:
    """The key of a glossary: the checking code, the folder's display name, each file's name and bytes."""
    parts = [checking_code_digest().encode(), display_dir.encode()]
    for name, data in files:
        parts += [name.encode("utf-8", "surrogatepass"), data]
    return input_key(parts)


@dataclass
class LoadCache:
    """The last glossary that loaded cleanly, in ``directory``."""

    directory: Path

    @property
    def path(self) -> Path:
        return self.directory / RECORD_NAME

    def entries(self, key: str) -> list[Entry] | None:
        """The entries recorded under ``key``, or None if the record is for another key or unusable."""
        try:
            record = json.loads(self.path.read_text(encoding="utf-8"))
            if record["key"] != key:
                return None
            return [_entry_from_json(item) for item in record["entries"]]
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def record(self, key: str, entries: Iterable[Entry]) -> None:
        """Write ``entries`` as the glossary of ``key`` (atomically: other builds may read it)."""
        record = {"key": key, "entries": [_entry_to_json(entry) for entry in entries]}
        write_atomic(self.path, json.dumps(record, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))


def _entry_to_json(entry: Entry) -> dict:
    return {
        "slug": entry.slug,
        "path": entry.path,
        "title": entry.title,
        "category": entry.category,
        "summary": entry.summary,
        "aliases": list(entry.aliases),
        "related": list(entry.related),
        "sources": [[source.title, source.url, source.note] for source in entry.sources],
        "added": entry.added.isoformat(),
        "updated": entry.updated.isoformat() if entry.updated else None,
        "renamed_from": list(entry.renamed_from),
        "body": entry.body,
        "body_line": entry.body_line,
        "lines": entry.lines,
    }


def _entry_from_json(item: dict) -> Entry:
    return Entry(
        slug=item["slug"],
        path=item["path"],
        title=item["title"],
        category=item["category"],
        summary=item["summary"],
        aliases=tuple(item["aliases"]),
        related=tuple(item["related"]),
        sources=tuple(SourceRef(title, url, note) for title, url, note in item["sources"]),
        added=dt.date.fromisoformat(item["added"]),
        updated=dt.date.fromisoformat(item["updated"]) if item["updated"] else None,
        renamed_from=tuple(item["renamed_from"]),
        body=item["body"],
        body_line=item["body_line"],
        lines=dict(item["lines"]),
    )
