"""Refuse content in an entry that could run code, load from other hosts or break the build.

An entry is Markdown written by anyone who opens a pull request, and Markdown passes raw HTML
through. These checks run on the text before anything renders it, outside code (code spans and
fenced blocks show hostile markup as text, which is how an entry talks about it):

* raw elements that run code, restyle the page, send the reader elsewhere or embed another
  site (:data:`REFUSED_TAGS`), and ``on...=`` event-handler attributes, in HTML or in
  ``attr_list`` braces (``{: onclick=... }``);
* link and image targets with a ``javascript:``, ``vbscript:`` or ``data:`` scheme, however
  they are written: inline, as reference definitions (``[more]: javascript:...``), in HTML
  attributes or ``attr_list`` braces, and with HTML entities, percent-escapes or whitespace
  inside the scheme (decoded first, the way a browser reads them);
* images and other embedded files from another host: the site loads nothing from elsewhere;
* lists or quotes nested deeper than :data:`MAX_NESTING_DEPTH` (Python-Markdown recurses once
  per level and overflows Python's stack at a few hundred);
* entries larger than :data:`MAX_ENTRY_BYTES`;
* files that are not UTF-8 (UTF-16, a byte-order mark, invalid bytes) or hold control
  characters, NUL bytes or bidirectional controls (:func:`decode_entry`);
* bodies that would make Python-Markdown slow (:func:`find_slow_patterns`): its inline parser
  goes back over the rest of a paragraph for every unclosed ``[`` or ``<``, so a few thousand of
  them take minutes; long runs of emphasis markers are refused too.

These checks are the friendly first line, with file and line. They read Markdown source, which
browsers never see; the guarantee is :mod:`roofline_site.glossary.sanitize`, which rebuilds the
rendered HTML from an allowlist, so whatever these checks miss is dropped, never published.
"""

from __future__ import annotations

import html
import re
import unicodedata
import urllib.parse
from html.parser import HTMLParser

from roofline_core.vocabulary import shown
from roofline_site.glossary.errors import Problem
from roofline_site.glossary.markup import QUANTITY, LineFinder, mask_code

#: An entry larger than this (UTF-8 bytes) is refused; the longest real entries are about 5 kB.
MAX_ENTRY_BYTES = 100_000

#: Lists and block quotes may nest this many levels, no deeper.
MAX_NESTING_DEPTH = 20

#: At most this many ``[`` (and, separately, ``<``) outside code in one body. Python-Markdown
#: takes time quadratic in their number when they are unclosed (2,000 take a second, 8,000 take
#: seventeen on this project's build machine); real entries have fewer than 40.
MAX_BRACKETS = 400

#: At most this many unclosed tag-like ``<`` (``<b`` with no ``>`` before the next ``<``) outside
#: code. Python-Markdown's HTML reader scans to the end of the body for each one, so the cost is
#: their number times the body's length: 400 in an 87 kB body take 13 s, 20 take a third of one.
MAX_UNCLOSED_TAGS = 20
_UNCLOSED_TAG = re.compile(r"<[A-Za-z](?![^<>]*>)")

#: Longest run of ``*``, ``_`` or ``~`` outside code (a line of them alone is a rule, allowed).
MAX_EMPHASIS_RUN = 6

#: Most emphasis markers (``*``, ``_``) outside code in one paragraph.
MAX_EMPHASIS_MARKERS_PER_PARAGRAPH = 200

# Control characters other than tab, line feed and carriage return; C1 controls; Unicode line
# and paragraph separators (line breaks to Python but not to YAML or Markdown, so every line
# number after them would be wrong); non-characters.
# Bidirectional controls (embeddings, overrides, isolates, marks): they reorder what a reader sees
# ("Trojan Source"), in a title or summary as in the body; one rule for the whole file.
_BIDI_CONTROL = re.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029\ufffe\uffff]")
_BOMS = (
    (b"\xef\xbb\xbf", "a UTF-8 byte-order mark"),
    (b"\xff\xfe", "a UTF-16 byte-order mark"),
    (b"\xfe\xff", "a UTF-16 byte-order mark"),
)
_ENCODING_EXPECTED = (
    "expected UTF-8 text without a byte-order mark (save the file as 'UTF-8', not 'UTF-8 with BOM' or 'UTF-16')"
)

#: Raw elements refused in a body: they run code (script, object, embed, applet), restyle the
#: site (style, link), send the reader or their input elsewhere (meta refresh, base, form) or
#: embed another site (iframe, frame, frameset).
REFUSED_TAGS = (
    "script",
    "iframe",
    "style",
    "object",
    "embed",
    "meta",
    "base",
    "form",
    "link",
    "frame",
    "frameset",
    "applet",
)

#: Schemes whose URLs run code or carry a whole document.
DANGEROUS_SCHEMES = ("javascript:", "vbscript:", "data:")

