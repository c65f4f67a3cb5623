"""roofline_core inside real Pyodide (the pinned npm package, run by Node) gives CPython's numbers.

One Pyodide boot per session (about 3 s here): the Node script computes every key number and
every calculator's result at its defaults and at a few bad inputs, and the JSON must equal
CPython's byte for byte.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from roofline_site.pyodide_bundle import core_zip_bytes
from tests.pyodide import key_numbers
from tests.support.no_skips import IN_CI

HERE = Path(__file__).resolve().parent
PROJECT_ROOT = HERE.parents[1]
RUNNER = HERE / "run_in_pyodide.mjs"

pytestmark = pytest.mark.pyodide


def _node_or_skip() -> str:
    node = shutil.which("node")
    problem = None
    if node is None:
        problem = "node is not installed (Node 20 or newer runs the Pyodide parity test)"
    elif not (PROJECT_ROOT / "node_modules" / "pyodide" / "pyodide.mjs").is_file():
        problem = "node_modules/pyodide is missing: run scripts/setup (npm ci)"
    if problem:
        if IN_CI:
            pytest.fail(problem + " (CI=true: the Pyodide test may not be skipped)")
        pytest.skip(problem)
    return node


def run_in_pyodide(node: str, tmp_dir: Path, expression: str, timeout_s: float = 300) -> str:
    """Evaluate ``expression`` (after running key_numbers.py) inside Pyodide; return its string."""
    zip_path = tmp_dir / "roofline_core.zip"
    zip_path.write_bytes(core_zip_bytes())
    result = subprocess.run(
        [node, str(RUNNER), str(zip_path), str(HERE / "key_numbers.py"), expression],
        capture_output=True,
        text=True,
        timeout=timeout_s,
    )
    assert result.returncode == 0, f"Pyodide run failed:\n{result.stderr}"
    return result.stdout


@pytest.fixture(scope="session")
def pyodide_key_numbers(tmp_path_factory: pytest.TempPathFactory) -> str:
    node = _node_or_skip()
    return run_in_pyodide(node, tmp_path_factory.mktemp("pyodide"), "key_numbers_json()")


def test_pyodide_key_numbers_equal_cpython(pyodide_key_numbers: str) -> None:
    cpython = key_numbers.key_numbers_json()
    if pyodide_key_numbers != cpython:
        # Name the first differing entry rather than dumping two megabyte-long strings.
        ours, theirs = json.loads(cpython), json.loads(pyodide_key_numbers)
        for section in ours:
            for key in ours[section]:
                assert theirs[section].get(key) == ours[section][key], f"{section}.{key} differs in Pyodide"
    assert pyodide_key_numbers == cpython


def test_pyodide_reproduces_the_seeds(pyodide_key_numbers: str) -> None:
    # The same seed numbers the CPython tests check, read from Pyodide's own output.
    seeds = json.loads(pyodide_key_numbers)["seeds"]
    assert round(seeds["ridge_h100"]) == 295
    assert round(seeds["ridge_a100_80gb"]) == 153
    assert round(seeds["decode_8b_step_time_s"] * 1e3, 2) == 4.78
    assert round(seeds["decode_8b_tokens_per_s"]) == 209
    assert [round(row[4]) for row in seeds["seed_004_table"]] == [24, 48, 96, 191, 383, 766, 1531, 3063, 6126]
    assert round(seeds["kv_llama_3_70b_32k"] / 1e9, 1) == 10.7
    assert seeds["matvec_seed_003"] == 0.5625
    assert seeds["int8_bytes_ratio"] == 0.5 and seeds["int8_intensity_ratio"] == 2.0
    calculators = json.loads(pyodide_key_numbers)["calculators"]
    for calc_id, result in calculators.items():
        assert result["defaults"]["errors"] == {}, calc_id
        kinds = {field["id"]: field["kind"] for field in result["definition"]["inputs"]}
        # Every bad input was caught as an error of its field, inside Pyodide too.
        for field_id, errors in result["bad"].items():
            if kinds[field_id] == "paste":
                # Any text is a paste: what it cannot read is named in the result instead.
                assert not any(field_id in e for e in errors), (calc_id, field_id)
                continue
            assert any(field_id in e for e in errors), (calc_id, field_id)


def test_pyodide_reads_engine_start_up_logs(pyodide_key_numbers: str) -> None:
    # roofline_core.engine_log runs in the reader's browser: the same numbers, read there.
    logs = json.loads(pyodide_key_numbers)["engine_logs"]
    assert {name: log["engine"] for name, log in logs.items()} == {
        "vllm": "vllm",
        "sglang": "sglang",
        "llama.cpp": "llama.cpp",
    }
    available = logs["vllm"]["numbers"][0]
    assert (available["name"], available["value"], available["scope"]) == (
        "kv_cache_memory_bytes",
        53.47 * 2**30,
        "DP0",
    )
    assert [u["line_number"] for u in logs["vllm"]["unused"]] == [3]
    assert logs["sglang"]["numbers"][-1]["scope"] == "TP2"
