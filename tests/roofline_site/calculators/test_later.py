"""A term page's calculator: a summary in the page, the calculator in a content-named file."""

from __future__ import annotations

import json
import re

from roofline_site.calculators.later import FRAGMENTS_DIR, fragment_file, summary_html
from roofline_site.calculators.page import CalculatorFences
from roofline_site.downloads import DATA_DIR
from roofline_site.fences import start_build
from tests.roofline_site.calculators.test_page import ASSETS
from tests.roofline_site.fences.markdown_page import convert

TERM_PAGE = "```calculator\nid: kv-cache\ndefaults: batch=1, context_tokens=4096\n```\n"


def _term_page(markdown: str = TERM_PAGE, page_path: str = "glossary/kv-cache/") -> tuple[str, dict[str, bytes]]:
    fences = CalculatorFences(assets=lambda: ASSETS)
    build = start_build([fences])
    build.prepare_page(markdown, path="glossary/kv-cache.md", page_path=page_path, url_to=lambda p: "../../" + p)
    page = build.finish_page(convert(markdown, ["calculator"]), path="glossary/kv-cache.md")
    # The calculator's own file; its CSV downloads (roofline_site/downloads.py) are tested apart.
    return page, {path: data for path, data in fences.site_files().items() if path.startswith(FRAGMENTS_DIR)}


def _outputs(html: str) -> dict[str, str]:
    return dict(re.findall(r'<dd data-output="([^"]+)">([^<]*)</dd>', html))


def test_the_summary_names_the_file_that_holds_the_calculator():
    page, files = _term_page()
    ((site_path, data),) = files.items()
    assert site_path.startswith(FRAGMENTS_DIR) and re.fullmatch(
        r"calculator\.[0-9a-f]{16}\.json", site_path.split("/")[-1]
    )
    assert f'data-calculator-later="../../{site_path}"' in page
    assert 'data-calculator="kv-cache"' not in page
    part = json.loads(data)
    calculator = part["html"]
    assert part["id"] == "calculator-kv-cache"
    assert calculator.startswith('<section class="roofline-calc" id="calculator-kv-cache" data-calculator="kv-cache"')
    assert 'id="calculator-kv-cache"' in page  # links to the calculator land on the summary


def test_the_summary_shows_the_calculators_headline_results_and_what_they_are_for():
    page, files = _term_page()
    calculator = json.loads(next(iter(files.values())))["html"]
    headline = _outputs(page)
    assert set(headline) == {"max_batch", "kv_bytes"}
    assert headline.items() <= _outputs(calculator).items()
    assert "Model: Llama 3 70B" in page and "Context length: 4096 tokens" in page
    # Every input the form shows is named (any may move the results), in the form's order.
    assert "Accelerator: NVIDIA H100 SXM" in page and "KV cache format: FP16 (2 bytes)" in page
    assert page.index("Model:") < page.index("Context length:") < page.index("Accelerator:")
    assert "Devices: " in page and "Layers" not in page  # a custom model's sizes only under Custom
    assert "Batch size: 1 sequence," in page
    assert '<a href="../../calculators/kv-cache/">Open the KV cache size calculator</a>' in page


def test_the_calculator_in_its_file_links_its_csv_files_which_the_build_writes():
    fences = CalculatorFences(assets=lambda: ASSETS)
    build = start_build([fences])
    build.prepare_page(
        TERM_PAGE, path="glossary/kv-cache.md", page_path="glossary/kv-cache/", url_to=lambda p: "../../" + p
    )
    files = fences.site_files()
    (chart_csv,) = [path for path in files if path.startswith(DATA_DIR)]
    assert re.fullmatch(r"kv-cache-chart\.[0-9a-f]{16}\.csv", chart_csv.split("/")[-1])
    calculator = json.loads(next(data for path, data in files.items() if path.startswith(FRAGMENTS_DIR)))["html"]
    assert f'href="../../{chart_csv}" download="kv-cache-chart.csv"' in calculator
    assert b"context_tokens=4096" in files[chart_csv]


def test_other_pages_keep_the_calculator_in_the_page():
    page, files = _term_page(page_path="calculators/kv-cache/")
    assert files == {} and 'data-calculator="kv-cache"' in page and "data-calculator-later" not in page


def test_the_file_is_named_by_its_content():
    one, other = fragment_file("<section>a</section>", dom_id="c"), fragment_file("<section>b</section>", dom_id="c")
    assert one[0] != other[0] and fragment_file("<section>a</section>", dom_id="c") == one


def test_summary_text_is_escaped():
    from roofline_site.calculators.fence import Placement
    from roofline_site.calculators.placement import resolve
    from roofline_site.calculators.render import AssetUrls, view_for

    resolved = resolve(Placement(calculator_id="kv-cache", defaults={}), path="x.md")
    urls = AssetUrls(embed="", glossary="../", share_embed="")
    view = view_for(resolved, dom_id='a"b', assets=urls)
    html = summary_html(resolved, view=view, dom_id='a"b', assets=urls, src='x"><script>', full_page="<p>")
    assert "<script>" not in html and "x&quot;&gt;&lt;script&gt;" in html and 'id="a&quot;b"' in html
