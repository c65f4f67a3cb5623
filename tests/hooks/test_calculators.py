"""Calculators in a real MkDocs build: placed by hooks/fences.py, embed pages from
hooks/calculators.py, loud errors."""

from __future__ import annotations

import re
import textwrap
from html import unescape
from pathlib import Path

import pytest

from roofline_core.calculators import CALCULATORS, compute
from tests.support.site_build import PROJECT_ROOT, mkdocs_build


def _fixture_project(tmp_path: Path, pages: dict[str, str]) -> Path:
    """A minimal MkDocs project using the real hooks, with ``pages`` in its docs/."""
    docs = tmp_path / "docs"
    docs.mkdir()
    for name, text in pages.items():
        (docs / name).write_text(textwrap.dedent(text), encoding="utf-8")
    config = tmp_path / "mkdocs.yml"
    config.write_text(
        textwrap.dedent(
            f"""\
            site_name: Fixture
            theme:
              name: material
              font: false
              custom_dir: {PROJECT_ROOT / "site_assets" / "overrides"}
            hooks:
              - {PROJECT_ROOT / "hooks" / "pyodide_assets.py"}
              - {PROJECT_ROOT / "hooks" / "fences.py"}
              - {PROJECT_ROOT / "hooks" / "calculators.py"}
            markdown_extensions:
              - pymdownx.superfences:
                  custom_fences:
                    - name: figure
                      class: roofline-figure
                      format: !!python/name:roofline_site.fences.format_fence
                    - name: calculator
                      class: roofline-calculator
                      format: !!python/name:roofline_site.fences.format_fence
            """
        ),
        encoding="utf-8",
    )
    return config


@pytest.mark.slow
@pytest.mark.parametrize(
    ("page", "expected"),
    [
        (
            """\
            ---
            title: Bad
            ---
            # Bad

            ```calculator
            id: decode-speed-of-lite
            ```
            """,
            "docs/bad.md:6: unknown calculator 'decode-speed-of-lite'; expected one of ",
        ),
        (
            """\
            # Bad

            ```calculator
            id: kv-cache
            defaults: batch=0
            ```
            """,
            "docs/bad.md:5: calculator 'kv-cache' rejects its defaults (batch: ",
        ),
    ],
)
def test_bad_fence_fails_the_build_with_file_and_line(tmp_path, page, expected):
    config = _fixture_project(tmp_path, {"index.md": "# Home\n", "bad.md": page})
    result = mkdocs_build(config, tmp_path / "site")
    output = result.stdout + result.stderr
    assert result.returncode != 0
    assert expected in output, output
    assert "Traceback" not in output


@pytest.mark.slow
def test_calculator_pages_prerender_roofline_core_results(built_site):
    html = (built_site / "calculators" / "decode-speed-of-light" / "index.html").read_text(encoding="utf-8")
    expected = compute("decode-speed-of-light", {})["outputs"]
    for output_id, shown in expected.items():
        # The page escapes its text as HTML does (an apostrophe may be &#x27;): compare it unescaped.
        assert unescape(re.search(rf'data-output="{output_id}">([^<]*)<', html).group(1)) == shown["text"]
    assert 'src="../../assets/roofline/calculators/loader.mjs"' in html
    # The build's token, the one its runtime manifest gives the browser; no runtime address.
    manifest = (built_site / "assets" / "roofline" / "calculators" / "runtime.mjs").read_text(encoding="utf-8")
    token = re.search(r'data-build-token="([0-9a-f]{32})"', html).group(1)
    assert f'"buildToken": "{token}"' in manifest
    assert "data-pyodide-index-url" not in html and "data-core-zip-url" not in html


@pytest.mark.slow
@pytest.mark.parametrize("calculator_id", sorted(CALCULATORS))
def test_each_calculator_has_a_page_and_an_embed_page(built_site, calculator_id):
    page = (built_site / "calculators" / calculator_id / "index.html").read_text(encoding="utf-8")
    assert page.count(f'data-calculator="{calculator_id}"') == 1
    embed = (built_site / "embed" / calculator_id / "index.html").read_text(encoding="utf-8")
    assert f'data-calculator="{calculator_id}"' in embed
    assert 'name="robots" content="noindex"' in embed
    # Minimal chrome: no navigation, search, tabs or footer ...
    assert 'data-md-type="navigation"' not in embed and "md-footer" not in embed and "md-tabs" not in embed
    assert 'data-md-component="search"' not in embed and 'class="md-search"' not in embed
    # ... but a compact header: Material's bundle requires the header component, and its palette
    # form applies the reader's prefers-color-scheme.
    assert embed.count('data-md-component="header"') == 1 and 'data-md-component="palette"' in embed
    assert 'data-md-color-media="(prefers-color-scheme: dark)"' in embed
    assert f'href="../../calculators/{calculator_id}/"' in embed


@pytest.mark.slow
def test_pages_without_calculators_reference_no_pyodide(built_site):
    # The home page leads with a calculator now; "Vendor vocabulary" is a page without one.
    page = (built_site / "vendor-vocabulary" / "index.html").read_text(encoding="utf-8")
    assert "pyodide" not in page.lower() and "data-calculator" not in page


def test_nothing_generated_into_docs():
    # Embed pages, the Pyodide runtime and the zip are virtual files: docs/ holds only pages.
    assert [p for p in (PROJECT_ROOT / "docs").rglob("*") if p.is_file() and p.suffix != ".md"] == []
    assert not (PROJECT_ROOT / "docs" / "embed").exists()
