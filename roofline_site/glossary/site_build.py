"""What one site build remembers about the glossary between its steps.

The generator reads every page first and lays them out after (MkDocs: ``on_page_content`` for all,
then ``on_page_context`` for each), so the link graph is whole before any "Mentioned in" is
filled. :class:`GlossaryBuild` holds that memory; it knows pages by source path, site URL and
title only, so tests drive it without MkDocs.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from roofline_core.version import data_version
from roofline_site.background_writes import PendingWrites
from roofline_site.glossary import doc_pages, mentions, number_parts, reproduce, site_files, term_page
from roofline_site.glossary.check_cache import CACHE_DIR_NAME as CHECK_CACHE_DIR
from roofline_site.glossary.check_cache import CheckCache
from roofline_site.glossary.contribute import Repository
from roofline_site.glossary.links import LinkGraph, PageRef, annotate_term_links, normalise_url
from roofline_site.glossary.load_cache import CACHE_DIR_NAME as LOAD_CACHE_DIR
from roofline_site.glossary.load_cache import LoadCache
from roofline_site.glossary.render import MENTIONED_IN_MARKER, category_src_uri
from roofline_site.glossary.site_files import GLOSSARY_DIR_NAME, INDEX_URI, term_src_uri
from roofline_site.glossary.validator import Glossary, load_glossary

#: ``extra.glossary_orphans``: how the orphan report is logged. "info" while entries are being
#: linked (a warning fails ``mkdocs build --strict``); "warning" makes a new orphan fail it.
# The hook's logger: MkDocs shows its records with the build's own.
log = logging.getLogger("mkdocs.hooks.glossary")
ORPHAN_LEVELS = {"info": logging.INFO, "warning": logging.WARNING}


#: The glossary the current build loaded (:meth:`GlossaryBuild.load`), for the build's other
#: adapters (``hooks/machine_readable.py``) to read rather than load it twice.
_loaded: GlossaryBuild | None = None


def loaded() -> GlossaryBuild:
    """The glossary of the build under way.

    Raises:
        LookupError: if no build has loaded one yet.
    """
    if _loaded is None:
        raise LookupError("no glossary loaded yet; expected hooks/glossary.py before this hook in mkdocs.yml")
    return _loaded


class SettingsError(ValueError):
    """A glossary setting of the site's configuration (``extra``) is not one the build knows."""


