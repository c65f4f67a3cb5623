"""Checks on what an entry's body says, as Markdown renders it.

The validator calls :func:`check_entry` once per entry, after the front matter and the safety
checks pass. It refuses, each with the file and line:

* a worked example that cannot run: a ``{{ ... }}`` quantity whose model, batch and context do
  not fit the named devices' memory (weights plus KV cache, as
  :func:`roofline_core.estimates.inference.memory_fit` counts them), unless the reference says
  ``hypothetical=yes`` and its paragraph calls the figure hypothetical;
* a performance figure typed by hand (``80 GB``, ``3.35 TB/s``, ``4.78 ms``) in prose: such a
  number must come from a quantity, so a corrected preset corrects every page;
* syntax the build would publish as raw text: ``[[slug]`` or ``{{ ... }`` with a bracket or
  brace missing;
* an untouched scaffold (its placeholder summary, source or body) and a hand-written heading for
  a section the build adds itself ("Related terms", "Sources", "Mentioned in").

Prose is told from code and quotations by rendering the body with Python-Markdown (the site's
renderer) and walking the HTML it makes; code spans and blocks, block quotes and text between
quotation marks are not prose.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from html.parser import HTMLParser

import markdown

from roofline_core.formatting import format_bytes
from roofline_core.quantities import QuantityError, evaluate_reference
from roofline_site.glossary import composition, scaffold_text
from roofline_site.glossary.entry import TERM_PAGE_SECTIONS, Entry
from roofline_site.glossary.errors import Problem
from roofline_site.glossary.markup import QUANTITY, TERM_LINK, LineFinder, find_quantities, mask_code

# The block syntax entries may use, as mkdocs.yml enables it. Custom fences (figures,
# calculators) are left out: unconfigured, they render as code blocks, which are not prose.
_EXTENSIONS = ("admonition", "attr_list", "md_in_html", "tables", "pymdownx.details", "pymdownx.superfences")

#: A number followed by a unit of performance, size or time. Counts (``8 GPUs``, ``32k tokens``),
#: years and bare ``bytes`` per element are not matched.
LITERAL_FIGURE = re.compile(
    r"(?<![\w.,/])(\d+(?:,\d{3})*(?:\.\d+)?)[\s\u00a0\u202f]*"
    r"("
    r"[kMGTPE]?FLOPs?(?:/s|/byte|/B| per byte| per second)\b|[kMGTPE]FLOPS?\b|[kMGTPE]FLOPs\b"
    r"|[GTP]OPS\b"
    r"|[kKMGTP]i?B/s\b|[kKMGTP]i?B(?![\w/])"
    r"|tok/s\b|tokens?/s\b|tokens? per second\b"
    r"|ms\b|µs\b|μs\b|ns\b|(?:milli|micro|nano)seconds?\b"
    r"|[kMG]Hz\b|k?W(?![\w/])"
    r")"
)
# Quoted words are the source's, not the entry's: a figure may be quoted as a source states it.
_QUOTED = re.compile(r"“[^”]*”|\"[^\"]*\"|«[^»]*»")
# Elements whose text is not prose.
_NOT_PROSE = frozenset({"code", "pre", "kbd", "samp", "blockquote", "q", "script", "style"})
# Elements whose text is one run of prose; their nesting (a paragraph in a list item) splits runs.
_BLOCKS = frozenset(
    {"p", "li", "td", "th", "dt", "dd", "h1", "h2", "h3", "h4", "h5", "h6", "summary", "div", "details", "table"}
)
# Blocks that hold blocks: a list or table is one top-level block, as a paragraph is.
_GROUPS = frozenset({"ul", "ol", "dl"})
_HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
# Python-Markdown's placeholders for stashed HTML (STX ... ETX) are not text a reader sees.
_STASH = re.compile("\x02[^\x03]*\x03")
# Words that say a figure is a hypothetical bound, as a reference marked hypothetical=yes needs.
_HYPOTHETICAL_WORDS = re.compile(r"\bhypothetical", re.IGNORECASE)
# Left over after every well-formed term link and quantity is found: syntax missing a bracket.
# ']]>' closes an HTML/XML CDATA section, not a term link: raw HTML in a body is the sanitiser's
# business, and flagging it here would hide what the sanitiser does with it.
_BROKEN_SYNTAX = re.compile(r"\[\[|\]\](?!>)|\{\{|\}\}")


def check_entry(entry: Entry) -> list[Problem]:
    """Every problem :mod:`prose_checks <roofline_site.glossary.prose_checks>` finds in ``entry``.

    Args:
        entry: An entry whose front matter parsed and whose body passed the safety checks.

    Returns:
        Problems, each with the file line it concerns.
    """
    return [
        *find_scaffold_placeholders(entry),
        *find_broken_syntax(entry.body, path=entry.path, first_line=entry.body_line),
        *find_prose_problems(entry.body, path=entry.path, first_line=entry.body_line),
        *find_contradicted_composition(entry.body, path=entry.path, first_line=entry.body_line),
        *find_unfit_scenarios(entry.body, path=entry.path, first_line=entry.body_line),
    ]


# Untouched scaffold ----------------------------------------------------------------------


def find_scaffold_placeholders(entry: Entry) -> list[Problem]:
    """The scaffold's placeholder summary, source and body paragraphs left in ``entry``."""
    problems = []
    if scaffold_text.is_placeholder_summary(entry.summary):
        problems.append(
            Problem(
                entry.path,
                entry.lines.get("summary", 1),
                "the summary is still the scaffold's placeholder",
                "expected one plain sentence that defines the term and stands alone in a preview",
                draft=True,
            )
        )
    for index, source in enumerate(entry.sources):
        if source.url == scaffold_text.SOURCE_URL or source.title == scaffold_text.SOURCE_TITLE:
            problems.append(
                Problem(
                    entry.path,
                    entry.lines.get(f"sources[{index}]", entry.lines.get("sources", 1)),
                    f"source {index + 1} is still the scaffold's placeholder ({source.url})",
                    "expected the title and https address of a document the entry took its facts from",
                    draft=True,
                )
            )
    # One report for the body: its first placeholder paragraph.
    for offset in scaffold_text.placeholder_lines(entry.body)[:1]:
        problems.append(
            Problem(
                entry.path,
                entry.body_line + offset,
                "the body still holds the scaffold's placeholder text",
                "expected the entry's own words: its definition, why it matters and its numbers",
                draft=True,
            )
        )
    return problems


