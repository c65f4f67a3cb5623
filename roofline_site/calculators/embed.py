"""Embed pages: one per calculator at ``embed/<id>/``, with minimal chrome, for iframes.

Each is a virtual Markdown page using the ``calculator-embed.html`` template
(``site_assets/overrides/``) and the same calculator fence as any other page, so it takes its
state from the query string exactly as the full page does.
"""

from __future__ import annotations

import json
from html import escape

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


#: Resizes the frame above it to the height its embed page posts (``embed-height.mjs``): a blog
#: then needs no guessed height. It listens to that frame alone, and only to the site's origin,
#: so another frame on the blog (an advertisement, say) cannot resize it or itself. Documented,
#: word for word, in docs/calculators/embedding.md.
RESIZE_SCRIPT = """<script>
  (() => {
    // Only this snippet's own frame (the iframe just above), and only what the site it shows sends.
    const frame = document.currentScript.previousElementSibling;
    const origin = new URL(frame.src).origin;
    addEventListener("message", (event) => {
      if (event.source !== frame.contentWindow || event.origin !== origin) return;
      if (event.data?.type !== "roofline-glossary:height") return;
      const height = Number(event.data.height);
      if (height > 0 && height < 20000) frame.style.height = `${Math.ceil(height)}px`;
    });
  })();
</script>"""


def embed_code(src: str, title: str) -> str:
    """What "Copy embed code" copies: an iframe of ``src`` (absolute) and the resize script.

    The browser puts the reader's scenario into ``src`` by replacing ``src="<src>"``, so the
    address appears in the code exactly once. ``allow="clipboard-write"`` lets the frame's
    "Copy link" and "Copy embed code" reach the clipboard on the blog's page (a cross-origin
    frame may not otherwise; the calculator then shows the text selected instead).
    """
    return (
        f'<iframe src="{escape(src)}" title="{escape(title)}" width="100%" height="700"'
        f' loading="lazy" allow="clipboard-write" style="border: 0"></iframe>\n{RESIZE_SCRIPT}\n'
    )


#: The address the documented snippet shows for a build that was not told its public one
#: (``SITE_URL`` unset): a reserved example domain, so nobody mistakes it for a real site.
ADDRESS_PLACEHOLDER = "https://YOUR-SITE.example/"
#: The scenario the documented snippet embeds (docs/calculators/embedding.md).
DOCUMENTED_EMBED = ("roofline-explorer", "?accelerator=h100-sxm&intensity=64")


def documented_snippet(site_url: str = ADDRESS_PLACEHOLDER) -> str:
    """The embed code the documentation shows, for the site at ``site_url``: exactly what
    "Copy embed code" gives for :data:`DOCUMENTED_EMBED`'s scenario."""
    calculator_id, query = DOCUMENTED_EMBED
    base = site_url if site_url.endswith("/") else site_url + "/"
    return embed_code(f"{base}{EMBED_DIR}/{calculator_id}/{query}", definition(calculator_id)["title"])


def with_site_address(markdown: str, site_url: str | None) -> str:
    """``markdown`` with the documented snippet's placeholder address replaced by ``site_url``
    (the ``SITE_URL`` the site was built with), so its docs show the real address; unchanged
    without one."""
    if not site_url:
        return markdown
    return markdown.replace(documented_snippet(), documented_snippet(site_url))
