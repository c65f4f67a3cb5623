"""Rendered calculators kept between builds: a warm build gives the same page and files without
computing again; anything the rendering depends on gives a new key; a bad record is a miss."""

from __future__ import annotations

import pytest

from roofline_site.calculators import page as calculator_page
from roofline_site.calculators import render_cache
from roofline_site.calculators.page import CalculatorFences
from roofline_site.calculators.render_cache import RenderCache
from roofline_site.fences import start_build
from tests.roofline_site.calculators.test_page import ASSETS
from tests.roofline_site.fences.markdown_page import convert

FENCE = "```calculator\nid: kv-cache\ndefaults: batch=1, context_tokens=4096\n```\n"


def _build(cache: RenderCache, *, markdown: str = FENCE, page_path: str = "glossary/kv-cache/"):
    fences = CalculatorFences(assets=lambda: ASSETS, cache=cache)
    build = start_build([fences])
    build.prepare_page(markdown, path="glossary/kv-cache.md", page_path=page_path, url_to=lambda p: "../../" + p)
    return build.finish_page(convert(markdown, ["calculator"]), path="glossary/kv-cache.md"), fences.site_files()


def _no_rendering(*args, **kwargs):
    raise AssertionError("rendered again")


@pytest.mark.parametrize("page_path", ["glossary/kv-cache/", "calculators/kv-cache/"])
def test_a_warm_build_gives_the_same_page_and_files_without_rendering(tmp_path, monkeypatch, page_path):
    cache = RenderCache(tmp_path)
    cold = _build(cache, page_path=page_path)
    assert len(list(tmp_path.glob("*.json"))) == 1
    monkeypatch.setattr(calculator_page, "resolve", _no_rendering)
    monkeypatch.setattr(calculator_page, "render_calculator", _no_rendering)
    assert _build(cache, page_path=page_path) == cold


def test_what_the_rendering_depends_on_is_in_the_key(tmp_path):
    cache = RenderCache(tmp_path)
    _build(cache)
    _build(cache, markdown=FENCE.replace("batch=1", "batch=2"))  # another scenario
    _build(cache, page_path="calculators/kv-cache/")  # another page: other URLs, no summary
    _build(cache, markdown=FENCE + "\n" + FENCE)  # a second copy: another DOM id
    assert len(list(tmp_path.glob("*.json"))) == 4


def test_other_code_renders_afresh(tmp_path, monkeypatch):
    cache = RenderCache(tmp_path)
    _build(cache)
    monkeypatch.setattr(render_cache, "rendering_code_digest", lambda: "other code")
    _build(cache)
    assert len(list(tmp_path.glob("*.json"))) == 2


def test_a_damaged_record_is_a_miss_and_is_rendered_again(tmp_path):
    cache = RenderCache(tmp_path)
    cold = _build(cache)
    (record,) = tmp_path.glob("*.json")
    damaged = (
        "{not json",
        "[]",
        '{"html": 3, "fragment": null}',
        '{"html": "x", "fragment": {"name": 1, "data": "y"}}',
    )
    for damage in damaged:
        record.write_text(damage, encoding="utf-8")
        assert cache.get(record.stem) is None
    assert _build(cache) == cold


def test_without_a_directory_nothing_is_kept(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert _build(RenderCache(None)) == _build(RenderCache(None))
    assert list(tmp_path.iterdir()) == []
