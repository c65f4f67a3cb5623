"""Calculator embed pages: each calculator also lives at ``embed/<id>/``, for iframes.

Placing calculators in pages is ``hooks/fences.py``'s job (the ```` ```calculator ```` fence);
the Pyodide runtime they load is added by ``hooks/pyodide_assets.py``. The work is done by
``roofline_site.calculators`` (plain Python); this file only adapts MkDocs events to it.
"""

from __future__ import annotations

import os

from mkdocs.structure.files import File, Files, InclusionLevel

from roofline_core.calculators import CALCULATORS
from roofline_site.calculators.embed import EMBED_DIR, embed_page_markdown, with_site_address

# Hooks ---------------------------------------------------------------------------------


def on_files(files: Files, config) -> Files:
    for calculator_id in CALCULATORS:
        files.append(
            File.generated(
                config,
                f"{EMBED_DIR}/{calculator_id}.md",
                content=embed_page_markdown(calculator_id),
                inclusion=InclusionLevel.NOT_IN_NAV,
            )
        )
    return files


def on_page_markdown(markdown: str, page, config, files) -> str:
    # The documented embed snippet shows the public address when the build was given one; a
    # local build (site_url's fallback) keeps the placeholder the docs explain.
    return with_site_address(markdown, config["site_url"] if os.environ.get("SITE_URL") else None)
