"""Keep each page's Markdown conversion between builds: a page whose Markdown and build inputs are
unchanged is not converted again.

MkDocs converts every page on every build, and for this site that conversion (Python-Markdown
with its extensions and Pygments) was about a quarter of a warm build. What a conversion gives
MkDocs (``Page.render`` in MkDocs 1.6) is recorded here: the HTML, the table of contents, the
title taken from the first heading, the anchors the page has, and the page's links to anchors
of other pages (MkDocs checks those after every page is rendered, so they are still checked).

Every hook that edits a page's HTML (the glossary's sanitiser and link marking, the CSP check)
runs after the conversion, on a recorded page as on a fresh one. A conversion is recorded only if
it logged nothing, so every warning comes again, and only for pages without a figure or
calculator fence (those register files and build output while they are converted).

A record's key is a SHA-256 of the page's Markdown as converted (after every hook's
``on_page_markdown``), its source path and URL, and the build's inputs
(:func:`build_inputs_digest`): the Markdown extensions and their settings, the versions of the
packages that convert, the site's own code, every file's source path and URL (relative links
resolve against them), the link validation settings and the logging level, and (as in every cache key,
:func:`roofline_site.node_artifacts.input_key`) ``mkdocs.yml``, the hooks and the theme overrides. The records are one
JSON file in ``.cache/page-render/``, holding the pages of the last build, written atomically;
a missing, unreadable or foreign file means nothing on record.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

from roofline_site.atomic_write import write_atomic
from roofline_site.node_artifacts import input_key

CACHE_DIR_NAME = ".cache/page-render"
FILE_NAME = "pages.json"
#: The packages whose code turns a page's Markdown into HTML.
CONVERTING_PACKAGES = ("mkdocs", "markdown", "pymdown-extensions", "pygments", "mkdocs-material")


@dataclass(frozen=True)
class Rendered:
    """What one conversion gave MkDocs (JSON-safe: file references by source path)."""

    content: str
    toc_tokens: list[dict[str, Any]]
    title: str | None
    anchor_ids: list[str]
    #: Source path of the linked page -> {anchor: the link as written}; None when MkDocs did not
    #: collect them (debug logging).
    links_to_anchors: dict[str, dict[str, str]] | None


def build_inputs_digest(
    *,
    extensions: Iterable[str],
    extension_configs: Mapping[str, Any],
    file_urls: Iterable[tuple[str, str]],
    settings: Mapping[str, Any],
    code_digest: str,
) -> str:
    """SHA-256 of what every page's conversion depends on besides its own Markdown.

    Args:
        extensions: The Markdown extensions' names, in order.
        extension_configs: Their settings; functions are named by module and qualified name.
        file_urls: Every file of the build as (source path, URL).
        settings: Other build settings that change the output or its messages.
        code_digest: A digest of the site's own code.
    """
    versions = {name: metadata.version(name) for name in CONVERTING_PACKAGES}
    payload = json.dumps(
        [list(extensions), extension_configs, sorted(file_urls), settings, versions],
        default=_describe,
        sort_keys=True,
        ensure_ascii=False,
    )
    # This module's own code too: it decides what a record holds and how it is read back.
    return input_key([code_digest.encode(), Path(__file__).read_bytes(), payload.encode("utf-8", "surrogatepass")])


def page_key(markdown: str, *, src_uri: str, url: str, build_digest: str) -> str:
    """The key of one page's conversion."""
    return input_key(part.encode("utf-8", "surrogatepass") for part in (build_digest, src_uri, url, markdown))


def _describe(value: Any) -> str:
    """A stable description of a setting JSON cannot hold (a function's repr names its address)."""
    name = getattr(value, "__qualname__", None)
    if name is not None:
        return f"{getattr(value, '__module__', '?')}.{name}"
    return f"{type(value).__module__}.{type(value).__qualname__}:{value!r}"


def _well_formed(record: Any) -> bool:
    """Whether a record has every field, each of its type (a damaged file counts as nothing)."""
    if not isinstance(record, dict) or set(record) != {
        "content",
        "toc_tokens",
        "title",
        "anchor_ids",
        "links_to_anchors",
    }:
        return False
    links = record["links_to_anchors"]
    return (
        isinstance(record["content"], str)
        and _toc_tokens_well_formed(record["toc_tokens"])
        and (record["title"] is None or isinstance(record["title"], str))
        and isinstance(record["anchor_ids"], list)
        and all(isinstance(anchor, str) for anchor in record["anchor_ids"])
        and (
            links is None
            or isinstance(links, dict)
            and all(
                isinstance(anchors, dict) and all(isinstance(v, str) for v in anchors.values())
                for anchors in links.values()
            )
        )
    )


def _toc_tokens_well_formed(tokens: Any) -> bool:
    return isinstance(tokens, list) and all(
        isinstance(token, dict)
        and isinstance(token.get("name"), str)
        and isinstance(token.get("id"), str)
        and isinstance(token.get("level"), int)
        and _toc_tokens_well_formed(token.get("children"))
        for token in tokens
    )


class RenderCache:
    """The pages' recorded conversions, read from and written to ``directory``."""

    def __init__(self, directory: Path) -> None:
        self.path = directory / FILE_NAME
        self._records: dict[str, dict[str, Any]] | None = None
        self._used: dict[str, dict[str, Any]] = {}

    def get(self, key: str) -> Rendered | None:
        """The conversion on record under ``key``, if any."""
        record = self._on_record().get(key)
        if not _well_formed(record):
            return None
        self._used[key] = record
        return Rendered(**record)

    def put(self, key: str, rendered: Rendered) -> None:
        self._used[key] = asdict(rendered)

    def save(self) -> None:
        """Write the pages of this build (only), if they differ from the record."""
        if self._used != self._on_record():
            write_atomic(self.path, json.dumps(self._used, ensure_ascii=False).encode("utf-8", "surrogatepass"))
        self._records, self._used = None, {}

    def _on_record(self) -> dict[str, dict[str, Any]]:
        if self._records is None:
            try:
                records = json.loads(self.path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                records = {}
            self._records = records if isinstance(records, dict) else {}
        return self._records
