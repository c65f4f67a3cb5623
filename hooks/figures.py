"""Build-time figures: ```` ```figure ```` fences drawn from ``roofline_core.figures`` data.

The work lives in ``roofline_site.figures`` (see its ``pages`` module); these hooks only start a
build, hand each page to it, and turn a bad figure block into a build error that names the file
and line. The fence's formatter is configured under ``pymdownx.superfences`` in ``mkdocs.yml``.
"""

from __future__ import annotations

import logging
from pathlib import Path

from mkdocs.exceptions import PluginError

from roofline_site.figures.pages import cache_dir_for, current_build, display_path, start_build
from roofline_site.figures.spec import FigureBlockError

log = logging.getLogger("mkdocs.hooks.figures")

# Hooks ---------------------------------------------------------------------------------


def on_config(config):
    _require_fence_config(config)
    start_build(cache_dir_for(_project_root(config)))
    return config


def on_page_markdown(markdown, page, config, files):
    try:
        current_build().prepare_page(markdown, path=_page_path(page, config), source=_source_text(page))
    except FigureBlockError as error:
        # The message already says file, line, what is wrong and what is expected.
        raise PluginError(str(error)) from None
    return markdown


def on_page_content(html, page, config, files):
    try:
        current_build().check_page(html, path=_page_path(page, config))
    except FigureBlockError as error:
        raise PluginError(str(error)) from None
    return html


def on_post_build(config):
    build = current_build()
    log.info(f"figures: {build.cache.drawn} drawn, {build.cache.hits} from the cache in {build.cache.directory}")


# Helper functions ----------------------------------------------------------------------


FORMATTER = "roofline_site.figures.pages.format_figure"


def _require_fence_config(config) -> None:
    # Without the custom fence, figure blocks would ship as plain code blocks.
    fences = config.mdx_configs.get("pymdownx.superfences", {}).get("custom_fences", [])
    for fence in fences:
        formatter = fence.get("format")
        if fence.get("name") == "figure" and f"{formatter.__module__}.{formatter.__name__}" == FORMATTER:
            return
    raise PluginError(
        f"{config.config_file_path}: pymdownx.superfences has no 'figure' custom fence; expected under "
        f"markdown_extensions: '- pymdownx.superfences: custom_fences: [{{name: figure, class: roofline-figure, "
        f"format: !!python/name:{FORMATTER}}}]'"
    )


def _page_path(page, config) -> str:
    return display_path(src_uri=page.file.src_uri, abs_src_path=page.file.abs_src_path, project_root=_project_root(config))


def _project_root(config) -> Path:
    return Path(config.config_file_path).resolve().parent


def _source_text(page) -> str:
    # The file's full text (front matter included), to count lines as the author sees them.
    return page.file.content_string
