"""``scripts/setup`` says what it is doing, step by step, and passes on no deprecation notice
from pip or npm (stand-ins for both, so the test installs nothing)."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

from tests.support.site_build import PROJECT_ROOT

NOISY_PIP = """#!/bin/sh
echo "DEPRECATION: Legacy editable install of roofline (setup.py develop) is deprecated." >&2
echo "[notice] A new release of pip is available: 24.0 -> 25.3" >&2
echo "Successfully installed roofline"
exit ${FAKE_PIP_STATUS:-0}
"""
NOISY_NPM = """#!/bin/sh
echo "npm warn deprecated inflight@1.0.6: This module is not supported, and leaks memory." >&2
echo "added 120 packages in 3s"
"""


def _executable(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)


def _project(root: Path) -> dict[str, str]:
    for name in ("scripts/setup", "pyproject.toml", "requirements.lock", "package.json", "package-lock.json"):
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(PROJECT_ROOT / name, root / name)
    _executable(root / ".venv" / "bin" / "python", NOISY_PIP)  # only asked to run pip
    (root / "node_modules").mkdir()
    _executable(root / "bin" / "npm", NOISY_NPM)
    return {**os.environ, "PATH": f"{root / 'bin'}{os.pathsep}{os.environ['PATH']}", "PYTHON": sys.executable}


def _setup(root: Path, env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run(["scripts/setup"], cwd=root, env=env, capture_output=True, text=True, timeout=60)


def test_setup_prints_each_step_and_no_deprecation_notice(tmp_path):
    env = _project(tmp_path)
    first = _setup(tmp_path, env)
    assert first.returncode == 0, first.stderr
    output = first.stdout + first.stderr
    assert "DEPRECATION" not in output and "deprecated" not in output and "[notice]" not in output, output
    assert output.splitlines() == [
        "setup: [1/3] .venv exists",
        "setup: [2/3] installing Python packages pinned by requirements.lock (a few minutes the first time)",
        "Successfully installed roofline",
        "Successfully installed roofline",
        "setup: [3/3] installing npm packages pinned by package-lock.json",
        "added 120 packages in 3s",
        "setup: done",
    ]
    again = _setup(tmp_path, env)
    assert again.stdout.splitlines() == [
        "setup: [1/3] .venv exists",
        "setup: [2/3] Python packages up to date",
        "setup: [3/3] npm packages up to date",
        "setup: done",
    ]


def test_a_failing_install_still_stops_setup(tmp_path):
    env = {**_project(tmp_path), "FAKE_PIP_STATUS": "3"}
    result = _setup(tmp_path, env)
    assert result.returncode == 3
    assert "setup: done" not in result.stdout
    assert not (tmp_path / ".venv" / ".roofline-stamp").exists()
