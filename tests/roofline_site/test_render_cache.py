"""The record of pages' Markdown conversions: keys that follow every input, records that survive
a round trip, and damaged files that count as nothing."""

from __future__ import annotations

import json

import pytest

from roofline_site.render_cache import FILE_NAME, RenderCache, Rendered, build_inputs_digest, page_key

RENDERED = Rendered(
    content='<h1 id="home">Home</h1>\n<p>Text.</p>',
    toc_tokens=[
        {
            "name": "Home",
            "id": "home",
            "level": 1,
            "children": [{"name": "Part", "id": "part", "level": 2, "children": []}],
        }
    ],
    title="Home",
    anchor_ids=["home", "part"],
    links_to_anchors={"other.md": {"the-part": "other.md#the-part"}},
)


def format_fence(*args):  # stands for a custom fence's formatter in the extension settings
    return ""


def digest_inputs():
    return {
        "extensions": ["toc", "pymdownx.superfences"],
        "extension_configs": {
            "toc": {"permalink": True},
            "pymdownx.superfences": {"custom_fences": [{"format": format_fence}]},
        },
        "file_urls": [("index.md", ""), ("other.md", "other/")],
        "settings": {"use_directory_urls": True, "log_level": 20},
        "code_digest": "abc",
    }


def digest(**changes):
    return build_inputs_digest(**{**digest_inputs(), **changes})


def test_build_digest_names_functions_not_their_address():
    # A function's repr holds its address, new in every process: two function objects of the
    # same name (as a fresh process makes) must give the same digest.
    namespace: dict = {"__name__": __name__}
    exec("def format_fence(*args):\n    return ''", namespace)
    same_name = namespace["format_fence"]
    assert same_name is not format_fence
    configs = {"pymdownx.superfences": {"custom_fences": [{"format": same_name}]}}
    assert digest(extension_configs={**digest_inputs()["extension_configs"], **configs}) == digest()


@pytest.mark.parametrize(
    "change",
    [
        {"extensions": ["toc"]},
        {"extension_configs": {"toc": {"permalink": False}}},
        {"file_urls": [("index.md", ""), ("other.md", "other.html")]},
        {"file_urls": [("index.md", "")]},
        {"settings": {"use_directory_urls": True, "log_level": 30}},
        {"code_digest": "abd"},
    ],
)
def test_build_digest_follows_every_input(change):
    assert digest(**change) != digest()


def test_file_order_does_not_matter():
    assert digest(file_urls=[("other.md", "other/"), ("index.md", "")]) == digest()


def test_page_key_follows_markdown_path_url_and_build():
    key = page_key("# Home\n", src_uri="index.md", url="", build_digest="d")
    assert key == page_key("# Home\n", src_uri="index.md", url="", build_digest="d")
    assert key != page_key("# Home!\n", src_uri="index.md", url="", build_digest="d")
    assert key != page_key("# Home\n", src_uri="home.md", url="", build_digest="d")
    assert key != page_key("# Home\n", src_uri="index.md", url="home/", build_digest="d")
    assert key != page_key("# Home\n", src_uri="index.md", url="", build_digest="e")


def test_a_record_survives_the_round_trip(tmp_path):
    cache = RenderCache(tmp_path)
    assert cache.get("k") is None
    cache.put("k", RENDERED)
    cache.save()
    assert RenderCache(tmp_path).get("k") == RENDERED


def test_only_the_last_builds_pages_are_kept(tmp_path):
    first = RenderCache(tmp_path)
    first.put("old", RENDERED)
    first.put("kept", RENDERED)
    first.save()
    second = RenderCache(tmp_path)
    assert second.get("kept") == RENDERED
    second.save()
    third = RenderCache(tmp_path)
    assert third.get("old") is None
    assert third.get("kept") == RENDERED


def test_an_unchanged_record_is_not_written_again(tmp_path):
    cache = RenderCache(tmp_path)
    cache.put("k", RENDERED)
    cache.save()
    path = tmp_path / FILE_NAME
    before = path.stat().st_mtime_ns
    path.chmod(0o400)  # a write would replace the file: make one visible
    again = RenderCache(tmp_path)
    assert again.get("k") == RENDERED
    again.save()
    assert path.stat().st_mtime_ns == before


def _record(**changes):
    from dataclasses import asdict

    return {**asdict(RENDERED), **changes}


@pytest.mark.parametrize(
    "text",
    [
        "not json",
        "[]",
        json.dumps({"k": "text"}),
        json.dumps({"k": {"content": "x"}}),
        json.dumps({"k": _record(content=None)}),
        json.dumps({"k": _record(title=3)}),
        json.dumps({"k": _record(anchor_ids="home")}),
        json.dumps({"k": _record(anchor_ids=[1])}),
        json.dumps({"k": _record(toc_tokens=[{"name": "Home", "id": "home", "level": "1", "children": []}])}),
        json.dumps({"k": _record(toc_tokens=[{"name": "Home", "id": "home", "level": 1}])}),
        json.dumps({"k": _record(links_to_anchors={"other.md": ["the-part"]})}),
        json.dumps({"k": {**_record(), "extra": 1}}),
    ],
)
def test_a_damaged_record_counts_as_nothing(tmp_path, text):
    (tmp_path / FILE_NAME).write_text(text, encoding="utf-8")
    assert RenderCache(tmp_path).get("k") is None
