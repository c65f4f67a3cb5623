"""Under CI=true a skipped test fails the run (tests/support/no_skips.py); elsewhere a skip is a skip."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.support.site_build import PROJECT_ROOT

SKIPPING = """
import pytest

def test_runs():
    pass

def test_needs_something_missing():
    pytest.skip("no such tool here")
"""


def _run(tmp_path, ci: str) -> subprocess.CompletedProcess:
    (tmp_path / "test_skipping.py").write_text(SKIPPING, encoding="utf-8")
    env = {**os.environ, "CI": ci, "PYTHONPATH": str(PROJECT_ROOT)}
    args = [sys.executable, "-m", "pytest", "-p", "tests.support.no_skips", "-p", "no:cacheprovider"]
    args += ["-c", os.devnull, "--rootdir", str(tmp_path), "-p", "no:xdist", str(tmp_path)]
    return subprocess.run(args, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)


def test_under_ci_a_skip_fails_the_run_and_is_named(tmp_path):
    result = _run(tmp_path, "true")
    assert result.returncode == 1, result.stdout + result.stderr
    assert "CI=true: 1 skipped, and nothing may be skipped:" in result.stdout
    assert "no such tool here" in result.stdout


def test_outside_ci_a_skip_is_only_reported(tmp_path):
    result = _run(tmp_path, "")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "nothing may be skipped" not in result.stdout
