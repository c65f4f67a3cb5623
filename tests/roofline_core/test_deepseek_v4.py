"""DeepSeek-V4 (deepseek_v4, issue 38): compressed attention read from its published configs,
its counts against DeepSeek's model card, and its cache, reads and weights derived by hand.

Layer by layer (transformers' modeling_deepseek_v4.py, vLLM's deepseek_v4_attention.py and
deepseek_compressor.py): every layer keeps its last 128 tokens as 512-wide entries (one head that
is both key and value); a CSA layer also keeps one entry per 4 tokens and an FP8 indexer key
(128 values and an FP32 scale) per entry, and reads 512 (Flash) of those entries; an HCA layer
keeps and reads one entry per 128 tokens. Each compressor holds an FP32 pooling state.
"""

from __future__ import annotations

import pytest

from roofline_core.calculators import compute
from roofline_core.estimates.engine_memory import COMPRESSED_NOT_MODELLED, vllm_layout
from roofline_core.models import MODELS
from roofline_core.models.attention import decode_attention_cost
from roofline_core.models.config_code import model_from_code, read_model_config
from roofline_core.models.hf_config import ConfigError, from_hf_config
from roofline_core.models.layer_kinds import CompressedAttention, SparseAttention
from tests.roofline_core.test_hf_config import SOURCES, _within
from tests.support.hf_configs import config, config_text

FLASH_PLAN = CompressedAttention(
    window=128,
    entry_dim=512,
    csa_layers=21,
    hca_layers=20,
    indexer=SparseAttention(index_heads=64, index_head_dim=128, top_k=512),
    q_latent_dim=1024,
    out_groups=8,
    out_rank=1024,
)


def test_flash_and_pro_read_their_layer_plans() -> None:
    flash = from_hf_config(config("deepseek-v4-flash"))
    assert (flash.family, flash.notes, flash.compressed_attention) == ("DeepSeek", (), FLASH_PLAN)
    # 43 layers: two with the window only, then CSA and HCA in turn; the 44th ratio is the MTP layer's.
    assert (flash.attention_layers, flash.moe_layers, flash.experts, flash.experts_per_token, flash.mtp_layers) == (
        43,
        43,
        256,
        6,
        1,
    )
    pro = from_hf_config(config("deepseek-v4-pro")).compressed_attention
    assert (pro.csa_layers, pro.hca_layers, pro.indexer.top_k, pro.out_groups) == (30, 31, 1024, 16)


@pytest.mark.parametrize("slug", ["deepseek-v4-flash", "deepseek-v4-pro"])
def test_counts_match_the_model_card(slug: str) -> None:
    m, entry = MODELS[slug], SOURCES[slug]
    # The preset carries the architecture, not the checkpoint's FP8 quantization_config.
    fields = {key: v for key, v in config(slug).items() if key != "quantization_config"}
    assert m == from_hf_config(fields, slug=slug, name=m.name, source=m.source)
    # As for DeepSeek-V3: the total without the MTP layer; the active count what a token multiplies.
    assert _within(m.total_params, entry["published_total_params"]["value"]), m.total_params / 1e9
    assert _within(m.streamed_params_per_token, entry["published_active_params"]["value"]), (
        m.streamed_params_per_token / 1e9
    )


def test_flash_weights_by_hand() -> None:
    m = MODELS["deepseek-v4-flash"]
    h = 4096
    # Query down (h -> 1024), its norm, up to 64 heads of 512; the one key-value head and its norm;
    # 8 groups of 8 heads each to 1024, then 8 x 1024 -> h; a sink per head.
    attention = h * 1024 + 1024 + 1024 * 64 * 512 + h * 512 + 512 + 64 * 512 * 1024 + 8 * 1024 * h + 64
    assert m.attention_params_per_layer == attention
    # CSA: key and gate projections of two overlapping series, a position bias per slot, a norm;
    # its indexer: a query from the compressed query, a weight per head, a compressor of its own.
    csa = 2 * h * 2 * 512 + 4 * 2 * 512 + 512
    csa += 1024 * 64 * 128 + h * 64 + (2 * h * 2 * 128 + 4 * 2 * 128 + 128)
    hca = 2 * h * 512 + 128 * 512 + 512
    assert FLASH_PLAN.params(h) == 21 * csa + 20 * hca
    # Hyper-connections: two mixers a layer ((2 + 4) x 4 outputs from 4 streams of h, their biases
    # and 3 scales), and the collapse before the head.
    hc = 43 * 2 * (24 * 4 * h + 24 + 3) + (4 * 4 * h + 4 + 1)
    assert m.auxiliary_params == hc
    experts = 43 * (256 * 3 * h * 2048 + 3 * h * 2048 + h * 256)
    total = 43 * attention + 21 * csa + 20 * hca + hc + experts + (2 * 43 + 1) * h + 2 * 129280 * h
    assert m.total_params == total == 284_332_230_231


