"""Markdown twins of the term pages, and ``llms.txt``: the glossary for assistants and crawlers.

A term page's twin (``glossary/<slug>/index.md``) is the entry as a reader sees it, in plain
CommonMark: ``[[term]]`` links become links to the term pages, every ``{{ quantity }}`` its text
(with what it assumes, in words, in a list after the body), figure and calculator fences a line
that names them, and the sources a list. ``llms.txt`` follows the convention of
https://llmstxt.org/ (a title, a one-paragraph summary, then sections of links with one line
each); ``llms-full.txt`` is every twin in one file.

The body is contributor Markdown (untrusted). The twin is served as ``text/markdown``, but an
assistant may render it, so it must carry no raw HTML: every ``<`` outside a fenced code block
becomes ``&lt;`` (a character reference CommonMark shows as text, whatever precedes it), and
front-matter strings are written as escaped text (:func:`text`). What a fence is follows
CommonMark's rules on the side of caution: an opening fence must be one that CommonMark reads as
one, and anything that might close it does, so a ``<`` is left alone only where every reader
sees code. Nothing here needs MkDocs: URLs come in as functions.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from urllib.parse import urlsplit

from roofline_core.calculators import CALCULATORS
from roofline_core.quantities import QuantityError, evaluate_reference, scenario_words
from roofline_core.version import data_version
from roofline_site.fences.scan import find_fences
from roofline_site.glossary.entry import Entry
from roofline_site.glossary.markup import (
    MARKDOWN_LINK,
    escape_link_text,
    find_quantities,
    find_term_links,
    mask_code,
    running_text,
    starts_sentence,
)
from roofline_site.glossary.validator import Glossary

#: Where a term's twin lives in the site, beside its page's ``index.html``.
TWIN_NAME = "index.md"
LLMS_TXT = "llms.txt"
LLMS_FULL_TXT = "llms-full.txt"
#: The fences the build turns into figures and calculators (hooks/fences.py): build syntax.
BUILD_FENCES = ("figure", "calculator")

# CommonMark's backslash escapes (https://spec.commonmark.org/0.31.2/#backslash-escapes) for
# the punctuation that could start markup inside a line of text; '<' and '&' as character
# references, so nothing can open a tag or write a reference of its own.
_TEXT_ESCAPES = {
    **{char: "\\" + char for char in "\\`*_[]#!|~"},
    "<": "&lt;",
    ">": "&gt;",
    "&": "&amp;",
}
# An opening fence CommonMark reads at the top level whatever came before: three or more
# backticks (with no backtick in the info string) or tildes (https://spec.commonmark.org/0.31.2/#fenced-code-blocks),
# at the start of the line. An indented one may belong to a list item, which a later line
# without indentation closes, fence and all; such a fence's lines are escaped like any other.
_OPENING_FENCE = re.compile(r"^(?P<fence>`{3,}(?=[^`]*$)|~{3,})")


def text(value: str) -> str:
    """``value`` as Markdown that shows it literally on one line (a title, a summary, a caption)."""
    return "".join(_TEXT_ESCAPES.get(char, char) for char in " ".join(value.split()))


def no_raw_html(markdown: str) -> str:
    """``markdown`` with every ``<`` outside fenced code written as ``&lt;``.

    Code spans are not spared: where CommonMark and a simpler reader disagree on where a span
    ends (across a blank line, say), a spared ``<`` could open a tag; in a span the reference
    shows as ``&lt;``, which is legible and inert.
    """
    out: list[str] = []
    fence: str | None = None
    for line in markdown.splitlines(keepends=True):
        if fence is None:
            opening = _OPENING_FENCE.match(line)
            if opening:
                fence = opening["fence"]
                out.append(line)
                continue
            out.append(line.replace("<", "&lt;"))
            continue
        # Any line that could close the fence does, even one indented further than CommonMark
        # allows: erring that way escapes code, never leaves markup live.
        stripped = line.strip()
        if stripped.startswith(fence[0] * len(fence)) and set(stripped) <= {fence[0]}:
            fence = None
        out.append(line)
    return "".join(out)


@dataclass(frozen=True)
class Link:
    """One line of an ``llms.txt`` section: a name, its absolute or site-relative URL, a summary."""

    name: str
    url: str
    summary: str = ""


class TwinUrls:
    """The addresses a twin links to.

    Args:
        site_url: The site's address (links are absolute under it; site-relative without it).
        url_of: The site URL of a file of the docs tree (``glossary/kv-cache.md`` ->
            ``glossary/kv-cache/``), or None for one the site does not have.
    """

    def __init__(self, *, site_url: str | None, url_of: Callable[[str], str | None]) -> None:
        self.base = (site_url or "/").rstrip("/") + "/"
        self._url_of = url_of

    def absolute(self, site_path: str) -> str:
        site_path = site_path.lstrip("/")
        return self.base + ("" if site_path in (".", "./") else site_path)

    def page(self, src_uri: str) -> str | None:
        url = self._url_of(src_uri)
        return None if url is None else self.absolute(url)

    def term(self, slug: str, anchor: str = "") -> str:
        url = self.page(f"glossary/{slug}.md") or self.absolute(f"glossary/{slug}/")
        return url + (f"#{anchor}" if anchor else "")

    def twin(self, slug: str) -> str:
        return self.term(slug) + TWIN_NAME


def twin_path(term_url: str) -> str:
    """Where a term page's twin is written in the site (``glossary/x/`` -> ``glossary/x/index.md``;
    ``glossary/x.html`` -> ``glossary/x.md``)."""
    if term_url.endswith(".html"):
        return term_url[: -len(".html")] + ".md"
    return term_url.rstrip("/") + "/" + TWIN_NAME


def twin_markdown(entry: Entry, glossary: Glossary, urls: TwinUrls) -> str:
    """The Markdown twin of ``entry``'s page.

    Raises:
        QuantityError: for a quantity that no longer evaluates (the glossary was not validated).
    """
    body, numbers = _body(entry, glossary, urls)
    lines = [f"# {text(entry.title)}", "", f"> {text(entry.summary)}", ""]
    page = urls.term(entry.slug)
    about = f"Category: {text(entry.category)}. Page: [{text(page)}]({page})"
    if entry.aliases:
        about += ". Also called: " + ", ".join(text(a) for a in entry.aliases)
    lines += [about + ".", "", body.strip("\n"), ""]
    if entry.related:
        lines += ["## Related terms", ""]
        for slug in entry.related:
            other = glossary.entries[slug]
            lines.append(f"- [{text(other.title)}]({urls.term(slug)}): {text(other.summary)}")
        lines.append("")
    lines += ["## Sources", ""]
    for source in entry.sources:
        note = f": {text(source.note)}" if source.note else ""
        lines.append(f"- [{text(source.title)}](<{_url(source.url)}>){note}")
    lines.append("")
    if numbers:
        lines += [
            "## The numbers on this page",
            "",
            f"Computed by `roofline_core` (data version {data_version()}) from these scenarios:",
            "",
        ]
        lines += [f"- {text(shown)}: {text(words)}" for shown, words in numbers]
        lines.append("")
    return "\n".join(lines)


def _url(url: str) -> str:
    # A validated https address; inside <...> it may not hold spaces, '<', '>' or line breaks.
    return re.sub(r"[\s<>]", lambda m: f"%{ord(m.group(0)):02X}", url)


def _body(entry: Entry, glossary: Glossary, urls: TwinUrls) -> tuple[str, list[tuple[str, str]]]:
    """The entry's body as twin Markdown, and each distinct number with its scenario in words."""
    source = entry.body
    replacements: list[tuple[int, int, str]] = []
    numbers: dict[str, tuple[str, str]] = {}
    for link in find_term_links(source):
        title = glossary.titles.get(link.slug)
        if title is None:
            raise ValueError(f"{entry.path}: link to unknown term [[{link.slug}]]")
        label = (link.label or "").strip() or running_text(title, sentence_start=starts_sentence(source, link.start))
        replacements.append((link.start, link.end, f"[{escape_link_text(label)}]({urls.term(link.slug, link.anchor)})"))
    for ref in find_quantities(source):
        reference = " ".join(ref.reference.split())
        value = evaluate_reference(reference)
        if value.number is not None:  # a name (a chip's) is its own words; a number needs them
            numbers.setdefault(reference, (value.text, scenario_words(reference)))
        replacements.append((ref.start, ref.end, value.text))
    masked = mask_code(source)
    for match in MARKDOWN_LINK.finditer(masked):
        if match.group(1):
            continue  # an image: the validator allows only the site's own, kept as written
        target = _link_target(match.group(3), entry, urls)
        if target is not None:
            start, end = match.span(3)
            replacements.append((start, end, target))
    for fence in find_fences(source, BUILD_FENCES):
        replacements.append(_fence_replacement(source, fence, urls))
    pieces, cursor = [], 0
    for start, end, new in sorted(replacements):
        if start < cursor:
            continue  # inside a build fence already replaced
        pieces += [source[cursor:start], new]
        cursor = end
    pieces.append(source[cursor:])
    return no_raw_html("".join(pieces)), list(numbers.values())


