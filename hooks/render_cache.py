"""Convert a page's Markdown only when it or the build's inputs changed (roofline_site.render_cache).

Last of the ``on_page_markdown`` hooks, so the Markdown it keys on is the one MkDocs converts.
It replaces the page's ``render`` for this build: a recorded conversion is put back on the page;
otherwise MkDocs' own ``Page.render`` runs and, if it logged nothing, is recorded.
"""

from __future__ import annotations

import logging
import sys
import types
from pathlib import Path

from mkdocs.plugins import event_priority
from mkdocs.structure.pages import Page
from mkdocs.structure.toc import AnchorLink, get_toc

from roofline_site.glossary.check_cache import checking_code_digest
from roofline_site.render_cache import CACHE_DIR_NAME, RenderCache, Rendered, build_inputs_digest, page_key

_cache: RenderCache | None = None
_build_digest: str | None = None

# Hooks ---------------------------------------------------------------------------------


def on_config(config):
    global _cache, _build_digest
    _cache = RenderCache(Path(config.config_file_path).resolve().parent / CACHE_DIR_NAME)
    _build_digest = None
    return config


@event_priority(-100)
def on_page_markdown(markdown, page, config, files):
    if _cache is not None and not _page_has_build_fences():
        page.render = types.MethodType(_render, page)
    return markdown


def on_post_build(config):
    if _cache is not None:
        _cache.save()


# Helper functions ----------------------------------------------------------------------


def _render(page: Page, config, files) -> None:
    key = page_key(page.markdown or "", src_uri=page.file.src_uri, url=page.url, build_digest=_digest(config, files))
    rendered = _cache.get(key)
    if rendered is not None:
        _restore(page, rendered, files)
        return
    with _LogRecords() as records:
        Page.render(page, config, files)
    if not records.seen:
        _cache.put(key, _recorded(page))


def _restore(page: Page, rendered: Rendered, files) -> None:
    page.content = rendered.content
    page.toc = get_toc(rendered.toc_tokens)
    page._title_from_render = rendered.title
    page.present_anchor_ids = set(rendered.anchor_ids)
    if rendered.links_to_anchors is not None:
        page.links_to_anchors = {
            files.get_file_from_path(src_uri): dict(anchors) for src_uri, anchors in rendered.links_to_anchors.items()
        }


def _recorded(page: Page) -> Rendered:
    links = getattr(page, "links_to_anchors", None)
    return Rendered(
        content=page.content or "",
        toc_tokens=[_token(item) for item in page.toc.items],
        title=page._title_from_render,
        anchor_ids=sorted(page.present_anchor_ids or ()),
        links_to_anchors=None if links is None else {file.src_uri: dict(anchors) for file, anchors in links.items()},
    )


def _token(item: AnchorLink) -> dict:
    return {"name": item.title, "id": item.id, "level": item.level, "children": [_token(c) for c in item.children]}


def _digest(config, files) -> str:
    global _build_digest
    if _build_digest is None:
        _build_digest = build_inputs_digest(
            # Names only: MkDocs' validation moved each extension's settings to mdx_configs.
            extensions=config.markdown_extensions,
            extension_configs=config.mdx_configs or {},
            file_urls=[(file.src_uri, file.url) for file in files],
            settings={
                "validation": repr(config.validation),
                "use_directory_urls": config.use_directory_urls,
                "log_level": logging.getLogger("mkdocs").getEffectiveLevel(),
            },
            code_digest=checking_code_digest(),
        )
    return _build_digest


def _page_has_build_fences() -> bool:
    # Figure and calculator fences register files and output while the page converts; such a
    # page is converted afresh. Without hooks/fences.py (the glossary benchmark) there are none.
    build = sys.modules.get("roofline_site.fences.build")
    return build is not None and build.fences_on_current_page() > 0


class _LogRecords(logging.Handler):
    """Notes whether anything was logged (at the level the build logs) while it is installed."""

    def __init__(self) -> None:
        super().__init__(level=logging.DEBUG)
        self.seen = False

    def emit(self, record: logging.LogRecord) -> None:
        self.seen = True

    # MkDocs' own logger does not propagate to the root one (mkdocs/__main__.py): listen on both.
    _LOGGERS = ("", "mkdocs")

    def __enter__(self) -> _LogRecords:
        for name in self._LOGGERS:
            logging.getLogger(name).addHandler(self)
        return self

    def __exit__(self, *exc) -> None:
        for name in self._LOGGERS:
            logging.getLogger(name).removeHandler(self)
