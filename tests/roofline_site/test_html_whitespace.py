"""The layout trim drops the templates' blank lines and changes nothing a reader sees."""

from __future__ import annotations

import re
from html.parser import HTMLParser

from hypothesis import given
from hypothesis import strategies as st

from roofline_site.html_whitespace import collapse_layout_whitespace

_VERBATIM = {"pre", "textarea", "code", "script", "style"}


class _Rendered(HTMLParser):
    """Tags, attributes and text as a browser lays them out: white space collapsed to one
    space outside verbatim elements, kept as written inside them."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.items: list[tuple] = []
        self._verbatim = 0

    def handle_starttag(self, tag, attrs):
        self.items.append(("start", tag, tuple(attrs)))
        self._verbatim += tag in _VERBATIM

    def handle_endtag(self, tag):
        self.items.append(("end", tag))
        self._verbatim -= tag in _VERBATIM

    def handle_data(self, data):
        text = data if self._verbatim else re.sub(r"\s+", " ", data)
        if self.items and self.items[-1][0] == "text":
            self.items[-1] = ("text", self.items[-1][1] + text)
        else:
            self.items.append(("text", text))


def _rendered(html: str) -> list[tuple]:
    parser = _Rendered()
    parser.feed(html)
    parser.close()
    return parser.items


def test_blank_indented_lines_between_tags_become_one_line_break():
    html = '<nav class="x">\n    \n      <ul>\n\n        <li><a href="/">Home</a></li>\n      </ul>\n</nav>'
    assert collapse_layout_whitespace(html) == '<nav class="x">\n<ul>\n<li><a href="/">Home</a></li>\n</ul>\n</nav>'


def test_verbatim_elements_and_attribute_values_are_untouched():
    html = (
        '<div data-code="a\n    b">\n\n  <PRE>\n   x\n\n  </PRE>\n\n  <textarea>\n  keep\n</textarea>\n  '
        "<script>\n  let a = 1;\n\n</script>\n  <p><code>a\n\n   b</code> text</p>\n</div>"
    )
    out = collapse_layout_whitespace(html)
    for kept in ('data-code="a\n    b"', "<PRE>\n   x\n\n  </PRE>", "<textarea>\n  keep\n</textarea>"):
        assert kept in out
    assert "<script>\n  let a = 1;\n\n</script>" in out and "<code>a\n\n   b</code>" in out
    assert "\n\n  <" not in out.replace("<PRE>\n   x\n\n  </PRE>", "")


def test_indentation_inside_text_becomes_one_line_break():
    html = '<span class="md-ellipsis">\n      Home page\n    </span> <a title="a\n  b">x\n\n  y</a>'
    out = collapse_layout_whitespace(html)
    assert out == '<span class="md-ellipsis">\nHome page\n</span> <a title="a\n  b">x\ny</a>'


def test_gaps_within_a_line_are_kept():
    # A space between two inline elements is a space the reader sees.
    assert collapse_layout_whitespace("<b>a</b> <i>b</i>") == "<b>a</b> <i>b</i>"


_gaps = st.sampled_from(["", " ", "\n", "\n\n    ", "  \n\t "])
_words = st.sampled_from(["x", "y z", " a ", "b\n  c"])
# Well-formed HTML as the templates and the Markdown renderer write it: verbatim elements hold
# text (with any white space), the others hold elements, text and layout gaps.
_verbatim = st.builds(
    lambda tag, text: f"<{tag}>{text}</{tag}>",
    st.sampled_from(sorted(_VERBATIM - {"script", "style"})),
    st.lists(st.one_of(_gaps, _words), max_size=4).map("".join),
)
_html = st.recursive(
    st.one_of(_gaps, _words, _verbatim, st.just("<br>")),
    lambda children: st.builds(
        lambda tag, inner: f"<{tag}>{''.join(inner)}</{tag}>",
        st.sampled_from(["p", "div", "b", "li", "a"]),
        st.lists(children, max_size=5),
    ),
    max_leaves=20,
)


@given(st.lists(_html, max_size=6).map("".join))
def test_what_is_laid_out_is_the_same(html):
    assert _rendered(collapse_layout_whitespace(html)) == _rendered(html)


def test_built_term_page_is_trimmed(built_site):
    html = (built_site / "glossary" / "kv-cache" / "index.html").read_text(encoding="utf-8")
    assert collapse_layout_whitespace(html) == html
    # The templates indent every line; none of that indentation is left between tags.
    outside_verbatim = re.sub(r"<(pre|textarea|code|script|style)\b.*?</\1>", "<kept/>", html, flags=re.DOTALL)
    assert re.search(r">\s*\n\s+<|>\s+\n\s*<", outside_verbatim) is None
