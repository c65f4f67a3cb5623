"""A config.json's quantization_config: the weight format and bytes it sets, what stays 16-bit,
what is said when it is not understood, and the same numbers through a calculator, a link's
code and the command line."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from roofline_core.calculators import compute, compute_with_fills
from roofline_core.cli import main
from roofline_core.models.config_code import decode, model_from_code, read_model_config
from roofline_core.models.hf_config import ConfigError, from_hf_config
from roofline_core.models.quantisation import read_quantisation
from tests.support.hf_configs import CONFIG_DIR
from tests.support.hf_configs import config as stored_config

QUANTISED = CONFIG_DIR / "quantised"


def _config(name: str) -> dict:
    return json.loads((QUANTISED / f"{name}.json").read_text(encoding="utf-8"))


def _text(name: str) -> str:
    return (QUANTISED / f"{name}.json").read_text(encoding="utf-8")


# Llama 3.1 8B's parts, from its config (hidden 4096, 32 layers, 8 KV heads of 128, FFN 14336,
# vocabulary 128256, untied):
ATTENTION = 32 * (2 * 4096 * 4096 + 2 * 4096 * 1024)  # q, o and the narrower k, v
MLP = 32 * 3 * 4096 * 14336  # gate, up and down
LINEAR = ATTENTION + MLP  # 6,979,321,856: what the quantisers pack
TABLES = 2 * 128256 * 4096  # embedding and output head, both kept 16-bit
NORMS = (2 * 32 + 1) * 4096  # two RMSNorms a layer and the final one, 16-bit


def test_awq_int4_llama_3_1_8b_is_5_73_gb_not_16_1():
    # AutoAWQ (GEMM) stores per group of 128 weights of one output: 128 4-bit weights, one FP16
    # scale and one 4-bit zero point, so a weight costs 4 + (16 + 4) / 128 = 4.15625 bits
    # (0.51953125 bytes). The embedding and the head are not quantised: 2 bytes each.
    model = from_hf_config(_config("llama-3.1-8b-awq-int4"))
    q = model.quantisation
    assert (q.method, q.weight_dtype, q.bits, q.group_size, q.zero_points) == ("awq", "int4", 4, 128, True)
    assert q.bytes_per_weight == 0.51953125
    assert q.unquantised == ("embedding", "lm_head") and q.unquantised_dtype == "fp16"
    expected = LINEAR * 0.51953125 + (TABLES + NORMS) * 2
    assert expected == 5_727_854_592
    assert model.weight_bytes("int4") == expected
    assert model.weight_bytes("fp16") == 16_060_522_496  # the same model read as 16-bit
    # A decode step streams everything but the embedding table.
    assert model.streamed_weight_bytes("int4") == LINEAR * 0.51953125 + (TABLES / 2 + NORMS) * 2
    assert q.notes == ()
    assert q.summary.startswith("Weight format INT4 (AWQ, group 128, zero points, 4.16 bits per weight")
    assert q.summary.endswith("the embedding and lm_head stay FP16")


def test_gptq_int4_stores_zeros_too_and_gives_the_same_size():
    # AutoGPTQ keeps qzeros (4-bit, per group) even for sym=true, and an FP16 scale per group.
    model = from_hf_config(_config("llama-3.1-8b-gptq-int4"))
    assert model.quantisation.weight_dtype == "int4"
    assert model.weight_bytes("int4") == 5_727_854_592


def test_compressed_tensors_w4a16_symmetric_has_no_zero_points():
    # 4 bits + one BF16 scale per 128 weights = 4.125 bits; lm_head is on the ignore list.
    model = from_hf_config(_config("llama-3.1-8b-w4a16-compressed-tensors"))
    q = model.quantisation
    assert (q.weight_dtype, q.group_size, q.zero_points, q.bytes_per_weight) == ("int4", 128, False, 4.125 / 8)
    assert model.weight_bytes("int4") == LINEAR * 4.125 / 8 + (TABLES + NORMS) * 2


def test_compressed_tensors_fp8_per_tensor_keeps_lm_head_16_bit():
    model = from_hf_config(_config("llama-3.1-8b-fp8-compressed-tensors"))
    q = model.quantisation
    assert (q.weight_dtype, q.bytes_per_weight, q.unquantised) == ("fp8", 1.0, ("embedding", "lm_head"))
    assert model.weight_bytes("fp8") == LINEAR + (TABLES + NORMS) * 2


def test_bitsandbytes_nf4_with_double_quantisation():
    # QLoRA: blocks of 64 with an 8-bit absmax, and an FP32 scale per 256 absmax values:
    # 4 + 8/64 + 32/(64 * 256) bits per weight.
    model = from_hf_config(_config("llama-3.1-8b-bnb-nf4"))
    q = model.quantisation
    assert q.weight_dtype == "int4"
    assert q.bytes_per_weight == pytest.approx((4 + 8 / 64 + 32 / (64 * 256)) / 8)
    assert q.unquantised == ("embedding", "lm_head")


def test_deepseek_v3_fp8_blocks_of_128_by_128():
    # One FP32 scale per 128 x 128 block: 8 + 32 / 16384 bits per weight.
    model = from_hf_config(stored_config("deepseek-v3"))
    q = model.quantisation
    assert (q.weight_dtype, q.group_size) == ("fp8", 16384)
    assert q.bytes_per_weight == (8 + 32 / 16384) / 8
    assert "128 x 128 blocks" in q.summary
    parts = model.weight_parts()
    assert model.weight_bytes("fp8") == pytest.approx(
        (parts["attention"] + parts["mlp"] + parts["experts"]) * q.bytes_per_weight
        + (parts["embedding"] + parts["lm_head"] + parts["sixteen_bit"]) * 2
    )


def test_gpt_oss_mxfp4_quantises_only_the_experts():
    # modules_to_not_convert keeps attention, the router, the embedding and the head in BF16;
    # the experts are MXFP4, 4 bits + one 8-bit scale per 32 = 4.25 bits.
    model = from_hf_config(stored_config("gpt-oss-120b"))
    q = model.quantisation
    assert (q.weight_dtype, q.bytes_per_weight) == ("mxfp4", 4.25 / 8)
    assert q.quantised_parts == ("mlp", "experts")  # gpt-oss has no dense MLP: only experts
    parts = model.weight_parts()
    assert parts["mlp"] == 0
    assert model.weight_bytes("mxfp4") == parts["experts"] * 4.25 / 8 + (sum(parts.values()) - parts["experts"]) * 2
    # About 60.8 GiB: what fits on one 80 GB GPU, as OpenAI's card says.
    assert 60 < model.weight_bytes("mxfp4") / 2**30 < 62


def test_an_unknown_method_is_said_plainly_and_read_as_16_bit():
    config = {**_config("llama-3.1-8b-awq-int4"), "quantization_config": {"quant_method": "foo", "bits": 3}}
    model = from_hf_config(config)
    assert model.quantisation.weight_dtype is None
    assert model.quantisation.notes == ("quant_method 'foo' is not known; weights read as 16-bit (FP16)",)
    assert model.weight_bytes("fp16") == (LINEAR + TABLES + NORMS) * 2


@pytest.mark.parametrize(
    ("block", "note"),
    [
        ({"quant_method": "awq", "bits": 3}, "AWQ with 3-bit weights has no format here"),
        ({}, "quantization_config has no quant_method"),
        ({"quant_method": "bitsandbytes", "load_in_4bit": True, "bnb_4bit_quant_type": "int2"}, "type 'int2'"),
        ({"quant_method": "awq", "modules_to_not_convert": ["model.layers.3.mlp.down_proj"]}, "1 entries"),
    ],
)
def test_what_is_not_understood_is_a_note(block, note):
    q = read_quantisation(block)
    assert any(note in text for text in q.notes), q.notes


@pytest.mark.parametrize(
    ("block", "field"),
    [
        ({"quant_method": "awq", "bits": "four"}, "quantization_config.bits"),
        ({"quant_method": 4}, "quantization_config.quant_method"),
        ({"quant_method": "gptq", "modules_to_not_convert": "lm_head"}, "quantization_config.modules_to_not_convert"),
        ({"quant_method": "compressed-tensors", "config_groups": []}, "quantization_config.config_groups"),
        ({"quant_method": "fp8", "weight_block_size": [128]}, "quantization_config.weight_block_size"),
        ({"quant_method": "bitsandbytes", "load_in_4bit": "yes"}, "quantization_config.load_in_4bit"),
        ("awq", "quantization_config"),
        (
            {"quant_method": "gguf", "read_as": {"format": "q4_k", "part_bytes": {"wings": 1}}},
            "quantization_config.read_as.part_bytes",
        ),
        (
            {"quant_method": "gguf", "read_as": {"format": "q4_k", "part_bytes": {"attention": 1.5}}},
            "quantization_config.read_as.part_bytes.attention",
        ),
        (
            {"quant_method": "gguf", "read_as": {"format": "q4_k", "part_bytes": {"attention": 10**16}}},
            "quantization_config.read_as.part_bytes.attention",
        ),
    ],
)
def test_a_malformed_quantization_config_is_a_located_config_error(block, field):
    config = {**_config("llama-3.1-8b-awq-int4"), "quantization_config": block}
    with pytest.raises(ConfigError, match=field.replace(".", r"\.")):
        from_hf_config(config)
    # In a calculator it is an error under the config box, never a traceback.
    result = compute("kv-cache", {"model": "config", "model_config": json.dumps(config)})
    assert field in result["errors"]["model_config"] and result["outputs"] == {}


@pytest.mark.parametrize("calculator", ["kv-cache", "decode-speed-of-light", "config-explainer", "what-fits"])
def test_a_pasted_awq_config_fills_the_weight_format_and_says_so(calculator):
    pasted = {"model": "config", "model_config": _text("llama-3.1-8b-awq-int4"), "weight_dtype": "fp16"}
    # The result is for the fields as given; the config proposes its format for the field,
    # named by the box it was read from, and the sentence says which format the numbers use.
    first = compute(calculator, pasted)
    assert first["fills"] == {"weight_dtype": "int4"} and first["fills_from"] == "model_config"
    assert first["outputs"]["weight_format_read"]["text"].endswith(
        "the weight format field holds FP16, which these results use"
    )
    # Filled in, as the page, the command line and the build do.
    inputs, result = compute_with_fills(calculator, pasted)
    assert result["errors"] == {}
    assert inputs["weight_dtype"] == "int4" and result["inputs"]["weight_dtype"] == "int4"
    read = result["outputs"]["weight_format_read"]
    assert read["value"] == "int4" and "INT4 (AWQ, group 128" in read["text"] and "lm_head stay FP16" in read["text"]
    if "weight_bytes" in result["outputs"]:
        assert result["outputs"]["weight_bytes"]["value"] == 5_727_854_592


def test_the_decode_speed_of_light_streams_the_quantised_bytes():
    _inputs, result = compute_with_fills(
        "decode-speed-of-light",
        {"model": "config", "model_config": _text("llama-3.1-8b-awq-int4"), "accelerator": "h100-sxm"},
    )
    sixteen = compute("decode-speed-of-light", {"model": "llama-3.1-8b", "accelerator": "h100-sxm"})
    streamed = LINEAR * 0.51953125 + (TABLES / 2 + NORMS) * 2
    # Batch 1 at the default context: weights dominate, so the step is about 3.0x shorter.
    ratio = sixteen["outputs"]["step_time"]["value"] / result["outputs"]["step_time"]["value"]
    assert 2.5 < ratio < (LINEAR + TABLES / 2 + NORMS) * 2 / streamed + 1e-9


def test_an_unknown_method_in_a_calculator_reads_16_bit_and_says_so():
    config = {**_config("llama-3.1-8b-awq-int4"), "quantization_config": {"quant_method": "foo"}}
    given = {"model": "config", "model_config": json.dumps(config), "weight_dtype": "int4"}
    assert compute("kv-cache", given)["fills"] == {"weight_dtype": "fp16"}
    _inputs, result = compute_with_fills("kv-cache", given)
    assert result["outputs"]["weight_format_read"]["text"] == (
        "quant_method 'foo' is not known; weights read as 16-bit (FP16)"
    )
    assert result["outputs"]["weight_bytes"]["value"] == (LINEAR + TABLES + NORMS) * 2


@pytest.mark.parametrize(
    "name",
    ["llama-3.1-8b-awq-int4", "llama-3.1-8b-bnb-nf4", "llama-3.1-8b-w4a16-compressed-tensors"],
)
def test_a_links_code_carries_the_quantisation_and_gives_the_same_numbers(name):
    code, fields = read_model_config(_text(name))
    assert ".qm-" in code and ".qw-" in code
    assert decode(code) == fields
    assert model_from_code(code).quantisation == from_hf_config(_config(name)).quantisation
    pasted = compute("kv-cache", {"model": "config", "model_config": _text(name)})
    linked = compute("kv-cache", {"model": "config", "model_config": code})
    assert pasted["outputs"] == linked["outputs"] and pasted["fills"] == linked["fills"]


def test_notes_travel_in_the_code_too():
    config = {
        **_config("llama-3.1-8b-awq-int4"),
        "quantization_config": {"quant_method": "awq", "modules_to_not_convert": ["model.layers.0.mlp.down_proj"]},
    }
    code, _ = read_model_config(json.dumps(config))
    assert ".qu-modules~1" in code
    assert model_from_code(code).quantisation.notes == from_hf_config(config).quantisation.notes


@pytest.mark.parametrize(
    "bad",
    [
        "qm-awq.qf-int9",
        "qm-awq.qf-int4.qw-9p0",
        "qm-awq.qf-int4.qk-z",
        "qm-awq.qu-foo~1",
    ],
)
def test_a_bad_quantisation_in_a_code_is_a_config_error(bad):
    code, _ = read_model_config(json.dumps(stored_config("llama-3.1-8b")))
    with pytest.raises(ConfigError):
        decode(code.replace(".te-0", f".te-0.{bad}"))


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ("qp-z~1", "'qp' holds 'z~1'; expected part~bytes"),
        ("qp-a~1_a~2", "'qp' holds 'a~2'; expected part~bytes"),
        ("qp-a~x", "'qp' is 'x'; expected a whole number"),
    ],
)
def test_bad_exact_part_bytes_in_a_code_are_named(bad, message):
    code, _ = read_model_config(json.dumps(stored_config("llama-3.1-8b")))
    with pytest.raises(ConfigError, match=re.escape(message)):
        decode(code.replace(".te-0", f".te-0.qm-gguf.qf-q4_k.{bad}"))


def test_exact_part_bytes_replace_the_formats_average():
    config = {
        **stored_config("llama-3.1-8b"),
        "quantization_config": {
            "quant_method": "gguf",
            "read_as": {"format": "q4_k", "part_bytes": {"embedding": 1000, "lm_head": 3000, "attention": 7000}},
        },
    }
    model = from_hf_config(config)
    assert model.weight_bytes("q4_k") == pytest.approx(11_000)
    # A decode step reads the head and the attention, not the embedding table.
    assert model.streamed_weight_bytes("q4_k") == pytest.approx(10_000)
    assert "11,000 bytes, every tensor in its own type" in model.quantisation.summary
    code, _ = read_model_config(json.dumps(config))
    assert ".qp-e~1000_h~3000_a~7000" in code
    assert model_from_code(code).weight_bytes("q4_k") == pytest.approx(11_000)


def test_the_command_line_reads_the_quantisation_of_a_config_file(capsys):
    path = str(QUANTISED / "llama-3.1-8b-awq-int4.json")
    assert main(["decode", "--config", path, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["inputs"]["weight_dtype"]["value"] == "int4"
    assert out["outputs"]["weight_bytes"]["value"] == 5_727_854_592
    assert "read from quantization_config" in out["outputs"]["weight_format_read"]["text"]
    assert main(["kv-cache", "--config", path]) == 0
    assert ".qm-awq.qf-int4" in capsys.readouterr().out  # the code a site link carries


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**40), 2**40) | st.floats(allow_nan=False) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=4),
    max_leaves=12,
)
_KEYS = st.sampled_from(
    [
        "quant_method",
        "bits",
        "group_size",
        "modules_to_not_convert",
        "config_groups",
        "ignore",
        "weight_block_size",
        "load_in_4bit",
        "bnb_4bit_quant_type",
        "llm_int8_skip_modules",
        "w_bit",
        "lm_head",
        "read_as",
    ]
)


@settings(max_examples=300, deadline=None)
@given(
    method=st.sampled_from(["awq", "gptq", "compressed-tensors", "fp8", "bitsandbytes", "mxfp4", "x"]),
    extra=st.dictionaries(_KEYS, _JSON, max_size=4),
)
def test_any_quantization_config_gives_a_model_or_a_config_error(method, extra):
    config = {**_config("llama-3.1-8b-awq-int4"), "quantization_config": {"quant_method": method, **extra}}
    try:
        model = from_hf_config(config)
    except ConfigError:
        return
    assert model.weight_bytes(model.quantisation.weight_dtype or "fp16") > 0
    code, _ = read_model_config(json.dumps(config))
    assert model_from_code(code).quantisation == model.quantisation
