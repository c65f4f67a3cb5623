"""Create a new, valid entry from a title and a category, refusing a duplicate.

The file it writes parses, with clearly marked text to replace; the validator names each
placeholder left in it (:mod:`roofline_site.glossary.scaffold_text`), so an untouched scaffold
is never published.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import yaml

from roofline_core.vocabulary import SLUG_PATTERN
from roofline_site.glossary import scaffold_text
from roofline_site.glossary.schema import CATEGORY, RESERVED_SLUGS, name_key, slugify
from roofline_site.glossary.validator import read_entries


class ScaffoldError(Exception):
    """The entry cannot be created; the message says why and what to do."""


def new_entry(
    directory: Path, title: str, category: str, *, summary: str | None = None, today: dt.date | None = None
) -> Path:
    """Write ``<directory>/<slug>.md`` for a new term.

    Args:
        directory: The glossary folder.
        title: The term, e.g. ``"Paged attention"``.
        category: One of :data:`~roofline_site.glossary.schema.CATEGORY`.
        summary: The one-sentence summary, if known.
        today: The ``added`` date (default: today).

    Returns:
        The path written.

    Raises:
        ScaffoldError: for an unknown category, a title without a usable slug, or a slug, title
            or alias that an existing entry already uses.
    """
    _, invalid = CATEGORY.parse(category)
    if invalid is not None:
        raise ScaffoldError(str(invalid))
    title = " ".join(title.split())
    slug = slugify(title)
    if not slug or not SLUG_PATTERN.fullmatch(slug) or slug in RESERVED_SLUGS:
        raise ScaffoldError(f"'{title}' does not make a usable slug; expected a title with letters or digits")
    target = directory / f"{slug}.md"
    if target.exists():
        raise ScaffoldError(f"{target} already exists; expected a new term (edit the existing entry instead)")
    entries, _ = read_entries(directory) if directory.is_dir() else ([], [])
    key = name_key(title)
    for entry in entries:
        taken = {name_key(entry.title): "title", **{name_key(a): "alias" for a in entry.aliases}}
        taken.update({old: "old slug" for old in entry.renamed_from})
        taken.setdefault(entry.slug, "slug")
        for candidate in {key, slug}:
            if candidate in taken:
                raise ScaffoldError(
                    f"'{title}' duplicates the {taken[candidate]} of {entry.path}; expected a new term (add an alias there instead)"
                )
    front = {
        "title": title,
        "category": category,
        "summary": summary or scaffold_text.summary_for(title),
        "aliases": [],
        "related": [],
        "sources": [{"title": scaffold_text.SOURCE_TITLE, "url": scaffold_text.SOURCE_URL}],
        "added": (today or dt.date.today()),
    }
    body = scaffold_text.body_for(title)
    directory.mkdir(parents=True, exist_ok=True)
    text = "---\n" + yaml.safe_dump(front, sort_keys=False, allow_unicode=True, width=100) + "---\n\n" + body
    target.write_text(text, encoding="utf-8")
    return target
