"""The HTML around a figure: alt text for screen readers, caption, table, unique ids."""

from __future__ import annotations

import re
from html import unescape

from roofline_core.figures import figure_data
from roofline_site.figures.html import figure_html
from roofline_site.figures.theme import ID_PLACEHOLDER

SVG = (
    f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10" class="roofline-figure__svg">'
    f'<defs><path id="{ID_PLACEHOLDER}0" d="M 0 0"/></defs><use xlink:href="#{ID_PLACEHOLDER}0"/></svg>\n'
)


def test_alt_text_caption_and_table_of_the_numbers():
    data = {**figure_data("roofline", batches=[1]), "caption": "Decode <b> sits low."}
    html = figure_html(SVG, data, number=2)
    svg_root = re.search(r"<svg [^>]*>", html).group(0)
    assert 'role="img"' in svg_root
    assert unescape(re.search(r'aria-label="([^"]*)"', svg_root).group(1)) == data["alt"]
    assert f"<desc>{data['alt']}</desc>" in html
    assert '<figure class="roofline-figure" id="roofline-figure-2" data-figure-kind="roofline">' in html
    assert (
        '<figcaption class="roofline-figure__caption"><strong>Roofline of NVIDIA H100 SXM (FP16)</strong> Decode &lt;b&gt; sits low.</figcaption>'
        in html
    )
    assert (
        '<details class="abstract roofline-figure__numbers">' in html and "<summary>Plotted numbers</summary>" in html
    )
    assert html.count("<tr><td>") == len(data["table"]["rows"])
    assert "<td>295 FLOP/byte</td>" in html


def test_two_figures_on_a_page_have_distinct_ids():
    data = figure_data("kv-cache")
    first, second = figure_html(SVG, data, number=1), figure_html(SVG, data, number=2)
    ids = lambda html: set(re.findall(r' id="([^"]+)"', html))  # noqa: E731
    assert ids(first) == {"roofline-figure-1", "rf1-0"} and ids(second) == {"roofline-figure-2", "rf2-0"}
    assert 'href="#rf2-0"' in second and ID_PLACEHOLDER not in first + second
