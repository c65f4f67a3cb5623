"""Split an entry into YAML front matter and Markdown body, keeping the line of every key.

PyYAML's composer gives each node a start mark; walking the node tree alongside the
constructed data records where each key and list item sits, so a validator can say
``glossary/x.md:7: ...`` about ``sources[1].url`` rather than about the file as a whole.
Duplicate keys, which YAML loaders silently collapse, are reported here, and so are anchors and
aliases (``&a`` / ``*a``): an entry needs neither, and a few lines of nested aliases expand to
billions of values ("billion laughs"). They are found in the event stream, which is as long as
the text, before any node is built or any value constructed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import yaml

from roofline_site.glossary.errors import Problem

FENCE = "---"
# libyaml's loader is several times faster and keeps the same marks; PyYAML wheels ship it,
# but a source install may not, so fall back to the pure-Python loader.
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
LinePath = tuple  # ("sources", 0, "url"): a key path into the front matter


@dataclass
class FrontMatter:
    """Parsed front matter and body of one file.

    Attributes:
        data: The front matter as plain Python values.
        lines: 1-based file line of every key, list item and nested key, by path.
        first_line: Line of the opening ``---``.
        body: The Markdown after the closing ``---``.
        body_line: 1-based file line on which ``body`` starts.
    """

    data: dict[str, Any]
    lines: dict[LinePath, int] = field(default_factory=dict)
    first_line: int = 1
    body: str = ""
    body_line: int = 1

    def line_of(self, *path: Any) -> int:
        """Line of ``path``, or of its nearest located ancestor, or of the opening fence."""
        while path:
            if path in self.lines:
                return self.lines[path]
            path = path[:-1]
        return self.first_line


class FrontMatterError(Exception):
    """The front matter cannot be read at all; holds the :class:`Problem`."""

    def __init__(self, problem: Problem) -> None:
        self.problem = problem
        super().__init__(str(problem))


def parse(text: str, path: str) -> FrontMatter:
    """Parse ``text`` (a whole entry file) into a :class:`FrontMatter`.

    Args:
        text: File contents.
        path: The file as shown in messages (``glossary/x.md``).

    Raises:
        FrontMatterError: no front matter, no closing fence, invalid YAML, a non-mapping, or a
            repeated key.
    """
    lines = text.splitlines(keepends=True)
    if not lines or lines[0].rstrip("\r\n").rstrip() != FENCE:
        raise FrontMatterError(
            Problem(
                path,
                1,
                "no front matter",
                "expected the file to start with a '---' line, the YAML fields, and another '---' line",
            )
        )
    closing = next((i for i in range(1, len(lines)) if lines[i].rstrip("\r\n").rstrip() == FENCE), None)
    if closing is None:
        raise FrontMatterError(
            Problem(path, 1, "front matter is not closed", "expected a '---' line after the YAML fields")
        )
    yaml_text = "".join(lines[1:closing])
    offset = 2  # YAML line 0 is file line 2
    loader = _LOADER(yaml_text)
    try:
        _refuse_anchors(yaml_text, path, offset)
        node = loader.get_single_node()
        data = loader.construct_document(node) if node is not None else None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + offset if mark is not None else 1
        reason = " ".join(str(exc.problem or exc.context or "unreadable").split())
        raise FrontMatterError(
            Problem(
                path,
                line,
                f"front matter is not valid YAML ({reason})",
                "expected 'key: value' lines (quote values that contain ': ' or start with a symbol)",
            )
        ) from None
    except yaml.YAMLError as exc:
        raise FrontMatterError(
            Problem(path, 2, f"front matter is not valid YAML ({exc})", "expected 'key: value' lines")
        ) from None
    finally:
        loader.dispose()
    if not isinstance(node, yaml.MappingNode) or not isinstance(data, dict):
        raise FrontMatterError(
            Problem(
                path,
                2 if node is None else node.start_mark.line + offset,
                "front matter is not a mapping of fields",
                "expected 'key: value' lines such as 'title: KV cache'",
            )
        )
    located: dict[LinePath, int] = {}
    _locate(node, (), offset, located, path)
    return FrontMatter(
        data=data,
        lines=located,
        first_line=1,
        body="".join(lines[closing + 1 :]),
        body_line=closing + 2,
    )


def _refuse_anchors(yaml_text: str, path: str, offset: int) -> None:
    """Raise :class:`FrontMatterError` at the first anchor or alias in ``yaml_text``."""
    for event in yaml.parse(yaml_text, Loader=_LOADER):
        if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
            sign = "*" if isinstance(event, yaml.AliasEvent) else "&"
            kind = "alias" if sign == "*" else "anchor"
            raise FrontMatterError(
                Problem(
                    path,
                    event.start_mark.line + offset,
                    f"YAML {kind} '{sign}{event.anchor}' in the front matter",
                    "expected plain values written out in full: anchors and aliases are not allowed",
                )
            )


def _locate(node: yaml.Node, prefix: LinePath, offset: int, out: dict[LinePath, int], path: str) -> None:
    """Record the line of every key and item under ``node``; report repeated keys."""
    if isinstance(node, yaml.MappingNode):
        seen: dict[Any, int] = {}
        for key_node, value_node in node.value:
            key = key_node.value if isinstance(key_node, yaml.ScalarNode) else str(key_node.start_mark)
            line = key_node.start_mark.line + offset
            if key in seen:
                where = ".".join(str(p) for p in (*prefix, key))
                raise FrontMatterError(
                    Problem(
                        path,
                        line,
                        f"field '{where}' is given twice (first on line {seen[key]})",
                        "expected each field once",
                    )
                )
            seen[key] = line
            out[(*prefix, key)] = line
            _locate(value_node, (*prefix, key), offset, out, path)
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            out[(*prefix, index)] = item.start_mark.line + offset
            _locate(item, (*prefix, index), offset, out, path)
