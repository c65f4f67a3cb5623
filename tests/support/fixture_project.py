"""A throw-away project that builds a fixture glossary with the real site's configuration.

The project's ``mkdocs.yml`` is inherited (``INHERIT``), so every hook, extension and theme
setting is the real one; only ``glossary/``, ``docs/`` and the navigation are the fixture's.
Folders the hooks read beside the config file (hooks, site_assets, node_modules) are linked.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from tests.support.site_build import PROJECT_ROOT

LINKED = ("hooks", "site_assets", "node_modules")

HOME_PAGE = """# Hostile fixture

This site builds a fixture glossary of hostile entries with the real configuration.
See the [glossary](glossary/index.md).
"""


def make_fixture_project(root: Path, *, entries_from: Path | None = None, extra: dict[str, str] | None = None) -> Path:
    """Create the project in ``root``; return its config file.

    Args:
        root: An empty folder.
        entries_from: A folder of ``<slug>.md`` entries copied into ``glossary/``.
        extra: More entries, ``{file name: text}`` (e.g. generated huge ones).
    """
    (root / "glossary").mkdir(parents=True)
    (root / "docs").mkdir()
    (root / "docs" / "index.md").write_text(HOME_PAGE, encoding="utf-8")
    if entries_from is not None:
        for entry in sorted(entries_from.glob("*.md")):
            shutil.copyfile(entry, root / "glossary" / entry.name)
    for name, text in (extra or {}).items():
        (root / "glossary" / name).write_text(text, encoding="utf-8")
    for name in LINKED:
        if (PROJECT_ROOT / name).exists():
            os.symlink(PROJECT_ROOT / name, root / name)
    config = root / "mkdocs.yml"
    config.write_text(
        f"INHERIT: {PROJECT_ROOT / 'mkdocs.yml'}\n"
        "site_name: Hostile fixture\n"
        "nav:\n  - Home: index.md\n  - Glossary: glossary/index.md\n",
        encoding="utf-8",
    )
    return config


def entry(title: str, summary: str, body: str, *, front_matter: str = "") -> str:
    """A valid entry's text with the given body (front matter lines 1-9, body from line 11)."""
    return (
        "---\n"
        f"title: {title}\n"
        "category: hardware\n"
        f"summary: {summary}\n"
        "sources:\n"
        "  - title: Hostile content fixture\n"
        "    url: https://example.com/hostile-fixture\n"
        "added: 2026-01-01\n"
        f"{front_matter}"
        "---\n\n"
        f"{body}"
    )
