"""The allowlist sanitiser of rendered entry bodies: what it keeps, what it drops, and a
property test over bodies generated from an HTML/Markdown grammar."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import markdown
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from roofline_site.glossary.sanitize import (
    ALIGN_VALUES,
    ALLOWED_ATTRIBUTES,
    ALLOWED_CLASSES,
    ALLOWED_TAGS,
    URL_SCHEMES,
    SanitiseError,
    sanitise_entry_html,
)

# The site's Markdown extensions (mkdocs.yml), so bodies render as on the site.
EXTENSIONS = ["admonition", "attr_list", "md_in_html", "tables", "toc", "pymdownx.details", "pymdownx.superfences"]


class _Elements(HTMLParser):
    """Every start tag with its attributes, as a browser-like tokeniser reads them."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[str, list[tuple[str, str | None]]]] = []

    def handle_starttag(self, tag, attrs):
        self.found.append((tag, attrs))

    handle_startendtag = handle_starttag


def _elements(html: str):
    parser = _Elements()
    parser.feed(html)
    parser.close()
    return parser.found


def _outside_allowlist(html: str) -> list[str]:
    """Elements and attributes of ``html`` the allowlist does not permit."""
    bad = []
    for tag, attrs in _elements(html):
        if tag not in ALLOWED_TAGS:
            bad.append(f"<{tag}>")
        for name, value in attrs:
            allowed = ALLOWED_ATTRIBUTES["*"] | ALLOWED_ATTRIBUTES.get(tag, set()) | set(ALIGN_VALUES.get(tag, {}))
            if name not in allowed:
                bad.append(f"<{tag} {name}>")
            elif name == "class" and not all(
                c in ALLOWED_CLASSES or c.startswith("language-") for c in (value or "").split()
            ):
                bad.append(f"<{tag} class={value!r}>")
            elif name == "href" and _scheme(value or "") not in (None, *URL_SCHEMES):
                bad.append(f"<{tag} href={value!r}>")
            elif name == "src" and (_scheme(value or "") is not None or (value or "").lstrip().startswith("//")):
                bad.append(f"<{tag} src={value!r}>")
    return bad


def _scheme(url: str) -> str | None:
    """The scheme a browser reads in ``url``, as the URL Standard parses it: leading and trailing
    C0 controls and spaces stripped, tabs and newlines removed anywhere, then letters, digits,
    "+", "-" and "." before the first ":" (starting with a letter). Anything else is a relative
    URL (``'><img>[a](javascript:x)`` has no scheme: its first character is not a letter)."""
    cleaned = re.sub(r"[\t\n\r]", "", url.strip("".join(map(chr, range(0x21)))))
    found = re.match(r"([A-Za-z][A-Za-z0-9+.-]*):", cleaned)
    return found.group(1).lower() if found else None


