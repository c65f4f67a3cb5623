"""The "Edit this page" and "Suggest a term" links: settings checked, URLs built, HTML escaped."""

from __future__ import annotations

import pytest

from roofline_site.glossary.contribute import Repository, links_html


def test_urls_follow_githubs_scheme():
    repository = Repository.from_settings("https://github.com/someone/roofline-glossary/", "main")
    assert repository.url == "https://github.com/someone/roofline-glossary"
    assert (
        repository.edit_url("glossary/kv-cache.md")
        == "https://github.com/someone/roofline-glossary/edit/main/glossary/kv-cache.md"
    )
    assert (
        repository.suggest_term_url()
        == "https://github.com/someone/roofline-glossary/issues/new?template=suggest-a-term.yml"
    )


def test_links_html_escapes_the_query_and_stays_out_of_search():
    html = links_html(Repository("https://github.com/a/b", "release/2026"), entry_path="glossary/decode.md")
    assert (
        'href="https://github.com/a/b/edit/release/2026/glossary/decode.md" data-glossary-role="edit">Edit this page</a>'
        in html
    )
    assert 'href="https://github.com/a/b/issues/new?template=suggest-a-term.yml"' in html
    assert "data-search-exclude" in html


@pytest.mark.parametrize(
    "url",
    [
        "http://github.com/a/b",  # not https
        "https://github.com",  # no path
        'https://github.com/a/b"onmouseover="x',  # would end the attribute
        "https://github.com/a b",
        "javascript:alert(1)",
        None,
        42,
    ],
)
def test_a_bad_repository_address_is_refused_with_what_was_expected(url):
    with pytest.raises(ValueError) as error:
        Repository.from_settings(url, "main")
    assert str(error.value) == (
        "extra.repository: expected the repository's https address, "
        f"e.g. https://github.com/<owner>/roofline-glossary, but received {url!r}"
    )


@pytest.mark.parametrize("branch", ["", "main?x=1", "a//b", "../main", "release/.hidden", "/main", None])
def test_a_bad_branch_is_refused_with_what_was_expected(branch):
    with pytest.raises(ValueError) as error:
        Repository.from_settings("https://github.com/a/b", branch)
    assert str(error.value) == (
        "extra.repository_branch: expected a branch name of letters, digits, '.', '_', '-' "
        f"and '/' (no part starting with '.'), e.g. main, but received {branch!r}"
    )
