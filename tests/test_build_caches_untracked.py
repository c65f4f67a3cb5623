"""No build cache is committed.

A warm build trusts ``.cache/``: entries on record there skip their checks, and compiled
templates there run. Those records must come from this machine's own builds, never from a pull
request, so none may be tracked by git (``.gitignore`` lists the folder; ``git add -f`` could
still add one, and this test is what stops it). Any letter case counts: on a case-insensitive
checkout ``.Cache/`` is the same folder. The build refuses such a checkout too
(``hooks/build_config.py``).
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from roofline_site.build_config import tracked_cache_paths
from tests.support.site_build import PROJECT_ROOT

needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


@needs_git
@pytest.mark.skipif(not (PROJECT_ROOT / ".git").exists(), reason="not a git checkout")
def test_nothing_under_the_build_cache_is_tracked():
    tracked = tracked_cache_paths(PROJECT_ROOT)
    assert tracked == [], (
        f"build caches are committed: {tracked}; expected .cache/ (any letter case) to stay out of git "
        "(git rm -r --cached)"
    )


def _repo_with(root: Path, paths: list[str]) -> Path:
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    for path in paths:
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text("x\n")
    # core.ignorecase off: the repository records each spelling as written, as on Linux.
    subprocess.run(["git", "-c", "core.ignorecase=false", "add", "-f", "--", *paths], cwd=root, check=True)
    return root


@needs_git
@pytest.mark.parametrize("folder", [".cache", ".Cache", ".CACHE", ".cAcHe"])
def test_a_tracked_cache_folder_is_found_in_any_letter_case(tmp_path, folder):
    repo = _repo_with(tmp_path, [f"{folder}/glossary-checks/passed.json", "docs/index.md"])
    assert tracked_cache_paths(repo) == [f"{folder}/glossary-checks/passed.json"]


@needs_git
def test_only_a_first_component_named_cache_counts(tmp_path):
    repo = _repo_with(tmp_path, [".cachex/a", "docs/.cache/b", "cache/c", "docs/index.md"])
    assert tracked_cache_paths(repo) == []


def test_outside_a_git_checkout_nothing_is_tracked(tmp_path):
    assert tracked_cache_paths(tmp_path) == []
