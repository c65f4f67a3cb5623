"""hooks/render_cache.py in real builds: a warm build gives the cold build's pages from the
record, converts what changed, and keeps every message and check."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from roofline_site.render_cache import CACHE_DIR_NAME, FILE_NAME
from tests.hooks.site_fixture import build, make_site

PAGES = {
    "index.md": "# Home\n\nSee [the part](other.md#the-part).\n",
    "other.md": "# Other\n\n## The part\n\nPlain words.\n",
    "figure.md": "# Figure\n\n```figure\nkind: intensity\n```\n",
}


def _records(project: Path) -> dict:
    return json.loads((project / CACHE_DIR_NAME / FILE_NAME).read_text(encoding="utf-8"))


def _html(project: Path) -> dict[str, bytes]:
    site = project / "site"
    return {p.relative_to(site).as_posix(): p.read_bytes() for p in sorted(site.rglob("*.html"))}


@pytest.fixture
def project(tmp_path):
    config = make_site(tmp_path / "project", PAGES)
    result = build(config)
    assert result.returncode == 0, result.stdout + result.stderr
    return config.parent


@pytest.mark.slow
def test_a_warm_build_gives_the_cold_pages_from_the_record(project):
    cold = _html(project)
    records = _records(project)
    # Recorded: the plain pages. Not recorded: the page with a figure fence.
    contents = [record["content"] for record in records.values()]
    assert any("Plain words." in content for content in contents)
    assert not any("roofline-figure" in content for content in contents)
    result = build(project / "mkdocs.yml")
    assert result.returncode == 0, result.stdout + result.stderr
    assert _html(project) == cold
    # The record is what the page is made from: change it, and the page shows the change.
    for record in records.values():
        record["content"] = record["content"].replace("Plain words.", "From the record.")
    (project / CACHE_DIR_NAME / FILE_NAME).write_text(json.dumps(records), encoding="utf-8")
    assert build(project / "mkdocs.yml").returncode == 0
    assert "From the record." in (project / "site" / "other" / "index.html").read_text(encoding="utf-8")


@pytest.mark.slow
def test_an_edited_page_is_converted_again(project):
    (project / "docs" / "other.md").write_text("# Other\n\n## The part\n\nNew words.\n", encoding="utf-8")
    result = build(project / "mkdocs.yml")
    assert result.returncode == 0, result.stdout + result.stderr
    html = (project / "site" / "other" / "index.html").read_text(encoding="utf-8")
    assert "New words." in html and "Plain words." not in html


@pytest.mark.slow
def test_links_to_anchors_are_checked_on_a_warm_build(project):
    # index.md is unchanged (its conversion comes from the record); the anchor it links to goes.
    (project / "docs" / "other.md").write_text("# Other\n\nPlain words.\n", encoding="utf-8")
    result = build(project / "mkdocs.yml")
    assert "does not contain an anchor '#the-part'" in result.stdout + result.stderr


@pytest.mark.slow
def test_a_conversion_that_warns_is_never_recorded(project):
    (project / "docs" / "index.md").write_text("# Home\n\nSee [gone](missing.md).\n", encoding="utf-8")
    for _ in range(2):
        result = build(project / "mkdocs.yml")
        assert result.returncode != 0
        assert "missing.md" in result.stdout + result.stderr
    assert not any("missing.md" in record["content"] for record in _records(project).values())


@pytest.mark.slow
def test_a_page_whose_link_target_went_is_converted_again(project):
    # Relative links resolve against the list of files: index.md is unchanged, but the page it
    # links to is gone, so its recorded conversion no longer holds and the broken link is reported.
    (project / "docs" / "other.md").unlink()
    result = build(project / "mkdocs.yml")
    assert result.returncode != 0
    assert "'other.md#the-part'" in result.stdout + result.stderr
