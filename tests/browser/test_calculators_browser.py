"""Live calculators in Debian's Chromium: prerendered values, Pyodide results equal to CPython's,
URL state, one worker across instant navigation, graceful failure, no request off 127.0.0.1.

Pyodide boots take seconds here, so most tests share one page (``live``) that boots once and
moves between calculators by Material's instant navigation, as a reader would; they run in file
order. Only the URL round trip (a fresh page by design) and the blocked-Pyodide page boot again.
"""

from __future__ import annotations

import json
import re
import time
import urllib.request
from types import SimpleNamespace
from urllib.parse import parse_qs, urlparse

import pytest

from roofline_core.calculators import CALCULATORS, compute, definition
from roofline_core.view import calculator_view
from roofline_site.calculators.render import PRECOMPUTED_STATUS
from tests.conftest import PageWatch
from tests.support.browser_wait import HANG_MS
from tests.support.hf_configs import config_text

pytestmark = pytest.mark.browser

ROOT = "[data-calculator]"


# Helpers ------------------------------------------------------------------------------


def form_inputs(page) -> dict[str, str]:
    """What the form holds: ``{input id: value}`` of every named control of the calculator."""
    return page.eval_on_selector(
        ROOT, "root => Object.fromEntries([...root.querySelectorAll('[name]')].map(c => [c.name, c.value]))"
    )


def shown_outputs(page) -> dict[str, str]:
    return page.eval_on_selector(
        ROOT,
        "root => Object.fromEntries([...root.querySelectorAll('[data-output]')].map(o => [o.dataset.output, o.textContent]))",
    )


def shown_table(page) -> list[list[str]]:
    return page.eval_on_selector(
        ROOT,
        "root => [...root.querySelectorAll('[data-table] tbody tr')].map(r => [...r.cells].map(c => c.textContent))",
    )


def prose_columns(page) -> list[str]:
    return (
        (page.get_attribute(f"{ROOT} [data-table]", "data-prose-columns") or "").split()
        if page.locator(f"{ROOT} [data-table]").count()
        else []
    )


def expected_texts(
    calculator_id: str, inputs: dict[str, str], prose: list[str] = ()
) -> tuple[dict[str, str], list[list[str]]]:
    """roofline_core's results in CPython for these inputs: output texts and table rows' texts
    (a sentence column's cell on its own row under its row, as the page lays it out)."""
    result = compute(calculator_id, inputs)
    assert result["errors"] == {}, result["errors"]
    outputs = {key: str(value["text"]) for key, value in result["outputs"].items()}
    columns = definition(calculator_id)["table_columns"]
    table = []
    for row in result.get("table", []):
        table.append([str(row[c["id"]]["text"]) for c in columns if c["id"] not in prose])
        table.extend([f"{c['label']}: {row[c['id']]['text']}"] for c in columns if c["id"] in prose)
    return outputs, table


def wait_until_matches_cpython(page, calculator_id: str, timeout_s: float = 10) -> dict[str, str]:
    """Poll until the page shows what CPython computes for the form's current inputs."""
    deadline = time.monotonic() + timeout_s
    while True:
        inputs = form_inputs(page)
        outputs, table = expected_texts(calculator_id, inputs, prose_columns(page))
        if shown_outputs(page) == outputs and shown_table(page) == table:
            return inputs
        if time.monotonic() > deadline:
            assert shown_outputs(page) == outputs
            assert shown_table(page) == table
        page.wait_for_timeout(50)


def instant_navigate(page, calculator_id: str) -> None:
    """Follow the sidebar link: Material swaps the content without reloading the document."""
    page.click(f'.md-sidebar--primary a[href$="/{calculator_id}/"]')
    page.wait_for_selector(f'[data-calculator="{calculator_id}"][data-engine="live"]', timeout=HANG_MS)


def chart_geometry(page) -> dict:
    return page.eval_on_selector(
        f"{ROOT} svg.roofline-chart",
        """svg => ({
            roof: svg.querySelector('.roofline-chart__roof').getAttribute('d'),
            points: [...svg.querySelectorAll('circle')].map(c => [c.getAttribute('cx'), c.getAttribute('cy'), c.getAttribute('r')]),
            texts: [...svg.querySelectorAll('text')].map(t => t.textContent + '@' + t.getAttribute('x') + ',' + t.getAttribute('y')),
            title: svg.querySelector('title').textContent,
            classes: [...svg.querySelectorAll('g')].map(g => g.getAttribute('class')),
        })""",
    )


