"""Term links and quantities are found outside code, rewritten, and located by line."""

from __future__ import annotations

from roofline_site.glossary.markup import (
    escape_link_text,
    find_term_links,
    mask_code,
    rewrite,
    running_text,
    starts_sentence,
    term_href,
)

TITLES = {"kv-cache": "KV cache", "ridge-point": "Ridge point", "speed-of-light": "Speed of light (decode ceiling)"}


def test_mask_code_blanks_fences_and_spans_but_keeps_offsets():
    text = "a `[[x]]` b\n```\n[[y]]\n```\n[[z]]\n"
    masked = mask_code(text)
    assert len(masked) == len(text)
    assert masked.count("\n") == text.count("\n")
    assert "[[x]]" not in masked and "[[y]]" not in masked and "[[z]]" in masked


def test_term_links_forms_and_lines():
    text = "Intro.\nSee [[kv-cache]], [[kv-cache|the cache]]\nand [[ridge-point#numbers|ridge]].\n"
    links = find_term_links(text, first_line=10)
    assert [(link.slug, link.anchor, link.label, link.line) for link in links] == [
        ("kv-cache", "", None, 11),
        ("kv-cache", "", "the cache", 11),
        ("ridge-point", "numbers", "ridge", 12),
    ]


def test_rewrite_in_an_entry_links_relative_to_glossary():
    result = rewrite(
        "The [[ridge-point]] and [[kv-cache|cache]].",
        path="glossary/x.md",
        src_uri="glossary/x.md",
        first_line=1,
        titles=TITLES,
    )
    assert result.problems == []
    assert result.text == "The [ridge point](ridge-point.md) and [cache](kv-cache.md)."
    assert result.linked_slugs == ["ridge-point", "kv-cache"]


def test_rewrite_on_a_docs_page_links_up_into_glossary():
    result = rewrite(
        "[[speed-of-light#the-numbers]] matters.",
        path="docs/guide/a.md",
        src_uri="guide/a.md",
        first_line=1,
        titles=TITLES,
    )
    assert result.text == "[Speed of light](../glossary/speed-of-light.md#the-numbers) matters."
    assert term_href("kv-cache", "", "index.md") == "glossary/kv-cache.md"


def test_link_text_is_escaped():
    assert escape_link_text("a [b] c\\") == "a \\[b\\] c\\\\"


def test_rewrite_replaces_quantities_and_collects_preset_sources():
    result = rewrite(
        "Ridge {{ ridge_point accelerator=h100-sxm }}, time {{ decode_step_time params=8e9 accelerator=h100-sxm }}.",
        path="p",
        src_uri="index.md",
        first_line=1,
        titles=TITLES,
    )
    assert result.text == "Ridge 295 FLOP/byte, time 4.78 ms."
    assert [s.title for s in result.sources] == ["NVIDIA H100 Tensor Core GPU datasheet"]


def test_rewrite_numbers_each_distinct_quantity_and_marks_it_as_asked():
    result = rewrite(
        "{{ ridge_point accelerator=h100-sxm }}, {{ bandwidth accelerator=h100-sxm }},"
        " {{ ridge_point  accelerator=h100-sxm }} and `{{ not_a_quantity }}`.",
        path="p",
        src_uri="index.md",
        first_line=1,
        titles=TITLES,
        mark=lambda index, text: f"<{index}:{text}>",
    )
    assert result.text == "<0:295 FLOP/byte>, <1:3.35 TB/s>, <0:295 FLOP/byte> and `{{ not_a_quantity }}`."
    assert result.quantities == [
        ("ridge_point accelerator=h100-sxm", "295 FLOP/byte"),
        ("bandwidth accelerator=h100-sxm", "3.35 TB/s"),
    ]


def test_rewrite_reports_every_problem_with_its_line():
    result = rewrite(
        "ok\n[[nope]]\n{{ nope }}\n", path="docs/index.md", src_uri="index.md", first_line=1, titles=TITLES
    )
    assert [(p.line, p.what.split(";")[0]) for p in result.problems] == [
        (2, "link to unknown term [[nope]]"),
        (3, "in {{ nope }}: unknown quantity 'nope'"),
    ]


def test_running_text_lowers_only_a_leading_capital_mid_sentence():
    assert running_text("Ridge point", sentence_start=False) == "ridge point"
    assert running_text("Ridge point", sentence_start=True) == "Ridge point"
    assert running_text("KV cache", sentence_start=False) == "KV cache"
    assert running_text("FlashAttention", sentence_start=False) == "FlashAttention"
    assert running_text("Speed of light (decode ceiling)", sentence_start=False) == "speed of light"


def test_sentence_starts():
    text = "One ends.\n[[a]] b [[c]]\n- [[d]]\ncontinued\n[[e]]"
    starts = {text[i + 2]: starts_sentence(text, i) for i in range(len(text)) if text.startswith("[[", i)}
    assert starts == {"a": True, "c": False, "d": True, "e": False}
