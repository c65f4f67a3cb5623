"""Calculator embed pages: each calculator also lives at ``embed/<id>/``, for iframes.

Placing calculators in pages is ``hooks/fences.py``'s job (the ```` ```calculator ```` fence);
the Pyodide runtime they load is added by ``hooks/pyodide_assets.py``. The work is done by
``roofline_site.calculators`` (plain Python); this file only adapts MkDocs events to it.
"""

from __future__ import annotations

from mkdocs.structure.files import File, Files, InclusionLevel

from roofline_core.calculators import CALCULATORS
from roofline_site.calculators.embed import EMBED_DIR, embed_page_markdown

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
