"""Term pages link to their source file and to the "Suggest a term" form of the repository that
mkdocs.yml's ``extra.repository`` names; the setting (and its environment variable) moves them."""

from __future__ import annotations

from tests.hooks.glossary_fixture import build, entry, error_lines, make_project
from tests.support.site_build import PROJECT_ROOT

SETTINGS = (
    'extra:\n  repository: !ENV [REPOSITORY_URL, "https://github.com/fixture/glossary"]\n'
    '  repository_branch: !ENV [REPOSITORY_BRANCH, "main"]\n'
)
ENTRIES = {"alpha-term": entry("Alpha term"), "beta-term": entry("Beta term")}


def _term_page(root, slug: str) -> str:
    return (root / "site" / "glossary" / slug / "index.html").read_text(encoding="utf-8")


def _links(page: str) -> tuple[str, str]:
    paragraph = page.split('<p class="glossary-contribute"', 1)[1].split("</p>", 1)[0]
    edit = paragraph.split('data-glossary-role="edit"', 1)[0].rsplit('href="', 1)[1].split('"', 1)[0]
    suggest = paragraph.split('data-glossary-role="suggest"', 1)[0].rsplit('href="', 1)[1].split('"', 1)[0]
    return edit, suggest


def test_each_term_page_links_its_own_file_and_the_suggest_form(tmp_path, monkeypatch):
    monkeypatch.delenv("REPOSITORY_URL", raising=False)
    monkeypatch.delenv("REPOSITORY_BRANCH", raising=False)
    root = make_project(tmp_path, ENTRIES, config=SETTINGS)
    result = build(root)
    assert result.returncode == 0, result.stderr
    for slug in ENTRIES:
        assert _links(_term_page(root, slug)) == (
            f"https://github.com/fixture/glossary/edit/main/glossary/{slug}.md",
            "https://github.com/fixture/glossary/issues/new?template=suggest-a-term.yml",
        )


def test_the_environment_moves_the_links(tmp_path, monkeypatch):
    monkeypatch.setenv("REPOSITORY_URL", "https://git.example.org/team/roofline/")
    monkeypatch.setenv("REPOSITORY_BRANCH", "drafts")
    root = make_project(tmp_path, ENTRIES, config=SETTINGS)
    result = build(root)
    assert result.returncode == 0, result.stderr
    assert _links(_term_page(root, "beta-term")) == (
        "https://git.example.org/team/roofline/edit/drafts/glossary/beta-term.md",
        "https://git.example.org/team/roofline/issues/new?template=suggest-a-term.yml",
    )


def test_a_bad_repository_setting_stops_the_build_naming_it(tmp_path, monkeypatch):
    monkeypatch.setenv("REPOSITORY_URL", "javascript:alert(1)")
    root = make_project(tmp_path, ENTRIES, config=SETTINGS)
    result = build(root)
    assert result.returncode == 1
    expected = (
        f"{root / 'mkdocs.yml'}: extra.repository: expected the repository's https address, "
        "e.g. https://github.com/<owner>/roofline-glossary, but received 'javascript:alert(1)'"
    )
    assert expected in error_lines(result)


def test_a_project_without_the_setting_has_no_links(tmp_path):
    root = make_project(tmp_path, ENTRIES)
    assert build(root).returncode == 0
    assert "glossary-contribute" not in _term_page(root, "alpha-term")


def test_the_sites_setting_reads_the_environment(monkeypatch):
    from mkdocs.config import load_config

    monkeypatch.setenv("REPOSITORY_URL", "https://github.com/someone/fork")
    monkeypatch.setenv("REPOSITORY_BRANCH", "next")
    config = load_config(str(PROJECT_ROOT / "mkdocs.yml"))
    assert (config.extra["repository"], config.extra["repository_branch"]) == (
        "https://github.com/someone/fork",
        "next",
    )
    assert "repo_url" not in {key for key, value in config.items() if value}, "repo_url makes pages fetch from GitHub"
    monkeypatch.delenv("REPOSITORY_URL")
    monkeypatch.delenv("REPOSITORY_BRANCH")
    config = load_config(str(PROJECT_ROOT / "mkdocs.yml"))
    assert config.extra["repository"] == "https://github.com/OWNER/roofline-glossary"
