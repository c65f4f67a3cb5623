"""Drawing: every kind renders to a themed, inlinable SVG, identical bytes every time."""

from __future__ import annotations

import hashlib
import re
import subprocess
import sys

import pytest

from roofline_core.figures import FIGURE_KINDS, figure_data
from roofline_site.figures.draw import draw_svg
from roofline_site.figures.theme import COLOURS, ID_PLACEHOLDER, UnthemedColourError, colour_class_rules, theme_svg
from tests.support.site_build import PROJECT_ROOT


@pytest.fixture(scope="module")
def drawings() -> dict[str, str]:
    return {kind: draw_svg(figure_data(kind)) for kind in FIGURE_KINDS}


@pytest.mark.parametrize("kind", FIGURE_KINDS)
def test_each_kind_renders_a_themed_scalable_svg(drawings, kind):
    svg = drawings[kind]
    root = re.match(r"<svg [^>]*>", svg).group(0)
    assert 'viewBox="0 0 ' in root and "width=" not in root and "height=" not in root
    assert 'class="roofline-figure__svg"' in root
    assert svg.rstrip().endswith("</svg>")
    # Drawn: glyphs for text, paths for lines (an empty figure would have neither).
    assert svg.count("<use ") > 20 and svg.count("<path ") > 10
    # Colours only through the theme's classes (their CSS reads the variables); no style
    # attribute, so the page's CSP needs no 'unsafe-inline'; nothing that would leak into the page.
    assert "rf-fill-fg" in svg and "rf-stroke-grid" in svg
    assert "rf-stroke-c0" in svg or "rf-fill-c0" in svg or "rf-fill-memory" in svg
    assert " style=" not in svg
    for sentinel, _ in COLOURS.values():
        assert sentinel not in svg
    assert "<style" not in svg and "<metadata" not in svg and "<?xml" not in svg and "<!--" not in svg
    assert "Date" not in svg
    # Every id is the placeholder the HTML step replaces, and every reference has its target.
    ids = re.findall(r' id="([^"]+)"', svg)
    assert ids and all(i.startswith(ID_PLACEHOLDER) for i in ids)
    references = set(re.findall(r'(?:url\(#|href="#)([^")]+)', svg))
    assert references <= set(ids)


def test_two_renders_are_identical_bytes_in_this_process_and_another(drawings):
    again = {kind: draw_svg(figure_data(kind)) for kind in ("roofline", "decode-split")}
    assert again == {kind: drawings[kind] for kind in again}
    code = (
        "import hashlib, sys\n"
        "from roofline_core.figures import FIGURE_KINDS, figure_data\n"
        "from roofline_site.figures.draw import draw_svg\n"
        "print(hashlib.sha256(''.join(draw_svg(figure_data(k)) for k in FIGURE_KINDS).encode()).hexdigest())\n"
    )
    other = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    here = hashlib.sha256("".join(drawings[k] for k in FIGURE_KINDS).encode()).hexdigest()
    assert other == here


def test_different_data_draws_differently(drawings):
    other = draw_svg(figure_data("roofline", accelerators=["a100-sxm-80gb"]))
    assert other != drawings["roofline"]


def test_hatched_bars_for_a_batch_that_does_not_fit(drawings):
    # decode-split's default sweep reaches contexts whose batch does not fit in 80 GiB.
    assert "<pattern" in drawings["decode-split"]


def test_an_unthemed_colour_is_refused():
    svg = '<svg viewBox="0 0 10 10" width="10pt"><path style="fill: #123456"/></svg>'
    with pytest.raises(UnthemedColourError, match="#123456"):
        theme_svg(svg)


def test_theme_keeps_only_referenced_ids_and_rounds_coordinates():
    svg = (
        '<?xml version="1.0"?><svg width="1pt" height="1pt" viewBox="0 0 10 10">'
        "<metadata>x</metadata><defs><style>*{a:b}</style></defs>"
        '<g id="figure_1"><path id="glyph" d="M 1.234567 2.5 L 3.14159 0"/>'
        '<use xlink:href="#glyph" x="4.56789"/></g></svg>'
    )
    themed = theme_svg(svg)
    assert 'id="figure_1"' not in themed
    assert f'id="{ID_PLACEHOLDER}0"' in themed and f'href="#{ID_PLACEHOLDER}0"' in themed
    assert 'd="M 1.23 2.5 L 3.14 0"' in themed and 'x="4.57"' in themed
    assert "metadata" not in themed and "<style" not in themed


def test_styles_become_attributes_and_colour_classes():
    svg = (
        '<svg viewBox="0 0 10 10" width="10pt"><g style="fill: #0f0f01; stroke: #0f0f10; stroke-width: 0.8">'
        '<path d="M 0 0" style="fill: none; stroke-linecap: square"/></g></svg>'
    )
    themed = theme_svg(svg)
    assert "style=" not in themed
    assert 'stroke-linejoin="round" stroke-linecap="butt" class="roofline-figure__svg">' in themed
    assert '<g fill="#1f1f1f" stroke="#0072b2" stroke-width="0.8" class="rf-fill-fg rf-stroke-c0">' in themed
    assert '<path d="M 0 0" fill="none" stroke-linecap="square"/>' in themed


def test_figures_css_holds_every_colour_class_rule():
    css = (PROJECT_ROOT / "site_assets" / "figures.css").read_text(encoding="utf-8")
    assert colour_class_rules() in css
    assert "roofline-figure__svg *" not in css  # a rule on every element would beat the attributes
