"""Link-preview cards: a 1200 x 630 PNG per page (title, summary, kind of page), for ``og:image``.

Chats and blogs unfurl a shared link with the picture its page names in ``og:image``; they want
a raster image (most refuse SVG), so the build draws one with matplotlib's Agg backend. Output
is deterministic (no date or software version in the PNG), and cached on disk by everything it
depends on (:func:`card_key`), so a warm build draws nothing.

Titles and summaries are contributors' text, drawn as plain text: matplotlib would otherwise read
``$...$`` as mathtext ("$2 to $4" drawn as "2to4", a malformed expression stopping the build).
"""

from __future__ import annotations

import functools
import hashlib
import io
import textwrap
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING

from roofline_site.atomic_write import write_atomic
from roofline_site.node_artifacts import input_key

if TYPE_CHECKING:
    from matplotlib.figure import Figure

#: Pixels of the card: the size Open Graph and Twitter's large-summary cards expect.
WIDTH_PX, HEIGHT_PX = 1200, 630
_DPI = 100
#: Material's indigo (the site's primary colour) and white text.
_BACKGROUND = "#3f51b5"
_TEXT = "#ffffff"
_MUTED = "#c5cae9"


#: What draws a card besides its texts: this module (layout, colours, sizes) and the packages
#: that rasterise it (matplotlib with its bundled fonts, Pillow writing the PNG).
_DRAWING_PACKAGES = ("matplotlib", "pillow")


@functools.cache
def drawing_digest() -> str:
    """Hex digest of what draws every card: this module's code and the drawing packages'
    versions. Worked out once per process: asking the package metadata for each of a build's
    hundred-odd cards cost 0.8 s of every warm build."""
    versions = ",".join(f"{name}={metadata.version(name)}" for name in _DRAWING_PACKAGES)
    return hashlib.sha256(Path(__file__).read_bytes() + b"\0" + versions.encode()).hexdigest()


def card_key(title: str, summary: str, kind: str, *, site_name: str) -> str:
    """Hex key of a card: every text drawn on it and :func:`drawing_digest`."""
    parts = (drawing_digest().encode(), *(text.encode() for text in (title, summary, kind, site_name)))
    # Shared by every build of this checkout (fixture sites too): a card depends only on its texts
    # and the drawing code, never on the site being built.
    return input_key(parts, shared=True)[:24]


def card_figure(title: str, summary: str, kind: str, *, site_name: str) -> Figure:
    """The card as a matplotlib figure, every text on it plain (no mathtext)."""
    # Imported here: a warm build (every card cached) never loads matplotlib.
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(WIDTH_PX / _DPI, HEIGHT_PX / _DPI), dpi=_DPI, facecolor=_BACKGROUND)
    FigureCanvasAgg(figure)
    # parse_math=False: a "$" in a contributor's text is a dollar sign, not the start of TeX.
    plain = {"va": "top", "parse_math": False, "usetex": False}
    figure.text(0.06, 0.86, f"{site_name} · {kind}", color=_MUTED, fontsize=24, **plain)
    title_lines = textwrap.wrap(title, width=32)[:2]
    figure.text(
        0.06, 0.72, "\n".join(title_lines), color=_TEXT, fontsize=56, fontweight="bold", linespacing=1.1, **plain
    )
    summary_top = 0.72 - 0.12 * len(title_lines) - 0.08
    wrapped = textwrap.wrap(summary, width=50)
    summary_lines = wrapped[:4]
    if len(wrapped) > 4:
        summary_lines[-1] = summary_lines[-1].rstrip(".,;: ") + "…"
    figure.text(0.06, summary_top, "\n".join(summary_lines), color=_TEXT, fontsize=28, linespacing=1.3, **plain)
    return figure


