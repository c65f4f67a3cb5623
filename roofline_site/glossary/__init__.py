"""The glossary as plain Python: schema, front-matter parser, validator, link graph, rendering.

``hooks/glossary.py`` adapts it to MkDocs; ``python -m roofline_site.glossary`` scaffolds and
checks entries from the command line. See docs/authoring-terms.md for the entry format.
"""

from __future__ import annotations

from roofline_site.glossary.entry import Entry, SourceRef
from roofline_site.glossary.errors import GlossaryError, Problem
from roofline_site.glossary.schema import CATEGORIES, FRONT_MATTER, SUMMARY_MAX_CHARS, slugify
from roofline_site.glossary.validator import Glossary, load_glossary

__all__ = [
    "CATEGORIES",
    "FRONT_MATTER",
    "SUMMARY_MAX_CHARS",
    "Entry",
    "Glossary",
    "GlossaryError",
    "Problem",
    "SourceRef",
    "load_glossary",
    "slugify",
]
