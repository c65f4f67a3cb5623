"""Fixtures for the build-logic tests."""

from __future__ import annotations

import sys

import pytest


@pytest.fixture(autouse=True)
def _no_fence_build_left_behind():
    """Tests that start a fence build leave it as the module's build in progress; the next test on
    the same worker would then see its figures as "inserted" into an unrelated page (the sanitiser
    refuses a term page whose body lacks them). Each test starts with no build in progress."""
    yield
    build = sys.modules.get("roofline_site.fences.build")
    if build is not None:
        build._build = None
