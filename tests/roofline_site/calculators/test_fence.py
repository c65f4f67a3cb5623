"""Calculator fences: found where they are, parsed, and every mistake reported at its line."""

from __future__ import annotations

import pytest

from roofline_site.calculators.fence import FenceError, find_placements, replace_placements

PAGE = """# Title

Text.

```calculator
id: decode-speed-of-light
defaults: batch=16, model=llama-3-70b
```

More text.
"""


def test_finds_id_defaults_and_lines():
    (placement,) = find_placements(PAGE, path="docs/x.md", line_offset=3)
    assert placement.calculator_id == "decode-speed-of-light"
    assert placement.defaults == {"batch": "16", "model": "llama-3-70b"}
    assert placement.line == 5 + 3
    assert placement.defaults_line == 7 + 3


def test_replacement_keeps_the_rest_of_the_page():
    placements = find_placements(PAGE, path="x.md")
    out = replace_placements(PAGE, placements, lambda number, _p: f"SLOT{number}")
    assert out.split("\n")[4] == "SLOT0"
    assert "```" not in out and "More text." in out and out.startswith("# Title")


def test_fence_shown_inside_a_longer_fence_is_an_example_not_a_calculator():
    text = "````markdown\n```calculator\nid: nope\n```\n````\n\n~~~python\n```calculator\n~~~\n"
    assert find_placements(text, path="x.md") == []


def test_several_fences_and_tildes():
    text = "~~~calculator\nid: kv-cache\n~~~\n\n```calculator\nid: roofline-explorer\n```\n"
    assert [p.calculator_id for p in find_placements(text, path="x.md")] == ["kv-cache", "roofline-explorer"]


@pytest.mark.parametrize(
    ("body", "line", "message"),
    [
        ("```calculator\nid: kv-cache\n", 1, "calculator fence is not closed; expected a line with ``` after it"),
        ("```calculator\nid: kv-cache\ncolour: red\n```\n", 3, "unknown calculator fence key 'colour'; expected one of id, defaults"),
        ("```calculator\nid: kv-cache\nid: kv-cache\n```\n", 3, "calculator fence key 'id' is repeated (first on line 12); expected it once"),
        ("```calculator\ndefaults: batch=2\n```\n", 1, "calculator fence has no id; expected a line 'id: <calculator>'"),
        ("```calculator\nid: kv-cache\ndefaults: batch 2\n```\n", 3, "calculator default 'batch 2' is not 'name=value'"),
        ("```calculator\nid: kv-cache\ndefaults: batch=2, batch=4\n```\n", 3, "calculator default 'batch' is given twice"),
        ("```calculator\nkv-cache\n```\n", 2, "calculator fence line 'kv-cache' is not 'key: value'"),
    ],
)
def test_each_mistake_names_file_line_and_expectation(body, line, message):
    with pytest.raises(FenceError) as caught:
        find_placements(body, path="docs/page.md", line_offset=10)
    assert str(caught.value).startswith(f"docs/page.md:{line + 10}: {message}")
    assert "expected" in str(caught.value)
