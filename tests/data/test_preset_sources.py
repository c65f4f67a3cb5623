"""The stored source data for model and accelerator presets is well formed and quotes its numbers.

These files are research data for the presets (real Hugging Face ``config.json`` files and vendor
spec-sheet quotes), kept so that every number a preset uses can be traced to what its source says.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

DATA = Path(__file__).parent
HF_CONFIGS = DATA / "hf_configs"
SOURCES = json.loads((HF_CONFIGS / "SOURCES.json").read_text(encoding="utf-8"))["models"]
CONFIG_FILES = sorted(HF_CONFIGS.glob("*.json"))
CONFIG_SLUGS = [p.stem for p in CONFIG_FILES if p.name != "SOURCES.json"]

# Fields without which no parameter or KV-cache count can be made (top level, or in text_config
# for multimodal checkpoints).
ARCHITECTURE_FIELDS = ("hidden_size", "num_hidden_layers", "num_attention_heads")


def _text_config(config: dict) -> dict:
    return config.get("text_config", config)


def test_there_are_configs_from_at_least_twelve_families() -> None:
    model_types = {json.loads((HF_CONFIGS / f"{slug}.json").read_text())["model_type"] for slug in CONFIG_SLUGS}
    assert len(CONFIG_SLUGS) >= 12
    assert len(model_types) >= 8, model_types


@pytest.mark.parametrize("slug", CONFIG_SLUGS)
def test_config_parses_and_names_its_architecture(slug: str) -> None:
    config = json.loads((HF_CONFIGS / f"{slug}.json").read_text(encoding="utf-8"))
    assert isinstance(config.get("model_type"), str) and config["model_type"], f"{slug}: no model_type"
    text = _text_config(config)
    missing = [f for f in ARCHITECTURE_FIELDS if not isinstance(text.get(f), int)]
    assert not missing, f"{slug}: missing integer fields {missing}"


def test_every_config_has_a_source_entry_and_every_found_entry_a_config() -> None:
    found = {slug for slug, entry in SOURCES.items() if entry.get("config_found", True)}
    assert set(CONFIG_SLUGS) == found


@pytest.mark.parametrize("slug", sorted(SOURCES))
def test_source_entry_cites_where_it_was_read(slug: str) -> None:
    entry = SOURCES[slug]
    assert re.fullmatch(r"[\w.-]+/[\w.-]+", entry["repo"]), f"{slug}: repo must be owner/name"
    if entry.get("config_found", True):
        assert entry["url"].startswith("https://github.com/"), f"{slug}: url must name the stored repository"
    for key in ("published_total_params", "published_active_params"):
        if key in entry:
            claim = entry[key]
            assert claim["url"].startswith("https://"), f"{slug}.{key}: no url"
            assert claim["quote"].strip(), f"{slug}.{key}: no quote"
            # The stated figure must be read from the quote, not typed beside it.
            figure = re.match(r"[\d.]+", claim["value"]).group(0)
            assert figure in claim["quote"], f"{slug}.{key}: {claim['value']!r} not in its quote"


@pytest.mark.parametrize("slug", [s for s in CONFIG_SLUGS if "experts" in (HF_CONFIGS / f"{s}.json").read_text()])
def test_mixture_of_experts_models_state_their_active_count(slug: str) -> None:
    assert "published_active_params" in SOURCES[slug], f"{slug}: MoE model without a published active count"
