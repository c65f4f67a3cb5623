"""Hooks are adapters: each file reads MkDocs' objects, calls roofline_site and returns.

The logic lives in roofline_site, where tests reach it without MkDocs and a move off MkDocs
(DESIGN.md, "What the build takes from MkDocs and Material") rewrites only this folder.
"""

from __future__ import annotations

from tests.support.site_build import PROJECT_ROOT

MAX_LINES = 200


def test_every_hook_file_is_at_most_200_lines():
    sizes = {
        path.name: len(path.read_text(encoding="utf-8").splitlines())
        for path in sorted((PROJECT_ROOT / "hooks").glob("*.py"))
    }
    assert sizes, "no hook files found"
    too_long = {name: lines for name, lines in sizes.items() if lines > MAX_LINES}
    assert too_long == {}, f"move the logic into roofline_site/ (at most {MAX_LINES} lines per hook): {too_long}"
