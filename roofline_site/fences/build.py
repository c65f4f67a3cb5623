"""The fences of one site build: prepared per page, formatted by superfences, checked after.

Every fence kind (``figure``, ``calculator``) goes through the same three steps, because
``pymdownx.superfences`` gives its formatters a fence's body but neither the page nor the line:

1. :meth:`FenceBuild.prepare_page`, on a page's Markdown (``on_page_markdown``), finds the
   fences of every kind (:func:`~roofline_site.fences.scan.find_fences`), maps their lines to
   the author's file, rejects fence-level mistakes and lets each kind validate and render its
   fences. Any mistake raises :class:`LocatedError` at the author's line.
2. :func:`format_fence`, the superfences formatter of every kind (``mkdocs.yml``), looks the
   prepared fence up by its body and returns its HTML, or a placeholder for HTML that Markdown
   must never see (the calculators').
3. :meth:`FenceBuild.check_page`, on the page's HTML (``on_page_content``), checks that every
   fence became what it should (a fence indented into a code block is formatted, then turned
   back into code by Markdown) and that nothing of a fence reached the page as code, and gives
   the held-back HTML, which :func:`fill_deferred` puts in place (the site does so once the
   search plugin has read the page; :meth:`FenceBuild.finish_page` does both at once).

MkDocs renders pages one after another (markdown hook, Markdown, content hook), so the build
holds the fences of the current page only.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from html import unescape
from typing import Any, Protocol

from pymdownx.superfences import SuperFencesException

from roofline_site.fences.errors import LocatedError
from roofline_site.fences.lines import source_lines
from roofline_site.fences.scan import Fence, body_key, find_fences

#: The superfences formatter of every kind, as ``mkdocs.yml`` names it.
FORMATTER = "roofline_site.fences.format_fence"


@dataclass(frozen=True)
class PageContext:
    """What a fence kind may know about the page its fences are on.

    Attributes:
        path: The author's file, as messages name it.
        url_to: Site path (``assets/pyodide/``) -> URL relative to this page.
        page_path: This page's site path (``calculators/kv-cache/``).
        link_to: Site path -> the address a reader shares: absolute on the published site
            (from ``site_url``), for links copied out of the page.
    """

    path: str
    url_to: Callable[[str], str]
    page_path: str = ""
    link_to: Callable[[str], str] = lambda site_path: site_path


@dataclass(frozen=True)
class Prepared:
    """A fence ready to be formatted.

    Attributes:
        html: Its HTML.
        marker: Text that is in the page's HTML exactly once if the fence rendered (an ``id``
            attribute of ``html``, or the placeholder itself when ``deferred``).
        deferred: Whether the formatter writes ``marker`` and :func:`fill_deferred`
            replaces it with ``html`` after Markdown (and any hook before) has run.
    """

    html: str
    marker: str
    deferred: bool = False


class FenceKind(Protocol):
    """What the build needs of a fence kind.

    Attributes:
        language: The fence's language, also the name of its superfences custom fence.
        body_keys: Keys a body of this kind begins with (``id``): a code element whose text is
            ``key: value`` lines beginning with one of them is a fence that did not render.
    """

    language: str
    body_keys: tuple[str, ...]

    def prepare(self, fences: Sequence[Fence], page: PageContext) -> list[Prepared]:
        """Validate and render this kind's fences on one page, in document order.

        Raises:
            LocatedError: at the first mistake.
        """
        ...

    def report(self) -> str | None:
        """A line for the build log once the site is built, or ``None``."""
        ...

    def site_files(self) -> dict[str, bytes]:
        """Files this kind's fences link to, by site path, for the build to write (may be empty)."""
        ...


class FenceFormatError(SuperFencesException):
    """The formatter met a fence that no hook prepared.

    Subclasses ``SuperFencesException`` because superfences swallows any other exception from a
    formatter and shows the fence as plain code instead: a blank figure must never ship.
    """


@dataclass(frozen=True)
class _Placed:
    fence: Fence
    prepared: Prepared


