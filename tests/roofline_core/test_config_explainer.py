"""The config.json explainer: each field that shapes a model, its glossary term and its cost."""

from __future__ import annotations

from pathlib import Path

import pytest

from roofline_core.calculators import compute
from roofline_core.models import MODELS
from roofline_core.models.config_code import FIELDS, NAME_KEY
from roofline_core.models.hf_config import from_hf_config
from roofline_core.view import calculator_view
from tests.support.hf_configs import config, config_text, stored_slugs

GLOSSARY = Path(__file__).resolve().parents[2] / "glossary"


def _rows(result: dict) -> dict[str, dict]:
    return {row["field"]["text"]: row for row in result["table"]}


def test_it_opens_on_llama_31_8b() -> None:
    result = compute("config-explainer", {})
    assert result["errors"] == {}
    preset = MODELS["llama-3.1-8b"]
    assert result["outputs"]["name"]["text"] == "meta-llama/Llama-3.1-8B"
    assert result["outputs"]["total_params"]["value"] == preset.total_params
    assert result["outputs"]["kv_bytes_per_token"]["value"] == preset.kv_bytes_per_token("fp16") == 131072
    gqa = _rows(result)["num_attention_heads, num_key_value_heads"]
    assert gqa["effect"]["text"].startswith("KV cache 2 × 32 × 8 × 128 × 2 bytes = 131 kB per token")


@pytest.mark.parametrize("slug", stored_slugs())
def test_every_real_config_is_explained_with_its_own_numbers(slug: str) -> None:
    result = compute("config-explainer", {"model_config": config_text(slug), "context_tokens": "65536"})
    assert result["errors"] == {}
    model = from_hf_config(config(slug))
    outputs = result["outputs"]
    assert outputs["total_params"]["value"] == model.total_params
    assert outputs["active_params"]["value"] == model.active_params_per_token
    assert outputs["kv_bytes_at_context"]["value"] == model.kv_cache_bytes(context_tokens=65536)
    rows = _rows(result)
    for row in result["table"]:
        # Every row names config fields, and links a glossary entry that exists.
        assert all(key in FIELDS for key in row["field"]["text"].split(", ")), row["field"]["text"]
        if "term" in row["field"]:
            assert (GLOSSARY / f"{row['field']['term']}.md").is_file(), row["field"]["term"]
    terms = {row["field"].get("term") for row in result["table"]}
    assert ("mixture-of-experts" in terms) == model.is_moe
    assert ("sliding-window-attention" in terms) == bool(model.sliding_layers)
    assert ("multi-head-latent-attention" in terms) == (model.attention == "mla")
    assert "num_hidden_layers" in rows and "hidden_size" in rows


def test_sliding_window_row_compares_with_a_full_cache() -> None:
    result = compute("config-explainer", {"model_config": config_text("gemma-3-27b"), "context_tokens": "32768"})
    row = next(r for r in result["table"] if r["field"].get("term") == "sliding-window-attention")
    assert row["sets"]["text"] == "52 of 62 layers attend to the last 1,024 tokens only."
    assert (
        "the KV cache is 3.12 GB per sequence, against 16.6 GB if every layer kept the whole context"
        in row["effect"]["text"]
    )


def test_term_cells_link_to_the_glossary() -> None:
    result = compute("config-explainer", {})
    table = calculator_view("config-explainer", result, dom_id="c", glossary_url="../../glossary/")["table"]
    links = []

    def walk(tree):
        if isinstance(tree, dict):
            if tree["tag"] == "a":
                links.append(tree["attrs"]["href"])
            for child in tree["children"]:
                walk(child)

    walk(table)
    assert "../../glossary/grouped-query-attention/" in links and "../../glossary/kv-cache/" in links


def test_a_bad_paste_is_an_error_under_the_box() -> None:
    result = compute("config-explainer", {"model_config": '{"model_type": "llama", "hidden_size": 0}'})
    assert list(result["errors"]) == ["model_config"]
    assert NAME_KEY not in FIELDS
