"""One test per validator message: each names the file, the line, what is wrong and what is expected."""

from __future__ import annotations

import pytest

from roofline_core.hardware import ACCELERATORS
from roofline_site.glossary.errors import GlossaryError
from roofline_site.glossary.hostile import MAX_ENTRY_BYTES, MAX_NESTING_DEPTH
from roofline_site.glossary.schema import MAX_LIST_ITEMS, SUMMARY_MAX_CHARS
from roofline_site.glossary.validator import check_cross_references, load_glossary, read_entry
from tests.roofline_site.glossary.helpers import REMOVE, VALID_BODY, entry_text, write_glossary


def line_of(text: str, needle: str) -> int:
    """1-based line of the first line containing ``needle``."""
    for number, line in enumerate(text.splitlines(), start=1):
        if needle in line:
            return number
    raise AssertionError(f"{needle!r} not in text")


def problems(text: str, slug: str = "example-term") -> list[str]:
    _, found = read_entry(text, slug=slug, path=f"glossary/{slug}.md")
    return [str(p) for p in found]


def only_problem(text: str, slug: str = "example-term") -> str:
    found = problems(text, slug)
    assert len(found) == 1, found
    return found[0]


def cross_problems(texts: dict[str, str]) -> list[str]:
    entries = [read_entry(text, slug=slug, path=f"glossary/{slug}.md")[0] for slug, text in texts.items()]
    return [str(p) for p in sorted(check_cross_references(entries))]


# A valid entry ---------------------------------------------------------------------------


def test_valid_entry_has_no_problem_and_keeps_its_fields():
    text = entry_text(aliases=["Sample term"], updated="2026-02-01")
    entry, found = read_entry(text, slug="example-term", path="glossary/example-term.md")
    assert found == []
    assert entry.title == "Example term"
    assert entry.aliases == ("Sample term",)
    assert entry.sources[0].url == "https://example.org/source"
    assert str(entry.last_changed) == "2026-02-01"
    assert entry.redirect_slugs == ("sample-term",)
    assert entry.body_line == line_of(text, "The example term")


def test_load_glossary_collects_problems_of_every_file(tmp_path):
    write_glossary(tmp_path, {"a": entry_text(title="A", category="nope"), "b": entry_text(title="B", summary="")})
    with pytest.raises(GlossaryError) as info:
        load_glossary(tmp_path)
    assert [p.path for p in info.value.problems] == ["glossary/a.md", "glossary/b.md"]


# File names --------------------------------------------------------------------------------


def test_file_name_not_a_slug():
    assert only_problem(entry_text(), slug="KV_Cache") == (
        "glossary/KV_Cache.md:1: file name 'KV_Cache.md' is not a valid slug; "
        "expected lowercase letters, digits and single hyphens, e.g. 'kv-cache.md'"
    )


def test_file_name_reserved():
    assert only_problem(entry_text(), slug="index") == (
        "glossary/index.md:1: file name 'index.md' is reserved; expected lowercase letters, digits and single hyphens, e.g. 'index.md'"
    )


# Fields --------------------------------------------------------------------------------


def test_missing_required_field():
    assert only_problem(entry_text(summary=REMOVE)).startswith(
        "glossary/example-term.md:1: field 'summary': missing; expected summary: One plain-text sentence"
    )


def test_empty_required_field():
    text = entry_text(title="  ")
    assert only_problem(text) == (
        f"glossary/example-term.md:{line_of(text, 'title:')}: field 'title': nothing entered; expected title: The term as readers write it, e.g. `KV cache`. Plain text."
    )


def test_text_field_of_wrong_type():
    text = entry_text(title=["A", "B"])
    assert only_problem(text).startswith(
        f"glossary/example-term.md:{line_of(text, 'title:')}: field 'title': a list is not text; expected text of at most"
    )


def test_list_field_of_wrong_type():
    text = entry_text(aliases="KV")
    assert only_problem(text) == (
        f"glossary/example-term.md:{line_of(text, 'aliases:')}: field 'aliases': text is not a list; "
        f"expected a list of up to {MAX_LIST_ITEMS} values ('- item' lines), each text of at most 100 characters"
    )


