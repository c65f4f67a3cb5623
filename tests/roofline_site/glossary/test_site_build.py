"""One build's glossary memory driven without MkDocs: files handed over, pages read, closings filled."""

from __future__ import annotations

import logging

import pytest

from roofline_site.glossary import site_files
from roofline_site.glossary.render import MENTIONED_IN_MARKER
from roofline_site.glossary.site_build import GlossaryBuild, SettingsError
from tests.roofline_site.glossary.helpers import entry_text, write_glossary


def _project(tmp_path, count: int = 0):
    entries = {
        "alpha": entry_text(title="Alpha", body="Alpha uses [[beta]].\n"),
        "beta": entry_text(title="Beta"),
        "gamma": entry_text(title="Gamma"),
    }
    entries.update({f"t{i:02d}": entry_text(title=f"T{i:02d}", body="Uses [[beta]].\n") for i in range(count)})
    write_glossary(tmp_path / "glossary", entries)
    return tmp_path


def _build(tmp_path, count: int = 0, **extra) -> tuple[GlossaryBuild, dict[str, str]]:
    build = GlossaryBuild.load(_project(tmp_path, count), extra=extra, config_path="mkdocs.yml")
    added: dict[str, str] = {}

    def add(page: site_files.SiteFile) -> str:
        added[page.src_uri] = page.content
        return page.src_uri[: -len(".md")] + "/" if page.src_uri.endswith(".md") else page.src_uri

    build.add_files(
        add,
        relative_url=lambda url, other: url,
        taken=lambda path: False,
        directory_urls=True,
        site_name="Site",
        site_url=None,
        content_security_policy="",
    )
    return build, added


def _read_term_page(build: GlossaryBuild, slug: str) -> None:
    """What the adapter does with a term page once the generator has rendered its body."""
    # Every entry but beta and gamma links to beta (as their bodies do).
    html = f'<p>{slug} links <a href="../beta/">Beta</a>.</p>' if slug not in ("beta", "gamma") else "<p>No link.</p>"
    url = f"glossary/{slug}/"
    html, closing = build.term_page(slug, html, url_of=lambda s: s, href=lambda u: u, cite="C.")
    title = build.glossary.entries[slug].title
    build.record(html, title=title, url=url, src_uri=f"glossary/{slug}.md")
    build.closings[f"glossary/{slug}.md"] = closing


def test_every_file_is_handed_to_the_generator(tmp_path):
    build, added = _build(tmp_path)
    assert {"glossary/alpha.md", "glossary/index.md", "glossary.json", "glossary/feed.xml"} <= set(added)
    assert build.term_of["glossary/beta.md"] == "beta" and build.term_urls["/glossary/beta/"] == "beta"


def test_closing_gets_mentions_once_every_page_is_read(tmp_path):
    build, _ = _build(tmp_path, count=11)
    for slug in build.glossary.entries:
        _read_term_page(build, slug)
    closing, has_mentions = build.closing("glossary/beta.md", href=lambda url: "/" + url)
    assert has_mentions and MENTIONED_IN_MARKER not in closing
    assert "and 2 more" in closing and "All 12 pages that mention Beta, A to Z" in closing
    closing, has_mentions = build.closing("glossary/gamma.md", href=lambda url: "/" + url)
    assert not has_mentions and 'id="mentioned-in"' not in closing and MENTIONED_IN_MARKER not in closing
    assert build.closing("other.md", href=str) == ("", False)


def test_orphan_report_names_the_terms_no_entry_links_to(tmp_path):
    build, _ = _build(tmp_path)
    for slug in build.glossary.entries:
        _read_term_page(build, slug)
    assert build.orphan_report() == (
        "glossary: 2 terms are linked from no other entry's text: glossary/alpha.md, glossary/gamma.md; "
        "expected a [[slug]] link to each in another entry, where its reader needs the term"
    )
    assert build.orphan_level == logging.INFO


def test_orphans_as_warnings_on_request_and_unknown_settings_refused(tmp_path):
    build = GlossaryBuild.load(_project(tmp_path), extra={"glossary_orphans": "warning"}, config_path="m.yml")
    assert build.orphan_level == logging.WARNING
    with pytest.raises(SettingsError) as error:
        GlossaryBuild.load(tmp_path, extra={"glossary_orphans": "loud"}, config_path="m.yml")
    assert str(error.value) == "m.yml: extra.glossary_orphans is 'loud'; expected one of info, warning"
    with pytest.raises(SettingsError) as error:
        GlossaryBuild.load(tmp_path, extra={"glossary_orphans": ["warning"]}, config_path="m.yml")
    assert str(error.value) == "m.yml: extra.glossary_orphans is ['warning']; expected one of info, warning"
    with pytest.raises(SettingsError) as error:
        GlossaryBuild.load(tmp_path, extra={"repository": "ftp://x"}, config_path="m.yml")
    assert str(error.value).startswith("m.yml: extra.repository: expected the repository's https address")


def test_a_hand_written_page_keeps_its_numbers_for_its_closing(tmp_path):
    build, _ = _build(tmp_path)
    text = build.rewrite_page(
        "Ridge {{ ridge_point accelerator=h100-sxm }}.\n", source="x", src_uri="p.md", path="docs/p.md"
    )
    assert "295 FLOP/byte" in text
    closing = build.page_closing("p.md", cite="C.", url="p/", href=lambda path: "../" + path)
    assert 'download="p-numbers.py"' in closing and 'href="../assets/roofline/numbers/numbers.' in closing
    assert len(build.scripts) == 1
    assert build.page_closing("p.md", cite="C.", url="p/", href=str) == ""


def test_the_build_last_loaded_is_shared_with_the_other_adapters(tmp_path, monkeypatch):
    from roofline_site.glossary import site_build

    monkeypatch.setattr(site_build, "_loaded", None)
    with pytest.raises(LookupError, match="expected hooks/glossary.py before this hook"):
        site_build.loaded()
    build = GlossaryBuild.load(_project(tmp_path), extra={}, config_path="mkdocs.yml")
    assert site_build.loaded() is build
