"""Real ``mkdocs build --strict`` runs: the project's site, and small fixture projects, broken or not."""

from __future__ import annotations

import hashlib
import html
import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from roofline_core.hardware import ACCELERATORS
from roofline_core.version import data_version
from roofline_site.glossary import CATEGORIES
from roofline_site.glossary.render import MENTIONED_IN_MARKER
from tests.hooks.glossary_fixture import build, entry, error_lines, make_project
from tests.support.shipped_glossary import shipped_glossary

GLOSSARY = shipped_glossary()
FLAGSHIPS = ("roofline", "arithmetic-intensity", "prefill", "decode", "memory-bandwidth")
# Every term the issue asks the glossary to cover, by slug.
REQUIRED = FLAGSHIPS + (
    "ridge-point",
    "memory-bound",
    "compute-bound",
    "hbm",
    "sram",
    "peak-flops",
    "tensor-cores",
    "kv-cache",
    "batching",
    "continuous-batching",
    "critical-batch-size",
    "speed-of-light",
    "tokens-per-second",
    "time-to-first-token",
    "inter-token-latency",
    "gemv",
    "gemm",
    "quantization",
    "speculative-decoding",
    "flashattention",
    "grouped-query-attention",
    "multi-head-latent-attention",
    "tensor-parallelism",
    "prefill-decode-disaggregation",
    "model-flops-utilisation",
)


def _page(site: Path, slug: str) -> str:
    return (site / "glossary" / slug / "index.html").read_text(encoding="utf-8")


def _article(html: str) -> str:
    return html.split('<article class="md-content__inner md-typeset">', 1)[1].split("</article>", 1)[0]


# The project's site ----------------------------------------------------------------------


def test_covers_every_required_term_with_at_least_30_entries():
    assert len(GLOSSARY.entries) >= 30
    assert [slug for slug in REQUIRED if slug not in GLOSSARY.entries] == []


@pytest.mark.slow
def test_a_page_per_term_with_all_its_sections(built_site):
    for slug, e in GLOSSARY.entries.items():
        article = _article(_page(built_site, slug))
        heading = article.split("<h1", 1)[1].split("</h1>", 1)[0]
        assert f">{html.escape(e.title, quote=False)}<" in heading, slug
        for piece in (
            f"glossary-tag--{e.category}",
            f'<p class="glossary-entry__summary">{html.escape(e.summary, quote=False)}</p>',
            'id="sources"',
            "Back to glossary",
        ):
            assert piece in article, (slug, piece)
        assert MENTIONED_IN_MARKER not in article
        # Every [[link]] and {{ quantity }} was rewritten.
        assert "[[" not in article and "{{" not in article, slug
        for source in e.sources:
            assert f'href="{source.url}"' in article


@pytest.mark.slow
def test_every_term_page_links_to_its_source_file_and_the_suggest_form(built_site):
    """With mkdocs.yml's default repository (REPOSITORY_URL unset in tests); the fixture tests in
    test_glossary_contribute_links.py show the setting moving them."""
    repository = "https://github.com/OWNER/roofline-glossary"
    for slug in GLOSSARY.entries:
        article = _article(_page(built_site, slug))
        assert f'href="{repository}/edit/main/glossary/{slug}.md" data-glossary-role="edit">Edit this page<' in article
        assert (
            f'href="{repository}/issues/new?template=suggest-a-term.yml" data-glossary-role="suggest">Suggest a term<'
            in article
        ), slug


@pytest.mark.slow
def test_flagships_are_linked_from_home_which_is_not_listed_as_a_mention(built_site):
    # The home page's reading path links every flagship; "Mentioned in" lists the pages that
    # use a term, and the home page in every flagship's list would say nothing.
    home = _article((built_site / "index.html").read_text(encoding="utf-8"))
    for slug in FLAGSHIPS:
        assert f'<a data-glossary-term="{slug}" href="glossary/{slug}/">' in home
        mentions = _page(built_site, slug).split('id="mentioned-in"', 1)[1].split("</ul>", 1)[0]
        assert '<a href="../../">Home</a>' not in mentions and "<li>" in mentions