def _by_hand_flash(tokens: int, kv_bytes: int) -> tuple[int, int]:
    """Flash's growing cache and a decode step's cache read for one sequence, written out."""
    window = 43 * min(tokens, 128) * 512 * kv_bytes
    csa_entries, hca_entries = tokens // 4, tokens // 128
    held = window + 21 * csa_entries * (512 * kv_bytes + 132) + 20 * hca_entries * 512 * kv_bytes
    read = (
        window + 21 * (min(csa_entries, 512) * 512 * kv_bytes + csa_entries * 132) + 20 * hca_entries * 512 * kv_bytes
    )
    return held, read


#: The compressors' FP32 state: CSA holds 8 tokens of 2 x 2 x 512 (key and score, two series) and
#: its indexer's 8 x 2 x 2 x 128; HCA 128 tokens of 2 x 512.
FLASH_STATE = (21 * (8 * 2048 + 8 * 512) + 20 * 128 * 1024) * 4
#: A step writes its token's row and, once per window, reads the window back: CSA (2048 + 8 x 2048
#: / 4) and its indexer (512 + 8 x 512 / 4), HCA (1024 + 128 x 1024 / 128), in FP32.
FLASH_STATE_TRAFFIC = (21 * ((2048 + 4096) + (512 + 1024)) + 20 * (1024 + 1024)) * 4


@pytest.mark.parametrize("tokens", [8192, 131_072])
@pytest.mark.parametrize(("kv_dtype", "kv_bytes"), [("fp16", 2), ("fp8", 1)])
def test_flash_cache_and_reads_by_hand(tokens: int, kv_dtype: str, kv_bytes: int) -> None:
    m = MODELS["deepseek-v4-flash"]
    held, read = _by_hand_flash(tokens, kv_bytes)
    assert m.state_bytes_per_sequence == FLASH_STATE == 12_206_080
    assert m.growing_kv_cache_bytes(context_tokens=tokens, kv_dtype=kv_dtype) == held
    assert m.kv_cache_bytes(context_tokens=tokens, batch=3, kv_dtype=kv_dtype) == 3 * (held + FLASH_STATE)
    assert m.kv_read_bytes(context_tokens=tokens, kv_dtype=kv_dtype) == read + FLASH_STATE_TRAFFIC
    # The round trip: the longest context a budget holds is the context that made it.
    budget = m.kv_cache_bytes(context_tokens=tokens, kv_dtype=kv_dtype)
    assert m.context_for_kv_bytes(kv_bytes=budget, kv_dtype=kv_dtype) == tokens + 3  # the next pooling at +4


def test_flash_at_8k_and_128k_in_numbers() -> None:
    m = MODELS["deepseek-v4-flash"]
    assert m.kv_cache_bytes(context_tokens=8192) == 68_870_144
    assert m.kv_cache_bytes(context_tokens=131_072) == 834_289_664
    # A token in the window: 43 entries of 512, its quarter share of 21 and 1/128 of 20 entries,
    # and a quarter of 21 indexer keys.
    assert m.kv_bytes_per_token("fp16") == (43 + 21 / 4 + 20 / 128) * 1024 + 21 * 132 / 4


