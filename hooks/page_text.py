"""Every title the theme prints is text: page titles, front matter and the table of contents.

Material prints these into the page without escaping them (they are HTML to it), and Python-
Markdown's ``toc`` made the contents from headings before any sanitiser ran. Here, after every
hook that edits a page's contents and before any template reads them, each becomes escaped text
(:mod:`roofline_site.headings`); ids in the contents must be slugs. Code that needs the plain
text back (the link cards) unescapes it.
"""

from __future__ import annotations

from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority

from roofline_site.headings import plain_toc, text_html


# After hooks/glossary.py has put a term page's own sections into its contents.
@event_priority(-50)
def on_page_content(html: str, page, config, files) -> str:
    # Material prints the description inside a quoted attribute, unescaped.
    for key in ("title", "description"):
        if key in page.meta:
            page.meta[key] = text_html(str(page.meta[key]))
    if page.title is not None:
        page.title = text_html(str(page.title))
    try:
        plain_toc(page.toc.items, where=f"docs/{page.file.src_uri}")
    except ValueError as exc:
        raise PluginError(str(exc)) from None
    return html