class FenceBuild:
    """The fences of one build, page by page.

    Args:
        kinds: One object per fence language.
    """

    def __init__(self, kinds: Sequence[FenceKind]) -> None:
        self.kinds: dict[str, FenceKind] = {kind.language: kind for kind in kinds}
        self._path = ""
        self._placed: list[_Placed] = []
        self._waiting: dict[tuple[str, str], deque[int]] = {}
        self._inserted: list[str] = []

    def prepare_page(
        self,
        markdown: str,
        *,
        path: str,
        source: str | None = None,
        url_to: Callable[[str], str] = lambda site_path: site_path,
        page_path: str = "",
        link_to: Callable[[str], str] = lambda site_path: site_path,
    ) -> int:
        """Find, validate and render every fence of one page.

        Args:
            markdown: The page's Markdown as Markdown will convert it.
            path: The author's file as messages name it.
            source: The author's file's full text, to report lines as the author sees them
                (``None``: lines are counted in ``markdown``).
            url_to: Site path -> URL relative to the page.
            page_path: The page's site path.
            link_to: Site path -> absolute URL on the published site.

        Returns:
            The number of fences found.

        Raises:
            LocatedError: at the first mistake, at the author's line.
        """
        self._path = path
        self._placed = []
        self._waiting = {}
        self._inserted = []
        fences = find_fences(markdown, self.kinds)
        if source is not None and fences:
            line_of = source_lines(markdown, source)
            fences = [fence.relocated(line_of) for fence in fences]
        for fence in fences:
            _check_opening_and_closing(fence, path)
        page = PageContext(path=path, url_to=url_to, page_path=page_path, link_to=link_to)
        placed: list[_Placed] = []
        for language, kind in self.kinds.items():
            own = [fence for fence in fences if fence.language == language]
            if own:
                placed += [_Placed(f, p) for f, p in zip(own, kind.prepare(own, page), strict=True)]
        # Document order: superfences formats fences in that order.
        self._placed = sorted(placed, key=lambda item: item.fence.line)
        for number, item in enumerate(self._placed):
            self._waiting.setdefault((item.fence.language, item.fence.key), deque()).append(number)
        return len(fences)

    def format(self, language: str, source: str) -> str:
        """What superfences puts in the page for the fence of ``language`` whose body is ``source``.

        Raises:
            FenceFormatError: if the fence was not prepared.
        """
        waiting = self._waiting.get((language, body_key(source)))
        if not waiting:
            raise FenceFormatError(
                f"{self._path or 'a page'}: a {language} fence was not prepared (body {source.strip()[:80]!r}); "
                "expected hooks/fences.py in the hooks of mkdocs.yml"
            )
        prepared = self._placed[waiting.popleft()].prepared
        if prepared.deferred:
            return prepared.marker
        self._inserted.append(prepared.html)
        return prepared.html

    def fences_on_page(self) -> int:
        """How many fences the page last prepared has."""
        return len(self._placed)

    def inserted_html(self) -> list[str]:
        """HTML the formatter put into the current page itself (not deferred), in document order:
        build output that a sanitiser of the page's HTML must keep as it is."""
        return list(self._inserted)

    def finish_page(self, html: str, *, path: str) -> str:
        """After Markdown: check every fence of the page rendered, then fill in deferred HTML.

        Raises:
            LocatedError: as :meth:`check_page`.
        """
        return fill_deferred(html, self.check_page(html, path=path))

    def check_page(self, html: str, *, path: str) -> tuple[tuple[str, str], ...]:
        """After Markdown: check every fence of the page rendered; return the deferred HTML to put
        in place, ``(marker, html)`` pairs for :func:`fill_deferred`, which may run later (the site
        build fills it in once the search plugin has read the page: hooks/fences.py).

        Raises:
            LocatedError: at a fence that did not become what it should, or (without a line) when
                a fence of a known language reached the page as code.
        """
        for item in self._placed:
            count = html.count(item.prepared.marker)
            language = item.fence.language
            if count == 0:
                raise LocatedError(
                    path,
                    item.fence.line,
                    f"{language} block did not become a {language} (indented into a code block?)",
                    "the fence at the top level or in a list, block quote, admonition or content tab",
                )
            if count > 1:
                raise LocatedError(
                    path,
                    item.fence.line,
                    f"the page holds {count} copies of this {language}'s marker {item.prepared.marker!r}",
                    "only the build to write it, once",
                )
        _refuse_fences_shown_as_code(html, path, self.kinds.values())
        return tuple((item.prepared.marker, item.prepared.html) for item in self._placed if item.prepared.deferred)

    def reports(self) -> list[str]:
        """Each kind's line for the build log."""
        return [line for kind in self.kinds.values() if (line := kind.report())]

    def site_files(self) -> dict[str, bytes]:
        """The files every kind's fences link to, by site path."""
        return {path: data for kind in self.kinds.values() for path, data in kind.site_files().items()}


def fill_deferred(html: str, deferred: Iterable[tuple[str, str]]) -> str:
    """Put each deferred fence's HTML in place of its marker (:meth:`FenceBuild.check_page`)."""
    for marker, fence_html in deferred:
        html = html.replace(marker, fence_html, 1)
    return html


def _check_opening_and_closing(fence: Fence, path: str) -> None:
    opening = fence.fence + fence.language
    if fence.info:
        raise LocatedError(
            path,
            fence.line,
            f"{fence.info!r} after {opening}",
            f"nothing after {opening}: parameters go inside the block, one 'key: value' per line",
        )
    if not fence.closed:
        raise LocatedError(
            path,
            fence.line,
            f"{fence.language} block is never closed",
            f"a closing {fence.fence} fence, indented like the opening one",
        )


