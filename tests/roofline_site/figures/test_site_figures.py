"""The real site: the gallery shows every kind, readable in light, dark and at phone width."""

from __future__ import annotations

import re
from html import unescape

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from roofline_core.figures import FIGURE_KINDS
from roofline_core.hardware import ACCELERATORS
from roofline_core.hardware.dtypes import STORAGE_DTYPES
from roofline_core.models import MODELS
from roofline_site.figures.html import svg_file
from roofline_site.figures.spec import COMMON_KEYS, COMPUTE_DTYPES, KIND_PARAMS
from tests.support.site_build import PROJECT_ROOT


def test_authoring_docs_cover_every_kind_and_key():
    text = (PROJECT_ROOT / "docs" / "authoring-figures.md").read_text(encoding="utf-8")
    for key in COMMON_KEYS:
        assert f"| `{key}` |" in text, key
    for kind, params in KIND_PARAMS.items():
        section = text.split(f"### `{kind}`", 1)[1].split("\n### ", 1)[0]
        for param in params:
            assert f"| `{param.key}` |" in section, (kind, param.key)
    accepted = text.split("### Accepted values", 1)[1].split("\n## ", 1)[0]
    for slug in [*ACCELERATORS, *MODELS, *COMPUTE_DTYPES, *STORAGE_DTYPES]:
        assert f"`{slug}`" in accepted, slug


@pytest.mark.slow
def test_gallery_has_every_kind_with_alt_text_and_numbers(built_site):
    html = (built_site / "figures" / "index.html").read_text(encoding="utf-8")
    kinds = re.findall(r'<figure class="roofline-figure" id="roofline-figure-\d+" data-figure-kind="([^"]+)"', html)
    assert set(kinds) == set(FIGURE_KINDS)
    images = re.findall(r'<img class="roofline-figure__img" src="([^"]+)" alt="([^"]+)"', html)
    assert len(images) == len(kinds)
    assert unescape(images[0][1]).startswith(
        "Roofline of NVIDIA H100 SXM (FP16): the 3.35 TB/s bandwidth roof meets the 989 TFLOP/s compute roof at 295 FLOP/byte"
    )
    assert html.count("<summary>Plotted numbers</summary>") == len(kinds)
    # Each image is a file of the site, an SVG named by its content.
    for src, _alt in images:
        file = (built_site / "figures" / src).resolve()
        assert file.read_bytes().startswith(b"<svg") and file.name == svg_file(file.read_text(encoding="utf-8"))[0]


@pytest.mark.browser
def test_gallery_screenshots_light_dark_and_phone(site_server, page_factory, screenshots):
    fills = {}
    for scheme, width in (("light", 1280), ("dark", 1280), ("light", 390), ("dark", 390)):
        page, watch = page_factory(color_scheme=scheme, width=width)
        page.goto(site_server + "figures/", wait_until="networkidle")
        # Material's bundle applies the palette once it runs, which on a busy machine can be after
        # the network went idle: wait for it (a wrong scheme still fails, after the timeout).
        expected_scheme = "slate" if scheme == "dark" else "default"
        try:
            page.wait_for_function(
                "(s) => document.body.dataset.mdColorScheme === s", arg=expected_scheme, timeout=5000
            )
        except PlaywrightTimeout:
            pass  # the assertion below reports what the page has
        assert page.evaluate("document.body.dataset.mdColorScheme") == expected_scheme
        figures = page.locator("figure.roofline-figure")
        # Each figure's SVG takes its image's place as it nears the viewport.
        for index in range(figures.count()):
            figures.nth(index).scroll_into_view_if_needed()
            figures.nth(index).locator(".roofline-figure__plot[data-inlined] > svg[role=img]").wait_for()
        kinds = figures.evaluate_all("els => els.map(e => e.dataset.figureKind)")
        assert set(kinds) == set(FIGURE_KINDS)
        widths = figures.evaluate_all("els => els.map(e => e.querySelector('svg').getBoundingClientRect().width)")
        # Scaled to the column: never wider than the screen, never shrunk to an unreadable stamp.
        assert all(300 <= w <= min(width, 560) for w in widths), widths
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        # Text and lines take their colours from the palette.
        fills[scheme] = page.evaluate(
            """() => {
              const svg = document.querySelector('.roofline-figure__svg');
              const text = svg.querySelector('g.rf-fill-fg');
              const line = svg.querySelector('path.rf-stroke-c0');
              return [getComputedStyle(text).fill, getComputedStyle(line).stroke];
            }"""
        )
        # Through the CSSOM: the page's Content-Security-Policy (rightly) refuses an injected <style>.
        page.evaluate(
            "() => document.querySelectorAll('.md-header, .md-tabs').forEach(e => e.style.setProperty('display', 'none', 'important'))"
        )
        for index, kind in enumerate(kinds):
            screenshots.take(figures.nth(index), f"figure-{index + 1}-{kind}-{scheme}-{width}.png")
        # The numbers open under the figure.
        table = figures.first.locator("details table")
        assert not table.is_visible()
        figures.first.locator("summary").click()
        assert table.is_visible()
        screenshots.take(page, f"figures-page-{scheme}-{width}.png", full_page=True)
        assert watch.external_requests == [] and watch.console_errors == [] and watch.page_errors == []
    assert fills["light"] != fills["dark"]
    assert fills["light"][0] == "rgba(0, 0, 0, 0.87)"  # Material's light text colour
