"""Every page names a link-preview card (og:image) that the build wrote, a 1200 x 630 PNG."""

from __future__ import annotations

import re
import struct

from roofline_site.link_cards import card_figure, card_key, draw_card


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def test_a_card_is_a_deterministic_1200_by_630_png() -> None:
    first = draw_card("KV cache", "The stored keys and values.", "Glossary term", site_name="Roofline Glossary")
    again = draw_card("KV cache", "The stored keys and values.", "Glossary term", site_name="Roofline Glossary")
    assert first == again and _png_size(first) == (1200, 630)
    assert card_key("a", "b", "c", site_name="s") != card_key("a", "b", "d", site_name="s")


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


def test_titles_and_summaries_are_drawn_as_plain_text_never_mathtext() -> None:
    # "$2 to $4" would be drawn "2to4" as mathtext, and "$\frac{$" would stop the build.
    title, summary = "Costs $2 to $4", r"A broken $\frac{$ expression stays literal."
    figure = card_figure(title, summary, "Glossary term", site_name="Site $x$")
    texts = figure.texts
    assert [text.get_text() for text in texts] == ["Site $x$ · Glossary term", title, summary]
    assert all(not text.get_parse_math() and not text.get_usetex() for text in texts)
    data = draw_card(title, summary, "Glossary term", site_name="Site $x$")
    assert _png_size(data) == (1200, 630)


def test_each_scenario_an_entry_links_has_its_preview_page_and_card(built_site) -> None:
    from roofline_site import scenario_cards
    from tests.support.site_build import PROJECT_ROOT

    scenarios = scenario_cards.entry_scenarios(PROJECT_ROOT / "glossary")
    assert scenarios
    for scenario in scenarios:
        page = (built_site / scenario.page_path / "index.html").read_text(encoding="utf-8")
        title = scenario_cards.preview(scenario).title
        assert f'<meta property="og:title" content="{title}: ' in page
        # The default build has no SITE_URL: no og:image (it must be absolute), and it says so.
        assert "og:image" not in page
        assert f'content="0; url=../../?{scenario.query.replace("&", "&amp;")}"' in page
        assert _png_size((built_site / scenario.card_path).read_bytes()) == (1200, 630)
        # The calculator's "Copy link" knows the preview (its island, as the page's script reads it).
        calculator = (built_site / "calculators" / scenario.calculator_id / "index.html").read_text(encoding="utf-8")
        assert (
            f"&quot;{scenario.query.replace('&', '&amp;')}&quot;:&quot;http://127.0.0.1:8000/{scenario.page_path}&quot;"
            in calculator
        )
