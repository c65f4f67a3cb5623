"""The front-matter schema of a glossary entry: fields, categories and limits.

This module is the single definition that the validator enforces and CONTRIBUTING.md documents
(a test checks the two agree).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

#: The fixed set of categories. Keys are what an entry's ``category`` holds; values say what
#: belongs there (shown on the glossary index).
CATEGORIES: dict[str, str] = {
    "concept": "Ideas and models for reasoning about performance.",
    "silicon": "The hardware: compute units, memories and their limits.",
    "runtime": "What happens while a model serves requests: phases, caches and scheduling.",
    "model": "Choices in a model's architecture that change its cost.",
    "metric": "Numbers used to measure and compare inference performance.",
    "technique": "Ways to make inference faster or cheaper.",
}

#: A summary longer than this does not fit a hover preview or a link unfurl.
SUMMARY_MAX_CHARS = 200

#: ``glossary/<slug>.md``: lowercase letters and digits separated by single hyphens.
SLUG_PATTERN = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")

#: Slugs the build uses for its own pages.
RESERVED_SLUGS = frozenset({"index", "feed"})


@dataclass(frozen=True)
class Field:
    """One front-matter field.

    Attributes:
        name: Key in the front matter.
        required: Whether an entry must have it.
        kind: ``"text"``, ``"list of text"``, ``"list of slugs"``, ``"list of sources"`` or ``"date"``.
        help: What it holds (CONTRIBUTING.md shows this).
    """

    name: str
    required: bool
    kind: str
    help: str


FIELDS: tuple[Field, ...] = (
    Field("title", True, "text", "The term as readers write it, e.g. 'KV cache'."),
    Field("category", True, "text", "One of the categories: " + ", ".join(CATEGORIES) + "."),
    Field(
        "summary",
        True,
        "text",
        f"One plain-text sentence (no Markdown or HTML, at most {SUMMARY_MAX_CHARS} characters, ending in a full stop); "
        "shown in previews, the index, search results and link unfurls.",
    ),
    Field("aliases", False, "list of text", "Other names for the term; each gets a redirect and is found by search."),
    Field("related", False, "list of slugs", "Slugs of closely related entries, listed under 'Related terms'."),
    Field(
        "sources",
        True,
        "list of sources",
        "At least one source: a mapping with 'title' and 'url' (an https address), optionally 'note'.",
    ),
    Field("added", True, "date", "When the entry was first published (YYYY-MM-DD)."),
    Field("updated", False, "date", "When the entry last changed in substance (YYYY-MM-DD, not before 'added')."),
    Field("renamed_from", False, "list of slugs", "Old slugs of this entry; each keeps a redirect to the new page."),
)

FIELDS_BY_NAME: dict[str, Field] = {f.name: f for f in FIELDS}
SOURCE_KEYS = ("title", "url", "note")


def slugify(text: str) -> str:
    """The slug of a title or alias: ``"KV cache"`` -> ``"kv-cache"``, ``"Peak FLOP/s"`` -> ``"peak-flop-s"``."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    return re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")


def name_key(text: str) -> str:
    """How titles and aliases are compared for duplicates: case, spacing and punctuation ignored."""
    return slugify(text)
