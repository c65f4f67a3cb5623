"""Finding figure fences and their lines in Markdown."""

from __future__ import annotations

from roofline_site.figures.scan import body_key, find_figure_fences


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
    [fence] = find_figure_fences(markdown)
    assert fence.line == 9
    assert fence.body == ((10, "kind: roofline"), (11, "batch: 1"))
    assert fence.closed and fence.info == ""


def test_indented_and_quoted_fences_and_tildes():
    markdown = "\n".join(
        [
            '!!! note "A figure in an admonition"',
            "",
            "    ```figure",
            "    kind: kv-cache",
            "    ```",
            "",
            "> ~~~~figure",
            "> kind: roofline",
            "> ~~~~",
        ]
    )
    first, second = find_figure_fences(markdown)
    assert (first.line, first.body) == (3, ((4, "kind: kv-cache"),))
    assert (second.line, second.body) == (7, ((8, "kind: roofline"),))


def test_unclosed_and_with_info():
    markdown = "```figure title=x\nkind: roofline\n```\n\n```figure\nkind: roofline\n"
    first, second = find_figure_fences(markdown)
    assert first.info == "title=x" and first.closed
    assert second.line == 5 and not second.closed


def test_body_key_matches_what_superfences_hands_the_formatter():
    [fence] = find_figure_fences("- item\n\n    ```figure\n    kind: roofline\n\n    batch: 1\n    ```\n")
    assert fence.key == body_key("kind: roofline\n\nbatch: 1\n") == "kind: roofline\nbatch: 1"
