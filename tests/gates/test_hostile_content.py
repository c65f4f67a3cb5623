"""Gate: hostile glossary entries are rejected with clear build errors, or neutralised so that
nothing they carry executes in the browser.

Two builds share the corpus (``tests/fixtures/hostile/``, see its README): ``rejected/`` must stop
with one located error per entry, fast and in bounded memory; ``neutralised/`` holds entries the
validator lets through (tricks it cannot see, by class), which must build and reach readers
inert: one Chromium pass opens every page of that build and finds no dialog, no event handler,
no script URL, nothing from another host, no element or attribute outside the sanitiser's
allowlist in an entry body, and the theme's footer and scripts intact.

Fixtures: ``tests/fixtures/hostile/`` (see its README). Builds use the real ``mkdocs.yml``
through ``tests/support/fixture_project.py``. Skipped until the glossary (``hooks/glossary.py``)
is part of the site.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from tests.support.fixture_project import entry, make_fixture_project
from tests.support.site_build import PROJECT_ROOT, measured_build, mkdocs_build
from tests.support.site_pages import html_pages, is_redirect_stub, url_path
from tests.support.static_server import StaticServer

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        not (PROJECT_ROOT / "hooks" / "glossary.py").is_file(),
        reason="the glossary (hooks/glossary.py) has not landed; its validator is what rejects hostile entries",
    ),
]

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "hostile"
CYRILLIC_E = "\u0435"

#: ``(file, line, words the message must hold)``: one build error per hostile entry.
REJECTED = [
    ("script-tag.md", 13, "raw <script>"),
    ("svg-script.md", 13, "raw <script>"),
    ("event-handler.md", 13, "event-handler attribute 'onerror='"),
    ("javascript-link.md", 11, "javascript:"),
    ("iframe.md", 13, "raw <iframe>"),
    ("style-element.md", 13, "raw <style>"),
    ("summary-markup.md", 4, "field 'summary': 'An entry whose summary holds <img src...' holds HTML"),
    ("source-javascript.md", 7, "not an https address"),
    ("lookalike-related.md", 10, "is not a slug"),
    ("lookalike-link.md", 11, f"baseline-t{CYRILLIC_E}rm"),
    ("javascript-reference-link.md", 13, "a javascript: address in the body"),
    ("entity-javascript-link.md", 11, "a javascript: address in the body"),
    ("meta-refresh.md", 13, "raw <meta>"),
    ("remote-image.md", 13, "from another host ('https://example.com/pixel.png')"),
    ("lookalike-title.md", 2, "looks like the title 'Baseline term' of glossary/baseline-term.md"),
    # YAML bombs: refused before anything is constructed.
    ("yaml-billion-laughs.md", 2, "YAML anchor '&a' in the front matter"),
    ("yaml-merge-key.md", 9, "YAML anchor '&base' in the front matter"),
    # Bodies that would make Python-Markdown quadratic, and emphasis runs.
    ("quadratic-brackets.md", 13, "more than 400 square brackets '['"),
    ("quadratic-angles.md", 13, "more than 400 angle brackets '<'"),
    ("quadratic-images.md", 11, "more than 400 square brackets '['"),
    ("emphasis-run.md", 11, "a run of 12 '*' in the body"),
    ("emphasis-paragraph.md", 11, "a paragraph with 480 emphasis markers"),
    # List lengths, source addresses and titles.
    ("too-many-aliases.md", 9, "field 'aliases': 40 values; expected at most 20"),
    ("source-url-paren.md", 7, "is not an https address"),
    ("source-url-space.md", 7, "is not an https address"),
    ("title-entity.md", 2, "holds markup characters"),
    # Bad encodings and control characters.
    ("encoding-utf16.md", 1, "UTF-16 byte-order mark"),
    ("encoding-utf8-bom.md", 1, "UTF-8 byte-order mark"),
    ("encoding-latin1.md", 2, "byte 0xe9 is not UTF-8"),
    ("nul-byte.md", 11, "a NUL byte in the file"),
    ("control-character.md", 11, "control character U+001B"),
    # Addresses whose scheme hides a tab, newline or control character (as character references).
    ("url-control-characters.md", 11, "from another host"),
    ("url-control-characters.md", 13, "from another host"),
    ("url-control-characters.md", 15, "from another host"),
    ("url-control-characters.md", 17, "a javascript: address in the body"),
    # Bidirectional controls anywhere, and character references in names and summaries.
    ("title-bidi-override.md", 2, "bidirectional control U+202E"),
    ("summary-bidi-isolate.md", 4, "bidirectional control U+2067"),
    ("alias-bidi-mark.md", 6, "bidirectional control U+200F"),
    ("body-bidi-override.md", 11, "bidirectional control U+202E"),
    ("title-legacy-entity.md", 2, "read as a character reference"),
    ("summary-legacy-entity.md", 4, "read as a character reference"),
    ("summary-numeric-reference.md", 4, "read as a character reference"),
    ("alias-entity.md", 6, "read as a character reference"),
]

#: Both builds must finish within these budgets (CPU seconds, so a busy machine does not fail
#: them): the rejected one (its largest entries are 15 kB
#: bodies of unclosed brackets that would take Python-Markdown most of a minute) and the
#: neutralised one (with an entry of nearly 100 kB at every body limit at once).
BUILD_BUDGET_S = 90.0
BUILD_BUDGET_BYTES = 600 * 1024 * 1024


def _at_the_limits() -> str:
    """A valid entry of nearly 100 kB with as many brackets, unclosed tags and emphasis markers as
    the validator allows: the slowest body an entry may have."""
    from roofline_site.glossary.hostile import MAX_BRACKETS, MAX_EMPHASIS_MARKERS_PER_PARAGRAPH, MAX_UNCLOSED_TAGS

    body = (
        "[a " * MAX_BRACKETS
        + "\n\n"
        + "<b " * MAX_UNCLOSED_TAGS
        + "\n\n"
        + "*a* " * (MAX_EMPHASIS_MARKERS_PER_PARAGRAPH // 2)
        + "\n\n"
        + ("Filler words for a large but legal entry body, read by the parser after every bracket. " * 12 + "\n\n") * 85
    )
    return entry("At the limits", "An entry of nearly 100 kB at every body limit at once.", body)


@pytest.fixture(scope="module")
def rejected_build(tmp_path_factory):
    """The measured build of the whole ``rejected/`` fixture glossary."""
    root = tmp_path_factory.mktemp("hostile-rejected")
    config = make_fixture_project(root, entries_from=FIXTURES / "rejected")
    return measured_build(config, root / "site")


def _error_lines(output: str) -> list[str]:
    # The first line of a build error carries MkDocs' "Error: ..." prefix; keep what follows.
    return [
        line[line.index("glossary/") :].strip()
        for line in output.splitlines()
        if re.search(r"glossary/\S+\.md:\d+: ", line)
    ]


def test_hostile_entries_stop_the_build_without_a_traceback(rejected_build):
    returncode, output, _seconds, _peak = rejected_build
    assert returncode != 0, "a glossary of hostile entries built"
    assert "Traceback" not in output, output[-3000:]


def test_hostile_entries_stop_the_build_within_time_and_memory(rejected_build):
    _returncode, _output, seconds, peak_bytes = rejected_build
    assert seconds < BUILD_BUDGET_S, f"the rejected build took {seconds:.1f} CPU seconds"
    assert peak_bytes < BUILD_BUDGET_BYTES, f"the rejected build peaked at {peak_bytes / 1e6:.0f} MB"


@pytest.mark.parametrize(("name", "line", "words"), REJECTED, ids=[r[0] for r in REJECTED])
def test_each_hostile_entry_gets_a_located_error(rejected_build, name, line, words):
    _returncode, output, _seconds, _peak = rejected_build
    mine = [error for error in _error_lines(output) if error.startswith(f"glossary/{name}:{line}: ")]
    assert any(words in error and "; expected" in error for error in mine), (
        f"no 'glossary/{name}:{line}: ...{words}...; expected ...' error; errors were:\n"
        + "\n".join(_error_lines(output))
    )


def _single_entry_build(tmp_path: Path, name: str, text: str) -> tuple[int, str]:
    config = make_fixture_project(tmp_path, extra={name: text})
    result = mkdocs_build(config, tmp_path / "site")
    return result.returncode, result.stdout + result.stderr


def test_a_lookalike_file_name_is_rejected(tmp_path):
    # Alone in its build: beside it, links to its Cyrillic slug would resolve.
    name = f"baseline-t{CYRILLIC_E}rm.md"
    returncode, output = _single_entry_build(
        tmp_path, name, (FIXTURES / "lookalike-file-name.md").read_text(encoding="utf-8")
    )
    assert returncode != 0 and "Traceback" not in output, output[-2000:]
    assert any(e.startswith(f"glossary/{name}:1: ") and "not a valid slug" in e for e in _error_lines(output)), output[
        -2000:
    ]


def test_a_list_nested_three_hundred_levels_is_a_located_error(tmp_path):
    # Python-Markdown recurses once per level and overflows Python's stack at about 300; the
    # validator stops at the first line deeper than 20 levels (body from line 11; level 21 is
    # the line after 20 tabs: 11 + 2 + 20).
    body = "Deep.\n\n" + "".join("\t" * depth + "- level\n" for depth in range(300))
    returncode, output = _single_entry_build(
        tmp_path, "deep-list.md", entry("Deep list", "An entry with a list nested three hundred levels deep.", body)
    )
    assert returncode != 0
    assert "Traceback" not in output and "RecursionError" not in output, output[-2000:]
    assert "glossary/deep-list.md:33: lists or quotes nested 21 levels deep; expected at most 20 levels" in "\n".join(
        _error_lines(output)
    ), output[-2000:]


def test_a_huge_entry_is_a_located_error(tmp_path):
    # A megabyte: a hundred times a long real entry, and slow to render on every build.
    body = ("Padding words that make this entry far larger than any real definition needs. " * 16 + "\n\n") * 820
    assert len(body) > 1_000_000
    returncode, output = _single_entry_build(
        tmp_path, "huge-entry.md", entry("Huge entry", "An entry of a megabyte.", body)
    )
    assert returncode != 0
    assert "Traceback" not in output, output[-2000:]
    assert any(
        re.fullmatch(r"glossary/huge-entry\.md:1: the entry is 1,\d{3} kB; expected at most 100 kB: .*", e)
        for e in _error_lines(output)
    ), output[-2000:]


# Neutralised: valid entries whose hostile-looking text must stay text -------------------


class _ActiveMarkup(HTMLParser):
    """Elements and attributes that would run code: event handlers, javascript: URLs, scripts."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self.inline_scripts: list[str] = []
        self._script: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            # Browsers drop ASCII whitespace and control characters inside a URL's scheme.
            compact = re.sub(r"[\x00-\x20]", "", value or "").lower()
            if name.startswith("on"):
                self.found.append(f"<{tag} {name}=...> at line {self.getpos()[0]}")
            elif name in ("href", "src", "action", "formaction", "xlink:href", "data") and compact.startswith(
                ("javascript:", "vbscript:", "data:text/html")
            ):
                self.found.append(f"<{tag} {name}={value!r}> at line {self.getpos()[0]}")
        kind = (dict(attrs).get("type") or "").lower()
        if tag == "script" and "src" not in dict(attrs) and kind in ("", "module", "text/javascript"):
            self._script = []
        if tag in ("iframe", "object", "embed", "base"):
            self.found.append(f"<{tag}> at line {self.getpos()[0]}")

    def handle_data(self, data: str) -> None:
        if self._script is not None:
            self._script.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "script" and self._script is not None:
            self.inline_scripts.append("".join(self._script))
            self._script = None