# Attributes holding a URL the browser may follow or load.
_URL_ATTRIBUTES = frozenset(
    {
        "href",
        "src",
        "srcset",
        "action",
        "formaction",
        "xlink:href",
        "data",
        "poster",
        "background",
        "cite",
        "longdesc",
        "lowsrc",
        "dynsrc",
        "ping",
        "manifest",
        "codebase",
        "archive",
        "icon",
    }
)
# Of those, the ones the browser fetches by itself, without a click.
_LOADING_ATTRIBUTES = frozenset(
    {
        "src",
        "srcset",
        "data",
        "poster",
        "background",
        "lowsrc",
        "dynsrc",
        "ping",
        "manifest",
        "codebase",
        "archive",
        "icon",
    }
)

_REFUSED_TAG = re.compile(r"<\s*/?\s*(" + "|".join(REFUSED_TAGS) + r")\b", re.IGNORECASE)
_SCHEME = re.compile(r"^[a-z][a-z0-9+.-]*:")
_CSS_URL = re.compile(r"url\(\s*['\"]?([^'\")]*)", re.IGNORECASE)
# Python-Markdown's reference definition, made lenient about the quote and list markers in
# front of it (a definition inside a quote or list item counts too).
_REFERENCE_DEFINITION = re.compile(
    r"^[ \t>]*(?:(?:[-+*]|\d+[.)])[ \t]+)*\[([^\[\]\n]*)\]:[ \t]*\n?[ \t>]*(\S+)", re.MULTILINE
)
_IMAGE_REFERENCE = re.compile(r"!\[((?:[^\[\]]|\[[^\[\]]*\])*)\](?:[ ]?\[([^\[\]]*)\])?")
# attr_list's braces (``{: #id .class key=value }``), as its scanner reads key=value pairs.
_ATTR_LIST = re.compile(r"\{:?[ ]*([^}\n ][^}\n]*)\}")
_ATTR_LIST_PAIR = re.compile(r"""([^ =}]+)=("[^"]*"|'[^']*'|[^ =}]+)""")
_NESTING_PREFIX = re.compile(r"^[ \t>]*")
_LIST_MARKER = re.compile(r"(?:[-+*]|\d+[.)])(?:[ \t]|$)")

_CODE_EXPECTED = "expected Markdown only; show HTML as code in backticks if the entry is about it"
_URL_EXPECTED = "expected an https address or a relative link"
_REMOTE_EXPECTED = "expected a file in the repository, linked relatively: the site loads nothing from other hosts"


def check_size(text: str, path: str) -> Problem | None:
    """A problem if the entry file is larger than :data:`MAX_ENTRY_BYTES`."""
    size_bytes = len(text.encode("utf-8"))
    if size_bytes <= MAX_ENTRY_BYTES:
        return None
    return Problem(
        path,
        1,
        f"the entry is {size_bytes / 1000:,.0f} kB",
        f"expected at most {MAX_ENTRY_BYTES // 1000} kB: one term per entry; split a long one into several terms",
    )


def decode_entry(data: bytes, path: str) -> tuple[str | None, Problem | None]:
    """The text of an entry file, or the problem that stops it being read.

    Returns:
        ``(text, None)``, or ``(None, problem)`` for a byte-order mark, bytes that are not UTF-8
        (UTF-16 included: its NUL bytes), or control characters; located by line.
    """
    for bom, what in _BOMS:
        if data.startswith(bom):
            return None, Problem(path, 1, f"the file starts with {what}", _ENCODING_EXPECTED)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        return None, Problem(path, line, f"byte 0x{data[exc.start]:02x} is not UTF-8", _ENCODING_EXPECTED)
    control = _CONTROL.search(text)
    if control is not None:
        line = text.count("\n", 0, control.start()) + 1
        name = "a NUL byte" if control.group(0) == "\x00" else f"control character U+{ord(control.group(0)):04X}"
        return None, Problem(
            path,
            line,
            f"{name} in the file",
            "expected text only: letters, digits, punctuation, spaces, tabs and line breaks",
        )
    bidi = _BIDI_CONTROL.search(text)
    if bidi is not None:
        line = text.count("\n", 0, bidi.start()) + 1
        code = ord(bidi.group(0))
        return None, Problem(
            path,
            line,
            f"bidirectional control U+{code:04X} ({unicodedata.name(bidi.group(0), 'unnamed')}) in the file",
            "expected text in reading order with no direction controls: they show words in another order than "
            "they are read (in titles, summaries, names and code alike)",
        )
    return text, None


