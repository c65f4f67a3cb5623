"""Gate: two clean builds of the same commit are byte-identical, file by file.

The second build runs from a fresh copy of the project at another path (no figure cache),
with another hash seed, time zone and a clock three days ahead. There is no exception list:
MkDocs' dates (sitemap ``<lastmod>``, the gzip header of ``sitemap.xml.gz``) come from the
commit via ``hooks/build_date.py``.
"""

from __future__ import annotations

import pytest

from tests.support.clean_build import build_elsewhere, copy_checkout, first_difference, tree_bytes

pytestmark = pytest.mark.slow


def test_two_clean_builds_are_byte_identical(built_site, tmp_path):
    project = copy_checkout(tmp_path / "checkout")
    result = build_elsewhere(project, tmp_path / "site")
    assert result.returncode == 0, f"second build failed:\n{result.stdout}\n{result.stderr}"
    first, second = tree_bytes(built_site), tree_bytes(tmp_path / "site")
    assert sorted(first) == sorted(second), (
        f"file lists differ: only first {sorted(set(first) - set(second))}, only second {sorted(set(second) - set(first))}"
    )
    differing = [
        f"{name}: {first_difference(first[name], second[name])}"
        for name in sorted(first)
        if first[name] != second[name]
    ]
    assert not differing, f"{len(differing)} files differ between two clean builds:\n" + "\n".join(differing[:30])