def draw_card(title: str, summary: str, kind: str, *, site_name: str) -> bytes:
    """The card's PNG bytes."""
    figure = card_figure(title, summary, kind, site_name=site_name)
    out = io.BytesIO()
    # No date or software version in the file: the same texts give the same bytes.
    figure.savefig(out, format="png", dpi=_DPI, facecolor=_BACKGROUND, metadata={"Software": None})
    return out.getvalue()


def cached_card_file(title: str, summary: str, kind: str, *, site_name: str, cache_dir: Path) -> Path:
    """The card's file in ``cache_dir``, drawn now and kept there (written atomically) if missing.

    A path, not bytes: the build copies it into the site with the kernel's file copy, and a
    hundred cards read and written through Python cost a tenth of a second per build.
    """
    path = cache_dir / f"{card_key(title, summary, kind, site_name=site_name)}.png"
    if path.is_file():
        return path
    write_atomic(path, draw_card(title, summary, kind, site_name=site_name))
    return path


def scenario_card_figure(title: str, results: list[tuple[str, str]], inputs: str, *, site_name: str) -> Figure:
    """A calculator scenario's card: the calculator, its first headline result large, a second
    one smaller, and the inputs the link sets (:mod:`roofline_site.scenario_cards`)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(WIDTH_PX / _DPI, HEIGHT_PX / _DPI), dpi=_DPI, facecolor=_BACKGROUND)
    FigureCanvasAgg(figure)
    plain = {"va": "top", "parse_math": False, "usetex": False}
    figure.text(0.06, 0.90, f"{site_name} · {_one_line(title, 48)}", color=_MUTED, fontsize=26, **plain)
    top = 0.76
    for index, (label, text) in enumerate(results[:2]):
        figure.text(0.06, top, _one_line(label, 56), color=_MUTED, fontsize=24, **plain)
        # The first result large when it is a short number ("4.64 ms"), smaller when a sentence.
        size, lines = (60, 1) if index == 0 and len(text) <= _chars(60) else (40, 2) if index == 0 else (34, 1)
        wrapped = _lines(text, _chars(size), lines)
        bold = {"color": _TEXT, "fontsize": size, "fontweight": "bold", "linespacing": 1.1}
        figure.text(0.06, top - 0.06, "\n".join(wrapped), **bold, **plain)
        top -= 0.06 + size / 500 * len(wrapped) + 0.06
    figure.text(0.06, 0.17, "\n".join(_lines(inputs, 56, 2)), color=_TEXT, fontsize=24, linespacing=1.3, **plain)
    return figure


def _chars(size: float) -> int:
    """Characters of bold text at ``size`` points that fit the card's 1080-pixel text width:
    DejaVu Sans Bold averages about 0.62 em per character."""
    return int(0.9 * WIDTH_PX / (0.62 * size * _DPI / 72))


def _lines(text: str, width: int, count: int) -> list[str]:
    wrapped = textwrap.wrap(text, width=width) or [""]
    kept = wrapped[:count]
    if len(wrapped) > count:
        kept[-1] = kept[-1].rstrip(".,;: ") + "…"
    return kept


def _one_line(text: str, width: int) -> str:
    return _lines(text, width, 1)[0]


def cached_scenario_card_file(
    title: str, results: list[tuple[str, str]], inputs: str, *, site_name: str, cache_dir: Path
) -> Path:
    """The scenario card's file in ``cache_dir``, drawn now if missing (as :func:`cached_card_file`)."""
    texts = ["scenario", title, inputs, site_name, *(part for result in results for part in result)]
    key = input_key([drawing_digest().encode(), *(text.encode() for text in texts)], shared=True)[:24]
    path = cache_dir / f"scenario.{key}.png"
    if path.is_file():
        return path
    figure = scenario_card_figure(title, results, inputs, site_name=site_name)
    out = io.BytesIO()
    figure.savefig(out, format="png", dpi=_DPI, facecolor=_BACKGROUND, metadata={"Software": None})
    write_atomic(path, out.getvalue())
    return path
