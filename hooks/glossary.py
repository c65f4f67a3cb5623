"""The glossary: ``glossary/*.md`` entries become term pages, an index, previews and feeds.

A MkDocs adapter: it reads MkDocs' objects, calls :mod:`roofline_site.glossary` and returns.
``GlossaryBuild`` (``site_build``) keeps what the steps share; the jobs are its modules:
``site_files`` (term and category pages, index, ``glossary.json``, feed, redirects), ``doc_pages``
(hand-written pages' links and numbers), ``term_page``, ``reproduce`` and ``mentions``. Nothing
is written into ``docs/``. A problem stops the build as ``<file>:<line>: <what>; <expected>``.
"""

from __future__ import annotations

import functools
import logging
import time
from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files, InclusionLevel
from mkdocs.structure.pages import Page
from mkdocs.structure.toc import AnchorLink, TableOfContents
from mkdocs.utils import get_build_date, get_relative_url

from roofline_site import csp, serve_mode
from roofline_site.background_writes import BackgroundWriteError, start_writing, wait_all
from roofline_site.glossary import doc_pages, mentions, site_files, term_page
from roofline_site.glossary.errors import GlossaryError
from roofline_site.glossary.site_build import GlossaryBuild, SettingsError

log = logging.getLogger("mkdocs.hooks.glossary")
# Where a page's closing sections go once the search plugin has read it (see on_page_content).
CLOSING_MARKER = "<!-- glossary:closing -->"
# The site's pages use these; without them term pages would render their markers as text.
REQUIRED_EXTENSIONS = ("attr_list", "md_in_html", "toc")

_build: GlossaryBuild | None = None


def _stops_the_build(hook):
    """A glossary problem raised in ``hook`` stops the build with its lines, not a traceback."""

    @functools.wraps(hook)
    def run(*args, **kwargs):
        try:
            return hook(*args, **kwargs)
        except (GlossaryError, SettingsError) as exc:
            raise PluginError(str(exc)) from None

    return run


# Hooks ---------------------------------------------------------------------------------


@_stops_the_build
def on_config(config: MkDocsConfig) -> MkDocsConfig:
    global _build
    if _build is not None:
        # A build that failed before on_post_build (mkdocs serve goes on): let its writers finish.
        wait_all(_build.writes, quietly=True)
    names = [e if isinstance(e, str) else next(iter(e)) for e in config.markdown_extensions]
    config.markdown_extensions += [name for name in REQUIRED_EXTENSIONS if name not in names]
    root = Path(config.config_file_path).resolve().parent
    # Under `mkdocs serve` only, an entry with only placeholders left previews as a draft.
    drafts = serve_mode.serving()
    _build = GlossaryBuild.load(root, extra=config.extra, config_path=config.config_file_path, drafts=drafts)
    return config


@_stops_the_build
def on_files(files: Files, config: MkDocsConfig) -> Files:
    build = _current()
    site_files.refuse_hand_written(f.src_uri for f in files)
    pages = [(f.src_uri, _path(config, f.src_uri), f.content_string) for f in files.documentation_pages()]
    doc_pages.check(pages, build.glossary)
    redirects = build.add_files(
        lambda page: _add(files, config, page),
        relative_url=get_relative_url,
        taken=lambda path: files.get_file_from_path(path) is not None,
        directory_urls=config.use_directory_urls,
        site_name=config.site_name,
        site_url=config.site_url,
        content_security_policy=csp.meta_policy(csp.policy()),
    )
    # MkDocs cleaned the site directory before on_files, so nothing will remove these.
    build.writes.append(start_writing(Path(config.site_dir), texts=redirects))
    return files


@_stops_the_build
def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    build, src_uri = _current(), page.file.src_uri
    if src_uri in build.term_of:
        build.render_started[src_uri] = time.perf_counter()
        return markdown  # rewritten when generated
    if src_uri == site_files.INDEX_URI or src_uri in site_files.CATEGORY_URIS:
        return markdown  # generated listings: their links are already Markdown links
    path = _path(config, src_uri)
    return build.rewrite_page(markdown, source=page.file.content_string, src_uri=src_uri, path=path)