def screenshot_calculator(page, screenshots, name: str) -> None:
    """The calculator as laid out on the full page (an element shot would catch the sticky header)."""
    if not screenshots.wanted:
        return
    box = page.locator(ROOT).bounding_box()
    scroll_y = page.evaluate("window.scrollY")
    screenshots.take(
        page,
        name,
        full_page=True,
        clip={"x": box["x"], "y": box["y"] + scroll_y, "width": box["width"], "height": box["height"]},
    )


def set_scheme(page, color_scheme: str) -> None:
    """Switch Material's palette with its own header toggle, as a reader would."""
    page.click(f'.md-header label[title="Switch to {color_scheme} mode"]')
    # Material fades colours when the scheme changes; wait until the page has its final colour.
    page.wait_for_function(
        "colour => getComputedStyle(document.body).backgroundColor === colour",
        arg="rgb(255, 255, 255)" if color_scheme == "light" else "rgb(30, 33, 41)",
    )


def real_errors(watch: PageWatch) -> list[str]:
    return watch.console_errors + watch.page_errors


# The live page shared by the tests below ----------------------------------------------


def serve_sitemap_at(page, site_server: str) -> None:
    """Make the sitemap name the test server's address instead of ``site_url``'s.

    Material's instant navigation only intercepts links listed in sitemap.xml, whose addresses
    carry ``site_url`` (port 8000); it rewrites their protocol and host to the page's but not
    their port, so on the test server's random port every click would be a full reload. The
    deployed site is served at its ``site_url``, where this rewrite is a no-op.
    """
    site_url = built_site_url(site_server)

    def handle(route):
        response = route.fetch()
        route.fulfill(response=response, body=response.text().replace(site_url, site_server))

    # Registered after PageWatch's catch-all route, so it runs first (Playwright runs the most
    # recently registered matching route).
    page.route("**/sitemap.xml", handle)


def built_site_url(site_server: str) -> str:
    """The ``site_url`` the site was built with: the shortest address in its sitemap (the home page).

    Read from the build rather than mkdocs.yml, whose ``site_url`` may come from ``SITE_URL``.
    """
    with urllib.request.urlopen(site_server + "sitemap.xml") as response:
        locs = re.findall(r"<loc>([^<]+)</loc>", response.read().decode("utf-8"))
    return min(locs, key=len).rstrip("/") + "/"


@pytest.fixture(scope="module")
def live(browser, site_server):
    context = browser.new_context(viewport={"width": 1280, "height": 900}, service_workers="block")
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    page = context.new_page()
    watch = PageWatch()
    watch.attach(page)
    serve_sitemap_at(page, site_server)
    workers: list[str] = []
    page.on("worker", lambda worker: workers.append(worker.url))
    page.on("dialog", lambda dialog: pytest.fail(f"a dialog opened: {dialog.message}"))
    page.goto(site_server + "calculators/roofline-explorer/")
    page.wait_for_selector('[data-calculator][data-engine="live"]', timeout=HANG_MS)
    yield SimpleNamespace(page=page, watch=watch, workers=workers, base=site_server)
    context.close()


def _press(page, selector: str, key: str, times: int) -> None:
    page.focus(selector)
    for _ in range(times):
        page.keyboard.press(key)


