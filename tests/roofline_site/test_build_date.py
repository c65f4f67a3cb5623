"""roofline_site.build_date: the build is dated by the commit."""

from __future__ import annotations

import subprocess

from roofline_site.build_date import commit_epoch_s
from tests.support.site_build import PROJECT_ROOT


def test_commit_epoch_is_heads_committer_time():
    expected = subprocess.run(
        ["git", "log", "-1", "--format=%ct"], cwd=PROJECT_ROOT, capture_output=True, text=True, check=True
    )
    assert commit_epoch_s(PROJECT_ROOT) == int(expected.stdout)


def test_outside_a_checkout_there_is_no_commit_date(tmp_path):
    assert commit_epoch_s(tmp_path) is None
