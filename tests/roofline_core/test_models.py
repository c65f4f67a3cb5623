"""Model presets: parameter counts derived from the architecture match the published totals."""

from __future__ import annotations

import dataclasses
import re

import pytest

from roofline_core import MODELS, get_model
from roofline_core.models import MLA, Model


@pytest.mark.parametrize(
    ("slug", "total_billion", "active_billion", "rel"),
    [
        ("llama-2-7b", 6.74, 6.74, 0.002),
        ("llama-3-8b", 8.03, 8.03, 0.002),
        ("llama-3-70b", 70.6, 70.6, 0.002),
        ("mixtral-8x7b", 46.7, 12.9, 0.002),
        # The technical report rounds: 671B total, 37B activated.
        ("deepseek-v3", 671, 37, 0.02),
    ],
)
def test_parameter_counts_match_published_totals(
    slug: str, total_billion: float, active_billion: float, rel: float
) -> None:
    model = get_model(slug)
    assert model.total_params / 1e9 == pytest.approx(total_billion, rel=rel)
    assert model.active_params_per_token / 1e9 == pytest.approx(active_billion, rel=rel)


@pytest.mark.parametrize("slug", sorted(MODELS))
def test_every_model_has_a_source(slug: str) -> None:
    source = MODELS[slug].source
    assert source.url.startswith("https://")
    assert str(MODELS[slug].layers) in source.states


@pytest.mark.parametrize("slug", sorted(MODELS))
def test_streamed_params_exclude_only_the_input_embedding(slug: str) -> None:
    model = MODELS[slug]
    # A tied head is the embedding matrix itself: it is streamed, and not counted twice. Gemma 3n's
    # per-layer embedding table is an input table too: gathered, never streamed.
    embedding = (0 if model.tied_embeddings else model.embedding_params) + model.per_layer_embedding_params
    assert model.streamed_params_per_token == model.active_params_per_token - embedding
    if not model.is_moe:
        assert model.active_params_per_token == model.total_params


def test_kv_bytes_per_token() -> None:
    # Llama-3-70B: 2 (K, V) x 80 layers x 8 KV heads x 128 x 2 bytes.
    assert get_model("llama-3-70b").kv_bytes_per_token("fp16") == 2 * 80 * 8 * 128 * 2
    assert get_model("llama-3-70b").kv_bytes_per_token("int8") == 80 * 8 * 128 * 2
    # Llama-2-7B is MHA: 32 KV heads.
    assert get_model("llama-2-7b").kv_bytes_per_token() == 2 * 32 * 32 * 128 * 2
    # DeepSeek-V3's MLA caches a 512-wide latent plus a 64-wide rotary key per layer.
    assert get_model("deepseek-v3").kv_bytes_per_token() == 61 * (512 + 64) * 2


def test_mla_caches_far_less_than_gqa_would() -> None:
    v3 = get_model("deepseek-v3")
    assert v3.attention == MLA
    as_mha = 2 * v3.layers * v3.heads * v3.head_dim
    assert v3.kv_elements_per_token * 50 < as_mha


def test_weight_bytes_scale_with_dtype() -> None:
    model = get_model("llama-3-8b")
    assert model.weight_bytes("fp32") == model.weight_bytes("fp16") * 2
    # Below 16 bits only the linear layers shrink: the embedding, the output head and the norms
    # stay 16-bit, as quantised checkpoints keep them.
    parts = model.weight_parts()
    linear = parts["attention"] + parts["mlp"] + parts["experts"]
    sixteen = model.total_params - linear
    assert model.weight_bytes("int8") == linear * 1 + sixteen * 2
    assert model.weight_bytes("int4") == linear * 0.5 + sixteen * 2