SCENARIOS = {
    "roofline-explorer": lambda page: (
        page.select_option(f"{ROOT} [name=accelerator]", "mi300x"),
        _press(page, f"{ROOT} [data-slider-for=intensity]", "ArrowRight", 30),
    ),
    "decode-speed-of-light": lambda page: (
        page.select_option(f"{ROOT} [name=model]", "llama-3-8b"),
        _press(page, f"{ROOT} [data-slider-for=batch]", "ArrowRight", 3),
        page.fill(f"{ROOT} [name=context_tokens]", "8192"),
        page.click(f'{ROOT} button[data-choose="batch"][data-value="64"]'),
    ),
    "kv-cache": lambda page: (
        page.select_option(f"{ROOT} [name=model]", "deepseek-v3"),
        page.fill(f"{ROOT} [name=batch]", "8"),
        _press(page, f"{ROOT} [data-slider-for=context_tokens]", "ArrowLeft", 2),
    ),
    "prefill-ttft": lambda page: (
        _press(page, f"{ROOT} [data-slider-for=prompt_tokens]", "ArrowRight", 2),
        page.select_option(f"{ROOT} [name=accelerator]", "h200"),
    ),
    "config-explainer": lambda page: (
        page.fill(f"{ROOT} [name=model_config]", config_text("gpt-oss-20b")),
        _press(page, f"{ROOT} [data-slider-for=context_tokens]", "ArrowRight", 1),
    ),
    "pitfalls": lambda page: (
        page.select_option(f"{ROOT} [name=model]", "gemma-2-9b"),
        page.select_option(f"{ROOT} [name=block_format]", "q4_k"),
    ),
    "speculative-decoding": lambda page: (
        _press(page, f"{ROOT} [data-slider-for=acceptance_percent]", "ArrowRight", 5),
        page.select_option(f"{ROOT} [name=draft_kind]", "head"),
    ),
    "what-fits": lambda page: (
        page.select_option(f"{ROOT} [name=accelerator]", "h200"),
        page.fill(f"{ROOT} [name=max_ms_per_token]", "12"),
    ),
    "reconcile": lambda page: (
        page.fill(f"{ROOT} [name=measured]", "12"),
        page.fill(f"{ROOT} [name=batch]", "8"),
    ),
    "capacity": lambda page: (
        page.fill(f"{ROOT} [name=rate_per_s]", "20"),
        page.fill(f"{ROOT} [name=tpot_target_ms]", "40"),
    ),
    "offload": lambda page: (
        page.select_option(f"{ROOT} [name=second_gpu]", "rtx-3090"),
        page.select_option(f"{ROOT} [name=engine_style]", "pcie"),
    ),
    # The paste never goes into the link; the model does.
    "engine-log": lambda page: (
        page.select_option(f"{ROOT} [name=model]", "llama-3.1-70b"),
        page.fill(
            f"{ROOT} [name=engine_log]",
            "INFO 11-27 12:00:05 [gpu_worker.py:298] Available KV cache memory: 53.47 GiB\n"
            "INFO 11-27 12:00:06 [kv_cache_utils.py:1087] GPU KV cache size: 438,016 tokens\n",
        ),
    ),
    "disaggregation": lambda page: (
        page.fill(f"{ROOT} [name=rate_per_s]", "20"),
        page.fill(f"{ROOT} [name=link_gb_per_s]", "25"),
    ),
    "agentic-session": lambda page: (
        page.fill(f"{ROOT} [name=turns]", "14"),
        page.select_option(f"{ROOT} [name=tier]", "disk"),
    ),
    # Last: the test after the loop checks the operations table's chosen row.
    "operations-table": lambda page: (
        page.click(f'{ROOT} button[data-choose="operation"][data-value="prefill-gemm"]'),
        page.fill(f"{ROOT} [name=batch]", "128"),
    ),
}


def test_every_calculator_is_exercised():
    assert sorted(SCENARIOS) == sorted(CALCULATORS)


def test_live_results_equal_cpython_compute(live):
    page = live.page
    for calculator_id, scenario in SCENARIOS.items():
        if calculator_id != "roofline-explorer":
            instant_navigate(page, calculator_id)
        before = form_inputs(page)
        scenario(page)
        inputs = wait_until_matches_cpython(page, calculator_id)
        assert inputs != before, f"{calculator_id}: the scenario changed nothing"
        # The URL mirrors the form (fields a preset fills are left to the preset; a pasted
        # config travels as the short code Python read from it).
        params = {k: v[0] for k, v in parse_qs(urlparse(page.url).query).items()}
        read = compute(calculator_id, inputs)["inputs"]
        assert params and all(
            (read[name] if name == "model_config" else inputs[name]) == value for name, value in params.items()
        )
        assert page.get_attribute(ROOT, "data-state") == "live"
    assert form_inputs(page)["operation"] == "prefill-gemm"
    assert page.get_attribute(f'{ROOT} button[data-value="prefill-gemm"]', "aria-pressed") == "true"


