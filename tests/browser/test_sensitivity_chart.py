"""The "what moves it" tornado chart goes live with the scenario: its rows are CPython's."""

from __future__ import annotations

import pytest

from roofline_core.calculators import compute
from roofline_core.view.tornado import tornado_tree
from tests.support.browser_wait import HANG_MS

pytestmark = pytest.mark.browser

ROOT = "[data-calculator]"


def _row_texts(tree) -> list[str]:
    def text(node) -> str:
        return node if isinstance(node, str) else "".join(text(child) for child in node["children"])

    return [text(row) for row in tree["children"] if row["attrs"].get("class") == "roofline-tornado__row"]


def test_the_tornado_chart_redraws_for_a_linked_scenario(page_factory, site_server):
    page, watch = page_factory(width=390)
    page.goto(site_server + "calculators/decode-speed-of-light/?batch=32&context_tokens=8192", wait_until="load")
    page.wait_for_selector(f'{ROOT}[data-state="live"]', timeout=HANG_MS)
    result = compute("decode-speed-of-light", {"batch": "32", "context_tokens": "8192"})
    shown = result["sensitivity"]
    expected = _row_texts(tornado_tree(shown["factors"], measure=shown["measure"], bound=shown["bound"]))
    rows = page.eval_on_selector_all(
        f"{ROOT} [data-figure-for=what_moves] .roofline-tornado__row", "rows => rows.map(r => r.textContent)"
    )
    assert rows == expected and any(row.startswith("KV cache format") for row in rows)
    # The text stays in the page for assistive technology; the drawing is hidden from it.
    assert page.text_content(f"{ROOT} [data-output=what_moves]") == result["outputs"]["what_moves"]["text"]
    assert page.get_attribute(f"{ROOT} .roofline-tornado", "aria-hidden") == "true"
    assert not (watch.console_errors or watch.page_errors or watch.external_requests)