def test_a_w4a16_llama_3_1_8b_is_about_5_6_gb_not_4() -> None:
    # Real W4A16 checkpoints of Llama 3.1 8B are about 5.7 GB with their group scales: the 525M-
    # parameter embedding and output head stay 16-bit (bare 4-bit weights here, no scales).
    model = get_model("llama-3.1-8b")
    assert 5.5e9 < model.weight_bytes("int4") < 5.7e9
    head = model.vocab_size * model.hidden_size
    streamed = model.streamed_weight_bytes("int4")
    assert streamed == pytest.approx((model.streamed_params_per_token - head) * 0.5 + head * 2, rel=1e-3)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"attention": "sparse"}, "attention must be one of"),
        ({"attention": "mha", "kv_heads": 8}, "MHA needs kv_heads == heads"),
        ({"kv_heads": 5}, "GQA needs kv_heads to divide heads"),
        ({"attention": "mla", "mla_latent_dim": 0}, "MLA needs mla_latent_dim"),
    ],
)
def test_inconsistent_architectures_are_rejected(change: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        dataclasses.replace(get_model("llama-3-8b"), **change)


def test_unknown_model_lists_the_known_ones() -> None:
    with pytest.raises(KeyError, match="llama-3-8b"):
        get_model("gpt-5")
    assert isinstance(get_model("llama-3-8b"), Model)


def test_custom_model_has_the_interface_the_estimates_use() -> None:
    from roofline_core import CustomModel

    dense = CustomModel(streamed_params_per_token=8e9)
    assert dense.total_params == dense.active_params_per_token == 8e9
    assert not dense.is_moe and not dense.kv_cache_known and dense.name == "Custom model"
    assert dense.weight_bytes("int8") == 8e9
    gqa = CustomModel(streamed_params_per_token=70e9, total_params=141e9, layers=80, kv_heads=8, head_dim=128)
    assert gqa.kv_bytes_per_token("fp16") == get_model("llama-3-70b").kv_bytes_per_token("fp16")
    assert gqa.weight_bytes() == 282e9
    mla = CustomModel(streamed_params_per_token=37e9, attention=MLA, layers=61, mla_latent_dim=512, mla_rope_dim=64)
    assert mla.kv_bytes_per_token() == get_model("deepseek-v3").kv_bytes_per_token()
    by_figure = CustomModel(streamed_params_per_token=8e9, kv_elements_per_token=65_536)
    assert by_figure.kv_bytes_per_token("fp8") == 65_536


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"streamed_params_per_token": 0}, "streamed_params_per_token must be a positive"),
        ({"streamed_params_per_token": 8e9, "total_params": 7e9}, "total_params .* must be at least"),
        ({"streamed_params_per_token": 8e9, "attention": "sparse"}, "attention must be one of"),
        ({"streamed_params_per_token": 8e9, "layers": 32}, "GQA KV shape needs kv_heads, head_dim as well"),
        ({"streamed_params_per_token": 8e9, "attention": "mla", "layers": 61}, "MLA KV shape needs mla_latent_dim"),
        (
            {"streamed_params_per_token": 8e9, "layers": 1, "kv_heads": 1, "head_dim": 1, "kv_elements_per_token": 2},
            "not both",
        ),
        ({"streamed_params_per_token": 8e9, "kv_elements_per_token": -1}, "kv_elements_per_token must be >= 0"),
    ],
)
def test_inconsistent_custom_models_are_rejected(kwargs: dict, message: str) -> None:
    from roofline_core import CustomModel

    with pytest.raises(ValueError, match=message):
        CustomModel(**kwargs)


def test_unknown_kv_cache_of_a_custom_model_says_what_to_give() -> None:
    from roofline_core import CustomModel

    with pytest.raises(ValueError, match="KV-cache size unknown; give layers"):
        CustomModel(streamed_params_per_token=8e9).kv_bytes_per_token()


#: A parameter count joined to the name by a hyphen ("Llama-3-8B", "Mixtral-8x7B").
_HYPHENATED_SIZE = re.compile(r"-\d+(?:\.\d+)?(?:x\d+)?B\b")


@pytest.mark.parametrize("slug", sorted(MODELS))
def test_every_preset_name_follows_one_style(slug: str) -> None:
    # The vendor's published name with the size as its own word ("Llama 3.1 8B", "Mixtral 8x22B");
    # the slug is that name in lower case with spaces as hyphens, so an address reads as the name.
    name = MODELS[slug].name
    assert not _HYPHENATED_SIZE.search(name), name
    assert name.lower().replace(" ", "-") == slug, (name, slug)


def test_gguf_formats_count_every_tensor_in_the_format() -> None:
    # llama.cpp quantises the embedding and output tensors too, unlike GPU checkpoints.
    model = get_model("llama-3.1-8b")
    assert model.weight_bytes("q4_k") == pytest.approx(model.total_params * 4.5 / 8)
    assert model.part_format("embedding", "q4_k") == ("q4_k", 4.5 / 8)
    assert model.part_format("embedding", "mxfp4") == ("bf16", 2.0)
