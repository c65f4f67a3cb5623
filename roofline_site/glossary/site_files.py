"""The files the glossary adds to a site: term pages, index, category pages, data, redirects.

Each function returns paths and texts; the build adapter (``hooks/glossary.py``) turns them into
the generator's virtual files. Site URLs come in as a function (``url_of``), so the URL style
(``glossary/x/`` or ``glossary/x.html``) stays the generator's choice.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from roofline_site.glossary import json_schema, render
from roofline_site.glossary.errors import GlossaryError, Problem
from roofline_site.glossary.schema import CATEGORIES
from roofline_site.glossary.validator import Glossary

GLOSSARY_DIR_NAME = "glossary"
INDEX_URI = "glossary/index.md"
FEED_URI = "glossary/feed.xml"
JSON_URI = "glossary.json"
#: The JSON Schema of ``glossary.json``, published beside it (:mod:`.json_schema`).
SCHEMA_URI = "glossary.schema.json"
CATEGORY_URIS = frozenset(render.category_src_uri(c) for c in CATEGORIES)


@dataclass(frozen=True)
class SiteFile:
    """A file the build adds.

    Attributes:
        src_uri: Its path in the docs tree (``glossary/decode.md``).
        content: Its text (Markdown for a page).
        in_nav: Whether the navigation lists it (term and category pages are reached by links).
    """

    src_uri: str
    content: str
    in_nav: bool = True


def term_src_uri(slug: str) -> str:
    return f"{GLOSSARY_DIR_NAME}/{slug}.md"


def refuse_hand_written(src_uris: Iterable[str]) -> None:
    """Stop the build if ``docs/`` holds a file where the glossary puts its own.

    Raises:
        GlossaryError: naming the first such file.
    """
    for src_uri in src_uris:
        if src_uri == JSON_URI or src_uri.startswith(GLOSSARY_DIR_NAME + "/"):
            raise GlossaryError(
                [
                    Problem(
                        f"docs/{src_uri}",
                        1,
                        "a hand-written file where the glossary build puts its pages",
                        "expected glossary entries in glossary/<slug>.md next to mkdocs.yml, not under docs/",
                    )
                ]
            )


def term_pages(glossary: Glossary) -> dict[str, SiteFile]:
    """Each entry's page, by slug.

    Raises:
        GlossaryError: if an entry's body no longer rewrites cleanly (the glossary was not validated).
    """
    pages = {}
    for slug, entry in glossary.entries.items():
        try:
            pages[slug] = SiteFile(term_src_uri(slug), render.term_page_markdown(entry, glossary), in_nav=False)
        except ValueError as exc:
            problem = Problem(entry.path, entry.body_line, str(exc), "expected an entry that passed validation")
            raise GlossaryError([problem]) from None
    return pages


def listing_pages(glossary: Glossary) -> list[SiteFile]:
    """The index (in the navigation) and one page per category (not)."""
    return [SiteFile(INDEX_URI, render.index_markdown(glossary))] + [
        SiteFile(render.category_src_uri(c), render.category_page_markdown(glossary, c), in_nav=False)
        for c in CATEGORIES
    ]


def data_files(
    glossary: Glossary, *, url_of: Callable[[str], str], index_url: str, site_name: str, site_url: str | None
) -> list[SiteFile]:
    """``glossary.json``, its JSON Schema and the RSS feed.

    Args:
        url_of: A term's site URL by slug.
        index_url: The index's site URL.
    """
    return [
        SiteFile(JSON_URI, render.glossary_json(glossary, path_of=url_of, site_url=site_url, schema_path=SCHEMA_URI)),
        SiteFile(
            FEED_URI,
            render.rss_feed(
                glossary,
                site_name=site_name,
                site_url=site_url,
                path_of=url_of,
                index_path=index_url,
                feed_path=FEED_URI,
            ),
        ),
        SiteFile(SCHEMA_URI, json_schema.schema_text(site_url=site_url, path=SCHEMA_URI)),
    ]


def redirect_pages(
    glossary: Glossary,
    *,
    url_of: Callable[[str], str],
    relative_url: Callable[[str, str], str],
    taken: Callable[[str], bool],
    directory_urls: bool,
    site_url: str | None,
    content_security_policy: str,
) -> dict[str, str]:
    """A redirect page for every alias and old slug, by path in the site directory.

    Args:
        url_of: A term's site URL by slug.
        relative_url: ``relative_url(target, from_url)``, as the generator writes links.
        taken: Whether a path in the site is already another file's.
        directory_urls: ``glossary/old/index.html`` (True) or ``glossary/old.html``.
        site_url: The site's address, for the canonical link.
        content_security_policy: The policy for the pages' ``<meta http-equiv>``.

    Raises:
        GlossaryError: if a redirect would replace another file.
    """
    base = (site_url or "").rstrip("/") + "/" if site_url else ""
    pages: dict[str, str] = {}
    for old, slug in glossary.redirects().items():
        path = f"{GLOSSARY_DIR_NAME}/{old}/index.html" if directory_urls else f"{GLOSSARY_DIR_NAME}/{old}.html"
        if taken(path):
            entry = glossary.entries[slug]
            raise GlossaryError(
                [Problem(entry.path, 1, f"redirect '{old}' would replace {path}", "expected a free slug")]
            )
        here = path[: -len("index.html")] if directory_urls else path
        pages[path] = render.redirect_html(
            title=glossary.entries[slug].title,
            target_href=relative_url(url_of(slug), here),
            canonical_url=base + url_of(slug),
            content_security_policy=content_security_policy,
        )
    return pages
