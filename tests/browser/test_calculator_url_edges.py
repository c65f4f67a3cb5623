"""Scenario links at their edges, in Chromium: a choice the calculator lacks, and a page that
holds the same calculator twice (each keeps its own query parameters)."""

from __future__ import annotations

import textwrap
import time
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest

from roofline_core.calculators import compute
from tests.browser.test_calculators_browser import ROOT, form_inputs, real_errors, wait_until_matches_cpython
from tests.conftest import PageWatch
from tests.support.browser_wait import HANG_MS
from tests.support.site_build import PROJECT_ROOT, mkdocs_build
from tests.support.static_server import StaticServer

pytestmark = pytest.mark.browser

NOTICE = f"{ROOT} [data-notice]"


def _query(page) -> dict[str, str]:
    return {key: values[0] for key, values in parse_qs(urlparse(page.url).query).items()}


def test_a_choice_the_calculator_lacks_is_reset_with_a_notice_and_the_rest_is_kept(browser, site_server):
    context = browser.new_context(service_workers="block")
    try:
        page = context.new_page()
        watch = PageWatch()
        watch.attach(page)
        page.goto(site_server + "calculators/roofline-explorer/?accelerator=nope&dtype=fp8&intensity=64")
        page.wait_for_selector(f"{ROOT}[data-engine]")
        # Before Python has started: the field is back on a valid choice, the link's other
        # inputs are in place, and the notice says what the link asked for.
        assert page.is_visible(NOTICE)
        notice = page.text_content(f"{NOTICE} [data-notice-text]")
        assert "Accelerator" in notice and "got 'nope'" in notice and "H100 SXM" in notice, notice
        inputs = form_inputs(page)
        assert (inputs["accelerator"], inputs["dtype"], inputs["intensity"]) == ("h100-sxm", "fp8", "64")
        assert page.get_attribute(f"{ROOT} [name=accelerator]", "aria-invalid") is None
        # The address bar no longer claims the choice the page does not show.
        assert _query(page) == {"dtype": "fp8", "intensity": "64"}
        page.wait_for_selector(f'{ROOT}[data-state="live"]', timeout=HANG_MS)
        wait_until_matches_cpython(page, "roofline-explorer")
        assert page.text_content(f"{ROOT} [data-error-for=accelerator]") == ""
        page.click(f"{NOTICE} [data-notice-dismiss]")
        assert page.is_hidden(NOTICE)
        assert watch.external_requests == [] and real_errors(watch) == []
    finally:
        context.close()


def test_a_valid_link_shows_no_notice(page_factory, site_server):
    page, watch = page_factory()
    page.goto(site_server + "calculators/roofline-explorer/?accelerator=h200&intensity=64")
    page.wait_for_selector(f"{ROOT}[data-engine]")
    assert form_inputs(page)["accelerator"] == "h200"
    assert page.is_hidden(NOTICE)
    assert real_errors(watch) == []


# The same calculator twice on one page ----------------------------------------------------

TWICE = "twice"
KV = '[data-calculator="kv-cache"]'


@pytest.fixture(scope="module")
def twice_site(tmp_path_factory) -> str:
    """A small site built with the real hooks and scripts, whose page holds two KV-cache calculators."""
    root = tmp_path_factory.mktemp("twice")
    docs = root / "docs"
    docs.mkdir()
    (docs / "index.md").write_text("# Home\n", encoding="utf-8")
    fence = "```calculator\nid: kv-cache\n```\n"
    (docs / f"{TWICE}.md").write_text(f"# Twice\n\n{fence}\nAnd again:\n\n{fence}", encoding="utf-8")
    config = root / "mkdocs.yml"
    config.write_text(
        textwrap.dedent(
            f"""\
            site_name: Twice
            theme:
              name: material
              font: false
              custom_dir: {PROJECT_ROOT / "site_assets" / "overrides"}
            hooks:
              - {PROJECT_ROOT / "hooks" / "site_assets.py"}
              - {PROJECT_ROOT / "hooks" / "pyodide_assets.py"}
              - {PROJECT_ROOT / "hooks" / "fences.py"}
              - {PROJECT_ROOT / "hooks" / "calculators.py"}
              - {PROJECT_ROOT / "hooks" / "security_headers.py"}
            extra_javascript:
              - assets/roofline/calculators/loader.mjs
            markdown_extensions:
              - pymdownx.superfences:
                  custom_fences:
                    - name: figure
                      class: roofline-figure
                      format: !!python/name:roofline_site.fences.format_fence
                    - name: calculator
                      class: roofline-calculator
                      format: !!python/name:roofline_site.fences.format_fence
            """
        ),
        encoding="utf-8",
    )
    site = root / "site"
    result = mkdocs_build(config, site)
    assert result.returncode == 0, result.stdout + result.stderr
    with StaticServer(Path(site)) as server:
        yield server.url


def _nth(page, index: int, what: str) -> dict[str, str]:
    script = {
        "inputs": "roots => Object.fromEntries([...roots[%d].querySelectorAll('[name]')].map(c => [c.name, c.value]))",
        "outputs": "roots => Object.fromEntries([...roots[%d].querySelectorAll('[data-output]')].map(o => [o.dataset.output, o.textContent]))",
    }[what]
    return page.eval_on_selector_all(KV, script % index)


