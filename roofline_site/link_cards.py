"""Link-preview cards: a 1200 x 630 PNG per page (title, summary, kind of page), for ``og:image``.

Chats and blogs unfurl a shared link with the picture its page names in ``og:image``; they want
a raster image (most refuse SVG), so the build draws one with matplotlib's Agg backend. Output
is deterministic (no date or software version in the PNG), and cached on disk by the card's
text and this module's code, so a warm build draws nothing.
"""

from __future__ import annotations

import hashlib
import io
import textwrap
from pathlib import Path

from roofline_site.atomic_write import write_atomic

#: Pixels of the card: the size Open Graph and Twitter's large-summary cards expect.
WIDTH_PX, HEIGHT_PX = 1200, 630
_DPI = 100
#: Material's indigo (the site's primary colour) and white text.
_BACKGROUND = "#3f51b5"
_TEXT = "#ffffff"
_MUTED = "#c5cae9"


def card_key(title: str, summary: str, kind: str) -> str:
    """Hex key of a card: its texts and this module's code."""
    digest = hashlib.sha256(Path(__file__).read_bytes())
    digest.update("\0".join((title, summary, kind)).encode())
    return digest.hexdigest()[:24]


def draw_card(title: str, summary: str, kind: str, *, site_name: str) -> bytes:
    """The card's PNG bytes."""
    # Imported here: a warm build (every card cached) never loads matplotlib.
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(WIDTH_PX / _DPI, HEIGHT_PX / _DPI), dpi=_DPI, facecolor=_BACKGROUND)
    FigureCanvasAgg(figure)
    figure.text(0.06, 0.86, f"{site_name} · {kind}", color=_MUTED, fontsize=24, va="top")
    title_lines = textwrap.wrap(title, width=32)[:2]
    figure.text(
        0.06, 0.72, "\n".join(title_lines), color=_TEXT, fontsize=56, fontweight="bold", va="top", linespacing=1.1
    )
    summary_top = 0.72 - 0.12 * len(title_lines) - 0.08
    wrapped = textwrap.wrap(summary, width=50)
    summary_lines = wrapped[:4]
    if len(wrapped) > 4:
        summary_lines[-1] = summary_lines[-1].rstrip(".,;: ") + "…"
    figure.text(0.06, summary_top, "\n".join(summary_lines), color=_TEXT, fontsize=28, va="top", linespacing=1.3)
    out = io.BytesIO()
    # No date or software version in the file: the same texts give the same bytes.
    figure.savefig(out, format="png", dpi=_DPI, facecolor=_BACKGROUND, metadata={"Software": None})
    return out.getvalue()


def cached_card_file(title: str, summary: str, kind: str, *, site_name: str, cache_dir: Path) -> Path:
    """The card's file in ``cache_dir``, drawn now and kept there (written atomically) if missing.

    A path, not bytes: the build copies it into the site with the kernel's file copy, and a
    hundred cards read and written through Python cost a tenth of a second per build.
    """
    path = cache_dir / f"{card_key(title, summary, kind)}.png"
    if path.is_file():
        return path
    write_atomic(path, draw_card(title, summary, kind, site_name=site_name))
    return path
