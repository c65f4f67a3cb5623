"""The fence build: prepare, format, then check every fence rendered and none shipped as code."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from html import escape

import pytest

from roofline_site.fences import (
    Fence,
    FenceFormatError,
    LocatedError,
    PageContext,
    Prepared,
    format_fence,
    inserted_html,
    require_custom_fences,
    start_build,
)
from roofline_site.fences import build as build_module
from tests.roofline_site.fences.markdown_page import convert


@dataclass
class Echo:
    """A fence kind for tests: ``say: <text>`` becomes a paragraph (or is held back)."""

    language: str = "echo"
    deferred: bool = False
    body_keys: tuple[str, ...] = ("say",)
    seen: list[tuple[str, Fence]] = field(default_factory=list)

    def prepare(self, fences: Sequence[Fence], page: PageContext) -> list[Prepared]:
        prepared = []
        for number, fence in enumerate(fences, start=1):
            self.seen.append((page.path, fence))
            said = fence.key.partition(":")[2].strip()
            html = f'<p id="{self.language}-{number}">{escape(said)} ({page.url_to("assets/x")})</p>'
            marker = (
                f'<div data-{self.language}="{number}"></div>' if self.deferred else f'id="{self.language}-{number}"'
            )
            prepared.append(Prepared(html=html, marker=marker, deferred=self.deferred))
        return prepared

    def report(self) -> str:
        return f"{self.language}: {len(self.seen)} fences"


def _page(build, markdown: str, *, languages=("echo",), path="docs/p.md") -> str:
    build.prepare_page(markdown, path=path, source=markdown, url_to=lambda site_path: "../" + site_path)
    return build.finish_page(convert(markdown, languages), path=path)


def test_each_kind_gets_its_own_fences_with_the_authors_lines():
    echo, held = Echo(), Echo(language="held", deferred=True)
    build = start_build([echo, held])
    source = "---\ntitle: P\n---\n```echo\nsay: one\n```\n\n> ```held\n> say: two\n> ```\n"
    markdown = source.split("---\n", 2)[2]
    assert build.prepare_page(markdown, path="docs/p.md", source=source) == 2
    assert [(path, f.line, f.body) for path, f in echo.seen] == [("docs/p.md", 4, ((5, "say: one"),))]
    assert [(path, f.line, f.body) for path, f in held.seen] == [("docs/p.md", 8, ((9, "say: two"),))]
    assert build.reports() == ["echo: 1 fences", "held: 1 fences"]


def test_direct_html_is_formatted_in_place_and_deferred_html_filled_after():
    build = start_build([Echo(), Echo(language="held", deferred=True)])
    html = _page(
        build,
        "```echo\nsay: a & b\n```\n\n- item\n\n    ```held\n    say: later\n    ```\n",
        languages=("echo", "held"),
    )
    assert '<p id="echo-1">a &amp; b (../assets/x)</p>' in html
    assert '<li>\n<p>item</p>\n<p id="held-1">later (../assets/x)</p>\n</li>' in html
    assert "data-held" not in html
    assert build.inserted_html() == inserted_html() == ['<p id="echo-1">a &amp; b (../assets/x)</p>']


@pytest.mark.parametrize("language", ["figure", "calculator"])
@pytest.mark.parametrize(
    ("markdown", "message"),
    [
        (
            "```{language} extra\nkey: value\n```\n",
            "docs/p.md:1: 'extra' after ```{language}; expected nothing after ```{language}: parameters go inside the block, one 'key: value' per line",
        ),
        (
            "Text\n\n~~~{language}\nkey: value\n",
            "docs/p.md:3: {language} block is never closed; expected a closing ~~~ fence, indented like the opening one",
        ),
        (
            "- Item\n\n    ```{language}\n    key: value\n```\n",
            "docs/p.md:3: {language} block is never closed; expected a closing ``` fence, indented like the opening one",
        ),
    ],
)
def test_fence_level_mistakes_are_the_same_for_every_kind(language, markdown, message):
    build = start_build([Echo(language=language)])
    with pytest.raises(LocatedError) as caught:
        build.prepare_page(markdown.format(language=language), path="docs/p.md")
    assert str(caught.value) == message.format(language=language)


def test_a_fence_markdown_turned_into_code_is_reported_at_its_line():
    build = start_build([Echo(deferred=True)])
    with pytest.raises(LocatedError) as caught:
        _page(build, "Text.\n\n```echo\nsay: fine\n```\n\nText.\n\n    ```echo\n    say: code\n    ```\n")
    assert str(caught.value) == (
        "docs/p.md:9: echo block did not become a echo (indented into a code block?); "
        "expected the fence at the top level or in a list, block quote, admonition or content tab"
    )


def test_a_forged_marker_is_refused():
    build = start_build([Echo(deferred=True)])
    with pytest.raises(LocatedError, match=r"^docs/p\.md:1: the page holds 2 copies of this echo's marker"):
        _page(build, '```echo\nsay: x\n```\n\n<div data-echo="1"></div>\n')


@pytest.mark.parametrize(
    "html",
    [
        '<pre><code class="language-calculator">id: kv-cache\n</code></pre>',  # custom fence missing
        '<div class="highlight"><pre><span></span><code>id: kv-cache\ndefaults: batch=2\n</code></pre></div>',  # a highlighter's view of it
        "<p><code>calculator\nid: kv-cache\n</code></p>",  # an unrendered fence read as inline code
        '<p><code class="language-figure">kind: roofline</code></p>',
    ],
)
def test_a_fence_shown_as_code_fails_the_page(html):
    build = start_build(
        [Echo(language="figure", body_keys=("kind",)), Echo(language="calculator", body_keys=("id", "defaults"))]
    )
    build.prepare_page("No fences.\n", path="docs/p.md")
    with pytest.raises(
        LocatedError,
        match=r"^docs/p\.md: a (calculator|figure) fence reached the page as code \('(calculator / )?(id|kind): ",
    ):
        build.finish_page(html, path="docs/p.md")


@pytest.mark.parametrize(
    "html",
    [
        '<pre><code class="language-markdown">```calculator\nid: kv-cache\n```\n</code></pre>',  # an example
        '<pre><code class="language-yaml">id: kv-cache\n</code></pre>',  # another language
        "<p>Write <code>id: kv-cache</code> in the fence.</p>",  # inline code about a key
        "<pre><code>name: x\n</code></pre>",
    ],
)
def test_examples_and_other_code_are_left_alone(html):
    build = start_build(
        [Echo(language="figure", body_keys=("kind",)), Echo(language="calculator", body_keys=("id", "defaults"))]
    )
    build.prepare_page("No fences.\n", path="docs/p.md")
    assert build.finish_page(html, path="docs/p.md") == html


def test_a_fence_nobody_prepared_fails_loudly_naming_the_page():
    build = start_build([Echo()])
    build.prepare_page("No fences here.\n", path="docs/p.md")
    with pytest.raises(FenceFormatError, match=r"^docs/p\.md: a echo fence was not prepared .*hooks/fences\.py"):
        format_fence("say: x\n", "echo", "roofline-echo", {}, None)


def test_the_formatter_needs_a_build(monkeypatch):
    monkeypatch.setattr(build_module, "_build", None)
    assert inserted_html() == []
    with pytest.raises(FenceFormatError, match="outside a site build"):
        format_fence("kind: roofline", "figure", "roofline-figure", {}, None)


def test_every_language_needs_its_custom_fence():
    configured = {
        "pymdownx.superfences": {
            "custom_fences": [{"name": "figure", "class": "roofline-figure", "format": format_fence}]
        }
    }
    require_custom_fences(configured, ["figure"], config_path="mkdocs.yml")
    with pytest.raises(LocatedError) as caught:
        require_custom_fences(configured, ["figure", "calculator"], config_path="mkdocs.yml")
    assert str(caught.value) == (
        "mkdocs.yml: pymdownx.superfences has no 'calculator' custom fence; expected under markdown_extensions: "
        "'- pymdownx.superfences: custom_fences: [{name: calculator, class: roofline-calculator, "
        "format: !!python/name:roofline_site.fences.format_fence}]'"
    )
