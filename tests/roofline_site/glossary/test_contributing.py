"""CONTRIBUTING.md documents the schema the validator enforces and every quantity, and its example is valid."""

from __future__ import annotations

import re

from roofline_core.quantities import QUANTITIES, evaluate_reference
from roofline_site.glossary.hostile import DANGEROUS_SCHEMES, MAX_ENTRY_BYTES, MAX_NESTING_DEPTH, REFUSED_TAGS
from roofline_site.glossary.schema import CATEGORIES, FIELDS, SUMMARY_MAX_CHARS
from roofline_site.glossary.validator import read_entry
from tests.support.site_build import PROJECT_ROOT

TEXT = (PROJECT_ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")


def test_documents_every_field_category_and_limit():
    for field in FIELDS:
        assert f"| `{field.name}` | {'yes' if field.required else 'no'} |" in TEXT, field.name
    for category in CATEGORIES:
        assert f"| `{category}` |" in TEXT, category
    assert f"at most {SUMMARY_MAX_CHARS} characters" in TEXT


def test_documents_what_the_build_refuses():
    refused = TEXT.split("### What the build refuses", 1)[1].split("\n## ", 1)[0]
    for tag in REFUSED_TAGS:
        assert f"`<{tag}>`" in refused, tag
    for scheme in DANGEROUS_SCHEMES:
        assert f"`{scheme}`" in refused, scheme
    assert f"nested more than {MAX_NESTING_DEPTH} levels" in refused
    assert f"larger than {MAX_ENTRY_BYTES // 1000} kB" in refused


def test_documents_every_quantity():
    for name in QUANTITIES:
        assert f"`{name}`" in TEXT, name


def test_example_entry_is_valid():
    example = re.search(r"```markdown\n(---\n.*?)```", TEXT, re.DOTALL).group(1)
    example = example.replace("...", "rest of the body.")
    entry, problems = read_entry(example, slug="kv-cache", path="glossary/kv-cache.md")
    assert problems == []
    assert entry.title == "KV cache"


def test_quantity_examples_render_as_documented():
    assert evaluate_reference("ridge_point accelerator=h100-sxm").text == "295 FLOP/byte"
    assert "The H100's ridge point is 295 FLOP/byte." in TEXT
    assert "takes 4.78 ms." in TEXT


def test_documents_the_parser_limits_and_the_allowlist():
    from roofline_site.glossary.hostile import MAX_BRACKETS, MAX_EMPHASIS_MARKERS_PER_PARAGRAPH, MAX_EMPHASIS_RUN
    from roofline_site.glossary.sanitize import ALLOWED_TAGS
    from roofline_site.glossary.validator import MAX_LIST_ITEMS

    refused = TEXT.split("### What the build refuses", 1)[1].split("\n## ", 1)[0]
    assert f"more than {MAX_BRACKETS} `[` or {MAX_BRACKETS} `<`" in refused
    assert f"a run of more than {MAX_EMPHASIS_RUN} `*`" in refused
    assert f"more than {MAX_EMPHASIS_MARKERS_PER_PARAGRAPH} emphasis markers" in refused
    assert f"More than {MAX_LIST_ITEMS} items" in refused
    allowed = TEXT.split("### What an entry may contain", 1)[1].split("\n## ", 1)[0]
    for tag in ALLOWED_TAGS - {
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "p",
        "br",
        "hr",
        "blockquote",
        "ul",
        "ol",
        "li",
        "dl",
        "dt",
        "dd",
        "table",
        "caption",
        "thead",
        "tbody",
        "tfoot",
        "tr",
        "th",
        "td",
        "a",
        "img",
    }:
        assert f"`{tag}`" in allowed, tag
