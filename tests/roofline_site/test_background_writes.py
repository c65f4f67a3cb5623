"""Files written by a child process: all of them, exactly, or a clear error."""

from __future__ import annotations

import subprocess

import pytest

from roofline_site import background_writes
from roofline_site.background_writes import BackgroundWriteError, start_writing, wait_all


def test_every_file_is_written_with_its_text(tmp_path):
    files = {f"glossary/alias-{i}/index.html": f"<p>redirect {i} → é</p>" for i in range(50)}
    pending = start_writing(tmp_path, texts=files)
    assert pending.process is not None  # a child process, not this one
    pending.wait()
    for relative, text in files.items():
        assert (tmp_path / relative).read_text(encoding="utf-8") == text
    assert pending.process is None


def test_copies_are_byte_for_byte(tmp_path):
    source = tmp_path / "card.png"
    source.write_bytes(bytes(range(256)) * 40)
    start_writing(tmp_path / "site", copies={"assets/cards/home.png": source}).wait()
    assert (tmp_path / "site" / "assets" / "cards" / "home.png").read_bytes() == source.read_bytes()


def test_a_copy_outside_the_site_is_refused(tmp_path):
    with pytest.raises(ValueError, match="inside the site directory"):
        start_writing(tmp_path, copies={"../x.png": tmp_path / "card.png"})


def test_the_payload_file_does_not_outlive_the_writes(tmp_path, monkeypatch):
    monkeypatch.setenv("TMPDIR", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    monkeypatch.setattr(background_writes.tempfile, "tempdir", None)  # re-read TMPDIR
    start_writing(tmp_path / "site", texts={"a/index.html": "x"}).wait()
    assert list((tmp_path / "tmp").iterdir()) == []


@pytest.mark.parametrize("relative", ["/etc/passwd", "../outside.html", "a/../../b.html", ""])
def test_paths_outside_the_site_are_refused_before_anything_runs(tmp_path, relative):
    with pytest.raises(ValueError, match="inside the site directory"):
        start_writing(tmp_path, texts={"fine.html": "x", relative: "x"})
    assert not (tmp_path / "fine.html").exists()


def test_a_failed_write_is_reported_with_the_childs_message(tmp_path):
    (tmp_path / "glossary").write_text("a file where a directory must go", encoding="utf-8")
    pending = start_writing(tmp_path, texts={"glossary/alias/index.html": "x"})
    with pytest.raises(BackgroundWriteError, match=r"writing 1 files under .* failed: .*Error"):
        pending.wait()
    pending.wait()  # already collected: nothing left to wait for


def test_waiting_for_all_finishes_every_writer_then_reports_the_first_failure(tmp_path):
    (tmp_path / "glossary").write_text("a file where a directory must go", encoding="utf-8")
    pending = [
        start_writing(tmp_path, texts={"glossary/alias/index.html": "x"}),
        start_writing(tmp_path, texts={"fine/index.html": "y"}),
    ]
    with pytest.raises(BackgroundWriteError):
        wait_all(pending)
    assert pending == [] and (tmp_path / "fine" / "index.html").read_text(encoding="utf-8") == "y"
    failing = [start_writing(tmp_path, texts={"glossary/other/index.html": "x"})]
    wait_all(failing, quietly=True)  # a build that failed earlier only lets its writers finish
    assert failing == []


def test_without_a_child_process_the_files_are_written_here(tmp_path, monkeypatch):
    def refuse(*args, **kwargs):
        raise OSError("no processes left")

    monkeypatch.setattr(subprocess, "Popen", refuse)
    pending = start_writing(tmp_path, texts={"b/index.html": "y"})
    assert pending.process is None
    assert (tmp_path / "b" / "index.html").read_text(encoding="utf-8") == "y"
    pending.wait()


def test_nothing_to_write_starts_nothing(tmp_path):
    pending = start_writing(tmp_path)
    assert pending.process is None and pending.count == 0
    pending.wait()