@pytest.mark.parametrize(
    ("dirty", "clean"),
    [
        ('<p onmouseover="alert(1)" title="}">x</p>', '<p title="}">x</p>'),
        ("<img src=x onerror=alert(1)>", '<img src="x">'),
        ('<img src="https://example.com/p.png" alt="p">', '<img alt="p">'),
        ('<img src="//example.com/p.png">', "<img>"),
        ('<a href="javascript\n:alert(1)">x</a>', "<a>x</a>"),
        ('<a href="https://example.org/">x</a>', '<a href="https://example.org/">x</a>'),
        ('<a href="../kv-cache/#sizing">x</a>', '<a href="../kv-cache/#sizing">x</a>'),
        ("<svg><a><set attributeName=href to=javascript:alert(1) /><text>t</text></a></svg>after", "after"),
        ("<math><mtext>m</mtext></math>after", "after"),
        ("<script>alert(1)</script>after", "after"),
        ("<style>p{}</style><textarea>t</textarea><noscript>n</noscript>after", "after"),
        ('<span style="background:u\\72l(https://example.com/x.png)">x</span>', "<span>x</span>"),
        (
            '<h2 id="__config">h</h2><h2 id="sources">s</h2><h2 id="why-it-matters">w</h2>',
            '<h2>h</h2><h2>s</h2><h2 id="why-it-matters">w</h2>',
        ),
        ('<p class="md-header admonition note">x</p>', '<p class="admonition note">x</p>'),
        (
            '<div class="highlight"><pre><span></span><code><span class="n">x</span></code></pre></div>',
            '<div class="highlight"><pre><span></span><code><span class="n">x</span></code></pre></div>',
        ),
        (
            '<div class="roofline-calculator-slot" data-slot="0"></div>',
            '<div class="roofline-calculator-slot" data-slot="0"></div>',
        ),
        ('<p class="roofline-calculator-slot" data-slot="0">x</p>', "<p>x</p>"),
        ('<td align="center" style="text-align: center;">1</td>', "1"),
        (
            "<table><tr><td align=center>1</td><td align=evil>2</td></tr></table>",
            '<table><tbody><tr><td align="center">1</td><td>2</td></tr></tbody></table>',
        ),
        ("<!-- --!> <img src=x onerror=alert(1)> -->", ' <img src="x"> --&gt;'),
        ("<div><div>unclosed", "<div><div>unclosed</div></div>"),
        ('<meta http-equiv="refresh" content="0;url=https://example.com"><base href="https://example.com/">x', "x"),
        ('<a href="x" data-glossary-term="kv-cache" data-glossary-role="related">x</a>', '<a href="x">x</a>'),
    ],
)
def test_sanitiser_keeps_the_allowlist_only(dirty, clean):
    assert sanitise_entry_html(dirty) == clean


def test_trusted_fragments_come_back_exactly():
    figure = '<figure class="roofline-figure" id="roofline-figure-1"><svg viewBox="0 0 1 1"><path d="M0 0" class="rf-fill-fg"/></svg></figure>'
    html = f"<p>before</p>\n{figure}\n<p onclick=x>after</p><svg><path/></svg>"
    assert sanitise_entry_html(html, trusted=[figure]) == f"<p>before</p>\n{figure}\n<p>after</p>"


def test_a_trusted_fragment_moved_into_an_attribute_is_an_error():
    figure = '<figure class="roofline-figure" id="roofline-figure-1"><svg></svg></figure>'
    # A body that quotes the figure's exact HTML inside an attribute, before the real one: the
    # first copy is taken for the build's and comes out as attribute text, never as markup.
    html = f"<p title='{figure}'>x</p>"
    with pytest.raises(SanitiseError, match="did not survive as an element"):
        sanitise_entry_html(html, trusted=[figure])
    with pytest.raises(SanitiseError, match="not found"):
        sanitise_entry_html("<p>no figure</p>", trusted=[figure])


def test_a_forged_placeholder_is_dropped():
    # The placeholder's value is a digest of the input, so a body cannot carry a valid one.
    html = '<div data-glossary-trusted="0123456789abcdef01234567-0"></div><p>x</p>'
    assert sanitise_entry_html(html) == "<div></div><p>x</p>"


# Property test --------------------------------------------------------------------------

