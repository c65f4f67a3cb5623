"""Turn a validated :class:`~roofline_site.glossary.validator.Glossary` into site content.

Every function here returns text (Markdown, HTML, JSON or XML) and takes the URLs it needs as
arguments, so MkDocs is not needed to test it. The index and a term page's body are Markdown
with relative ``.md`` links, which MkDocs resolves and checks like any hand-written link; the
parts of a term page built from front matter are HTML. Front-matter values are text
everywhere: escaped for HTML, for Markdown (:func:`markdown_text`), for XML and for JSON.
"""

from __future__ import annotations

import datetime as dt
import email.utils
import html
import json
import posixpath
import re
from collections.abc import Callable
from functools import lru_cache, partial
from itertools import groupby

import yaml

from roofline_core.version import data_version
from roofline_site.glossary import reproduce
from roofline_site.glossary.entry import TERM_PAGE_SECTIONS, Entry
from roofline_site.glossary.errors import Problem
from roofline_site.glossary.json_schema import SCHEMA_VERSION
from roofline_site.glossary.markup import Rewritten, rewrite
from roofline_site.glossary.schema import CATEGORIES
from roofline_site.glossary.validator import Glossary

#: Replaced, once every page has been read, by the list of pages linking to the term.
MENTIONED_IN_MARKER = "<!-- glossary:mentioned-in -->"
MENTIONED_IN_ID = TERM_PAGE_SECTIONS[2][0]
#: Class of the element holding an entry's sanitised body on its page.
BODY_CLASS = "glossary-entry__body"
#: Term pages rank above pages that merely mention the term in search.
SEARCH_BOOST = 2
#: Folder of the category pages under ``glossary/``: ``glossary/category/<name>/``. Its name is a
#: reserved slug, so no entry's page can collide with it.
CATEGORY_DIR = "category"


def category_src_uri(category: str) -> str:
    """Where the page listing ``category``'s terms lives in the docs tree."""
    return f"glossary/{CATEGORY_DIR}/{category}.md"


def category_title(category: str) -> str:
    """How a category is named in headings and tags (``attention`` -> ``Attention``)."""
    return category.capitalize()


def _front_matter(**fields: object) -> str:
    # libyaml's emitter where PyYAML has it (a tenth of the time per term page); same YAML.
    dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
    text = yaml.dump(fields, Dumper=dumper, sort_keys=False, allow_unicode=True, width=10_000)
    return "---\n" + text + "---\n\n"


def _date(value: dt.date) -> str:
    return f"{value.day} {value:%B %Y}"


def markdown_text(text: str) -> str:
    """``text`` as Markdown that shows it literally, whatever it holds.

    HTML special characters are escaped, and Markdown's and ``attr_list``'s punctuation becomes
    numeric character references, which Python-Markdown leaves alone: no front-matter value
    can open a link, an emphasis, an attribute list or a tag.
    """
    # One pass, character by character: escaping in two passes would turn the '#' of the first
    # pass's references into a reference of its own, and readers would see "&#x27;".
    return "".join(_MARKDOWN_REFERENCES.get(char, char) for char in text)


# HTML's special characters, Markdown punctuation
# (https://daringfireball.net/projects/markdown/syntax#backslash) and attr_list braces.
_MARKDOWN_REFERENCES = {
    **{char: f"&#{ord(char)};" for char in "\\`*_{}[]()#+-.!|~:"},
    **{char: html.escape(char, quote=True) for char in "&<>\"'"},
}


def rewrite_body(entry: Entry, glossary: Glossary, *, marked: bool = False) -> Rewritten:
    """The entry's body with ``[[...]]`` links and ``{{ ... }}`` quantities rewritten.

    Args:
        marked: Put each number in a marker the sanitiser keeps (:mod:`.reproduce`), keyed by
            ``reproduce.marker_token(entry.body)``; otherwise the bare text.

    Raises:
        ValueError: if the body no longer rewrites cleanly (the glossary was not validated).
    """
    if glossary.entries.get(entry.slug) is entry:
        return _rewritten_entry(entry.slug, glossary, marked)
    return _rewritten(entry, glossary, marked)


