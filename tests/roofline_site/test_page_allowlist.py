"""The whole-document allowlist (roofline_site/page_allowlist.py) finds what templates never write."""

from __future__ import annotations

import pytest

from roofline_site.page_allowlist import check_page

HEAD = '<head><meta charset="utf-8"><title>T</title><link rel="stylesheet" href="s.css"></head>'


def _page(body: str, head: str = HEAD) -> str:
    return f"<!doctype html><html lang='en'>{head}<body>{body}</body></html>"


def test_a_page_like_the_templates_write_passes():
    body = (
        '<nav class="md-nav" aria-label="Table of contents"><a href="#x" class="md-nav__link">X</a></nav>'
        '<div class="glossary-entry__body"><h2 id="x">X</h2><p><a href="https://example.com">y</a></p>'
        '<figure class="roofline-figure" data-figure-kind="roofline"><img src="a.svg" alt="a" loading="lazy"></figure></div>'
        '<svg viewBox="0 0 1 1" role="img"><title>Chart</title><path d="M0 0"></path></svg>'
    )
    assert check_page(_page(body), path="p.html") == []


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ('<nav><a href="#x" onmouseover="go()">x</a></nav>', "attribute <a onmouseover>"),
        ('<nav><meta http-equiv="refresh" content="0;url=https://example.com"></nav>', "<meta> outside <head>"),
        ("<aside><iframe src='x'></iframe></aside>", "element <iframe>"),
        ("<nav><base href='https://example.com/'></nav>", "element <base>"),
        ('<nav><a href="#x" formtarget="y">x</a></nav>', "attribute <a formtarget>"),
        ('<a href="java\tscript:alert(1)">x</a>', "runs script"),
        ('<a href=" \x01javascript:alert(1)">x</a>', "runs script"),
        ('<div class="glossary-entry__body"><form name="f"></form></div>', "element <form> in an entry body"),
        (
            '<div class="glossary-entry__body"><p data-md-component="x">y</p></div>',
            "attribute <p data-md-component> in an entry body",
        ),
        (
            '<section data-calculator="x" data-pyodide-index-url="https://example.com/">',
            "attribute <section data-pyodide-index-url>",
        ),
    ],
)
def test_what_the_templates_never_write_is_named(body, words):
    problems = check_page(_page(body), path="p.html")
    assert any(words in problem and problem.startswith("p.html:") for problem in problems), problems


def test_the_build_markup_inside_a_body_follows_the_templates_rules():
    body = (
        '<div class="glossary-entry__body"><section class="roofline-calc roofline-calc--later" aria-label="c" '
        'data-calculator-later="x.json"><dl><dd data-output="a">1</dd></dl></section></div>'
    )
    assert check_page(_page(body), path="p.html") == []


def test_a_refresh_is_allowed_only_on_a_redirect_stub_and_only_to_a_relative_address():
    head = '<head><title>T</title><meta http-equiv="refresh" content="0; url=../target/"></head>'
    assert check_page(_page("", head), path="r.html", redirect=True) == []
    assert check_page(_page("", head), path="r.html") != []
    away = '<head><title>T</title><meta http-equiv="refresh" content="0; url=//example.com/"></head>'
    assert check_page(_page("", away), path="r.html", redirect=True) != []
    set_cookie = '<head><title>T</title><meta http-equiv="set-cookie" content="a=b"></head>'
    assert check_page(_page("", set_cookie), path="r.html", redirect=True) != []


def test_a_term_pages_markdown_twin_link_and_json_ld_pass():
    head = (
        '<html><head><title>t</title><link rel="alternate markdown" type="text/markdown" href="index.md">'
        '<script type="application/ld+json">{"@type":"DefinedTerm"}</script></head><body></body></html>'
    )
    assert check_page(head, path="glossary/x/index.html") == []
