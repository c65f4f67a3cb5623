"""Convert Markdown as the site does for fences: superfences with the shared fence formatter."""

from __future__ import annotations

from collections.abc import Sequence

import markdown as python_markdown

from roofline_site.fences import format_fence


def convert(markdown: str, languages: Sequence[str] = ("figure", "calculator")) -> str:
    """HTML of ``markdown`` with admonitions and a custom fence per language (as ``mkdocs.yml``)."""
    fences = [{"name": language, "class": f"roofline-{language}", "format": format_fence} for language in languages]
    return python_markdown.markdown(
        markdown,
        extensions=["admonition", "pymdownx.superfences"],
        extension_configs={"pymdownx.superfences": {"custom_fences": fences}},
    )
