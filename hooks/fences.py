"""Fenced blocks the build renders: ```` ```figure ```` and ```` ```calculator ````.

The work lives in ``roofline_site.fences`` (find, locate, format, check) and in each kind
(``roofline_site.figures.pages``, ``roofline_site.calculators.page``); these hooks only start a
build, hand each page to it, and turn a located mistake into a build error:
``<file>:<line>: <what is wrong>; expected <what>``. The formatter of every kind is configured
under ``pymdownx.superfences`` in ``mkdocs.yml``.
"""

from __future__ import annotations

import logging
from pathlib import Path
from urllib.parse import urljoin

from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.utils import get_relative_url

from roofline_site.calculators import CalculatorFences
from roofline_site.calculators.render_cache import CACHE_DIR_NAME as CALCULATOR_CACHE_DIR
from roofline_site.calculators.render_cache import RenderCache
from roofline_site.fences import (
    LocatedError,
    author_source,
    current_build,
    fill_deferred,
    require_custom_fences,
    start_build,
)
from roofline_site.figures.cache import FigureCache
from roofline_site.figures.pages import FigureFences, cache_dir_for

log = logging.getLogger("mkdocs.hooks.fences")

# Hooks ---------------------------------------------------------------------------------


# Each page's deferred fences, from on_page_content to on_page_context.
_deferred: dict[str, tuple[tuple[str, str], ...]] = {}


def on_config(config):
    _deferred.clear()
    root = _project_root(config)
    kinds = [
        FigureFences(cache=FigureCache(directory=cache_dir_for(root))),
        CalculatorFences(cache=RenderCache(root / CALCULATOR_CACHE_DIR)),
    ]
    languages = [kind.language for kind in kinds]
    try:
        require_custom_fences(config.mdx_configs, languages, config_path=config.config_file_path)
    except LocatedError as error:
        raise PluginError(str(error)) from None
    start_build(kinds)
    return config


def on_page_markdown(markdown, page, config, files):
    source = _author_source(page, config)
    try:
        current_build().prepare_page(
            markdown,
            path=source.path,
            source=source.text,
            url_to=_relative_to(page),
            page_path=page.url,
            link_to=_published(config),
        )
    except LocatedError as error:
        # The message already says file, line, what is wrong and what is expected.
        raise PluginError(str(error)) from None
    return markdown


def on_page_content(html, page, config, files):
    try:
        _deferred[page.file.src_uri] = current_build().check_page(html, path=_author_source(page, config).path)
    except LocatedError as error:
        raise PluginError(str(error)) from None
    return html


# After every plugin's on_page_context: the calculators (deferred fences) join the page once
# Material's search has read it. They are kept out of its index, yet it parsed their 40 to 65 kB
# of form and results on every calculator page, a third of its time.
@event_priority(-100)
def on_page_context(context, page, config, nav):
    page.content = fill_deferred(page.content or "", _deferred.pop(page.file.src_uri, ()))
    return context


def on_post_build(config):
    # Files the fences link to (the figures' SVGs): content-hashed names, written once each.
    site_dir = Path(config.site_dir)
    for site_path, data in current_build().site_files().items():
        target = site_dir / site_path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    for line in current_build().reports():
        log.info(line)


# Helper functions ----------------------------------------------------------------------


def _author_source(page, config):
    file = page.file
    return author_source(
        src_uri=file.src_uri,
        abs_src_path=file.abs_src_path,
        generated_by=file.generated_by,
        content=file.content_string,
        project_root=_project_root(config),
    )


def _relative_to(page):
    return lambda site_path: get_relative_url(site_path, page.url)


def _published(config):
    # Copied links must work outside the site, so they are absolute (site_url is enforced for
    # deployment builds by hooks/site_url.py).
    base = config.site_url or ""
    return lambda site_path: urljoin(base, site_path) if base else site_path


def _project_root(config) -> Path:
    return Path(config.config_file_path).resolve().parent
