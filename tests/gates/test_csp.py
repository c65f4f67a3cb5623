"""Gate: the site ships a strict Content-Security-Policy (``_headers``) and works under it:
every page loads, and calculators go live through Pyodide, with zero CSP violations."""

from __future__ import annotations

import pytest

from roofline_site import csp
from tests.gates.conftest import format_visits
from tests.support.calculator_driver import make_live
from tests.support.site_pages import pages_with, url_path

pytestmark = pytest.mark.slow


def _directives(policy: str) -> dict[str, list[str]]:
    parsed = {}
    for part in policy.split(";"):
        name, *sources = part.split()
        parsed[name] = sources
    return parsed


def test_shipped_policy_is_strict(built_site, site_headers):
    directives = _directives(site_headers["Content-Security-Policy"])
    assert directives["default-src"] == ["'none'"]
    assert directives["script-src"][:2] == ["'self'", "'wasm-unsafe-eval'"]
    loose = {"'unsafe-inline'", "'unsafe-eval'", "'unsafe-hashes'", "*", "http:", "https:", "data:", "blob:"}
    for name in ("script-src", "style-src", "connect-src", "worker-src"):
        assert not loose & set(directives[name]), f"{name} allows {loose & set(directives[name])}"
    # Only hashes of inline code the site really carries, so a stale hash cannot linger.
    found = csp.scan_site(built_site)
    assert directives["script-src"][2:] == list(found.script_hashes)
    # Style attributes are allowed only for the inline SVG figures; HTML itself carries none.
    assert not found.style_attributes_outside_svg, (
        f"style attributes outside inline SVG: {found.style_attributes_outside_svg[:10]}"
    )
    assert ("style-src-attr" in directives) == bool(found.style_attributes)
    assert site_headers["X-Content-Type-Options"] == "nosniff"


@pytest.mark.browser
def test_every_page_loads_under_the_csp_without_violation_or_error(site_visits, hosted_site):
    assert site_visits
    assert not format_visits(site_visits, "csp_violations"), format_visits(site_visits, "csp_violations")
    assert hosted_site.csp_reports() == []
    assert not format_visits(site_visits, "page_errors"), format_visits(site_visits, "page_errors")
    assert not format_visits(site_visits, "console_errors"), format_visits(site_visits, "console_errors")


@pytest.mark.browser
def test_calculators_go_live_under_the_csp(built_site, hosted_site, page_factory):
    pages = pages_with(built_site, "data-calculator=")
    if not pages:
        pytest.skip("the built site has no [data-calculator] page yet (the calculators have not landed)")
    themed = [p for p in pages if not p.startswith("embed/")]
    embeds = [p for p in pages if p.startswith("embed/")]
    page, watch = page_factory()
    page.add_init_script(
        "window.__cspViolations = []; document.addEventListener('securitypolicyviolation',"
        " e => window.__cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`));"
    )
    states: dict[str, list[str]] = {}
    violations: dict[str, list[str]] = {}
    # One worker for the visit: the first page boots Pyodide, the others arrive by Material's
    # instant navigation (as a reader clicking through would) and reuse it.
    for index, name in enumerate(themed):
        url = hosted_site.url + url_path(name)
        if index == 0:
            page.goto(url, wait_until="load")
        else:
            # Mark the calculators of the page being left: instant navigation may change the URL
            # before it swaps the content, and driving the old page's (live) calculator would
            # leave the new one untouched, so the wait would be for the new nodes.
            page.evaluate(
                "() => document.querySelectorAll('[data-calculator]').forEach(el => el.setAttribute('data-left', ''))"
            )
            page.evaluate(
                "(href) => { const a = document.createElement('a'); a.href = href; document.body.append(a); a.click(); a.remove(); }",
                url,
            )
            page.wait_for_url(url)
            page.locator("[data-calculator]:not([data-left])").first.wait_for()
            page.locator("[data-calculator][data-left]").first.wait_for(state="detached")
        _change, states[name] = make_live(page)
        violations[name] = page.evaluate("() => window.__cspViolations")
    # An embed page (its own template, no instant navigation) boots once more.
    themed_errors = list(watch.page_errors)
    for name in embeds[:1]:
        # size=full: a compact embed may show only a text box (config-explainer's config.json),
        # which the driver cannot change with arrow keys; the policy is the same either way.
        page.goto(hosted_site.url + url_path(name) + "?size=full", wait_until="load")
        _change, states[name] = make_live(page)
        violations[name] = page.evaluate("() => window.__cspViolations")
        embed_errors = watch.page_errors[len(themed_errors) :]
        assert embed_errors == [], f"{name}: {embed_errors}"
    not_live = {name: s for name, s in states.items() if any(state != "live" for state in s)}
    assert not not_live, f"calculators not live under the CSP: {not_live}"
    assert not any(violations.values()), violations
    assert hosted_site.csp_reports() == []
    assert watch.console_errors == [] and themed_errors == [] and watch.external_requests == []


def test_every_page_carries_the_policy_as_a_meta_tag_before_any_script(built_site, site_headers):
    import html as html_module
    import re

    from tests.support.site_pages import html_pages

    shipped = _directives(site_headers["Content-Security-Policy"])
    missing, different = [], []
    for name in html_pages(built_site):
        text = (built_site / name).read_text(encoding="utf-8")
        match = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">', text)
        if match is None or ("<script" in text and text.index("<script") < match.start()):
            missing.append(name)
            continue
        meta = _directives(html_module.unescape(match.group(1)))
        # The same policy, minus what a meta tag cannot carry; its hashes cover the page's scripts.
        if {k: v for k, v in meta.items() if k != "script-src"} != {
            k: v for k, v in shipped.items() if k not in csp.META_UNSUPPORTED and k != "script-src"
        }:
            different.append(f"{name}: {sorted(meta)}")
        page_hashes = {csp.sha256_source(s) for s in csp.inline_code(text).scripts}
        if not page_hashes <= set(meta["script-src"]) or meta["script-src"][:2] != ["'self'", "'wasm-unsafe-eval'"]:
            different.append(f"{name}: script-src {meta['script-src'][:3]}... does not cover the page's scripts")
    assert not missing, f"pages without a meta policy ahead of their scripts: {missing[:10]}"
    assert not different, different[:10]


def test_the_workers_own_response_carries_a_policy_that_keeps_it_on_this_site(built_site):
    # A page's <meta> policy does not reach inside a worker: the worker script's response must
    # carry its own, from _headers, where the host applies it.
    from fnmatch import fnmatch

    rules = csp.parse_headers_file((built_site / "_headers").read_text(encoding="utf-8"))
    worker = "/assets/roofline/calculators/worker.mjs"
    assert (built_site / worker.lstrip("/")).is_file()
    policies = [headers["Content-Security-Policy"] for pattern, headers in rules.items() if fnmatch(worker, pattern)]
    assert policies, rules.keys()
    for policy in policies:
        directives = dict((part.split() + [""])[:2] for part in policy.split(";") if part.strip())
        assert directives["default-src"] == "'none'"
        for name in ("script-src", "connect-src", "worker-src"):
            sources = policy.split(name, 1)[1].split(";", 1)[0].split()
            assert "'self'" in sources and not [s for s in sources if "://" in s or s in ("*", "data:", "blob:")], (
                name,
                sources,
            )