_TAGS = [
    "p",
    "div",
    "span",
    "a",
    "img",
    "svg",
    "math",
    "script",
    "style",
    "iframe",
    "textarea",
    "title",
    "noscript",
    "xmp",
    "object",
    "embed",
    "meta",
    "base",
    "form",
    "input",
    "button",
    "details",
    "summary",
    "table",
    "td",
    "h2",
    "em",
    "code",
    "animate",
    "set",
    "foreignObject",
    "template",
    "plaintext",
    "select",
    "video",
    "link",
]
_ATTRIBUTES = [
    "onclick",
    "onerror",
    "onmouseover",
    "style",
    "href",
    "src",
    "srcset",
    "class",
    "id",
    "title",
    "data-slot",
    "formaction",
    "xlink:href",
    "to",
    "values",
    "attributeName",
    "align",
    "data-glossary-term",
    "autofocus",
    "open",
]
_VALUES = [
    "javascript:alert(1)",
    "java\nscript:alert(1)",
    "https://example.com/x.png",
    "//example.com/x",
    "x.png",
    "#a",
    "__config",
    "md-header",
    "admonition note",
    "roofline-calculator-slot",
    "0",
    "center",
    "}",
    "\"'><img src=x onerror=alert(1)>",
    "background:url(https://example.com/x)",
    "data:text/html,<script>alert(1)</script>",
    "&#106;avascript:alert(1)",
]
_TEXT = [
    "x",
    "*em*",
    "**strong**",
    "`code`",
    "[a](javascript:alert(1))",
    "[a](<java\nscript:x>)",
    "<!--",
    "-->",
    "--!>",
    "<?",
    "]]>",
    "<![CDATA[",
    "{: onclick=alert(1) }",
    "{ title='}' onmouseover=alert(1) }",
    "\n\n",
    "\n",
    "```\n",
    "~~~\n",
    "> ",
    "- ",
    "1. ",
    "| a | b |\n|---|:-:|\n| 1 | 2 |\n",
    "!!! note\n    ",
    "???+ tip\n    ",
    "&lt;",
    "&#60;script&#62;",
    "\\",
    "<",
    ">",
    "'",
    '"',
]


@st.composite
def _attribute(draw):
    name = draw(st.sampled_from(_ATTRIBUTES))
    value = draw(st.sampled_from(_VALUES))
    quote = draw(st.sampled_from(['"', "'", ""]))
    if not quote:
        value = value.split()[0] if value.split() else "x"
    return f" {name}={quote}{value}{quote}"


@st.composite
def _element(draw, depth: int):
    tag = draw(st.sampled_from(_TAGS))
    attributes = "".join(draw(st.lists(_attribute(), max_size=3)))
    children = draw(st.lists(_node(depth + 1), max_size=3)) if depth < 3 else []
    closed = draw(st.booleans())
    return f"<{tag}{attributes}>" + "".join(children) + (f"</{tag}>" if closed else "")


def _node(depth: int):
    return st.one_of(st.sampled_from(_TEXT), _element(depth))


_BODY = st.lists(_node(0), min_size=1, max_size=12).map("".join)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_BODY)
# Found by this test: an href that only looks like it holds a scheme is a relative URL.
@example(body='<p><p><a href="\'><img>[a](javascript:alert(1))"</p>')
def test_sanitised_bodies_hold_nothing_outside_the_allowlist(body):
    rendered = markdown.markdown(body, extensions=EXTENSIONS)
    cleaned = sanitise_entry_html(rendered)
    assert _outside_allowlist(cleaned) == []


# URLs as the browser's URL parser reads them (WHATWG: tabs and newlines removed anywhere,
# C0 controls and spaces at the ends), decided after that normalisation.
@pytest.mark.parametrize(
    "src",
    [
        "ht\ttps://example.com/tab.png",
        "\thttps://example.com/leading-tab.png",
        " \x01https://example.com/control.png",
        "h\rttps://example.com/carriage.png",
        "/\t/example.com/scheme-relative.png",
        " //example.com/space.png",
        "/\\example.com/backslash.png",
        "\\\\example.com/two-backslashes.png",
    ],
)
def test_an_image_from_another_host_is_dropped_however_its_address_is_spelt(src):
    assert "src=" not in sanitise_entry_html(f'<p><img src="{src}" alt="x"></p>')


@pytest.mark.parametrize(
    "href", ["java\tscript:alert(1)", " \x0ejavascript:alert(1)", "vb\nscript:x", "data\r:text/html,x"]
)
def test_a_script_address_is_dropped_however_it_is_spelt(href):
    assert "href=" not in sanitise_entry_html(f'<p><a href="{href}">x</a></p>')


def test_a_kept_address_is_written_as_the_browser_reads_it():
    cleaned = sanitise_entry_html('<p><a href=" ht\ttps://example.com/a\nb ">x</a><img src="../a\t.png" alt="y"></p>')
    assert 'href="https://example.com/ab"' in cleaned and 'src="../a.png"' in cleaned