# Syntax that would be published raw --------------------------------------------------------


def find_broken_syntax(body: str, *, path: str, first_line: int) -> list[Problem]:
    """``[[`` or ``{{`` (or their closers) outside code that no term link or quantity uses."""
    masked = mask_code(body)
    # Blank what the rewrite will replace; what remains would reach the page as typed.
    for pattern in (TERM_LINK, QUANTITY):
        masked = pattern.sub(lambda m: " " * len(m.group(0)), masked)
    line_of = LineFinder(body, first_line)
    problems = []
    for match in _BROKEN_SYNTAX.finditer(masked):
        token = match.group(0)
        if token in ("[[", "]]"):
            what = f"'{token}' of a term link without its {'closing' if token == '[[' else 'opening'} pair"
            expected = "expected [[slug]] or [[slug|text]], two brackets on each side"
        else:
            what = f"'{token}' of a quantity without its {'closing' if token == '{{' else 'opening'} pair"
            expected = "expected {{ name key=value ... }}, two braces on each side"
        problems.append(Problem(path, line_of(match.start()), f"{what} would be published as raw text", expected))
    return problems


# Prose: literal figures and headings the build adds ------------------------------------------


@dataclass(frozen=True)
class _Run:
    """Text of one block of prose, whether it is a heading, and which top-level block (the
    paragraph, list or table, counted from 0) it belongs to."""

    text: str
    heading: bool
    group: int = 0


