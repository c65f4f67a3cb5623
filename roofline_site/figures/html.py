"""The HTML around a figure: the drawing with its alt text, a caption, and the numbers.

The drawing is a content-hashed SVG file of its own (:func:`svg_file`), so a figure below the
fold costs nothing at first paint and the same drawing is downloaded once for every page that
shows it. The page holds an ``<img>`` of it (lazy, with its size, so nothing moves when it
arrives); ``site_assets/figures/inline-svg.mjs`` replaces the image with the SVG itself, fetched as
it nears the viewport, so the page's CSS variables colour it in either palette (an image cannot
read them). Without JavaScript the image shows the light palette. Screen readers get the alt
text (on the image, then as the SVG's ``role="img"`` label); everyone gets a collapsible table
of the plotted numbers under the figure.
"""

from __future__ import annotations

import hashlib
import re
from html import escape
from typing import Any

from roofline_site.downloads import download_bar, download_button, download_link
from roofline_site.figures.theme import ID_PLACEHOLDER

#: Where the figures' SVG files go in the site.
FIGURES_DIR = "assets/roofline/figures/svg/"
#: The ids' prefix in an SVG file; the browser makes it unique on the page (``rf1-``, ``rf2-``).
FILE_ID_PREFIX = "rfid-"

_VIEWBOX = re.compile(r'viewBox="[-\d.]+ [-\d.]+ ([\d.]+) ([\d.]+)"')


def svg_file(svg: str) -> tuple[str, bytes]:
    """The file of a themed SVG (from the cache): its name (a hash of its content) and bytes."""
    data = svg.replace(ID_PLACEHOLDER, FILE_ID_PREFIX).strip().encode("utf-8")
    # "figure.<hash>.svg": the hashed-name pattern hosts and the service worker cache for good.
    return f"figure.{hashlib.sha256(data).hexdigest()[:16]}.svg", data


def figure_html(svg: str, data: dict[str, Any], *, number: int, src: str, csv_src: str | None = None) -> str:
    """Wrap a themed SVG's file and its data in a ``<figure>``.

    Args:
        svg: Output of :func:`roofline_site.figures.theme.theme_svg` (for its size).
        data: The figure's data (``title``, ``alt``, ``table``, optional ``caption``).
        number: The figure's place on the page (1, 2, ...): its ids are unique on the page.
        src: The URL of its :func:`svg_file`, relative to the page.
        csv_src: The URL of its numbers' CSV file (``roofline_core.view.figure_csv``), relative
            to the page; with it, the figure offers its SVG, PNG and CSV as downloads.
    """
    alt = escape(data["alt"], quote=True)
    title = escape(data["title"])
    size = _VIEWBOX.search(svg)
    if size is None:
        raise ValueError("a themed figure SVG has a viewBox; this one has none")
    width, height = (round(float(v)) for v in size.groups())
    caption = f"<strong>{title}</strong>"
    if data.get("caption"):
        caption += f" {escape(data['caption'])}"
    plot = (
        f'<div class="roofline-figure__plot" data-svg-id-prefix="rf{number}-" data-svg-title="{title}">'
        f'<img class="roofline-figure__img" src="{escape(src, quote=True)}" alt="{alt}" width="{width}"'
        f' height="{height}" loading="lazy" decoding="async"></div>'
    )
    return (
        f'<figure class="roofline-figure" id="roofline-figure-{number}" data-figure-kind="{escape(data["kind"], quote=True)}">\n'
        f"{plot}\n"
        f'<figcaption class="roofline-figure__caption">{caption}</figcaption>\n'
        f"{_downloads(data, src, csv_src) if csv_src else ''}"
        f"{_numbers(data['table'])}"
        "</figure>"
    )


def _downloads(data: dict[str, Any], src: str, csv_src: str) -> str:
    # The SVG is the file the image shows (light palette, self-contained); the PNG is drawn from
    # it by site_assets/downloads.mjs; the CSV holds the plotted numbers in SI units.
    stem = data["kind"]
    links = [
        download_link(
            src, filename=f"{stem}.svg", label="Download SVG", name="Download SVG of the figure", kind="figure-svg"
        ),
        download_button(label="Download PNG", name="Download PNG of the figure", kind="figure-png"),
        download_link(
            csv_src,
            filename=f"{stem}.csv",
            label="Download CSV",
            name="Download CSV of the figure's numbers",
            kind="figure-csv",
        ),
    ]
    return download_bar(links, name=f"{data['title']}: downloads") + "\n"


def _numbers(table: dict[str, Any]) -> str:
    # "abstract" picks Material's clipboard icon for the collapsible (pymdownx.details styles).
    head = "".join(f"<th>{escape(c)}</th>" for c in table["columns"])
    rows = "".join("<tr>" + "".join(f"<td>{escape(cell)}</td>" for cell in row) + "</tr>\n" for row in table["rows"])
    return (
        '<details class="abstract roofline-figure__numbers">\n'
        "<summary>Plotted numbers</summary>\n"
        f"<table>\n<thead><tr>{head}</tr></thead>\n<tbody>\n{rows}</tbody>\n</table>\n"
        "</details>\n"
    )
