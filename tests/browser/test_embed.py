"""Embed pages in a blog's iframe: the answer in the frame's first 500 px, and a height message
the parent page can size the frame with."""

from __future__ import annotations

import pytest

from roofline_core.calculators import CALCULATORS

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
    page, watch = page_factory(width=width + 40, height=900)
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
