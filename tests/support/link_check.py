"""Resolve the URLs found in a built site to its files, as a static host would serve them."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

from tests.support.site_pages import Ref, css_urls, scan_html

# A made-up origin to resolve relative URLs against; never contacted.
_ORIGIN = "http://site.invalid/"
_SKIPPED_SCHEMES = frozenset({"mailto", "tel", "data", "blob"})


@dataclass(frozen=True)
class Problem:
    """A broken reference: in which file, on which line, which URL, and why."""

    source: str
    line: int
    url: str
    why: str

    def __str__(self) -> str:
        return f"{self.source}:{self.line}: {self.url} -> {self.why}"


class SiteLinks:
    """Checks URLs against a built site in ``site_dir`` whose public address is ``site_url``."""

    def __init__(self, site_dir: Path, site_url: str) -> None:
        self.site_dir = site_dir
        self.site_url = site_url if site_url.endswith("/") else site_url + "/"
        self._ids = cache(self._load_ids)

    def is_external(self, url: str) -> bool:
        """True when ``url`` points at another host (or another site on this host)."""
        parts = urlsplit(url.strip())
        if parts.scheme in _SKIPPED_SCHEMES or parts.scheme == "javascript":
            return False
        if parts.scheme or parts.netloc:
            absolute = url.strip() if parts.scheme else "http:" + url.strip()
            return not absolute.startswith(self.site_url)
        return False

    def check(
        self, url: str, *, base: str, source: str, line: int, inserted_ids: frozenset[str] = frozenset()
    ) -> Problem | None:
        """Check one URL found in ``source`` (served at site path ``base``); None when it resolves.

        ``inserted_ids``: ids that HTML inserted into the page at ``base`` brings with it (a term
        page's calculator, which arrives from its own file): a fragment there resolves to them too.
        External URLs are not checked here (no network); ``javascript:`` URLs are problems.
        """
        url = url.strip()
        parts = urlsplit(url)
        if parts.scheme == "javascript":
            return Problem(source, line, url, "javascript: URL (never allowed)")
        if parts.scheme in _SKIPPED_SCHEMES or self.is_external(url):
            return None
        if parts.scheme or parts.netloc:
            absolute = url if parts.scheme else "http:" + url
            resolved = urlsplit(_ORIGIN + absolute[len(self.site_url) :])
        else:
            resolved = urlsplit(urljoin(_ORIGIN + base, url))
        target = unquote(resolved.path.lstrip("/"))
        file = self._resolve_file(target)
        if file is None:
            return Problem(source, line, url, f"no file for site path '/{target}'")
        fragment = unquote(resolved.fragment)
        inserted = inserted_ids if file == self._resolve_file(base.lstrip("/") or "") else frozenset()
        if fragment and file.suffix == ".html" and fragment not in self._ids(file) | inserted:
            return Problem(source, line, url, f"no id '{fragment}' in {file.relative_to(self.site_dir).as_posix()}")
        return None

    def _resolve_file(self, target: str) -> Path | None:
        path = self.site_dir / target
        if target == "" or target.endswith("/"):
            path = path / "index.html"
        elif path.is_dir():
            # Static hosts answer a folder without its slash with a redirect to the slashed URL.
            path = path / "index.html"
        try:
            inside = path.resolve().is_relative_to(self.site_dir.resolve())
        except OSError:
            return None
        return path if inside and path.is_file() else None

    def _load_ids(self, file: Path) -> frozenset[str]:
        return frozenset(scan_html(file.read_text(encoding="utf-8")).ids)


def page_refs(text: str) -> list[Ref]:
    """Every link and load of an HTML page."""
    scan = scan_html(text)
    return scan.links + scan.loads


def css_refs(text: str) -> list[Ref]:
    """URLs in a style sheet, with line numbers."""
    refs = []
    for number, line in enumerate(text.splitlines(), start=1):
        refs.extend(Ref("css", "url", url, number) for url in css_urls(line))
    return refs


def sitemap_refs(text: str) -> list[Ref]:
    """``<loc>`` URLs of a sitemap."""
    return [
        Ref("loc", "text", m.group(1), text.count("\n", 0, m.start()) + 1)
        for m in re.finditer(r"<loc>([^<]+)</loc>", text)
    ]


def feed_refs(text: str) -> list[Ref]:
    """Links of an RSS or Atom feed: ``<link>text</link>``, ``<link href>``, permalink ``<guid>``."""
    refs = []
    patterns = (
        r"<link>([^<]+)</link>",
        r"<link[^>]*\bhref=\"([^\"]+)\"",
        r"<guid(?![^>]*isPermaLink=\"false\")[^>]*>([^<]+)</guid>",
    )
    for pattern in patterns:
        for match in re.finditer(pattern, text):
            refs.append(Ref("feed", "link", match.group(1).strip(), text.count("\n", 0, match.start()) + 1))
    return refs


def json_url_refs(
    text: str, keys: frozenset[str] = frozenset({"url", "location", "href", "home_page_url", "feed_url"})
) -> list[Ref]:
    """String values under URL-like keys anywhere in a JSON document (line numbers are 0)."""
    refs: list[Ref] = []

    def walk(value: object) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                if key in keys and isinstance(item, str):
                    refs.append(Ref("json", key, item, 0))
                else:
                    walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    walk(json.loads(text))
    return refs