def _unbased(script: str) -> str:
    return re.sub(r'new URL\("[./]*",location\)', "new URL(BASE,location)", script)


def _active_markup(html: str) -> _ActiveMarkup:
    parser = _ActiveMarkup()
    parser.feed(html)
    parser.close()
    return parser


@pytest.fixture(scope="module")
def neutralised_build(tmp_path_factory):
    root = tmp_path_factory.mktemp("hostile-neutralised")
    text = _at_the_limits()
    assert 90_000 < len(text.encode("utf-8")) < 100_000
    config = make_fixture_project(root, entries_from=FIXTURES / "neutralised", extra={"at-the-limits.md": text})
    returncode, output, seconds, peak_bytes = measured_build(config, root / "site")
    assert returncode == 0, f"the neutralised fixtures should build:\n{output}"
    return root / "site", seconds, peak_bytes


@pytest.fixture(scope="module")
def neutralised_site(neutralised_build):
    return neutralised_build[0]


def test_neutralised_entries_build_within_time_and_memory(neutralised_build):
    _site, seconds, peak_bytes = neutralised_build
    assert seconds < BUILD_BUDGET_S, f"the neutralised build took {seconds:.1f} CPU seconds"
    assert peak_bytes < BUILD_BUDGET_BYTES, f"the neutralised build peaked at {peak_bytes / 1e6:.0f} MB"


