"""Markdown twins and llms.txt (roofline_site.glossary.twins), without MkDocs."""

from __future__ import annotations

import pytest
from markdown_it import MarkdownIt

from roofline_site.glossary import twins
from roofline_site.glossary.validator import load_glossary
from tests.roofline_site.glossary.helpers import entry_text, write_glossary
from tests.support.commonmark import tokens

BASE = "https://x.org/site/"


def _urls() -> twins.TwinUrls:
    def url_of(src_uri: str) -> str | None:
        if src_uri.startswith("glossary/") and src_uri.endswith(".md"):
            return src_uri[: -len(".md")] + "/"
        if src_uri == "calculators/roofline-explorer.md":
            return "calculators/roofline-explorer/"
        return None

    return twins.TwinUrls(site_url=BASE, url_of=url_of)


def _raw_html(markdown: str) -> list[str]:
    return [t.content for t in tokens(markdown) if t.type in ("html_block", "html_inline")]


def _glossary(tmp_path, body: str, **fields):
    write_glossary(
        tmp_path,
        {
            "alpha": entry_text(title="Alpha", aliases=["First one"], related=["beta"], body=body, **fields),
            "beta": entry_text(title="Beta", category="metrics", summary="Beta's summary."),
        },
    )
    return load_glossary(tmp_path)


BODY = """Alpha links [[beta]] and [[beta#part|a part of it]]; the ridge is {{ ridge_point accelerator=h100-sxm }}.

Try the [explorer](../calculators/roofline-explorer.md?accelerator=mi300x) and `{{ kept }}` in code.

```figure
kind: roofline
accelerators: h100-sxm
caption: A caption with <b>markup</b>.
```

```calculator
id: roofline-explorer
```
"""


def test_a_twin_is_the_entry_with_links_numbers_and_sources(tmp_path):
    glossary = _glossary(tmp_path, BODY)
    twin = twins.twin_markdown(glossary.entries["alpha"], glossary, _urls())
    assert twin.startswith("# Alpha\n\n> A term used only by the tests.\n")
    assert "Also called: First one." in twin
    assert f"[beta]({BASE}glossary/beta/)" in twin
    assert f"[a part of it]({BASE}glossary/beta/#part)" in twin
    assert "the ridge is 295 FLOP/byte." in twin
    assert f"[explorer]({BASE}calculators/roofline-explorer/?accelerator=mi300x)" in twin
    assert "`{{ kept }}`" in twin  # code shows the syntax, as on the page
    assert "*Figure on the page: A caption with &lt;b&gt;markup&lt;/b&gt;.*" in twin
    assert f"*Interactive calculator on the page: [Roofline explorer]({BASE}calculators/roofline-explorer/).*" in twin
    assert "## Related terms\n\n- [Beta](https://x.org/site/glossary/beta/): Beta's summary." in twin
    assert "## Sources\n\n- [A source](<https://example.org/source>)" in twin
    # Each number with its scenario, in words.
    assert (
        "- 295 FLOP/byte: Peak compute over bandwidth, in FLOP/byte. Accelerator: NVIDIA H100 SXM; precision: FP16."
        in twin
    )
    assert "kind: roofline" not in twin and "id: roofline-explorer" not in twin


def test_a_twin_parses_as_commonmark_with_no_build_syntax_or_html(tmp_path):
    glossary = _glossary(tmp_path, BODY)
    twin = twins.twin_markdown(glossary.entries["alpha"], glossary, _urls())
    texts = [t.content for t in tokens(twin) if t.type == "text"]
    assert not [t for t in texts if "{{" in t or "[[" in t]
    assert _raw_html(twin) == []


HOSTILE_BODIES = [
    "Text <img src=x onerror=alert(1)> more.\n",
    '<div markdown="1">\n\n<script>alert(1)</script>\n\n</div>\n',
    # A code span a simple scanner sees across the blank line, CommonMark does not.
    "`open\n\n<script>alert(1)</script>\n\n`\n",
    # A backtick fence whose info string holds a backtick is no fence to CommonMark.
    "```a`b\n<script>alert(1)</script>\n```\n",
    # An indented "closing" fence: CommonMark keeps the block open, nothing escapes it.
    "```\ncode\n    ```\n<iframe src=x>\n```\n",
    "\\<script>alert(1)</script>\n",
    # A fence in a list item ends with the item, at the first line without indentation.
    "- item\n  ```\n<script>alert(1)</script>\n  ```\n",
    "<!-- a comment --> and <?php x ?> and <![CDATA[ x ]]>\n",
]


@pytest.mark.parametrize("body", HOSTILE_BODIES)
def test_markup_in_a_body_reaches_the_twin_as_text(body):
    assert _raw_html(twins.no_raw_html(body)) == []


def test_a_fenced_block_keeps_its_angle_brackets():
    assert twins.no_raw_html("```\n<b>x</b>\n```\n<b>y</b>\n") == "```\n<b>x</b>\n```\n&lt;b>y&lt;/b>\n"


def test_front_matter_text_is_shown_literally():
    shown = twins.text("A [link](x) *em* <b>&amp; `c` #1\nnext")
    assert _raw_html(shown) == []
    rendered = MarkdownIt("commonmark").renderInline(shown)
    assert rendered == "A [link](x) *em* &lt;b&gt;&amp;amp; `c` #1 next"


def test_llms_txt_follows_the_convention():
    text = twins.llms_txt(
        title="Site",
        summary="What it is.",
        details="More.",
        sections=[("Terms", [twins.Link("Alpha", BASE + "glossary/alpha/", "First.")]), ("Empty", [])],
    )
    assert text.splitlines()[:7] == [
        "# Site",
        "",
        "> What it is.",
        "",
        "More.",
        "",
        "## Terms",
    ]
    assert f"- [Alpha]({BASE}glossary/alpha/): First." in text


def test_llms_full_txt_holds_every_twin(tmp_path):
    glossary = _glossary(tmp_path, "Alpha body.\n")
    urls = _urls()
    full = twins.llms_full_txt(
        title="Site", summary="S.", twins=[twins.twin_markdown(e, glossary, urls) for e in glossary.sorted_entries()]
    )
    assert full.count("\n---\n") == 2 and "# Alpha" in full and "# Beta" in full
    assert _raw_html(full) == []


def test_a_twin_sits_beside_its_page():
    assert twins.twin_path("glossary/kv-cache/") == "glossary/kv-cache/index.md"
    assert twins.twin_path("glossary/kv-cache.html") == "glossary/kv-cache.md"


def test_the_home_page_is_the_sites_address():
    assert _urls().absolute("./") == BASE and _urls().absolute("/hosting/") == BASE + "hosting/"
