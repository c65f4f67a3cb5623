"""A term's "Mentioned in" section, and the terms no other entry links to.

Both read the :class:`~roofline_site.glossary.links.LinkGraph` once every page has been read.
"Mentioned in" shows the :data:`SHOWN` closest pages, then "and N more" linking the full list
(folded under it, A to Z), so a term that half the site uses still ends in one screen.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping

from roofline_site.glossary.entry import TERM_PAGE_SECTIONS
from roofline_site.glossary.links import LinkGraph, Mention
from roofline_site.glossary.render import heading_html
from roofline_site.glossary.validator import Glossary

#: How many pages "Mentioned in" lists before "and N more".
SHOWN = 10
MENTIONED_IN_ID = TERM_PAGE_SECTIONS[2][0]
#: The full list's anchor, which "and N more" links to.
ALL_ID = f"{MENTIONED_IN_ID}-all"


def closest(slug: str, mentions: list[Mention], glossary: Glossary, *, term_of: Mapping[str, str]) -> list[Mention]:
    """``mentions`` of term ``slug``, closest first.

    Closest means, in this order: an entry related to the term (either entry's ``related``
    names the other: its author said a reader of one needs the other); a page that links to the
    term more often (it is about the term, not passing by); an entry of the same category; a
    page whose first link comes earlier in its text (it needs the term to start); then by title.

    Args:
        slug: The term.
        mentions: Its mentions (:meth:`LinkGraph.mentions`).
        glossary: Every term, for ``related`` and categories.
        term_of: Term slug by source path of each term page (``glossary/decode.md``).
    """
    entry = glossary.entries[slug]

    def key(mention: Mention) -> tuple:
        other = glossary.entries.get(term_of.get(mention.page.src_uri, ""))
        related = other is not None and (other.slug in entry.related or slug in other.related)
        same_category = other is not None and other.category == entry.category
        return (not related, -mention.count, not same_category, mention.first, mention.page.title.casefold())

    return sorted(mentions, key=key)


def section_html(term_title: str, ranked: list[tuple[str, str]], *, everything: list[tuple[str, str]]) -> str:
    """The "Mentioned in" section; nothing when no page links here (an empty section would only
    say so).

    Args:
        term_title: The term's title, for the full list's label.
        ranked: ``(title, relative href)`` per page, closest first; the first :data:`SHOWN` are listed.
        everything: The same pages A to Z, the full list (used when there are more than :data:`SHOWN`).
    """
    if not ranked:
        return ""
    section = heading_html(2, MENTIONED_IN_ID, TERM_PAGE_SECTIONS[2][1]) + _list(ranked[:SHOWN], "glossary-mentions")
    more = len(ranked) - SHOWN
    if more <= 0:
        return section
    # A same-page link: browsers that open a <details> on fragment navigation (Chromium) show
    # the list at once; others scroll to its summary, one click from it.
    return (
        section
        + f'<p class="glossary-mentions__more"><a href="#{ALL_ID}">and {more} more</a></p>'
        + f'<details class="glossary-mentions__all" id="{ALL_ID}">'
        + f"<summary>All {len(everything)} pages that mention {html.escape(term_title)}, A to Z</summary>"
        + _list(everything, "glossary-mentions glossary-mentions--all")
        + "</details>"
    )


def fill(
    slug: str, graph: LinkGraph, glossary: Glossary, *, term_of: Mapping[str, str], href: Callable[[str], str]
) -> str:
    """The "Mentioned in" section of term ``slug`` from ``graph``.

    Args:
        href: A page's site URL made relative to the term's page.
    """
    mentions = [m for m in graph.mentions(slug) if m.page.url]
    ranked = closest(slug, mentions, glossary, term_of=term_of)
    return section_html(
        glossary.entries[slug].title,
        [(m.page.title, href(m.page.url)) for m in ranked],
        everything=[(m.page.title, href(m.page.url)) for m in mentions],
    )


def orphans(glossary: Glossary, graph: LinkGraph, *, term_of: Mapping[str, str]) -> list[str]:
    """The terms that no other entry's text links to, by slug, A to Z.

    Related, index and neighbour links do not count (the graph holds mentions only), nor do
    hand-written pages: a reader meets a term in another entry's prose.
    """
    return sorted(slug for slug in glossary.entries if not any(m.page.src_uri in term_of for m in graph.mentions(slug)))


def orphan_report(glossary: Glossary, slugs: list[str]) -> str | None:
    """One line naming every orphan's file; None when there is none."""
    if not slugs:
        return None
    files = ", ".join(glossary.entries[slug].path for slug in slugs)
    count = f"{len(slugs)} term{'s are' if len(slugs) > 1 else ' is'}"
    return (
        f"glossary: {count} linked from no other entry's text: {files}; "
        "expected a [[slug]] link to each in another entry, where its reader needs the term"
    )


def _list(pages: list[tuple[str, str]], css_class: str) -> str:
    items = "".join(f'<li><a href="{html.escape(href)}">{html.escape(title)}</a></li>' for title, href in pages)
    return f'<ul class="{css_class}">{items}</ul>'