def test_every_neutralised_page_holds_only_what_its_templates_write(neutralised_site):
    # The whole document, not only the entry body: the sidebar's contents, titles, head.
    from roofline_site.page_allowlist import check_page

    problems = []
    for page in html_pages(neutralised_site):
        text = (neutralised_site / page).read_text(encoding="utf-8")
        problems += check_page(text, path=page, redirect=is_redirect_stub(text))
    assert problems == [], "\n".join(problems[:40])


def test_neutralised_entries_reach_twins_llms_txt_and_json_ld_as_text(neutralised_site):
    # The outputs for assistants and crawlers (hooks/machine_readable.py) carry the same
    # contributor text: a twin or llms.txt holds no HTML CommonMark would pass through, and a
    # page's JSON-LD stays one data block whose values come back exactly as written.
    import json

    from markdown_it import MarkdownIt

    from tests.support.json_ld import json_ld_blocks

    parser = MarkdownIt("commonmark")
    texts = sorted(neutralised_site.glob("glossary/*/index.md")) + [
        neutralised_site / "llms.txt",
        neutralised_site / "llms-full.txt",
    ]
    assert len(texts) > 10
    offenders = []
    for path in texts:
        pending = list(parser.parse(path.read_text(encoding="utf-8")))
        while pending:
            token = pending.pop(0)
            pending[:0] = token.children or []
            if token.type in ("html_block", "html_inline"):
                offenders.append(f"{path.relative_to(neutralised_site)}: {token.content[:80]!r}")
    assert offenders == [], "\n".join(offenders[:40])
    for page in html_pages(neutralised_site):
        for block in json_ld_blocks((neutralised_site / page).read_text(encoding="utf-8")):
            assert "<" not in block and ">" not in block, page
            json.loads(block)
    front = (neutralised_site / "glossary" / "hostile-front-matter" / "index.html").read_text(encoding="utf-8")
    (block,) = json_ld_blocks(front)
    assert json.loads(block)["alternateName"] == [
        "<img src=x onerror=alert('alias2')>",
        "[link](javascript:alert('alias-md'))",
        "{: onclick=alert('alias-attr') }",
        "</title><script>alert('alias-title')</script>",
    ]