def test_custom_fields_show_only_under_custom_and_start_from_the_preset(live):
    page = live.page
    instant_navigate(page, "roofline-explorer")
    peak = f"{ROOT} [name=peak_tflop_per_s]"
    page.select_option(f"{ROOT} [name=accelerator]", "a100-sxm-80gb")
    assert not page.is_visible(peak)
    page.select_option(f"{ROOT} [name=accelerator]", "custom")
    assert page.is_visible(peak)
    a100 = next(c for c in definition("roofline-explorer")["inputs"][0]["choices"] if c["value"] == "a100-sxm-80gb")
    assert page.input_value(peak) == "312" == str(round(a100["fills"]["peak_tflop_per_s"]))
    page.fill(peak, "500")
    wait_until_matches_cpython(page, "roofline-explorer")
    assert _url_params(page)["peak_tflop_per_s"] == ["500"]
    # Back to a preset: the custom numbers hide and leave the link.
    page.select_option(f"{ROOT} [name=accelerator]", "h100-sxm")
    assert not page.is_visible(peak)
    wait_until_matches_cpython(page, "roofline-explorer")
    assert "peak_tflop_per_s" not in _url_params(page)


def test_live_chart_is_drawn_like_the_build_time_chart(live):
    page = live.page
    instant_navigate(page, "roofline-explorer")
    prerendered = chart_geometry(page)
    page.fill(f"{ROOT} [name=intensity]", "64")
    wait_until_matches_cpython(page, "roofline-explorer")
    assert chart_geometry(page) != prerendered
    page.fill(f"{ROOT} [name=intensity]", "1")
    wait_until_matches_cpython(page, "roofline-explorer")
    assert chart_geometry(page) == prerendered


def test_live_kv_chart_is_the_views_drawing_of_the_inputs(live):
    page = live.page
    instant_navigate(page, "kv-cache")
    page.select_option(f"{ROOT} [name=model]", "gemma-3-27b")
    page.fill(f"{ROOT} [name=devices]", "1")  # an earlier test may have left other settings
    page.fill(f"{ROOT} [name=batch]", "1")
    page.fill(f"{ROOT} [name=context_tokens]", "200000")
    inputs = wait_until_matches_cpython(page, "kv-cache")
    result = compute("kv-cache", inputs)
    expected = calculator_view("kv-cache", result, dom_id="c")["chart"]

    def drawn(tree, tag):
        found = [tree] if tree["tag"] == tag else []
        return found + [e for child in tree["children"] if isinstance(child, dict) for e in drawn(child, tag)]

    svg = f"{ROOT} svg.roofline-chart--kv"
    page.wait_for_function(
        "([sel, want]) => document.querySelector(sel + ' .roofline-chart__kv-curve')?.getAttribute('d') === want",
        arg=[svg, drawn(expected, "path")[0]["attrs"]["d"]],
    )
    texts = page.eval_on_selector_all(f"{svg} text", "els => els.map(t => t.textContent)")
    assert texts == ["".join(c for c in t["children"] if isinstance(c, str)) for t in drawn(expected, "text")]
    # The reader's context and where the cache stops fitting are both marked and named.
    assert {p["role"] for p in result["chart"]["points"]} == {"current", "limit"}
    assert all(p["label"] in texts for p in result["chart"]["points"])


def test_live_table_is_drawn_like_the_build_time_table(live):
    page = live.page
    instant_navigate(page, "decode-speed-of-light")
    table = f"{ROOT} [data-table] table"
    prerendered = page.inner_html(table)
    default_batch = form_inputs(page)["batch"]
    page.click(f'{ROOT} button[data-choose="batch"][data-value="64"]')
    wait_until_matches_cpython(page, "decode-speed-of-light")
    assert page.inner_html(table) != prerendered
    page.click(f'{ROOT} button[data-choose="batch"][data-value="{default_batch}"]')
    wait_until_matches_cpython(page, "decode-speed-of-light")
    assert page.inner_html(table) == prerendered
    # Redrawn, the table stays inside the scroll wrappers Material put around it.
    assert page.locator(f"{ROOT} [data-table] .md-typeset__scrollwrap .md-typeset__table > table").count() == 1


