"""The trimmed standard library and the snapshot are keyed by everything they are made from."""

from __future__ import annotations

from roofline_site import pyodide_snapshot, pyodide_stdlib
from roofline_site.pyodide_bundle import hashed_name
from tests.support.site_build import PROJECT_ROOT


def _project(tmp_path):
    """A project folder whose node_modules is the real one (the keys read the Pyodide package)."""
    (tmp_path / "node_modules").symlink_to(PROJECT_ROOT / "node_modules")
    return tmp_path


def test_the_stdlib_key_changes_with_roofline_core_and_not_otherwise(tmp_path):
    project = _project(tmp_path)
    assert pyodide_stdlib.cache_key(project, b"one") == pyodide_stdlib.cache_key(project, b"one")
    assert pyodide_stdlib.cache_key(project, b"one") != pyodide_stdlib.cache_key(project, b"two")


def test_the_snapshot_key_changes_with_roofline_core_and_with_the_library(tmp_path):
    project = _project(tmp_path)
    key = pyodide_snapshot.cache_key(project, b"core", b"stdlib")
    assert key == pyodide_snapshot.cache_key(project, b"core", b"stdlib")
    assert key != pyodide_snapshot.cache_key(project, b"other core", b"stdlib")
    assert key != pyodide_snapshot.cache_key(project, b"core", b"other stdlib")


def test_the_library_is_named_by_its_content():
    def name(data: bytes) -> str:
        return hashed_name(data, stem=pyodide_stdlib.STEM)

    assert name(b"a") == name(b"a")
    assert name(b"a") != name(b"b")
    assert name(b"a").startswith("python_stdlib.") and name(b"a").endswith(".zip")