# A term page asks for its entry's rewritten body three times (its Markdown, its numbers, its
# footer); a glossary is read-only (and hashed by identity), so each answer is worked out once.
# The Rewritten returned is shared: callers read it.
@lru_cache(maxsize=4096)
def _rewritten_entry(slug: str, glossary: Glossary, marked: bool) -> Rewritten:
    return _rewritten(glossary.entries[slug], glossary, marked)


def _rewritten(entry: Entry, glossary: Glossary, marked: bool) -> Rewritten:
    rewritten = rewrite(
        entry.body,
        path=entry.path,
        src_uri=f"glossary/{entry.slug}.md",
        first_line=entry.body_line,
        titles=glossary.titles,
        mark=partial(reproduce.marker, reproduce.marker_token(entry.body)) if marked else None,
    )
    if rewritten.problems:
        raise ValueError("; ".join(str(p) for p in rewritten.problems))
    return rewritten


def term_page_markdown(entry: Entry, glossary: Glossary) -> str:
    """The Markdown of ``glossary/<slug>/``: the page's metadata and the entry's body, alone.

    The body is all a contributor writes into the page, so it is rendered on its own and
    sanitised (:mod:`roofline_site.glossary.sanitize`); the header and the sections after it
    (:func:`term_page_header_html`, :func:`term_page_footer_html`) are built as escaped HTML
    and put around it afterwards, so nothing in the body can change how they are read. Each
    number carries the marker that becomes its wrapper once sanitised (:mod:`.reproduce`).

    Raises:
        ValueError: if the body no longer rewrites cleanly (the glossary was not validated).
    """
    rewritten = rewrite_body(entry, glossary, marked=True)
    return (
        _front_matter(title=entry.title, description=entry.summary, search={"boost": SEARCH_BOOST})
        + rewritten.text.strip("\n")
        + "\n"
    )


def _text(text: str) -> str:
    """``text`` escaped as the content of an HTML element."""
    return html.escape(text, quote=False)


def heading_html(level: int, anchor: str, text: str) -> str:
    anchor = html.escape(anchor, quote=True)
    return f'<h{level} id="{anchor}">{_text(text)}<a class="headerlink" href="#{anchor}" title="Permanent link">&para;</a></h{level}>\n'


def term_page_header_html(
    entry: Entry, *, category_href: str, index_href: str = "../", draft: tuple[Problem, ...] = ()
) -> str:
    """The term page above the body: title, breadcrumb, category and dates, summary, aliases.

    Args:
        entry: The term.
        category_href: URL of the page of the entry's category, relative to the term's page.
        index_href: URL of the glossary index, relative to the term's page.
        draft: The scaffold placeholders the entry still holds, if it is previewed as a draft
            (``mkdocs serve`` only): a banner under the title names each one.
    """
    e, t = html.escape, _text
    breadcrumb = (
        # Kept out of the search index: a result's excerpt should be the summary, not the path.
        '<nav class="glossary-breadcrumb" aria-label="Breadcrumb" data-search-exclude>'
        f'<a href="{e(index_href)}">Glossary</a> › <a href="{e(category_href)}">{t(category_title(entry.category))}</a>'
        f' › <span aria-current="page">{t(entry.title)}</span></nav>\n'
    )
    dates = f"Added {_date(entry.added)}"
    if entry.updated and entry.updated != entry.added:
        dates += f" · updated {_date(entry.updated)}"
    category = entry.category
    # After the title, not before it: the search index makes a page's text from its first
    # heading's section, which must be the term (the breadcrumb is excluded from it anyway).
    parts = [
        heading_html(1, entry.slug, entry.title),
        draft_banner_html(draft) if draft else "",
        breadcrumb,
        f'<p class="glossary-entry__meta" data-search-exclude><a class="glossary-tag glossary-tag--{e(category)}" href="{e(category_href)}"'
        f' title="Category: {e(CATEGORIES.get(category, category))}">{t(category)}</a> {t(dates)}</p>\n',
        f'<p class="glossary-entry__summary">{t(entry.summary)}</p>\n',
    ]
    if entry.aliases:
        parts.append(
            '<p class="glossary-entry__aliases">Also called: '
            + ", ".join(f"<em>{t(a)}</em>" for a in entry.aliases)
            + ".</p>\n"
        )
    return "".join(parts)


