"""The suite's CPU recorder names units as the scheduler does and sums them in its table."""

from __future__ import annotations

import json

from benchmarks.suite_cpu import table, unit_of
from tests.conftest import xdist_scope


def test_units_are_the_schedulers_units() -> None:
    for nodeid, fixtures in [
        ("tests/gates/test_csp.py::test_a[dark-2of3]", ("site_visits",)),
        ("tests/hooks/test_fences.py::test_b[x]", ("tmp_path",)),
        ("roofline_core/quantities.py::roofline_core.quantities.parse", ()),
    ]:
        assert unit_of(nodeid, fixtures) == xdist_scope(nodeid)


def test_the_table_puts_the_most_cpu_first_and_totals_it() -> None:
    lines = [json.dumps({"unit": name, "wall_s": 1.0, "cpu_s": cpu}) for name, cpu in [("a", 2.0), ("b", 5.5)]]
    rows = table(lines).splitlines()
    assert [row.split()[-1] for row in rows[1:]] == ["b", "a", "total"]
    assert rows[-1].split()[0] == "7.5"
