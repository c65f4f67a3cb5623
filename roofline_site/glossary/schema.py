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
    "hardware": "Accelerators and the roofline model of their limits: compute units, peaks, and where work lands.",
    "memory": "Where the bytes live and how fast they move: HBM, SRAM, bandwidth and the KV cache.",
    "formats": "Number formats and quantisation: how many bits a weight, activation or cached value takes.",
    "attention": "How attention is computed and what it keeps: its variants and kernels.",
    "serving": "What happens while a model serves requests: phases, batching, caching and scheduling.",
    "parallelism": "Spreading a model, or its requests, over several devices.",
    "metrics": "Numbers used to measure and compare inference performance.",
    "techniques": "Other ways to make inference faster or cheaper: speculation, fusion, launch overheads, sparse models.",
}

#: A summary longer than this does not fit a hover preview or a link unfurl.
SUMMARY_MAX_CHARS = 200

#: ``glossary/<slug>.md``: lowercase letters and digits separated by single hyphens.
SLUG_PATTERN = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*\Z")

#: Slugs the build uses for its own pages.
RESERVED_SLUGS = frozenset({"index", "feed", "category"})


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


# Cyrillic and Greek letters that look like Latin ones (after NFKC), in both cases: the part
# of Unicode's confusables list that a title in this glossary could plausibly be spoofed with.
_CONFUSABLES = str.maketrans(
    {
        # Cyrillic
        "А": "A",
        "В": "B",
        "Е": "E",
        "К": "K",
        "М": "M",
        "Н": "H",
        "О": "O",
        "Р": "P",
        "С": "C",
        "Т": "T",
        "У": "Y",
        "Х": "X",
        "Ѕ": "S",
        "І": "I",
        "Ј": "J",
        "Ӏ": "I",
        "а": "a",
        "е": "e",
        "ё": "e",
        "о": "o",
        "р": "p",
        "с": "c",
        "у": "y",
        "х": "x",
        "ѕ": "s",
        "і": "i",
        "ї": "i",
        "ј": "j",
        "һ": "h",
        "ԁ": "d",
        "ԛ": "q",
        "ԝ": "w",
        "ӏ": "l",
        # Greek
        "Α": "A",
        "Β": "B",
        "Ε": "E",
        "Ζ": "Z",
        "Η": "H",
        "Ι": "I",
        "Κ": "K",
        "Μ": "M",
        "Ν": "N",
        "Ο": "O",
        "Ρ": "P",
        "Τ": "T",
        "Υ": "Y",
        "Χ": "X",
        "α": "a",
        "ο": "o",
        "ρ": "p",
        "ι": "i",
        "υ": "u",
        "ν": "v",
        "κ": "k",
        "χ": "x",
        "ϲ": "c",
        "ϳ": "j",
    }
)
# Invisible characters (zero-width spaces and joiners, soft hyphen, byte-order mark).
_INVISIBLE = re.compile("[\u00ad\u180e\u200b-\u200f\u2060-\u2064\ufeff]")


def lookalike_key(text: str, *, confusables: bool = True) -> str:
    """How titles, aliases and slugs are compared for look-alikes: NFKC-normalised, invisible
    characters dropped, Cyrillic and Greek look-alikes read as Latin, accents, case and
    punctuation ignored. Letters of other scripts are kept, so they never clash with Latin."""
    text = _INVISIBLE.sub("", unicodedata.normalize("NFKC", text))
    if confusables:
        text = text.translate(_CONFUSABLES)
    text = "".join(c for c in unicodedata.normalize("NFKD", text.casefold()) if not unicodedata.combining(c))
    return re.sub(r"[\W_]+", "-", text).strip("-")
