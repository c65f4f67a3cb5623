"""The fewest pages of a built site that between them show every styled element it has.

Colour contrast depends on an element's own classes and on what it sits in, so a page adds
something to a palette check only if it has an element in a setting no other checked page has.
A *style signature* is an element of the body written as ``<nearest classed ancestor's first
class> > <tag>.<its classes, sorted>``; :func:`covering_pages` picks, greedily, pages until
their signatures hold every page's. Standard library only, like the other gate readers.
"""

from __future__ import annotations

from collections.abc import Iterable
from html.parser import HTMLParser
from pathlib import Path

# Elements with no end tag: they never hold another element.
_VOID = frozenset(
    {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
)


class _Signatures(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.open_classes: list[str] = []  # first class of each open element ("" for none)
        self.in_body = False
        self.found: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.in_body = self.in_body or tag == "body"
        classes = sorted((dict(attrs).get("class") or "").split())
        if self.in_body:
            setting = next((c for c in reversed(self.open_classes) if c), "")
            self.found.add(f"{setting} > {tag}.{'.'.join(classes)}")
        if tag not in _VOID:
            self.open_classes.append(classes[0] if classes else "")

    def handle_endtag(self, tag: str) -> None:
        if tag not in _VOID and self.open_classes:
            self.open_classes.pop()


def style_signatures(html: str) -> frozenset[str]:
    """The style signatures of a page's body (see the module docstring)."""
    parser = _Signatures()
    parser.feed(html)
    parser.close()
    return frozenset(parser.found)


def covering_pages(site_dir: Path, pages: Iterable[str]) -> list[str]:
    """Pages of ``pages`` (paths under ``site_dir``) whose signatures hold every page's, chosen
    greedily (most new signatures first, ties by path), in the order chosen."""
    signatures = {page: style_signatures((site_dir / page).read_text(encoding="utf-8")) for page in pages}
    left = set().union(*signatures.values()) if signatures else set()
    chosen: list[str] = []
    while left:
        best = max(sorted(signatures), key=lambda page: len(signatures[page] & left))
        chosen.append(best)
        left -= signatures[best]
    return chosen