def test_empty_list_item():
    text = entry_text(aliases=["Fine", ""])
    assert (
        only_problem(text)
        == f"glossary/example-term.md:{line_of(text, chr(39) * 2)}: field 'aliases', item 2: nothing entered; expected text of at most 100 characters"
    )


def test_unknown_field_suggests_the_right_one():
    text = entry_text(sumary="Typo.")
    assert only_problem(text) == (
        f"glossary/example-term.md:{line_of(text, 'sumary:')}: field 'sumary': not a known key (did you mean summary?); "
        "expected one of title, category, summary, aliases, related, sources, added, updated, renamed_from"
    )


def test_unknown_category():
    text = entry_text(category="silicon")
    assert only_problem(text) == (
        f"glossary/example-term.md:{line_of(text, 'category:')}: field 'category': unknown category 'silicon'; "
        "expected one of hardware, memory, formats, attention, serving, parallelism, metrics, techniques"
    )


def test_title_with_markup():
    text = entry_text(title="<b>Bold</b> term")
    assert only_problem(text) == (
        f"glossary/example-term.md:{line_of(text, 'title:')}: field 'title': '<b>Bold</b> term' holds markup characters; "
        "expected plain text without < > [ ] ` * _, HTML entities or straight double quotes"
    )


def test_related_item_not_a_slug():
    text = entry_text(related=["KV cache"])
    assert only_problem(text) == (
        f"glossary/example-term.md:{line_of(text, '- KV cache')}: field 'related', item 1: 'KV cache' is not a slug; "
        "expected lowercase letters, digits and single hyphens, e.g. 'kv-cache'"
    )


def test_alias_repeats_title():
    text = entry_text(aliases=["Example-term"])
    assert (
        only_problem(text)
        == f"glossary/example-term.md:{line_of(text, '- Example-term')}: alias 'Example-term' repeats the title; expected other names only"
    )


# Summary --------------------------------------------------------------------------------


def test_summary_too_long():
    text = entry_text(summary="Word " * 50 + "end.")
    assert only_problem(text) == (
        f"glossary/example-term.md:{line_of(text, 'summary:')}: field 'summary': 'Word Word Word Word Word Word Word Wo...' "
        f"is {len('Word ' * 50 + 'end.')} characters long; expected one plain-text sentence of at most {SUMMARY_MAX_CHARS} characters"
    )


@pytest.mark.parametrize(
    ("summary", "what"),
    [
        ("A <em>marked</em> term.", "HTML"),
        ("A term with `code` in it.", "code backticks"),
        ("A **bold** claim.", "bold markup"),
        ("An *emphasised* claim.", "emphasis markup"),
        ("See [this](https://example.org) term.", "a link"),
        ("See [[roofline]] first.", "a link"),
        ("# A heading.", "block markup"),
    ],
)
def test_summary_with_markup(summary, what):
    text = entry_text(summary=summary)
    assert only_problem(text) == (
        f"glossary/example-term.md:{line_of(text, 'summary:')}: field 'summary': {summary!r} holds {what}; "
        "expected plain text (it is shown in previews, search results and link unfurls)"
    )


def test_summary_with_straight_double_quote():
    text = entry_text(summary='The so-called "speed of light".')
    assert only_problem(text) == (
        f"glossary/example-term.md:{line_of(text, 'summary:')}: field 'summary': 'The so-called \"speed of light\".' holds a straight double quote (\"); "
        "expected typographic quotes (“ ”) or none; it is written into HTML attributes"
    )


def test_summary_without_full_stop():
    text = entry_text(summary="A term without an ending")
    assert (
        only_problem(text)
        == f"glossary/example-term.md:{line_of(text, 'summary:')}: field 'summary': 'A term without an ending' does not end with a full stop; expected one complete sentence"
    )


# Sources -------------------------------------------------------------------------------


def test_sources_empty():
    text = entry_text(sources=[])
    assert only_problem(text).startswith(
        f"glossary/example-term.md:{line_of(text, 'sources:')}: field 'sources': nothing entered; expected sources: At least one source"
    )


