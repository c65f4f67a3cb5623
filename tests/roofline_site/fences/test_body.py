"""Reading a fence body's ``key: value`` lines."""

from __future__ import annotations

import pytest

from roofline_site.fences import LocatedError, key_values


class KindError(LocatedError):
    """A kind's own error type."""


def test_keys_with_their_lines_in_order_comments_and_blanks_skipped():
    body = ((4, "kind: roofline"), (5, "# a comment"), (6, ""), (7, "  Batch:  1, 64  "), (8, "title:"))
    assert key_values(body, path="docs/p.md", example="kind: roofline") == {
        "kind": (4, "roofline"),
        "batch": (7, "1, 64"),
        "title": (8, ""),
    }


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (
            ((3, "kind: roofline"), (4, "roofline")),
            "docs/p.md:4: 'roofline' is not a 'key: value' line; expected one 'key: value' per line, e.g. 'kind: roofline'",
        ),
        (
            ((3, "batch size: 2"),),
            "docs/p.md:3: 'batch size: 2' is not a 'key: value' line; expected one 'key: value' per line, e.g. 'kind: roofline'",
        ),
        (
            ((3, "kind: a"), (5, "KIND: b")),
            "docs/p.md:5: kind is given twice (first on line 3); expected each key once",
        ),
    ],
)
def test_each_mistake_is_located_and_of_the_kinds_type(body, message):
    with pytest.raises(KindError) as caught:
        key_values(body, path="docs/p.md", example="kind: roofline", error=KindError)
    assert str(caught.value) == message
