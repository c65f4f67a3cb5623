"""The real config.json files stored under tests/data/hf_configs (their sources: SOURCES.json)."""

from __future__ import annotations

import json
from pathlib import Path

CONFIG_DIR = Path(__file__).resolve().parents[1] / "data" / "hf_configs"


def config_text(slug: str) -> str:
    """The stored config.json of ``slug`` (e.g. ``llama-3.1-8b``), as text."""
    return (CONFIG_DIR / f"{slug}.json").read_text(encoding="utf-8")


def config(slug: str) -> dict:
    """The stored config.json of ``slug``, parsed."""
    return json.loads(config_text(slug))


def stored_slugs() -> list[str]:
    """Every stored config's slug, sorted."""
    return sorted(p.stem for p in CONFIG_DIR.glob("*.json") if p.stem != "SOURCES")