def _wait_both_match_cpython(page, timeout_s: float = 15) -> None:
    deadline = time.monotonic() + timeout_s
    while True:
        expected = [
            {k: str(v["text"]) for k, v in compute("kv-cache", _nth(page, i, "inputs"))["outputs"].items()}
            for i in (0, 1)
        ]
        shown = [_nth(page, i, "outputs") for i in (0, 1)]
        if shown == expected or time.monotonic() > deadline:
            assert shown == expected
            return
        page.wait_for_timeout(50)


def test_two_identical_calculators_keep_separate_url_state(browser, twice_site):
    context = browser.new_context(service_workers="block")
    try:
        page = context.new_page()
        watch = PageWatch()
        watch.attach(page)
        page.goto(twice_site + f"{TWICE}/?kv-cache.batch=8&kv-cache.2.batch=16&kv-cache.2.context_tokens=4096")
        page.wait_for_selector(f"{KV}[data-engine]")
        first, second = _nth(page, 0, "inputs"), _nth(page, 1, "inputs")
        assert (first["batch"], first["context_tokens"]) == ("8", "32768")
        assert (second["batch"], second["context_tokens"]) == ("16", "4096")
        page.wait_for_selector(f'{KV}[data-state="live"] >> nth=1', timeout=HANG_MS)
        _wait_both_match_cpython(page)
        # Editing the second one writes only the second one's parameters.
        page.locator(f"{KV} [name=batch]").nth(1).fill("32")
        _wait_both_match_cpython(page)
        assert _nth(page, 1, "inputs")["batch"] == "32" and _nth(page, 0, "inputs")["batch"] == "8"
        query = _query(page)
        assert query["kv-cache.batch"] == "8" and query["kv-cache.2.batch"] == "32"
        assert query["kv-cache.2.context_tokens"] == "4096" and "kv-cache.context_tokens" not in query
        # The link restores both.
        page.goto(page.url)
        page.wait_for_selector(f"{KV}[data-engine]")
        assert (_nth(page, 0, "inputs")["batch"], _nth(page, 1, "inputs")["batch"]) == ("8", "32")
        assert watch.external_requests == [] and real_errors(watch) == []
    finally:
        context.close()


# Invalid values stay out of links (issue 30) ----------------------------------------------


def _type(page, name: str, text: str) -> None:
    box = page.locator(f"{ROOT} [name={name}]")
    box.fill(text)
    box.dispatch_event("input")


def test_a_refused_value_never_enters_the_address_a_copied_link_or_a_pin(browser, site_server):
    context = browser.new_context(service_workers="block", permissions=["clipboard-read", "clipboard-write"])
    try:
        page = context.new_page()
        watch = PageWatch()
        watch.attach(page)
        page.goto(site_server + "calculators/decode-speed-of-light/", wait_until="load")
        page.wait_for_selector(f"{ROOT} [data-copy-link]:not([hidden])", timeout=HANG_MS)
        _type(page, "batch", "24")
        page.wait_for_selector(f'{ROOT}[data-state="live"]', timeout=HANG_MS)
        wait_until_matches_cpython(page, "decode-speed-of-light")
        assert _query(page)["batch"] == "24"
        for bad in ("-3", "abc", "1e309"):
            _type(page, "batch", bad)
            page.wait_for_selector(f'{ROOT}[data-state="invalid"]', timeout=HANG_MS)
            # The results still show batch 24, and so does the address: the link reproduces them.
            page.wait_for_function("() => new URLSearchParams(location.search).get('batch') === '24'")
            root = page.locator(ROOT)
            root.locator("[data-copy-link]").click()
            root.locator("[data-copy-feedback]", has_text="Link copied.").wait_for()
            copied = page.evaluate("navigator.clipboard.readText()")
            assert parse_qs(urlparse(copied).query)["batch"] == ["24"], copied
            root.locator("[data-copy-embed]").click()
            root.locator("[data-copy-feedback]", has_text="Embed code copied.").wait_for()
            embed = page.evaluate("navigator.clipboard.readText()")
            assert "batch=24" in embed and f"batch={bad}" not in embed, embed
        # Pinned as A while the box holds a refused value: A is the scenario the results show.
        page.locator(f"{ROOT} [data-pin]").click()
        page.wait_for_function("() => new URLSearchParams(location.search).has('pin')")
        assert _query(page)["pin"] == "batch=24"
        # A link opened with a refused value drops it from the address once Python has read it.
        page.goto(site_server + "calculators/decode-speed-of-light/?batch=-7&context_tokens=2048", wait_until="load")
        page.wait_for_selector(f'{ROOT}[data-state="invalid"]', timeout=HANG_MS)
        page.wait_for_function("() => !new URLSearchParams(location.search).has('batch')")
        assert _query(page) == {"context_tokens": "2048"}
        assert watch.external_requests == [] and real_errors(watch) == []
    finally:
        context.close()
