"""The built site for assistants and crawlers (hooks/machine_readable.py): llms.txt, llms-full.txt,
Markdown twins, JSON-LD, and glossary.json against its published schema."""

from __future__ import annotations

import json
import re

import jsonschema
import pytest

from roofline_core.calculators import CALCULATORS
from roofline_site import csp
from tests.support import json_ld
from tests.support.commonmark import tokens as commonmark_tokens
from tests.support.shipped_glossary import shipped_glossary
from tests.support.site_build import PROJECT_ROOT

GLOSSARY = shipped_glossary()
SITE = "http://127.0.0.1:8000/"
pytestmark = pytest.mark.slow


def test_llms_txt_lists_every_term_and_calculator(built_site):
    text = (built_site / "llms.txt").read_text(encoding="utf-8")
    lines = text.splitlines()
    assert lines[0] == "# Roofline Glossary" and lines[2].startswith("> ")
    links = dict(re.findall(r"^- \[[^\]]+\]\(([^)]+)\)(.*)$", text, re.MULTILINE))
    for slug in GLOSSARY.entries:
        assert f"{SITE}glossary/{slug}/" in links, slug
    for calculator_id in CALCULATORS:
        if (PROJECT_ROOT / "docs" / "calculators" / f"{calculator_id}.md").is_file():
            assert f"{SITE}calculators/{calculator_id}/" in links, calculator_id
    assert f"{SITE}model-vs-measurement/" in links  # a guide page
    assert f"{SITE}llms-full.txt" in links and f"{SITE}glossary.schema.json" in links
    assert all(note.startswith(": ") for note in links.values())  # each with its one line


def test_every_term_has_a_twin_in_commonmark_without_build_syntax_or_html(built_site):
    full = (built_site / "llms-full.txt").read_text(encoding="utf-8")
    for slug, entry in GLOSSARY.entries.items():
        twin = (built_site / "glossary" / slug / "index.md").read_text(encoding="utf-8")
        tokens = commonmark_tokens(twin)
        title = next(t for t in tokens if t.type == "inline")  # the first heading's text
        assert "".join(c.content for c in title.children if c.type in ("text", "text_special")) == entry.title
        assert not [t for t in tokens if t.type in ("html_block", "html_inline")], slug
        texts = [t.content for t in tokens if t.type in ("text", "inline")]
        assert not [t for t in texts if "{{" in t or "[[" in t], slug
        assert "## Sources" in twin
        assert twin.strip() in full
        page = (built_site / "glossary" / slug / "index.html").read_text(encoding="utf-8")
        assert '<link rel="alternate markdown" type="text/markdown"' in page and 'href="index.md"' in page, slug


def test_every_term_page_has_a_valid_defined_term(built_site):
    vocabulary = json_ld.vocabulary()
    for slug, entry in GLOSSARY.entries.items():
        page = (built_site / "glossary" / slug / "index.html").read_text(encoding="utf-8")
        blocks = json_ld.json_ld_blocks(page)
        assert len(blocks) == 1, slug
        document = json.loads(blocks[0])
        assert json_ld.problems(document, vocabulary) == [], slug
        assert document["@type"] == "DefinedTerm" and document["name"] == entry.title
        assert document["description"] == entry.summary
        assert document["url"] == f"{SITE}glossary/{slug}/"
        assert document["inDefinedTermSet"]["@id"] == f"{SITE}glossary/"
        assert document.get("alternateName", []) == list(entry.aliases)


def test_the_index_and_the_measurement_table_have_their_json_ld(built_site):
    index = json.loads(json_ld.json_ld_blocks((built_site / "glossary" / "index.html").read_text("utf-8"))[0])
    assert index["@type"] == "DefinedTermSet" and len(index["hasDefinedTerm"]) == len(GLOSSARY.entries)
    assert json_ld.problems(index) == []
    table = json.loads(
        json_ld.json_ld_blocks((built_site / "model-vs-measurement" / "index.html").read_text("utf-8"))[0]
    )
    assert table["@type"] == "Dataset" and json_ld.problems(table) == []


def test_the_built_glossary_json_validates_against_the_built_schema(built_site):
    schema = json.loads((built_site / "glossary.schema.json").read_text(encoding="utf-8"))
    document = json.loads((built_site / "glossary.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.Draft202012Validator(schema, format_checker=jsonschema.FormatChecker()).validate(document)
    assert document["$schema"] == f"{SITE}glossary.schema.json"


def test_hosts_are_told_the_twins_and_text_files_types(built_site):
    rules = csp.parse_headers_file((built_site / "_headers").read_text(encoding="utf-8"))
    assert rules["/*.md"]["Content-Type"] == "text/markdown; charset=utf-8"
    assert rules["/*.txt"]["Content-Type"] == "text/plain; charset=utf-8"
