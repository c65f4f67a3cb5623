"""Serve ``site_assets/`` (browser JavaScript and CSS) at ``assets/roofline/`` in the built site.

The files stay outside ``docs/`` so that ``docs/`` holds only pages; they are added as
generated files, so nothing is copied into ``docs/``. ``site_assets/overrides/`` is the theme's
``custom_dir`` (templates), not an asset folder, and is skipped.

The site's style sheets are kept apart in the source (one per concern) and served as one,
``assets/roofline/roofline.css`` (``mkdocs.yml``'s ``extra_css``): one request instead of four
on every page, ahead of the first paint. The service worker (``offline/sw.js``) is served at the
site's root as ``sw.js``.
"""

from __future__ import annotations

from pathlib import Path

from mkdocs.structure.files import File, Files

SOURCE_DIR = Path(__file__).resolve().parent.parent / "site_assets"
URL_PREFIX = "assets/roofline"
SKIPPED_DIRS = {"overrides"}
#: The one style sheet pages load, and its parts in cascade order (paths in ``site_assets/``).
STYLE_SHEET = "roofline.css"
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
    files.append(File.generated(config, f"{URL_PREFIX}/{STYLE_SHEET}", content=style_sheet()))
    return files


# Helper functions ----------------------------------------------------------------------


def style_sheet() -> str:
    """The parts, in order, each under a comment naming its source file."""
    return "\n".join(
        f"/* site_assets/{part} */\n{(SOURCE_DIR / part).read_text(encoding='utf-8').strip()}\n"
        for part in STYLE_SHEET_PARTS
    )


def _asset_paths() -> list[Path]:
    if not SOURCE_DIR.is_dir():
        return []
    return sorted(
        p for p in SOURCE_DIR.rglob("*") if p.is_file() and p.relative_to(SOURCE_DIR).parts[0] not in SKIPPED_DIRS
    )
