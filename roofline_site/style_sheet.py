"""The one style sheet every page loads: Material's own sheets and the site's, in cascade order.

Each render-blocking style sheet costs a request before the first paint. Material links two
(``main.<hash>.min.css`` and, with a palette, ``palette.<hash>.min.css``) and the site added its
own; in Lighthouse's mobile simulation, one sheet instead of three brought the first
contentful paint of a term page from about 1,440 ms to 1,280 ms (benchmarks/lighthouse_scores.py).
The sheet is named by its content, so hosts may cache it forever (``Cache-Control: immutable``).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Sequence

#: Material's compiled sheets, by the names its ``base.html`` links (``assets/stylesheets/``).
_THEME_SHEET = re.compile(r"assets/stylesheets/(main|palette)\.[0-9a-f]{8}\.min\.css")
# A source map comment names a file beside the sheet it came from; in the joined sheet, which
# lives elsewhere, it would point at nothing.
_SOURCE_MAP = re.compile(r"/\*# sourceMappingURL=[^*]*\*/")
# An @charset rule counts only as a sheet's first bytes; the joined sheet (UTF-8, as it is
# written) starts with one, and the parts' own would be ignored further in.
_CHARSET = re.compile(r'\A\s*@charset\s+"[^"]*";')


class StyleSheetError(ValueError):
    """The theme's sheets are not where the site expects them (another Material release)."""


def theme_sheets(site_paths: Iterable[str], *, palette: bool) -> list[str]:
    """Material's sheets among ``site_paths``, as its ``base.html`` links them: main, then palette
    (only when the theme has a palette)."""
    found: dict[str, list[str]] = {"main": [], "palette": []}
    for path in site_paths:
        match = _THEME_SHEET.fullmatch(path)
        if match:
            found[match.group(1)].append(path)
    wanted = ["main", "palette"] if palette else ["main"]
    for name in wanted:
        if len(found[name]) != 1:
            raise StyleSheetError(
                f"the theme has {len(found[name])} files named assets/stylesheets/{name}.<hash>.min.css; "
                "expected exactly one (Material for MkDocs' compiled sheet)"
            )
    return [found[name][0] for name in wanted]


def joined_sheet(parts: Sequence[tuple[str, str]]) -> str:
    """The parts' CSS (label, text) in order, each under a comment naming where it came from,
    without their source map comments and @charset rules, after one ``@charset "UTF-8";``."""
    joined = "\n".join(
        f"/* {label} */\n{_CHARSET.sub('', _SOURCE_MAP.sub('', text)).strip()}\n" for label, text in parts
    )
    return '@charset "UTF-8";\n' + joined


def hashed_name(folder: str, css: str) -> str:
    """``<folder>/site.<16 hex digits of the content's SHA-256>.css``."""
    return f"{folder}/site.{hashlib.sha256(css.encode('utf-8')).hexdigest()[:16]}.css"
