"""The figure fence kind: a page's figures prepared with file and line, then formatted."""

from __future__ import annotations

from pathlib import Path

import pytest

from roofline_site.fences import FenceBuild, FenceFormatError, LocatedError, start_build
from roofline_site.figures import pages
from roofline_site.figures.cache import FigureCache
from roofline_site.figures.pages import FigureFences
from roofline_site.figures.spec import FigureBlockError
from tests.roofline_site.fences.markdown_page import convert

FRONT_MATTER = "---\ntitle: Roofline\ncategory: serving\n---\n"


@pytest.fixture
def build(tmp_path) -> FenceBuild:
    return start_build([FigureFences(cache=FigureCache(directory=tmp_path / "cache"))])


def test_prepare_then_format(build):
    # The same figure twice: at the top level, and in a list item with a blank line inside.
    markdown = "# Page\n\n```figure\nkind: kv-cache\ncontext: 1k, 4k\n```\n\n- Item\n\n    ```figure\n    kind: kv-cache\n\n    context: 1k, 4k\n    ```\n"
    assert build.prepare_page(markdown, path="docs/page.md", source=markdown) == 2
    html = build.format("figure", "kind: kv-cache\ncontext: 1k, 4k\n")
    assert html.startswith('<figure class="roofline-figure" id="roofline-figure-1" data-figure-kind="kv-cache">')
    assert build.format("figure", "  kind: kv-cache\n\n  context: 1k, 4k").startswith(
        '<figure class="roofline-figure" id="roofline-figure-2"'
    )
    assert build.kinds["figure"].cache.drawn == 1
    # Each prepared fence is formatted once; a third copy was never prepared.
    with pytest.raises(FenceFormatError, match="docs/page.md: a figure fence was not prepared"):
        build.format("figure", "kind: kv-cache\ncontext: 1k, 4k\n")


def test_lines_count_the_front_matter(build):
    # Lines 1-4 front matter, 5 blank, 6 text, 7 blank, 8 fence, 9 kind, 10 batch.
    source = FRONT_MATTER + "\nText.\n\n```figure\nkind: roofline\nbatch: one\n```\n"
    markdown = source[len(FRONT_MATTER) :].lstrip("\n")  # what MkDocs hands the hook
    with pytest.raises(FigureBlockError) as caught:
        build.prepare_page(markdown, path="glossary/roofline.md", source=source)
    assert str(caught.value).startswith("glossary/roofline.md:10: batch: 'one' is not a number; expected ")


def test_lines_found_in_the_source_when_another_hook_rewrote_the_page(build):
    source = "Intro [[roofline]].\n\n```figure\nkind: intensity\nbatch: 0\n```\n"
    markdown = "Intro [roofline](../roofline/).\n\nInjected line.\n\n```figure\nkind: intensity\nbatch: 0\n```\n"
    with pytest.raises(FigureBlockError, match=r"^docs/a\.md:5: batch: '0' is out of range"):
        build.prepare_page(markdown, path="docs/a.md", source=source)


@pytest.mark.parametrize(
    ("markdown", "message"),
    [
        (
            "```figure roofline\nkind: roofline\n```\n",
            "docs/p.md:1: 'roofline' after ```figure; expected nothing after ```figure: parameters go inside the block, one 'key: value' per line",
        ),
        (
            "Text\n\n```figure\nkind: roofline\n",
            "docs/p.md:3: figure block is never closed; expected a closing ``` fence, indented like the opening one",
        ),
    ],
)
def test_fence_level_mistakes(build, markdown, message):
    with pytest.raises(LocatedError) as caught:
        build.prepare_page(markdown, path="docs/p.md", source=markdown)
    assert str(caught.value) == message


def test_every_block_is_validated_before_anything_is_drawn(build):
    markdown = "```figure\nkind: kv-cache\n```\n\n```figure\nkind: roofline\nbatch: 0\n```\n"
    with pytest.raises(FigureBlockError, match=r"^docs/p\.md:7: batch: '0' is out of range"):
        build.prepare_page(markdown, path="docs/p.md")
    assert build.kinds["figure"].cache.drawn == 0


def test_report_counts_drawings_and_cache_hits(build):
    markdown = "```figure\nkind: kv-cache\n```\n"
    build.prepare_page(markdown, path="docs/p.md")
    build.prepare_page(markdown, path="docs/q.md")
    assert build.reports() == [f"figures: 1 drawn, 1 from the cache in {build.kinds['figure'].cache.directory}"]


def test_cache_dir_default_and_override(tmp_path, monkeypatch):
    monkeypatch.delenv(pages.CACHE_DIR_ENV, raising=False)
    assert pages.cache_dir_for(tmp_path) == tmp_path / ".cache" / "figures"
    monkeypatch.setenv(pages.CACHE_DIR_ENV, str(tmp_path / "elsewhere"))
    assert pages.cache_dir_for(tmp_path) == Path(tmp_path / "elsewhere")


def test_check_page_passes_when_every_fence_became_a_figure(build):
    markdown = "```figure\nkind: kv-cache\n```\n\n!!! note\n\n    ```figure\n    kind: kv-cache\n    ```\n\n> ```figure\n> kind: kv-cache\n> ```\n"
    build.prepare_page(markdown, path="docs/p.md", source=markdown)
    html = convert(markdown)
    assert html.count('<figure class="roofline-figure"') == 3
    assert build.finish_page(html, path="docs/p.md") == html


def test_check_page_names_a_fence_that_ended_up_as_code(build):
    markdown = "Para.\n\n```figure\nkind: kv-cache\n```\n\nText.\n\n    ```figure\n    kind: kv-cache\n    ```\n"
    build.prepare_page(markdown, path="docs/p.md", source=markdown)
    with pytest.raises(LocatedError) as caught:
        build.finish_page(convert(markdown), path="docs/p.md")
    assert str(caught.value) == (
        "docs/p.md:9: figure block did not become a figure (indented into a code block?); "
        "expected the fence at the top level or in a list, block quote, admonition or content tab"
    )


def test_figure_block_errors_are_located_errors():
    error = FigureBlockError("docs/p.md", 3, "what is wrong", "what is right")
    assert isinstance(error, LocatedError) and str(error) == "docs/p.md:3: what is wrong; expected what is right"
