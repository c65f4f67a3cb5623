"""The 2025-26 presets (non-hybrid families): derived counts against their publishers' figures."""

from __future__ import annotations

import pytest

from roofline_core.models import MODELS
from roofline_core.models.preset_records import PRESET_RECORDS
from tests.roofline_core.test_hf_config import SOURCES, _within

# Publisher counts of the new presets, and which derived count each one's "active" means.
# GLM counts neither the embedding nor the output head (the decoder layers alone); MiniMax
# leaves out the input embedding (our streamed count); Qwen counts both (our active count).
NEW_PRESETS = {
    "glm-4.5": lambda m: m.streamed_params_per_token - m.vocab_size * m.hidden_size,
    "minimax-m2.5": lambda m: m.streamed_params_per_token,
    "qwen3-coder-480b-a35b": lambda m: m.active_params_per_token,
    "phi-4-mini": None,
    "qwen3-0.6b": None,
    "qwen3-1.7b": None,
    "kimi-k2.5": lambda m: m.streamed_params_per_token,  # Moonshot leaves out the input embedding
    "gemma-4-31b": None,
}


def _record(slug: str) -> dict:
    return next(r for r in PRESET_RECORDS if r["slug"] == slug)


@pytest.mark.parametrize("slug", NEW_PRESETS)
def test_new_presets_match_their_published_counts(slug: str) -> None:
    model, record = MODELS[slug], _record(slug)
    assert _within(model.total_params, record["total"]["value"]), (slug, model.total_params / 1e9)
    active = NEW_PRESETS[slug]
    if active is not None:
        assert _within(active(model), record["active"]["value"]), (slug, active(model) / 1e9)


def test_at_least_eight_new_presets_and_45_with_the_other_families_to_come() -> None:
    # This branch adds eight; the hybrid families add theirs towards the 45 in all.
    assert len(NEW_PRESETS) >= 8 and all(slug in MODELS for slug in NEW_PRESETS)


def test_new_presets_are_grouped_by_family() -> None:
    families = {slug: MODELS[slug].family for slug in NEW_PRESETS}
    assert families == {
        "glm-4.5": "GLM",
        "minimax-m2.5": "MiniMax",
        "qwen3-coder-480b-a35b": "Qwen",
        "phi-4-mini": "Phi",
        "qwen3-0.6b": "Qwen",
        "qwen3-1.7b": "Qwen",
        "kimi-k2.5": "Kimi",
        "gemma-4-31b": "Gemma",
    }


def test_stored_new_configs_keep_their_publishers_quotes() -> None:
    for slug in ("minimax-m2.5", "qwen3-coder-480b-a35b", "qwen3-0.6b", "qwen3-1.7b", "phi-4-mini", "kimi-k2.5"):
        entry = SOURCES[slug]
        assert entry["published_total_params"]["value"] in entry["published_total_params"]["quote"]


def test_the_new_quantised_configs_place_every_module_they_keep_16_bit() -> None:
    from roofline_core.models.hf_config import from_hf_config
    from tests.support.hf_configs import config

    # Kimi K2.5 (INT4 experts): attention, shared experts and dense MLPs stay 16-bit by pattern;
    # MiniMax-M2.5 (FP8) names its router's score-correction bias.
    kimi = from_hf_config(config("kimi-k2.5")).quantisation
    assert set(kimi.unquantised) == {"embedding", "lm_head", "attention", "mlp"}
    assert kimi.quantised_parts == ("experts",) and not kimi.not_understood
    assert not from_hf_config(config("minimax-m2.5")).quantisation.not_understood


def test_the_model_select_keeps_each_family_in_one_group() -> None:
    from roofline_core.calculators._common import model_choices

    groups = [choice.group for choice in model_choices() if choice.group]
    runs = [group for i, group in enumerate(groups) if i == 0 or groups[i - 1] != group]
    assert len(runs) == len(set(runs)), runs  # appended presets join their family's group
    assert {"GLM", "MiniMax", "Kimi", "Gemma", "Qwen", "Phi"} <= set(runs)
