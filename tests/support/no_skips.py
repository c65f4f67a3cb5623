"""Under ``CI=true`` nothing may be skipped: a test or a whole module that skips (a missing
browser, a package too old for ``pytest.importorskip``) fails the run, naming what skipped.

A pytest plugin, loaded by ``tests/conftest.py``; under pytest-xdist it acts in the controller,
which holds every worker's reports.
"""

from __future__ import annotations

import os

import pytest

#: Whether this run is CI's (``.ci/run`` sets ``CI=true``): then nothing may be skipped.
IN_CI = os.environ.get("CI") == "true"


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session, exitstatus) -> None:
    if not IN_CI or hasattr(session.config, "workerinput"):
        return
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    skipped = reporter.stats.get("skipped", []) if reporter else []
    if not skipped:
        return
    reporter.write("\n")
    reporter.write_line(f"CI=true: {len(skipped)} skipped, and nothing may be skipped:", red=True)
    for report in skipped:
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        reporter.write_line(f"  {report.nodeid}: {reason}")
    if session.exitstatus == 0:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
