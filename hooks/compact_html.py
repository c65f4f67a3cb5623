"""Trim the theme templates' indentation from every finished page (roofline_site.html_whitespace).

Runs after every hook that edits a page's HTML and just before the CSP check (priority -100),
so the check sees the page as it is written.
"""

from __future__ import annotations

from mkdocs.plugins import event_priority

from roofline_site.html_whitespace import collapse_layout_whitespace

# Hooks ---------------------------------------------------------------------------------


@event_priority(-90)
def on_post_page(output: str, page, config) -> str:
    return collapse_layout_whitespace(output)


@event_priority(-90)
def on_post_template(output_content: str, template_name: str, config) -> str:
    return collapse_layout_whitespace(output_content) if template_name.endswith(".html") else output_content
