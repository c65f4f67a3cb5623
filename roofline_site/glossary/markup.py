"""Find and rewrite the glossary's inline syntax in Markdown, outside code.

Two kinds of inline syntax:

* Term links: ``[[kv-cache]]`` (the term's title as text), ``[[kv-cache|the cache]]`` (custom
  text) and ``[[kv-cache#sizing|text]]`` (an anchor on the term's page). They become ordinary
  relative Markdown links to ``glossary/<slug>.md``, so MkDocs resolves them like any other
  link, on any page.
* Quantities: ``{{ ridge_point accelerator=h100-sxm }}`` becomes the number, computed by
  :mod:`roofline_core.quantities` at build time.

Code (fenced blocks and inline spans) is masked first, so both kinds of syntax can be shown
verbatim in code, as docs/authoring-terms.md does. Every finding carries its 1-based file line.
"""

from __future__ import annotations

import bisect
import posixpath
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache

from roofline_core.quantities import QuantityError, Value, evaluate_reference
from roofline_core.sources import Source
from roofline_site.glossary.errors import Problem

TERM_LINK = re.compile(r"\[\[\s*([^\[\]|#]*?)\s*(#[^\[\]|]*)?\s*(?:\|([^\[\]]*))?\]\]")
QUANTITY = re.compile(r"\{\{(.*?)\}\}")
# An inline Markdown link or image: [text](target "title"). Reference-style links are rare here.
MARKDOWN_LINK = re.compile(r"(!?)\[((?:[^\[\]]|\[[^\[\]]*\])*)\]\(\s*<?([^)\s>]*)>?(?:\s+(?:\"[^\"]*\"|'[^']*'))?\s*\)")
_FENCE_OPEN = re.compile(r"^(\s*)(`{3,}|~{3,})")
_CODE_SPAN = re.compile(r"(`+)(.+?)(?<!`)\1(?!`)", re.DOTALL)


def mask_code(text: str) -> str:
    """``text`` with fenced code blocks and inline code spans blanked out.

    Offsets and line breaks are kept, so positions found in the result are positions in
    ``text``.
    """
    out_lines = []
    fence: str | None = None
    for line in text.splitlines(keepends=True):
        match = _FENCE_OPEN.match(line)
        if fence is None:
            if match:
                fence = match.group(2)
                out_lines.append(_blank(line))
                continue
            out_lines.append(line)
        else:
            stripped = line.strip()
            if stripped.startswith(fence[0] * len(fence)) and set(stripped) <= {fence[0]}:
                fence = None
            out_lines.append(_blank(line))
    masked = "".join(out_lines)
    return _CODE_SPAN.sub(lambda m: _blank(m.group(0)), masked)


def _blank(text: str) -> str:
    return re.sub(r"[^\n]", " ", text)


class LineFinder:
    """Offset -> 1-based line, with the line of the text's start given."""

    def __init__(self, text: str, first_line: int) -> None:
        self._starts = [0] + [m.end() for m in re.finditer("\n", text)]
        self._first = first_line

    def __call__(self, offset: int) -> int:
        return bisect.bisect_right(self._starts, offset) - 1 + self._first


@dataclass(frozen=True)
class TermLink:
    """A ``[[slug]]`` found in Markdown."""

    slug: str
    anchor: str
    label: str | None
    line: int
    start: int
    end: int


@dataclass(frozen=True)
class QuantityRef:
    """A ``{{ name key=value }}`` found in Markdown."""

    reference: str
    line: int
    start: int
    end: int


@dataclass(frozen=True)
class LinkRef:
    """An inline Markdown link ``[text](target)`` found in Markdown."""

    target: str
    line: int


def find_term_links(text: str, first_line: int = 1) -> list[TermLink]:
    masked = mask_code(text)
    line_of = LineFinder(text, first_line)
    return [
        TermLink(m.group(1), (m.group(2) or "")[1:], m.group(3), line_of(m.start()), m.start(), m.end())
        for m in TERM_LINK.finditer(masked)
    ]


def find_quantities(text: str, first_line: int = 1) -> list[QuantityRef]:
    masked = mask_code(text)
    line_of = LineFinder(text, first_line)
    return [
        QuantityRef(text[m.start(1) : m.end(1)].strip(), line_of(m.start()), m.start(), m.end())
        for m in QUANTITY.finditer(masked)
    ]


def find_markdown_links(text: str, first_line: int = 1) -> list[LinkRef]:
    masked = mask_code(text)
    line_of = LineFinder(text, first_line)
    return [LinkRef(m.group(3), line_of(m.start())) for m in MARKDOWN_LINK.finditer(masked) if not m.group(1)]


_LIST_OR_QUOTE_MARKER = re.compile(r"^\s*(?:[-+*>]|\d+[.)])?\s*$")


def starts_sentence(text: str, offset: int) -> bool:
    """Whether ``offset`` in Markdown ``text`` begins a sentence (or a list item, quote, cell)."""
    line_start = text.rfind("\n", 0, offset) + 1
    prefix = text[line_start:offset]
    if prefix.rstrip().endswith((".", "!", "?", "|")):
        return True
    if not _LIST_OR_QUOTE_MARKER.match(prefix):
        return False
    if prefix.strip():
        return True  # first words of a list item or quote
    previous = text[: max(0, line_start - 1)].rstrip(" \t").rsplit("\n", 1)[-1].strip()
    return not previous or previous.endswith((".", "!", "?", ":"))