def test_source_not_a_mapping():
    text = entry_text(sources=["https://example.org"])
    assert only_problem(text) == (
        f"glossary/example-term.md:{line_of(text, '- https')}: field 'sources', item 1: text is not a mapping; expected a mapping with title, url and optionally note"
    )


def test_source_without_address():
    text = entry_text(sources=[{"title": "A book"}])
    assert (
        only_problem(text)
        == f"glossary/example-term.md:{line_of(text, 'A book')}: field 'sources', item 1, 'url': missing; expected url: The document's https:// address."
    )


def test_source_address_not_https():
    text = entry_text(sources=[{"title": "A page", "url": "http://example.org/x"}])
    assert only_problem(text) == (
        f"glossary/example-term.md:{line_of(text, 'url:')}: field 'sources', item 1, 'url': 'http://example.org/x' is not an https address; "
        "expected an absolute https:// address without spaces, quotes, backslashes, '<', '>' or ')'"
    )


def test_source_without_title():
    text = entry_text(sources=[{"url": "https://example.org/x"}])
    assert (
        only_problem(text)
        == f"glossary/example-term.md:{line_of(text, 'url:')}: field 'sources', item 1, 'title': missing; expected title: The document's name."
    )


def test_source_with_unknown_key():
    text = entry_text(sources=[{"title": "A", "url": "https://example.org/x", "year": 2020}])
    assert (
        only_problem(text)
        == f"glossary/example-term.md:{line_of(text, 'year:')}: field 'sources', item 1, 'year': not a known key; expected one of title, url, note"
    )


def test_source_note_not_text():
    text = entry_text(sources=[{"title": "A", "url": "https://example.org/x", "note": ["x"]}])
    assert (
        only_problem(text)
        == f"glossary/example-term.md:{line_of(text, 'note:')}: field 'sources', item 1, 'note': a list is not text; expected text of at most 500 characters"
    )


# Dates ---------------------------------------------------------------------------------


def test_date_not_a_date():
    text = entry_text(added="last week")
    assert (
        only_problem(text)
        == f"glossary/example-term.md:{line_of(text, 'added:')}: field 'added': 'last week' is not a date; expected a date written YYYY-MM-DD, e.g. 2026-01-31"
    )


def test_updated_before_added():
    text = entry_text(updated="2025-12-01")
    assert only_problem(text) == (
        f"glossary/example-term.md:{line_of(text, 'updated:')}: 'updated' (2025-12-01) is before 'added' (2026-01-01); expected updated on or after added"
    )


# Body ----------------------------------------------------------------------------------


def test_empty_body():
    text = entry_text(body="\n  \n")
    body_line = len(text.split("---\n")[1].splitlines()) + 3  # opening fence, fields, closing fence
    assert only_problem(text) == (
        f"glossary/example-term.md:{body_line}: the body is empty; "
        "expected Markdown after the front matter: the definition first, then why it matters, then numbers with sources"
    )


@pytest.mark.parametrize(
    "tag",
    ["script", "iframe", "style", "object", "embed", "meta", "base", "form", "link", "frame", "frameset", "applet"],
)
def test_hostile_tag_in_body(tag):
    text = entry_text(body=f"Fine first line.\nThen <{tag} src=x></{tag}> here.\n")
    found = problems(text)
    assert found[0] == (
        f"glossary/example-term.md:{line_of(text, 'Then')}: raw <{tag}> in the body; "
        "expected Markdown only; show HTML as code in backticks if the entry is about it"
    )


def test_event_handler_attribute_in_body():
    text = entry_text(body='Fine.\n<img src="x.png" onerror="alert(1)">\n')
    assert only_problem(text) == (
        f"glossary/example-term.md:{line_of(text, 'onerror')}: event-handler attribute 'onerror=' in the body; "
        "expected no scripting in entries; page behaviour lives in site_assets/"
    )


