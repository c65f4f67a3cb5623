"""A deployment build needs SITE_URL; a local build works without it and says what it names."""

from __future__ import annotations

import os

from tests.hooks.site_fixture import make_site
from tests.support.site_build import mkdocs_build


def _without_site_url() -> dict[str, str]:
    return {key: value for key, value in os.environ.items() if key not in ("SITE_URL", "ROOFLINE_DEPLOY")}


def test_a_deployment_build_without_site_url_stops_with_one_line(tmp_path, monkeypatch) -> None:
    config = make_site(tmp_path / "project", {"index.md": "# Home\n"})
    monkeypatch.setattr(os, "environ", _without_site_url())
    result = mkdocs_build(config, tmp_path / "site", env={"ROOFLINE_DEPLOY": "1"})
    assert result.returncode == 1
    assert "ROOFLINE_DEPLOY=1 but SITE_URL is not set; expected the public address" in result.stderr
    assert not (tmp_path / "site" / "index.html").exists()


def test_a_deployment_build_with_site_url_goes_ahead_quietly(tmp_path, monkeypatch) -> None:
    config = make_site(tmp_path / "project", {"index.md": "# Home\n"})
    monkeypatch.setattr(os, "environ", _without_site_url())
    url = "https://example.github.io/roofline-glossary/"
    result = mkdocs_build(config, tmp_path / "site", env={"ROOFLINE_DEPLOY": "1", "SITE_URL": url})
    assert result.returncode == 0, result.stderr
    assert "SITE_URL" not in result.stderr
    assert (tmp_path / "site" / "index.html").exists()


def test_a_local_build_without_site_url_works_and_says_so(tmp_path, monkeypatch) -> None:
    config = make_site(tmp_path / "project", {"index.md": "# Home\n"})
    monkeypatch.setattr(os, "environ", _without_site_url())
    result = mkdocs_build(config, tmp_path / "site")
    assert result.returncode == 0, result.stderr
    assert "NOTICE: SITE_URL is not set" in result.stderr
