"""Figures of one site build: prepare each page's figure fences, then format them.

Two steps, because ``pymdownx.superfences`` gives its formatters a fence's body but neither the
page nor the line:

1. :meth:`FigureBuild.prepare_page` (called by ``hooks/figures.py`` on each page's Markdown)
   scans the page for figure fences, validates them with file and line, computes their data and
   gets their SVG (from the cache or drawn now). A bad block raises :class:`FigureBlockError`.
2. :func:`format_figure`, the superfences formatter configured in ``mkdocs.yml``, looks the
   prepared figure up by its body and returns the HTML.

MkDocs renders pages one after another (markdown hook, then Markdown conversion), so the build
object holds the figures of the current page only.
"""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pymdownx.superfences import SuperFencesException

from roofline_site.figures.cache import FigureCache
from roofline_site.figures.html import figure_html
from roofline_site.figures.scan import FigureFence, body_key, find_figure_fences
from roofline_site.figures.spec import FigureBlockError, figure_data_for, parse_block

#: Environment variable naming another cache folder (the benchmark uses it for cold builds).
CACHE_DIR_ENV = "ROOFLINE_FIGURES_CACHE_DIR"


class FigureFenceError(SuperFencesException):
    """A figure fence reached the formatter without being prepared: the hook is not installed.

    Subclasses ``SuperFencesException`` because superfences swallows any other exception from a
    formatter and shows the fence as plain code instead: a blank figure must never ship.
    """


@dataclass(frozen=True)
class PreparedFigure:
    data: dict[str, Any]
    svg: str


@dataclass
class FigureBuild:
    """The figures of one build.

    Attributes:
        cache: Where SVGs are kept.
        figures_on_page: Figure fences prepared on the current page.
    """

    cache: FigureCache
    figures_on_page: int = 0
    _prepared: dict[str, PreparedFigure] = field(default_factory=dict)
    _fences: list[tuple[int, str]] = field(default_factory=list)
    _formatted: list[str] = field(default_factory=list)
    _formatted_html: list[str] = field(default_factory=list)

    def prepare_page(self, markdown: str, *, path: str, source: str | None = None) -> int:
        """Validate and draw every figure fence of one page.

        Args:
            markdown: The page's Markdown as MkDocs will convert it (front matter removed).
            path: The page's file as messages should name it (``docs/figures.md``).
            source: The file's full text, front matter included, to report lines as the author
                sees them (``None``: lines are counted in ``markdown``).

        Returns:
            The number of figure fences on the page.

        Raises:
            FigureBlockError: at the first bad block, naming ``path`` and the line.
        """
        self._prepared = {}
        self._fences = []
        self._formatted = []
        self._formatted_html = []
        fences = find_figure_fences(markdown)
        self.figures_on_page = len(fences)
        if not fences:
            return 0
        for fence in _in_source_lines(fences, markdown, source):
            if fence.info:
                raise FigureBlockError(
                    path, fence.line, f"{fence.info!r} after ```figure", "nothing after ```figure: parameters go inside the block, one 'key: value' per line"
                )
            if not fence.closed:
                raise FigureBlockError(path, fence.line, "figure block is never closed", "a closing ``` fence")
            spec = parse_block(fence.body, path=path, fence_line=fence.line)
            data = figure_data_for(spec)
            self._prepared[fence.key] = PreparedFigure(data=data, svg=self.cache.svg(data))
            self._fences.append((fence.line, fence.key))
        return len(fences)

    def check_page(self, html: str, *, path: str) -> None:
        """After the page's Markdown was converted: every figure fence became a figure in ``html``.

        A fence Markdown did not take for one (for example indented into a code block) would
        otherwise ship as code, or as its escaped HTML, instead of the figure.

        Raises:
            FigureBlockError: at the first figure fence whose figure is not in the page.
        """
        in_page = Counter(key for number, key in enumerate(self._formatted, start=1) if f'id="roofline-figure-{number}"' in html)
        seen: Counter[str] = Counter()
        for line, key in self._fences:
            seen[key] += 1
            if seen[key] > in_page[key]:
                raise FigureBlockError(
                    path,
                    line,
                    "figure block did not become a figure (indented into a code block?)",
                    "the fence at the top level or in a list, admonition or content tab",
                )

    def format(self, source: str) -> str:
        """HTML of the prepared figure whose body is ``source``."""
        prepared = self._prepared.get(body_key(source))
        if prepared is None:
            raise FigureFenceError(
                "a figure fence was not prepared; add hooks/figures.py to the hooks in mkdocs.yml "
                f"(fence body: {source.strip()[:80]!r})"
            )
        self._formatted.append(body_key(source))
        html = figure_html(prepared.svg, prepared.data, number=len(self._formatted))
        self._formatted_html.append(html)
        return html

    def formatted_html(self) -> list[str]:
        """The HTML of every figure formatted on the current page, in order: markup the build
        made, which the glossary's sanitiser keeps as it is."""
        return list(self._formatted_html)


def _in_source_lines(fences: list[FigureFence], markdown: str, source: str | None) -> list[FigureFence]:
    """Renumber fences found in ``markdown`` to lines of the file ``source``.

    MkDocs hands hooks the Markdown after the front matter; when it is the tail of the file (the
    usual case) the front matter's lines are added. Otherwise (another hook rewrote the page) a
    fence is matched to the one with the same body in the file.
    """
    if source is None:
        return fences
    if source.endswith(markdown):
        offset = source[: len(source) - len(markdown)].count("\n")
        return [_shifted(f, offset) for f in fences]
    in_source = {}
    for fence in find_figure_fences(source):
        in_source.setdefault(fence.key, fence)
    return [in_source.get(f.key, f) for f in fences]


def _shifted(fence: FigureFence, offset: int) -> FigureFence:
    if not offset:
        return fence
    return FigureFence(
        line=fence.line + offset,
        info=fence.info,
        body=tuple((number + offset, text) for number, text in fence.body),
        closed=fence.closed,
    )


def display_path(*, src_uri: str, abs_src_path: str | None, project_root: Path) -> str:
    """How messages name a page's file: relative to the project (``docs/figures.md``) when the
    file is on disk inside it, else its URI in the site (``glossary/roofline.md``)."""
    if abs_src_path:
        path = Path(abs_src_path).resolve()
        try:
            return path.relative_to(project_root.resolve()).as_posix()
        except ValueError:
            return str(path)
    return src_uri


def cache_dir_for(project_root: Path) -> Path:
    """``.cache/figures`` at the project root, or ``$ROOFLINE_FIGURES_CACHE_DIR``."""
    override = os.environ.get(CACHE_DIR_ENV)
    return Path(override) if override else project_root / ".cache" / "figures"


# --- The build in progress and the superfences formatter ----------------------------------

_build: FigureBuild | None = None


def start_build(cache_dir: Path) -> FigureBuild:
    """Begin a build whose SVGs live in ``cache_dir``; the formatter uses it from now on."""
    global _build
    _build = FigureBuild(cache=FigureCache(directory=cache_dir))
    return _build


def current_build() -> FigureBuild | None:
    return _build


def format_figure(src: str, language: str, class_name: str, options: dict, md: Any, **kwargs: Any) -> str:
    """The ``pymdownx.superfences`` formatter of the ``figure`` fence (see ``mkdocs.yml``)."""
    if _build is None:
        raise FigureFenceError("figure fence outside a site build; add hooks/figures.py to the hooks in mkdocs.yml")
    return _build.format(src)
