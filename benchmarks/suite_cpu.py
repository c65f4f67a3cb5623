"""CPU seconds of each unit of work of the test suite, browsers and subprocesses included.

The suite is bound by CPU on the 2-core machine (a whole run needs about twice its wall time
in CPU seconds), so what to cut is read from CPU time, not from ``--durations``, which other
work on the machine stretches. ``/usr/bin/time`` and ``getrusage`` miss most of Chromium: its
renderers are orphaned on exit and never reaped by the test process. A cgroup counts them, so
each pytest-xdist worker moves itself into a cpuacct cgroup of its own (its children, Chromium
and Node included, inherit it) and reads the group's usage whenever the unit of work changes.

Needs a cgroup v1 ``cpuacct`` hierarchy it may write (root, as on the project's machine).

Run: ``.venv/bin/python -m pytest -n 3 --dist loadscope -p benchmarks.suite_cpu``
(``SUITE_CPU_OUT``: the JSON-lines file to append to, default ``suite-cpu.jsonl``), then
``.venv/bin/python benchmarks/suite_cpu.py suite-cpu.jsonl`` for the table, most CPU first.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

CPUACCT = Path("/sys/fs/cgroup/cpuacct")


def unit_of(nodeid: str, fixturenames) -> str:
    """The unit a test belongs to: its module, or ``site-visits-<pass>`` for a shard of the gates'
    pass (as in tests/conftest.py's ``xdist_scope``)."""
    if nodeid.endswith("]") and "site_visits" in fixturenames:
        return "site-visits-" + nodeid.rpartition("[")[2].rstrip("]")
    return nodeid.partition("::")[0]


class _Recorder:
    def __init__(self, group: Path, out: Path) -> None:
        self.group, self.out = group, out
        self.unit: str | None = None
        self.started = self.cpu_at_start = 0.0

    def usage(self) -> float:
        return int((self.group / "cpuacct.usage").read_text()) / 1e9

    def switch(self, unit: str | None) -> None:
        if unit == self.unit:
            return
        now, cpu = time.time(), self.usage()
        if self.unit is not None:
            record = {"unit": self.unit, "wall_s": now - self.started, "cpu_s": cpu - self.cpu_at_start}
            with self.out.open("a", encoding="utf-8") as file:
                file.write(json.dumps({"worker": self.group.name, **record}) + "\n")
        self.unit, self.started, self.cpu_at_start = unit, now, cpu


_recorder: _Recorder | None = None


def pytest_configure(config) -> None:
    global _recorder
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    group = CPUACCT / f"roofline-suite-{os.getpid()}-{worker}"
    group.mkdir(exist_ok=True)
    (group / "cgroup.procs").write_text(str(os.getpid()))
    _recorder = _Recorder(group, Path(os.environ.get("SUITE_CPU_OUT", "suite-cpu.jsonl")).resolve())


def pytest_runtest_protocol(item, nextitem) -> None:
    _recorder.switch(unit_of(item.nodeid, getattr(item, "fixturenames", ())))


def pytest_sessionfinish(session) -> None:
    _recorder.switch(None)


def pytest_unconfigure(config) -> None:
    # Back to the root group, and the empty group removed (one still holding a child stays).
    (CPUACCT / "cgroup.procs").write_text(str(os.getpid()))
    try:
        _recorder.group.rmdir()
    except OSError:
        pass


def table(lines: list[str]) -> str:
    """The records' units, most CPU first, with their wall time and the total."""
    records = sorted((json.loads(line) for line in lines if line.strip()), key=lambda r: -r["cpu_s"])
    rows = [f"{r['cpu_s']:8.1f} {r['wall_s']:8.1f}  {r['unit']}" for r in records]
    total = sum(r["cpu_s"] for r in records)
    return "\n".join(["   CPU s   wall s  unit", *rows, f"{total:8.1f}           total"])


if __name__ == "__main__":
    print(table(Path(sys.argv[1]).read_text(encoding="utf-8").splitlines()))
