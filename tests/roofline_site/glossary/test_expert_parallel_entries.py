"""Entries about expert parallelism compute their multi-device steps with it (issue 31, item 8):
a decode or prefill reference on several devices in them says ``parallelism=expert``."""

from __future__ import annotations

import re

import pytest

from tests.support.site_build import PROJECT_ROOT

#: Entries whose multi-device scenarios are expert-parallel deployments.
EXPERT_PARALLEL_ENTRIES = ("expert-parallelism.md", "expert-load-balancing.md")
STEP = re.compile(r"\{\{\s*((?:decode|prefill)_[a-z_]+ [^}]*devices=(\d+)[^}]*)\}\}")


@pytest.mark.parametrize("name", EXPERT_PARALLEL_ENTRIES)
def test_expert_parallel_entries_use_the_expert_parallel_model(name: str) -> None:
    text = (PROJECT_ROOT / "glossary" / name).read_text(encoding="utf-8")
    steps = [m.group(1) for m in STEP.finditer(text) if int(m.group(2)) > 1]
    assert steps, f"{name} has no multi-device step to check"
    for reference in steps:
        assert "parallelism=expert" in reference, f"{name}: {reference!r} uses tensor parallelism's all-reduces"
