"""The JavaScript linter (ESLint's recommended rules, pinned in package.json) finds nothing.

It runs the project's own ``node_modules/.bin/eslint`` with ``eslint.config.mjs``, as
``npm run lint`` does, so ``scripts/test`` fails on any finding.
"""

from __future__ import annotations

import shutil
import subprocess

import pytest

from tests.support.no_skips import IN_CI
from tests.support.site_build import PROJECT_ROOT

ESLINT = PROJECT_ROOT / "node_modules" / ".bin" / "eslint"


@pytest.fixture(scope="module")
def eslint() -> str:
    problem = None
    if shutil.which("node") is None:
        problem = "node is not installed (Node 20 or newer runs ESLint)"
    elif not ESLINT.exists():
        problem = "node_modules/.bin/eslint is missing: run scripts/setup (npm ci)"
    if problem:
        if IN_CI:
            pytest.fail(problem + " (CI=true: the lint may not be skipped)")
        pytest.skip(problem)
    return str(ESLINT)


def _run(eslint: str, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [eslint, "--max-warnings=0", *args], cwd=PROJECT_ROOT, input=stdin, capture_output=True, text=True, timeout=120
    )


def test_eslint_finds_nothing(eslint):
    result = _run(eslint, ".")
    assert result.returncode == 0, f"ESLint findings:\n{result.stdout}{result.stderr}"


def test_eslint_lints_the_site_scripts_and_reports_a_finding(eslint):
    # The same config applied to a browser module with an unused variable and an undefined name:
    # proves the files are covered and that a finding fails the run.
    result = _run(
        eslint,
        "--stdin",
        "--stdin-filename",
        "site_assets/calculators/example.mjs",
        stdin="const unused = 1;\nnotDefined();\n",
    )
    assert result.returncode == 1, result.stdout + result.stderr
    assert "no-unused-vars" in result.stdout and "no-undef" in result.stdout