def test_javascript_address_in_body():
    text = entry_text(body="Click [here](javascript:alert(1)).\n")
    assert (
        only_problem(text)
        == f"glossary/example-term.md:{line_of(text, 'Click')}: a javascript: address in the body; expected an https address or a relative link"
    )


JAVASCRIPT_EXPECTED = "expected an https address or a relative link"
REMOTE_EXPECTED = "expected a file in the repository, linked relatively: the site loads nothing from other hosts"


@pytest.mark.parametrize(
    ("body", "scheme"),
    [
        ("[more]: javascript:alert(1)\n", "javascript:"),  # reference-style definition
        ('<a href="java&#115;cript:alert(1)">x</a>\n', "javascript:"),  # HTML entity
        ('<a href="java&Tab;script&colon;alert(1)">x</a>\n', "javascript:"),  # named entities
        ("[x](<java\tscript:alert(1)>)\n", "javascript:"),  # whitespace inside the scheme
        ("[x](java%73cript:alert(1))\n", "javascript:"),  # percent-escape
        ("[x](JaVaScRiPt:alert(1))\n", "javascript:"),
        ("<a/href=javascript:alert(1)>x</a>\n", "javascript:"),  # slash as separator
        ('[x](https://example.org){: href="javascript:alert(1)" }\n', "javascript:"),  # attr_list
        ("[x](vbscript:msgbox(1))\n", "vbscript:"),
        ("[x](data:text/html;base64,PHNjcmlwdD4=)\n", "data:"),
        ("![x](data:image/png;base64,iVBORw0KGgo=)\n", "data:"),
    ],
)
def test_dangerous_scheme_in_body(body, scheme):
    text = entry_text(body="Fine.\n\n" + body)
    line = len(text.splitlines())
    assert (
        only_problem(text) == f"glossary/example-term.md:{line}: a {scheme} address in the body; {JAVASCRIPT_EXPECTED}"
    )


def test_event_handler_in_attribute_list():
    text = entry_text(body="Fine.\n\nA paragraph.\n{: onmouseover=alert(1) }\n")
    assert only_problem(text) == (
        f"glossary/example-term.md:{line_of(text, 'onmouseover')}: event-handler attribute 'onmouseover=' in the body; "
        "expected no scripting in entries; page behaviour lives in site_assets/"
    )


@pytest.mark.parametrize(
    ("body", "url"),
    [
        ("![pixel](https://example.com/p.png)", "https://example.com/p.png"),
        ("![pixel](//example.com/p.png)", "//example.com/p.png"),
        ("![pixel][p]\n\n[p]: https://example.com/p.png", "https://example.com/p.png"),
        ('<img src="https://example.com/p.png" alt="">', "https://example.com/p.png"),
        ('<img srcset="a.png 1x, https://example.com/p.png 2x" src="a.png" alt="">', "https://example.com/p.png"),
        ('<span style="background: url(https://example.com/p.png)">x</span>', "https://example.com/p.png"),
    ],
)
def test_image_from_another_host(body, url):
    text = entry_text(body="Fine.\n\n" + body + "\n")
    assert only_problem(text) == (
        f"glossary/example-term.md:{len(text.splitlines())}: an image or other embedded file from another host ('{url}'); {REMOTE_EXPECTED}"
    )


def test_links_to_other_hosts_and_local_images_are_allowed():
    body = "See [the paper](https://example.org/paper) and [a term](other.md).\n\n![A figure](../assets/figure.svg)\n"
    assert problems(entry_text(body=body)) == []


def test_lists_nested_too_deep():
    body = "Deep.\n\n" + "".join("    " * depth + "- level\n" for depth in range(MAX_NESTING_DEPTH + 5))
    text = entry_text(body=body)
    first_too_deep = line_of(text, "Deep.") + 2 + MAX_NESTING_DEPTH
    assert only_problem(text) == (
        f"glossary/example-term.md:{first_too_deep}: lists or quotes nested {MAX_NESTING_DEPTH + 1} levels deep; "
        f"expected at most {MAX_NESTING_DEPTH} levels; flatten the structure or split it into paragraphs"
    )


