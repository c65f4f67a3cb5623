"""Every page names a link-preview card (og:image) that the build wrote, a 1200 x 630 PNG."""

from __future__ import annotations

import re
import struct

from roofline_site.link_cards import card_key, draw_card


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def test_a_card_is_a_deterministic_1200_by_630_png() -> None:
    first = draw_card("KV cache", "The stored keys and values.", "Glossary term", site_name="Roofline Glossary")
    again = draw_card("KV cache", "The stored keys and values.", "Glossary term", site_name="Roofline Glossary")
    assert first == again and _png_size(first) == (1200, 630)
    assert card_key("a", "b", "c") != card_key("a", "b", "d")


def test_every_page_of_the_built_site_names_a_card_it_wrote(built_site) -> None:
    # Embed pages are for iframes (noindex, no link previews); redirects only forward.
    pages = [
        p
        for p in built_site.rglob("index.html")
        if 'http-equiv="refresh"' not in p.read_text(encoding="utf-8") and p.relative_to(built_site).parts[0] != "embed"
    ]
    assert len(pages) > 50
    for page in pages:
        html = page.read_text(encoding="utf-8")
        found = re.search(r'<meta property="og:image" content="[^"]*/(assets/cards/[^"]+\.png)">', html)
        assert found, page
        assert _png_size((built_site / found.group(1)).read_bytes()) == (1200, 630), page
        assert '<meta name="twitter:card" content="summary_large_image">' in html
