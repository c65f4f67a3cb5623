"""The HTML around a figure: the inline SVG with its alt text, a caption, and the numbers.

The SVG is inlined (not an ``<img>``) so the page's CSS variables colour it in either palette.
Screen readers get ``role="img"`` with the alt text as its label; everyone gets a collapsible
table of the plotted numbers under the figure.
"""

from __future__ import annotations

from html import escape
from typing import Any

from roofline_site.figures.theme import ID_PLACEHOLDER


def figure_html(svg: str, data: dict[str, Any], *, number: int) -> str:
    """Wrap a themed SVG (from the cache) and its data in a ``<figure>``.

    Args:
        svg: Output of :func:`roofline_site.figures.theme.theme_svg`.
        data: The figure's data (``title``, ``alt``, ``table``, optional ``caption``).
        number: The figure's place on the page (1, 2, ...): its ids are unique on the page.
    """
    alt = escape(data["alt"], quote=True)
    title = escape(data["title"])
    # Short: the glyph ids are repeated hundreds of times.
    svg = svg.replace(ID_PLACEHOLDER, f"rf{number}-")
    svg = svg.replace(
        'class="roofline-figure__svg">',
        f'class="roofline-figure__svg" role="img" aria-label="{alt}"><title>{title}</title><desc>{alt}</desc>',
        1,
    )
    caption = f"<strong>{title}</strong>"
    if data.get("caption"):
        caption += f" {escape(data['caption'])}"
    return (
        f'<figure class="roofline-figure" id="roofline-figure-{number}" data-figure-kind="{escape(data["kind"], quote=True)}">\n'
        f'<div class="roofline-figure__plot">{svg.strip()}</div>\n'
        f'<figcaption class="roofline-figure__caption">{caption}</figcaption>\n'
        f"{_numbers(data['table'])}"
        "</figure>"
    )


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
