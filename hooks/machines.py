"""The "Which machine for which model" tables, generated at build time from the presets.

Thin MkDocs adapter: :mod:`roofline_core.questions.which_machine` picks each chip's largest model
and its speed, :mod:`roofline_site.machines_page` writes them as Markdown, and a page receives
them where it has the marker line. A second marker in one page stops the build with its line.
"""

from __future__ import annotations

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import Files
from mkdocs.structure.pages import Page

from roofline_site.machines_page import MARKER, render_markdown
from roofline_site.measurements_page import MarkerError, replace_marker

# Hooks ---------------------------------------------------------------------------------


def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    if MARKER not in markdown:
        return markdown
    try:
        return replace_marker(markdown, render_markdown(), page=f"docs/{page.file.src_uri}", marker=MARKER)
    except MarkerError as error:
        raise PluginError(str(error)) from None
