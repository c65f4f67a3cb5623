"""The "Model vs measurement" comparison, generated at build time from the measurements file.

Thin MkDocs adapter: ``measurements/measurements.toml`` is loaded and checked by
:mod:`roofline_core.measurements`, compared and fitted by :mod:`roofline_core.validation`, and
written as Markdown by :mod:`roofline_site.measurements_page`; a page receives it where it has
the marker line. A problem in the data file stops the build with ``<file>:<line>: ...``.
"""

from __future__ import annotations

from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import Files
from mkdocs.structure.pages import Page

from roofline_core.measurements import MeasurementError, load_measurements_file
from roofline_core.validation import validate
from roofline_site.measurements_page import MarkerError, render_markdown, replace_marker

MEASUREMENTS_FILE = Path("measurements") / "measurements.toml"

_generated: str | None = None

# Hooks ---------------------------------------------------------------------------------


def on_config(config: MkDocsConfig) -> MkDocsConfig:
    global _generated
    _generated = render_markdown(validate(_load(_data_path(config))))
    return config


def on_serve(server, config: MkDocsConfig, builder):
    # Editing the data file rebuilds the page under `mkdocs serve`.
    server.watch(str(_data_path(config)))
    return server


def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    if _generated is None:
        raise PluginError("hooks/measurements.py: on_page_markdown ran before on_config")
    try:
        return replace_marker(markdown, _generated, page=f"docs/{page.file.src_uri}")
    except MarkerError as error:
        raise PluginError(str(error)) from None


# Helper functions ----------------------------------------------------------------------


def _data_path(config: MkDocsConfig) -> Path:
    return Path(config.config_file_path).resolve().parent / MEASUREMENTS_FILE


def _load(path: Path):
    try:
        return load_measurements_file(str(path))
    except FileNotFoundError:
        raise PluginError(f"{path}: missing; expected the measurements table") from None
    except MeasurementError as error:
        raise PluginError(str(error)) from None
