"""Finding fences and their lines in Markdown, by the rules superfences applies."""

from __future__ import annotations

import pytest

from roofline_site.fences import body_key, find_fences
from tests.roofline_site.fences.markdown_page import convert

KINDS = {"figure", "calculator"}


def test_lines_are_counted_from_one_and_other_fences_are_skipped():
    markdown = "\n".join(
        [
            "# Title",  # 1
            "",  # 2
            "````markdown",  # 3: an example, not a figure
            "```figure",  # 4
            "kind: nope",  # 5
            "```",  # 6
            "````",  # 7
            "",  # 8
            "```figure",  # 9
            "kind: roofline",  # 10
            "batch: 1",  # 11
            "```",  # 12
            "```python",  # 13
            "x = 1",  # 14
            "```",  # 15
        ]
    )
    [fence] = find_fences(markdown, KINDS)
    assert (fence.language, fence.line, fence.fence) == ("figure", 9, "```")
    assert fence.body == ((10, "kind: roofline"), (11, "batch: 1"))
    assert fence.closed and fence.info == ""


def test_indented_quoted_and_listed_fences_and_tildes():
    markdown = "\n".join(
        [
            '!!! note "A figure in an admonition"',  # 1
            "",
            "    ```figure",  # 3
            "    kind: kv-cache",
            "    ```",
            "",
            "> ~~~~calculator",  # 7
            "> id: kv-cache",
            "> ~~~~",
            "",
            "- Item",
            "",
            "\t```calculator",  # 13: a tab is four columns, as in Python-Markdown
            "\tid: roofline-explorer",
            "\t```",
            "",
            "> > ```figure",  # 17: a block quote in a block quote
            "> > kind: intensity",
            "> > ```",
        ]
    )
    fences = find_fences(markdown, KINDS)
    assert [(f.language, f.line, f.body) for f in fences] == [
        ("figure", 3, ((4, "kind: kv-cache"),)),
        ("calculator", 7, ((8, "id: kv-cache"),)),
        ("calculator", 13, ((14, "id: roofline-explorer"),)),
        ("figure", 17, ((18, "kind: intensity"),)),
    ]
    assert all(f.closed for f in fences)


def test_unclosed_and_with_info():
    markdown = "```figure title=x\nkind: roofline\n```\n\n```figure\nkind: roofline\n"
    first, second = find_fences(markdown, KINDS)
    assert first.info == "title=x" and first.closed
    assert second.line == 5 and not second.closed


def test_an_attribute_list_names_the_language_as_superfences_reads_it():
    [fence] = find_fences("``` { .calculator #mine }\nid: kv-cache\n```\n", KINDS)
    assert fence.language == "calculator" and fence.info == "{ .calculator #mine }"


@pytest.mark.parametrize(
    "markdown",
    [
        "- Item\n\n    ```calculator\n    id: kv-cache\n```\n",  # closing fence less indented
        "> ```calculator\nid: kv-cache\n> ```\n",  # a lazy line leaves the block quote
        "```calculator\nid: kv-cache\n````\n",  # superfences closes with the same fence only
    ],
)
def test_what_superfences_does_not_close_is_unclosed(markdown):
    [fence] = find_fences(markdown, KINDS)
    assert not fence.closed
    # ... and superfences indeed formats nothing there.
    assert "language-calculator" not in convert(markdown, ["figure"])


def test_a_backtick_in_the_info_string_is_inline_code_not_a_fence():
    assert find_fences("```calculator `x`\nid: kv-cache\n```\n", KINDS) == []


def test_body_key_matches_what_superfences_hands_the_formatter():
    [fence] = find_fences("- item\n\n    ```figure\n    kind: roofline\n\n    batch: 1\n    ```\n", KINDS)
    assert fence.key == body_key("kind: roofline\n\nbatch: 1\n") == "kind: roofline\nbatch: 1"


def test_relocated_moves_every_line():
    [fence] = find_fences("```figure\nkind: roofline\n```\n", KINDS)
    moved = fence.relocated(lambda line: line + 10)
    assert moved.line == 11 and moved.body == ((12, "kind: roofline"),)