def draft_banner_html(placeholders: tuple[Problem, ...]) -> str:
    """The banner of an entry previewed as a draft: what is left to replace, by file and line.

    >>> from roofline_site.glossary.errors import Problem
    >>> print(draft_banner_html((Problem("glossary/x.md", 4, "the summary is a <placeholder>", "a sentence"),)))
    <div class="admonition warning glossary-draft" role="note" data-search-exclude><p class="admonition-title">Draft: not published until its placeholders are replaced</p>
    <p>Only <code>scripts/serve</code> shows this page. <code>mkdocs build</code> refuses the entry while it holds any of these:</p>
    <ul><li><code>glossary/x.md:4</code>: the summary is a &lt;placeholder&gt;; a sentence</li></ul></div>
    <BLANKLINE>
    """
    t = _text
    items = "".join(f"<li><code>{t(p.path)}:{p.line}</code>: {t(p.what)}; {t(p.expected)}</li>" for p in placeholders)
    return (
        '<div class="admonition warning glossary-draft" role="note" data-search-exclude>'
        '<p class="admonition-title">Draft: not published until its placeholders are replaced</p>\n'
        "<p>Only <code>scripts/serve</code> shows this page. <code>mkdocs build</code> refuses the entry"
        " while it holds any of these:</p>\n"
        f"<ul>{items}</ul></div>\n"
    )


def term_page_footer_html(
    entry: Entry,
    glossary: Glossary,
    *,
    index_href: str,
    term_href: Callable[[str], str],
    reproduce_section: str = "",
) -> str:
    """The term page below the body: related terms, sources, "Mentioned in", back link.

    Every front-matter value is escaped text; source addresses are attributes only.

    Args:
        entry: The term.
        glossary: Every term (for related terms' titles and summaries).
        index_href: URL of the glossary index relative to the term's page.
        term_href: URL of another term's page (by slug) relative to this one.
        reproduce_section: "Reproduce the numbers on this page" (:func:`.reproduce.section_html`),
            put after the presets' sources.
    """
    e, t = html.escape, _text
    parts = []
    if entry.related:
        # Out of the search index: each summary is indexed on its own term's page already, and
        # eighty-odd copies made the index every page downloads a sixth larger.
        parts.append(heading_html(2, *TERM_PAGE_SECTIONS[0]) + "<ul data-search-exclude>\n")
        for slug in entry.related:
            other = glossary.entries[slug]
            parts.append(
                f'<li><a data-glossary-role="related" href="{e(term_href(slug))}">{t(other.title)}</a>: {t(other.summary)}</li>\n'
            )
        parts.append("</ul>\n")
    # Citations stay out of the search index (a sixth of it, downloaded by every page): a search
    # for a paper still finds the terms whose prose names it.
    parts.append(heading_html(2, *TERM_PAGE_SECTIONS[1]) + "<ul data-search-exclude>\n")
    for source in entry.sources:
        note = f": {t(source.note)}" if source.note else ""
        parts.append(f'<li><a href="{e(source.url)}">{t(source.title)}</a>{note}</li>\n')
    parts.append("</ul>\n")
    # The rewrite the page was made from (worked out once): its presets' sources.
    rewritten = rewrite_body(entry, glossary, marked=True)
    if rewritten.sources:
        parts.append(
            "<p>The numbers on this page are computed at build time by <code>roofline_core</code> from these presets' sources:</p>\n<ul data-search-exclude>\n"
        )
        parts += [f'<li><a href="{e(s.url)}">{t(s.title)}</a></li>\n' for s in rewritten.sources]
        parts.append("</ul>\n")
    parts.append(reproduce_section)
    # Filled (or dropped, when no page links here) once every page is rendered: mentions_html.
    parts.append(f"{MENTIONED_IN_MARKER}\n")
    parts.append(_neighbours_html(entry, glossary, term_href=term_href))
    parts.append(
        f'<p data-search-exclude><a class="glossary-back" data-glossary-role="back" href="{e(index_href)}">← Back to glossary</a></p>\n'
    )
    return "".join(parts)