class _ProseCollector(HTMLParser):
    """Collect runs of prose from rendered HTML, skipping code and quotations."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.runs: list[_Run] = []
        self._buffer: list[str] = []
        self._skip = 0
        self._headings = 0
        self._depth = 0
        self._group = -1

    def _flush(self) -> None:
        text = _STASH.sub(" ", "".join(self._buffer))
        if text.strip():
            self.runs.append(_Run(" ".join(text.split()), self._headings > 0, max(self._group, 0)))
        self._buffer = []

    def handle_starttag(self, tag: str, attrs) -> None:
        if tag in _NOT_PROSE:
            self._skip += 1
        elif tag in _BLOCKS or tag in _GROUPS:
            self._flush()
            self._group += self._depth == 0
            self._depth += 1
            self._headings += tag in _HEADINGS
        elif tag == "br":
            self._buffer.append(" ")

    def handle_endtag(self, tag: str) -> None:
        if tag in _NOT_PROSE:
            self._skip = max(0, self._skip - 1)
        elif tag in _BLOCKS or tag in _GROUPS:
            self._flush()
            self._depth = max(0, self._depth - 1)
            self._headings = max(0, self._headings - (tag in _HEADINGS))

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self._buffer.append(data)

    def close(self) -> None:
        super().close()
        self._flush()


@lru_cache(maxsize=1)
def _markdown() -> markdown.Markdown:
    # One converter, reset between bodies: setting up the extensions cost as much as a body.
    return markdown.Markdown(extensions=list(_EXTENSIONS))


def prose_runs(body: str) -> list[_Run]:
    """The body's prose as Markdown renders it, one run per block, each quantity stood in for
    by its :func:`~roofline_site.glossary.composition.marker` (letters only, no figure)."""
    text, _ = composition.standing_in(body)
    html = _markdown().reset().convert(text)
    collector = _ProseCollector()
    collector.feed(html)
    collector.close()
    return collector.runs


def literal_figures(text: str) -> Iterator[re.Match[str]]:
    """Hand-typed figures with a unit in one run of prose, outside quotation marks."""
    unquoted = _QUOTED.sub(lambda m: " " * len(m.group(0)), text)
    return LITERAL_FIGURE.finditer(unquoted)


def find_prose_problems(body: str, *, path: str, first_line: int) -> list[Problem]:
    """Literal figures in prose, and headings for the sections the build adds."""
    problems = []
    locate = _Locator(body, first_line)
    reserved = {heading.casefold(): heading for _, heading in TERM_PAGE_SECTIONS}
    for run in prose_runs(body):
        if run.heading and run.text.strip().casefold() in reserved:
            heading = reserved[run.text.strip().casefold()]
            problems.append(
                Problem(
                    path,
                    locate.heading(run.text.strip()),
                    f"hand-written '{heading}' heading",
                    "expected no such heading: the build adds the Related terms, Sources and Mentioned in sections"
                    " from the front matter and the links",
                )
            )
            continue
        for match in literal_figures(run.text):
            figure = f"{match.group(1)} {match.group(2)}"
            problems.append(
                Problem(
                    path,
                    locate.figure(match.group(1), match.group(2)),
                    f"'{figure}' is a performance figure typed by hand",
                    "expected a {{ ... }} quantity (docs/authoring-terms.md lists them), so a corrected preset corrects"
                    " every page; quote a source's own figure between quotation marks",
                )
            )
    return problems


# Composition: what a sentence says a number includes ------------------------------------------


def find_contradicted_composition(body: str, *, path: str, first_line: int) -> list[Problem]:
    """Phrases such as "communication left out" or "at most" that a nearby quantity's parts
    contradict (:mod:`roofline_site.glossary.composition`); for entries and ``docs/`` pages."""
    _, refs = composition.standing_in(body, first_line)
    if not refs:
        return []
    return composition.find_composition_problems(prose_runs(body), refs, path=path, marker=composition.MARKER)


class _Locator:
    """File lines of text found in rendered runs, searched in order in the Markdown source."""

    def __init__(self, body: str, first_line: int) -> None:
        masked = mask_code(body)
        for pattern in (QUANTITY,):
            masked = pattern.sub(lambda m: " " * len(m.group(0)), masked)
        self._masked = masked
        self._line_of = LineFinder(body, first_line)
        self._first_line = first_line
        self._cursor = 0

    def _find(self, pattern: re.Pattern[str]) -> int:
        match = pattern.search(self._masked, self._cursor) or pattern.search(self._masked)
        if match is None:
            return self._first_line
        self._cursor = match.end()
        return self._line_of(match.start())

    def figure(self, number: str, unit: str) -> int:
        # Between number and unit the source may hold spaces, a line break or emphasis markers.
        return self._find(re.compile(rf"(?<![\w.,]){re.escape(number)}[\s*_~\u00a0\u202f]*{re.escape(unit)}"))

    def heading(self, text: str) -> int:
        return self._find(re.compile(rf"^[ \t]*#+[ \t]*{re.escape(text)}|^[ \t]*{re.escape(text)}[ \t]*\n[=-]+", re.M))


# Scenarios that cannot run -------------------------------------------------------------------


def find_unfit_scenarios(body: str, *, path: str, first_line: int) -> list[Problem]:
    """Quantities whose weights and KV cache do not fit the named devices, unless marked.

    A reference marked ``hypothetical=yes`` must not fit (else the marker misleads) and its
    paragraph must call the figure hypothetical. Invalid references are left to the rewrite,
    which reports them.
    """
    problems = []
    paragraphs = _paragraph_spans(body)
    for ref in find_quantities(body, first_line):
        try:
            value = evaluate_reference(ref.reference)
        except QuantityError:
            continue
        fit = value.memory
        if fit is None:
            continue
        shown = f"{{{{ {ref.reference} }}}}"
        if not fit.fits and not value.hypothetical:
            problems.append(
                Problem(
                    path,
                    ref.line,
                    f"{shown} needs {format_bytes(fit.weight_bytes)} of weights and {format_bytes(fit.kv_bytes)} of KV"
                    f" cache, more than the {format_bytes(fit.capacity_bytes)} its devices hold once"
                    f" {format_bytes(fit.reserved_bytes)} is kept for the serving runtime",
                    "expected a scenario that fits (more devices=, a smaller model, weight_dtype=fp8, a shorter"
                    " context or batch), or hypothetical=yes in a sentence that calls the figure hypothetical",
                )
            )
        elif fit.fits and value.hypothetical:
            problems.append(
                Problem(
                    path,
                    ref.line,
                    f"{shown} is marked hypothetical=yes but fits its devices' memory"
                    f" ({format_bytes(fit.used_bytes)} of {format_bytes(fit.capacity_bytes)})",
                    "expected hypothetical=yes only on a scenario the devices cannot hold",
                )
            )
        elif value.hypothetical:
            start, end = next(((s, e) for s, e in paragraphs if s <= ref.start < e), (0, len(body)))
            unquoted = QUANTITY.sub(" ", body[start:end])
            if not _HYPOTHETICAL_WORDS.search(unquoted):
                problems.append(
                    Problem(
                        path,
                        ref.line,
                        f"{shown} is marked hypothetical=yes but its paragraph does not say so",
                        "expected the word 'hypothetical' in the paragraph, so a reader knows the devices cannot"
                        " run this scenario",
                    )
                )
    return problems


def _paragraph_spans(body: str) -> list[tuple[int, int]]:
    """``(start, end)`` offsets of the blank-line-separated paragraphs of ``body``."""
    spans, start = [], 0
    for match in re.finditer(r"\n[ \t]*\n", body):
        spans.append((start, match.start()))
        start = match.end()
    spans.append((start, len(body)))
    return spans