def test_quotes_nested_too_deep_and_the_limit_itself():
    assert problems(entry_text(body="> " * MAX_NESTING_DEPTH + "Deep enough.\n")) == []
    text = entry_text(body="Fine.\n" + "> " * (MAX_NESTING_DEPTH + 1) + "Too deep.\n")
    assert only_problem(text).startswith(
        f"glossary/example-term.md:{line_of(text, 'Too deep')}: lists or quotes nested {MAX_NESTING_DEPTH + 1} levels deep; "
    )


def test_entry_too_large():
    text = entry_text(body="Words. " * (MAX_ENTRY_BYTES // 7 + 100) + "\n")
    size_kb = round(len(text.encode()) / 1000)
    assert only_problem(text) == (
        f"glossary/example-term.md:1: the entry is {size_kb} kB; "
        f"expected at most {MAX_ENTRY_BYTES // 1000} kB: one term per entry; split a long one into several terms"
    )


def test_file_name_with_a_lookalike_letter_is_not_a_slug():
    slug = "baseline-t\u0435rm"  # Cyrillic е
    assert only_problem(entry_text(), slug=slug) == (
        f"glossary/{slug}.md:1: file name '{slug}.md' is not a valid slug; expected lowercase letters, digits and single hyphens, e.g. 'baseline-trm.md'"
    )
    assert problems(entry_text(), slug="kv-cache\n") != []


def test_html_shown_as_code_is_allowed():
    body = 'Write `<script>` in code.\n\n```html\n<iframe onload="x()"></iframe>\n```\n'
    assert problems(entry_text(body=body)) == []


# Across entries ------------------------------------------------------------------------


def test_duplicate_title():
    texts = {"alpha": entry_text(title="Same"), "beta": entry_text(title="same")}
    assert cross_problems(texts) == [
        "glossary/beta.md:2: title 'same' is already used by glossary/alpha.md; expected a title or alias no other entry uses"
    ]


def test_duplicate_alias():
    texts = {
        "alpha": entry_text(title="Alpha", aliases=["Shared name"]),
        "beta": entry_text(title="Beta", aliases=["Shared  Name"]),
    }
    beta = texts["beta"]
    assert cross_problems(texts) == [
        f"glossary/beta.md:{line_of(beta, '- Shared')}: alias 'Shared Name' is already used by glossary/alpha.md; "
        "expected a title or alias no other entry uses"
    ]


def test_alias_whose_slug_is_another_entrys_slug():
    texts = {"kv-cache": entry_text(title="Key-value store"), "beta": entry_text(title="Beta", aliases=["KV cache"])}
    assert cross_problems(texts) == [
        f"glossary/beta.md:{line_of(texts['beta'], '- KV cache')}: alias 'KV cache' is already used by glossary/kv-cache.md "
        "(duplicate slug 'kv-cache'); expected an alias whose slug no other entry uses"
    ]


def test_title_that_looks_like_another_entrys_title():
    texts = {"alpha": entry_text(title="Baseline term"), "beta": entry_text(title="Baseline t\u0435rm")}
    assert cross_problems(texts) == [
        "glossary/beta.md:2: title 'Baseline t\u0435rm' looks like the title 'Baseline term' of glossary/alpha.md: "
        "they differ only by look-alike letters; expected a name no other entry uses, written in the letters readers type"
    ]


def test_alias_that_looks_like_another_entrys_slug_lands_on_the_lookalike():
    # The entry with the Greek omicron sorts first; the error still names it, not the plain one.
    texts = {
        "kv-cache": entry_text(title="Key-value store"),
        "aaa": entry_text(title="Aaa", aliases=["KV cache \u03bf"]),
        "kv-cache-o": entry_text(title="Other"),
    }
    assert cross_problems(texts) == [
        f"glossary/aaa.md:{line_of(texts['aaa'], '- KV')}: alias 'KV cache \u03bf' looks like the slug 'kv-cache-o' of glossary/kv-cache-o.md: "
        "they differ only by look-alike letters; expected a name no other entry uses, written in the letters readers type"
    ]


def test_duplicate_slug_in_renamed_from():
    texts = {"alpha": entry_text(title="Alpha"), "beta": entry_text(title="Beta", renamed_from=["alpha"])}
    assert cross_problems(texts) == [
        f"glossary/beta.md:{line_of(texts['beta'], '- alpha')}: duplicate slug 'alpha': already used by glossary/alpha.md; "
        "expected an old slug no other entry uses"
    ]


def test_related_unknown_term_with_suggestion():
    texts = {"alpha": entry_text(title="Alpha", related=["betta"]), "beta": entry_text(title="Beta")}
    assert cross_problems(texts) == [
        f"glossary/alpha.md:{line_of(texts['alpha'], '- betta')}: 'related' names unknown term 'betta'; "
        "expected the slug of an entry in glossary/ (did you mean 'beta'?)"
    ]


def test_related_lists_itself():
    texts = {"alpha": entry_text(title="Alpha", related=["alpha"])}
    assert cross_problems(texts) == [
        f"glossary/alpha.md:{line_of(texts['alpha'], '- alpha')}: 'related' lists the entry itself ('alpha'); expected other entries"
    ]


def test_term_link_to_unknown_term():
    text = entry_text(title="Alpha", body="First line.\nSee [[gamma]] for more.\n")
    assert cross_problems({"alpha": text}) == [
        f"glossary/alpha.md:{line_of(text, 'See')}: link to unknown term [[gamma]]; expected the slug of an entry in glossary/ (its file name without .md)"
    ]


def test_term_link_suggests_slug_for_alias():
    texts = {"alpha": entry_text(title="Alpha", body="See [[kv cache]].\n"), "kv-cache": entry_text(title="KV cache")}
    assert cross_problems(texts) == [
        f"glossary/alpha.md:{line_of(texts['alpha'], 'See')}: link to unknown term [[kv cache]]; "
        "expected the slug of an entry in glossary/ (did you mean [[kv-cache]]?)"
    ]


def test_plain_relative_link_to_unknown_term():
    text = entry_text(title="Alpha", body="See [gamma](gamma.md#x) too.\n")
    assert cross_problems({"alpha": text}) == [
        f"glossary/alpha.md:{line_of(text, 'See')}: link to unknown term 'gamma.md#x'; "
        "expected a link to an existing glossary/<slug>.md (or use [[slug]])"
    ]


def test_unknown_quantity():
    text = entry_text(title="Alpha", body="Intro.\nIt is {{ ridge accelerator=h100-sxm }}.\n")
    (message,) = cross_problems({"alpha": text})
    assert message.startswith(
        f"glossary/alpha.md:{line_of(text, 'It is')}: in {{{{ ridge accelerator=h100-sxm }}}}: unknown quantity 'ridge' (did you mean ridge_point?); expected one of: "
    )


def test_quantity_with_bad_parameter():
    text = entry_text(title="Alpha", body="It is {{ ridge_point accelerator=h1000 }}.\n")
    assert cross_problems({"alpha": text}) == [
        f"glossary/alpha.md:{line_of(text, 'It is')}: in {{{{ ridge_point accelerator=h1000 }}}}: parameter 'accelerator' of quantity"
        " 'ridge_point': unknown accelerator 'h1000' (did you mean h200?); "
        "expected one of " + ", ".join(ACCELERATORS)
    ]


def test_links_and_quantities_in_code_are_not_checked():
    body = "Use `[[missing]]` and `{{ nope }}`.\n\n```\n[[missing]] {{ nope }}\n```\n"
    assert cross_problems({"alpha": entry_text(title="Alpha", body=body)}) == []


def test_a_broken_entry_still_counts_as_a_link_target():
    texts = {
        "alpha": entry_text(title="Alpha", body="See [[beta]].\n", related=["beta"]),
        "beta": "---\ntitle: [broken\n---\nBody\n",
    }
    assert cross_problems(texts) == []


def test_valid_body_has_no_cross_problem():
    assert (
        cross_problems(
            {"alpha": entry_text(title="Alpha", body=VALID_BODY + "Ridge {{ ridge_point accelerator=h100-sxm }}.\n")}
        )
        == []
    )


# Encodings, control characters, list lengths and slow bodies ----------------------------

from roofline_site.glossary.hostile import MAX_BRACKETS, MAX_EMPHASIS_RUN, decode_entry  # noqa: E402
from roofline_site.glossary.validator import read_entries  # noqa: E402

_ENCODING = "expected UTF-8 text without a byte-order mark (save the file as 'UTF-8', not 'UTF-8 with BOM' or 'UTF-16')"


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (
            "---\ntitle: X\n".encode("utf-16"),
            f"glossary/x.md:1: the file starts with a UTF-16 byte-order mark; {_ENCODING}",
        ),
        (
            "---\ntitle: X\n".encode("utf-16-le"),
            "glossary/x.md:1: a NUL byte in the file; expected text only: letters, digits, punctuation, spaces, tabs and line breaks",
        ),
        (b"\xef\xbb\xbf---\n", f"glossary/x.md:1: the file starts with a UTF-8 byte-order mark; {_ENCODING}"),
        (b"---\ntitle: Caf\xe9\n", f"glossary/x.md:2: byte 0xe9 is not UTF-8; {_ENCODING}"),
        (
            b"---\n\ntitle: A\x1b[31m\n",
            "glossary/x.md:3: control character U+001B in the file; expected text only: letters, digits, punctuation, spaces, tabs and line breaks",
        ),
        (
            "a\u2028b".encode(),
            "glossary/x.md:1: control character U+2028 in the file; expected text only: letters, digits, punctuation, spaces, tabs and line breaks",
        ),
    ],
)
def test_unreadable_files_are_located_errors(data, expected):
    text, problem = decode_entry(data, "glossary/x.md")
    assert text is None and str(problem) == expected