def _neighbours_html(entry: Entry, glossary: Glossary, *, term_href: Callable[[str], str]) -> str:
    """Links to the terms before and after this one, A to Z (the order of the index)."""
    before, after = glossary.neighbours(entry.slug)
    links = []
    if before is not None:
        links.append(
            f'<a data-glossary-role="previous" rel="prev" href="{html.escape(term_href(before.slug))}">← {_text(before.title)}</a>'
        )
    if after is not None:
        links.append(
            f'<a data-glossary-role="next" rel="next" href="{html.escape(term_href(after.slug))}">{_text(after.title)} →</a>'
        )
    return f'<nav class="glossary-neighbours" aria-label="Previous and next term" data-search-exclude>{"".join(links)}</nav>\n'


def index_markdown(glossary: Glossary, *, feed_href: str = "feed.xml", json_href: str = "../glossary.json") -> str:
    """The Markdown of ``glossary/``: a filter box and every term once, by category.

    A to Z is a view of the same list, not a second copy: the script regroups the items by the
    letters given here (``data-glossary-az``), so the order is this module's, not the browser's.
    Without JavaScript the filter box stays hidden and the lists are plain lists.
    """
    entries = glossary.sorted_entries()
    letters = [
        [letter, [e.slug for e in members]] for letter, members in groupby(entries, key=lambda e: _initial(e.title))
    ]
    parts = [
        _front_matter(
            title="Glossary",
            description=f"All {len(entries)} terms of LLM-inference performance, by category or A to Z.",
        ),
        "# Glossary\n\n",
        f"{len(entries)} terms, each with a definition, why it matters, numbers computed by `roofline_core`, and sources. "
        f"New and updated terms: [RSS feed]({feed_href}). Every term as data: [glossary.json]({json_href}).\n\n",
        f'<div class="glossary-filter" data-glossary-filter data-glossary-az="{html.escape(json.dumps(letters))}" hidden>\n'
        '<label class="glossary-filter__label" for="glossary-filter-input">Filter terms</label>\n'
        '<input class="glossary-filter__input" id="glossary-filter-input" type="search" autocomplete="off" spellcheck="false" placeholder="Type to narrow the list, e.g. cache">\n'
        '<div class="glossary-filter__views" role="group" aria-label="Order of the terms">'
        '<button type="button" class="glossary-filter__view" data-glossary-view="category" aria-pressed="true">By category</button>'
        '<button type="button" class="glossary-filter__view" data-glossary-view="a-z" aria-pressed="false">A–Z</button>'
        "</div>\n"
        '<p class="glossary-filter__status" aria-live="polite"></p>\n'
        '<p class="glossary-filter__empty" hidden>Try one word of the term, such as <em>cache</em> or <em>bandwidth</em>; '
        '<button type="button" class="glossary-filter__action" data-glossary-clear>clear the filter</button> or '
        '<button type="button" class="glossary-filter__action" data-glossary-search-site>search the whole site</button>.</p>\n'
        "</div>\n\n",
        '<div class="glossary-listing" data-glossary-listing markdown>\n\n',
    ]
    for category, description in CATEGORIES.items():
        members = [e for e in entries if e.category == category]
        if not members:
            continue
        heading = f"[{category_title(category)}]({posixpath.relpath(category_src_uri(category), 'glossary')})"
        parts.append(_group(f"{heading} {{#{category}}}", description, members))
    parts.append("</div>\n")
    return "".join(parts)