def test_choosing_a_table_row_by_keyboard_keeps_focus_on_that_row(live):
    page = live.page
    instant_navigate(page, "decode-speed-of-light")
    page.focus(f'{ROOT} button[data-choose="batch"][data-value="16"]')
    page.keyboard.press("Enter")
    wait_until_matches_cpython(page, "decode-speed-of-light")
    assert form_inputs(page)["batch"] == "16"
    focused = page.evaluate(
        "() => [document.activeElement.dataset.choose, document.activeElement.dataset.value,"
        " document.activeElement.getAttribute('aria-pressed')]"
    )
    assert focused == ["batch", "16", "true"]
    page.click(f'{ROOT} button[data-choose="batch"][data-value="1"]')
    wait_until_matches_cpython(page, "decode-speed-of-light")


def test_bad_input_is_marked_and_other_outputs_keep_their_values(live):
    page = live.page
    instant_navigate(page, "roofline-explorer")
    box = f"{ROOT} [name=intensity]"
    page.fill(box, "64")
    good = wait_until_matches_cpython(page, "roofline-explorer")
    good_outputs = shown_outputs(page)
    # Fragments of roofline_core.vocabulary's messages ("<problem>; expected <accepted>").
    for bad, fragment in [
        ("-5", "'-5' is out of range"),
        ("", "nothing entered"),
        ("lots", "'lots' is not a number"),
        ('<img src=x onerror="window.__pwned=1">', "'<img src=x"),
    ]:
        page.fill(box, bad)
        page.wait_for_selector(f'{box}[aria-invalid="true"]')
        error_id = page.get_attribute(box, "aria-describedby").split()[-1]
        # The field stays invalid from one bad value to the next: wait for this value's message.
        page.locator(f"#{error_id}", has_text=fragment).wait_for()
        message = page.text_content(f"#{error_id}")
        assert "Arithmetic intensity" in message and fragment in message, message
        assert shown_outputs(page) == good_outputs
    assert page.evaluate("window.__pwned") is None
    assert page.locator(f"{ROOT} img").count() == 0
    page.fill(box, good["intensity"])
    page.wait_for_selector(f"{box}:not([aria-invalid])")


def test_copy_link_copies_the_url_of_the_inputs(live):
    page = live.page
    page.select_option(f"{ROOT} [name=accelerator]", "h200")
    page.fill(f"{ROOT} [name=intensity]", "32")
    wait_until_matches_cpython(page, "roofline-explorer")
    page.click(f"{ROOT} [data-copy-link]")
    page.wait_for_selector(f"{ROOT} [data-copy-feedback]:has-text('Link copied')")
    copied = page.evaluate("navigator.clipboard.readText()")
    # The published address (site_url; the default build's), with what differs from the
    # page's starting inputs: the FP16 format was not changed, so it is not named.
    assert copied == "http://127.0.0.1:8000/calculators/roofline-explorer/?" + urlparse(page.url).query
    assert parse_qs(urlparse(copied).query) == {"accelerator": ["h200"], "intensity": ["32"]}


def test_html_in_the_url_is_shown_as_text(live):
    page = live.page
    # A link clicked inside the site (from another page: Material re-renders only when the
    # path changes) is navigated instantly, so the worker stays.
    instant_navigate(page, "kv-cache")
    page.evaluate(
        """() => { const a = document.createElement('a');
        a.href = '../roofline-explorer/?accelerator=' + encodeURIComponent('<script>window.__pwned=2</script>') + '&intensity=' + encodeURIComponent('<b>9</b>');
        a.textContent = 'scenario'; document.querySelector('.md-content article').append(a); a.click(); }"""
    )
    page.wait_for_selector(f'{ROOT} [name=intensity][aria-invalid="true"]', timeout=HANG_MS)
    assert page.input_value(f"{ROOT} [name=intensity]") == "<b>9</b>"
    # A choice the calculator does not have is not kept: the notice quotes it, as text.
    accelerator_notice = page.text_content(f"{ROOT} [data-notice-text]")
    assert "got '<script>window.__pwned=2</script>'" in accelerator_notice
    assert page.input_value(f"{ROOT} [name=accelerator]") == "h100-sxm"
    assert page.locator(f"{ROOT} [data-error-for] *").count() == 0
    assert page.locator(f"{ROOT} [data-notice] *:not(p, button)").count() == 0
    assert page.locator(f"{ROOT} [data-notice-text] *").count() == 0
    assert page.evaluate("window.__pwned") is None