@pytest.mark.slow
def test_mentioned_in_lists_pages_that_link_in_body_only(built_site):
    # decode.md links to prefill in its body; prefill's related list names decode too, but
    # related and index links do not count as mentions.
    prefill_mentions = _page(built_site, "prefill").split('id="mentioned-in"', 1)[1].split("</ul>", 1)[0]
    assert '<a href="../decode/">Decode</a>' in prefill_mentions
    assert "Glossary</a>" not in prefill_mentions


@pytest.mark.slow
def test_index_lists_each_term_once_by_category(built_site):
    index = _article((built_site / "glossary" / "index.html").read_text(encoding="utf-8"))
    for slug, _e in GLOSSARY.entries.items():
        assert index.count(f'href="{slug}/"') == 1, slug
    for category in {e.category for e in GLOSSARY.entries.values()}:
        assert f'id="{category}"' in index
    assert re.search(r'data-glossary-filter data-glossary-az="[^"]*" hidden>', index)


@pytest.mark.slow
def test_a_page_per_category_linked_from_the_index_and_each_term(built_site):
    index = _article((built_site / "glossary" / "index.html").read_text(encoding="utf-8"))
    for category in CATEGORIES:
        page = _article((built_site / "glossary" / "category" / category / "index.html").read_text(encoding="utf-8"))
        members = sorted(slug for slug, e in GLOSSARY.entries.items() if e.category == category)
        listed = sorted(re.findall(r'data-glossary-role="index" href="\.\./\.\./([a-z0-9-]+)/"', page))
        assert listed == members, category
        summaries = [
            html.unescape(s)
            for s in re.findall(r'<span class="glossary-index__summary" data-search-exclude>(.*?)</span>', page)
        ]
        assert summaries == [e.summary for e in GLOSSARY.sorted_entries() if e.category == category]
        assert f'<a href="category/{category}/">' in index
    for slug, e in GLOSSARY.entries.items():
        assert f'glossary-tag--{e.category}" href="../category/{e.category}/"' in _page(built_site, slug), slug


@pytest.mark.slow
def test_glossary_json(built_site):
    data = json.loads((built_site / "glossary.json").read_text(encoding="utf-8"))
    by_slug = {t["slug"]: t for t in data["terms"]}
    assert set(by_slug) == set(GLOSSARY.entries)
    kv = by_slug["kv-cache"]
    assert kv["title"] == "KV cache" and kv["category"] == "memory"
    assert kv["url"] == "http://127.0.0.1:8000/glossary/kv-cache/" and kv["path"] == "glossary/kv-cache/"
    assert "Key-value cache" in kv["aliases"]
    assert kv["summary"] == GLOSSARY.entries["kv-cache"].summary
    # The numbers' provenance: the data version of the roofline_core that built the site.
    assert data["data_version"] == data_version()


@pytest.mark.slow
def test_rss_feed(built_site):
    channel = ET.parse(built_site / "glossary" / "feed.xml").getroot().find("channel")
    items = channel.findall("item")
    assert len(items) == len(GLOSSARY.entries)
    assert all(i.findtext("link").startswith("http://127.0.0.1:8000/glossary/") for i in items)
    home = (built_site / "index.html").read_text(encoding="utf-8")
    assert '<link rel="alternate feed" type="application/rss+xml"' in home


@pytest.mark.slow
def test_redirects_from_aliases_and_renamed_slugs(built_site):
    for old, slug in GLOSSARY.redirects().items():
        html = (built_site / "glossary" / old / "index.html").read_text(encoding="utf-8")
        assert f'<meta http-equiv="refresh" content="0; url=../{slug}/">' in html, old
        assert f'<link rel="canonical" href="http://127.0.0.1:8000/glossary/{slug}/">' in html


