"""Fixtures shared by the site-wide gates.

The browser gates (accessibility, links, CSP) share one pass over the site: every page is
opened in the light palette, and in the dark palette the fewest pages that between them show
every styled element the site has (:func:`pass_pages`), served with the CSP headers the site
ships (``_headers``); each visit records what every gate needs (axe violations, requests to
other hosts, failed responses, CSP reports, errors). axe's rules whose outcome depends on colour
run, in each palette, on those fewest pages; the others on every page (:func:`axe_rules`). Each palette's pass is cut into shards
that pytest-xdist spreads over its workers.
"""

from __future__ import annotations

import functools
import json
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from roofline_site import csp
from tests.conftest import PageWatch
from tests.support.calculator_driver import save_data
from tests.support.site_build import PROJECT_ROOT
from tests.support.site_pages import html_pages, is_redirect_stub, url_path
from tests.support.static_server import StaticServer
from tests.support.style_cover import covering_pages

AXE_SCRIPT = PROJECT_ROOT / "node_modules" / "axe-core" / "axe.min.js"
CSP_REPORT_PATH = "/__csp-report"
PALETTES = {"light": "default", "dark": "slate"}
#: A page still fetching (other than the calculator runtime) after this long fails the links gate.
SETTLE_TIMEOUT_S = 10.0
#: Idle periods of the page's main thread in a row, none starting a request, that count as
#: settled: two, as the calculators schedule their start with a frame, then a timer, then an
#: idle callback.
IDLE_PERIODS = 2
# Resolves at the page's next idle period (or after 2 s of a busy page, which then counts too).
_NEXT_IDLE_PERIOD = "() => new Promise((resolve) => requestIdleCallback(() => resolve(), { timeout: 2000 }))"
#: The calculators' lazy runtime (Pyodide and its worker): a calculator page starts it by itself
#: once idle, and it takes seconds of CPU to boot, which the pass's checks never wait for: the
#: pass's page asks to save data (``save_data``), so calculators stay as the build prerendered
#: them and start nothing (measured on 12 calculator pages, 2.27 -> 1.38 CPU-s a visit), and a
#: runtime request, were one made, is not counted as open (the CSP, keyboard and sub-path gates
#: make calculators go live and watch those requests).
RUNTIME_MARKERS = ("/assets/pyodide/", "/calculators/worker.mjs")

# Records every CSP violation the document sees, before any page script runs.
_CSP_LISTENER = """
window.__cspViolations = [];
document.addEventListener('securitypolicyviolation', (e) => {
  window.__cspViolations.push(`${e.violatedDirective} blocked ${e.blockedURI || 'inline'} at ${e.sourceFile}:${e.lineNumber}`);
});
"""

#: Rules whose outcome depends on colour: they run only on the pages that show every styled
#: element (:func:`axe_rules`), in both palettes; the other rules (structure, names and roles,
#: the same in both palettes) run on every page in the light one. Measured on 30 pages with the
#: 2-core machine's Chromium: every rule 0.57 CPU-s a page, these left out 0.37.
PALETTE_RULES = ("color-contrast", "link-in-text-block", "non-text-contrast")
#: Which of axe's rules a visit runs (:func:`axe_rules`).
ALL_RULES, STRUCTURE_RULES, COLOUR_RULES = "all", "all but colour", "colour only"

_AXE_RUN = """async ({ only, skip }) => {
  const known = (ids) => ids.filter(r => axe.getRules().some(x => x.ruleId === r));
  const options = { resultTypes: ['violations'] };
  if (only) options.runOnly = { type: 'rule', values: known(only) };
  if (skip) options.rules = Object.fromEntries(known(skip).map(r => [r, { enabled: false }]));
  const result = await axe.run(document, options);
  return result.violations
    .filter(v => v.impact === 'serious' || v.impact === 'critical')
    .map(v => ({ id: v.id, impact: v.impact, help: v.help,
                 targets: v.nodes.slice(0, 5).map(n => n.target.join(' ')) }));
}"""


@dataclass
class Visit:
    """What one page did in one palette."""

    page: str
    palette: str
    scheme_seen: str = ""
    axe_rules: str = ""
    axe_violations: list[dict] = field(default_factory=list)
    external_requests: list[str] = field(default_factory=list)
    failed_responses: list[str] = field(default_factory=list)
    console_errors: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)
    csp_violations: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


@dataclass
class HostedSite:
    """The built site served as a strict host would serve it."""

    url: str
    headers: dict[str, str]
    server: StaticServer

    def csp_reports(self) -> list[str]:
        """Violation reports the browser POSTed to the policy's ``report-uri`` so far."""
        reports = []
        for path, body in self.server.posts:
            if path.startswith(CSP_REPORT_PATH):
                report = json.loads(body or b"{}").get("csp-report", {})
                reports.append(
                    f"{report.get('violated-directive')} blocked {report.get('blocked-uri')} "
                    f"in {report.get('document-uri')} ({report.get('source-file')}:{report.get('line-number')})"
                )
        return reports


