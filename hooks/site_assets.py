"""Serve ``site_assets/`` (browser JavaScript and CSS) at ``assets/roofline/`` in the built site.

The files stay outside ``docs/`` so that ``docs/`` holds only pages; they are added as
generated files, so nothing is copied into ``docs/``. ``site_assets/overrides/`` is the theme's
``custom_dir`` (templates), not an asset folder, and is skipped.

The site's style sheets are kept apart in the source (one per concern) and served, after
Material's own two, as one content-named sheet, ``assets/roofline/site.<hash>.css``
(``roofline_site.style_sheet``): one request before the first paint instead of three. Its path
is ``config.extra.roofline_style_sheet``, which the theme overrides link in place of Material's
sheets. The service worker (``offline/sw.js``) is served at the site's root as ``sw.js``.
"""

from __future__ import annotations

from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files

from roofline_site.style_sheet import StyleSheetError, hashed_name, joined_sheet, theme_sheets

SOURCE_DIR = Path(__file__).resolve().parent.parent / "site_assets"
URL_PREFIX = "assets/roofline"
SKIPPED_DIRS = {"overrides"}
#: The site's parts of the one style sheet, in cascade order (paths in ``site_assets/``).
STYLE_SHEET_PARTS = ("site.css", "glossary/glossary.css", "figures.css", "calculators/calculators.css")
#: The service worker, served at the site's root: a worker's scope is at most its own folder.
SERVICE_WORKER = "offline/sw.js"

# Hooks ---------------------------------------------------------------------------------


def on_files(files: Files, config) -> Files:
    for path in _asset_paths():
        relative = path.relative_to(SOURCE_DIR).as_posix()
        if relative == SERVICE_WORKER:
            files.append(File.generated(config, "sw.js", abs_src_path=str(path)))
        elif relative not in STYLE_SHEET_PARTS:
            files.append(File.generated(config, f"{URL_PREFIX}/{relative}", abs_src_path=str(path)))
    css = style_sheet(files, palette=bool(config.theme.get("palette")))
    site_path = hashed_name(URL_PREFIX, css)
    files.append(File.generated(config, site_path, content=css))
    config.extra["roofline_style_sheet"] = site_path
    return files


# Helper functions ----------------------------------------------------------------------


def style_sheet(files: Files, *, palette: bool) -> str:
    """Material's sheets (as its base.html would link them), then the site's parts."""
    try:
        theme = theme_sheets((file.src_uri for file in files), palette=palette)
    except StyleSheetError as error:
        raise PluginError(f"hooks/site_assets.py: {error}") from None
    parts = [(f"{path} (Material for MkDocs)", files.get_file_from_path(path).content_string) for path in theme]
    parts += [(f"site_assets/{part}", (SOURCE_DIR / part).read_text(encoding="utf-8")) for part in STYLE_SHEET_PARTS]
    return joined_sheet(parts)


def _asset_paths() -> list[Path]:
    if not SOURCE_DIR.is_dir():
        return []
    return sorted(
        p for p in SOURCE_DIR.rglob("*") if p.is_file() and p.relative_to(SOURCE_DIR).parts[0] not in SKIPPED_DIRS
    )
