"""The front-matter parser keeps the line of every key and reports unreadable front matter."""

from __future__ import annotations

import pytest

from roofline_site.glossary.frontmatter import FrontMatterError, parse

PATH = "glossary/x.md"


def test_lines_of_keys_items_and_nested_keys():
    text = (
        "---\n"  # 1
        "title: X\n"  # 2
        "aliases:\n"  # 3
        "  - Ex\n"  # 4
        "sources:\n"  # 5
        "  - title: S\n"  # 6
        "    url: https://a.example\n"  # 7
        "---\n"  # 8
        "Body line.\n"  # 9
    )
    fm = parse(text, PATH)
    assert fm.data["title"] == "X"
    assert fm.line_of("title") == 2
    assert fm.line_of("aliases", 0) == 4
    assert fm.line_of("sources", 0, "url") == 7
    assert fm.line_of("sources", 0, "missing") == 6  # nearest located ancestor
    assert fm.body == "Body line.\n"
    assert fm.body_line == 9


def _problem(text: str) -> str:
    with pytest.raises(FrontMatterError) as info:
        parse(text, PATH)
    return str(info.value.problem)


def test_no_front_matter():
    assert _problem("# Title\n") == (
        "glossary/x.md:1: no front matter; expected the file to start with a '---' line, "
        "the YAML fields, and another '---' line"
    )


def test_front_matter_not_closed():
    assert (
        _problem("---\ntitle: X\n")
        == "glossary/x.md:1: front matter is not closed; expected a '---' line after the YAML fields"
    )


def test_broken_yaml_names_the_line():
    message = _problem("---\ntitle: X\nsummary: [unclosed\ncategory: hardware\n---\nBody\n")
    assert message.startswith("glossary/x.md:4: front matter is not valid YAML (")
    assert message.endswith("; expected 'key: value' lines (quote values that contain ': ' or start with a symbol)")


def test_front_matter_not_a_mapping():
    assert _problem("---\n- a\n- b\n---\nBody\n") == (
        "glossary/x.md:2: front matter is not a mapping of fields; expected 'key: value' lines such as 'title: KV cache'"
    )


def test_repeated_key():
    assert _problem("---\ntitle: X\nsummary: A.\ntitle: Y\n---\nBody\n") == (
        "glossary/x.md:4: field 'title' is given twice (first on line 2); expected each field once"
    )


@pytest.mark.parametrize(
    ("yaml_lines", "line", "what"),
    [
        ('a: &a ["lol","lol"]\nb: [*a,*a]\n', 2, "YAML anchor '&a' in the front matter"),
        ("title: X\nsources: &s\n  - title: S\n", 3, "YAML anchor '&s' in the front matter"),
        ("title: X\nextra:\n  <<: *base\n", 4, "YAML alias '*base' in the front matter"),
    ],
)
def test_anchors_and_aliases_are_refused_before_anything_is_built(yaml_lines, line, what):
    assert _problem("---\n" + yaml_lines + "---\nBody.\n") == (
        f"{PATH}:{line}: {what}; expected plain values written out in full: anchors and aliases are not allowed"
    )


def test_a_billion_laughs_is_refused_at_once():
    import time

    levels = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    levels += [f"{chr(98 + i)}: &{chr(98 + i)} [{','.join(['*' + chr(97 + i)] * 9)}]" for i in range(8)]
    start = time.thread_time()  # CPU time: a busy machine stretches the clock, not the work
    assert "YAML anchor '&a'" in _problem("---\n" + "\n".join(levels) + "\n---\nBody.\n")
    assert time.thread_time() - start < 1.0
