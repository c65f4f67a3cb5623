"""SVG cache: a figure is drawn once per (data, drawing code, matplotlib version).

The key hashes what the drawing depends on: the figure's ``kind`` and ``panels`` (titles, alt
text and tables are HTML, built fresh each time), the source of this package's modules, the
build's configuration (:func:`roofline_site.node_artifacts.input_key`) and the installed
matplotlib version (read from the package metadata, so that a cache hit never imports
matplotlib). A hit reads ``<cache dir>/<key>.svg``; a miss imports the drawing module, draws,
and writes the file atomically.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

from roofline_core.version import source_digest
from roofline_site.atomic_write import write_atomic
from roofline_site.node_artifacts import input_key

PACKAGE_DIR = Path(__file__).resolve().parent


def drawing_code_digest() -> str:
    """sha256 of every module of this package (the drawing code and what it calls), in path order."""
    return source_digest(PACKAGE_DIR)


def matplotlib_version() -> str:
    """The installed matplotlib's version, without importing it."""
    return metadata.version("matplotlib")


def drawn_part(data: dict[str, Any]) -> dict[str, Any]:
    """The part of a figure's data the SVG depends on."""
    return {"kind": data["kind"], "panels": data["panels"]}


@dataclass
class FigureCache:
    """Themed SVGs on disk, keyed by content.

    Attributes:
        directory: Where the SVGs live (``.cache/figures`` at the project root).
        drawn: Figures drawn since this cache was made (cache misses).
        hits: Figures served from memory or disk.
    """

    directory: Path
    drawn: int = 0
    hits: int = 0
    _code: str = field(default="", repr=False)
    _memory: dict[str, str] = field(default_factory=dict, repr=False)

    def key(self, data: dict[str, Any]) -> str:
        """Hex key of ``data``'s drawing under the current code and matplotlib."""
        if not self._code:
            self._code = f"{drawing_code_digest()}:{matplotlib_version()}"
        payload = json.dumps(drawn_part(data), sort_keys=True, separators=(",", ":"), allow_nan=False)
        return input_key([self._code.encode(), payload.encode()])[:32]

    def svg(self, data: dict[str, Any]) -> str:
        """The themed SVG of ``data``: from memory, from disk, or drawn now."""
        key = self.key(data)
        if key in self._memory:
            self.hits += 1
            return self._memory[key]
        path = self.directory / f"{key}.svg"
        if path.is_file():
            text = path.read_text(encoding="utf-8")
            self.hits += 1
        else:
            # Imported here, on a miss only: a warm build never loads matplotlib.
            from roofline_site.figures.draw import draw_svg

            text = draw_svg(data)
            self.drawn += 1
            self._write(path, text)
        self._memory[key] = text
        return text

    def _write(self, path: Path, text: str) -> None:
        write_atomic(path, text.encode("utf-8"))
