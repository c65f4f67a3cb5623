"""The "Model vs measurement" comparison, generated at build time from the measurements file.

Thin MkDocs adapter: ``measurements/measurements.toml`` is loaded and checked by
:mod:`roofline_core.measurements`, compared and fitted by :mod:`roofline_core.validation`, and
written as Markdown by :mod:`roofline_site.measurements_page`; a page receives it where it has
the marker line (only such a page needs the data file). A problem in the data file stops the
build with ``<file>:<line>: ...``.
"""

from __future__ import annotations

from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import Files
from mkdocs.structure.pages import Page

from roofline_core.measurements import MeasurementError, MeasurementTable, load_measurements
from roofline_core.validation import RowError, validate
from roofline_site import measurements_page
from roofline_site.atomic_write import write_atomic
from roofline_site.measurements_page import MARKER, MarkerError, render_markdown, replace_marker

MEASUREMENTS_FILE = Path("measurements") / "measurements.toml"
# The generated page, kept between builds under a key of everything it is made from.
CACHE_DIR_NAME = ".cache/measurements-page"

_generated: dict[Path, str] = {}  # data file -> the Markdown generated from it, once per build

# Hooks ---------------------------------------------------------------------------------


def on_config(config: MkDocsConfig) -> MkDocsConfig:
    # A new build (or a rebuild under `mkdocs serve`) reads the data file afresh.
    _generated.clear()
    return config


def on_serve(server, config: MkDocsConfig, builder):
    # Editing the data file rebuilds the page under `mkdocs serve`.
    if _data_path(config).exists():
        server.watch(str(_data_path(config)))
    return server


def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    # Only a page holding the marker needs the data file, so projects without one still build.
    if MARKER not in markdown:
        return markdown
    try:
        return replace_marker(markdown, _markdown_for(_data_path(config)), page=f"docs/{page.file.src_uri}")
    except MarkerError as error:
        raise PluginError(str(error)) from None


# Helper functions ----------------------------------------------------------------------


def _data_path(config: MkDocsConfig) -> Path:
    return Path(config.config_file_path).resolve().parent / MEASUREMENTS_FILE


def _markdown_for(path: Path) -> str:
    if path not in _generated:
        cached = _cache_file(path)
        if cached is not None and cached.is_file():
            _generated[path] = cached.read_text(encoding="utf-8")
            return _generated[path]
        table = _load(path)
        try:
            report = validate(table)
        except RowError as error:
            raise PluginError(f"{MEASUREMENTS_FILE.as_posix()}:{error}") from None
        _generated[path] = render_markdown(report, table)
        if cached is not None:
            _keep_only(cached, _generated[path])
    return _generated[path]


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
    return path.parent.parent / CACHE_DIR_NAME / f"{key[:32]}.md"


def _keep_only(cached: Path, markdown: str) -> None:
    cached.parent.mkdir(parents=True, exist_ok=True)
    for old in cached.parent.glob("*.md"):
        old.unlink(missing_ok=True)
    write_atomic(cached, markdown.encode("utf-8"))


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
