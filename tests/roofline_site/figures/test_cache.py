"""The SVG cache: keyed by drawn data, code and matplotlib version; a hit draws nothing."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from roofline_core.figures import figure_data
from roofline_site.figures.cache import FigureCache, drawing_code_digest, matplotlib_version


def test_miss_draws_once_then_hits_from_memory_and_disk(tmp_path):
    data = figure_data("kv-cache", contexts=[1024, 4096])
    cache = FigureCache(directory=tmp_path / "figures")
    svg = cache.svg(data)
    assert (cache.drawn, cache.hits) == (1, 0)
    assert [p.name for p in (tmp_path / "figures").iterdir()] == [f"{cache.key(data)}.svg"]
    assert cache.svg(data) == svg and (cache.drawn, cache.hits) == (1, 1)
    fresh = FigureCache(directory=tmp_path / "figures")
    assert fresh.svg(data) == svg and (fresh.drawn, fresh.hits) == (0, 1)


def test_key_follows_the_drawn_data_only():
    cache = FigureCache(directory=Path("unused"))
    data = figure_data("roofline")
    assert cache.key({**data, "title": "Another", "alt": "Other words.", "table": {}}) == cache.key(data)
    assert cache.key(figure_data("roofline", accelerators=["h200"])) != cache.key(data)


def test_key_includes_the_code_and_matplotlib_version(monkeypatch):
    data = figure_data("roofline")
    before = FigureCache(directory=Path("unused")).key(data)
    monkeypatch.setattr("roofline_site.figures.cache.matplotlib_version", lambda: "0.0-other")
    assert FigureCache(directory=Path("unused")).key(data) != before
    monkeypatch.setattr("roofline_site.figures.cache.drawing_code_digest", lambda: "other-code")
    assert FigureCache(directory=Path("unused")).key(data) != before
    assert len(drawing_code_digest()) == 64 and matplotlib_version().count(".") >= 1


def test_a_cache_hit_never_imports_matplotlib(tmp_path):
    FigureCache(directory=tmp_path).svg(figure_data("decode-batch"))
    code = (
        "import sys\n"
        "from pathlib import Path\n"
        "from roofline_core.figures import figure_data\n"
        "from roofline_site.figures.cache import FigureCache\n"
        f"cache = FigureCache(directory=Path({str(tmp_path)!r}))\n"
        "cache.svg(figure_data('decode-batch'))\n"
        "print(cache.drawn, cache.hits, 'matplotlib' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["0", "1", "False"]
