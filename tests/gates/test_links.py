"""Gate: no broken internal link or anchor anywhere in the built site (pages, redirect stubs,
style sheets, sitemap, search index, JSON and feeds); nothing loads from another host; and no
request leaves 127.0.0.1 while every page is open in Chromium."""

from __future__ import annotations

import html
import json
import posixpath
import re
from pathlib import Path

import pytest
from mkdocs.config import load_config

from tests.gates.conftest import format_visits
from tests.support.link_check import Problem, SiteLinks, css_refs, feed_refs, json_url_refs, page_refs, sitemap_refs
from tests.support.site_build import PROJECT_ROOT
from tests.support.site_pages import html_pages, scan_html, url_path

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def links(built_site: Path) -> SiteLinks:
    site_url = load_config(str(PROJECT_ROOT / "mkdocs.yml"))["site_url"]
    return SiteLinks(built_site, site_url)


def _data_files(site_dir: Path, suffix: str) -> list[Path]:
    # assets/ holds code and runtime data (Pyodide's lock file), not site links.
    return sorted(p for p in site_dir.rglob(f"*{suffix}") if p.relative_to(site_dir).parts[0] != "assets")


def test_every_internal_link_and_anchor_resolves(built_site, links):
    problems: list[Problem] = []
    checked = 0

    def check(refs, *, source: str, base: str, inserted_ids: frozenset[str] = frozenset()) -> None:
        nonlocal checked
        for ref in refs:
            checked += 1
            problem = links.check(ref.url, base=base, source=source, line=ref.line, inserted_ids=inserted_ids)
            if problem:
                problems.append(problem)

    for page in html_pages(built_site):
        text = (built_site / page).read_text(encoding="utf-8")
        check(page_refs(text), source=page, base=url_path(page))
        # A term page's calculator arrives from its own file (roofline_site/calculators/later.py),
        # and its links are relative to the page that shows it.
        for src in re.findall(r'data-calculator-later="([^"]+)"', text):
            part = built_site / posixpath.normpath(posixpath.join(url_path(page), html.unescape(src)))
            calculator = json.loads(part.read_text(encoding="utf-8"))["html"]
            # Its links to its own fields resolve once it is in the page: its ids count there.
            inserted = frozenset(scan_html(calculator).ids)
            check(
                page_refs(calculator),
                source=f"{page} (its calculator, {part.name})",
                base=url_path(page),
                inserted_ids=inserted,
            )
    for sheet in sorted(built_site.rglob("*.css")):
        name = sheet.relative_to(built_site).as_posix()
        check(css_refs(sheet.read_text(encoding="utf-8")), source=name, base=name)
    for xml in _data_files(built_site, ".xml"):
        name = xml.relative_to(built_site).as_posix()
        text = xml.read_text(encoding="utf-8")
        check(sitemap_refs(text) if xml.name == "sitemap.xml" else feed_refs(text), source=name, base="")
    for data in _data_files(built_site, ".json"):
        name = data.relative_to(built_site).as_posix()
        # Search locations and the glossary's URLs are relative to the site root.
        check(json_url_refs(data.read_text(encoding="utf-8")), source=name, base="")
    assert checked > 0
    listing = "\n".join(str(p) for p in problems[:100])
    assert not problems, f"{len(problems)} broken internal references (of {checked} checked):\n{listing}"


def test_no_page_loads_anything_from_another_host(built_site, links):
    offenders = []
    for page in html_pages(built_site):
        for ref in scan_html((built_site / page).read_text(encoding="utf-8")).loads:
            if links.is_external(ref.url):
                offenders.append(f"{page}:{ref.line}: <{ref.tag} {ref.attribute}> {ref.url}")
    for sheet in sorted(built_site.rglob("*.css")):
        for ref in css_refs(sheet.read_text(encoding="utf-8")):
            if links.is_external(ref.url):
                offenders.append(f"{sheet.relative_to(built_site)}:{ref.line}: url() {ref.url}")
    assert not offenders, "pages load resources from another host:\n" + "\n".join(offenders)


@pytest.mark.browser
def test_no_request_leaves_localhost_and_none_fails_while_every_page_is_open(site_visits):
    assert site_visits
    external = format_visits(site_visits, "external_requests")
    assert not external, f"requests to other hosts (blocked by the test):\n{external}"
    failed = format_visits(site_visits, "failed_responses")
    assert not failed, f"requests that failed while pages were open:\n{failed}"
    unsettled = format_visits(site_visits, "problems")
    assert not unsettled, unsettled
