"""Embed pages in a blog's iframe: the answer in the frame's first 500 px, and a height message
the parent page can size the frame with."""

from __future__ import annotations

import contextlib
import http.server
import re
import threading

import pytest

from roofline_core.calculators import CALCULATORS
from tests.support.browser_wait import HANG_MS

pytestmark = pytest.mark.browser

PARENT = """<!doctype html><html><body style="margin:0">
<iframe id="frame" src="{src}" title="calculator" style="border:0;width:{width}px;height:300px"></iframe>
<script>
  window.heights = [];
  addEventListener("message", (event) => {{
    if (event.data && event.data.type === "roofline-glossary:height") {{
      window.heights.push(event.data.height);
      for (const frame of document.querySelectorAll("iframe")) {{
        if (frame.contentWindow === event.source) frame.style.height = event.data.height + "px";
      }}
    }}
  }});
</script></body></html>"""


def _parent_page(page_factory, site_server: str, calculator_id: str, width: int):
    # The checks read the mounted embed's size and boxes, never a live result: the page asks to
    # save data, so the embed's calculator boots no Python that nothing waits for (a boot begun on
    # idle cost about 3.5 CPU-seconds an embed, 17 times in this module).
    page, watch = page_factory(width=width + 40, height=900, saves_data=True)
    parent_url = f"{site_server}__blog__/{calculator_id}.html"
    html = PARENT.format(src=f"{site_server}embed/{calculator_id}/", width=width)
    page.route(parent_url, lambda route: route.fulfill(body=html, content_type="text/html"))
    page.goto(parent_url)
    frame = page.frame_locator("#frame")
    frame.locator("[data-calculator][data-engine]").wait_for()
    return page, watch, frame


@pytest.mark.parametrize("calculator_id", sorted(CALCULATORS))
def test_the_embed_reports_its_height_and_answers_in_its_first_500px(page_factory, site_server, calculator_id):
    page, watch, frame = _parent_page(page_factory, site_server, calculator_id, width=700)
    page.wait_for_function("window.heights.length > 0")
    # The parent sized the frame to the content: nothing scrolls inside it.
    page.wait_for_function(
        "() => { const f = document.getElementById('frame');"
        " return Math.abs(f.getBoundingClientRect().height - f.contentDocument.documentElement.scrollHeight) <= 1; }"
    )
    boxes = frame.locator(".roofline-calc__outputs--headline, [data-chart-box]").evaluate_all(
        "els => els.map(e => e.getBoundingClientRect().bottom)"
    )
    assert boxes and max(boxes) <= 500, (calculator_id, boxes)
    assert watch.page_errors == [] and watch.external_requests == []


@pytest.mark.parametrize("width", [320, 800])
def test_the_embed_fits_narrow_and_wide_frames(page_factory, site_server, width):
    _page, _watch, frame = _parent_page(page_factory, site_server, "decode-speed-of-light", width=width)
    scroll_width = frame.locator("html").evaluate("el => el.scrollWidth")
    assert scroll_width <= width
    bottom = frame.locator(".roofline-calc__outputs--headline").evaluate("e => e.getBoundingClientRect().bottom")
    assert bottom <= 500


@contextlib.contextmanager
def _serve_once(html: str):
    """Serve ``html`` at an address of its own (another port, so another origin) while open."""

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 - the name http.server calls
            body = html.encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/post.html"
    finally:
        server.shutdown()
        server.server_close()


def _changed_batch(locator_root) -> None:
    box = locator_root.locator("[name=batch]")
    box.fill("16")
    box.dispatch_event("input")


