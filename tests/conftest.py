"""Shared fixtures: the built site, a static server, and Debian's Chromium through Playwright."""

from __future__ import annotations

import os
import shutil
from collections import OrderedDict
from pathlib import Path
from urllib.parse import urlparse

import pytest

from tests.support.calculator_driver import save_data
from tests.support.no_skips import IN_CI, pytest_sessionfinish  # noqa: F401 - a hook: under CI=true a skip fails the run
from tests.support.site_build import PROJECT_ROOT, shared_build
from tests.support.static_server import StaticServer

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
# Flags from ARCHITECTURE.md: without the background-networking ones Chromium tries to reach
# Google's hosts, which this closed network refuses. The resolver rule makes every other host fail
# at once, as a closed network does, so pages need no request interception to stay local:
# Playwright turns the HTTP cache off on a page with any route, and the cache (with V8's code cache
# of the scripts it holds) is most of what a second page of the same site costs a reader less:
# measured on 23 term pages, 0.73 -> 0.59 CPU-s a visit.
CHROMIUM_ARGS = [
    "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
#: The test suite's browser adds what only a test wants. V8's optimising compiler (TurboFan) pays
#: off on scripts that run for long; a test's page lives a second or two, and checks what the page
#: does, never how fast (the benchmarks measure that, with ``CHROMIUM_ARGS`` alone). Without it,
#: measured on this 2-core machine: a page with axe-core's checks 0.93 -> 0.83 CPU-s, a calculator
#: going live 3.9 -> 3.6.
SUITE_CHROMIUM_ARGS = [*CHROMIUM_ARGS, "--js-flags=--no-opt"]


#: Test modules that share the gates' one pass over the site (``site_visits``, minutes of
#: browser work): under pytest-xdist they run on one worker, so the pass is made once.
SITE_VISIT_MODULES = ("tests/gates/test_accessibility.py", "tests/gates/test_csp.py", "tests/gates/test_links.py")


@pytest.hookimpl(optionalhook=True)  # a hook of pytest-xdist's, unknown without it
def pytest_xdist_make_scheduler(config, log):
    """With ``--dist loadscope``: each test module runs on one worker, so module-scoped fixtures
    (a fixture project's build, a browser page) are made once; the modules using ``site_visits``
    count as one module. (xdist's own ``loadgroup`` marks have no effect under pytest 9, whose
    node ids no longer come from the ``_nodeid`` that xdist rewrites.)"""
    if config.getvalue("dist") != "loadscope":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class ModuleScheduling(LoadScopeScheduling):
        def __init__(self, config, log=None) -> None:
            super().__init__(config, log)
            self.workqueue = _LongestFirst()

        def _split_scope(self, nodeid: str) -> str:
            return xdist_scope(nodeid)

    return ModuleScheduling(config, log)


#: Modules that take a minute or more of one worker (measured with ``--durations``, on the
#: 2-core machine under load), longest first. They go to the front of xdist's queue with the
#: gates' passes: a long unit started last would keep one worker busy after the others are done.
#: Modules that build no site (the deployment settings' fixture builds) lead: they run while the
#: first worker to need the site builds it.
LONG_MODULES = (
    "tests/hooks/test_deploy_settings.py",
    "tests/gates/test_hostile_content.py",
    "tests/hooks/test_render_cache.py",
    "tests/browser/test_calculator_layout.py",
    "tests/gates/test_subpath.py",
    "tests/browser/test_runtime_loading.py",
    "tests/gates/test_reproducible.py",
)


class _LongestFirst(OrderedDict):
    """xdist's queue of work units, the long ones at its front: the ``LONG_MODULES`` in their
    order, then the shards of the gates' passes, then the rest, each group in collection order."""

    def __setitem__(self, scope: str, nodeids) -> None:
        super().__setitem__(scope, nodeids)
        if _front_rank(scope) is not None:
            front = sorted((unit for unit in self if _front_rank(unit) is not None), key=_front_rank)
            for unit in reversed(front):
                self.move_to_end(unit, last=False)


def _front_rank(scope: str) -> int | None:
    if scope in LONG_MODULES:
        return LONG_MODULES.index(scope)
    return len(LONG_MODULES) if scope.startswith("site-visits-") else None


def xdist_scope(nodeid: str) -> str:
    """The unit of work a test belongs to: its module, or ``site-visits-<pass>`` for one shard of
    the gates' pass over the pages in one palette (``site_visits`` is parametrised by shard, such
    as ``light-1of3``: tests/gates/conftest.py)."""
    module, _, rest = nodeid.partition("::")
    if module not in SITE_VISIT_MODULES:
        return module
    palette = rest.rpartition("[")[2].rstrip("]") if rest.endswith("]") else ""
    return f"site-visits-{palette}" if palette else "site-visits"


@pytest.fixture(scope="session")
def built_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The project's site, built once per test run with ``mkdocs build --strict`` and shared by
    all pytest-xdist workers (tests only read it)."""
    site_dir, result = shared_build(tmp_path_factory, "site", PROJECT_ROOT / "mkdocs.yml")
    assert result.returncode == 0, f"mkdocs build --strict failed:\n{result.stdout}\n{result.stderr}"
    return site_dir


@pytest.fixture(scope="session")
def site_server(built_site: Path):
    """The built site served on 127.0.0.1; yields the base URL (with a trailing slash)."""
    with StaticServer(built_site) as server:
        yield server.url


def _chromium_or_skip() -> str:
    if Path(CHROMIUM).exists():
        return CHROMIUM
    message = (
        f"Chromium not found at {CHROMIUM}: install Debian's chromium (apt-get install chromium) to run browser tests"
    )
    if IN_CI:
        pytest.fail(message + " (CI=true: browser tests may not be skipped)")
    pytest.skip(message)


@pytest.fixture(scope="session")
def browser():
    """A headless Debian Chromium driven by Playwright (never a downloaded browser)."""
    executable = _chromium_or_skip()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        instance = playwright.chromium.launch(executable_path=executable, args=SUITE_CHROMIUM_ARGS)
        yield instance
        instance.close()


class PageWatch:
    """What a page did that a test may want to forbid: console errors, page errors, requests
    to hosts other than 127.0.0.1 (which the browser's resolver rule fails: ``CHROMIUM_ARGS``)."""

    def __init__(self) -> None:
        self.console_errors: list[str] = []
        self.page_errors: list[str] = []
        self.external_requests: list[str] = []

    def attach(self, page) -> None:
        page.on("console", lambda msg: msg.type == "error" and self.console_errors.append(msg.text))
        page.on("pageerror", lambda exc: self.page_errors.append(str(exc)))
        page.on("request", self._record_request)

    def _record_request(self, request) -> None:
        url = request.url
        if not url.startswith(("data:", "blob:")) and urlparse(url).hostname not in ("127.0.0.1", None):
            self.external_requests.append(url)


@pytest.fixture(scope="session")
def worker_context(browser):
    """The browser context that lends each test its first page (``page_factory``), one per
    pytest-xdist worker: a fresh context costs a renderer process and a cold HTTP cache. Measured
    on this 2-core machine, an empty page costs 0.4 CPU-s in a fresh context against 0.2 here,
    and a term page 1.3 against 0.6.
    Its site data is cleared after every test (``clear_site_data``); its HTTP cache is kept, as a
    returning reader's is (a test of what a first visit downloads opens a fresh context).

    Its first page, ``about:blank``, stays open to carry the DevTools session that clears."""
    context = browser.new_context(service_workers="block")
    keeper = context.new_page()
    yield context, keeper, context.new_cdp_session(keeper)
    context.close()


def clear_site_data(session, origins: set[str]) -> None:
    """Clear everything ``origins`` stored in the session's context (cookies, local and session
    storage, IndexedDB, Cache Storage, service workers): the HTTP cache is not site data."""
    for origin in sorted(origins):
        session.send("Storage.clearDataForOrigin", {"origin": origin, "storageTypes": "all"})


def _record_origins(page, origins: set[str]) -> None:
    """Add to ``origins`` the origin of every web document ``page`` (and any page it opens) shows
    (not ``about:blank`` or ``data:``, which store nothing)."""

    def record(frame) -> None:
        parts = urlparse(frame.url)
        if parts.scheme in ("http", "https"):
            origins.add(f"{parts.scheme}://{parts.netloc}")

    page.on("framenavigated", record)
    page.on("popup", lambda popup: _record_origins(popup, origins))


@pytest.fixture
def page_factory(browser, worker_context):
    """Make pages: ``page, watch = page_factory(color_scheme="dark", width=390)``.

    Each page has site data of its own, as in a fresh context: a test's first page comes from
    the worker's context (``worker_context``), whose site data is cleared once the test ends; any
    later page of the same test, or one with JavaScript off, gets a context of its own.

    ``saves_data=True`` makes the page ask to save data
    (:func:`tests.support.calculator_driver.save_data`): its calculators stay as prerendered and
    boot no Python, for checks that never use them.

    Every request to another host fails (the resolver rule) and is recorded in
    ``watch.external_requests``.
    """
    shared, keeper, session = worker_context
    contexts = []
    lent = False  # whether this test has had the worker context's page
    origins: set[str] = set()

    def make(
        *,
        color_scheme: str = "light",
        width: int = 1280,
        height: int = 900,
        java_script_enabled: bool = True,
        saves_data: bool = False,
    ):
        nonlocal lent
        if java_script_enabled and not lent:
            page = shared.new_page()
            page.set_viewport_size({"width": width, "height": height})
            page.emulate_media(color_scheme=color_scheme)
            _record_origins(page, origins)
            lent = True
        else:
            context = browser.new_context(
                viewport={"width": width, "height": height},
                color_scheme=color_scheme,
                java_script_enabled=java_script_enabled,
                service_workers="block",
            )
            contexts.append(context)
            page = context.new_page()
        watch = PageWatch()
        watch.attach(page)
        if saves_data:
            save_data(page)
        return page, watch

    yield make
    for context in contexts:
        context.close()
    if lent:
        # Its page, and any it opened (a link to a new tab), leave the context.
        for page in shared.pages:
            if page is not keeper:
                page.close()
        clear_site_data(session, origins)


def pytest_addoption(parser) -> None:
    parser.addoption(
        "--screenshots",
        action="store_true",
        help="save the browser tests' screenshots into screenshots/ for people to look at",
    )


class Screenshots:
    """Screenshots for people to look at (``screenshots/``, git-ignored), saved only when the run
    asks (``scripts/test --screenshots``): no assertion reads them, and rasterising full pages was
    a large share of the browser tests' CPU time. The checks beside each screenshot run either way."""

    def __init__(self, folder: Path | None) -> None:
        self.folder = folder

    @property
    def wanted(self) -> bool:
        return self.folder is not None

    def take(self, target, name: str, **options) -> None:
        """``target.screenshot`` (a page or a locator) into ``name``, when wanted."""
        if self.folder is not None:
            target.screenshot(path=str(self.folder / name), **options)


@pytest.fixture(scope="session")
def screenshots(request) -> Screenshots:
    if not request.config.getoption("--screenshots"):
        return Screenshots(None)
    path = PROJECT_ROOT / "screenshots"
    path.mkdir(exist_ok=True)
    return Screenshots(path)


def have_node() -> bool:
    return shutil.which("node") is not None
