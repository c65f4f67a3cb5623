"""roofline_site.atomic_write: a cache file appears whole or not at all."""

from __future__ import annotations

import pytest

from roofline_site import atomic_write
from roofline_site.atomic_write import write_atomic


def test_it_writes_the_bytes_creating_the_folder_and_leaves_no_temporary(tmp_path):
    path = tmp_path / "new" / "file.bin"
    write_atomic(path, b"one")
    write_atomic(path, b"two")
    assert path.read_bytes() == b"two"
    assert [p.name for p in path.parent.iterdir()] == ["file.bin"]


def test_a_failed_write_keeps_the_old_file_and_removes_the_temporary(tmp_path, monkeypatch):
    path = tmp_path / "file.bin"
    write_atomic(path, b"old")

    def broken(source, target):
        raise OSError("disk full")

    monkeypatch.setattr(atomic_write.os, "replace", broken)
    with pytest.raises(OSError, match="disk full"):
        write_atomic(path, b"new")
    assert path.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["file.bin"]