@_stops_the_build
def on_page_content(html: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    build, src_uri, title = _current(), page.file.src_uri, page.title or page.file.name
    href = lambda site_path: get_relative_url(site_path, page.url)  # noqa: E731
    # Dated by SOURCE_DATE_EPOCH, which hooks/build_date.py sets from the commit.
    cite = build.citation(
        site_name=config.site_name, site_url=config.site_url, url=page.url, title=title, date=get_build_date()
    )
    slug = build.term_of.get(src_uri)
    if slug is not None:
        url_of = lambda src: files.get_file_from_path(src).url  # noqa: E731
        html, closing = build.term_page(slug, html, url_of=url_of, href=href, cite=cite)
        _set_toc(page, build.glossary.entries[slug])
    else:
        closing = build.page_closing(src_uri, cite=cite, url=page.url, href=href)
    # The sections below the prose (related terms, sources, "Reproduce the numbers", "Mentioned
    # in", neighbours) stay out of the search index: they join the page after search read it.
    html = build.record(html, title=title, url=page.url, src_uri=src_uri)
    build.closings[src_uri] = build.record(closing, title=title, url=page.url, src_uri=src_uri, forget=False)
    return html + CLOSING_MARKER


def on_env(env, config: MkDocsConfig, files: Files):
    # Every page has been read: report the orphans, and write the pages' numbers scripts.
    build = _current()
    report = build.orphan_report()
    if report is not None:
        log.log(build.orphan_level, report)
    build.writes.append(start_writing(Path(config.site_dir), texts=build.scripts))
    return env


# After every plugin's on_page_context (Material's search reads page.content in its own).
@event_priority(-100)
def on_page_context(context, page: Page, config: MkDocsConfig, nav):
    build = _current()
    closing, has_mentions = build.closing(page.file.src_uri, href=lambda url: get_relative_url(url or "/", page.url))
    if page.file.src_uri in build.term_of and not has_mentions:
        _drop_from_toc(page, mentions.MENTIONED_IN_ID)
    page.content = (page.content or "").replace(CLOSING_MARKER, closing)
    return context


# Before any other hook reads the site directory.
@event_priority(100)
def on_post_build(config: MkDocsConfig) -> None:
    try:
        wait_all(_current().writes)
    except BackgroundWriteError as exc:
        raise PluginError(f"glossary: {exc}") from None


def on_serve(server, config: MkDocsConfig, builder):
    # From the config, not the state: after a first build that failed (hooks/serve_errors.py
    # keeps serving), on_config may not have run, and the entries must be watched to fix it.
    server.watch(str(Path(config.config_file_path).resolve().parent / site_files.GLOSSARY_DIR_NAME))
    return server


# Helper functions ----------------------------------------------------------------------


def _current() -> GlossaryBuild:
    if _build is None:
        raise PluginError("hooks/glossary.py: on_config did not run; expected the hook under 'hooks:' in mkdocs.yml")
    return _build


def _path(config: MkDocsConfig, src_uri: str) -> str:
    return doc_pages.display_path(Path(config.docs_dir), _current().project_root, src_uri)


def _add(files: Files, config: MkDocsConfig, page: site_files.SiteFile) -> str:
    """Add a generated file (term and category pages stay out of the navigation); its site URL."""
    inclusion = InclusionLevel.UNDEFINED if page.in_nav else InclusionLevel.NOT_IN_NAV
    files.append(File.generated(config, page.src_uri, content=page.content, inclusion=inclusion))
    return files.get_file_from_path(page.src_uri).url


def _set_toc(page: Page, entry) -> None:
    """The title and the build's sections in the page's contents and anchors, as if they were
    Markdown headings: the body's headings sit under the title."""
    sections = term_page.toc_sections(entry)
    top = AnchorLink(entry.title, entry.slug, 1)
    top.children = list(page.toc.items) + [AnchorLink(text, anchor, 2) for anchor, text in sections]
    page.toc = TableOfContents([top])
    anchors = getattr(page, "present_anchor_ids", None)
    if anchors is not None:
        anchors.update({entry.slug, *(anchor for anchor, _text in sections)})


def _drop_from_toc(page: Page, anchor: str) -> None:
    """Remove a section the page will not have from its contents (and its anchors)."""
    for top in page.toc.items:
        top.children = [child for child in top.children if child.id != anchor]
    anchors = getattr(page, "present_anchor_ids", None)
    if anchors is not None:
        anchors.discard(anchor)
