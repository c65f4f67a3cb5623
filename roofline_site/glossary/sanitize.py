"""Allowlist sanitising of an entry's rendered HTML: the guarantee behind the validator.

An entry's body is Markdown from a pull request, and Markdown passes raw HTML through. The
validator (:mod:`roofline_site.glossary.hostile`) reports what it recognises with file and line,
but it reads the Markdown source, and browsers read the HTML that Python-Markdown makes of it;
any difference between the two readings is a way round it. So the HTML that rendering produced
is parsed the way a browser parses it (html5ever, through nh3, the Python binding of the Rust
sanitiser ammonia) and rebuilt from an allowlist: the elements and attributes an entry needs,
links to http(s) or relative targets, images from the site itself. Everything else is dropped
(the text of unknown elements is kept, as text; script, style and other raw-text elements,
SVG and MathML are dropped with their content). The output is balanced markup, so nothing an
entry writes can swallow the page around it.

Markup the *build* puts into a body (the figures drawn from ``figure`` fences) is trusted: each
fragment is swapped for a placeholder that only this call knows before sanitising, and put back
after. Calculator placeholders (``<div class="roofline-calculator-slot" data-slot="N">``) pass
the allowlist and are filled by the calculators hook afterwards; a forged one only repeats the
build's own calculator, which that hook refuses. The numbers the build computed carry a marker
attribute whose values only this call's caller knows (:mod:`roofline_site.glossary.reproduce`);
every other value of it is dropped like any unknown attribute. Links to terms get their preview attributes
after sanitising, from the link graph.

References: ammonia's documentation (https://docs.rs/ammonia) and nh3's
(https://nh3.readthedocs.io); the HTML standard's parsing algorithm
(https://html.spec.whatwg.org/multipage/parsing.html).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Collection, Sequence

import nh3
from pygments.token import STANDARD_TYPES

from roofline_site.glossary.reproduce import MARKER_ATTRIBUTE

#: Elements an entry may contain once rendered.
ALLOWED_TAGS: frozenset[str] = frozenset(
    {
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "p",
        "br",
        "hr",
        "blockquote",
        "div",
        "span",
        "ul",
        "ol",
        "li",
        "dl",
        "dt",
        "dd",
        "table",
        "caption",
        "thead",
        "tbody",
        "tfoot",
        "tr",
        "th",
        "td",
        "pre",
        "code",
        "kbd",
        "samp",
        "var",
        "em",
        "strong",
        "b",
        "i",
        "s",
        "del",
        "ins",
        "mark",
        "sub",
        "sup",
        "small",
        "abbr",
        "q",
        "cite",
        "a",
        "img",
        "details",
        "summary",
    }
)

#: Attributes per element (``"*"``: any allowed element). ``class`` and ``id`` values are
#: filtered further (:func:`_filter_attribute`); URLs must be http(s) or relative.
ALLOWED_ATTRIBUTES: dict[str, set[str]] = {
    "*": {"class", "id", "title"},
    "a": {"href"},
    "img": {"src", "alt", "width", "height"},
    "ol": {"start"},
    "th": {"colspan", "rowspan"},
    "td": {"colspan", "rowspan"},
    "div": {"data-slot"},
    "details": {"open"},
}

#: Table cell alignment, as the ``tables`` extension writes it with ``use_align_attribute``.
ALIGN_VALUES: dict[str, dict[str, set[str]]] = {cell: {"align": {"left", "center", "right"}} for cell in ("th", "td")}

#: Elements dropped together with everything inside them: raw-text and script-bearing
#: elements, foreign content (SVG, MathML) and embedded documents.
DROPPED_WITH_CONTENT: frozenset[str] = frozenset(
    {
        "script",
        "style",
        "template",
        "textarea",
        "title",
        "xmp",
        "noscript",
        "noembed",
        "noframes",
        "iframe",
        "object",
        "svg",
        "math",
        "select",
        "frameset",
    }
)

#: Link schemes an entry may use; anything with another scheme loses its ``href``.
URL_SCHEMES: frozenset[str] = frozenset({"http", "https"})

# Admonition types Material for MkDocs styles (https://squidfunk.github.io/mkdocs-material/reference/admonitions/).
_ADMONITION_TYPES = frozenset(
    {
        "note",
        "abstract",
        "summary",
        "tldr",
        "info",
        "todo",
        "tip",
        "hint",
        "important",
        "success",
        "check",
        "done",
        "question",
        "help",
        "faq",
        "warning",
        "caution",
        "attention",
        "failure",
        "fail",
        "missing",
        "danger",
        "error",
        "bug",
        "example",
        "quote",
        "cite",
    }
)
#: Class names the site's Markdown extensions produce: highlighting (Pygments token classes),
#: admonitions and details, heading permalinks, and the calculator placeholder.
ALLOWED_CLASSES: frozenset[str] = frozenset(
    {c for c in STANDARD_TYPES.values() if c}
    | _ADMONITION_TYPES
    | {
        "highlight",
        "highlighttable",
        "linenos",
        "linenodiv",
        "filename",
        "admonition",
        "admonition-title",
        "headerlink",
        "roofline-calculator-slot",
    }
)
_LANGUAGE_CLASS = re.compile(r"language-[a-z0-9_+-]{1,40}\Z")

#: Ids the page around the body uses (build sections, the theme's and the project's scripts).
RESERVED_IDS: frozenset[str] = frozenset({"related-terms", "sources", "mentioned-in"})
_RESERVED_ID_PREFIXES = ("__", "md-", "roofline-", "calculator-", "glossary-")
_ID = re.compile(r"[A-Za-z][A-Za-z0-9_.:-]{0,99}\Z")
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:")
_TAB_OR_NEWLINE = re.compile(r"[\t\n\r]")
_C0_OR_SPACE_AT_ENDS = re.compile(r"\A[\x00-\x20]+|[\x00-\x20]+\Z")
_DIGITS = re.compile(r"[0-9]{1,4}\Z")
_TRUSTED_ATTRIBUTE = "data-glossary-trusted"


class SanitiseError(ValueError):
    """A fragment the build inserted was not where it was put (the body's markup moved it)."""


def sanitise_entry_html(html: str, *, trusted: Sequence[str] = (), quantity_markers: Collection[str] = ()) -> str:
    """The allowlisted form of an entry body's rendered HTML.

    Args:
        html: The body as Markdown rendered it (contributor markup and build markup mixed).
        trusted: Fragments the build inserted into ``html`` (figures), in document order; they
            are kept exactly as they are.
        quantity_markers: Values of ``<span data-roofline-quantity>`` the build wrote around its
            numbers (:func:`roofline_site.glossary.reproduce.marker_values`); only these are kept.

    Returns:
        Balanced HTML holding only allowed elements and attributes, and the trusted fragments.

    Raises:
        SanitiseError: if a trusted fragment is missing from ``html``, or did not come through
            as an element of its own (the body placed it somewhere else, e.g. in an attribute).
    """
    # The placeholder names a digest of the input, so the input cannot already contain it.
    token = hashlib.sha256(html.encode("utf-8")).hexdigest()[:24]
    slots = [f'<div {_TRUSTED_ATTRIBUTE}="{token}-{index}"></div>' for index in range(len(trusted))]
    pieces, cursor = [], 0
    for fragment, slot in zip(trusted, slots):
        found = html.find(fragment, cursor)
        if found < 0:
            raise SanitiseError(f"build-inserted fragment {fragment[:60]!r} not found in the rendered body")
        pieces += [html[cursor:found], slot]
        cursor = found + len(fragment)
    pieces.append(html[cursor:])
    allowed_slots = {slot.split('"')[1] for slot in slots}
    cleaned = nh3.clean(
        "".join(pieces),
        tags=set(ALLOWED_TAGS),
        clean_content_tags=set(DROPPED_WITH_CONTENT),
        attributes={name: set(values) for name, values in ALLOWED_ATTRIBUTES.items()},
        tag_attribute_values={
            **ALIGN_VALUES,
            "div": {_TRUSTED_ATTRIBUTE: allowed_slots},
            "span": {MARKER_ATTRIBUTE: set(quantity_markers)},
        },
        attribute_filter=_filter_attribute,
        url_schemes=set(URL_SCHEMES),
        link_rel=None,
        strip_comments=True,
    )
    for fragment, slot in zip(trusted, slots):
        if cleaned.count(slot) != 1:
            raise SanitiseError(f"build-inserted fragment {fragment[:60]!r} did not survive as an element of its own")
        cleaned = cleaned.replace(slot, fragment)
    return cleaned


def whatwg_stripped_url(value: str) -> str:
    """``value`` as a browser's URL parser reads it before anything else: leading and trailing C0
    controls and spaces removed, and every tab and newline inside (WHATWG URL standard, "basic URL
    parser", https://url.spec.whatwg.org/#concept-basic-url-parser). Deciding on the raw value
    would let ``ht<TAB>tps://elsewhere`` pass as a relative path.

    >>> whatwg_stripped_url(" \\x01ht\\ttps://example.com/a\\nb ")
    'https://example.com/ab'
    """
    return _TAB_OR_NEWLINE.sub("", _C0_OR_SPACE_AT_ENDS.sub("", value))


def allowed_id(value: str) -> bool:
    """Whether an entry may give an element this id: a plain name, none the page around it uses.

    >>> allowed_id("my-section"), allowed_id("sources"), allowed_id('x" onclick="1'), allowed_id("2026")
    (True, False, False, False)
    """
    return bool(_ID.match(value)) and value not in RESERVED_IDS and not value.startswith(_RESERVED_ID_PREFIXES)


def _filter_attribute(tag: str, name: str, value: str) -> str | None:
    """Narrow allowed attributes further: classes and ids from fixed sets, images from the site."""
    if name == "class":
        kept = [
            c
            for c in value.split()
            if c in ALLOWED_CLASSES
            or (tag == "code" and _LANGUAGE_CLASS.match(c))
            or (tag == "div" and _LANGUAGE_CLASS.match(c))
        ]
        if "roofline-calculator-slot" in kept and tag != "div":
            kept.remove("roofline-calculator-slot")
        return " ".join(kept) or None
    if name == "id":
        return value if allowed_id(value) else None
    if name in ("src", "href"):
        url = whatwg_stripped_url(value)
        scheme = _SCHEME.match(url)
        if name == "href":
            return None if scheme and scheme[0][:-1].lower() not in URL_SCHEMES else url
        # The site loads nothing from other hosts: only relative paths, not scheme-relative ones
        # (a browser reads a backslash as a slash in them).
        return None if scheme or url.replace("\\", "/").startswith("//") else url
    if name in ("data-slot", "start", "colspan", "rowspan", "width", "height"):
        return value if _DIGITS.match(value) else None
    return value
