"""Calculator fences: parsed, and every mistake in a body reported at its line."""

from __future__ import annotations

import pytest

from roofline_site.calculators.fence import FenceError, parse_placement
from roofline_site.fences import LocatedError, find_fences, source_lines

PAGE = """# Title

Text.

```calculator
id: decode-speed-of-light
defaults: batch=16, model=llama-3-70b
```

More text.
"""


def _placements(markdown: str, *, front_matter_lines: int = 0, path: str = "x.md"):
    """Parse every calculator fence of ``markdown`` as if ``front_matter_lines`` preceded it."""
    source = "---\n" * front_matter_lines + markdown
    line_of = source_lines(markdown, source)
    return [parse_placement(fence.relocated(line_of), path=path) for fence in find_fences(markdown, {"calculator"})]


def test_finds_id_defaults_and_lines():
    (placement,) = _placements(PAGE, front_matter_lines=3, path="docs/x.md")
    assert placement.calculator_id == "decode-speed-of-light"
    assert placement.defaults == {"batch": "16", "model": "llama-3-70b"}
    assert placement.line == 5 + 3
    assert placement.defaults_line == 7 + 3


def test_fence_shown_inside_a_longer_fence_is_an_example_not_a_calculator():
    text = "````markdown\n```calculator\nid: nope\n```\n````\n\n~~~python\n```calculator\n~~~\n"
    assert _placements(text) == []


def test_several_fences_and_tildes():
    text = "~~~calculator\nid: kv-cache\n~~~\n\n```calculator\nid: roofline-explorer\n```\n"
    assert [p.calculator_id for p in _placements(text)] == ["kv-cache", "roofline-explorer"]


def test_comments_and_blank_lines_are_skipped_and_keys_read_as_figures_read_them():
    (placement,) = _placements("```calculator\n# the KV cache\n\nID: kv-cache\n```\n")
    assert placement.calculator_id == "kv-cache" and placement.defaults == {}


@pytest.mark.parametrize(
    ("body", "line", "message"),
    [
        (
            "```calculator\nid: kv-cache\ncolour: red\n```\n",
            3,
            "unknown calculator fence key 'colour'; expected one of id, defaults",
        ),
        (
            "```calculator\nid: kv-cache\nid: kv-cache\n```\n",
            3,
            "id is given twice (first on line 12); expected each key once",
        ),
        (
            "```calculator\ndefaults: batch=2\n```\n",
            1,
            "calculator fence has no id; expected a line 'id: <calculator>'",
        ),
        (
            "```calculator\nid: kv-cache\ndefaults: batch 2\n```\n",
            3,
            "calculator default 'batch 2' is not 'name=value'",
        ),
        (
            "```calculator\nid: kv-cache\ndefaults: batch=2, batch=4\n```\n",
            3,
            "calculator default 'batch' is given twice",
        ),
        (
            "```calculator\nkv-cache\n```\n",
            2,
            "'kv-cache' is not a 'key: value' line; expected one 'key: value' per line, e.g. 'id: roofline-explorer'",
        ),
    ],
)
def test_each_mistake_names_file_line_and_expectation(body, line, message):
    with pytest.raises(FenceError) as caught:
        _placements(body, front_matter_lines=10, path="docs/page.md")
    assert str(caught.value).startswith(f"docs/page.md:{line + 10}: {message}")
    assert "expected" in str(caught.value)
    assert isinstance(caught.value, LocatedError)
