"""Drop the theme templates' indentation from finished pages, changing nothing a reader sees.

Material's Jinja templates leave every page with runs of blank, indented lines between tags: a
sixth of a term page's HTML. A text node made only of whitespace renders as one space wherever
white space collapses (CSS ``white-space: normal``, every element but those below), so a run
that holds a line break can become a single line break with nothing drawn differently. Inside
``pre``, ``textarea``, ``code``, ``script`` and ``style`` white space is content, so those are
copied as they are. Only whitespace between a ``>`` and the next ``<`` is touched: attribute
values are never changed (the site escapes ``<`` in every attribute it writes).

This works on the site's own finished output (contributors' HTML has been through the
allowlist sanitiser by then); it is a layout trim, not a parser of untrusted input.
"""

from __future__ import annotations

import re

# An element whose white space is content, up to (not including) the ">" of its closing tag,
# which HTML matches case-insensitively. Two groups: the element, then its tag name.
_VERBATIM = re.compile(r"(<(pre|textarea|code|script|style)\b.*?</\2\s*(?=>))", re.IGNORECASE | re.DOTALL)
# A whitespace-only text node holding a line break: after a tag, before the next tag (or before
# the verbatim element that follows this piece, or the end of the page).
_LAYOUT_GAP = re.compile(r">[ \t\r\n\f]*\n[ \t\r\n\f]*(?=<|\Z)")


def collapse_layout_whitespace(html: str) -> str:
    """``html`` with each whitespace-only gap between tags that spans lines cut to one line break.

    >>> collapse_layout_whitespace("<ul>\\n    \\n    <li>a</li>\\n  </ul>")
    '<ul>\\n<li>a</li>\\n</ul>'
    >>> collapse_layout_whitespace("<p>a</p>\\n\\n  <pre>\\n  x\\n\\n</pre>\\n\\n<p>a</p> <b>b</b>")
    '<p>a</p>\\n<pre>\\n  x\\n\\n</pre>\\n<p>a</p> <b>b</b>'
    """
    # split() gives [outside, element, tag name, outside, element, tag name, ..., outside].
    pieces = _VERBATIM.split(html)
    parts = []
    for at in range(0, len(pieces), 3):
        parts.append(_LAYOUT_GAP.sub(">\n", pieces[at]))
        if at + 1 < len(pieces):
            parts.append(pieces[at + 1])
    return "".join(parts)