def test_neutralised_entries_render_no_active_markup(neutralised_site):
    # The theme's own inline scripts (as on the home page, up to the relative base URL in
    # Material's storage-scope script) are the only ones allowed.
    theme_scripts = {
        _unbased(t)
        for t in _active_markup((neutralised_site / "index.html").read_text(encoding="utf-8")).inline_scripts
    }
    offenders = []
    for page in html_pages(neutralised_site):
        found = _active_markup((neutralised_site / page).read_text(encoding="utf-8"))
        offenders += [f"{page}: {item}" for item in found.found]
        offenders += [
            f"{page}: inline script {text[:80]!r}"
            for text in found.inline_scripts
            if _unbased(text) not in theme_scripts
        ]
    assert not offenders, "hostile markup reached the pages as markup:\n" + "\n".join(offenders)
    glossary_json = (neutralised_site / "glossary.json").read_text(encoding="utf-8")
    assert "onerror" in glossary_json, "the alias should be kept, as data"


#: What the browser pass reads from each page: event-handler attributes anywhere, URLs that
#: run script, and, inside an entry's body (figures and calculators aside, they are the
#: build's), every element and attribute outside the sanitiser's allowlist.
_INSPECT = """(allowed) => {
  const found = [];
  const urlAttributes = ['href', 'src', 'action', 'formaction', 'xlink:href', 'data', 'poster', 'srcset', 'values', 'to', 'from', 'by'];
  for (const el of document.querySelectorAll('*')) {
    for (const attr of el.attributes) {
      const name = attr.name.toLowerCase();
      if (name.startsWith('on')) found.push(`<${el.localName} ${name}>`);
      if (urlAttributes.includes(name) && /^\\s*(javascript|vbscript|data:text)/i.test(attr.value.replace(/[\\x00-\\x20]/g, ''))) found.push(`<${el.localName} ${name}=${attr.value}>`);
    }
  }
  for (const body of document.querySelectorAll('.glossary-entry__body')) {
    for (const el of body.querySelectorAll('*')) {
      if (el.closest('figure.roofline-figure, .roofline-calculator')) continue;
      // Added at run time by the theme (code copy buttons, focus marks) and the previews.
      if (el.closest('.md-code__nav')) continue;
      if (!allowed.tags.includes(el.localName)) found.push(`body element <${el.localName}>`);
      for (const attr of el.attributes) {
        const runtime = attr.name.startsWith('data-md-') || ['data-focus-visible-added', 'aria-describedby'].includes(attr.name);
        const ok = runtime || (allowed.attributes[el.localName] || []).includes(attr.name) || allowed.attributes['*'].includes(attr.name) || ['align', 'data-glossary-term'].includes(attr.name);
        if (!ok) found.push(`body attribute <${el.localName} ${attr.name}>`);
      }
      for (const name of el.classList) {
        if (!allowed.classes.includes(name) && !name.startsWith('language-') && name !== 'focus-visible') found.push(`body class <${el.localName} class=${name}>`);
      }
      if (el.localName === 'img' && new URL(el.getAttribute('src') || '', location).origin !== location.origin) found.push(`remote image ${el.src}`);
    }
  }
  return {
    found,
    footer: !!document.querySelector('footer.md-footer'),
    themeScripts: typeof __md_get === 'function' && typeof document$ !== 'undefined',
  };
}"""


