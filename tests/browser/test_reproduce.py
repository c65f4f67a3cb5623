""" "Copy as Python" and "Cite": the copied Python runs in CPython with roofline_core and prints
exactly what the page shows for the reader's scenario; the citation names the permalink and the
data version the page was built with."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from roofline_core.calculators import CALCULATORS
from roofline_core.version import data_version
from roofline_site.wheel import install_comment
from tests.support.browser_wait import HANG_MS
from tests.support.site_build import PROJECT_ROOT

pytestmark = pytest.mark.browser

ROOT = "[data-calculator]"


def test_copied_python_prints_what_the_page_shows_and_the_citation_names_link_and_version(browser, site_server):
    context = browser.new_context(service_workers="block", permissions=["clipboard-read", "clipboard-write"])
    try:
        page = context.new_page()
        page.goto(site_server + "calculators/decode-speed-of-light/", wait_until="load")
        root = page.locator(ROOT).first
        root.locator("[data-copy-python]").wait_for(state="visible")
        page.select_option(f"{ROOT} [name=model]", "qwen3-30b-a3b")
        box = root.locator("[name=batch]")
        box.fill("24")
        box.dispatch_event("input")
        page.wait_for_url(re.compile(r"batch=24"))
        page.wait_for_selector(f'{ROOT}[data-state="live"]', timeout=HANG_MS)
        shown = page.eval_on_selector(
            ROOT,
            "root => Object.fromEntries([...root.querySelectorAll('[data-output]')].map(o => [o.dataset.output, o.textContent]))",
        )

        root.locator("[data-copy-python]").click()
        root.locator("[data-copy-feedback]", has_text="Python copied.").wait_for()
        snippet = page.evaluate("navigator.clipboard.readText()")
        assert f"data version {data_version()}" in snippet
        # Its first line installs the site's roofline_core; it pins the page's data version.
        assert snippet.splitlines()[0] == install_comment(None)
        assert f'check_data_version("{data_version()}")' in snippet
        assert '"model": "qwen3-30b-a3b"' in snippet and '"batch": "24"' in snippet
        run = subprocess.run(
            [sys.executable, "-c", snippet], capture_output=True, text=True, cwd=PROJECT_ROOT, timeout=60
        )
        assert run.returncode == 0, run.stderr
        # Each result under the label the page gives it (issue 30: not the output's id).
        lines = run.stdout.splitlines()
        printed = dict(line.split(": ", 1) for line in lines if not line.startswith("  "))
        # The step time's parts follow, indented (issue 31).
        assert any(line.startswith("  weights read: ") for line in lines), lines
        labels = {output.id: output.label for output in CALCULATORS["decode-speed-of-light"].outputs}
        assert printed == {labels[key]: text for key, text in shown.items()}
        assert '"batch": "24",  # Batch size (sequences)' in snippet

        root.locator("[data-copy-cite]").click()
        root.locator("[data-copy-feedback]", has_text="Citation copied.").wait_for()
        cited = page.evaluate("navigator.clipboard.readText()")
        query = page.evaluate("location.search")
        assert cited.startswith('Roofline Glossary, "Decode speed of light", ')
        assert f"http://127.0.0.1:8000/calculators/decode-speed-of-light/{query}" in cited
        assert f"data version {data_version()}" in cited and "accessed 20" in cited
    finally:
        context.close()


def test_every_page_footer_shows_the_data_version(page_factory, site_server):
    page, _watch = page_factory()
    page.goto(site_server + "glossary/roofline/")
    assert f"Data version {data_version()}" in page.text_content(".md-copyright")