@pytest.mark.slow
def test_link_preview_meta(built_site):
    html = _page(built_site, "roofline")
    summary = GLOSSARY.entries["roofline"].summary
    assert f'<meta name="description" content="{summary}">' in html
    assert '<link rel="canonical" href="http://127.0.0.1:8000/glossary/roofline/">' in html
    assert '<meta property="og:title" content="Roofline">' in html
    assert f'<meta property="og:description" content="{summary}">' in html
    assert '<meta property="og:url" content="http://127.0.0.1:8000/glossary/roofline/">' in html
    assert '<meta property="og:type" content="article">' in html


@pytest.mark.slow
def test_search_finds_terms_by_title_and_alias(built_site):
    docs = json.loads((built_site / "search" / "search_index.json").read_text(encoding="utf-8"))["docs"]
    pages = {d["location"]: d for d in docs if "#" not in d["location"]}
    kv = pages["glossary/kv-cache/"]
    assert kv["title"] == "KV cache" and kv.get("boost") == 2
    for alias in GLOSSARY.entries["kv-cache"].aliases:
        assert alias in kv["text"]


def _glossary_nav_item_classes(page_html: str) -> str:
    nav = page_html.split("md-nav--primary", 1)[1]
    found = re.search(
        r'<li class="([^"]*)">\s*<a href="[^"]*" class="md-nav__link[^"]*">\s*<span class="md-ellipsis">\s*Glossary\s*<',
        nav,
    )
    assert found, "no Glossary entry in the navigation"
    return found.group(1)


@pytest.mark.slow
def test_glossary_is_highlighted_in_the_navigation_on_term_and_category_pages(built_site):
    category = next(iter(GLOSSARY.entries.values())).category
    for page in (built_site / "glossary" / "decode", built_site / "glossary" / "category" / category):
        assert "md-nav__item--active" in _glossary_nav_item_classes((page / "index.html").read_text(encoding="utf-8"))
    # Only while those pages render: elsewhere the entry is a plain link.
    other = (built_site / "calculators" / "kv-cache" / "index.html").read_text(encoding="utf-8")
    assert "active" not in _glossary_nav_item_classes(other)


@pytest.mark.slow
def test_search_excerpts_are_the_pages_prose(built_site):
    # A result's excerpt is what a reader would quote: no option lists, result cards or
    # navigation (calculators, breadcrumbs, dates and back links are kept out of the index).
    docs = json.loads((built_site / "search" / "search_index.json").read_text(encoding="utf-8"))["docs"]
    pages = {d["location"]: d["text"] for d in docs}
    for location in ("calculators/decode-speed-of-light/", "calculators/kv-cache/", "calculators/operations-table/"):
        assert pages[location].startswith("<p>"), location
        # "Mixtral 8x22B" is an option of the model list only (the prose names Llama 3 8B, the
        # preset's name since issue 30 gave presets one naming style).
        for debris in ("Mixtral 8x22B", "More inputs", "Copy link", "Dismiss", "FLOP/byte</"):
            assert debris not in pages[location], (location, debris)
    decode = GLOSSARY.entries["decode"]
    assert pages["glossary/decode/"].startswith(f"<p>{html.escape(decode.summary, quote=False)}</p>")
    assert all("Back to glossary" not in text for text in pages.values())


@pytest.mark.slow
def test_links_to_terms_carry_preview_markup(built_site):
    html = _article(_page(built_site, "roofline"))
    assert '<a data-glossary-term="arithmetic-intensity" href="../arithmetic-intensity/">' in html
    # Heading permalinks on a term page are not links to the term.
    assert 'data-glossary-term="roofline"' not in html


# Fixture projects ---------------------------------------------------------------------------


