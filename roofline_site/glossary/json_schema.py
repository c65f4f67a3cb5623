"""The JSON Schema of ``glossary.json``, published beside it as ``glossary.schema.json``.

Tools that read ``glossary.json`` can check it against this schema (JSON Schema draft 2020-12,
https://json-schema.org/draft/2020-12/schema). :data:`SCHEMA_VERSION` is the format's version,
written into both files: a field added is a minor version, a field removed or changed in meaning
a major one. The data version (``data_version``, :func:`roofline_core.version.data_version`)
is another thing: it changes with the numbers, not with the format.
"""

from __future__ import annotations

import json

from roofline_site.glossary.schema import CATEGORIES

#: The version of ``glossary.json``'s format (semantic versioning, https://semver.org/).
SCHEMA_VERSION = "1.0.0"

_SLUG = {"type": "string", "pattern": "^[a-z0-9]+(?:-[a-z0-9]+)*$"}
_DATE = {"type": "string", "format": "date", "pattern": r"^\d{4}-\d{2}-\d{2}$"}
_TEXT = {"type": "string", "minLength": 1}


def schema(*, schema_id: str) -> dict[str, object]:
    """The schema, with ``schema_id`` (its published address) as ``$id``."""
    term = {
        "type": "object",
        "additionalProperties": False,
        "required": ["slug", "title", "category", "summary", "aliases", "url", "path", "added", "updated"],
        "properties": {
            "slug": {**_SLUG, "description": "The term's page is glossary/<slug>/."},
            "title": {**_TEXT, "description": "The term, as plain text."},
            "category": {"enum": list(CATEGORIES), "description": "One of the keys of categories."},
            "summary": {**_TEXT, "description": "One plain-text sentence."},
            "aliases": {"type": "array", "items": _TEXT, "uniqueItems": True, "description": "Other names."},
            "url": {**_TEXT, "description": "The page's address: absolute when the site has one, else equal to path."},
            "path": {**_TEXT, "description": "The page's address relative to the site's root."},
            "added": {**_DATE, "description": "First published (ISO 8601)."},
            "updated": {**_DATE, "description": "Last changed in substance, else added (ISO 8601)."},
        },
    }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": schema_id,
        "title": "Roofline Glossary: glossary.json",
        "description": "Every term of the glossary, A to Z, with the categories they fall in.",
        "type": "object",
        "additionalProperties": False,
        "required": ["version", "data_version", "categories", "terms"],
        "properties": {
            "$schema": {"type": "string", "description": "The address of this schema."},
            "version": {"const": SCHEMA_VERSION, "description": "The version of this format (of the schema)."},
            "data_version": {
                "type": "string",
                "pattern": "^[0-9a-f]{12}$",
                "description": "The version of the numbers the pages show (roofline_core.version.data_version).",
            },
            "categories": {
                "type": "object",
                "description": "Each category's key and what belongs in it.",
                "propertyNames": {"enum": list(CATEGORIES)},
                "additionalProperties": _TEXT,
            },
            "terms": {"type": "array", "items": term, "description": "Every term, A to Z."},
        },
    }


def schema_text(*, site_url: str | None, path: str) -> str:
    """The schema as the published file: ``$id`` is its address (site-relative without a site URL)."""
    base = (site_url or "").rstrip("/") + "/" if site_url else "/"
    return json.dumps(schema(schema_id=base + path), ensure_ascii=False, indent=1) + "\n"
