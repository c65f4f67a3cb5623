"""The "Model vs measurement" comparison, generated at build time from the measurements file.

Thin MkDocs adapter: ``measurements/measurements.toml`` is loaded and checked by
:mod:`roofline_core.evidence.measurements`, compared and fitted by :mod:`roofline_core.evidence.validation`, and
written as Markdown by :mod:`roofline_site.measurements_page`; a page receives it where it has
the marker lines (only such a page needs the data file). The summary's chart of measured against
estimated speed is figure data from :mod:`roofline_core.figures.measured`, drawn and cached like
every figure (:mod:`roofline_site.figures`). A problem in the data file stops the build with
``<file>:<line>: ...``.
"""

from __future__ import annotations

import json
from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import Files
from mkdocs.structure.pages import Page
from mkdocs.utils import get_relative_url

from roofline_core.estimates.efficiency import FITTED
from roofline_core.evidence.measurements import MeasurementError, MeasurementTable, load_measurements
from roofline_core.evidence.validation import RowError, validate
from roofline_core.figures.measured import measured_vs_predicted_figure
from roofline_core.version import data_version
from roofline_core.view import figure_csv
from roofline_site import measurements_page
from roofline_site.atomic_write import write_atomic
from roofline_site.downloads import data_file, download_bar, download_link
from roofline_site.figures.cache import FigureCache
from roofline_site.figures.html import FIGURES_DIR, figure_html, svg_file
from roofline_site.figures.pages import cache_dir_for
from roofline_site.measurements_page import (
    DOWNLOADS_MARKER,
    MARKER,
    SUMMARY_MARKER,
    TABLE_FILES,
    MarkerError,
    render_markdown,
    render_summary,
    replace_marker,
    table_files,
)

MEASUREMENTS_FILE = Path("measurements") / "measurements.toml"
# The generated page, kept between builds under a key of everything it is made from.
CACHE_DIR_NAME = ".cache/measurements-page"

# Data file -> what is generated from it (the page's Markdown and the chart's data), once per build.
_generated: dict[Path, dict] = {}
# The chart's SVG and CSV files and the table's CSV and JSON, by site path, written after the build.
_files: dict[str, bytes] = {}
# Stands for the chart in the cached summary: its HTML names the page-relative URL of the SVG.
_FIGURE = "<!-- roofline:measurements-figure -->"

# Hooks ---------------------------------------------------------------------------------


def on_config(config: MkDocsConfig) -> MkDocsConfig:
    # A new build (or a rebuild under `mkdocs serve`) reads the data file afresh.
    _generated.clear()
    _files.clear()
    return config


def on_serve(server, config: MkDocsConfig, builder):
    # Editing the data file rebuilds the page under `mkdocs serve`.
    if _data_path(config).exists():
        server.watch(str(_data_path(config)))
    return server


def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    # Only a page holding the marker needs the data file, so projects without one still build.
    if MARKER not in markdown and SUMMARY_MARKER not in markdown:
        return markdown
    generated = _generated_for(_data_path(config))
    where = f"docs/{page.file.src_uri}"
    summary = generated["summary"].replace(_FIGURE, _figure(generated["figure"], config, page), 1)
    details = generated["details"].replace(DOWNLOADS_MARKER, _table_downloads(generated["files"], page), 1)
    try:
        markdown = replace_marker(markdown, summary, page=where, marker=SUMMARY_MARKER)
        return replace_marker(markdown, details, page=where)
    except MarkerError as error:
        raise PluginError(str(error)) from None


def on_post_build(config: MkDocsConfig) -> None:
    # The chart's SVG: a content-hashed name, like every figure's.
    for site_path, data in _files.items():
        target = Path(config.site_dir) / site_path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)


# Helper functions ----------------------------------------------------------------------


def _data_path(config: MkDocsConfig) -> Path:
    return Path(config.config_file_path).resolve().parent / MEASUREMENTS_FILE


def _generated_for(path: Path) -> dict:
    """``{"summary", "details", "figure"}``: the two parts' Markdown (the summary with
    :data:`_FIGURE` where the chart goes) and the chart's data."""
    if path not in _generated:
        cached = _cache_file(path)
        if cached is not None and cached.is_file():
            _generated[path] = json.loads(cached.read_text(encoding="utf-8"))
            return _generated[path]
        table = _load(path)
        try:
            report = validate(table, FITTED)  # the site's own constants: no refit a build
        except RowError as error:
            raise PluginError(f"{MEASUREMENTS_FILE.as_posix()}:{error}") from None
        _generated[path] = {
            "summary": render_summary(report, _FIGURE),
            "details": render_markdown(report, table),
            "figure": measured_vs_predicted_figure(report),
            "files": table_files(report, version=data_version()),
        }
        if cached is not None:
            _keep_only(cached, json.dumps(_generated[path], sort_keys=True))
    return _generated[path]


def _figure(data: dict, config: MkDocsConfig, page: Page) -> str:
    """The chart's HTML for ``page``; its SVG comes from the figures' cache (drawn on a miss)."""
    svg = FigureCache(directory=cache_dir_for(_project_root(config))).svg(data)
    name, file_bytes = svg_file(svg)
    _files[FIGURES_DIR + name] = file_bytes
    csv_path, csv_bytes = data_file("measured-figure", figure_csv(data, data_version=data_version()))
    _files[csv_path] = csv_bytes
    src, csv_src = (get_relative_url(path, page.url) for path in (FIGURES_DIR + name, csv_path))
    return figure_html(svg, data, number=1, src=src, csv_src=csv_src)


def _table_downloads(files: dict[str, str], page: Page) -> str:
    """The table's CSV and JSON files, written after the build, and the links to them."""
    links = []
    for kind, site_path in TABLE_FILES.items():
        _files[site_path] = files[kind].encode("utf-8")
        href, label = get_relative_url(site_path, page.url), f"Download {kind.upper()}"
        name = f"{label} of every measurement"
        links.append(download_link(href, filename=f"measurements.{kind}", label=label, name=name, kind=f"table-{kind}"))
    return download_bar(links, name="Download the measurements")


def _project_root(config: MkDocsConfig) -> Path:
    return Path(config.config_file_path).resolve().parent


def _cache_file(path: Path) -> Path | None:
    """Where the page made from this data file by this code is kept between builds.

    Fitting the model to every measurement is most of this hook's time; its result depends only
    on the data file, roofline_core (formulas, presets, the fit) and the page's writer.
    """
    try:
        data = path.read_bytes()
    except OSError:
        return None  # _load says what is wrong
    key = measurements_page.page_cache_key(data)
    return path.parent.parent / CACHE_DIR_NAME / f"{key[:32]}.json"


def _keep_only(cached: Path, text: str) -> None:
    cached.parent.mkdir(parents=True, exist_ok=True)
    for old in [*cached.parent.glob("*.md"), *cached.parent.glob("*.json")]:
        old.unlink(missing_ok=True)
    write_atomic(cached, text.encode("utf-8"))


def _load(path: Path) -> MeasurementTable:
    # Messages name the file as a contributor sees it in the repository.
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise PluginError(f"{MEASUREMENTS_FILE.as_posix()}: missing; expected the measurements table") from None
    try:
        return load_measurements(text, filename=MEASUREMENTS_FILE.as_posix())
    except MeasurementError as error:
        raise PluginError(str(error)) from None