def find_slow_patterns(text: str, path: str, first_line: int = 1) -> list[Problem]:
    """Body patterns that would make rendering slow: too many ``[`` or ``<``, emphasis runs.

    Only text outside code counts (code spans and blocks are not parsed for links).
    """
    masked = mask_code(text)
    line_of = LineFinder(masked, first_line)
    problems = []
    for char, name in (("[", "square brackets '['"), ("<", "angle brackets '<'")):
        positions = [m.start() for m in re.finditer(re.escape(char), masked)]
        if len(positions) > MAX_BRACKETS:
            problems.append(
                Problem(
                    path,
                    line_of(positions[MAX_BRACKETS]),
                    f"more than {MAX_BRACKETS} {name} in the body ({len(positions)})",
                    f"expected at most {MAX_BRACKETS}: unclosed ones make the Markdown parser slow; put such text in a code block",
                )
            )
    unclosed = [m.start() for m in _UNCLOSED_TAG.finditer(masked)]
    if len(unclosed) > MAX_UNCLOSED_TAGS:
        problems.append(
            Problem(
                path,
                line_of(unclosed[MAX_UNCLOSED_TAGS]),
                f"more than {MAX_UNCLOSED_TAGS} unclosed tags ('<' and a letter without '>') in the body ({len(unclosed)})",
                f"expected at most {MAX_UNCLOSED_TAGS}: each makes the Markdown parser read the rest of the entry again; write '< ' with a space, or use code",
            )
        )
    for run in re.finditer(
        rf"\*{{{MAX_EMPHASIS_RUN + 1},}}|_{{{MAX_EMPHASIS_RUN + 1},}}|~{{{MAX_EMPHASIS_RUN + 1},}}", masked
    ):
        line_start = masked.rfind("\n", 0, run.start()) + 1
        line_end = masked.find("\n", run.end())
        line = masked[line_start : len(masked) if line_end < 0 else line_end]
        if set(line.strip()) <= {run.group(0)[0], " "}:
            continue  # a horizontal rule
        problems.append(
            Problem(
                path,
                line_of(run.start()),
                f"a run of {len(run.group(0))} '{run.group(0)[0]}' in the body",
                f"expected at most {MAX_EMPHASIS_RUN} emphasis markers in a row",
            )
        )
        break
    offset = 0
    for paragraph in re.split(r"(\n[ \t]*\n)", masked):
        markers = paragraph.count("*") + paragraph.count("_")
        if markers > MAX_EMPHASIS_MARKERS_PER_PARAGRAPH:
            problems.append(
                Problem(
                    path,
                    line_of(offset + len(paragraph) - len(paragraph.lstrip())),
                    f"a paragraph with {markers} emphasis markers ('*', '_')",
                    f"expected at most {MAX_EMPHASIS_MARKERS_PER_PARAGRAPH} per paragraph; put such text in a code block",
                )
            )
            break
        offset += len(paragraph)
    return problems


def find_deep_nesting(text: str, path: str, first_line: int = 1) -> Problem | None:
    """The first line whose lists or quotes nest deeper than :data:`MAX_NESTING_DEPTH`.

    Depth counts each ``>`` and each four columns of indentation (a tab is four), plus one for
    a list marker: what Python-Markdown opens a nested block for.
    """
    for number, line in enumerate(mask_code(text).splitlines()):
        if not line.strip():
            continue
        prefix = _NESTING_PREFIX.match(line).group(0)
        quotes = prefix.count(">")
        # The space after a '>' belongs to the quote marker, not to the indentation.
        indent_columns = len(re.sub("> ?", "", prefix).expandtabs(4))
        depth = quotes + indent_columns // 4 + (1 if _LIST_MARKER.match(line, len(prefix)) else 0)
        if depth > MAX_NESTING_DEPTH:
            return Problem(
                path,
                first_line + number,
                f"lists or quotes nested {depth} levels deep",
                f"expected at most {MAX_NESTING_DEPTH} levels; flatten the structure or split it into paragraphs",
            )
    return None


def find_hostile_html(text: str, path: str, first_line: int = 1) -> list[Problem]:
    """Refused elements, event handlers, dangerous URLs and remote files outside code."""
    masked = mask_code(text)
    line_of = LineFinder(masked, first_line)
    problems = [
        Problem(path, line_of(m.start()), f"raw <{m.group(1).lower()}> in the body", _CODE_EXPECTED)
        for m in _REFUSED_TAG.finditer(masked)
    ]
    problems += _HtmlAttributes.check(masked, path, first_line)
    problems += _check_markdown_targets(masked, path, line_of)
    problems += _check_attr_lists(masked, path, line_of)
    return problems


