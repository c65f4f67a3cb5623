"""One term's page around its rendered body: sanitised body, header, closing sections, contents.

A term page's Markdown is the entry's body alone (:func:`.render.term_page_markdown`). Once the
generator has rendered it, :func:`body_html` sanitises it by allowlist (figures the build drew are
kept as they are) and puts the header built from front matter (escaped HTML) before it; the
sections after it come from :func:`closing_html`. Links to terms are marked only after that, so
markup the build inserts is trusted and markup a contributor wrote is not.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable

from roofline_site.glossary import render, reproduce
from roofline_site.glossary.contribute import Repository, links_html
from roofline_site.glossary.entry import Entry
from roofline_site.glossary.errors import GlossaryError, Problem
from roofline_site.glossary.sanitize import SanitiseError, sanitise_entry_html
from roofline_site.glossary.validator import Glossary

#: Rendering one entry (Markdown, its figures, sanitising) taking longer than this stops the
#: build, naming the entry (:func:`check_render_time`). Real entries take well under a second.
#: The environment variable overrides it (tests set it to zero to see the message).
RENDER_BUDGET_S = float(os.environ.get("ROOFLINE_ENTRY_RENDER_BUDGET_S", "10"))


def numbers(entry: Entry, glossary: Glossary) -> list[reproduce.Shown]:
    """The numbers the page shows, in order (from the rewrite its Markdown was made from, cached)."""
    return [reproduce.Shown(*n) for n in render.rewrite_body(entry, glossary, marked=True).quantities]


def body_html(
    entry: Entry, glossary: Glossary, rendered: str, *, trusted: list[str], category_href: str, index_href: str
) -> str:
    """The header and the sanitised body of the page.

    Args:
        rendered: The body as the generator rendered it.
        trusted: HTML the build put into the body (figures), which the sanitiser keeps.
        category_href: The entry's category page, relative to the term's page.
        index_href: The glossary index, relative to the term's page.

    Raises:
        GlossaryError: if the body holds build HTML where it may not be (a nested figure).
    """
    token = reproduce.marker_token(entry.body)
    try:
        body = sanitise_entry_html(
            rendered,
            trusted=trusted,
            quantity_markers=reproduce.marker_values(token, len(numbers(entry, glossary))),
        )
    except SanitiseError as exc:
        problem = Problem(
            entry.path, entry.body_line, str(exc), "expected each figure fence at the top level of the body"
        )
        raise GlossaryError([problem]) from None
    header = render.term_page_header_html(
        entry, category_href=category_href, index_href=index_href, draft=glossary.drafts.get(entry.slug, ())
    )
    return header + f'<div class="{render.BODY_CLASS}">\n{reproduce.finish_markers(body, token)}\n</div>\n'


def closing_html(
    entry: Entry,
    glossary: Glossary,
    *,
    index_href: str,
    term_href: Callable[[str], str],
    reproduce_section: str,
    repository: Repository | None,
) -> str:
    """The sections after the body: related terms, sources, reproduce, "Mentioned in" (a marker,
    filled once every page is read), neighbours, and the repository's edit and suggest links."""
    footer = render.term_page_footer_html(
        entry, glossary, index_href=index_href, term_href=term_href, reproduce_section=reproduce_section
    )
    return footer + (links_html(repository, entry_path=entry.path) if repository else "")


def toc_sections(entry: Entry) -> list[tuple[str, str]]:
    """``(anchor, text)`` of the sections the build adds, for the table of contents."""
    return [s for s in render.TERM_PAGE_SECTIONS if s[0] != "related-terms" or entry.related]


def check_render_time(entry: Entry, elapsed_s: float, budget_s: float) -> None:
    """Stop the build if rendering the entry took longer than ``budget_s`` seconds.

    The validator's limits should make it impossible, so it is a bug or a new slow pattern to
    add to them; naming the entry shows where.

    Raises:
        GlossaryError: naming the entry and the time.
    """
    if elapsed_s > budget_s:
        raise GlossaryError(
            [
                Problem(
                    entry.path,
                    entry.body_line,
                    f"rendering the entry took {elapsed_s:.1f} s",
                    f"expected under {budget_s:.0f} s: simplify the body "
                    "(long runs of unclosed brackets or angle brackets are slow to parse)",
                )
            ]
        )


def fence_html() -> list[str]:
    """HTML the fence formatter put into the page being rendered (figures), which the sanitiser keeps."""
    # Only hooks/fences.py starts a fence build, by importing the module that holds it: a project
    # without fences (the glossary's benchmark) need not import the fence machinery (17 ms).
    build = sys.modules.get("roofline_site.fences.build")
    return build.inserted_html() if build is not None else []