@dataclass
class GlossaryBuild:
    """The glossary of one build and what its steps found.

    Attributes:
        glossary: Every entry, validated.
        project_root: The folder holding the generator's configuration and ``glossary/``.
        repository: Where "Edit this page" and "Suggest a term" lead (none without the setting).
        orphan_level: The logging level of the orphan report (:data:`ORPHAN_LEVELS`).
    """

    glossary: Glossary
    project_root: Path
    repository: Repository | None = None
    orphan_level: int = logging.INFO
    term_of: dict[str, str] = field(default_factory=dict)  # src_uri of a term page -> slug
    term_urls: dict[str, str] = field(default_factory=dict)  # normalised site URL -> slug
    graph: LinkGraph = field(default_factory=LinkGraph)
    numbers: dict[str, list[reproduce.Shown]] = field(default_factory=dict)  # docs page -> its numbers
    closings: dict[str, str] = field(default_factory=dict)  # src_uri -> sections put in after search read it
    scripts: dict[str, str] = field(default_factory=dict)  # site path -> a page's numbers script
    writes: list[PendingWrites] = field(default_factory=list)  # files a second process is writing
    render_started: dict[str, float] = field(default_factory=dict)  # src_uri -> perf_counter()

    @classmethod
    def load(
        cls, project_root: Path, *, extra: Mapping[str, object], config_path: str, drafts: bool = False
    ) -> GlossaryBuild:
        """Read the glossary settings and read and validate ``glossary/`` under ``project_root``.

        Args:
            extra: The site configuration's ``extra``: ``repository`` and ``repository_branch``
                (:class:`.Repository`), ``glossary_orphans`` (:data:`ORPHAN_LEVELS`).
            config_path: The configuration file, to name in a settings error.
            drafts: Preview an entry whose only problems are scaffold placeholders, with a
                draft banner (``mkdocs serve`` only: the published build refuses it).

        Raises:
            SettingsError: if a setting is not one the build knows.
            GlossaryError: with every problem in every entry.
        """
        orphans = extra.get("glossary_orphans", "info")
        if not isinstance(orphans, str) or orphans not in ORPHAN_LEVELS:
            raise SettingsError(
                f"{config_path}: extra.glossary_orphans is {orphans!r}; expected one of {', '.join(ORPHAN_LEVELS)}"
            )
        repository = None
        if "repository" in extra:
            try:
                repository = Repository.from_settings(extra["repository"], extra.get("repository_branch", "main"))
            except ValueError as exc:
                raise SettingsError(f"{config_path}: {exc}") from None
        glossary = load_glossary(
            project_root / GLOSSARY_DIR_NAME,
            display_dir=GLOSSARY_DIR_NAME,
            check_cache=CheckCache(project_root / CHECK_CACHE_DIR),
            load_cache=LoadCache(project_root / LOAD_CACHE_DIR),
            drafts=drafts,
        )
        for placeholders in glossary.drafts.values():
            log.info(
                "%s: previewed as a draft (%d placeholders left); mkdocs build refuses it",
                placeholders[0].path,
                len(placeholders),
            )
        global _loaded
        _loaded = cls(glossary, project_root, repository, ORPHAN_LEVELS[orphans])
        return _loaded

    def add_files(
        self,
        add: Callable[[site_files.SiteFile], str],
        *,
        relative_url: Callable[[str, str], str],
        taken: Callable[[str], bool],
        directory_urls: bool,
        site_name: str,
        site_url: str | None,
        content_security_policy: str,
    ) -> dict[str, str]:
        """Hand the generator every page and data file the glossary adds; return the redirect pages.

        Args:
            add: Adds a file to the generator's and returns its site URL.
            relative_url: ``relative_url(target, from_url)``, as the generator writes links.
            taken: Whether a path in the site directory is already another file's.
            directory_urls: Whether pages are ``x/index.html`` (or ``x.html``).
            site_name: The site's name, for the feed.
            site_url: The site's address, for absolute URLs (none: site-relative).
            content_security_policy: The redirect pages' policy.

        Returns:
            The redirect pages by path in the site directory, to write there.

        Raises:
            GlossaryError: if a page cannot be made or a redirect would replace a file.
        """
        urls: dict[str, str] = {}
        for slug, page in site_files.term_pages(self.glossary).items():
            urls[slug] = add(page)
            self.term_of[page.src_uri] = slug
            self.term_urls[normalise_url(urls[slug])] = slug
        index_url = [add(page) for page in site_files.listing_pages(self.glossary)][0]
        for page in site_files.data_files(
            self.glossary, url_of=urls.__getitem__, index_url=index_url, site_name=site_name, site_url=site_url
        ):
            add(page)
        return site_files.redirect_pages(
            self.glossary,
            url_of=urls.__getitem__,
            relative_url=relative_url,
            taken=taken,
            directory_urls=directory_urls,
            site_url=site_url,
            content_security_policy=content_security_policy,
        )

    @staticmethod
    def citation(*, site_name: str, site_url: str | None, url: str, title: str, date: str) -> str:
        """How to cite a page: its permalink under ``site_url``, the data version and ``date``."""
        permalink = (site_url or "").rstrip("/") + "/" + url
        return reproduce.citation(site_name=site_name, title=title, url=permalink, version=data_version(), date=date)

    def rewrite_page(self, markdown: str, *, source: str, src_uri: str, path: str) -> str:
        """A hand-written page's Markdown with term links and numbers rewritten; its numbers are
        kept for its "Reproduce the numbers" section (:meth:`page_closing`).

        Raises:
            GlossaryError: if a link or quantity is wrong.
        """
        result = doc_pages.rewrite_page(markdown, source=source, src_uri=src_uri, path=path, glossary=self.glossary)
        self.numbers[src_uri] = [reproduce.Shown(*n) for n in result.quantities]
        return result.text

    def page_closing(self, src_uri: str, *, cite: str, url: str, href: Callable[[str], str]) -> str:
        """A hand-written page's closing section: "Reproduce the numbers" (empty without numbers)."""
        return self.reproduce_section(self.numbers.pop(src_uri, []), cite=cite, url=url, href=href)

    def record(self, html: str, *, title: str, url: str, src_uri: str, forget: bool = True) -> str:
        """Mark the links to terms in a page's ``html`` and record its mentions.

        Args:
            forget: Drop the mentions recorded for this page before (a page read again, as
                ``mkdocs serve`` does); False for a second part of the same page.

        Returns:
            ``html`` with ``data-glossary-term`` on each link to a term.
        """
        length = max(len(html), 1)
        html, found = annotate_term_links(html, page_url=url, term_urls=self.term_urls)
        if forget:
            self.graph.forget_page(url)
        ref = PageRef(title=title, url=url, src_uri=src_uri)
        own = self.term_of.get(src_uri)
        for link in found:
            if link.mention:
                self.graph.add(ref, link.slug, own_slug=own, at=link.offset / length)
        return html

    def reproduce_section(
        self, numbers: list[reproduce.Shown], *, cite: str, url: str, href: Callable[[str], str]
    ) -> str:
        """A page's "Reproduce the numbers" section; its script is kept for :attr:`scripts`."""
        parts = number_parts.parts_file(numbers)
        section, script = reproduce.page_section(
            numbers, cite, page_url=url, href=href, parts_path=parts.site_path if parts else None
        )
        if script is not None:
            self.scripts[script.site_path] = script.text
        if parts is not None:
            self.scripts[parts.site_path] = parts.text
        return section

    def term_page(
        self,
        slug: str,
        rendered: str,
        *,
        url_of: Callable[[str], str],
        href: Callable[[str], str],
        cite: str,
        budget_s: float = term_page.RENDER_BUDGET_S,
        now: float | None = None,
    ) -> tuple[str, str]:
        """A term page's content around its rendered body, and the sections that close it.

        Args:
            slug: The term.
            rendered: Its body as the generator rendered it.
            url_of: The site URL of a file of the docs tree (``glossary/index.md``).
            href: A site URL made relative to the term's page.
            cite: How to cite the page (:func:`.reproduce.citation`).
            budget_s: Most seconds rendering an entry may take (since :attr:`render_started`).
            now: The clock (``time.perf_counter()``) as the generator hands the rendered body over
                (default: read now).

        Raises:
            GlossaryError: if the body cannot be sanitised or took too long to render.
        """
        now = time.perf_counter() if now is None else now
        entry = self.glossary.entries[slug]
        index_href = href(url_of(INDEX_URI))
        html = term_page.body_html(
            entry,
            self.glossary,
            rendered,
            trusted=term_page.fence_html(),
            category_href=href(url_of(category_src_uri(entry.category))),
            index_href=index_href,
        )
        closing = term_page.closing_html(
            entry,
            self.glossary,
            index_href=index_href,
            term_href=lambda other: href(url_of(term_src_uri(other))),
            reproduce_section=self.reproduce_section(
                term_page.numbers(entry, self.glossary), cite=cite, url=url_of(term_src_uri(slug)), href=href
            ),
            repository=self.repository,
        )
        term_page.check_render_time(entry, now - self.render_started.pop(term_src_uri(slug), now), budget_s)
        return html, closing

    def closing(self, src_uri: str, *, href: Callable[[str], str]) -> tuple[str, bool]:
        """A page's closing sections, complete now that every page has been read, and whether
        they hold "Mentioned in" (a term page that nothing links to has none).

        Args:
            href: A page's site URL made relative to this page.
        """
        closing, slug = self.closings.pop(src_uri, ""), self.term_of.get(src_uri)
        if slug is None:
            return closing, False
        section = mentions.fill(slug, self.graph, self.glossary, term_of=self.term_of, href=href)
        return closing.replace(MENTIONED_IN_MARKER, section), bool(section)

    def orphan_report(self) -> str | None:
        """The line naming every term no other entry links to; None when every term is linked."""
        return mentions.orphan_report(self.glossary, mentions.orphans(self.glossary, self.graph, term_of=self.term_of))