def _link_target(target: str, entry: Entry, urls: TwinUrls) -> str | None:
    """A relative link to another page of the site as that page's address; None to keep it."""
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or not parts.path.endswith(".md"):
        return None
    src_uri = posixpath.normpath(posixpath.join("glossary", parts.path))
    page = urls.page(src_uri)
    if page is None:
        return None
    return page + (f"?{parts.query}" if parts.query else "") + (f"#{parts.fragment}" if parts.fragment else "")


def _fence_replacement(source: str, fence, urls: TwinUrls) -> tuple[int, int, str]:
    """A figure or calculator fence as one line of Markdown: what the page shows there."""
    starts = [0] + [m.end() for m in re.finditer("\n", source)]
    first = fence.line - 1
    last = (fence.body[-1][0] if fence.body else fence.line) + (1 if fence.closed else 0)
    start = starts[first]
    end = starts[last] if last < len(starts) else len(source)
    settings = dict(_setting(line) for _number, line in fence.body if ":" in line)
    if fence.language == "calculator":
        calculator = CALCULATORS.get(settings.get("id", ""))
        name = calculator.title if calculator else settings.get("id", "calculator")
        url = urls.page(f"calculators/{settings.get('id', '')}.md")
        shown = f"[{text(name)}]({url})" if url else text(name)
        new = f"*Interactive calculator on the page: {shown}.*\n"
    else:
        caption = settings.get("caption", "")
        new = f"*Figure on the page{': ' + text(caption) if caption else ''}*\n"
    return start, end, new


