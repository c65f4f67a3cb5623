"""Throw-away MkDocs projects built with the site's own hooks and Markdown extensions.

The hooks and the ``markdown_extensions`` section are taken from the project's ``mkdocs.yml``,
so a fixture builds pages exactly as the site does (whatever hook files the site uses).
"""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

from tests.support.site_build import PROJECT_ROOT, mkdocs_build

SITE_CONFIG = PROJECT_ROOT / "mkdocs.yml"

ENTRY = """\
---
title: {title}
category: hardware
summary: The {title} term of a fixture project.
sources:
  - title: A source
    url: https://example.org/source
added: 2026-01-01
---
{body}"""


def site_hooks() -> list[Path]:
    """The hook files of the site's ``mkdocs.yml``, as absolute paths, in order."""
    section = _top_level_section("hooks")
    return [PROJECT_ROOT / line.strip()[2:].strip() for line in section.splitlines() if line.strip().startswith("- ")]


def markdown_extensions_yaml() -> str:
    """The ``markdown_extensions:`` section of the site's ``mkdocs.yml``, verbatim."""
    return "markdown_extensions:\n" + _top_level_section("markdown_extensions")


def make_site(root: Path, pages: dict[str, str], *, glossary: dict[str, str] | None = None) -> Path:
    """Write a project under ``root``: ``docs/<name>`` pages and ``glossary/<slug>.md`` bodies.

    Args:
        root: Empty folder for the project.
        pages: File name in ``docs/`` -> Markdown (dedented).
        glossary: Slug -> entry body (front matter is added: nine lines).

    Returns:
        The path of the fixture's ``mkdocs.yml``.
    """
    (root / "docs").mkdir(parents=True)
    (root / "glossary").mkdir()
    for name, text in pages.items():
        (root / "docs" / name).write_text(textwrap.dedent(text), encoding="utf-8")
    for slug, body in (glossary or {"fixture-term": "Defined here.\n"}).items():
        (root / "glossary" / f"{slug}.md").write_text(
            ENTRY.format(title=slug.replace("-", " "), body=body), encoding="utf-8"
        )
    hooks = "".join(f"  - {hook.as_posix()}\n" for hook in site_hooks())
    config = (
        "site_name: Fixture\n"
        "site_url: http://127.0.0.1:8000/\n"
        "theme:\n"
        "  name: material\n"
        "  font: false\n"
        f"  custom_dir: {(PROJECT_ROOT / 'site_assets' / 'overrides').as_posix()}\n"
        f"hooks:\n{hooks}"
        f"{markdown_extensions_yaml()}"
    )
    (root / "mkdocs.yml").write_text(config, encoding="utf-8")
    return root / "mkdocs.yml"


def build(config: Path):
    """``mkdocs build --strict`` of the fixture into ``site/`` beside its ``mkdocs.yml``."""
    return mkdocs_build(config, config.parent / "site")


def _top_level_section(key: str) -> str:
    text = SITE_CONFIG.read_text(encoding="utf-8")
    match = re.search(rf"^{key}:[ \t]*\n((?:(?:[ \t]+.*|[ \t]*)\n)+)", text, flags=re.MULTILINE)
    if match is None:
        raise ValueError(f"{SITE_CONFIG}: no top-level '{key}:' section")
    return match.group(1)
