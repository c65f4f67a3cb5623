"""Small throw-away MkDocs projects that use the project's glossary hook by absolute path."""

from __future__ import annotations

import re
from pathlib import Path

from tests.support.site_build import PROJECT_ROOT, mkdocs_build

HOOK = PROJECT_ROOT / "hooks" / "glossary.py"


def entry(title: str, *, body: str = "Defined here.\n", category: str = "hardware", extra: str = "") -> str:
    return (
        "---\n"
        f"title: {title}\n"
        f"category: {category}\n"
        f"summary: The {title.lower()} term of a test project.\n"
        f"{extra}"
        "sources:\n"
        "  - title: A source\n"
        "    url: https://example.org/source\n"
        "added: 2026-01-01\n"
        "---\n"
        f"{body}"
    )


def make_project(root: Path, entries: dict[str, str], *, home: str = "# Home\n", config: str = "") -> Path:
    """Write ``mkdocs.yml``, ``docs/index.md`` and ``glossary/<slug>.md`` under ``root``."""
    (root / "docs").mkdir(parents=True)
    (root / "glossary").mkdir()
    (root / "docs" / "index.md").write_text(home, encoding="utf-8")
    for slug, text in entries.items():
        (root / "glossary" / f"{slug}.md").write_text(text, encoding="utf-8")
    (root / "mkdocs.yml").write_text(
        "site_name: Fixture\n"
        "site_url: https://example.org/fixture/\n"
        "theme:\n  name: material\n  font: false\n"
        f"hooks:\n  - {HOOK.as_posix()}\n"
        f"{config}",
        encoding="utf-8",
    )
    return root


def build(root: Path):
    return mkdocs_build(root / "mkdocs.yml", root / "site")


def error_lines(result) -> list[str]:
    """Output lines with MkDocs' ``ERROR    -  `` prefix removed."""
    output = result.stdout + result.stderr
    return [re.sub(r"^ERROR\s+-\s+", "", line) for line in output.splitlines()]
