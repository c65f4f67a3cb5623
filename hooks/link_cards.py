"""Give every page a link-preview card (``og:image``), drawn by ``roofline_site.link_cards``.

Each page's card is written at ``assets/cards/<page>.png``; the page template reads
``page.meta.og_image`` (an absolute URL under ``site_url``, as Open Graph requires).
"""

from __future__ import annotations

import shutil
from pathlib import Path
from urllib.parse import urljoin

from roofline_core.calculators import CALCULATORS
from roofline_site.link_cards import cached_card_file

CARD_DIR = "assets/cards"
_cards: dict[str, tuple[str, str, str]] = {}


def _kind(src_uri: str) -> str:
    if src_uri.startswith("glossary/") and src_uri != "glossary/index.md" and "/category/" not in src_uri:
        return "Glossary term"
    if src_uri.startswith("calculators/") or src_uri.startswith("embed/"):
        return "Calculator"
    return "LLM inference, explained"


def _card_name(url: str) -> str:
    return (url.strip("/").replace("/", "--") or "home") + ".png"


def on_config(config):
    _cards.clear()
    return config


def _calculator_description(src_uri: str) -> str:
    """A calculator page's question (its definition's description), or ""."""
    calculator = CALCULATORS.get(Path(src_uri).stem) if src_uri.startswith(("calculators/", "embed/")) else None
    return calculator.description if calculator else ""


def on_page_context(context, page, config, nav):
    title = page.meta.get("title") or page.title or config["site_name"]
    summary = (
        page.meta.get("description")
        or _calculator_description(page.file.src_uri)
        or config.get("site_description")
        or ""
    )
    name = _card_name(page.url)
    _cards[name] = (str(title), str(summary), _kind(page.file.src_uri))
    page.meta["og_image"] = urljoin(config["site_url"] or "", f"{CARD_DIR}/{name}")
    return context


def on_post_build(config):
    cache_dir = Path(config["config_file_path"]).resolve().parent / ".cache" / "link-cards"
    out_dir = Path(config["site_dir"]) / CARD_DIR
    out_dir.mkdir(parents=True, exist_ok=True)
    for name, (title, summary, kind) in sorted(_cards.items()):
        card = cached_card_file(title, summary, kind, site_name=config["site_name"], cache_dir=cache_dir)
        shutil.copyfile(card, out_dir / name)
