"""No build cache is committed.

A warm build trusts ``.cache/``: entries on record there skip their checks, and compiled
templates there run. Those records must come from this machine's own builds, never from a pull
request, so none may be tracked by git (``.gitignore`` lists the folder; ``git add -f`` could
still add one, and this test is what stops it).
"""

from __future__ import annotations

import shutil
import subprocess

import pytest

from tests.support.site_build import PROJECT_ROOT


@pytest.mark.skipif(shutil.which("git") is None or not (PROJECT_ROOT / ".git").exists(), reason="not a git checkout")
def test_nothing_under_the_build_cache_is_tracked():
    tracked = subprocess.run(
        ["git", "ls-files", "--", ".cache"], cwd=PROJECT_ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    assert tracked == [], (
        f"build caches are committed: {tracked}; expected .cache/ to stay out of git (git rm --cached)"
    )
