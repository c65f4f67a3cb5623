"""The ``figure`` fence kind: a page's figure fences validated, computed and drawn.

``roofline_site.fences`` finds the fences and their lines and formats them; this module only
turns the fences of one page into figure HTML: each body is parsed and validated
(:mod:`.spec`), its data computed by ``roofline_core.figures`` and its SVG taken from the cache
or drawn. Every block of the page is validated before anything is drawn, so a mistake costs no
drawing.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

from roofline_core.version import data_version
from roofline_core.view import figure_csv
from roofline_site.downloads import data_file
from roofline_site.fences import Fence, PageContext, Prepared
from roofline_site.figures.cache import FigureCache
from roofline_site.figures.html import FIGURES_DIR, figure_html, svg_file
from roofline_site.figures.spec import figure_data_for, parse_block

#: Environment variable naming another cache folder (the benchmark uses it for cold builds).
CACHE_DIR_ENV = "ROOFLINE_FIGURES_CACHE_DIR"


@dataclass
class FigureFences:
    """The figure fences of one build.

    Attributes:
        cache: Where SVGs are kept.
        files: Each drawn figure's SVG file and its numbers' CSV file, by site path, for the
            build to write.
    """

    cache: FigureCache
    files: dict[str, bytes] = field(default_factory=dict)
    language: ClassVar[str] = "figure"
    body_keys: ClassVar[tuple[str, ...]] = ("kind",)

    def prepare(self, fences: Sequence[Fence], page: PageContext) -> list[Prepared]:
        """The HTML of each figure fence of a page, numbered 1, 2, ... in document order.

        Raises:
            FigureBlockError: at the first bad block, naming ``page.path`` and the line.
        """
        specs = [parse_block(fence.body, path=page.path, fence_line=fence.line) for fence in fences]
        data = [figure_data_for(spec) for spec in specs]
        prepared = []
        for number, one in enumerate(data, start=1):
            svg = self.cache.svg(one)
            name, file_bytes = svg_file(svg)
            self.files[FIGURES_DIR + name] = file_bytes
            csv_path, csv_bytes = data_file(f"{one['kind']}-figure", figure_csv(one, data_version=data_version()))
            self.files[csv_path] = csv_bytes
            html = figure_html(
                svg, one, number=number, src=page.url_to(FIGURES_DIR + name), csv_src=page.url_to(csv_path)
            )
            prepared.append(Prepared(html=html, marker=f'id="roofline-figure-{number}"'))
        return prepared

    def report(self) -> str:
        return f"figures: {self.cache.drawn} drawn, {self.cache.hits} from the cache in {self.cache.directory}"

    def site_files(self) -> dict[str, bytes]:
        return dict(self.files)


def cache_dir_for(project_root: Path) -> Path:
    """``.cache/figures`` at the project root, or ``$ROOFLINE_FIGURES_CACHE_DIR``."""
    override = os.environ.get(CACHE_DIR_ENV)
    return Path(override) if override else project_root / ".cache" / "figures"