def test_unreadable_files_in_a_glossary_are_reported_without_a_traceback(tmp_path):
    (tmp_path / "wide.md").write_bytes(entry_text().encode("utf-16"))
    (tmp_path / "fine.md").write_text(entry_text(title="Fine term"), encoding="utf-8")
    _entries, found = read_entries(tmp_path)
    assert [str(p) for p in found] == [
        f"glossary/wide.md:1: the file starts with a UTF-16 byte-order mark; {_ENCODING}"
    ]


def test_a_nul_byte_given_as_text_is_refused_too():
    assert only_problem(entry_text(body="Body.\x00\n")) == (
        f"glossary/example-term.md:{line_of(entry_text(body='Body.X'), 'Body.')}: a NUL byte in the file; "
        "expected text only: letters, digits, punctuation, spaces, tabs and line breaks"
    )


@pytest.mark.parametrize("field", ["aliases", "related", "renamed_from"])
def test_lists_longer_than_the_limit(field):
    items = [f"item-{i}" for i in range(MAX_LIST_ITEMS + 1)]
    text = entry_text(**{field: items})
    assert (
        f"glossary/example-term.md:{line_of(text, field + ':')}: field '{field}': {MAX_LIST_ITEMS + 1} values; expected at most {MAX_LIST_ITEMS}"
        in "\n".join(problems(text))
    )


