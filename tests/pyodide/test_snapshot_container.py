"""The snapshot container (site_assets/calculators/snapshot.mjs): a memory packed without its
zero pages opens to the same bytes, gzipped or not, and a stale or damaged file is refused."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.pyodide.test_pyodide_parity import _node_or_skip

SCRIPT = Path(__file__).with_name("run_snapshot_container.mjs")


@pytest.fixture(scope="module")
def outcomes() -> dict:
    node = _node_or_skip()
    result = subprocess.run([node, str(SCRIPT)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_a_packed_memory_opens_to_the_same_bytes(outcomes):
    assert outcomes["plain"] == {"ok": True}
    assert outcomes["gzipped"] == {"ok": True}
    assert outcomes["allZero"] == {"ok": True}


def test_zero_pages_are_left_out(outcomes):
    # 40 pages and a tail; pages 0, 3-9 and 13-39 are zero: 32 of 40 pages are not stored.
    assert outcomes["packedBytes"] < outcomes["memoryBytes"] - 30 * 4096


@pytest.mark.parametrize("case", ["stale", "cut", "longer"])
def test_a_stale_or_damaged_snapshot_is_refused(outcomes, case):
    assert outcomes[case]["refused"] is True, outcomes[case]
