"""Python style is enforced by tools, not memory: ``ruff check`` and ``ruff format --check``.

Ruff is pinned in ``pyproject.toml`` (the ``test`` extra) and configured under ``[tool.ruff]``;
the same commands fix what they find: ``.venv/bin/ruff check --fix . && .venv/bin/ruff format .``.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.site_build import PROJECT_ROOT

RUFF = Path(sys.executable).with_name("ruff")


def _ruff(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(RUFF), *args], cwd=PROJECT_ROOT, input=stdin, capture_output=True, text=True, timeout=120
    )


@pytest.mark.parametrize("command", [("check", "."), ("format", "--check", ".")], ids=["check", "format"])
def test_ruff_finds_nothing(command: tuple[str, ...]) -> None:
    result = _ruff(*command)
    assert result.returncode == 0, f"ruff {' '.join(command)} found problems:\n{result.stdout}{result.stderr}"


def test_ruff_would_catch_an_unused_import() -> None:
    # The configuration is live: a finding in a new file fails the check.
    result = _ruff("check", "--stdin-filename", "roofline_core/example.py", "-", stdin="import os\n")
    assert result.returncode == 1
    assert "F401" in result.stdout
