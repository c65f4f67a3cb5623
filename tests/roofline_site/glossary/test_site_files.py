"""The files the glossary adds to a site (term and category pages, index, data, redirects), without MkDocs."""

from __future__ import annotations

import json
import posixpath

import pytest

from roofline_site.glossary import site_files
from roofline_site.glossary.errors import GlossaryError
from roofline_site.glossary.validator import load_glossary
from tests.roofline_site.glossary.helpers import entry_text, write_glossary


def _glossary(tmp_path):
    write_glossary(
        tmp_path,
        {
            "alpha": entry_text(title="Alpha", aliases=["First"], body="Alpha uses [[beta]].\n"),
            "beta": entry_text(title="Beta", category="metrics", renamed_from=["old-beta"]),
        },
    )
    return load_glossary(tmp_path)


def _url(slug: str) -> str:
    return f"glossary/{slug}/"


def _relative(url: str, other: str) -> str:
    # MkDocs' get_relative_url for directory URLs.
    return posixpath.relpath("/" + url, "/" + other) + ("/" if url.endswith("/") else "")


def test_a_page_per_term_out_of_the_navigation(tmp_path):
    pages = site_files.term_pages(_glossary(tmp_path))
    assert {slug: (p.src_uri, p.in_nav) for slug, p in pages.items()} == {
        "alpha": ("glossary/alpha.md", False),
        "beta": ("glossary/beta.md", False),
    }
    assert pages["alpha"].content.startswith("---\ntitle: Alpha\n")
    assert "Alpha uses [beta](beta.md)." in pages["alpha"].content


def test_the_index_is_in_the_navigation_and_category_pages_are_not(tmp_path):
    listings = site_files.listing_pages(_glossary(tmp_path))
    assert (listings[0].src_uri, listings[0].in_nav) == (site_files.INDEX_URI, True)
    assert {p.src_uri for p in listings[1:]} == set(site_files.CATEGORY_URIS)
    assert not any(p.in_nav for p in listings[1:])


def test_json_and_feed_use_the_urls_given(tmp_path):
    json_file, feed, _schema = site_files.data_files(
        _glossary(tmp_path), url_of=_url, index_url="glossary/", site_name="Site", site_url="https://x.org/"
    )
    assert (json_file.src_uri, feed.src_uri) == ("glossary.json", "glossary/feed.xml")
    terms = {t["slug"]: t for t in json.loads(json_file.content)["terms"]}
    assert terms["alpha"]["url"] == "https://x.org/glossary/alpha/"
    assert "<link>https://x.org/glossary/</link>" in feed.content


def test_redirect_pages_for_aliases_and_old_slugs(tmp_path):
    pages = site_files.redirect_pages(
        _glossary(tmp_path),
        url_of=_url,
        relative_url=_relative,
        taken=lambda path: False,
        directory_urls=True,
        site_url="https://x.org/",
        content_security_policy="default-src 'self'",
    )
    assert set(pages) == {"glossary/first/index.html", "glossary/old-beta/index.html"}
    assert '<meta http-equiv="refresh" content="0; url=../alpha/">' in pages["glossary/first/index.html"]
    assert '<link rel="canonical" href="https://x.org/glossary/beta/">' in pages["glossary/old-beta/index.html"]


def test_a_redirect_never_replaces_a_file(tmp_path):
    with pytest.raises(GlossaryError) as error:
        site_files.redirect_pages(
            _glossary(tmp_path),
            url_of=lambda slug: f"glossary/{slug}.html",
            relative_url=_relative,
            taken=lambda path: path == "glossary/first.html",
            directory_urls=False,
            site_url=None,
            content_security_policy="",
        )
    assert str(error.value) == (
        "glossary/alpha.md:1: redirect 'first' would replace glossary/first.html; expected a free slug"
    )


@pytest.mark.parametrize("src_uri", ["glossary/alpha.md", "glossary.json", "glossary/index.md"])
def test_hand_written_files_where_the_glossary_puts_its_own_are_refused(src_uri):
    with pytest.raises(GlossaryError) as error:
        site_files.refuse_hand_written(["index.md", src_uri])
    assert str(error.value) == (
        f"docs/{src_uri}:1: a hand-written file where the glossary build puts its pages; "
        "expected glossary entries in glossary/<slug>.md next to mkdocs.yml, not under docs/"
    )
    site_files.refuse_hand_written(["index.md", "glossary-notes.md", "calculators/glossary.md"])
