"""Models from real ``config.json`` files: parameter counts against their publishers, KV bytes
against hand derivations, and bad input that only ever yields a ConfigError."""

from __future__ import annotations

import json
import math
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from roofline_core.models import MODELS
from roofline_core.models.hf_config import SUPPORTED_MODEL_TYPES, ConfigError, from_hf_config, parse_config_text
from roofline_core.models.preset_records import PRESET_RECORDS
from tests.support.hf_configs import CONFIG_DIR
from tests.support.hf_configs import config as _config

SOURCES = json.loads((CONFIG_DIR / "SOURCES.json").read_text(encoding="utf-8"))["models"]
CONFIG_FILES = sorted(p for p in CONFIG_DIR.glob("*.json") if p.name != "SOURCES.json")


def _published(text: str) -> tuple[float, float]:
    """A published count ("7.61B", "1 trillion") and its rounding: half a unit of its last digit."""
    number, unit = re.fullmatch(r"([\d.]+)\s*(B|T|billion|trillion)", text).groups()
    scale = 1e12 if unit in ("T", "trillion") else 1e9
    decimals = len(number.partition(".")[2])
    return float(number) * scale, 0.5 * 10**-decimals * scale


# Publisher counts compared here. "active" is what the publisher calls active: Mixtral, Qwen and
# Llama 4 count the embedding table (our active_params_per_token); OpenAI's gpt-oss card counts
# it out (our streamed_params_per_token: everything a token multiplies, unembedding included).
COMPARED = {
    "llama-3.1-8b": None,
    "llama-3.1-70b": None,
    "llama-3.1-405b": None,
    "llama-3.2-1b": None,
    "llama-3.2-3b": None,
    "llama-4-maverick": "active_params_per_token",
    "qwen2.5-7b": None,
    "qwen2.5-32b": None,
    "qwen3-32b": None,
    "qwen3-30b-a3b": None,  # active: 3.35B derived; the card's "3.3B" reads as truncated
    "qwen3-235b-a22b": "active_params_per_token",
    "mixtral-8x7b": "active_params_per_token",
    "mixtral-8x22b": "active_params_per_token",
    "gpt-oss-20b": "streamed_params_per_token",
    "gpt-oss-120b": "streamed_params_per_token",
    "deepseek-v3": None,  # "37B activated": the report does not say which tables it counts
    # Hybrid and sparse-attention releases (their recurrent layers' and indexer's weights counted).
    "qwen3.5-27b": None,  # the published 27B counts the vision encoder too; the text model is 26.9B
    "qwen3.5-35b-a3b": "active_params_per_token",
    "qwen3.5-122b-a10b": "active_params_per_token",
    "qwen3.5-397b-a17b": "active_params_per_token",
    "nemotron-h-56b": None,
    "nemotron-3-nano-30b-a3b": "active_params_per_token",  # "3.6B with embeddings"
    "deepseek-v3.2": None,  # quotes V3's counts; the indexer adds about 0.85B
}


def _within(derived: float, published: str) -> bool:
    value, rounding = _published(published)
    return abs(derived - value) <= max(0.01 * value, rounding)


def test_at_least_twelve_real_configs_match_their_published_totals():
    rows, misses = [], []
    for slug, active_kind in COMPARED.items():
        model = from_hf_config(_config(slug), slug=slug)
        total = SOURCES[slug]["published_total_params"]["value"]
        rows.append(f"{slug}: total {model.total_params / 1e9:.2f}B vs {total}")
        if not _within(model.total_params, total):
            misses.append(rows[-1])
        if active_kind:
            active = SOURCES[slug]["published_active_params"]["value"]
            derived = getattr(model, active_kind)
            rows.append(f"{slug}: active {derived / 1e9:.2f}B vs {active}")
            if not _within(derived, active):
                misses.append(rows[-1])
    assert len(COMPARED) >= 12
    assert not misses, "\n".join(["outside 1% (or the figure's rounding):", *misses, "all rows:", *rows])