def url_problem(raw: str, path: str, line: int, *, loads: bool) -> Problem | None:
    """A problem with the URL ``raw`` as written in Markdown or HTML, or None.

    Args:
        raw: The URL as written (entities and escapes not yet decoded).
        path: The file as shown in messages.
        line: Its line.
        loads: Whether the browser fetches it by itself (an image source), so another host is
            refused too.
    """
    url = normalised_url(raw)
    for scheme in DANGEROUS_SCHEMES:
        if url.startswith(scheme):
            return Problem(path, line, f"a {scheme} address in the body", _URL_EXPECTED)
    if loads and (_SCHEME.match(url) or url.startswith("//")):
        return Problem(
            path, line, f"an image or other embedded file from another host ({shown(raw.strip())})", _REMOTE_EXPECTED
        )
    return None


def normalised_url(raw: str) -> str:
    """``raw`` as a browser reads its scheme: entities and percent-escapes decoded, Markdown
    backslash escapes dropped, whitespace and control characters removed, lowercase, and
    backslashes read as slashes (``/\\host`` is another host)."""
    text = html.unescape(html.unescape(raw))
    text = re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", text)
    text = urllib.parse.unquote(text)
    text = re.sub(r"[\x00-\x20\x7f]", "", text).lower()
    return text.strip("<>").replace("\\", "/")


# Helper functions ------------------------------------------------------------------------


def _check_markdown_targets(masked: str, path: str, line_of: LineFinder) -> list[Problem]:
    problems = []
    # Inline links and images: after "](" and any whitespace (a line break too, as
    # Python-Markdown allows), up to the closing ">" or ")" or the end of that line, so
    # targets with whitespace inside the scheme are read whole.
    for m in re.finditer(r"\]\(\s*", masked):
        rest = masked[m.end() : m.end() + 2000].split("\n", 1)[0]
        target = rest[1:].split(">", 1)[0] if rest.startswith("<") else rest.split(")", 1)[0]
        found = url_problem(target, path, line_of(m.start()), loads=_is_image(masked, m.start()))
        if found:
            problems.append(found)
    image_labels = {_label(m.group(2) or m.group(1)) for m in _IMAGE_REFERENCE.finditer(masked)}
    for m in _REFERENCE_DEFINITION.finditer(masked):
        found = url_problem(m.group(2), path, line_of(m.start(2)), loads=_label(m.group(1)) in image_labels)
        if found:
            problems.append(found)
    return problems


def _is_image(text: str, close: int) -> bool:
    """Whether the ``]`` at ``close`` ends the text of an image (``![...``)."""
    depth = 0
    for index in range(close - 1, -1, -1):
        char = text[index]
        if index > 0 and text[index - 1] == "\\":
            continue
        if char == "]":
            depth += 1
        elif char == "[":
            if depth == 0:
                return index > 0 and text[index - 1] == "!"
            depth -= 1
    return False


def _label(text: str) -> str:
    return " ".join(text.split()).casefold()


def _check_attr_lists(masked: str, path: str, line_of: LineFinder) -> list[Problem]:
    # {{ quantities }} are not attribute lists.
    text = QUANTITY.sub(lambda m: " " * len(m.group(0)), masked)
    problems = []
    for block in _ATTR_LIST.finditer(text):
        for pair in _ATTR_LIST_PAIR.finditer(block.group(1)):
            name, value = pair.group(1).lower(), pair.group(2).strip("\"'")
            problems += _attribute_problems(name, value, path, line_of(block.start()))
    return problems


def _attribute_problems(name: str, value: str, path: str, line: int) -> list[Problem]:
    if name.startswith("on"):
        return [
            Problem(
                path,
                line,
                f"event-handler attribute '{name}=' in the body",
                "expected no scripting in entries; page behaviour lives in site_assets/",
            )
        ]
    if name == "style":
        urls = _CSS_URL.findall(html.unescape(value))
        return [p for p in (url_problem(url, path, line, loads=True) for url in urls) if p]
    if name not in _URL_ATTRIBUTES:
        return []
    candidates = (
        [c.strip().split(" ")[0] for c in value.split(",")] if name in ("srcset", "ping", "archive") else [value]
    )
    found = (url_problem(c, path, line, loads=name in _LOADING_ATTRIBUTES) for c in candidates)
    return [p for p in found if p][:1]


class _HtmlAttributes(HTMLParser):
    """Attributes of raw HTML tags in Markdown, read the way a browser tokenises them (so
    ``<img/onerror=...>`` counts); the parser decodes entities in values."""

    def __init__(self, path: str, first_line: int) -> None:
        super().__init__(convert_charrefs=True)
        self.path, self.first_line = path, first_line
        self.problems: list[Problem] = []

    @classmethod
    def check(cls, text: str, path: str, first_line: int) -> list[Problem]:
        parser = cls(path, first_line)
        parser.feed(text)
        parser.close()
        return parser.problems

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in REFUSED_TAGS:
            return  # already refused as a whole
        line = self.getpos()[0] - 1 + self.first_line
        for name, value in attrs:
            self.problems += _attribute_problems(name.lower(), value or "", self.path, line)

    handle_startendtag = handle_starttag
