"""Check schema.org JSON-LD against an extract of the vocabulary, offline.

The extract (``tests/data/schemaorg/vocabulary-extract.json``) holds, from schema.org's published
vocabulary file (release and address in it), each type the site uses with its superclasses and
each property with ``schema:domainIncludes`` and ``schema:rangeIncludes``. A document passes when
every ``@type`` is a known type, every property is known and allowed on its node's type (one of
its domains is the type or a superclass of it), and every value fits one of the property's
ranges (text, a URL, a boolean, or a node whose type is a range or a subclass of one).

Also the way the pages' JSON-LD is found: :func:`json_ld_blocks`.
"""

from __future__ import annotations

import json
from html.parser import HTMLParser
from pathlib import Path

EXTRACT = Path(__file__).resolve().parents[1] / "data" / "schemaorg" / "vocabulary-extract.json"
CONTEXT = "https://schema.org"


def vocabulary() -> dict:
    return json.loads(EXTRACT.read_text(encoding="utf-8"))


def _ancestors(type_name: str, types: dict[str, list[str]]) -> set[str]:
    found, pending = set(), [type_name]
    while pending:
        current = pending.pop()
        if current not in found:
            found.add(current)
            pending += types.get(current, [])
    return found


def problems(document: dict, vocab: dict | None = None) -> list[str]:
    """Every way ``document`` strays from the vocabulary; empty when it keeps to it."""
    vocab = vocab or vocabulary()
    found: list[str] = []
    if document.get("@context") != CONTEXT:
        found.append(f"@context is {document.get('@context')!r}; expected {CONTEXT!r}")
    _check_node(document, "$", vocab, found)
    return found


def _check_node(node: dict, where: str, vocab: dict, found: list[str]) -> None:
    types, properties = vocab["types"], vocab["properties"]
    type_name = node.get("@type")
    if type_name not in types:
        found.append(f"{where}: @type {type_name!r} is not in the extract of schema.org")
        return
    lineage = _ancestors(type_name, types)
    for key, value in node.items():
        if key.startswith("@"):
            if key not in ("@context", "@type", "@id"):
                found.append(f"{where}: keyword {key!r} is not one the site uses")
            continue
        spec = properties.get(key)
        if spec is None:
            found.append(f"{where}: property {key!r} is not in the extract of schema.org")
            continue
        if not lineage & set(spec["domainIncludes"]):
            found.append(f"{where}: {key!r} is not a property of {type_name} (domains: {spec['domainIncludes']})")
        for index, item in enumerate(value if isinstance(value, list) else [value]):
            _check_value(item, spec["rangeIncludes"], f"{where}.{key}[{index}]", vocab, found)


def _check_value(value, ranges: list[str], where: str, vocab: dict, found: list[str]) -> None:
    if isinstance(value, dict):
        if not _ancestors(value.get("@type", ""), vocab["types"]) & set(ranges):
            found.append(f"{where}: a {value.get('@type')!r} where {ranges} is expected")
        _check_node(value, where, vocab, found)
    elif isinstance(value, bool):
        if "Boolean" not in ranges:
            found.append(f"{where}: a boolean where {ranges} is expected")
    elif isinstance(value, str):
        is_url = value.startswith(("https://", "http://"))
        if not ({"Text", "Number"} & set(ranges) or ("URL" in ranges and is_url)):
            found.append(f"{where}: {value[:60]!r} where {ranges} is expected")
    else:
        found.append(f"{where}: a {type(value).__name__} where {ranges} is expected")


class _Blocks(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=False)
        self.blocks: list[str] = []
        self._inside = False

    def handle_starttag(self, tag, attrs) -> None:
        self._inside = tag == "script" and dict(attrs).get("type") == "application/ld+json"
        if self._inside:
            self.blocks.append("")

    def handle_data(self, data) -> None:
        if self._inside:
            self.blocks[-1] += data

    def handle_endtag(self, tag) -> None:
        self._inside = False


def json_ld_blocks(html: str) -> list[str]:
    """The text of every ``<script type="application/ld+json">`` in a page, as written."""
    parser = _Blocks()
    parser.feed(html)
    return parser.blocks
