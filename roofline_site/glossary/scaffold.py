"""Create a new, valid entry from a title and a category, refusing a duplicate.

The file it writes passes the validator as is, with clearly marked text to replace, so a
contributor can preview it at once (``scripts/serve``) and fill it in.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import yaml

from roofline_core.vocabulary import SLUG_PATTERN
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
        "summary": summary or f"Replace this with one plain sentence that defines {title.lower()}.",
        "aliases": [],
        "related": [],
        "sources": [
            {"title": "Replace with the document you took the facts from", "url": "https://example.org/replace-me"}
        ],
        "added": (today or dt.date.today()),
    }
    body = (
        f"Start with the definition: what **{title}** is, in one or two sentences a newcomer can follow.\n\n"
        "## Why it matters\n\n"
        "Say what it changes for LLM inference; link other terms with `[[slug]]` or `[[slug|your words]]`.\n\n"
        "## The numbers\n\n"
        "Quote numbers through quantities, never by hand: the H100's ridge point is\n"
        "{{ ridge_point accelerator=h100-sxm }}. See CONTRIBUTING.md for the list.\n"
    )
    directory.mkdir(parents=True, exist_ok=True)
    text = "---\n" + yaml.safe_dump(front, sort_keys=False, allow_unicode=True, width=100) + "---\n\n" + body
    target.write_text(text, encoding="utf-8")
    return target
