"""Give every page a link-preview card (``og:image``), drawn by ``roofline_site.link_cards``.

Each page's card is written at ``assets/cards/<page>.png``; the page template reads
``page.meta.og_image`` (an absolute URL under ``site_url``, as Open Graph requires).

Each calculator scenario an entry links to gets a preview page and a card with its headline
result (``roofline_site.scenario_cards``), added in ``on_files``; their ``og:image`` needs the
public address, so a build without ``SITE_URL`` leaves it out of them (and says so in the log).

The cards are chosen in ``on_env``, when every page has its title and before any is laid out,
and copied from their cache by a second process while the pages are laid out
(:mod:`roofline_site.background_writes`): copying 120 small files cost this machine about
0.14 s of a warm build.
"""

from __future__ import annotations

import html
import logging
import os
from pathlib import Path
from urllib.parse import urljoin

from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files, InclusionLevel
from mkdocs.utils import get_relative_url

from roofline_core.calculators import CALCULATORS
from roofline_site import csp, scenario_cards
from roofline_site.background_writes import BackgroundWriteError, PendingWrites, start_writing, wait_all
from roofline_site.link_cards import cached_card_file, cached_scenario_card_file

CARD_DIR = "assets/cards"
_pending: list[PendingWrites] = []
log = logging.getLogger("mkdocs.hooks.link_cards")


def _kind(src_uri: str) -> str:
    if src_uri.startswith("glossary/") and src_uri != "glossary/index.md" and "/category/" not in src_uri:
        return "Glossary term"
    if src_uri.startswith("calculators/") or src_uri.startswith("embed/"):
        return "Calculator"
    return "LLM inference, explained"


def _card_name(url: str) -> str:
    return (url.strip("/").replace("/", "--") or "home") + ".png"


def _calculator_description(src_uri: str) -> str:
    """A calculator page's question (its definition's description), or ""."""
    calculator = CALCULATORS.get(Path(src_uri).stem) if src_uri.startswith(("calculators/", "embed/")) else None
    return calculator.description if calculator else ""


def on_config(config):
    wait_all(_pending, quietly=True)  # a build that failed before on_post_build (mkdocs serve goes on)
    return config


def on_files(files: Files, config) -> Files:
    root = Path(config["config_file_path"]).resolve().parent
    scenarios = scenario_cards.entry_scenarios(root / "glossary")
    scenario_cards.configure(scenarios)
    site_url = config["site_url"] if os.environ.get("SITE_URL") else None
    if not site_url:
        log.info("SITE_URL is not set: scenario preview pages carry no og:image (Open Graph needs an absolute URL)")
    policy = csp.meta_policy(csp.policy())
    for scenario in scenarios:
        try:
            item = scenario_cards.preview(scenario)
        except ValueError as exc:
            raise PluginError(f"link cards: {exc}") from None
        card = cached_scenario_card_file(
            item.title,
            list(item.results),
            item.inputs_text,
            site_name=config["site_name"],
            cache_dir=_cache_dir(config),
        )
        files.append(File.generated(config, scenario.card_path, abs_src_path=str(card)))
        target = get_relative_url(f"calculators/{scenario.calculator_id}/", scenario.page_path) + "?" + scenario.query
        page = scenario_cards.preview_html(
            item, target_href=target, site_url=site_url, site_name=config["site_name"], content_security_policy=policy
        )
        files.append(File.generated(config, scenario.page_path + "index.html", content=page))
    return files


def _cache_dir(config) -> Path:
    # The repository's own .cache (beside this hook), not the built project's: cards are keyed by
    # their texts alone, so a fixture site or a build with another SITE_URL reuses them.
    return Path(__file__).resolve().parent.parent / ".cache" / "link-cards"


def on_env(env, config, files):
    cache_dir = _cache_dir(config)
    copies: dict[str, Path] = {}
    for file in files.documentation_pages(inclusion=InclusionLevel.is_in_serve):
        page = file.page
        if page is None:  # not built: a draft, outside mkdocs serve
            continue
        # Titles and descriptions are escaped text by now (hooks/page_text.py); cards draw text.
        title = html.unescape(str(page.meta.get("title") or page.title or config["site_name"]))
        summary = html.unescape(
            str(
                page.meta.get("description")
                or _calculator_description(file.src_uri)
                or config.get("site_description")
                or ""
            )
        )
        name = _card_name(page.url)
        copies[f"{CARD_DIR}/{name}"] = cached_card_file(
            str(title), str(summary), _kind(file.src_uri), site_name=config["site_name"], cache_dir=cache_dir
        )
        page.meta["og_image"] = urljoin(config["site_url"] or "", f"{CARD_DIR}/{name}")
    _pending.append(start_writing(Path(config["site_dir"]), copies=copies))
    return env


# Before any other hook reads the site directory.
@event_priority(100)
def on_post_build(config):
    try:
        wait_all(_pending)
    except BackgroundWriteError as exc:
        raise PluginError(f"link cards: {exc}") from None