def _config_code(slug: str) -> str:
    return compute("kv-cache", {"model": "config", "model_config": config_text(slug)})["inputs"]["model_config"]


def _url_params(page) -> dict[str, list[str]]:
    return parse_qs(urlparse(page.url).query)


def test_a_pasted_or_dropped_config_computes_and_the_link_carries_its_short_code(live):
    page = live.page
    instant_navigate(page, "kv-cache")
    box = f"{ROOT} [name=model_config]"
    assert not page.is_visible(box)
    page.select_option(f"{ROOT} [name=model]", "config")
    assert page.is_visible(box)
    # Pasted: Python reads it; the link holds the short code, never the file.
    page.fill(box, config_text("qwen3-30b-a3b"))
    wait_until_matches_cpython(page, "kv-cache")
    page.wait_for_function(
        "code => new URL(location.href).searchParams.get('model_config') === code", arg=_config_code("qwen3-30b-a3b")
    )
    assert len(page.url) < 400
    # A broken paste is an error under the box; the results keep their last good values.
    before = shown_outputs(page)
    page.fill(box, '{"model_type": "llama",')
    page.wait_for_selector(f'{box}[aria-invalid="true"]')
    assert "line 1, column 24" in page.text_content(f"{ROOT} [data-error-for=model_config]")
    assert shown_outputs(page) == before
    # A file chosen (or dropped) is read as if pasted.
    page.set_input_files(
        f"{ROOT} input[data-file-for=model_config]",
        files=[{"name": "config.json", "mimeType": "application/json", "buffer": config_text("gemma-3-27b").encode()}],
    )
    page.wait_for_selector(f"{box}:not([aria-invalid])")
    wait_until_matches_cpython(page, "kv-cache")
    page.wait_for_function(
        "code => new URL(location.href).searchParams.get('model_config') === code", arg=_config_code("gemma-3-27b")
    )
    # Back to a preset: the box hides and leaves the link.
    page.select_option(f"{ROOT} [name=model]", "llama-3-8b")
    assert not page.is_visible(box)
    wait_until_matches_cpython(page, "kv-cache")
    assert "model_config" not in _url_params(page)


def test_instant_navigation_kept_one_worker_and_stayed_local(live):
    calculator_workers = [url for url in live.workers if url.endswith("/calculators/worker.mjs")]
    assert len(calculator_workers) == 1, live.workers
    assert live.watch.external_requests == []
    assert real_errors(live.watch) == []


def test_screenshots_of_each_calculator(live, screenshots):
    page = live.page
    for calculator_id in CALCULATORS:
        instant_navigate(page, calculator_id)
        page.set_viewport_size({"width": 1280, "height": 900})
        screenshot_calculator(page, screenshots, f"calculator-{calculator_id}-light.png")
        set_scheme(page, "dark")
        screenshot_calculator(page, screenshots, f"calculator-{calculator_id}-dark.png")
        set_scheme(page, "light")
        page.set_viewport_size({"width": 390, "height": 844})
        screenshot_calculator(page, screenshots, f"calculator-{calculator_id}-390px.png")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, f"{calculator_id}: page scrolls sideways at 390 px ({width} px wide)"
        page.set_viewport_size({"width": 1280, "height": 900})
    assert real_errors(live.watch) == []


# Fresh pages ----------------------------------------------------------------------------


