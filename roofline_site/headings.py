"""Headings as the theme prints them: ids that are slugs, titles that are text.

Python-Markdown's ``toc`` extension builds the table of contents from a heading's inner HTML
*before* any sanitiser sees the page, strips tags from it with a regular expression, and keeps
an id given by hand (``{ #... }``) exactly as written; Material prints the titles and the
anchor URLs into the sidebar without escaping them. So a heading in a glossary entry could put
live markup into every reader's sidebar, or an attribute through a quoted id. Two parts close
that, one for each value the theme reads:

* :class:`HeadingIdsExtension`, a Markdown extension that runs between ``attr_list`` (which sets
  hand-given ids) and ``toc`` (which reads them): an id that is not a plain slug
  (:func:`heading_id_allowed`) is dropped, so ``toc`` makes one from the text with :func:`slugify`;
  ``data-toc-label`` is dropped, so the contents always name a heading by its own text.
* :func:`text_html`: a title as escaped text, tags removed by an HTML parser (nh3), not by a
  pattern; :func:`plain_toc` applies it to every item of a page's table of contents, and
  ``hooks/page_text.py`` to every page's title. The theme's own partial
  (``site_assets/overrides/partials/toc-item.html``) escapes again what it prints.

References: Python-Markdown's toc extension
(https://python-markdown.github.io/extensions/toc/) and the HTML standard's definition of an id
(https://html.spec.whatwg.org/multipage/dom.html#the-id-attribute).
"""

from __future__ import annotations

import html
import re
import xml.etree.ElementTree as etree
from collections.abc import Iterable
from typing import Protocol

import nh3
from markdown import Extension
from markdown.extensions.toc import slugify as markdown_slugify
from markdown.treeprocessors import Treeprocessor

from roofline_site.glossary.sanitize import allowed_id

#: What an id in a table of contents may be: an ASCII slug (the build's own sections use term
#: slugs, which may start with a digit). Nothing in it can end an attribute or a URL fragment.
TOC_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,99}\Z")
_HEADING_TAGS = frozenset(f"h{level}" for level in range(1, 7))


def heading_id_allowed(value: str) -> bool:
    """A Markdown heading's id: a slug the entry sanitiser also keeps (a letter first, none of
    the ids the page around a body uses), so a heading has the same id in the body and the
    contents."""
    return bool(TOC_ID.match(value)) and allowed_id(value)


def slugify(value: str, separator: str) -> str:
    """Python-Markdown's slug, made one that :func:`heading_id_allowed` keeps.

    >>> slugify("2026 models", "-")
    'section-2026-models'
    >>> slugify("Arithmetic intensity", "-")
    'arithmetic-intensity'
    >>> slugify("Sources", "-")
    'section-sources'
    """
    slug = re.sub(r"[^A-Za-z0-9_-]", "", markdown_slugify(value, separator))[:90].strip(separator + "_")
    if not heading_id_allowed(slug):
        slug = f"section-{slug}".rstrip("-") if slug else "section"
    return slug


class _HeadingIds(Treeprocessor):
    def run(self, root: etree.Element) -> None:
        for element in root.iter():
            if element.tag not in _HEADING_TAGS:
                continue
            given = element.get("id")
            if given is not None and not heading_id_allowed(given):
                del element.attrib["id"]
            element.attrib.pop("data-toc-label", None)


class HeadingIdsExtension(Extension):
    """Headings keep only slug ids; ``toc`` then makes the others from their text."""

    def extendMarkdown(self, md) -> None:  # noqa: N802 (Python-Markdown's name)
        # attr_list runs at 8 and toc at 5: in between, every hand-given id is in place and
        # none has been read yet.
        md.treeprocessors.register(_HeadingIds(md), "roofline_heading_ids", 6)


def makeExtension(**kwargs) -> HeadingIdsExtension:  # noqa: N802 (Python-Markdown's entry point)
    return HeadingIdsExtension(**kwargs)


def text_html(markup: str) -> str:
    """``markup`` reduced to its text, escaped for HTML: what a title may print as.

    Idempotent, so applying it to a title that is already text changes nothing.

    >>> text_html('Speed <img src=x onerror=alert(1)>of light &amp; more')
    'Speed of light &amp; more'
    >>> text_html('A &lt;meta http-equiv=refresh&gt;')
    'A &lt;meta http-equiv=refresh&gt;'
    >>> text_html(text_html('R&D "quoted"'))
    'R&amp;D &quot;quoted&quot;'
    """
    text = nh3.clean(markup, tags=set(), clean_content_tags={"script", "style"}, strip_comments=True)
    return html.escape(" ".join(html.unescape(text).split()), quote=True)


class TocItem(Protocol):
    title: str
    id: str
    children: list


def plain_toc(items: Iterable[TocItem], *, where: str) -> None:
    """Make every title in a table of contents text (:func:`text_html`), and check each id.

    Raises:
        ValueError: an id is not a slug (:data:`TOC_ID`); ``where`` names the page. The
            extension above makes this impossible for Markdown headings; it guards any other
            code that adds items.
    """
    for item in items:
        if not TOC_ID.match(item.id or ""):
            raise ValueError(
                f"{where}: the heading id {item.id!r} is not a slug; expected letters, digits, '-' and '_'"
            )
        item.title = text_html(item.title or "")
        plain_toc(item.children, where=where)
