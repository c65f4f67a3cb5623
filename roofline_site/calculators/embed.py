"""Embed pages: one per calculator at ``embed/<id>/``, with minimal chrome, for iframes.

Each is a virtual Markdown page using the ``calculator-embed.html`` template
(``site_assets/overrides/``) and the same calculator fence as any other page, so it takes its
state from the query string exactly as the full page does.
"""

from __future__ import annotations

import json

from roofline_core.calculators import definition

EMBED_DIR = "embed"
EMBED_TEMPLATE = "calculator-embed.html"
#: Where the full page of each calculator lives (docs/calculators/<id>.md).
FULL_PAGE_DIR = "calculators"


def embed_page_markdown(calculator_id: str) -> str:
    """The Markdown source of ``embed/<calculator_id>/``."""
    spec = definition(calculator_id)
    return (
        "---\n"
        f"template: {EMBED_TEMPLATE}\n"
        f"title: {json.dumps(spec['title'])}\n"
        f"full_page: {FULL_PAGE_DIR}/{calculator_id}/\n"
        "search:\n"
        "  exclude: true\n"
        "---\n\n"
        # The title is read by assistive technology and shown in the bar above (the template);
        # the frame's first screen is for the calculator, so no description paragraph.
        f"# {spec['title']} {{: .roofline-embed__title }}\n\n"
        "```calculator\n"
        f"id: {calculator_id}\n"
        "```\n"
    )
