"""A deployment build needs SITE_URL and REPOSITORY_URL; a local build works without them and says
what it names."""

from __future__ import annotations

import os

from tests.hooks.site_fixture import make_site
from tests.support.site_build import mkdocs_build

REPOSITORY_SETTINGS = (
    'extra:\n  repository: !ENV [REPOSITORY_URL, "https://github.com/OWNER/roofline-glossary"]\n'
    '  repository_branch: !ENV [REPOSITORY_BRANCH, "main"]\n'
)


def _without_deploy_settings() -> dict[str, str]:
    names = ("SITE_URL", "REPOSITORY_URL", "REPOSITORY_BRANCH", "ROOFLINE_DEPLOY")
    return {key: value for key, value in os.environ.items() if key not in names}


def _project(tmp_path, *, repository: bool = True):
    config = make_site(tmp_path / "project", {"index.md": "# Home\n"})
    if repository:
        config.write_text(config.read_text(encoding="utf-8") + REPOSITORY_SETTINGS, encoding="utf-8")
    return config


def test_a_deployment_build_without_site_url_stops_with_one_line(tmp_path, monkeypatch) -> None:
    config = _project(tmp_path)
    monkeypatch.setattr(os, "environ", _without_deploy_settings())
    env = {"ROOFLINE_DEPLOY": "1", "REPOSITORY_URL": "https://github.com/someone/roofline-glossary"}
    result = mkdocs_build(config, tmp_path / "site", env=env)
    assert result.returncode == 1
    assert "ROOFLINE_DEPLOY=1 but SITE_URL is not set; expected the public address" in result.stderr
    assert "REPOSITORY_URL" not in result.stderr
    assert not (tmp_path / "site" / "index.html").exists()


def test_a_deployment_build_on_the_placeholder_repository_stops_with_one_line(tmp_path, monkeypatch) -> None:
    config = _project(tmp_path)
    monkeypatch.setattr(os, "environ", _without_deploy_settings())
    env = {"ROOFLINE_DEPLOY": "1", "SITE_URL": "https://example.github.io/roofline-glossary/"}
    result = mkdocs_build(config, tmp_path / "site", env=env)
    assert result.returncode == 1
    assert (
        "ROOFLINE_DEPLOY=1 but REPOSITORY_URL is not set; expected the repository term pages link to, "
        "e.g. REPOSITORY_URL=https://github.com/<user>/roofline-glossary" in result.stderr
    )
    assert "SITE_URL is not set" not in result.stderr
    assert not (tmp_path / "site" / "index.html").exists()


def test_a_deployment_build_with_both_settings_goes_ahead_quietly(tmp_path, monkeypatch) -> None:
    config = _project(tmp_path)
    monkeypatch.setattr(os, "environ", _without_deploy_settings())
    env = {
        "ROOFLINE_DEPLOY": "1",
        "SITE_URL": "https://example.github.io/roofline-glossary/",
        "REPOSITORY_URL": "https://github.com/example/roofline-glossary",
    }
    result = mkdocs_build(config, tmp_path / "site", env=env)
    assert result.returncode == 0, result.stderr
    assert "NOTICE" not in result.stderr
    assert (tmp_path / "site" / "index.html").exists()
    # A deployment build writes the precompressed copies (from the user's cache folder, warm once
    # any checkout on the machine has made them: roofline_site.precompress).
    assert (tmp_path / "site" / "index.html.gz").is_file() and (tmp_path / "site" / "index.html.br").is_file()


def test_a_project_without_a_repository_setting_needs_no_repository_url(tmp_path, monkeypatch) -> None:
    config = _project(tmp_path, repository=False)
    monkeypatch.setattr(os, "environ", _without_deploy_settings())
    env = {"ROOFLINE_DEPLOY": "1", "SITE_URL": "https://example.github.io/roofline-glossary/"}
    result = mkdocs_build(config, tmp_path / "site", env=env)
    assert result.returncode == 0, result.stderr


def test_a_local_build_without_the_settings_works_and_says_what_they_name(tmp_path, monkeypatch) -> None:
    config = _project(tmp_path)
    monkeypatch.setattr(os, "environ", _without_deploy_settings())
    result = mkdocs_build(config, tmp_path / "site")
    assert result.returncode == 0, result.stderr
    assert "NOTICE: SITE_URL is not set, so canonical links and og:url name http://127.0.0.1:8000/" in result.stderr
    assert (
        'NOTICE: REPOSITORY_URL is not set, so "Edit this page" and "Suggest a term" name '
        "https://github.com/OWNER/roofline-glossary" in result.stderr
    )
