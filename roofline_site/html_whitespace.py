"""Drop the theme templates' indentation from finished pages, changing nothing a reader sees.

Material's Jinja templates indent every line, and leave runs of blank lines between tags: a
sixth of a term page's HTML. Where white space collapses (CSS ``white-space: normal``, every
element but those below), any run of it that holds a line break is drawn as one space, so it can
become a single line break with nothing drawn differently. Inside ``pre``, ``textarea``,
``code``, ``script`` and ``style`` white space is content, so those are copied as they are. Only
text between a ``>`` and the next ``<`` is touched: tags and their attribute values never are
(the site escapes ``<`` and ``>`` in every attribute it writes).

This works on the site's own finished output (contributors' HTML has been through the
allowlist sanitiser by then); it is a layout trim, not a parser of untrusted input.
"""

from __future__ import annotations

import re

# An element whose white space is content, up to (not including) the ">" of its closing tag,
# which HTML matches case-insensitively. Two groups: the element, then its tag name.
_VERBATIM = re.compile(r"(<(pre|textarea|code|script|style)\b.*?</\2\s*(?=>))", re.IGNORECASE | re.DOTALL)
# Text after a tag that holds a line break, up to the next tag (or the end of this piece).
_TEXT_WITH_BREAK = re.compile(r">([^<>]*\n[^<>]*)(?=<|\Z)")
_BREAKING_RUN = re.compile(r"[ \t\r\f]*\n[ \t\r\n\f]*")


def collapse_layout_whitespace(html: str) -> str:
    """``html`` with each run of white space that holds a line break, in text, cut to one break.

    >>> collapse_layout_whitespace("<ul>\\n    \\n    <li>\\n      a\\n    </li>\\n  </ul>")
    '<ul>\\n<li>\\na\\n</li>\\n</ul>'
    >>> collapse_layout_whitespace("<p>a</p>\\n\\n  <pre>\\n  x\\n\\n</pre>\\n\\n<p>a</p> <b>b</b>")
    '<p>a</p>\\n<pre>\\n  x\\n\\n</pre>\\n<p>a</p> <b>b</b>'
    """
    # split() gives [outside, element, tag name, outside, element, tag name, ..., outside].
    pieces = _VERBATIM.split(html)
    parts = []
    for at in range(0, len(pieces), 3):
        parts.append(_TEXT_WITH_BREAK.sub(_collapse_text, pieces[at]))
        if at + 1 < len(pieces):
            parts.append(pieces[at + 1])
    return "".join(parts)


def _collapse_text(text: re.Match[str]) -> str:
    return ">" + _BREAKING_RUN.sub("\n", text.group(1))
