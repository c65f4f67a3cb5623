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

from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files

from roofline_site.module_preloads import static_imports

SOURCE_DIR = Path(__file__).resolve().parent.parent / "site_assets"
URL_PREFIX = "assets/roofline"
SKIPPED_DIRS = {"overrides"}
#: The one style sheet pages load, and its parts in cascade order (paths in ``site_assets/``).
STYLE_SHEET = "roofline.css"
STYLE_SHEET_PARTS = ("site.css", "glossary/glossary.css", "figures.css", "calculators/calculators.css")
#: The service worker, served at the site's root: a worker's scope is at most its own folder.
SERVICE_WORKER = "offline/sw.js"
#: What calculators/loader.mjs imports at once on a page with a calculator mounted at load.
CALCULATOR_MODULE = "calculators/calculator.mjs"

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


@event_priority(50)
def on_env(env, config, files):
    env.globals["roofline_module_preloads"] = module_preloads(config)
    return env


# Helper functions ----------------------------------------------------------------------


def module_preloads(config) -> dict[str, list[str]]:
    """Site paths of the modules to preload (partials/module-preloads.html): ``every_page``, the
    static imports of the site's module scripts in ``extra_javascript``; ``calculator``, the
    calculator module and its static imports."""
    scripts = [str(getattr(script, "path", script)) for script in config.extra_javascript]
    entries = [s.removeprefix(URL_PREFIX + "/") for s in scripts if s.startswith(URL_PREFIX + "/")]
    every_page: list[str] = []
    for entry in entries:
        every_page += [m for m in static_imports(SOURCE_DIR, entry) if m not in entries and m not in every_page]
    calculator = [CALCULATOR_MODULE, *static_imports(SOURCE_DIR, CALCULATOR_MODULE)]
    return {
        "every_page": [f"{URL_PREFIX}/{m}" for m in every_page],
        "calculator": [f"{URL_PREFIX}/{m}" for m in calculator if m not in every_page],
    }


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
