"""The built pages' "Reproduce the numbers on this page": every number in the prose is wrapped,
each snippet run in a fresh CPython prints exactly what the page shows, and the citation names
the permalink, the data version and the build date."""

from __future__ import annotations

import html
import os
import re
import subprocess
import sys

import pytest

from roofline_core.version import data_version
from tests.support.site_build import PROJECT_ROOT

# mkdocs.yml: site_url is SITE_URL, or the local server's address.
SITE_URL = os.environ.get("SITE_URL", "http://127.0.0.1:8000/")


def _page(site, path: str) -> str:
    return (site / path / "index.html").read_text(encoding="utf-8")


@pytest.mark.slow
# Two term pages (sanitised bodies) and a hand-written page whose numbers sit in a table and in links.
@pytest.mark.parametrize("path", ["glossary/roofline", "glossary/kv-cache", "vendor-vocabulary"])
def test_each_snippet_prints_the_number_the_page_shows(built_site, path):
    page = _page(built_site, path)
    shown = re.findall(r'<span class="roofline-quantity" data-quantity="([0-9]+)">([^<]*)</span>', page)
    link = re.search(r'<a class="roofline-reproduce__script" href="([^"]+)" download="([^"]+)">', page)
    assert shown and link and link.group(2) == f"{path.rsplit('/', 1)[-1]}-numbers.py"
    script = (built_site / path / html.unescape(link.group(1))).resolve()
    assert script.parent == built_site.resolve() / "assets" / "roofline" / "numbers"
    text = script.read_text(encoding="utf-8")
    listed = dict(re.findall(r"^# ([0-9]+): (.*)$", text, re.MULTILINE))
    assert list(listed) == [str(i) for i in range(len(listed))]
    # Every number in the prose has its line, with the same text; every line is shown somewhere.
    assert {index for index, _ in shown} == set(listed)
    assert all(html.unescape(text) == listed[index] for index, text in shown)
    result = subprocess.run(
        [sys.executable, str(script)],
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONPATH": str(PROJECT_ROOT), "PATH": "/usr/bin:/bin"},
        cwd=PROJECT_ROOT,
    )
    assert result.stdout.splitlines() == [listed[str(i)] for i in range(len(listed))]
    # The page carries the link, not the snippets.
    assert "evaluate(" not in page


@pytest.mark.slow
def test_the_citation_names_title_permalink_version_and_build_date(built_site):
    page = _page(built_site, "glossary/kv-cache")
    cite = html.unescape(re.search(r'<span class="roofline-reproduce__cite">([^<]*)</span>', page).group(1))
    match = re.fullmatch(
        r'Roofline Glossary, "KV cache", (\S+) \(data version ([0-9a-f]{12}), built (\d{4}-\d{2}-\d{2})\)\.', cite
    )
    assert match, cite
    assert match.group(1) == SITE_URL + "glossary/kv-cache/"
    assert match.group(2) == data_version()
    # The build is dated by the commit (hooks/build_date.py), as sitemap.xml's <lastmod> is.
    sitemap = (built_site / "sitemap.xml").read_text(encoding="utf-8")
    assert f"<lastmod>{match.group(3)}</lastmod>" in sitemap


@pytest.mark.slow
def test_a_page_without_numbers_has_no_section(built_site):
    pages = [p for p in (built_site / "glossary").glob("*/index.html") if "roofline-quantity" not in p.read_text()]
    assert pages, "expected some term without numbers"
    assert all('id="roofline-numbers"' not in p.read_text(encoding="utf-8") for p in pages)


@pytest.mark.slow
def test_a_docs_page_cites_itself_by_its_navigation_title(built_site):
    page = _page(built_site, "vendor-vocabulary")
    cite = html.unescape(re.search(r'<span class="roofline-reproduce__cite">([^<]*)</span>', page).group(1))
    assert cite.startswith(f'Roofline Glossary, "Vendor vocabulary", {SITE_URL}vendor-vocabulary/ (data version')


@pytest.mark.slow
def test_every_time_a_page_shows_has_its_parts_in_the_file_its_script_link_names(built_site):
    import ast
    import json

    from roofline_core.quantities import TIMES, evaluate_reference
    from roofline_site.glossary.number_parts import value_parts

    checked = 0
    for path in ("glossary/decode", "glossary/all-reduce", "glossary/prefill"):
        page = _page(built_site, path)
        link = re.search(r'<a class="roofline-reproduce__script" href="([^"]+)"[^>]*data-parts="([^"]+)"', page)
        assert link, f"{path}: the script link names no parts file"
        parts = json.loads((built_site / path / html.unescape(link.group(2))).read_text(encoding="utf-8"))["parts"]
        script = (built_site / path / html.unescape(link.group(1))).read_text(encoding="utf-8")
        references = re.findall(r"evaluate\('([a-z_]+)', (\{[^}]*\})\)", script)
        for index, (name, arguments) in enumerate(references):
            reference = " ".join([name, *(f"{k}={v}" for k, v in ast.literal_eval(arguments).items())])
            value = evaluate_reference(reference)
            if name in TIMES and value.parts:
                assert parts[str(index)] == value_parts(value), (path, index)
                checked += 1
            else:
                assert str(index) not in parts, (path, index)
    assert checked > 10
