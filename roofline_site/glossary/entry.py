"""A glossary entry as the site uses it, read from front matter that the validator accepted."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from roofline_site.glossary.schema import slugify

#: ``(id, heading)`` of the sections the build adds after an entry's body, in order; an entry
#: must not write these headings itself.
TERM_PAGE_SECTIONS: tuple[tuple[str, str], ...] = (
    ("related-terms", "Related terms"),
    ("sources", "Sources"),
    ("mentioned-in", "Mentioned in"),
)


@dataclass(frozen=True)
class SourceRef:
    """A source an entry cites.

    Attributes:
        title: Name of the document.
        url: Its https address.
        note: Optional: what it supports.
    """

    title: str
    url: str
    note: str = ""


@dataclass(frozen=True)
class Entry:
    """One term.

    Attributes:
        slug: File name without ``.md``; the page is ``glossary/<slug>/``.
        path: The file as shown in messages (``glossary/<slug>.md``).
        title: The term.
        category: One of :data:`~roofline_site.glossary.schema.CATEGORIES`.
        summary: One plain-text sentence.
        aliases: Other names.
        related: Slugs of related entries.
        sources: What it cites.
        added: First published.
        updated: Last changed in substance, if ever.
        renamed_from: Old slugs.
        body: The Markdown body, as written.
        body_line: File line where the body starts.
        lines: File line of each front-matter field, by name.
    """

    slug: str
    path: str
    title: str
    category: str
    summary: str
    aliases: tuple[str, ...]
    related: tuple[str, ...]
    sources: tuple[SourceRef, ...]
    added: dt.date
    updated: dt.date | None
    renamed_from: tuple[str, ...]
    body: str
    body_line: int
    lines: dict[str, int]

    @property
    def last_changed(self) -> dt.date:
        """The date a feed reader should see: ``updated`` if set, else ``added``."""
        return self.updated or self.added

    @property
    def redirect_slugs(self) -> tuple[str, ...]:
        """Old slugs and alias slugs that should lead to this entry's page, without repeats."""
        found: list[str] = []
        for slug in (*self.renamed_from, *(slugify(a) for a in self.aliases)):
            if slug and slug != self.slug and slug not in found:
                found.append(slug)
        return tuple(found)