def _initial(title: str) -> str:
    first = title[:1].upper()
    return first if first.isalpha() else "#"


def category_page_markdown(glossary: Glossary, category: str) -> str:
    """The Markdown of ``glossary/category/<category>/``: what belongs there and its terms A-Z.

    Args:
        glossary: Every term.
        category: One of :data:`~roofline_site.glossary.schema.CATEGORIES`.
    """
    members = [e for e in glossary.sorted_entries() if e.category == category]
    description = CATEGORIES[category]
    title = category_title(category)
    here = category_src_uri(category)
    index = posixpath.relpath("glossary/index.md", posixpath.dirname(here))
    others = " · ".join(
        f"[{category_title(c)}]({posixpath.relpath(category_src_uri(c), posixpath.dirname(here))})"
        for c in CATEGORIES
        if c != category
    )
    count = f"{len(members)} term" + ("" if len(members) == 1 else "s")
    return "".join(
        [
            _front_matter(title=f"{title}: glossary category", description=f"{count}. {description}"),
            f"# {title}\n\n",
            f"{markdown_text(description)} {count}; every category is on [the glossary index]({index}).\n\n",
            _group(
                "Terms {#terms}",
                None,
                members,
                href_of=lambda slug: posixpath.relpath(f"glossary/{slug}.md", posixpath.dirname(here)),
            ),
            f"Other categories: {others}\n{{: .glossary-group__about }}\n",
        ]
    )


def _group(
    heading: str, description: str | None, members: list[Entry], *, href_of: Callable[[str], str] = lambda s: f"{s}.md"
) -> str:
    # Summaries and aliases stay out of the search index here: the index and the category pages
    # would add two more copies of what each term's page has indexed.
    lines = ['<section class="glossary-group" markdown>\n\n', f"### {heading}\n\n"]
    if description:
        lines.append(f"{description}\n{{: .glossary-group__about }}\n\n")
    for e in members:
        aliases = (
            f' <span class="glossary-index__aliases" data-search-exclude>Also: {markdown_text(", ".join(e.aliases))}</span>'
            if e.aliases
            else ""
        )
        lines.append(
            f'- [{markdown_text(e.title)}]({href_of(e.slug)}){{ data-glossary-role="index" }}'
            f' <span class="glossary-index__summary" data-search-exclude>{markdown_text(e.summary)}</span>{aliases}\n'
        )
    lines.append("\n</section>\n\n")
    return "".join(lines)


def glossary_json(
    glossary: Glossary, *, path_of: Callable[[str], str], site_url: str | None, schema_path: str | None = None
) -> str:
    """``glossary.json``: every term with slug, title, category, summary, aliases and URLs.

    Args:
        path_of: Site-relative URL of a term's page (``glossary/kv-cache/``).
        site_url: The site's address; when given, ``url`` is absolute, else it equals ``path``.
        schema_path: Site-relative URL of its JSON Schema, named in ``$schema`` when given.
    """
    base = (site_url or "").rstrip("/") + "/" if site_url else ""
    terms = [
        {
            "slug": e.slug,
            "title": e.title,
            "category": e.category,
            "summary": e.summary,
            "aliases": list(e.aliases),
            "url": base + path_of(e.slug),
            "path": path_of(e.slug),
            "added": e.added.isoformat(),
            "updated": e.last_changed.isoformat(),
        }
        for e in glossary.sorted_entries()
    ]
    # ``version`` is the file's format (its JSON Schema's version), which changes only when a
    # field does; ``data_version`` is that of the numbers the pages show (roofline_core.version).
    document: dict[str, object] = {}
    if schema_path is not None:
        document["$schema"] = base + schema_path if base else "/" + schema_path
    document |= {"version": SCHEMA_VERSION, "data_version": data_version(), "categories": CATEGORIES, "terms": terms}
    return json.dumps(document, ensure_ascii=False, indent=1) + "\n"


