"""The calculator fence kind: each fence rendered once, its HTML put in the page exactly."""

from __future__ import annotations

import json

import pytest

from roofline_site.calculators.assets import PyodideSiteAssets
from roofline_site.calculators.embed import embed_page_markdown
from roofline_site.calculators.fence import FenceError, Placement
from roofline_site.calculators.page import CalculatorFences
from roofline_site.calculators.placement import resolve
from roofline_site.calculators.render import AssetUrls, csv_files, render_calculator, view_for
from roofline_site.calculators.runtime_manifest import stamp
from roofline_site.fences import start_build
from roofline_site.wheel import install_comment
from tests.roofline_site.fences.markdown_page import convert

ASSETS = PyodideSiteAssets(
    version="1.0",
    runtime_dir="assets/pyodide/1.0/",
    runtime_files={},
    core_zip="assets/pyodide/rc.abc.zip",
    core_zip_bytes=b"",
    stdlib_zip="assets/pyodide/1.0/python_stdlib.def.zip",
    stdlib_zip_bytes=b"",
    build_token="0123456789abcdef0123456789abcdef",
)


def _url_to(site_path: str) -> str:
    return "../../" + site_path


def _expected_html(calculator_id: str, dom_id: str, **defaults: str) -> str:
    resolved = resolve(Placement(calculator_id=calculator_id, defaults=defaults), path="x.md")
    urls = AssetUrls(
        embed=f"../../embed/{calculator_id}/",
        glossary="../../glossary/",
        share_embed=f"embed/{calculator_id}/",  # prepare_page's default link_to keeps site paths
        # "Copy as Python"'s first line: a build without hooks/wheel.py names the relative address.
        install=install_comment(None),
    )
    # Its table's and chart's CSV files, linked from the page (roofline_site/downloads.py).
    view = view_for(resolved, dom_id=dom_id, assets=urls)
    downloads = {kind: _url_to(path) for kind, (path, _data) in csv_files(calculator_id, view).items()}
    return stamp(render_calculator(resolved, dom_id=dom_id, assets=urls, downloads=downloads), ASSETS.build_token)


PAGE = """\
# Title

Before.

```calculator
id: kv-cache
```

> ```calculator
> id: kv-cache
> defaults: batch=4
> ```

- Item.

    ```calculator
    id: roofline-explorer
    ```

After.
"""


def test_calculators_are_placed_exactly_where_their_fences_were():
    build = start_build([CalculatorFences(assets=lambda: ASSETS)])
    assert build.prepare_page(PAGE, path="docs/p.md", source=PAGE, url_to=_url_to) == 3
    html = build.finish_page(convert(PAGE, ["calculator"]), path="docs/p.md")
    first = _expected_html("kv-cache", "calculator-kv-cache")
    quoted = _expected_html("kv-cache", "calculator-kv-cache-2", batch="4")
    listed = _expected_html("roofline-explorer", "calculator-roofline-explorer")
    # Byte for byte what render_calculator made: Markdown never saw it.
    assert html.index("<p>Before.</p>") < html.index(first) < html.index("<blockquote>") < html.index(quoted)
    # The list's item is the first after the block quote (a calculator's scenario line is a list too).
    item = html.index("<li>", html.index("</blockquote>"))
    assert html.index(quoted) < html.index("</blockquote>") < item < html.index(listed) < html.index("<p>After.</p>")
    assert "roofline-calculator-slot" not in html and "id: " not in html


def test_a_calculator_fence_without_pyodide_assets_fails_at_its_line():
    def missing() -> PyodideSiteAssets:
        raise LookupError("none")

    build = start_build([CalculatorFences(assets=missing)])
    with pytest.raises(FenceError) as caught:
        build.prepare_page("Text.\n\n```calculator\nid: kv-cache\n```\n", path="docs/p.md")
    assert str(caught.value) == (
        "docs/p.md:3: a calculator needs the self-hosted Pyodide, which no hook prepared; "
        "expected hooks/pyodide_assets.py in the hooks of mkdocs.yml"
    )


def test_a_bad_fence_stops_before_anything_is_placed():
    build = start_build([CalculatorFences(assets=lambda: ASSETS)])
    page = "```calculator\nid: kv-cache\n```\n\n```calculator\nid: kv-cach\n```\n"
    with pytest.raises(FenceError, match=r"^docs/p\.md:5: unknown calculator 'kv-cach'; expected one of "):
        build.prepare_page(page, path="docs/p.md", source=page)


def test_embed_pages_use_the_same_fence():
    markdown = embed_page_markdown("kv-cache").split("---\n", 2)[2]
    build = start_build([CalculatorFences(assets=lambda: ASSETS)])
    assert build.prepare_page(markdown, path="embed/kv-cache.md", url_to=_url_to) == 1
    html = build.finish_page(convert(markdown, ["calculator"]), path="embed/kv-cache.md")
    assert _expected_html("kv-cache", "calculator-kv-cache") in html


def _published(site_path: str) -> str:
    return "https://example.org/docs/" + site_path


def _share_attributes(html: str) -> tuple[str, str]:
    import re

    found = re.search(r'data-share-url="([^"]*)" data-embed-src="([^"]*)"', html)
    assert found, "no share addresses"
    return found.group(1), found.group(2)


def test_copied_addresses_are_absolute_and_an_embed_page_shares_its_full_page():
    fences = CalculatorFences(assets=lambda: ASSETS)
    build = start_build([fences])
    page = "```calculator\nid: kv-cache\n```\n"
    build.prepare_page(page, path="glossary/kv-cache.md", page_path="glossary/kv-cache/", link_to=_published)
    build.finish_page(convert(page, ["calculator"]), path="glossary/kv-cache.md")
    # A term page's calculator is its own file (roofline_site/calculators/later.py).
    (html,) = [json.loads(data)["html"] for path, data in fences.site_files().items() if path.endswith(".json")]
    assert _share_attributes(html) == (
        "https://example.org/docs/glossary/kv-cache/",
        "https://example.org/docs/embed/kv-cache/",
    )

    markdown = embed_page_markdown("kv-cache").split("---\n", 2)[2]
    build.prepare_page(markdown, path="embed/kv-cache.md", page_path="embed/kv-cache/", link_to=_published)
    html = build.finish_page(convert(markdown, ["calculator"]), path="embed/kv-cache.md")
    assert _share_attributes(html)[0] == "https://example.org/docs/calculators/kv-cache/"


def test_the_embed_code_is_escaped_and_documented_as_copied():
    from pathlib import Path

    from roofline_site.calculators.embed import RESIZE_SCRIPT, embed_code

    code = embed_code('https://example.org/embed/kv-cache/?a=1&b="2"', "KV <cache>")
    assert code.startswith(
        '<iframe src="https://example.org/embed/kv-cache/?a=1&amp;b=&quot;2&quot;" title="KV &lt;cache&gt;"'
    )
    assert code.endswith(RESIZE_SCRIPT + "\n")
    # One copy of the script: the page that documents embedding shows the one the button copies.
    docs = (Path(__file__).resolve().parents[3] / "docs" / "calculators" / "embedding.md").read_text(encoding="utf-8")
    assert RESIZE_SCRIPT in docs