def test_families_cover_the_supported_model_types():
    types = {_config(p.stem).get("model_type") for p in CONFIG_FILES}
    assert {"llama", "mistral", "mixtral", "qwen2", "qwen3", "qwen3_moe", "gemma2", "gemma3"} <= types
    assert {"phi3", "deepseek_v3", "gpt_oss", "llama4"} <= types
    assert {"qwen3_5", "qwen3_5_moe", "nemotron_h", "deepseek_v32"} <= types


# Presets whose full config.json is stored here (the others quote their fields in their source).
_STORED = [r for r in PRESET_RECORDS if (CONFIG_DIR / f"{r['slug']}.json").exists()]


def test_most_presets_have_their_full_config_stored():
    assert len(_STORED) >= 26


@pytest.mark.parametrize("record", _STORED, ids=[r["slug"] for r in _STORED])
def test_each_preset_is_the_fields_of_its_real_config(record):
    path = CONFIG_DIR / f"{record['slug']}.json"
    config = json.loads(path.read_text(encoding="utf-8"))
    text = config.get("text_config") or config
    for key, value in record["config"].items():
        if key == "model_type":
            continue
        assert text.get(key) == value, (
            f"{record['slug']}: {key} is {value!r} in the preset, {text.get(key)!r} in the config"
        )
    assert MODELS[record["slug"]] == from_hf_config(
        record["config"], slug=record["slug"], name=record["name"], source=MODELS[record["slug"]].source
    )


def test_at_least_thirty_presets_all_loaded_from_configs():
    assert len(MODELS) >= 30
    # Every record, family by family (each family where it first appears in the records).
    assert sorted(r["slug"] for r in PRESET_RECORDS) == sorted(MODELS)
    families = [m.family for m in MODELS.values()]
    assert families == sorted(families, key=families.index)


# KV cache bytes per token, derived by hand: 2 (K and V) x layers x KV heads x head width x 2 bytes.
KV_BY_HAND = {
    "llama-3.1-8b": 2 * 32 * 8 * 128 * 2,  # GQA
    "deepseek-v3": 61 * (512 + 64) * 2,  # MLA: one latent and one rotary key per layer
    "gemma-2-9b": 2 * 42 * 8 * 256 * 2,  # head_dim 256 given explicitly
    "gpt-oss-120b": 2 * 36 * 8 * 64 * 2,
    "llama-4-scout": 2 * 48 * 8 * 128 * 2,
    "qwen3-30b-a3b": 2 * 48 * 4 * 128 * 2,  # Qwen MoE: head_dim 128 while hidden/heads is 64
    "phi-4": 2 * 40 * 10 * 128 * 2,
}


@pytest.mark.parametrize(("slug", "expected"), KV_BY_HAND.items())
def test_kv_bytes_per_token_by_hand(slug, expected):
    assert from_hf_config(_config(slug)).kv_bytes_per_token("fp16") == expected


@pytest.mark.parametrize(
    ("slug", "context", "expected"),
    [
        # Gemma 2: 21 of 42 layers slide over 4,096 tokens; 8,192 bytes per layer and token.
        ("gemma-2-9b", 8192, (21 * 8192 + 21 * 4096) * 8192),
        ("gemma-2-9b", 1000, 42 * 1000 * 8192),
        # Gemma 3 27B: 5 of every 6 of its 62 layers slide over 1,024 tokens (52 sliding, 10 global).
        ("gemma-3-27b", 32768, (10 * 32768 + 52 * 1024) * 2 * 16 * 128 * 2),
        # gpt-oss: every other layer slides over 128 tokens.
        ("gpt-oss-120b", 4096, (18 * 4096 + 18 * 128) * 2 * 8 * 64 * 2),
        # Llama 4: three of four layers attend within 8,192-token chunks.
        ("llama-4-scout", 65536, (12 * 65536 + 36 * 8192) * 2 * 8 * 128 * 2),
        # Qwen2.5 carries sliding_window but does not use it (use_sliding_window false).
        ("qwen2.5-7b", 200_000, 200_000 * 2 * 28 * 4 * 128 * 2),
    ],
)
def test_kv_cache_bytes_caps_sliding_layers(slug, context, expected):
    assert from_hf_config(_config(slug)).kv_cache_bytes(context_tokens=context) == expected


