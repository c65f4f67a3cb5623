"""The front matter of a glossary entry, declared once with :mod:`roofline_core.vocabulary`.

:data:`FRONT_MATTER` is the single declaration: the validator checks entries against it, and
:func:`fields_table` and :func:`categories_table` write the tables docs/authoring-terms.md holds (a test
checks they agree).
"""

from __future__ import annotations

import html.entities
import re
import unicodedata

from roofline_core.vocabulary import Choice, Date, ListOf, OneOf, Record, Rule, Slug, Text, Url, slugify

#: The fixed set of categories: each choice's value is what an entry's ``category`` holds, its
#: label says what belongs there (shown on the glossary index). Changing the set is this one edit.
CATEGORY = OneOf(
    id="category",
    label="Category",
    default=None,
    help="One of the categories below.",
    choices=(
        Choice(
            "hardware",
            "Accelerators and the roofline model of their limits: compute units, peaks, and where work lands.",
        ),
        Choice("memory", "Where the bytes live and how fast they move: HBM, SRAM, bandwidth and the KV cache."),
        Choice("formats", "Number formats and quantisation: how many bits a weight, activation or cached value takes."),
        Choice("attention", "How attention is computed and what it keeps: its variants and kernels."),
        Choice("serving", "What happens while a model serves requests: phases, batching, caching and scheduling."),
        Choice("parallelism", "Spreading a model, or its requests, over several devices."),
        Choice("metrics", "Numbers used to measure and compare inference performance."),
        Choice(
            "techniques",
            "Other ways to make inference faster or cheaper: speculation, fusion, launch overheads, sparse models.",
        ),
    ),
)
#: Category slug -> what belongs there.
CATEGORIES: dict[str, str] = {c.value: c.label for c in CATEGORY.choices}

#: A summary longer than this does not fit a hover preview or a link unfurl.
SUMMARY_MAX_CHARS = 200
#: Lists in the front matter (aliases, related, sources, renamed_from) hold at most this many
#: items: an entry about one term needs no more, and a huge list would slow every build.
MAX_LIST_ITEMS = 20
#: Longest title or alias: far past any term's name, short enough for a heading on a phone.
MAX_NAME_CHARS = 100

#: Slugs the build uses for its own pages.
RESERVED_SLUGS = frozenset({"index", "feed", "category"})


def _term_slugs(field_id: str, help_text: str) -> ListOf:
    """A front-matter list of term slugs (file names without ``.md``)."""
    slug = Slug(id=field_id, label="Term", default=None, help=help_text, reserved=RESERVED_SLUGS)
    return ListOf(slug, most=MAX_LIST_ITEMS, split_text=False)


_PLAIN_TEXT = "plain text (it is shown in previews, search results and link unfurls)"
# Names browsers decode even with no ";" after them (HTML's legacy list: &lt, &copy, &amp...),
# longest first so the pattern reports the name a browser would take.
_LEGACY_NAMES = sorted((name for name in html.entities.html5 if not name.endswith(";")), key=len, reverse=True)
#: An "&" that a browser reads as a character reference: numeric (&#60, &#x3c, with or without
#: ";"), a name closed by ";", or a legacy name without one (&lt, &copy). Themes print titles and
#: summaries into <title> and attributes where such a reference would become its character. A
#: plain "R&D" or "AT&T" is none of these and stays.
_CHARACTER_REFERENCE = Rule(
    re.compile(r"&(?:#[0-9]|#[xX][0-9a-fA-F]|[A-Za-z][A-Za-z0-9]*;|" + "|".join(map(re.escape, _LEGACY_NAMES)) + ")"),
    "holds markup characters: an '&' that browsers read as a character reference (&lt, &copy;, &#60)",
    "the character itself, or 'and' in place of that '&'",
)
#: Markup a plain-text summary must not hold: HTML tags, code, emphasis, links, headings, lists.
_SUMMARY_RULES = (
    Rule(re.compile(r"<\s*/?\s*[a-zA-Z!]"), "holds HTML", _PLAIN_TEXT),
    _CHARACTER_REFERENCE,
    Rule(re.compile(r"`"), "holds code backticks", _PLAIN_TEXT),
    Rule(re.compile(r"\*\*|__"), "holds bold markup", _PLAIN_TEXT),
    Rule(
        re.compile(r"(?<![\w*])\*(?=\S)[^*]*\S\*(?![\w*])|(?<!\w)_(?=\S)[^_]*\S_(?!\w)"),
        "holds emphasis markup",
        _PLAIN_TEXT,
    ),
    Rule(re.compile(r"\[[^\]]*\]\(|\[\["), "holds a link", _PLAIN_TEXT),
    Rule(re.compile(r"^\s*(#|>|[-+*]\s|\d+\.\s)"), "holds block markup", _PLAIN_TEXT),
    # A straight double quote would end the HTML attribute the summary is written into (the
    # page's description meta); typographic quotes are fine.
    Rule(
        re.compile('"'),
        'holds a straight double quote (")',
        "typographic quotes (\u201c \u201d) or none; it is written into HTML attributes",
    ),
    Rule(re.compile(r"[.?!]\Z"), "does not end with a full stop", "one complete sentence", must_match=True),
)
_TITLE_RULES = (
    Rule(
        re.compile(r"[<>\[\]`*_\"]"),
        "holds markup characters",
        "plain text without < > [ ] ` * _, HTML entities or straight double quotes",
    ),
    _CHARACTER_REFERENCE,
)