def shipped_headers(site_dir: Path) -> dict[str, str]:
    """The headers the site's ``_headers`` file gives every path (``/*``)."""
    path = site_dir / "_headers"
    assert path.is_file(), f"{path}: missing; hooks/security_headers.py should write it"
    rules = csp.parse_headers_file(path.read_text(encoding="utf-8"))
    assert "/*" in rules, f"{path}: no '/*' rule; got {sorted(rules)}"
    return rules["/*"]


@pytest.fixture(scope="session")
def site_headers(built_site: Path) -> dict[str, str]:
    return shipped_headers(built_site)


@pytest.fixture(scope="session")
def hosted_site(built_site: Path, site_headers: dict[str, str]):
    """The built site with its shipped headers, plus a ``report-uri`` so that violations in
    workers (which page listeners cannot see) are reported too."""
    headers = dict(site_headers)
    headers["Content-Security-Policy"] += f"; report-uri {CSP_REPORT_PATH}"
    with StaticServer(built_site, headers=headers, record_posts=True) as server:
        yield HostedSite(server.url, headers, server)


def visitable_pages(site_dir: Path) -> list[str]:
    """Every HTML page but redirect stubs (they leave at once; the links gate checks their targets)."""
    return list(_visitable_pages(site_dir))


@functools.cache
def _visitable_pages(site_dir: Path) -> tuple[str, ...]:
    # Read once per worker (about a CPU-second: every page's HTML); the built site never changes.
    return tuple(p for p in html_pages(site_dir) if not is_redirect_stub((site_dir / p).read_text(encoding="utf-8")))


@functools.cache
def _covering_pages(site_dir: Path) -> tuple[str, ...]:
    return tuple(sorted(covering_pages(site_dir, visitable_pages(site_dir))))


def colour_pages(site_dir: Path) -> list[str]:
    """The fewest pages whose elements, each in its setting, are every page's
    (:func:`tests.support.style_cover.covering_pages`): about a fifth of the site. Colour
    contrast depends only on an element's classes and what it sits in, so :data:`PALETTE_RULES`
    on these pages see every case the site has."""
    return list(_covering_pages(site_dir))


def pass_pages(site_dir: Path, palette: str) -> list[str]:
    """The pages a palette's pass opens: every page in light (axe, and the links and CSP gates);
    in dark, where only :data:`PALETTE_RULES` run and the rest would repeat the light pass,
    :func:`colour_pages`; measured at about 1 CPU-second a page."""
    return visitable_pages(site_dir) if palette == "light" else colour_pages(site_dir)


def axe_rules(site_dir: Path, page: str, palette: str) -> str:
    """Which of axe's rules a visit runs: in dark, :data:`PALETTE_RULES` (:data:`COLOUR_RULES`);
    in light, every rule on :func:`colour_pages` (:data:`ALL_RULES`) and all but those on the
    other pages (:data:`STRUCTURE_RULES`)."""
    if palette != "light":
        return COLOUR_RULES
    return ALL_RULES if page in _covering_pages(site_dir) else STRUCTURE_RULES


class InFlight:
    """Requests of a page not yet finished, and how many times that set has changed (the
    runtime's requests aside)."""

    def __init__(self, page) -> None:
        self.pending: set = set()
        self.changes = 0
        page.on("request", self._start)
        page.on("requestfinished", self._end)
        page.on("requestfailed", self._end)

    @staticmethod
    def _is_runtime(request) -> bool:
        return any(marker in request.url for marker in RUNTIME_MARKERS)

    def _start(self, request) -> None:
        if not self._is_runtime(request):
            self.pending.add(request)
            self.changes += 1

    def _end(self, request) -> None:
        if request in self.pending:
            self.pending.discard(request)
            self.changes += 1

    def wait_settled(self, page, visit: Visit) -> None:
        """Wait until the page has nothing left to fetch (the runtime aside): no request open,
        and ``IDLE_PERIODS`` idle periods of its main thread in a row that started none.

        Scripts that defer work (to a frame, a timer, an idle moment or a calculator coming
        into view) have had their turn by then, so this waits as long as the page needs and
        no longer: no fixed quiet time per visit.
        """
        deadline = time.monotonic() + SETTLE_TIMEOUT_S
        quiet = 0
        while time.monotonic() < deadline:
            if self.pending:
                quiet = 0
                page.wait_for_timeout(10)  # lets Playwright deliver the requests' end events
                continue
            seen = self.changes
            page.evaluate(_NEXT_IDLE_PERIOD)
            quiet = quiet + 1 if self.changes == seen and not self.pending else 0
            if quiet == IDLE_PERIODS:
                return
        urls = sorted(r.url for r in self.pending)
        visit.problems.append(f"requests still open after {SETTLE_TIMEOUT_S:.0f} s: {urls[:5]}")
        self.pending.clear()


