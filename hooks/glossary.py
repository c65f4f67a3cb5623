"""The glossary: ``glossary/*.md`` entries become term pages, an index, previews and feeds.

Thin MkDocs adapter; the logic lives in :mod:`roofline_site.glossary` (parser, validator, link
graph, rendering). What it adds to the build, all as virtual files (nothing is written into
``docs/`` or ``glossary/``):

* ``glossary/<slug>/`` per entry and ``glossary/`` (the index);
* ``glossary.json``, ``glossary/feed.xml`` (RSS) and redirect pages for aliases and old slugs;
* on every page: ``[[slug]]`` links and ``{{ quantity ... }}`` numbers rewritten, links to terms
  marked for the hover preview, and each term's "Mentioned in" list filled from the link graph.

Validation runs in ``on_config`` (entries) and ``on_files`` (pages linking into the glossary),
before any page is rendered; a problem stops the build with ``<file>:<line>: <what>; <expected>``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files, InclusionLevel
from mkdocs.structure.pages import Page
from mkdocs.utils import get_relative_url

from roofline_site.glossary import render
from roofline_site.glossary.errors import GlossaryError, Problem
from roofline_site.glossary.links import LinkGraph, PageRef, annotate_term_links, normalise_url
from roofline_site.glossary.markup import rewrite
from roofline_site.glossary.validator import Glossary, check_relative_links, load_glossary

GLOSSARY_DIR_NAME = "glossary"
INDEX_URI = "glossary/index.md"
FEED_URI = "glossary/feed.xml"
JSON_URI = "glossary.json"
# The site's pages use these; without them term pages would render their markers as text.
REQUIRED_EXTENSIONS = ("attr_list", "md_in_html", "toc")


@dataclass
class _State:
    glossary: Glossary
    project_root: Path
    generated: dict[str, str] = field(default_factory=dict)  # src_uri of a term page -> slug
    term_urls: dict[str, str] = field(default_factory=dict)  # normalised URL -> slug
    graph: LinkGraph = field(default_factory=LinkGraph)


_state: _State | None = None

# Hooks ---------------------------------------------------------------------------------


def on_config(config: MkDocsConfig) -> MkDocsConfig:
    global _state
    _require_extensions(config)
    root = Path(config.config_file_path).resolve().parent
    _state = _State(glossary=_load(root), project_root=root)
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
    if page.file.src_uri in state.generated or page.file.src_uri == INDEX_URI:
        return markdown  # rewritten when generated
    return _rewrite_page(markdown, page, config, state)


def on_page_content(html: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    return _annotate_and_record(html, page, _current())


def on_page_context(context, page: Page, config: MkDocsConfig, nav):
    state = _current()
    slug = state.generated.get(page.file.src_uri)
    if slug is not None:
        page.content = _fill_mentions(page, slug, state)
    return context


def on_serve(server, config: MkDocsConfig, builder):
    server.watch(str(_current().project_root / GLOSSARY_DIR_NAME))
    return server


# Helper functions ----------------------------------------------------------------------


def _current() -> _State:
    if _state is None:
        raise PluginError("hooks/glossary.py: on_config did not run; expected the hook to be listed under 'hooks:' in mkdocs.yml")
    return _state


def _require_extensions(config: MkDocsConfig) -> None:
    names = [e if isinstance(e, str) else next(iter(e)) for e in config.markdown_extensions]
    for name in REQUIRED_EXTENSIONS:
        if name not in names:
            config.markdown_extensions.append(name)


def _load(root: Path) -> Glossary:
    try:
        return load_glossary(root / GLOSSARY_DIR_NAME, display_dir=GLOSSARY_DIR_NAME)
    except GlossaryError as exc:
        raise PluginError(str(exc)) from None


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
            text, path=path, src_uri=file.src_uri, first_line=1, titles=state.glossary.titles, suggest=state.glossary.suggest
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
    file = files.get_file_from_path(f"{GLOSSARY_DIR_NAME}/{slug}.md")
    assert file is not None, f"term page for {slug} was added in _add_term_pages"
    return file.url


def _add_index_feed_and_json(files: Files, config: MkDocsConfig, state: _State) -> None:
    glossary = state.glossary
    index = File.generated(config, INDEX_URI, content=render.index_markdown(glossary))
    files.append(index)
    files.append(
        File.generated(
            config,
            JSON_URI,
            content=render.glossary_json(glossary, path_of=lambda slug: _term_url(files, slug), site_url=config.site_url),
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
    base = (config.site_url or "").rstrip("/") + "/" if config.site_url else ""
    for old, slug in state.glossary.redirects().items():
        src_uri = f"{GLOSSARY_DIR_NAME}/{old}/index.html" if config.use_directory_urls else f"{GLOSSARY_DIR_NAME}/{old}.html"
        if files.get_file_from_path(src_uri) is not None:
            raise PluginError(f"{state.glossary.entries[slug].path}:1: redirect '{old}' would replace {src_uri}; expected a free slug")
        target_url = _term_url(files, slug)
        redirect_url = src_uri[: -len("index.html")] if config.use_directory_urls else src_uri
        html = render.redirect_html(
            title=state.glossary.entries[slug].title,
            target_href=get_relative_url(target_url, redirect_url),
            canonical_url=base + target_url,
        )
        files.append(File.generated(config, src_uri, content=html))


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
    )
    if result.problems:
        raise PluginError(str(GlossaryError(result.problems)))
    return result.text


def _annotate_and_record(html: str, page: Page, state: _State) -> str:
    html, found = annotate_term_links(html, page_url=page.url, term_urls=state.term_urls)
    ref = PageRef(title=page.title or page.file.name, url=page.url, src_uri=page.file.src_uri)
    own = state.generated.get(page.file.src_uri)
    state.graph.forget_page(page.url)
    for link in found:
        if link.mention:
            state.graph.add(ref, link.slug, own_slug=own)
    return html


def _fill_mentions(page: Page, slug: str, state: _State) -> str:
    pages = [(p.title, get_relative_url(p.url or "/", page.url)) for p in state.graph.mentioned_in(slug)]
    return (page.content or "").replace(render.MENTIONED_IN_MARKER, render.mentions_html(pages))