def test_sources_longer_than_the_limit():
    text = entry_text(
        sources=[{"title": f"S{i}", "url": f"https://example.org/{i}"} for i in range(MAX_LIST_ITEMS + 1)]
    )
    assert f"field 'sources': {MAX_LIST_ITEMS + 1} values" in only_problem(text)


@pytest.mark.parametrize(
    "url",
    [
        "https://example.org/a b",
        "https://example.org/a)b",
        "https://example.org/<x>",
        'https://example.org/"x',
        "https://example.org/\\x",
    ],
)
def test_source_addresses_that_could_break_out_are_refused(url):
    assert "is not an https address" in only_problem(entry_text(sources=[{"title": "A page", "url": url}]))


def test_many_unclosed_brackets_are_a_located_error():
    body = "Intro.\n\n" + "[a " * (MAX_BRACKETS + 1) + "\n"
    text = entry_text(body=body)
    assert only_problem(text) == (
        f"glossary/example-term.md:{line_of(text, '[a ')}: more than {MAX_BRACKETS} square brackets '[' in the body ({MAX_BRACKETS + 1}); "
        f"expected at most {MAX_BRACKETS}: unclosed ones make the Markdown parser slow; put such text in a code block"
    )


def test_brackets_in_code_do_not_count():
    assert problems(entry_text(body="```\n" + "[" * (MAX_BRACKETS * 2) + "\n```\n")) == []