def test_copy_link_and_embed_code_give_the_published_addresses_with_the_scenario(browser, site_server):
    # Copied text must work outside the site: absolute addresses from site_url (the default
    # build's is http://127.0.0.1:8000/), with only the calculator's own inputs in the frame's.
    context = browser.new_context(service_workers="block", permissions=["clipboard-read", "clipboard-write"])
    try:
        page = context.new_page()
        page.goto(site_server + "calculators/decode-speed-of-light/")
        root = page.locator("[data-calculator]").first
        root.locator("[data-copy-embed]").wait_for(state="visible")
        _changed_batch(root)
        # No string predicates here: the site's CSP forbids the eval Playwright polls them with.
        page.wait_for_url(re.compile(r"batch=16"))
        query = page.evaluate("location.search")

        root.locator("[data-copy-link]").click()
        root.locator("[data-copy-feedback]", has_text="Link copied.").wait_for()
        assert page.evaluate("navigator.clipboard.readText()") == (
            "http://127.0.0.1:8000/calculators/decode-speed-of-light/" + query
        )

        root.locator("[data-copy-embed]").click()
        root.locator("[data-copy-feedback]", has_text="Embed code copied.").wait_for()
        code = page.evaluate("navigator.clipboard.readText()")
        src = "http://127.0.0.1:8000/embed/decode-speed-of-light/" + query.replace("&", "&amp;")
        assert code.startswith(f'<iframe src="{src}" title="Decode speed of light"'), code
        assert 'event.data?.type !== "roofline-glossary:height"' in code and code.count("<iframe") == 1
    finally:
        context.close()


def test_in_a_cross_origin_frame_copying_falls_back_to_selected_text_and_the_full_page_keeps_the_scenario(
    page_factory, site_server
):
    page, watch = page_factory(width=800, height=900)
    html = PARENT.format(src=f"{site_server}embed/decode-speed-of-light/", width=700)
    # The blog is another origin (its own port), served from this machine: Chromium refuses a
    # loopback frame in a page it cannot place on the local network (a routed response).
    with _serve_once(html) as blog:
        page.goto(blog)
    frame = page.frame_locator("#frame")
    root = frame.locator("[data-calculator]")
    root.locator("[data-copy-link]").wait_for(state="visible")
    _changed_batch(root)
    full_page = frame.locator("a[data-full-page-link]")
    frame.locator('a[data-full-page-link][href*="batch=16"]').wait_for()
    assert full_page.get_attribute("href").startswith("../../calculators/decode-speed-of-light/?")

    root.locator("[data-copy-link]").click()
    text = root.locator("[data-copy-text]")
    text.wait_for(state="visible")
    assert text.input_value().startswith("http://127.0.0.1:8000/calculators/decode-speed-of-light/?")
    assert "batch=16" in text.input_value()
    assert "selected below" in root.locator("[data-copy-feedback]").text_content()
    # Selected, so Ctrl+C copies it; and the frame does not widen.
    assert text.evaluate("el => el.selectionEnd - el.selectionStart") == len(text.input_value())
    assert frame.locator("html").evaluate("el => el.scrollWidth") <= 700
    assert watch.page_errors == []


def test_the_documented_snippet_resizes_its_own_frame_only(page_factory, site_server):
    # The blog holds the copied embed code and, beside it, another frame (an advertisement, a
    # comment widget) that posts the same message: neither that frame nor the embed moves for it.
    from roofline_site.calculators.embed import embed_code

    code = embed_code(f"{site_server}embed/kv-cache/", "KV cache size")
    other = (
        '<iframe id="other" style="height:150px" srcdoc="<script>'
        "setInterval(() => parent.postMessage({type: 'roofline-glossary:height', height: 4321}, '*'), 50)"
        '</script>"></iframe>'
    )
    page, watch = page_factory(width=800, height=900)
    parent_url = f"{site_server}__blog__/snippet.html"
    html = f"<!doctype html><html><body style='margin:0'>{other}{code}</body></html>"
    page.route(parent_url, lambda route: route.fulfill(body=html, content_type="text/html"))
    page.goto(parent_url)
    embed = page.locator("iframe[title='KV cache size']")
    page.frame_locator("iframe[title='KV cache size']").locator("[data-calculator][data-engine]").wait_for()
    # The frame follows its content (which settles as the calculator goes live), never the other
    # frame's 4321: wait for it to match rather than for a fixed time.
    page.wait_for_function(
        "f => Math.abs(f.getBoundingClientRect().height - f.contentDocument.documentElement.scrollHeight) <= 1",
        arg=embed.element_handle(),
    )
    page.wait_for_timeout(200)  # several of the other frame's messages (one every 50 ms) arrive
    frame_height = embed.evaluate("f => f.getBoundingClientRect().height")
    content_height = embed.evaluate("f => f.contentDocument.documentElement.scrollHeight")
    assert abs(frame_height - content_height) <= 1 and frame_height != 4321
    assert page.locator("#other").evaluate("f => f.style.height") == "150px"


