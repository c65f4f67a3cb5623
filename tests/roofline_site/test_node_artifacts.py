"""roofline_site.node_artifacts: files made in Node are cached under a key of their inputs."""

from __future__ import annotations

import os
import threading
import time

import pytest

from roofline_site import node_artifacts
from roofline_site.node_artifacts import Artifact, cached_artifact, input_key, run_node


def test_the_key_changes_with_any_input_and_not_otherwise():
    assert input_key([b"a", b"b"]) == input_key([b"a", b"b"])
    assert input_key([b"a", b"b"]) != input_key([b"a", b"c"])
    # Parts are hashed one by one, so moving bytes between parts changes the key.
    assert input_key([b"ab", b""]) != input_key([b"a", b"b"])


def test_a_made_artifact_is_cached_and_read_back_without_making_it_again(tmp_path):
    made = []

    def make(name):
        made.append(name)
        return Artifact(name=name, data=name.encode())

    first = cached_artifact(tmp_path, input_key([b"one"]), lambda: make("one.bin"))
    second = cached_artifact(tmp_path, input_key([b"one"]), lambda: make("never.bin"))
    assert first == second == Artifact(name="one.bin", data=b"one.bin")
    assert made == ["one.bin"]
    cached_artifact(tmp_path, input_key([b"two"]), lambda: make("two.bin"))
    assert made == ["one.bin", "two.bin"]


def test_builds_side_by_side_that_miss_the_same_record_make_it_once(tmp_path):
    key = input_key([b"shared"])
    made = []
    first_is_making = threading.Event()

    def make(name):
        made.append(name)
        first_is_making.set()
        time.sleep(0.2)  # the second caller asks meanwhile; without the lock it would make its own
        return Artifact(name=name, data=b"x")

    results = {}
    first = threading.Thread(target=lambda: results.setdefault(1, cached_artifact(tmp_path, key, lambda: make("a"))))
    first.start()
    assert first_is_making.wait(10)
    results[2] = cached_artifact(tmp_path, key, lambda: make("b"))
    first.join()
    assert made == ["a"]
    assert results[1] == results[2] == Artifact(name="a", data=b"x")


def test_only_the_latest_artifacts_are_kept(tmp_path):
    keys = [input_key([str(i).encode()]) for i in range(node_artifacts.KEPT_ARTIFACTS + 2)]
    for number, key in enumerate(keys):
        cached_artifact(tmp_path, key, lambda: Artifact(name="a.bin", data=b"x"))
        # Distinct modification times, oldest first, whatever the file system's resolution.
        os.utime(tmp_path / key[:24], (1_000_000 + number, 1_000_000 + number))
    kept = sorted(path.name for path in tmp_path.iterdir())
    # The two oldest are gone.
    assert kept == sorted(key[:24] for key in keys[-node_artifacts.KEPT_ARTIFACTS :])


def test_without_node_running_a_maker_fails_with_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.setattr(node_artifacts.shutil, "which", lambda name: None)
    with pytest.raises(node_artifacts.NodeArtifactError, match="node is not installed"):
        run_node(tmp_path / "maker.mjs", [], timeout_s=1)


def test_a_failing_maker_reports_its_error_output(tmp_path):
    maker = tmp_path / "maker.mjs"
    maker.write_text('console.error("no such package"); process.exit(3);\n', encoding="utf-8")
    if node_artifacts.shutil.which("node") is None:
        pytest.skip("node is not installed")
    with pytest.raises(node_artifacts.NodeArtifactError, match="maker.mjs failed: no such package"):
        run_node(maker, [], timeout_s=60)