def rss_feed(
    glossary: Glossary,
    *,
    site_name: str,
    site_url: str | None,
    path_of: Callable[[str], str],
    index_path: str,
    feed_path: str,
) -> str:
    """RSS 2.0 feed of new and updated terms, newest first.

    Dates are the entries' own (``added``/``updated``), so the feed changes only when content
    does; ``lastBuildDate`` is the newest of them, not the clock.
    """
    base = (site_url or "").rstrip("/") + "/" if site_url else ""
    entries = sorted(glossary.entries.values(), key=lambda e: (e.last_changed, e.title), reverse=True)

    def esc(text: str) -> str:
        return html.escape(_XML_INVALID.sub("", text), quote=False)

    newest = max((e.last_changed for e in entries), default=dt.date(1970, 1, 1))
    items = []
    for e in entries:
        url = base + path_of(e.slug)
        status = "updated" if e.updated and e.updated != e.added else "new"
        items.append(
            "    <item>\n"
            f"      <title>{esc(e.title)}{' (updated)' if status == 'updated' else ''}</title>\n"
            f"      <link>{esc(url)}</link>\n"
            f'      <guid isPermaLink="false">{esc(url)}#{e.last_changed.isoformat()}</guid>\n'
            f"      <pubDate>{_rfc822(e.last_changed)}</pubDate>\n"
            f"      <category>{esc(e.category)}</category>\n"
            f"      <description>{esc(e.summary)}</description>\n"
            "    </item>\n"
        )
    self_link = (
        f'    <atom:link href="{html.escape(base + feed_path)}" rel="self" type="application/rss+xml"/>\n'
        if base
        else ""
    )
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">\n'
        "  <channel>\n"
        f"    <title>{esc(site_name)}: new and updated terms</title>\n"
        f"    <link>{esc(base + index_path)}</link>\n"
        f"    <description>New and updated entries of the {esc(site_name)} glossary.</description>\n"
        "    <language>en</language>\n"
        f"    <lastBuildDate>{_rfc822(newest)}</lastBuildDate>\n"
        f"{self_link}" + "".join(items) + "  </channel>\n</rss>\n"
    )


# Characters XML 1.0 does not allow in a document (https://www.w3.org/TR/xml/#charsets): the
# validator refuses them in entries; dropping them here keeps the feed well-formed regardless.
_XML_INVALID = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _rfc822(day: dt.date) -> str:
    return email.utils.format_datetime(dt.datetime(day.year, day.month, day.day, tzinfo=dt.UTC))


def redirect_html(*, title: str, target_href: str, canonical_url: str, content_security_policy: str = "") -> str:
    """A page that forwards an old or alias URL to the term's page.

    It uses ``<meta http-equiv="refresh">`` and a plain link, not script, so it works under a
    strict Content-Security-Policy and without JavaScript.

    Args:
        content_security_policy: The policy for a ``<meta http-equiv>`` tag (none if empty).
    """
    href, name, canonical = html.escape(target_href), html.escape(title), html.escape(canonical_url)
    policy = (
        f'<meta http-equiv="Content-Security-Policy" content="{html.escape(content_security_policy)}">\n'
        if content_security_policy
        else ""
    )
    return (
        "<!doctype html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"{policy}"
        f"<title>{name}</title>\n"
        '<meta name="robots" content="noindex">\n'
        f'<link rel="canonical" href="{canonical}">\n'
        f'<meta http-equiv="refresh" content="0; url={href}">\n'
        "</head>\n<body>\n"
        f'<p>This address now leads to <a href="{href}">{name}</a>.</p>\n'
        "</body>\n</html>\n"
    )