def test_the_documentation_shows_the_snippet_the_site_copies():
    from roofline_site.calculators.embed import RESIZE_SCRIPT
    from tests.support.site_build import PROJECT_ROOT

    assert RESIZE_SCRIPT in (PROJECT_ROOT / "docs" / "calculators" / "embedding.md").read_text(encoding="utf-8")


def _frame_at(page_factory, site_server: str, query: str, *, width: int = 700):
    page, watch = page_factory(width=width + 40, height=900)
    parent_url = f"{site_server}__blog__/decode.html"
    html = PARENT.format(src=f"{site_server}embed/decode-speed-of-light/{query}", width=width)
    page.route(parent_url, lambda route: route.fulfill(body=html, content_type="text/html"))
    page.goto(parent_url)
    frame = page.frame_locator("#frame")
    frame.locator("[data-calculator][data-engine]").wait_for()
    return page, watch, frame


def test_a_compact_embed_shows_the_changed_inputs_the_scenario_headline_and_chart_and_more_shows_the_rest(
    page_factory, site_server
):
    page, watch, frame = _frame_at(page_factory, site_server, "?batch=16&kv_dtype=fp8")
    root = frame.locator("[data-calculator]")
    # Live, so the results (and the frame's height) are those of the link's inputs.
    frame.locator('[data-calculator][data-state="live"]').wait_for(timeout=HANG_MS)
    for shown in (
        ".roofline-calc__outputs--headline",
        "[data-chart-box]",
        "[name=batch]",  # a key input
        "[name=kv_dtype]",  # folded by default, but the link changed it
        "[data-scenario-for=accelerator]",  # the scenario, named
    ):
        assert root.locator(shown).first.is_visible(), shown
    hidden = (
        "[data-table]",
        "[name=accelerator]",  # at its default
        "[data-more-inputs] > summary",
        ".roofline-calc__outputs:not(.roofline-calc__outputs--headline)",  # other results, the tornado
    )
    for selector in hidden:
        assert root.locator(selector).first.is_hidden(), selector
    more = root.locator("[data-size-toggle]")
    assert more.get_attribute("aria-expanded") == "false"
    compact_height = page.locator("#frame").evaluate("f => f.getBoundingClientRect().height")

    more.click()
    for selector in hidden:
        assert root.locator(selector).first.is_visible(), selector
    assert more.get_attribute("aria-expanded") == "true"
    # The parent's frame grows with it, and shrinks back for "Less".
    page.wait_for_function(f"document.getElementById('frame').getBoundingClientRect().height > {compact_height + 100}")
    more.click()
    assert root.locator("[data-table]").is_hidden()
    page.wait_for_function(
        f"Math.abs(document.getElementById('frame').getBoundingClientRect().height - {compact_height}) <= 2"
    )
    assert watch.page_errors == [] and watch.external_requests == []


def test_size_full_shows_every_input_result_and_the_table(page_factory, site_server):
    _page, watch, frame = _frame_at(page_factory, site_server, "?size=full&batch=16")
    root = frame.locator("[data-calculator]")
    for selector in ("[data-table]", "[name=accelerator]", "[name=weight_dtype]", "[data-more-inputs] > summary"):
        assert root.locator(selector).first.is_visible(), selector
    assert root.get_attribute("data-size") == "full"
    assert root.locator("[data-size-toggle]").get_attribute("aria-expanded") == "true"
    assert watch.page_errors == []