def attach_recorders(page, visit_ref: list[Visit]) -> tuple[PageWatch, InFlight]:
    """Watch a page for the whole pass; events go to the visit currently in ``visit_ref[0]``."""
    watch = PageWatch()
    watch.attach(page)
    page.on("response", lambda r: r.status >= 400 and visit_ref[0].failed_responses.append(f"{r.status} {r.url}"))
    page.add_init_script(_CSP_LISTENER)
    return watch, InFlight(page)


#: Each palette's pass is cut into this many shards, each its own unit of work under
#: pytest-xdist: whole passes (minutes each) left one worker busy long after the others had
#: finished; shards of a minute or so spread over every worker.
SHARDS = 3
PASSES = [f"{palette}-{shard + 1}of{SHARDS}" for palette in PALETTES for shard in range(SHARDS)]


def parse_pass(name: str) -> tuple[str, int, int]:
    """``"dark-2of3"`` -> ``("dark", 1, 3)``: the palette, the shard (from 0) and the count."""
    palette, _, shard = name.partition("-")
    index, _, count = shard.partition("of")
    return palette, int(index) - 1, int(count)


def shard_pages(pages: list[str], shard: int, count: int) -> list[str]:
    """Every ``count``-th page from the ``shard``-th: neighbours in the sorted list (a section's
    pages, such as the calculators with their runtime) land in different shards, which keeps the
    shards about equally long."""
    return pages[shard::count]


@pytest.fixture(scope="session", params=PASSES)
def site_visits(request, browser, built_site: Path, hosted_site: HostedSite) -> list[Visit]:
    """Open every page of one shard in one palette (the fixture's parameter, such as
    ``light-1of3``: each test using it runs once per shard of each palette), run axe-core, and
    record what happened. Under pytest-xdist each shard is a unit of work, scheduled first
    (tests/conftest.py)."""
    palette, shard, count = parse_pass(request.param)
    axe_source = AXE_SCRIPT.read_text(encoding="utf-8")
    visits: list[Visit] = []
    context = browser.new_context(
        viewport={"width": 1280, "height": 900}, color_scheme=palette, service_workers="block"
    )
    page = context.new_page()
    current = [Visit("", palette)]
    watch, in_flight = attach_recorders(page, current)
    save_data(page)
    try:
        for name in shard_pages(pass_pages(built_site, palette), shard, count):
            visit = Visit(name, palette, axe_rules=axe_rules(built_site, name, palette))
            current[0] = visit
            _visit(page, hosted_site.url + url_path(name), visit, watch, in_flight, axe_source)
            visits.append(visit)
    finally:
        context.close()
    return visits


def _visit(page, url: str, visit: Visit, watch: PageWatch, in_flight: InFlight, axe_source: str) -> None:
    marks = (len(watch.external_requests), len(watch.console_errors), len(watch.page_errors))
    page.goto(url, wait_until="load")
    in_flight.wait_settled(page, visit)
    visit.scheme_seen = page.evaluate("() => document.body.getAttribute('data-md-color-scheme') || ''")
    visit.csp_violations = page.evaluate("() => window.__cspViolations || []")
    visit.external_requests = watch.external_requests[marks[0] :]
    visit.console_errors = watch.console_errors[marks[1] :]
    visit.page_errors = watch.page_errors[marks[2] :]
    # Injected through the DevTools protocol (page.evaluate), not as a <script> tag: the page is
    # served under the strict CSP, which would (rightly) block an injected inline script.
    page.evaluate(axe_source)
    scope = {
        ALL_RULES: {"only": None, "skip": None},
        STRUCTURE_RULES: {"only": None, "skip": list(PALETTE_RULES)},
        COLOUR_RULES: {"only": list(PALETTE_RULES), "skip": None},
    }[visit.axe_rules]
    visit.axe_violations = page.evaluate(_AXE_RUN, scope)


def format_visits(visits: list[Visit], attribute: str) -> str:
    """Lines ``page [palette]: item`` for every visit with something in ``attribute``."""
    lines = []
    for visit in visits:
        for item in getattr(visit, attribute):
            lines.append(f"{visit.page} [{visit.palette}]: {item}")
    return "\n".join(lines)


def axe_findings(visit: Visit) -> list[str]:
    """One ``rule at ['target']`` line per violating node of a visit."""
    return [
        f"{item['id']} at ['{target}'] ({item['impact']}: {item['help']})"
        for item in visit.axe_violations
        for target in item["targets"]
    ]
