"""The glossary: ``glossary/*.md`` entries become term pages, an index, previews and feeds.

Thin MkDocs adapter; the logic lives in :mod:`roofline_site.glossary` (parser, validator, link
graph, rendering). What it adds to the build, all as virtual files (nothing is written into
``docs/`` or ``glossary/``):

* ``glossary/<slug>/`` per entry and ``glossary/`` (the index);
* ``glossary.json``, ``glossary/feed.xml`` (RSS) and redirect pages for aliases and old slugs
  (these straight into the site directory, by a second process: _add_redirects);
* on every page: ``[[slug]]`` links and ``{{ quantity ... }}`` numbers rewritten, links to terms
  marked for the hover preview, and each term's "Mentioned in" list filled from the link graph;
* on every page with numbers, "Reproduce the numbers on this page": a citation and a link to
  the page's script, ``assets/roofline/numbers/numbers.<hash>.py``, which prints each number
  (:mod:`roofline_site.glossary.reproduce`; written in on_env);
* on each term page, "Edit this page" and "Suggest a term" links to the repository named by
  ``extra.repository`` (a project without that setting, such as a test fixture, gets none).

A term page's Markdown is the entry's body alone. Once rendered, that HTML is sanitised by
allowlist (figures the build drew are kept as they are), then the header and the sections built
from front matter (escaped HTML) are put around it, and only then are links to terms marked: so
markup the build inserts is trusted and markup a contributor wrote is not.

Validation runs in ``on_config`` (entries) and ``on_files`` (pages linking into the glossary),
before any page is rendered; a problem stops the build with ``<file>:<line>: <what>; <expected>``.
"""

from __future__ import annotations

import logging
import os
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files, InclusionLevel
from mkdocs.structure.pages import Page
from mkdocs.structure.toc import AnchorLink, TableOfContents
from mkdocs.utils import get_build_date, get_relative_url

from roofline_core.version import data_version
from roofline_site import csp, serve_mode
from roofline_site.background_writes import BackgroundWriteError, PendingWrites, start_writing, wait_all
from roofline_site.glossary import render, reproduce
from roofline_site.glossary.check_cache import CACHE_DIR_NAME as CHECK_CACHE_DIR
from roofline_site.glossary.check_cache import CheckCache
from roofline_site.glossary.contribute import Repository, links_html
from roofline_site.glossary.errors import GlossaryError, Problem
from roofline_site.glossary.links import LinkGraph, PageRef, annotate_term_links, normalise_url
from roofline_site.glossary.load_cache import CACHE_DIR_NAME as LOAD_CACHE_DIR
from roofline_site.glossary.load_cache import LoadCache
from roofline_site.glossary.markup import rewrite
from roofline_site.glossary.sanitize import SanitiseError, sanitise_entry_html
from roofline_site.glossary.schema import CATEGORIES
from roofline_site.glossary.validator import Glossary, check_relative_links, load_glossary

GLOSSARY_DIR_NAME = "glossary"
INDEX_URI = "glossary/index.md"
FEED_URI = "glossary/feed.xml"
_CATEGORY_URIS = frozenset(render.category_src_uri(c) for c in CATEGORIES)
JSON_URI = "glossary.json"
# Where a page's closing sections go once the search plugin has read it (see on_page_content).
CLOSING_MARKER = "<!-- glossary:closing -->"
# The site's pages use these; without them term pages would render their markers as text.
REQUIRED_EXTENSIONS = ("attr_list", "md_in_html", "toc")
#: Rendering one entry (Markdown, its figures, sanitising) taking longer than this stops the
#: build, naming the entry: the validator's limits should make it impossible, so it is a bug or
#: a new slow pattern to add to them. Real entries take well under a second. The environment
#: variable overrides it (tests set it to zero to see the message).
ENTRY_RENDER_BUDGET_S = float(os.environ.get("ROOFLINE_ENTRY_RENDER_BUDGET_S", "10"))