def running_text(title: str, *, sentence_start: bool) -> str:
    """How ``[[slug]]`` shows a title inside a sentence.

    A trailing parenthetical is dropped ("Speed of light (decode ceiling)" -> "speed of light"),
    and a capital that only marks the start of the title is lowered mid-sentence ("Ridge point"
    -> "ridge point"), while acronyms and names keep theirs ("KV cache", "FlashAttention").
    """
    text = re.sub(r"\s*\([^()]*\)$", "", title) or title
    first = re.split(r"[\s/-]", text, maxsplit=1)[0]
    if not sentence_start and len(first) > 1 and first[0].isupper() and first[1:].islower():
        return text[0].lower() + text[1:]
    return text


def term_href(slug: str, anchor: str, from_src_uri: str) -> str:
    """Relative Markdown link target from the page ``from_src_uri`` to the term's page."""
    target = _term_path_from(slug, posixpath.dirname(from_src_uri) or ".")
    return target + (f"#{anchor}" if anchor else "")


# posixpath.relpath is slow (it makes both paths absolute), and every term page is in the same
# folder and links the same few hundred terms, several times per build.
@lru_cache(maxsize=16384)
def _term_path_from(slug: str, start: str) -> str:
    return posixpath.relpath(f"glossary/{slug}.md", start)


def escape_link_text(text: str) -> str:
    """Text safe inside ``[...]`` of a Markdown link."""
    return re.sub(r"([\[\]\\])", r"\\\1", text)


@dataclass
class Rewritten:
    """Markdown after rewriting, with what the rewrite found.

    Attributes:
        text: The Markdown with term links and quantities replaced.
        problems: Unknown terms and bad quantities, located.
        sources: Sources of the presets behind every quantity, without repeats, in order.
        linked_slugs: Terms linked with ``[[...]]``.
        quantities: Each distinct ``{{ ... }}`` (by its whitespace-normalised reference) and
            the text it became, in order of first appearance; number ``N`` of the ``mark``
            argument of :func:`rewrite` is item ``N`` here.
    """

    text: str
    problems: list[Problem] = field(default_factory=list)
    sources: list[Source] = field(default_factory=list)
    linked_slugs: list[str] = field(default_factory=list)
    quantities: list[tuple[str, str]] = field(default_factory=list)


def rewrite(
    text: str,
    *,
    path: str,
    src_uri: str,
    first_line: int,
    titles: Mapping[str, str],
    suggest: Callable[[str], str | None] = lambda _: None,
    mark: Callable[[int, str], str] | None = None,
) -> Rewritten:
    """Replace ``[[...]]`` term links and ``{{ ... }}`` quantities in ``text``.

    Args:
        text: Markdown.
        path: The file as shown in messages.
        src_uri: The page's path in the site's docs tree (``glossary/x.md``, ``index.md``),
            which relative links start from.
        first_line: File line of ``text``'s first line.
        titles: Title of every term, by slug.
        suggest: Given an unknown slug, the slug it probably meant (or None).
        mark: Given a number's index among the distinct quantities and its text, the Markdown
            to insert instead of the bare text (term pages mark each number, see
            :mod:`roofline_site.glossary.reproduce`).

    Returns:
        A :class:`Rewritten`; when it has problems its text is not meant to be used.
    """
    result = Rewritten(text="")
    replacements: list[tuple[int, int, str]] = []
    seen_sources: dict[tuple[str, str], Source] = {}
    numbers: dict[str, tuple[int, str]] = {}  # normalised reference -> (index, text)
    for link in find_term_links(text, first_line):
        if link.slug not in titles:
            hint = suggest(link.slug)
            expected = (
                f"expected the slug of an entry in glossary/ (did you mean [[{hint}]]?)"
                if hint
                else "expected the slug of an entry in glossary/ (its file name without .md)"
            )
            shown = link.slug or "(empty)"
            result.problems.append(Problem(path, link.line, f"link to unknown term [[{shown}]]", expected))
            continue
        if link.label and link.label.strip():
            label = link.label.strip()
        else:
            label = running_text(titles[link.slug], sentence_start=starts_sentence(text, link.start))
        result.linked_slugs.append(link.slug)
        replacements.append(
            (link.start, link.end, f"[{escape_link_text(label)}]({term_href(link.slug, link.anchor, src_uri)})")
        )
    for ref in find_quantities(text, first_line):
        try:
            value: Value = evaluate_reference(ref.reference)
        except QuantityError as exc:
            what, _, expected = str(exc).partition("; ")
            result.problems.append(
                Problem(
                    path, ref.line, f"in {{{{ {ref.reference} }}}}: {what}", expected or "expected a valid quantity"
                )
            )
            continue
        for source in value.sources:
            seen_sources.setdefault((source.title, source.url), source)
        reference = " ".join(ref.reference.split())
        index, _ = numbers.setdefault(reference, (len(numbers), value.text))
        replacements.append((ref.start, ref.end, mark(index, value.text) if mark else value.text))
    pieces, cursor = [], 0
    for start, end, new in sorted(replacements):
        pieces.append(text[cursor:start])
        pieces.append(new)
        cursor = end
    pieces.append(text[cursor:])
    result.text = "".join(pieces)
    result.sources = list(seen_sources.values())
    result.quantities = [(reference, text) for reference, (_, text) in numbers.items()]
    return result