_CODE_ELEMENT = re.compile(r"<(?P<tag>pre|code)\b[^>]*>(?P<inner>.*?)</(?P=tag)>", re.DOTALL | re.IGNORECASE)
_CLASS_ATTRIBUTE = re.compile(r"""\bclass\s*=\s*(?:"([^"]*)"|'([^']*)')""", re.IGNORECASE)
_TAG = re.compile(r"<[^>]*>")
_KEY_VALUE_LINES = r"[ \t]*:[^\n]*(?:\n[ \t]*(?:[\w-]+[ \t]*:[^\n]*)?)*"


def _refuse_fences_shown_as_code(html: str, path: str, kinds: Iterable[FenceKind]) -> None:
    """Fail when a code element holds a fence of a known language: its class says so
    (``language-calculator``), or, unless its class names another language, a code block's text
    is a fence body (``id: kv-cache``, as highlighters show a fence whose custom fence is
    missing) or an inline code span's text is the language and a body (an unrendered fence read
    as a span)."""
    for match in _CODE_ELEMENT.finditer(html):
        # The classes of the element and of any inside (``<pre><code class="language-x">``).
        classes = {
            name for found in _CLASS_ATTRIBUTE.finditer(match.group(0)) for name in (found[1] or found[2] or "").split()
        }
        text = unescape(_TAG.sub("", match.group("inner"))).strip()
        block = match.group("tag").lower() == "pre"
        for kind in kinds:
            keys = "|".join(re.escape(key) for key in kind.body_keys)
            body = rf"(?:{keys}){_KEY_VALUE_LINES}"
            shape = body if block else rf"{re.escape(kind.language)}\s+{body}"
            other_language = any(c.startswith("language-") and c != f"language-{kind.language}" for c in classes)
            if f"language-{kind.language}" in classes or (not other_language and re.fullmatch(shape, text)):
                shown = " / ".join(line.strip() for line in text.splitlines()[:2])
                raise LocatedError(
                    path,
                    None,
                    f"a {kind.language} fence reached the page as code ({shown!r})",
                    f"every {kind.language} fence to render: a fence of its own, "
                    "not inside an indented code block or inline code",
                )


def require_custom_fences(mdx_configs: Mapping[str, Any], languages: Sequence[str], *, config_path: str) -> None:
    """Check that ``pymdownx.superfences`` formats every fence language with :func:`format_fence`.

    Without its custom fence a language's fences would ship as plain code blocks.

    Raises:
        LocatedError: naming ``config_path`` and the first language missing.
    """
    configured = {
        fence.get("name")
        for fence in mdx_configs.get("pymdownx.superfences", {}).get("custom_fences", [])
        if fence.get("format") is format_fence
    }
    for language in languages:
        if language not in configured:
            raise LocatedError(
                config_path,
                None,
                f"pymdownx.superfences has no '{language}' custom fence",
                f"under markdown_extensions: '- pymdownx.superfences: custom_fences: "
                f"[{{name: {language}, class: roofline-{language}, format: !!python/name:{FORMATTER}}}]'",
            )


# --- The build in progress and the superfences formatter ----------------------------------

_build: FenceBuild | None = None


def start_build(kinds: Sequence[FenceKind]) -> FenceBuild:
    """Begin a build with these fence kinds; the formatter uses it from now on."""
    global _build
    _build = FenceBuild(kinds)
    return _build


def fences_on_current_page() -> int:
    """Fences of the page being built (0 when no build was started: no fence can be formatted)."""
    return 0 if _build is None else _build.fences_on_page()


def current_build() -> FenceBuild:
    """The build in progress.

    Raises:
        FenceFormatError: when no build was started (hooks/fences.py is not installed).
    """
    if _build is None:
        raise FenceFormatError("fence outside a site build; expected hooks/fences.py in the hooks of mkdocs.yml")
    return _build


def inserted_html() -> list[str]:
    """HTML the fence formatters put into the page being rendered (figures), in document order,
    or ``[]`` when no fence build is running: build output a sanitiser must keep as it is.

    Calculators are not in it: their HTML goes in after every other page hook (``deferred``),
    through a placeholder ``<div class="roofline-calculator-slot" data-slot="N"></div>``.
    """
    return _build.inserted_html() if _build is not None else []


def format_fence(src: str, language: str, class_name: str, options: dict, md: Any, **kwargs: Any) -> str:
    """The ``pymdownx.superfences`` formatter of every fence kind (see ``mkdocs.yml``)."""
    return current_build().format(language, src)