def _glossary_pages(site: Path) -> list[str]:
    return [
        p
        for p in html_pages(site)
        if (p.startswith("glossary/") or p == "index.html")
        and not is_redirect_stub((site / p).read_text(encoding="utf-8"))
    ]


@pytest.mark.browser
def test_nothing_executes_in_the_browser(neutralised_site, page_factory):
    from roofline_site.glossary.sanitize import ALLOWED_ATTRIBUTES, ALLOWED_CLASSES, ALLOWED_TAGS

    allowed = {
        "tags": sorted(ALLOWED_TAGS),
        "attributes": {k: sorted(v) for k, v in ALLOWED_ATTRIBUTES.items()},
        "classes": sorted(ALLOWED_CLASSES),
    }
    page, watch = page_factory()
    problems: list[str] = []
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(f"{page.url}: {dialog.message}"), dialog.dismiss()))
    pages = _glossary_pages(neutralised_site)
    assert len(pages) > 25, pages
    with StaticServer(neutralised_site) as server:
        for name in pages:
            marker = len(watch.page_errors)
            url = server.url + url_path(name)
            page.goto(url, wait_until="load")
            # Hover and focus everything in the body: handlers on those events would fire.
            page.evaluate(
                "() => { for (const el of document.querySelectorAll('.glossary-entry__body *')) {"
                " el.dispatchEvent(new MouseEvent('mouseover', {bubbles: true})); if (el.focus) el.focus(); } }"
            )
            page.wait_for_timeout(150)
            result = page.evaluate(_INSPECT, allowed)
            problems += [f"{name}: {item}" for item in result["found"]]
            if not result["footer"] or not result["themeScripts"]:
                problems.append(
                    f"{name}: footer present {result['footer']}, theme scripts running {result['themeScripts']}"
                )
            if page.url.split("#")[0] != url:
                problems.append(f"{name}: navigated to {page.url}")
            problems += [f"{name}: {e}" for e in watch.page_errors[marker:]]
            # Previews write aliases and summaries into the page: open a few.
            for link in page.locator("a[data-glossary-term]").all()[:2]:
                link.focus()
                page.wait_for_timeout(150)
        # The index filter and search echo what a reader types.
        page.goto(server.url + "glossary/", wait_until="load")
        payload = "<img src=x onerror=alert('typed')>"
        if page.locator("[data-glossary-filter] input").count():
            page.locator("[data-glossary-filter] input").press_sequentially(payload)
        page.keyboard.press("Escape")
        page.locator("input.md-search__input").focus()
        page.locator("input.md-search__input").press_sequentially("onerror")
        page.wait_for_timeout(1000)
    assert dialogs == [], f"hostile content executed: {dialogs}"
    assert problems == [], "hostile content reached readers live:\n" + "\n".join(problems)
    assert watch.external_requests == [], watch.external_requests


