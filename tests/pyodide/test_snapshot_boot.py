"""The worker's two boots (site_assets/calculators/boot.mjs), in the pinned Pyodide under Node:
from the build's memory snapshot and the ordinary way give the same numbers as CPython, and a
snapshot made for another Pyodide or another roofline_core, or one Pyodide rejects, is not used.

Every boot uses the build's trimmed, precompiled standard library
(``roofline_site.pyodide_stdlib``), so these also show that it holds every module the numbers need.

One Node process boots six times (about 30 s here); the snapshot comes from the build's cache
(``roofline_site.pyodide_snapshot``), made first if the cache is cold.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from roofline_site.pyodide_bundle import core_zip_bytes, hashed_name
from roofline_site.pyodide_snapshot import build_snapshot
from roofline_site.pyodide_stdlib import build_stdlib
from tests.pyodide import key_numbers
from tests.pyodide.test_pyodide_parity import PROJECT_ROOT, _node_or_skip

HERE = Path(__file__).resolve().parent
RUNNER = HERE / "run_boot_paths.mjs"

pytestmark = pytest.mark.pyodide


@pytest.fixture(scope="module")
def boots(tmp_path_factory: pytest.TempPathFactory) -> dict:
    node = _node_or_skip()
    runtime_dir = tmp_path_factory.mktemp("runtime")
    data = core_zip_bytes()
    zip_path = runtime_dir / hashed_name(data)
    zip_path.write_bytes(data)
    stdlib = build_stdlib(PROJECT_ROOT, core_zip_name=zip_path.name, core_zip_bytes=data)
    stdlib_path = runtime_dir / stdlib.name
    stdlib_path.write_bytes(stdlib.data)
    snapshot = build_snapshot(
        PROJECT_ROOT,
        core_zip_name=zip_path.name,
        core_zip_bytes=data,
        stdlib_name=stdlib.name,
        stdlib_bytes=stdlib.data,
    )
    (runtime_dir / snapshot.name).write_bytes(snapshot.data)
    result = subprocess.run(
        [
            node,
            str(RUNNER),
            str(runtime_dir),
            str(zip_path),
            str(stdlib_path),
            str(HERE / "key_numbers.py"),
            "key_numbers_json()",
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, f"boots failed:\n{result.stderr}"
    return json.loads(result.stdout)


def test_snapshot_boot_is_used_and_equals_the_plain_boot_and_cpython(boots):
    assert boots["plain"]["boot"] == "plain"
    assert boots["snapshot"]["boot"] == "snapshot", boots["snapshot"]["refused"]
    assert boots["snapshot"]["refused"] is None
    # The worker's first answer comes before roofline_core's files are unpacked; they are there after.
    assert boots["snapshot"]["sources"] == [False, True]
    cpython = key_numbers.key_numbers_json()
    assert boots["plain"]["value"] == cpython
    assert boots["snapshot"]["value"] == cpython


@pytest.mark.parametrize(
    ("case", "reason"),
    [
        ("other_pyodide", "not 0.0.0-other"),
        ("other_core", "not 000000000000"),
        ("other_stdlib", "not 111111111111"),
        ("rejected", "Snapshot has invalid magic number"),
    ],
)
def test_a_stale_or_rejected_snapshot_is_refused_and_the_boot_falls_back(boots, case, reason):
    assert boots[case]["boot"] == "plain"
    assert reason in boots[case]["refused"]


def test_the_fallback_after_a_rejected_snapshot_computes_like_cpython(boots):
    assert boots["rejected"]["value"] == key_numbers.key_numbers_json()
