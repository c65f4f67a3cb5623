"""Read a built site the way a link checker does: its pages, their links, loads and anchors.

Parsing uses the standard library's ``html.parser`` only, so the gates need no extra package.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

#: ``<link rel>`` values that make the browser fetch something (or open a connection).
LOADING_LINK_RELS = frozenset(
    {
        "stylesheet",
        "icon",
        "shortcut",
        "apple-touch-icon",
        "mask-icon",
        "manifest",
        "preload",
        "modulepreload",
        "prefetch",
        "preconnect",
        "dns-prefetch",
        "prerender",
    }
)

#: ``(tag, attribute)`` pairs whose URL the browser loads as part of the page.
LOADING_ATTRIBUTES = frozenset(
    {
        ("script", "src"),
        ("img", "src"),
        ("img", "srcset"),
        ("source", "src"),
        ("source", "srcset"),
        ("iframe", "src"),
        ("frame", "src"),
        ("video", "src"),
        ("video", "poster"),
        ("audio", "src"),
        ("track", "src"),
        ("embed", "src"),
        ("object", "data"),
        ("input", "src"),
        ("image", "href"),
        ("image", "xlink:href"),
        ("use", "href"),
        ("use", "xlink:href"),
        ("feimage", "href"),
    }
)

_CSS_URL = re.compile(r"""url\(\s*(['"]?)(.*?)\1\s*\)|@import\s+(['"])(.*?)\3""", re.IGNORECASE)


@dataclass(frozen=True)
class Ref:
    """One URL found in a page: where (tag, attribute, line) and what."""

    tag: str
    attribute: str
    url: str
    line: int


@dataclass
class PageScan:
    """What a link checker needs from one HTML page."""

    ids: set[str] = field(default_factory=set)
    #: Navigations: ``<a href>``, ``<area href>``, ``<form action>``, meta refresh targets,
    #: and non-loading ``<link>`` (canonical, alternate, next, prev ...).
    links: list[Ref] = field(default_factory=list)
    #: Loads: scripts, style sheets, images, frames, icons, CSS ``url()`` in inline styles.
    loads: list[Ref] = field(default_factory=list)
    refresh_target: str | None = None


class _Scanner(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.scan = PageScan()
        self._in_style = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        line = self.getpos()[0]
        attributes = {name: value or "" for name, value in attrs}
        for name in ("id",):
            if attributes.get(name):
                self.scan.ids.add(attributes[name])
        if tag == "a" and attributes.get("name"):
            self.scan.ids.add(attributes["name"])
        if tag in ("a", "area") and "href" in attributes:
            self.scan.links.append(Ref(tag, "href", attributes["href"], line))
        if tag == "form" and attributes.get("action"):
            self.scan.links.append(Ref(tag, "action", attributes["action"], line))
        if tag == "link" and "href" in attributes:
            rels = set((attributes.get("rel") or "").lower().split())
            target = self.scan.loads if rels & LOADING_LINK_RELS else self.scan.links
            target.append(Ref(tag, "href", attributes["href"], line))
        if tag == "meta" and (attributes.get("http-equiv") or "").lower() == "refresh":
            match = re.search(r"url\s*=\s*['\"]?([^'\"]+)", attributes.get("content", ""), re.IGNORECASE)
            if match:
                self.scan.refresh_target = match.group(1).strip()
                self.scan.links.append(Ref(tag, "content", self.scan.refresh_target, line))
        for name, value in attributes.items():
            if (tag, name) in LOADING_ATTRIBUTES and value:
                urls = _srcset_urls(value) if name == "srcset" else [value]
                self.scan.loads.extend(Ref(tag, name, url, line) for url in urls)
        if attributes.get("style"):
            self.scan.loads.extend(Ref(tag, "style", url, line) for url in css_urls(attributes["style"]))
        self._in_style = tag == "style"

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        self._in_style = False

    def handle_endtag(self, tag: str) -> None:
        if tag == "style":
            self._in_style = False

    def handle_data(self, data: str) -> None:
        if self._in_style:
            line = self.getpos()[0]
            self.scan.loads.extend(Ref("style", "text", url, line) for url in css_urls(data))


def _srcset_urls(value: str) -> list[str]:
    return [candidate.strip().split()[0] for candidate in value.split(",") if candidate.strip()]


def css_urls(css: str) -> list[str]:
    """URLs a style sheet loads: ``url(...)`` and ``@import "..."``."""
    return [match.group(2) or match.group(4) for match in _CSS_URL.finditer(css) if match.group(2) or match.group(4)]


def scan_html(text: str) -> PageScan:
    """Parse one HTML document."""
    scanner = _Scanner()
    scanner.feed(text)
    scanner.close()
    return scanner.scan


def html_pages(site_dir: Path) -> list[str]:
    """Every HTML file of a built site, as sorted POSIX paths relative to ``site_dir``."""
    return sorted(p.relative_to(site_dir).as_posix() for p in site_dir.rglob("*.html"))


def url_path(page: str) -> str:
    """The URL path (relative to the site root) a page is served at: ``a/index.html`` -> ``a/``."""
    if page == "index.html":
        return ""
    if page.endswith("/index.html"):
        return page[: -len("index.html")]
    return page


def is_redirect_stub(text: str) -> bool:
    """A page whose only job is to send the reader elsewhere (``<meta http-equiv="refresh">``)."""
    return scan_html(text).refresh_target is not None


def pages_with(site_dir: Path, marker: str) -> list[str]:
    """Pages whose HTML contains ``marker`` (e.g. ``data-calculator=``), redirect stubs excluded."""
    found = []
    for page in html_pages(site_dir):
        text = (site_dir / page).read_text(encoding="utf-8")
        if marker in text and not is_redirect_stub(text):
            found.append(page)
    return found