#: The contents of ``neutralised/hostile-heading-toc.md`` as a reader must see them: text.
TOC_TEXTS = [
    "Quoted id",
    "Label swap",
    "Escaped angle > then <i>text</i>",
    "Comment in the sidebar--> trick",
    "2026 and <code> in a heading",
    "Placed",
    "Sources",
]


@pytest.mark.browser
@pytest.mark.parametrize("with_headers", [False, True], ids=["meta-csp-only", "headers-csp"])
def test_headings_reach_the_table_of_contents_as_text(neutralised_site, page_factory, with_headers):
    from roofline_site import csp

    headers = csp.parse_headers_file((neutralised_site / "_headers").read_text(encoding="utf-8"))["/*"]
    page, watch = page_factory()
    with StaticServer(neutralised_site, headers=headers if with_headers else None) as server:
        url = server.url + "glossary/hostile-heading-toc/"
        page.goto(url, wait_until="load")
        title = page.title()
        page.evaluate(
            "() => { for (const el of document.querySelectorAll('.md-sidebar *, .md-header *')) {"
            " el.dispatchEvent(new MouseEvent('mouseover', {bubbles: true})); if (el.focus) el.focus(); } }"
        )
        page.wait_for_timeout(1200)  # longer than a refresh of 0 or 1 s would wait
        texts = page.locator("nav.md-nav--secondary a.md-nav__link").all_inner_texts()
        live = page.evaluate(
            "() => [...document.querySelectorAll('.md-sidebar *')].filter(el => "
            "[...el.attributes].some(a => a.name.startsWith('on')) || ['meta', 'b', 'i', 'img', 'code'].includes(el.localName))"
            ".map(el => el.outerHTML.slice(0, 80))"
        )
        hrefs = page.locator("nav.md-nav--secondary a.md-nav__link").evaluate_all(
            "els => els.map(a => a.getAttribute('href'))"
        )
        assert page.url == url and page.title() == title, (page.url, page.title())
    assert [t.strip() for t in texts] == TOC_TEXTS
    assert live == [], live
    # Material's scripts make the links absolute; each must stay on the page, at a slug.
    assert all(re.fullmatch(re.escape(url) + r"#[A-Za-z0-9][A-Za-z0-9_-]*", href) for href in hrefs), hrefs
    assert watch.page_errors == [] and watch.external_requests == [], (watch.page_errors, watch.external_requests)


def test_an_entry_over_its_render_time_budget_is_named(tmp_path):
    # With a budget of zero every entry is over it; the first one rendered is named, by file and line.
    config = make_fixture_project(
        tmp_path, extra={"slow-entry.md": entry("Slow entry", "An entry that takes too long to render.", "Body.\n")}
    )
    result = mkdocs_build(config, tmp_path / "site", env={"ROOFLINE_ENTRY_RENDER_BUDGET_S": "0"})
    output = result.stdout + result.stderr
    assert result.returncode != 0 and "Traceback" not in output, output[-2000:]
    assert re.search(r"glossary/slow-entry\.md:10: rendering the entry took \d+\.\d s; expected under 0 s: ", output), (
        output[-2000:]
    )


def test_an_inline_script_outside_the_templates_fails_the_build(tmp_path):
    # Hand-written pages are not sanitised; a script in one is still not authorised by the CSP.
    config = make_fixture_project(tmp_path, extra={"plain.md": entry("Plain", "A plain entry.", "Body.\n")})
    (tmp_path / "docs" / "index.md").write_text("# Home\n\n<script>alert('docs')</script>\n", encoding="utf-8")
    result = mkdocs_build(config, tmp_path / "site")
    output = result.stdout + result.stderr
    assert result.returncode != 0 and "Traceback" not in output, output[-2000:]
    assert "index.md: inline script \"alert('docs')\" is not one of the theme's or the project's own" in output, output[
        -2000:
    ]
