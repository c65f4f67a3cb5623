"""roofline_site.pyodide_snapshot: the build's snapshot is cached under a key of its inputs."""

from __future__ import annotations

import gzip
import os

import pytest

from roofline_site import pyodide_snapshot
from roofline_site.pyodide_snapshot import Snapshot, build_snapshot, cache_key
from tests.support.site_build import PROJECT_ROOT


def _project(tmp_path):
    """A project folder whose node_modules is the real one (the key reads the Pyodide package)."""
    (tmp_path / "node_modules").symlink_to(PROJECT_ROOT / "node_modules")
    return tmp_path


def test_the_key_changes_with_roofline_core_and_not_otherwise(tmp_path):
    project = _project(tmp_path)
    assert cache_key(project, b"one") == cache_key(project, b"one")
    assert cache_key(project, b"one") != cache_key(project, b"two")


def test_a_made_snapshot_is_cached_and_read_back_without_node(tmp_path, monkeypatch):
    project = _project(tmp_path)
    made = []

    def fake_make(root, *, core_zip_name, core_zip_bytes):
        made.append(core_zip_name)
        return Snapshot(name="roofline_core.0123456789ab.snapshot-1.gz", data=gzip.compress(b"memory", mtime=0))

    monkeypatch.setattr(pyodide_snapshot, "make_snapshot", fake_make)
    first = build_snapshot(project, core_zip_name="roofline_core.0123456789ab.zip", core_zip_bytes=b"zip")
    second = build_snapshot(project, core_zip_name="roofline_core.0123456789ab.zip", core_zip_bytes=b"zip")
    assert first == second
    assert made == ["roofline_core.0123456789ab.zip"]
    build_snapshot(project, core_zip_name="roofline_core.ba9876543210.zip", core_zip_bytes=b"other zip")
    assert len(made) == 2


def test_without_node_making_fails_with_a_snapshot_error(tmp_path, monkeypatch):
    monkeypatch.setattr(pyodide_snapshot.shutil, "which", lambda name: None)
    with pytest.raises(pyodide_snapshot.SnapshotError, match="node is not installed"):
        pyodide_snapshot.make_snapshot(_project(tmp_path), core_zip_name="roofline_core.0.zip", core_zip_bytes=b"")


def test_only_the_latest_snapshots_are_kept(tmp_path, monkeypatch):
    project = _project(tmp_path)

    def fake_make(root, *, core_zip_name, core_zip_bytes):
        return Snapshot(name=core_zip_name + ".snapshot-1.gz", data=core_zip_bytes)

    monkeypatch.setattr(pyodide_snapshot, "make_snapshot", fake_make)
    names = [f"roofline_core.{i:012x}.zip" for i in range(pyodide_snapshot.KEPT_SNAPSHOTS + 2)]
    for number, name in enumerate(names):
        build_snapshot(project, core_zip_name=name, core_zip_bytes=name.encode())
        # Distinct modification times, oldest first, whatever the file system's resolution.
        folder = project / pyodide_snapshot.CACHE_DIR_NAME / cache_key(project, name.encode())[:24]
        os.utime(folder, (1_000_000 + number, 1_000_000 + number))
    kept = sorted(path.name for path in (project / pyodide_snapshot.CACHE_DIR_NAME).iterdir())
    expected = sorted(cache_key(project, name.encode())[:24] for name in names[-pyodide_snapshot.KEPT_SNAPSHOTS :])
    # The two oldest are gone.
    assert kept == expected