def test_decode_reads_at_long_context_fall_below_a_dense_cache_twin() -> None:
    m = MODELS["deepseek-v4-flash"]
    # The twin: the same model with every layer keeping every token uncompressed (no pooling, a
    # window as long as the context).
    twin = from_hf_config({**config("deepseek-v4-flash"), "compress_ratios": [0] * 44, "sliding_window": 1 << 20})
    for tokens in (65_536, 131_072, 1 << 20):
        sparse = m.kv_read_bytes(context_tokens=tokens)
        dense = twin.kv_read_bytes(context_tokens=tokens)
        assert dense == 43 * tokens * 1024
        assert sparse < dense / 10, (tokens, sparse, dense)
        # And below what it holds: CSA reads 512 of its entries, not all of them.
        assert sparse < m.kv_cache_bytes(context_tokens=tokens)
    assert m.kv_read_bytes(context_tokens=1 << 20) < twin.kv_read_bytes(context_tokens=1 << 20) / 40


def test_decode_attention_flops_by_hand() -> None:
    m = MODELS["deepseek-v4-flash"]
    tokens = 131_072
    entries = 43 * 128 + 21 * 512 + 20 * (tokens // 128)
    indexer = 21 * 2 * 64 * 128 * (tokens // 4)
    assert decode_attention_cost(m, context_tokens=tokens).flops == 4 * 64 * 512 * entries + indexer


def test_a_link_carries_the_ratios_and_gives_the_same_model() -> None:
    code, _ = read_model_config(config_text("deepseek-v4-flash"))
    assert ".cr-ww" + "ch" * 20 + "cw." in code
    assert model_from_code(code).compressed_attention == FLASH_PLAN


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"compress_ratios": [4] * 43 + [8]}, r"field 'compress_ratios' is a list of 44; expected one ratio"),
        ({"compress_ratios": [4] * 40}, r"each 0, 4 or 128"),
        ({"num_key_value_heads": 2}, r"expected 1 \(DeepSeek-V4 shares one key-value head\)"),
        ({"o_groups": 7}, r"field 'o_groups' is 7; expected a divisor of num_attention_heads \(64\)"),
    ],
)
def test_what_the_reader_refuses(change: dict, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        from_hf_config({**config("deepseek-v4-flash"), **change})


def test_the_explainer_says_what_is_compressed_and_vllm_pages_are_not_guessed() -> None:
    result = compute("config-explainer", {"model_config": config_text("deepseek-v4-flash"), "context_tokens": "131072"})
    assert result["errors"] == {}
    text = repr(result)
    assert "21 layers also attend over the context pooled 4 tokens to one entry" in text
    assert "834 MB" in text  # the cache at 128k, fixed state included
    with pytest.raises(ValueError, match="not modelled for compressed attention"):
        vllm_layout(MODELS["deepseek-v4-flash"])
    kv = repr(compute("kv-cache", {"model": "deepseek-v4-flash"}))
    assert COMPRESSED_NOT_MODELLED in kv
    assert "12.2 MB per sequence in the compressors of 41 layers" in kv


def test_a_pasted_checkpoint_stores_its_experts_in_mxfp4() -> None:
    pasted = from_hf_config(config("deepseek-v4-flash"))
    # 43 layers and the MTP layer, 256 experts of 3 x 4096 x 2048, 17 bytes per 32 weights.
    experts = 44 * 256 * 3 * 4096 * 2048 * 17 // 32
    assert dict(pasted.quantisation.part_bytes)["experts"] == experts == 150_592_290_816
    # The rest as the quantization_config says: FP8 in 128 x 128 blocks, the tables in BF16.
    assert 159.1e9 < pasted.weight_bytes("fp8") < 159.3e9
    code, _ = read_model_config(config_text("deepseek-v4-flash"))
    assert model_from_code(code).quantisation == pasted.quantisation
    # Flash-Base's FP8 experts: one format for every linear layer, as the config says.
    base = from_hf_config({**config("deepseek-v4-flash"), "expert_dtype": "fp8"})
    assert base.quantisation.part_bytes == () and base.weight_bytes("fp8") > 280e9
    with pytest.raises(ConfigError, match=r"field 'expert_dtype' is 'int2'; expected 'fp4' or 'fp8'"):
        from_hf_config({**config("deepseek-v4-flash"), "expert_dtype": "int2"})


def test_figures_name_the_compressed_attention() -> None:
    from roofline_core.figures._common import model_label

    # Not "GQA": one key-value head shared by every query head, and the compressed layers.
    assert model_label(MODELS["deepseek-v4-pro"]) == "DeepSeek-V4-Pro (MQA + CSA/HCA)"