@dataclass
class _State:
    glossary: Glossary
    project_root: Path
    repository: Repository | None
    generated: dict[str, str] = field(default_factory=dict)  # src_uri of a term page -> slug
    term_urls: dict[str, str] = field(default_factory=dict)  # normalised URL -> slug
    graph: LinkGraph = field(default_factory=LinkGraph)
    render_started: dict[str, float] = field(default_factory=dict)  # src_uri -> perf_counter()
    highlighted: Page | None = None  # the glossary index, shown active while a term page renders
    numbers: dict[str, list[tuple[str, str]]] = field(default_factory=dict)  # docs page -> its quantities
    closings: dict[str, str] = field(default_factory=dict)  # src_uri -> sections put in after search read it
    scripts: dict[str, str] = field(default_factory=dict)  # site path -> a page's numbers script
    writes: list[PendingWrites] = field(default_factory=list)  # files a second process is writing


_state: _State | None = None
log = logging.getLogger("mkdocs.hooks.glossary")

# Hooks ---------------------------------------------------------------------------------


def on_config(config: MkDocsConfig) -> MkDocsConfig:
    global _state
    if _state is not None:
        # A build that failed before on_post_build (mkdocs serve goes on): let its writers finish.
        wait_all(_state.writes, quietly=True)
    _require_extensions(config)
    root = Path(config.config_file_path).resolve().parent
    _state = _State(glossary=_load(root), project_root=root, repository=_repository(config))
    return config


def on_files(files: Files, config: MkDocsConfig) -> Files:
    state = _current()
    _refuse_hand_written_glossary_pages(files, state)
    _check_pages(files, config, state)
    _add_term_pages(files, config, state)
    _add_index_feed_and_json(files, config, state)
    _add_redirects(files, config, state)
    return files


def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    state = _current()
    if page.file.src_uri in state.generated:
        state.render_started[page.file.src_uri] = time.perf_counter()
        return markdown  # rewritten when generated
    if page.file.src_uri == INDEX_URI or page.file.src_uri in _CATEGORY_URIS:
        return markdown  # generated listings: their links are already Markdown links
    return _rewrite_page(markdown, page, config, state)