def _tree_digest(root: Path) -> dict[str, str]:
    return {
        p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def test_build_never_writes_into_docs_or_glossary(tmp_path):
    root = make_project(
        tmp_path,
        {"alpha": entry("Alpha", body="Alpha links [[beta]].\n", extra="aliases:\n  - First\n"), "beta": entry("Beta")},
        home="See [[alpha]] and {{ ridge_point accelerator=h100-sxm }}.\n",
    )
    before = {name: _tree_digest(root / name) for name in ("docs", "glossary")}
    result = build(root)
    assert result.returncode == 0, result.stdout + result.stderr
    assert {name: _tree_digest(root / name) for name in ("docs", "glossary")} == before
    site = root / "site"
    assert (site / "glossary" / "alpha" / "index.html").exists() and (
        site / "glossary" / "first" / "index.html"
    ).exists()
    assert "295 FLOP/byte" in (site / "index.html").read_text(encoding="utf-8")


def test_mentioned_in_is_left_out_when_no_page_links_to_the_term(tmp_path):
    root = make_project(tmp_path, {"alpha": entry("Alpha", body="Alpha links [[beta]].\n"), "beta": entry("Beta")})
    result = build(root)
    assert result.returncode == 0, result.stdout + result.stderr
    alpha = (root / "site" / "glossary" / "alpha" / "index.html").read_text(encoding="utf-8")
    beta = (root / "site" / "glossary" / "beta" / "index.html").read_text(encoding="utf-8")
    # Heading, list and table-of-contents entry all go; nothing says "nothing here".
    assert 'id="mentioned-in"' not in alpha and 'href="#mentioned-in"' not in alpha
    assert MENTIONED_IN_MARKER not in alpha
    assert 'id="mentioned-in"' in beta and 'href="#mentioned-in"' in beta
    assert '<a href="../alpha/">Alpha</a>' in beta.split('id="mentioned-in"', 1)[1]


def test_file_style_urls(tmp_path):
    root = make_project(
        tmp_path,
        {"alpha": entry("Alpha", extra="aliases:\n  - First\n")},
        home="[[alpha]]\n",
        config="use_directory_urls: false\n",
    )
    result = build(root)
    assert result.returncode == 0, result.stdout + result.stderr
    site = root / "site"
    assert '<a data-glossary-term="alpha" href="glossary/alpha.html">' in (site / "index.html").read_text(
        encoding="utf-8"
    )
    assert 'url=alpha.html">' in (site / "glossary" / "first.html").read_text(encoding="utf-8")
    assert json.loads((site / "glossary.json").read_text(encoding="utf-8"))["terms"][0]["path"] == "glossary/alpha.html"


BROKEN = {
    "broken-yaml": (
        {"alpha": "---\ntitle: Alpha\nsummary: [unclosed\ncategory: hardware\n---\nBody.\n"},
        "# Home\n",
        "glossary/alpha.md:4: front matter is not valid YAML (did not find expected ',' or ']'); "
        "expected 'key: value' lines (quote values that contain ': ' or start with a symbol)",
    ),
    "unknown-category": (
        {"alpha": entry("Alpha", category="silicon")},
        "# Home\n",
        "glossary/alpha.md:3: field 'category': unknown category 'silicon'; expected one of hardware, memory, formats, attention, serving, parallelism, metrics, techniques",
    ),
    "unknown-term-in-docs-page": (
        {"alpha": entry("Alpha")},
        "---\ntitle: Start\n---\n\n# Home\n\nRead [[alpah]] first.\n",
        "docs/index.md:7: link to unknown term [[alpah]]; expected the slug of an entry in glossary/ (did you mean [[alpha]]?)",
    ),
    "script-in-body": (
        {"alpha": entry("Alpha", body="Fine.\n\n<script>alert(1)</script>\n")},
        "# Home\n",
        "glossary/alpha.md:12: raw <script> in the body; expected Markdown only; show HTML as code in backticks if the entry is about it",
    ),
    "bad-quantity": (
        {"alpha": entry("Alpha", body="Ridge: {{ ridge_point accelerator=h1000 }}.\n")},
        "# Home\n",
        "glossary/alpha.md:10: in {{ ridge_point accelerator=h1000 }}: parameter 'accelerator' of quantity 'ridge_point': unknown "
        "accelerator 'h1000' (did you mean h200?); expected one of " + ", ".join(ACCELERATORS),
    ),
    "duplicate-alias": (
        {"alpha": entry("Alpha", extra="aliases:\n  - Same\n"), "beta": entry("Beta", extra="aliases:\n  - same\n")},
        "# Home\n",
        "glossary/beta.md:6: alias 'same' is already used by glossary/alpha.md; expected a title or alias no other entry uses",
    ),
    # The prose checks: each class of untrustworthy content stops the strict build.
    "scenario-does-not-fit": (
        {"alpha": entry("Alpha", body="A step takes {{ decode_step_time model=llama-3-70b accelerator=h100-sxm }}.\n")},
        "# Home\n",
        "glossary/alpha.md:10: {{ decode_step_time model=llama-3-70b accelerator=h100-sxm }} needs 141 GB of weights"
        " and 0 B of KV cache, more than the 85.9 GB its devices hold once 8.96 GB is kept for the serving runtime;"
        " expected a scenario that fits (more devices=,"
        " a smaller model, weight_dtype=fp8, a shorter context or batch), or hypothetical=yes in a sentence that"
        " calls the figure hypothetical",
    ),
    "figure-typed-by-hand": (
        {"alpha": entry("Alpha", body="Intro.\n\nThe card holds 80 GB.\n")},
        "# Home\n",
        "glossary/alpha.md:12: '80 GB' is a performance figure typed by hand; expected a {{ ... }} quantity"
        " (docs/authoring-terms.md lists them), so a corrected preset corrects every page; quote a source's own figure"
        " between quotation marks",
    ),
    "term-link-one-bracket": (
        {"alpha": entry("Alpha", body="See [[beta] first.\n")},
        "# Home\n",
        "glossary/alpha.md:10: '[[' of a term link without its closing pair would be published as raw text;"
        " expected [[slug]] or [[slug|text]], two brackets on each side",
    ),
    "quantity-one-brace": (
        {"alpha": entry("Alpha", body="It is {{ ridge_point accelerator=h100-sxm }.\n")},
        "# Home\n",
        "glossary/alpha.md:10: '{{' of a quantity without its closing pair would be published as raw text;"
        " expected {{ name key=value ... }}, two braces on each side",
    ),
    "untouched-scaffold": (
        {
            "alpha": entry("Alpha").replace(
                "summary: The alpha term of a test project.",
                "summary: Replace this with one plain sentence that defines alpha.",
            )
        },
        "# Home\n",
        "glossary/alpha.md:4: the summary is still the scaffold's placeholder; expected one plain sentence that"
        " defines the term and stands alone in a preview",
    ),
    "related-terms-heading": (
        {"alpha": entry("Alpha", body="Intro.\n\n## Related terms\n\n- beta\n")},
        "# Home\n",
        "glossary/alpha.md:12: hand-written 'Related terms' heading; expected no such heading: the build adds the"
        " Related terms, Sources and Mentioned in sections from the front matter and the links",
    ),
    "related-unknown": (
        {"alpha": entry("Alpha", extra="related:\n  - gamma\n")},
        "# Home\n",
        "glossary/alpha.md:6: 'related' names unknown term 'gamma'; expected the slug of an entry in glossary/",
    ),
}


@pytest.mark.parametrize("case", list(BROKEN))
def test_broken_content_stops_the_build_with_the_exact_line(tmp_path, case):
    entries, home, expected = BROKEN[case]
    result = build(make_project(tmp_path, entries, home=home))
    assert result.returncode == 1
    output = result.stdout + result.stderr
    assert expected in error_lines(result), output
    assert "Traceback" not in output
    assert not (tmp_path / "site" / "glossary").exists()  # nothing was rendered