#: One cited source.
SOURCE = Record(
    id="sources",
    label="Source",
    default=None,
    help="At least one source, each a mapping with `title` and `url` (an `https://` address) and optionally "
    "`note` (what it supports).",
    required=frozenset({"title", "url"}),
    fields=(
        Text(id="title", label="Title", default=None, help="The document's name.", most_chars=300),
        Url(id="url", label="Address", default=None, help="The document's https:// address."),
        Text(id="note", label="Note", default="", help="What the document supports.", most_chars=500),
    ),
)

#: The front matter of an entry, field by field (docs/authoring-terms.md's table is generated from it).
FRONT_MATTER = Record(
    id="front_matter",
    label="Front matter",
    default=None,
    required=frozenset({"title", "category", "summary", "sources", "added"}),
    fields=(
        Text(
            id="title",
            label="Title",
            default=None,
            help="The term as readers write it, e.g. `KV cache`. Plain text.",
            most_chars=MAX_NAME_CHARS,
            rules=_TITLE_RULES,
        ),
        CATEGORY,
        Text(
            id="summary",
            label="Summary",
            default=None,
            help="One plain-text sentence (no Markdown or HTML, no straight double quotes, ending in a full stop). "
            "It is shown in hover previews, on the index, in search results and when a link to the entry unfurls "
            "in a chat or blog, so it must stand on its own.",
            most_chars=SUMMARY_MAX_CHARS,
            rules=_SUMMARY_RULES,
            what="one plain-text sentence",
        ),
        ListOf(
            Text(
                id="aliases",
                label="Alias",
                default=None,
                help="Other names (`KV-cache`, `Key-value cache`). Search finds the term by them, and each gets a "
                "redirect: `/glossary/key-value-cache/` leads to the entry.",
                most_chars=MAX_NAME_CHARS,
                rules=(_CHARACTER_REFERENCE,),
            ),
            most=MAX_LIST_ITEMS,
            split_text=False,
        ),
        _term_slugs("related", 'Slugs of closely related entries, listed under "Related terms".'),
        ListOf(
            SOURCE,
            most=MAX_LIST_ITEMS,
            split_text=False,
            unique=False,
        ),
        Date(id="added", label="Added", default=None, help="When the entry was first published, `YYYY-MM-DD`."),
        Date(
            id="updated",
            label="Updated",
            default=None,
            help="When it last changed in substance, `YYYY-MM-DD`, not before `added`. The RSS feed announces the "
            "entry again on this date; leave it alone for typo fixes.",
        ),
        _term_slugs("renamed_from", "Old slugs of this entry; each keeps a redirect to the new page."),
    ),
)


def fields_table() -> str:
    """The Markdown table of the front-matter fields (docs/authoring-terms.md holds it; a test compares)."""
    rows = ["| field | required | accepts | what it holds |", "|---|---|---|---|"]
    for declared in FRONT_MATTER.fields:
        required = "yes" if declared.id in FRONT_MATTER.required else "no"
        rows.append(f"| `{declared.id}` | {required} | {_escaped(declared.expected())} | {declared.help} |")
    return "\n".join(rows) + "\n"


def categories_table() -> str:
    """The Markdown table of the categories (docs/authoring-terms.md holds it; a test compares)."""
    rows = ["| category | for |", "|---|---|"]
    rows += [f"| `{c.value}` | {c.label} |" for c in CATEGORY.choices]
    return "\n".join(rows) + "\n"


def _escaped(text: str) -> str:
    """Text as one Markdown table cell (a ``|`` would end the cell)."""
    return text.replace("|", "\\|")


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
