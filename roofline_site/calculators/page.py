"""The ``calculator`` fence kind: a page's calculator fences resolved and rendered.

``roofline_site.fences`` finds the fences and their lines; this module turns those of one page
into calculator HTML. Python-Markdown must not touch that HTML (it is large, and holds inline
JSON and SVG), so the formatter writes a one-line placeholder ``<div>`` per fence and the
rendered HTML replaces it once the page's HTML is complete (``Prepared.deferred``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import ClassVar

from roofline_site import scenario_cards
from roofline_site.calculators.assets import PyodideSiteAssets, build_assets
from roofline_site.calculators.embed import EMBED_DIR, FULL_PAGE_DIR
from roofline_site.calculators.fence import FENCE_LANGUAGE, KNOWN_KEYS, FenceError, Placement, parse_placement
from roofline_site.calculators.later import FRAGMENTS_DIR, fragment_file, summary_html
from roofline_site.calculators.placement import resolve
from roofline_site.calculators.render import AssetUrls, csv_files, render_calculator, view_for
from roofline_site.calculators.render_cache import RenderCache, Rendered
from roofline_site.calculators.runtime_manifest import stamp
from roofline_site.fences import Fence, PageContext, Prepared
from roofline_site.wheel import current_install_comment

SLOT = '<div class="roofline-calculator-slot" data-slot="{number}"></div>'

#: Most calculator fences one page may hold. The site's pages hold one; each costs a compute and
#: tens of kilobytes of HTML, so a page of hundreds would stall the build (and the reader).
MAX_CALCULATOR_FENCES_PER_PAGE = 16
#: Most characters of ``defaults:`` values one page may hold, all fences together: what a
#: calculator's work grows with (a pasted benchmark or config is read whole). The site's
#: longest line is under 80; this leaves room for two pastes at their 20,000-character cap.
MAX_DEFAULTS_CHARS_PER_PAGE = 40_000


def check_page_budget(placements: Sequence[Placement], *, path: str) -> None:
    """Refuse a page whose calculator fences would cost too much, before any is computed.

    Raises:
        FenceError: at the first fence past the count, or the ``defaults:`` line that passes
            the characters allowed.
    """
    if len(placements) > MAX_CALCULATOR_FENCES_PER_PAGE:
        raise FenceError(
            path,
            placements[MAX_CALCULATOR_FENCES_PER_PAGE].line,
            f"the page has {len(placements)} calculator fences",
            f"at most {MAX_CALCULATOR_FENCES_PER_PAGE} per page (split it into pages)",
        )
    total_chars = 0
    for placement in placements:
        total_chars += sum(len(value) for value in placement.defaults.values())
        if total_chars > MAX_DEFAULTS_CHARS_PER_PAGE:
            raise FenceError(
                path,
                placement.defaults_line,
                f"the page's calculator defaults reach {total_chars:,} characters here",
                f"at most {MAX_DEFAULTS_CHARS_PER_PAGE:,} on a page (link to a file instead of pasting it)",
            )


@dataclass
class CalculatorFences:
    """The calculator fences of one build.

    Attributes:
        assets: Gives the build's Pyodide assets (their site paths go into each calculator).
        files: Each term page calculator's own file (:mod:`.later`) and each calculator's CSV
            files (its table's and chart's at the page's scenario), by site path.
        cache: Renderings kept between builds (:mod:`.render_cache`); none by default.
    """

    assets: Callable[[], PyodideSiteAssets] = build_assets
    files: dict[str, bytes] = field(default_factory=dict)
    cache: RenderCache = field(default_factory=lambda: RenderCache(None))
    language: ClassVar[str] = FENCE_LANGUAGE
    body_keys: ClassVar[tuple[str, ...]] = KNOWN_KEYS

    def prepare(self, fences: Sequence[Fence], page: PageContext) -> list[Prepared]:
        """Each calculator fence of a page, resolved at its defaults and rendered.

        The first calculator of an id gets the DOM id ``calculator-<id>``, later ones
        ``calculator-<id>-2``, ``-3``, ...

        Raises:
            FenceError: for any fence that cannot be placed (file and line in the message).
        """
        seen: Counter[str] = Counter()
        prepared = []
        # Every fence is read first, so a page over budget stops before any is computed.
        placements = [parse_placement(fence, path=page.path) for fence in fences]
        check_page_budget(placements, path=page.path)
        for number, (fence, placement) in enumerate(zip(fences, placements, strict=True)):
            seen[placement.calculator_id] += 1
            count = seen[placement.calculator_id]
            dom_id = f"calculator-{placement.calculator_id}" + (f"-{count}" if count > 1 else "")
            urls = self._urls(placement.calculator_id, fence, page)
            key = self.cache.key(body=fence.key, dom_id=dom_id, urls=asdict(urls), page_path=page.page_path)
            rendered = self.cache.get(key)
            if rendered is None:
                rendered = _render(placement, page, dom_id=dom_id, urls=urls)
                self.cache.put(key, rendered)
            if rendered.fragment is not None:
                name, data = rendered.fragment
                self.files[FRAGMENTS_DIR + name] = data
            self.files.update(rendered.files)
            # The cached rendering holds the token's slot; this build's token goes in here.
            html = stamp(rendered.html, self.assets().build_token)
            prepared.append(Prepared(html=html, marker=SLOT.format(number=number), deferred=True))
        return prepared

    def report(self) -> None:
        return None

    def site_files(self) -> dict[str, bytes]:
        # The term pages' calculators; the Pyodide assets are hooks/pyodide_assets.py's to write.
        return dict(self.files)

    def _urls(self, calculator_id: str, fence: Fence, page: PageContext) -> AssetUrls:
        try:
            self.assets()
        except LookupError:
            raise FenceError(
                page.path,
                fence.line,
                "a calculator needs the self-hosted Pyodide, which no hook prepared",
                "hooks/pyodide_assets.py in the hooks of mkdocs.yml",
            ) from None
        embed = f"{EMBED_DIR}/{calculator_id}/"
        # An embed page shares its full page: a reader who copies the link wants the site.
        shared = f"{FULL_PAGE_DIR}/{calculator_id}/" if page.page_path.startswith(f"{EMBED_DIR}/") else page.page_path
        return AssetUrls(
            embed=page.url_to(embed),
            glossary=page.url_to("glossary/"),
            share_page=page.link_to(shared),
            share_embed=page.link_to(embed),
            own_term=_term_of_page(page.page_path),
            on_embed_page=page.page_path.startswith(f"{EMBED_DIR}/"),
            install=current_install_comment(),
            # Scenario previews (a card with the result) replace a link to the calculator's page only.
            previews=scenario_cards.share_previews(scenario_cards.current(), calculator_id, link_to=page.link_to)
            if shared == f"{FULL_PAGE_DIR}/{calculator_id}/"
            else (),
        )


def _render(placement: Placement, page: PageContext, *, dom_id: str, urls: AssetUrls) -> Rendered:
    """A calculator fence resolved at its inputs and laid out; on a term page, a summary and the
    calculator as a file of its own, fetched as the reader nears it (:mod:`.later`).

    Raises:
        FenceError: if the fence's inputs do not resolve (file and line in the message).
    """
    resolved = resolve(placement, path=page.path)
    view = view_for(resolved, dom_id=dom_id, assets=urls)
    files = csv_files(placement.calculator_id, view)
    downloads = {kind: page.url_to(path) for kind, (path, _data) in files.items()}
    html = render_calculator(resolved, dom_id=dom_id, assets=urls, view=view, downloads=downloads)
    written = tuple(files.values())
    if not _term_of_page(page.page_path):
        return Rendered(html, files=written)
    name, data = fragment_file(html, dom_id=dom_id)
    summary = summary_html(
        resolved,
        view=view,
        dom_id=dom_id,
        assets=urls,
        src=page.url_to(FRAGMENTS_DIR + name),
        full_page=page.url_to(f"{FULL_PAGE_DIR}/{placement.calculator_id}/"),
    )
    return Rendered(summary, fragment=(name, data), files=written)


def _term_of_page(page_path: str) -> str:
    """The glossary term a page is about (``glossary/<slug>/``), or ``""`` for other pages."""
    parts = page_path.strip("/").split("/")
    return parts[1] if len(parts) == 2 and parts[0] == "glossary" and parts[1] != "category" else ""
