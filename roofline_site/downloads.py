"""Download links for data a page shows: the files the build writes and the buttons beside them.

The CSV text comes from ``roofline_core.view.downloads`` (a calculator's table and chart at the
page's scenario, a figure's panels); this module names each file by its content, so a host and
the offline worker keep it for good (:mod:`roofline_site.offline_manifest`), and writes the
links. Every link is a real ``<a download>`` to a file of the site, so it works without
JavaScript; ``site_assets/downloads.mjs`` points a calculator's links at the live result's text
when the reader changes the scenario, and adds the PNG (and a live chart's SVG), which only a
browser can draw.
"""

from __future__ import annotations

import hashlib
import re
from html import escape

#: Where the CSV files of calculators and figures go in the site.
DATA_DIR = "assets/roofline/data/"
#: Hex digits of the SHA-256 in a file's name (as the figures' SVG files).
NAME_DIGITS = 16
_STEM = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


def data_file(stem: str, text: str, *, suffix: str = "csv") -> tuple[str, bytes]:
    """``(site path, bytes)`` of a data file: ``assets/roofline/data/<stem>.<hash>.<suffix>``.

    Raises:
        ValueError: for a stem that is not lower-case words joined by hyphens (it is a file name).
    """
    if not _STEM.fullmatch(stem):
        raise ValueError(f"a data file's stem is lower-case words joined by '-'; received {stem!r}")
    data = text.encode("utf-8")
    return f"{DATA_DIR}{stem}.{hashlib.sha256(data).hexdigest()[:NAME_DIGITS]}.{suffix}", data


def download_link(href: str, *, filename: str, label: str, name: str, kind: str) -> str:
    """One download link styled as the calculators' small buttons.

    Args:
        href: The file's URL relative to the page.
        filename: The name the saved file gets.
        label: The visible text (``Download CSV``).
        name: Its accessible name, which begins with ``label`` (``Download CSV of the table``).
        kind: What ``data-download`` says it is (``table-csv``, ``chart-csv``, ``figure-svg``...).
    """
    return (
        f'<a class="md-button roofline-download" href="{escape(href, quote=True)}"'
        f' download="{escape(filename, quote=True)}" data-download="{escape(kind, quote=True)}"'
        f' aria-label="{escape(name, quote=True)}">{escape(label)}</a>'
    )


def download_button(*, label: str, name: str, kind: str) -> str:
    """A download only a browser can make (a PNG, a live chart's SVG): hidden until the script
    that makes it shows it, so a page without JavaScript offers no button that does nothing."""
    return (
        f'<button type="button" class="md-button roofline-download" data-download="{escape(kind, quote=True)}"'
        f' aria-label="{escape(name, quote=True)}" hidden>{escape(label)}</button>'
    )


def download_bar(links: list[str], *, name: str) -> str:
    """The links of one table or drawing, in a labelled group."""
    return (
        f'<div class="roofline-downloads" role="group" aria-label="{escape(name, quote=True)}">{"".join(links)}</div>'
    )