def _setting(line: str) -> tuple[str, str]:
    key, _, value = line.partition(":")
    return key.strip(), value.strip()


def llms_txt(*, title: str, summary: str, details: str, sections: Sequence[tuple[str, Iterable[Link]]]) -> str:
    """An ``llms.txt`` (https://llmstxt.org/): ``# title``, ``> summary``, details, then each
    section as ``## name`` and lines of ``- [name](url): summary``."""
    lines = [f"# {text(title)}", "", f"> {text(summary)}", "", text(details), ""]
    for heading, links in sections:
        lines += [f"## {text(heading)}", ""]
        for link in links:
            note = f": {text(link.summary)}" if link.summary else ""
            lines.append(f"- [{text(link.name)}]({_url(link.url)}){note}")
        lines.append("")
    return "\n".join(lines)


def llms_full_txt(*, title: str, summary: str, twins: Sequence[str]) -> str:
    """Every twin in one file, after a title and summary, each separated by a rule."""
    head = f"# {text(title)}\n\n> {text(summary)}\n\nData version {data_version()}.\n"
    # Each twin's own title is a level-1 heading; a rule keeps the entries apart for a reader.
    return head + "".join(f"\n---\n\n{twin.strip()}\n" for twin in twins)


_LINK_OR_IMAGE = re.compile(r"!?\[((?:[^\[\]]|\[[^\[\]]*\])*)\]\([^)]*\)")
_EMPHASIS_OR_CODE = re.compile(r"\*\*|__|`")


def first_sentence(markdown: str) -> str:
    """A page's first sentence of prose, as plain text: its one-line summary where it has none.

    Headings, fences, comments, tables, admonitions and HTML are skipped; links keep their text.

    >>> first_sentence("# Title\\n\\n<!-- x -->\\nThe **roofline** is a [bound](a.md). It caps speed.\\n")
    'The roofline is a bound.'
    """
    paragraph: list[str] = []
    in_fence = False
    for line in markdown.splitlines():
        stripped = line.strip()
        if stripped.startswith(("```", "~~~")):
            in_fence = not in_fence
            continue
        if in_fence:
            continue
        if not stripped or stripped.startswith(("#", "<", "|", "!!!", "???", ">", "-", "*", "{")):
            if paragraph:
                break
            continue
        paragraph.append(stripped)
    prose = _EMPHASIS_OR_CODE.sub("", _LINK_OR_IMAGE.sub(r"\1", " ".join(paragraph)))
    match = re.match(r"(.+?[.!?])(?:\s|$)", prose)
    return match.group(1) if match else prose


def term_links(glossary: Glossary, urls: TwinUrls) -> list[Link]:
    """Every term, A to Z, with its page and summary."""
    return [Link(e.title, urls.term(e.slug), e.summary) for e in glossary.sorted_entries()]


__all__ = [
    "LLMS_FULL_TXT",
    "LLMS_TXT",
    "Link",
    "QuantityError",
    "TwinUrls",
    "llms_full_txt",
    "llms_txt",
    "no_raw_html",
    "term_links",
    "text",
    "twin_markdown",
    "twin_path",
]
