"""Fenced blocks that the build turns into something else: ```` ```figure ````, ```` ```calculator ````.

One toolkit for every kind:

* :mod:`.scan` finds fences of given languages and their lines, by superfences' rules;
* :mod:`.body` reads a body's ``key: value`` lines;
* :mod:`.lines` maps lines back to the file the author edits (front matter, rewritten and
  generated pages);
* :mod:`.errors` holds :class:`LocatedError`, ``<path>:<line>: <problem>; expected <what>``;
* :mod:`.build` prepares a page's fences, is the superfences formatter, and checks afterwards
  that every fence rendered and none reached the page as code.

A kind (``roofline_site.figures.pages.FigureFences``,
``roofline_site.calculators.page.CalculatorFences``) only validates and renders its own fences.
Nothing here imports MkDocs.
"""

from __future__ import annotations

from roofline_site.fences.body import key_values
from roofline_site.fences.build import (
    FORMATTER,
    FenceBuild,
    FenceFormatError,
    FenceKind,
    PageContext,
    Prepared,
    current_build,
    fill_deferred,
    format_fence,
    inserted_html,
    require_custom_fences,
    start_build,
)
from roofline_site.fences.errors import LocatedError
from roofline_site.fences.lines import AuthorSource, author_source, source_lines
from roofline_site.fences.scan import Fence, body_key, find_fences

__all__ = [
    "FORMATTER",
    "AuthorSource",
    "Fence",
    "FenceBuild",
    "FenceFormatError",
    "FenceKind",
    "LocatedError",
    "PageContext",
    "Prepared",
    "author_source",
    "body_key",
    "current_build",
    "fill_deferred",
    "find_fences",
    "format_fence",
    "inserted_html",
    "key_values",
    "require_custom_fences",
    "source_lines",
    "start_build",
]
