"""Serve ``site_assets/`` (browser JavaScript and CSS) at ``assets/roofline/`` in the built site.

The files stay outside ``docs/`` so that ``docs/`` holds only pages; they are added as
generated files, so nothing is copied into ``docs/``. ``site_assets/overrides/`` is the theme's
``custom_dir`` (templates), not an asset folder, and is skipped.
"""

from __future__ import annotations

from pathlib import Path

from mkdocs.structure.files import File, Files

SOURCE_DIR = Path(__file__).resolve().parent.parent / "site_assets"
URL_PREFIX = "assets/roofline"
SKIPPED_DIRS = {"overrides"}

# Hooks ---------------------------------------------------------------------------------


def on_files(files: Files, config) -> Files:
    for path in _asset_paths():
        relative = path.relative_to(SOURCE_DIR).as_posix()
        files.append(File.generated(config, f"{URL_PREFIX}/{relative}", abs_src_path=str(path)))
    return files


# Helper functions ----------------------------------------------------------------------


def _asset_paths() -> list[Path]:
    if not SOURCE_DIR.is_dir():
        return []
    return sorted(
        p for p in SOURCE_DIR.rglob("*") if p.is_file() and p.relative_to(SOURCE_DIR).parts[0] not in SKIPPED_DIRS
    )