def test_url_round_trip_restores_inputs_and_never_shows_contradicting_values(browser, site_server):
    context = browser.new_context(service_workers="block")
    try:
        page = context.new_page()
        watch = PageWatch()
        watch.attach(page)
        url = (
            site_server
            + "calculators/decode-speed-of-light/?model=llama-3-8b&batch=16&context_tokens=4096&bandwidth_efficiency=75"
        )
        page.goto(url)
        page.wait_for_selector(f"{ROOT}[data-engine]")
        inputs = form_inputs(page)
        assert (inputs["model"], inputs["batch"], inputs["context_tokens"], inputs["bandwidth_efficiency"]) == (
            "llama-3-8b",
            "16",
            "4096",
            "75",
        )
        # The Llama 3 8B preset filled the fields the link leaves to it.
        assert inputs["layers"] == "32"
        # Before Python answers, the results are marked as updating (dimmed, aria-busy) while
        # they keep the prerendered values; after, they are the link's. (Read state and texts
        # at once: the answer may land at any moment.)
        live_outputs, _table = expected_texts("decode-speed-of-light", inputs)
        state, busy, shown = page.eval_on_selector(
            ROOT,
            """root => [root.dataset.state, root.querySelector('.roofline-calc__results').getAttribute('aria-busy'),
                Object.fromEntries([...root.querySelectorAll('[data-output]')].map(o => [o.dataset.output, o.textContent]))]""",
        )
        assert (state == "computing" and busy == "true") or shown == live_outputs, (state, busy, shown)
        page.wait_for_selector(f'{ROOT}[data-state="live"]', timeout=HANG_MS)
        wait_until_matches_cpython(page, "decode-speed-of-light")
        assert page.url == url
        assert watch.external_requests == [] and real_errors(watch) == []
    finally:
        context.close()


def test_a_link_with_a_config_code_shows_its_fields_as_json(browser, site_server):
    context = browser.new_context(service_workers="block")
    try:
        page = context.new_page()
        watch = PageWatch()
        watch.attach(page)
        code = _config_code("deepseek-v3")
        url = site_server + f"calculators/kv-cache/?model=config&model_config={code}&context_tokens=4096"
        page.goto(url)
        page.wait_for_selector(f"{ROOT}[data-engine]")
        assert page.is_visible(f"{ROOT} [name=model_config]")
        page.wait_for_selector(f'{ROOT}[data-state="live"]', timeout=HANG_MS)
        wait_until_matches_cpython(page, "kv-cache")
        shown = json.loads(page.input_value(f"{ROOT} [name=model_config]"))
        assert shown["model_type"] == "deepseek_v3" and shown["kv_lora_rank"] == 512
        assert _url_params(page)["model_config"] == [code]
        assert watch.external_requests == [] and real_errors(watch) == []
    finally:
        context.close()


def test_pyodide_blocked_keeps_precomputed_values_with_a_notice(browser, site_server):
    context = browser.new_context(service_workers="block")
    try:
        blocked: list[str] = []

        def abort(route):
            blocked.append(route.request.url)
            route.abort()

        page = context.new_page()
        watch = PageWatch()
        watch.attach(page)
        # After PageWatch's catch-all, so it takes precedence for this page's requests; on the
        # context too, for requests the worker makes.
        page.route("**/assets/pyodide/**", abort)
        context.route("**/assets/pyodide/**", abort)
        page.goto(site_server + "calculators/roofline-explorer/?intensity=64")
        page.wait_for_selector(f'{ROOT}[data-engine="failed"]', timeout=HANG_MS)
        assert blocked
        status = page.text_content(f"{ROOT} [data-status]")
        assert status.startswith("Showing precomputed values")
        # The fields keep the link's value; the prerendered results say they are for the defaults.
        assert form_inputs(page)["intensity"] == "64"
        outputs, _table = expected_texts("roofline-explorer", {})
        assert shown_outputs(page) == outputs
        assert "for the page's starting inputs" in page.text_content(f"{ROOT} [data-results-for]")
        assert page.is_disabled(f"{ROOT} [name=intensity]")
        assert watch.page_errors == []
        # Chromium reports each aborted request as a failed resource load; nothing else may appear.
        assert [e for e in watch.console_errors if "Failed to load resource" not in e] == []
        assert watch.external_requests == []
    finally:
        context.close()


def test_prerendered_values_without_javascript(page_factory, site_server):
    page, watch = page_factory(java_script_enabled=False)
    for calculator_id in CALCULATORS:
        page.goto(site_server + f"calculators/{calculator_id}/")
        outputs, table = expected_texts(calculator_id, form_inputs(page), prose_columns(page))
        assert shown_outputs(page) == outputs
        assert shown_table(page) == table
        assert page.text_content(f"{ROOT} [data-status]") == PRECOMPUTED_STATUS
        assert page.locator(f"{ROOT} svg.roofline-chart").count() == (
            1 if compute(calculator_id, {}).get("chart") else 0
        )
        assert page.is_hidden(f"{ROOT} [data-copy-link]")
    assert watch.external_requests == []
