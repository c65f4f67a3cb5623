"""The HTML around a figure: alt text for screen readers, caption, table, unique ids."""

from __future__ import annotations

import re
from html import unescape

from roofline_core.figures import figure_data
from roofline_site.figures.html import FILE_ID_PREFIX, figure_html, svg_file
from roofline_site.figures.theme import ID_PLACEHOLDER

SVG = (
    f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10" class="roofline-figure__svg">'
    f'<defs><path id="{ID_PLACEHOLDER}0" d="M 0 0"/></defs><use xlink:href="#{ID_PLACEHOLDER}0"/></svg>\n'
)


def test_alt_text_caption_and_table_of_the_numbers():
    data = {**figure_data("roofline", batches=[1]), "caption": "Decode <b> sits low."}
    html = figure_html(SVG, data, number=2, src="../../assets/roofline/figures/svg/x.svg")
    image = re.search(r"<img [^>]*>", html).group(0)
    assert unescape(re.search(r' alt="([^"]*)"', image).group(1)) == data["alt"]
    # Sized from the viewBox, so the page keeps its place before it loads; lazy below the fold.
    assert 'width="10" height="10" loading="lazy"' in image and 'src="../../assets/roofline/figures/svg/x.svg"' in image
    assert '<figure class="roofline-figure" id="roofline-figure-2" data-figure-kind="roofline">' in html
    assert 'data-svg-id-prefix="rf2-" data-svg-title="Roofline of NVIDIA H100 SXM (FP16)"' in html
    assert (
        '<figcaption class="roofline-figure__caption"><strong>Roofline of NVIDIA H100 SXM (FP16)</strong> Decode &lt;b&gt; sits low.</figcaption>'
        in html
    )
    assert (
        '<details class="abstract roofline-figure__numbers">' in html and "<summary>Plotted numbers</summary>" in html
    )
    assert html.count("<tr><td>") == len(data["table"]["rows"])
    assert "<td>295 FLOP/byte</td>" in html


def test_the_file_is_named_by_its_content_and_its_ids_carry_the_file_prefix():
    name, data = svg_file(SVG)
    assert re.fullmatch(r"figure\.[0-9a-f]{16}\.svg", name)
    text = data.decode()
    assert f'id="{FILE_ID_PREFIX}0"' in text and f'href="#{FILE_ID_PREFIX}0"' in text and ID_PLACEHOLDER not in text
    assert svg_file(SVG.replace("10 10", "10 11"))[0] != name


def test_two_figures_on_a_page_get_distinct_id_prefixes():
    data = figure_data("kv-cache")
    first, second = (figure_html(SVG, data, number=n, src="x.svg") for n in (1, 2))
    assert 'data-svg-id-prefix="rf1-"' in first and 'data-svg-id-prefix="rf2-"' in second
    ids = lambda html: set(re.findall(r' id="([^"]+)"', html))  # noqa: E731
    assert ids(first) == {"roofline-figure-1"} and ids(second) == {"roofline-figure-2"}
