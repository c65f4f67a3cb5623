"""A page's figures: prepared with file and line, then formatted by the superfences formatter."""

from __future__ import annotations

from pathlib import Path

import pytest

from roofline_site.figures import pages
from roofline_site.figures.cache import FigureCache
from roofline_site.figures.pages import FigureBuild, FigureFenceError, display_path
from roofline_site.figures.spec import FigureBlockError

FRONT_MATTER = "---\ntitle: Roofline\ncategory: runtime\n---\n"


@pytest.fixture
def build(tmp_path) -> FigureBuild:
    return FigureBuild(cache=FigureCache(directory=tmp_path / "cache"))


def test_prepare_then_format(build):
    markdown = "# Page\n\n```figure\nkind: kv-cache\ncontext: 1k, 4k\n```\n"
    assert build.prepare_page(markdown, path="docs/page.md", source=markdown) == 1
    html = build.format("kind: kv-cache\ncontext: 1k, 4k\n")
    assert html.startswith('<figure class="roofline-figure" id="roofline-figure-1" data-figure-kind="kv-cache">')
    assert build.format("  kind: kv-cache\n\n  context: 1k, 4k") .startswith('<figure class="roofline-figure" id="roofline-figure-2"')
    assert build.cache.drawn == 1


def test_lines_count_the_front_matter(build):
    # Lines 1-4 front matter, 5 blank, 6 text, 7 blank, 8 fence, 9 kind, 10 batch.
    source = FRONT_MATTER + "\nText.\n\n```figure\nkind: roofline\nbatch: one\n```\n"
    markdown = source[len(FRONT_MATTER):].lstrip("\n")  # what MkDocs hands the hook
    with pytest.raises(FigureBlockError) as caught:
        build.prepare_page(markdown, path="glossary/roofline.md", source=source)
    assert str(caught.value).startswith("glossary/roofline.md:10: batch: 'one' is not a whole number; expected ")


def test_lines_found_in_the_source_when_another_hook_rewrote_the_page(build):
    source = "Intro [[roofline]].\n\n```figure\nkind: intensity\nbatch: 0\n```\n"
    markdown = "Intro [roofline](../roofline/).\n\nInjected line.\n\n```figure\nkind: intensity\nbatch: 0\n```\n"
    with pytest.raises(FigureBlockError, match=r"^docs/a\.md:5: batch: '0' is out of range"):
        build.prepare_page(markdown, path="docs/a.md", source=source)


@pytest.mark.parametrize(
    ("markdown", "message"),
    [
        ("```figure roofline\nkind: roofline\n```\n", "docs/p.md:1: 'roofline' after ```figure; expected nothing after ```figure: parameters go inside the block, one 'key: value' per line"),
        ("Text\n\n```figure\nkind: roofline\n", "docs/p.md:3: figure block is never closed; expected a closing ``` fence"),
    ],
)
def test_fence_level_mistakes(build, markdown, message):
    with pytest.raises(FigureBlockError) as caught:
        build.prepare_page(markdown, path="docs/p.md", source=markdown)
    assert str(caught.value) == message


def test_a_fence_the_hook_did_not_prepare_fails_loudly(build):
    build.prepare_page("No figures here.\n", path="docs/p.md", source=None)
    with pytest.raises(FigureFenceError, match="hooks/figures.py"):
        build.format("kind: roofline\n")


def test_formatter_needs_a_build(monkeypatch):
    monkeypatch.setattr(pages, "_build", None)
    with pytest.raises(FigureFenceError, match="outside a site build"):
        pages.format_figure("kind: roofline", "figure", "roofline-figure", {}, None)


def test_display_path(tmp_path):
    root = tmp_path / "project"
    assert display_path(src_uri="figures.md", abs_src_path=str(root / "docs" / "figures.md"), project_root=root) == "docs/figures.md"
    assert display_path(src_uri="glossary/roofline.md", abs_src_path=None, project_root=root) == "glossary/roofline.md"


def test_cache_dir_default_and_override(tmp_path, monkeypatch):
    monkeypatch.delenv(pages.CACHE_DIR_ENV, raising=False)
    assert pages.cache_dir_for(tmp_path) == tmp_path / ".cache" / "figures"
    monkeypatch.setenv(pages.CACHE_DIR_ENV, str(tmp_path / "elsewhere"))
    assert pages.cache_dir_for(tmp_path) == Path(tmp_path / "elsewhere")


def _convert(markdown: str) -> str:
    import markdown as python_markdown

    return python_markdown.markdown(
        markdown,
        extensions=["admonition", "pymdownx.superfences"],
        extension_configs={
            "pymdownx.superfences": {"custom_fences": [{"name": "figure", "class": "roofline-figure", "format": pages.format_figure}]}
        },
    )


def test_check_page_passes_when_every_fence_became_a_figure(tmp_path, monkeypatch):
    build = pages.start_build(tmp_path / "cache")
    markdown = '```figure\nkind: kv-cache\n```\n\n!!! note\n\n    ```figure\n    kind: kv-cache\n    ```\n'
    build.prepare_page(markdown, path="docs/p.md", source=markdown)
    html = _convert(markdown)
    assert html.count('<figure class="roofline-figure"') == 2
    build.check_page(html, path="docs/p.md")


def test_check_page_names_a_fence_that_ended_up_as_code(tmp_path):
    build = pages.start_build(tmp_path / "cache")
    markdown = "Para.\n\n```figure\nkind: kv-cache\n```\n\nText.\n\n    ```figure\n    kind: kv-cache\n    ```\n"
    build.prepare_page(markdown, path="docs/p.md", source=markdown)
    with pytest.raises(FigureBlockError) as caught:
        build.check_page(_convert(markdown), path="docs/p.md")
    assert str(caught.value) == (
        "docs/p.md:9: figure block did not become a figure (indented into a code block?); "
        "expected the fence at the top level or in a list, admonition or content tab"
    )