@settings(max_examples=60, deadline=None)
@given(
    slug=st.sampled_from(["gemma-2-9b", "gemma-3-27b", "gpt-oss-20b", "llama-4-scout", "llama-3.1-8b"]),
    a=st.integers(0, 2_000_000),
    b=st.integers(0, 2_000_000),
    batch=st.integers(1, 64),
)
def test_more_context_never_shrinks_the_cache_and_the_inverse_agrees(slug, a, b, batch):
    model = MODELS[slug]
    low, high = sorted((a, b))
    assert model.kv_cache_bytes(context_tokens=low, batch=batch) <= model.kv_cache_bytes(
        context_tokens=high, batch=batch
    )
    size = model.kv_cache_bytes(context_tokens=high, batch=batch)
    if high:
        assert math.isclose(model.context_for_kv_bytes(kv_bytes=size, batch=batch), high, rel_tol=1e-9)


def test_a_multimodal_config_uses_its_text_config():
    wrapped = _config("gemma-3-27b")  # Gemma 3's published config is the multimodal one
    assert wrapped["model_type"] == "gemma3" and "text_config" in wrapped
    flat = {**wrapped["text_config"], "model_type": "gemma3_text"}
    assert from_hf_config(wrapped) == from_hf_config(flat)


def test_explicit_head_dim_wins_and_ties_are_honoured():
    base = _config("llama-3.1-8b")
    assert from_hf_config({**base, "head_dim": 64}).kv_bytes_per_token() == 2 * 32 * 8 * 64 * 2
    tied = from_hf_config({**base, "tie_word_embeddings": True})
    assert from_hf_config(base).total_params - tied.total_params == 128256 * 4096


# Bad input ----------------------------------------------------------------------------------


def test_invalid_json_names_line_and_column():
    with pytest.raises(ConfigError, match=r"^line 3, column 1: .*; expected valid JSON$"):
        parse_config_text('{\n  "model_type": "llama",\n}')


def test_unknown_model_type_names_the_supported_ones():
    with pytest.raises(ConfigError) as caught:
        from_hf_config({"model_type": "bert"})
    assert "'bert' is not supported" in str(caught.value)
    assert all(kind in str(caught.value) for kind in SUPPORTED_MODEL_TYPES)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"num_hidden_layers": None}, "field 'num_hidden_layers' is missing; expected a whole number >= 1"),
        ({"hidden_size": -4096}, "field 'hidden_size' is -4096; expected a whole number >= 1"),
        ({"vocab_size": "big"}, "field 'vocab_size' is 'big'; expected a whole number >= 1"),
        ({"hidden_size": float("inf")}, "field 'hidden_size' is inf; expected a whole number >= 1"),
        ({"num_key_value_heads": 7}, "expected a divisor of num_attention_heads (32)"),
        ({"num_hidden_layers": 10**9}, "field 'num_hidden_layers' is 1,000,000,000; expected at most 2,000"),
    ],
)
def test_bad_fields_are_named(change, message):
    config = {key: value for key, value in {**_config("llama-3.1-8b"), **change}.items() if value is not None}
    with pytest.raises(ConfigError) as caught:
        from_hf_config(config)
    assert message in str(caught.value)


_JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**12), 10**12),
    st.floats(allow_nan=True),
    st.text(max_size=8),
    st.lists(st.integers(-3, 3), max_size=4),
    st.dictionaries(st.text(max_size=4), st.integers(), max_size=2),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    name=st.sampled_from([p.stem for p in CONFIG_FILES]),
    edits=st.lists(st.tuples(st.integers(0, 200), st.one_of(st.just("delete"), _JUNK)), max_size=5),
)
def test_mutated_real_configs_give_a_model_or_a_config_error(name, edits):
    config = _config(name)
    target = config.get("text_config") if isinstance(config.get("text_config"), dict) else config
    keys = sorted(target)
    for index, change in edits:
        key = keys[index % len(keys)]
        if change == "delete":
            target.pop(key, None)
        else:
            target[key] = change
    try:
        model = from_hf_config(config)
    except ConfigError as error:
        assert str(error)
    else:
        assert model.total_params > 0 and model.kv_cache_bytes(context_tokens=4096) >= 0
