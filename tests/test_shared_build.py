"""The site is built once per test run and shared by the pytest-xdist workers
(``tests.support.site_build.shared_build``)."""

from __future__ import annotations

import subprocess
import threading
import time

import pytest

from tests.support import site_build


class _Factory:
    """Stands in for pytest's ``tmp_path_factory`` of one worker."""

    def __init__(self, base) -> None:
        self.base = base

    def getbasetemp(self):
        return self.base


@pytest.fixture
def builds(monkeypatch) -> list[str]:
    """Calls to ``mkdocs_build`` (faked: a build that takes a moment and writes one page)."""
    calls: list[str] = []

    def fake_build(config_file, site_dir, **kwargs):
        calls.append(str(site_dir))
        time.sleep(0.2)  # lets the second worker arrive mid-build (the outcome is the same if not)
        site_dir.mkdir(parents=True)
        (site_dir / "index.html").write_text("<p>built</p>", encoding="utf-8")
        return subprocess.CompletedProcess(["mkdocs", "build"], 0, "out", "err")

    monkeypatch.setattr(site_build, "mkdocs_build", fake_build)
    return calls


def test_workers_of_one_run_share_one_build(tmp_path, monkeypatch, builds) -> None:
    monkeypatch.setenv("PYTEST_XDIST_WORKER", "gw0")
    run = tmp_path / "pytest-7"
    results = {}

    def worker(name: str) -> None:
        (run / name).mkdir(parents=True)
        results[name] = site_build.shared_build(_Factory(run / name), "site", tmp_path / "mkdocs.yml")

    threads = [threading.Thread(target=worker, args=(name,)) for name in ("popen-gw0", "popen-gw1")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert builds == [str(run / "site")]
    for site_dir, result in results.values():
        assert site_dir == run / "site" and (site_dir / "index.html").is_file()
        assert (result.returncode, result.stdout, result.stderr) == (0, "out", "err")


def test_a_failed_build_fails_every_worker_without_a_second_try(tmp_path, monkeypatch) -> None:
    calls = []

    def failing_build(config_file, site_dir, **kwargs):
        calls.append(site_dir)
        return subprocess.CompletedProcess(["mkdocs", "build"], 1, "", "Aborted with a BuildError")

    monkeypatch.setattr(site_build, "mkdocs_build", failing_build)
    first = site_build.shared_build(_Factory(tmp_path), "site", tmp_path / "mkdocs.yml")[1]
    second = site_build.shared_build(_Factory(tmp_path), "site", tmp_path / "mkdocs.yml")[1]
    assert len(calls) == 1
    assert first.returncode == second.returncode == 1
    assert second.stderr == "Aborted with a BuildError"


def test_without_xdist_the_build_stays_in_this_runs_folder(tmp_path, monkeypatch, builds) -> None:
    monkeypatch.delenv("PYTEST_XDIST_WORKER", raising=False)
    (tmp_path / "pytest-8").mkdir()
    site_dir, _result = site_build.shared_build(_Factory(tmp_path / "pytest-8"), "site", tmp_path / "mkdocs.yml")
    assert site_dir == tmp_path / "pytest-8" / "site"


def test_each_module_and_each_palettes_gates_pass_stay_on_one_worker() -> None:
    from tests.conftest import xdist_scope as scope

    assert scope("tests/gates/test_csp.py::test_a[dark]") == scope("tests/gates/test_links.py::test_b[dark]")
    assert scope("tests/gates/test_accessibility.py::test_c[light]") == scope("tests/gates/test_csp.py::test_a[light]")
    assert scope("tests/gates/test_csp.py::test_a[light]") != scope("tests/gates/test_csp.py::test_a[dark]")
    # Each shard of a palette's pass is a unit of its own, shared by the three gates' tests.
    assert scope("tests/gates/test_csp.py::test_a[dark-2of3]") == scope("tests/gates/test_links.py::test_b[dark-2of3]")
    assert scope("tests/gates/test_csp.py::test_a[dark-1of3]") != scope("tests/gates/test_csp.py::test_a[dark-2of3]")
    assert scope("tests/x.py::test_a") == scope("tests/x.py::test_b") != scope("tests/y.py::test_a")
    assert scope("roofline_core/quantities.py::roofline_core.quantities.parse") == "roofline_core/quantities.py"


def test_the_long_modules_and_the_gates_passes_lead_the_work_queue() -> None:
    from tests.conftest import LONG_MODULES, _LongestFirst

    queue = _LongestFirst()
    units = ["tests/a.py", "site-visits-light-1of3", LONG_MODULES[1], "tests/b.py", "site-visits-dark-1of3"]
    for scope in [*units, LONG_MODULES[0]]:
        queue[scope] = {}
    assert list(queue) == [
        LONG_MODULES[0],
        LONG_MODULES[1],
        "site-visits-light-1of3",
        "site-visits-dark-1of3",
        "tests/a.py",
        "tests/b.py",
    ]


def test_the_long_modules_exist() -> None:
    from tests.conftest import LONG_MODULES, PROJECT_ROOT

    # A renamed module would silently lose its place at the front of the queue.
    assert [name for name in LONG_MODULES if not (PROJECT_ROOT / name).is_file()] == []