def test_a_long_emphasis_run_is_refused_but_a_rule_is_not():
    text = entry_text(body="Some " + "*" * (MAX_EMPHASIS_RUN + 1) + " text.\n")
    assert f"a run of {MAX_EMPHASIS_RUN + 1} '*' in the body" in only_problem(text)
    assert problems(entry_text(body="Above.\n\n" + "_" * 30 + "\n\nBelow.\n")) == []


def test_a_title_with_an_entity_is_refused():
    assert "holds markup characters" in only_problem(entry_text(title="&lt;b&gt;Bold"))


def test_many_unclosed_tags_are_a_located_error():
    from roofline_site.glossary.hostile import MAX_UNCLOSED_TAGS

    text = entry_text(body="Fine <b>bold</b> and a < b.\n\n" + "<b " * (MAX_UNCLOSED_TAGS + 1) + "\n")
    assert only_problem(text).startswith(
        f"glossary/example-term.md:{line_of(text, '<b <b')}: more than {MAX_UNCLOSED_TAGS} unclosed tags ('<' and a letter without '>') in the body ({MAX_UNCLOSED_TAGS + 1}); "
    )
    assert problems(entry_text(body="A <b>closed</b> tag and a < b comparison, " * 40 + "\n")) == []


# The vocabulary's rules, as the front matter meets them -----------------------------------


def test_a_mistyped_category_gets_a_suggestion():
    text = entry_text(category="paralelism")
    assert only_problem(text) == (
        f"glossary/example-term.md:{line_of(text, 'category:')}: field 'category': unknown category 'paralelism' "
        "(did you mean parallelism?); expected one of hardware, memory, formats, attention, serving, parallelism, "
        "metrics, techniques"
    )


def test_title_and_alias_lengths_are_bounded():
    from roofline_site.glossary.schema import MAX_NAME_CHARS

    assert problems(entry_text(title="T" * MAX_NAME_CHARS)) == []
    text = entry_text(title="T" * (MAX_NAME_CHARS + 1))
    assert f"is {MAX_NAME_CHARS + 1} characters long; expected text of at most {MAX_NAME_CHARS} characters" in (
        only_problem(text)
    )
    text = entry_text(aliases=["Fine", "A" * (MAX_NAME_CHARS + 1)])
    assert only_problem(text).startswith(f"glossary/example-term.md:{line_of(text, 'AAAA')}: field 'aliases', item 2: ")


def test_an_impossible_date_is_refused():
    text = entry_text(added="2026-02-30")
    assert only_problem(text) == (
        f"glossary/example-term.md:{line_of(text, 'added:')}: field 'added': '2026-02-30' is not a date; "
        "expected a date written YYYY-MM-DD, e.g. 2026-01-31"
    )


def test_a_related_term_given_twice_is_located_at_the_repeat():
    text = entry_text(related=["beta", "gamma", "beta"])
    assert only_problem(text) == (
        f"glossary/example-term.md:{line_of(text, '- gamma') + 1}: field 'related', item 3: 'beta' is given twice; "
        "expected each value once"
    )


def test_a_related_reserved_slug_is_refused():
    text = entry_text(related=["index"])
    assert "field 'related', item 1: 'index' is reserved" in only_problem(text)


def test_a_source_note_is_optional_and_kept():
    text = entry_text(sources=[{"title": "A", "url": "https://example.org/x", "note": "Table 2"}])
    entry, found = read_entry(text, slug="example-term", path="glossary/example-term.md")
    assert found == []
    assert (entry.sources[0].title, entry.sources[0].note) == ("A", "Table 2")