def on_page_content(html: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    state = _current()
    slug = state.generated.get(page.file.src_uri)
    if slug is not None:
        html, closing = _assemble_term_page(html, page, config, files, state.glossary.entries[slug], state)
    else:
        numbers = [reproduce.Shown(*n) for n in state.numbers.pop(page.file.src_uri, [])]
        closing = _reproduce_section(numbers, page, config, page.title or page.file.name, state)
    # The sections the build writes below the prose (related terms, sources, "Reproduce the
    # numbers", "Mentioned in", neighbours) are all kept out of the search index, so they join
    # the page after the search plugin has read it (on_page_context): it parsed them only to
    # skip them, and that was a fifth of a warm build's glossary overhead.
    html = _annotate_and_record(html, page, state)
    state.closings[page.file.src_uri] = _annotate_and_record(closing, page, state, forget=False)
    return html + CLOSING_MARKER


# After every plugin's on_page_context (Material's search reads page.content in its own).
@event_priority(-100)
def on_page_context(context, page: Page, config: MkDocsConfig, nav):
    state = _current()
    slug = state.generated.get(page.file.src_uri)
    closing = state.closings.pop(page.file.src_uri, "")
    if slug is not None:
        closing = _fill_mentions(page, slug, closing, state)
    page.content = (page.content or "").replace(CLOSING_MARKER, closing)
    if slug is not None or page.file.src_uri in _CATEGORY_URIS:
        # Term and category pages are not in the navigation; the reader is still "in" the
        # glossary, so its entry is shown active while this page is rendered.
        state.highlighted = next((p for p in nav.pages if p.file.src_uri == INDEX_URI), None)
        if state.highlighted is not None:
            state.highlighted.active = True
    return context


def on_post_page(output: str, page: Page, config: MkDocsConfig) -> str:
    state = _current()
    if state.highlighted is not None:
        state.highlighted.active = False
        state.highlighted = None
    return output


def on_env(env, config: MkDocsConfig, files: Files):
    # Every page's content is made by now: write the pages' numbers scripts while they are laid out.
    state = _current()
    state.writes.append(start_writing(Path(config.site_dir), texts=state.scripts))
    return env


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
    server.watch(str(Path(config.config_file_path).resolve().parent / GLOSSARY_DIR_NAME))
    return server


# Helper functions ----------------------------------------------------------------------


def _current() -> _State:
    if _state is None:
        raise PluginError(
            "hooks/glossary.py: on_config did not run; expected the hook to be listed under 'hooks:' in mkdocs.yml"
        )
    return _state


def _require_extensions(config: MkDocsConfig) -> None:
    names = [e if isinstance(e, str) else next(iter(e)) for e in config.markdown_extensions]
    for name in REQUIRED_EXTENSIONS:
        if name not in names:
            config.markdown_extensions.append(name)


def _load(root: Path) -> Glossary:
    try:
        glossary = load_glossary(
            root / GLOSSARY_DIR_NAME,
            display_dir=GLOSSARY_DIR_NAME,
            check_cache=CheckCache(root / CHECK_CACHE_DIR),
            load_cache=LoadCache(root / LOAD_CACHE_DIR),
            # Under `mkdocs serve` only, an entry with nothing wrong but scaffold placeholders
            # is previewed with a draft banner instead of failing every page.
            drafts=serve_mode.serving(),
        )
    except GlossaryError as exc:
        raise PluginError(str(exc)) from None
    for placeholders in glossary.drafts.values():
        log.info(
            "%s: previewed as a draft (%d placeholders left); mkdocs build refuses it",
            placeholders[0].path,
            len(placeholders),
        )
    return glossary


def _repository(config: MkDocsConfig) -> Repository | None:
    if "repository" not in config.extra:
        return None
    try:
        return Repository.from_settings(config.extra["repository"], config.extra.get("repository_branch", "main"))
    except ValueError as exc:
        raise PluginError(f"{config.config_file_path}: {exc}") from None


def _display_path(config: MkDocsConfig, state: _State, src_uri: str) -> str:
    docs = Path(config.docs_dir).resolve()
    try:
        prefix = docs.relative_to(state.project_root).as_posix()
    except ValueError:
        prefix = docs.as_posix()
    return f"{prefix}/{src_uri}"


def _refuse_hand_written_glossary_pages(files: Files, state: _State) -> None:
    for file in files:
        if file.src_uri == JSON_URI or file.src_uri.startswith(GLOSSARY_DIR_NAME + "/"):
            raise PluginError(
                f"docs/{file.src_uri}:1: a hand-written file where the glossary build puts its pages; "
                "expected glossary entries in glossary/<slug>.md next to mkdocs.yml, not under docs/"
            )


def _check_pages(files: Files, config: MkDocsConfig, state: _State) -> None:
    """Check every hand-written page's term links and quantities before anything renders."""
    problems: list[Problem] = []
    slugs = set(state.glossary.entries)
    for file in files.documentation_pages():
        text = file.content_string
        path = _display_path(config, state, file.src_uri)
        problems += rewrite(
            text,
            path=path,
            src_uri=file.src_uri,
            first_line=1,
            titles=state.glossary.titles,
            suggest=state.glossary.suggest,
        ).problems
        problems += check_relative_links(text, path=path, src_uri=file.src_uri, first_line=1, slugs=slugs)
    if problems:
        raise PluginError(str(GlossaryError(problems)))


def _add_term_pages(files: Files, config: MkDocsConfig, state: _State) -> None:
    for slug, entry in state.glossary.entries.items():
        src_uri = f"{GLOSSARY_DIR_NAME}/{slug}.md"
        try:
            content = render.term_page_markdown(entry, state.glossary)
        except ValueError as exc:
            raise PluginError(str(exc)) from None
        # Term pages are reached from the index, links and search, not the navigation tree.
        file = File.generated(config, src_uri, content=content, inclusion=InclusionLevel.NOT_IN_NAV)
        files.append(file)
        state.generated[src_uri] = slug
        state.term_urls[normalise_url(file.url)] = slug


def _term_url(files: Files, slug: str) -> str:
    return _page_url(files, f"{GLOSSARY_DIR_NAME}/{slug}.md")


def _add_index_feed_and_json(files: Files, config: MkDocsConfig, state: _State) -> None:
    glossary = state.glossary
    index = File.generated(config, INDEX_URI, content=render.index_markdown(glossary))
    files.append(index)
    for category in CATEGORIES:
        files.append(
            File.generated(
                config,
                render.category_src_uri(category),
                content=render.category_page_markdown(glossary, category),
                inclusion=InclusionLevel.NOT_IN_NAV,
            )
        )
    files.append(
        File.generated(
            config,
            JSON_URI,
            content=render.glossary_json(
                glossary, path_of=lambda slug: _term_url(files, slug), site_url=config.site_url
            ),
        )
    )
    files.append(
        File.generated(
            config,
            FEED_URI,
            content=render.rss_feed(
                glossary,
                site_name=config.site_name,
                site_url=config.site_url,
                path_of=lambda slug: _term_url(files, slug),
                index_path=index.url,
                feed_path=FEED_URI,
            ),
        )
    )


def _add_redirects(files: Files, config: MkDocsConfig, state: _State) -> None:
    """Write a redirect page for every alias and old slug, from a second process while pages
    render (:mod:`roofline_site.background_writes`); on_post_build waits for it."""
    base = (config.site_url or "").rstrip("/") + "/" if config.site_url else ""
    pages: dict[str, str] = {}
    for old, slug in state.glossary.redirects().items():
        src_uri = (
            f"{GLOSSARY_DIR_NAME}/{old}/index.html" if config.use_directory_urls else f"{GLOSSARY_DIR_NAME}/{old}.html"
        )
        if files.get_file_from_path(src_uri) is not None:
            raise PluginError(
                f"{state.glossary.entries[slug].path}:1: redirect '{old}' would replace {src_uri}; expected a free slug"
            )
        target_url = _term_url(files, slug)
        redirect_url = src_uri[: -len("index.html")] if config.use_directory_urls else src_uri
        html = render.redirect_html(
            title=state.glossary.entries[slug].title,
            target_href=get_relative_url(target_url, redirect_url),
            canonical_url=base + target_url,
            content_security_policy=csp.meta_policy(csp.policy()),
        )
        pages[src_uri] = html
    # MkDocs cleaned the site directory before on_files, so nothing will remove these.
    state.writes.append(start_writing(Path(config.site_dir), texts=pages))


def _rewrite_page(markdown: str, page: Page, config: MkDocsConfig, state: _State) -> str:
    # Front matter has been cut off ``markdown``; count what was cut so lines match the file.
    source = page.file.content_string
    first_line = 1 + source.count("\n") - markdown.count("\n") if source.endswith(markdown) else 1
    result = rewrite(
        markdown,
        path=_display_path(config, state, page.file.src_uri),
        src_uri=page.file.src_uri,
        first_line=first_line,
        titles=state.glossary.titles,
        suggest=state.glossary.suggest,
        # A hand-written page is not sanitised: its numbers get their wrapper straight away.
        mark=reproduce.wrapped,
    )
    if result.problems:
        raise PluginError(str(GlossaryError(result.problems)))
    state.numbers[page.file.src_uri] = result.quantities
    return result.text


def _assemble_term_page(
    body_html: str, page: Page, config: MkDocsConfig, files: Files, entry, state: _State
) -> tuple[str, str]:
    """Sanitise the rendered body and put the header before it; also return the sections built
    from front matter that close the page."""
    # The rewrite the page's Markdown was made from (cached): its numbers are the page's.
    numbers = render.rewrite_body(entry, state.glossary, marked=True).quantities
    token = reproduce.marker_token(entry.body)
    try:
        body = sanitise_entry_html(
            body_html, trusted=_fence_html(), quantity_markers=reproduce.marker_values(token, len(numbers))
        )
    except SanitiseError as exc:
        raise PluginError(
            f"{entry.path}:{entry.body_line}: {exc}; expected each figure fence at the top level of the body"
        ) from None
    body = reproduce.finish_markers(body, token)
    index_href = get_relative_url(_page_url(files, INDEX_URI), page.url)
    html = (
        render.term_page_header_html(
            entry,
            category_href=get_relative_url(_page_url(files, render.category_src_uri(entry.category)), page.url),
            index_href=index_href,
            draft=state.glossary.drafts.get(entry.slug, ()),
        )
        + f'<div class="{render.BODY_CLASS}">\n{body}\n</div>\n'
    )
    closing = render.term_page_footer_html(
        entry,
        state.glossary,
        index_href=index_href,
        term_href=lambda slug: get_relative_url(_term_url(files, slug), page.url),
        reproduce_section=_reproduce_section([reproduce.Shown(*n) for n in numbers], page, config, entry.title, state),
    ) + (links_html(state.repository, entry_path=entry.path) if state.repository else "")
    _add_build_headings(page, entry)
    elapsed_s = time.perf_counter() - state.render_started.pop(page.file.src_uri, time.perf_counter())
    if elapsed_s > ENTRY_RENDER_BUDGET_S:
        raise PluginError(
            f"{entry.path}:{entry.body_line}: rendering the entry took {elapsed_s:.1f} s; expected under "
            f"{ENTRY_RENDER_BUDGET_S:.0f} s: simplify the body (long runs of unclosed brackets or angle brackets are slow to parse)"
        )
    return html, closing


def _reproduce_section(
    numbers: list[reproduce.Shown], page: Page, config: MkDocsConfig, title: str, state: _State
) -> str:
    """The page's "Reproduce the numbers" section; its script is written in on_env."""
    cite = _citation(page, config, title)
    script = reproduce.numbers_script(numbers, cite)
    if script is None:
        return ""
    state.scripts[script.site_path] = script.text
    name = (page.url.strip("/").rsplit("/", 1)[-1] or "home") + "-numbers.py"
    return reproduce.section_html(
        numbers, cite, script_href=get_relative_url(script.site_path, page.url), download_name=name
    )


def _citation(page: Page, config: MkDocsConfig, title: str) -> str:
    """The page's citation: its permalink from ``site_url``, the data version and the build's
    date (``SOURCE_DATE_EPOCH``, which hooks/build_date.py sets from the commit)."""
    return reproduce.citation(
        site_name=config.site_name,
        title=title,
        url=(config.site_url or "").rstrip("/") + "/" + page.url,
        version=data_version(),
        date=get_build_date(),
    )


def _fence_html() -> list[str]:
    """HTML the fence formatter put into the current page (figures), which the sanitiser keeps."""
    # Only hooks/fences.py starts a fence build, by importing the module that holds it: if it
    # is not loaded, no fence was formatted, and a project without fences (the glossary's
    # benchmark) need not import the fence machinery (pymdownx.superfences, 17 ms).
    build = sys.modules.get("roofline_site.fences.build")
    return build.inserted_html() if build is not None else []


def _page_url(files: Files, src_uri: str) -> str:
    file = files.get_file_from_path(src_uri)
    assert file is not None, f"{src_uri} was added in on_files"
    return file.url


def _add_build_headings(page: Page, entry) -> None:
    """Put the title and the build's sections into the page's table of contents and anchors,
    as if they had been Markdown headings: the body's headings sit under the title."""
    title = AnchorLink(entry.title, entry.slug, 1)
    title.children = list(page.toc.items)
    sections = [section for section in render.TERM_PAGE_SECTIONS if section[0] != "related-terms" or entry.related]
    title.children += [AnchorLink(text, anchor, 2) for anchor, text in sections]
    page.toc = TableOfContents([title])
    anchors = getattr(page, "present_anchor_ids", None)
    if anchors is not None:
        anchors.update({entry.slug, *(anchor for anchor, _text in sections)})


def _annotate_and_record(html: str, page: Page, state: _State, *, forget: bool = True) -> str:
    """Mark links to terms and record the page's mentions (``forget``: drop those recorded for
    this page before, as a page read again under ``mkdocs serve`` needs)."""
    html, found = annotate_term_links(html, page_url=page.url, term_urls=state.term_urls)
    ref = PageRef(title=page.title or page.file.name, url=page.url, src_uri=page.file.src_uri)
    own = state.generated.get(page.file.src_uri)
    if forget:
        state.graph.forget_page(page.url)
    for link in found:
        if link.mention:
            state.graph.add(ref, link.slug, own_slug=own)
    return html


def _fill_mentions(page: Page, slug: str, closing: str, state: _State) -> str:
    # The home page lists the flagship terms as a reading path, not as a mention of each.
    pages = [(p.title, get_relative_url(p.url or "/", page.url)) for p in state.graph.mentioned_in(slug) if p.url]
    if not pages:
        _drop_from_toc(page, render.MENTIONED_IN_ID)
    return closing.replace(render.MENTIONED_IN_MARKER, render.mentions_html(pages))


def _drop_from_toc(page: Page, anchor: str) -> None:
    """Remove a section the page will not have from its table of contents (and its anchors)."""
    for title in page.toc.items:
        title.children = [child for child in title.children if child.id != anchor]
    anchors = getattr(page, "present_anchor_ids", None)
    if anchors is not None:
        anchors.discard(anchor)
