"""Loading and checking a measurements file: resolution of models, accelerators and formats; errors."""

from __future__ import annotations

import pytest

from roofline_core.evidence.measurements import MeasurementError, load_measurements
from roofline_core.hardware import CustomAccelerator, get_accelerator
from roofline_core.models import CustomModel, Model, get_model

ROW = """
[[measurement]]
id = "row-one"
source_kind = "engine"
model = "llama-2-7b"
accelerator = "h100-sxm"
devices = 1
parallelism = "none"
weight_format = "fp16"
kv_format = "fp16"
compute_format = "fp16"
batch = 1
input_tokens = 5
output_tokens = 200
metric = "decode_tokens_per_s_per_sequence"
value = 100.0
unit = "tok/s"
engine = "engine"
engine_version = "1.0"
date = "2024-01"
source_url = "https://example.org/bench"
source_quote = "| 7B | 100.0 |"
conditions = "batch 1"
"""


def _row(**changes: object) -> str:
    text = ROW
    for key, value in changes.items():
        lines = text.split("\n")
        rendered = f'{key} = "{value}"' if isinstance(value, str) else f"{key} = {value}"
        found = [i for i, line in enumerate(lines) if line.startswith(f"{key} =")]
        if found:
            lines[found[0]] = rendered
        else:
            lines.insert(len(lines) - 1, rendered)
        text = "\n".join(lines)
    return text


def _error(text: str) -> str:
    with pytest.raises(MeasurementError) as caught:
        load_measurements(text, filename="m.toml")
    return str(caught.value)


def test_a_row_resolves_presets_and_plain_formats() -> None:
    (row,) = load_measurements(ROW, filename="m.toml").rows
    assert row.model is get_model("llama-2-7b")
    assert row.accelerator is get_accelerator("h100-sxm")
    assert row.weight_format.bits_per_weight == 16.0
    assert row.line == 2
    assert row.higher_is_faster


def test_declared_formats_models_and_accelerators_are_built_from_their_numbers() -> None:
    text = (
        """
[formats.q4_x]
bits_per_weight = 4.5
source_url = "https://example.org/ggml"
source_quote = "18 bytes per 32 weights"

[models.tiny]
streamed_params_per_token = 1e9
attention = "mha"
layers = 4
kv_heads = 4
head_dim = 64
source_url = "https://example.org/tiny"
source_quote = "1B"

[models.big-gqa]
name = "Big"
layers = 80
hidden_size = 8192
heads = 64
kv_heads = 8
head_dim = 128
ffn_size = 28672
vocab_size = 32000
tied_embeddings = false
attention = "gqa"
source_url = "https://example.org/big"
source_quote = "config"

[accelerators.chip]
name = "Chip"
peak_flop_per_s = { fp16 = 100e12 }
bandwidth_bytes_per_s = 800e9
source_url = "https://example.org/chip"
source_quote = "800 GB/s"
"""
        + _row(model="tiny", accelerator="chip", weight_format="q4_x")
        + _row(id="row-two", model="big-gqa")
    )
    table = load_measurements(text, filename="m.toml")
    tiny_row, big_row = table.rows
    assert isinstance(tiny_row.model, CustomModel) and tiny_row.model.streamed_params_per_token == 1e9
    assert isinstance(tiny_row.accelerator, CustomAccelerator)
    assert tiny_row.accelerator.bandwidth_bytes_per_s == 800e9
    assert tiny_row.weight_format.bytes_per_weight == pytest.approx(4.5 / 8)
    assert isinstance(big_row.model, Model) and big_row.model.kv_heads == 8
    assert set(table.declared_models) == {"tiny", "big-gqa"}
    assert table.declared_accelerators["chip"].url == "https://example.org/chip"


def test_a_preset_wins_over_a_declaration_that_agrees_and_a_disagreeing_one_is_an_error() -> None:
    preset = get_model("llama-2-7b")
    declaration = f"""
[models.llama-2-7b]
name = "Llama-2-7B"
layers = {preset.layers}
hidden_size = {preset.hidden_size}
heads = {preset.heads}
kv_heads = {preset.kv_heads}
head_dim = {preset.head_dim}
ffn_size = {preset.ffn_size}
vocab_size = {preset.vocab_size}
tied_embeddings = false
attention = "{preset.attention}"
source_url = "https://example.org/l2"
source_quote = "config"
"""
    (row,) = load_measurements(declaration + ROW, filename="m.toml").rows
    assert row.model is preset
    message = _error(declaration.replace("ffn_size = 11008", "ffn_size = 11000") + ROW)
    assert message.startswith("m.toml:2: model llama-2-7b declares") and "the preset has" in message


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            _row(metric="speed"),
            "m.toml:15: measurement: metric 'speed'; expected one of decode_tokens_per_s_per_sequence",
        ),
        (_row(unit="ms"), "m.toml:17: measurement: unit 'ms' for decode_tokens_per_s_per_sequence; expected 'tok/s'"),
        (_row(model="gpt-5"), "m.toml:5: measurement: model 'gpt-5'; expected model slug"),
        (_row(accelerator="tpu-v9"), "m.toml:6: measurement: accelerator 'tpu-v9'; expected accelerator slug"),
        (_row(devices=2), "m.toml:8: measurement: parallelism 'none' with 2 devices; expected one of none"),
        (_row(batch=0), "m.toml:12: measurement: batch is 0; expected a whole number >= 1"),
        (_row(value=-1), "m.toml:16: measurement: value is -1; expected a number > 0"),
        (_row(date="last year"), "m.toml:20: measurement: date 'last year'; expected date of the source"),
        (
            _row(source_url="http://example.org"),
            "m.toml:21: measurement row-one: source_url 'http://example.org'; expected an https:// address",
        ),
        (
            _row(source_quote=""),
            "m.toml:22: measurement row-one: source_quote missing or empty; expected a non-empty string",
        ),
        (_row(compute_format="fp4"), "m.toml:11: measurement: NVIDIA H100 SXM has no 'fp4' peak; expected one of"),
        (_row(weight_format="q9"), "m.toml:9: measurement: weight_format 'q9'; expected number format of the weights"),
        (_row(id="Row One"), "m.toml:3: measurement: id 'Row One'; expected unique slug"),
        (_row(speed=1), "m.toml:24: measurement: unknown field 'speed'; expected a field of the schema"),
        (_row(exclude=""), "m.toml:24: measurement: exclude is empty; expected the reason, as text"),
        (ROW.replace('conditions = "batch 1"\n', ""), "m.toml:2: measurement: conditions missing"),
        (ROW + ROW, "m.toml:25: duplicate id 'row-one' (first at line 2); expected a unique id per row"),
        ("[speeds]\nx = 1\n", "m.toml:1: unknown top-level table 'speeds'"),
        ("[[measurement]\n", "m.toml:1: not valid TOML"),
    ],
)
def test_each_problem_names_its_line_and_what_is_expected(text: str, expected: str) -> None:
    assert _error(text).startswith(expected)


def test_a_declared_accelerator_needs_peaks_in_known_formats() -> None:
    text = """
[accelerators.chip]
peak_flop_per_s = { fp99 = 1e12 }
bandwidth_bytes_per_s = 1e12
source_url = "https://example.org/chip"
source_quote = "spec"
"""
    assert _error(text).startswith("m.toml:3: accelerator chip: peak_flop_per_s is {'fp99': 1000000000000.0}")


def test_a_format_may_not_redefine_a_number_format() -> None:
    text = '[formats.fp16]\nbits_per_weight = 15\nsource_url = "https://x.org"\nsource_quote = "q"\n'
    assert _error(text).startswith("m.toml:1: format fp16 redefines a preset format")


def test_a_declaration_may_cite_a_second_document_and_each_must_be_https() -> None:
    text = """
[accelerators.chip]
peak_flop_per_s = { fp16 = 1e12 }
bandwidth_bytes_per_s = 1e12
source_url = "https://example.org/bandwidth"
source_quote = "1 TB/s"
extra_sources = [{ url = "https://example.org/peak", quote = "1 TFLOP/s" }]
"""
    table = load_measurements(text, filename="m.toml")
    assert table.declared_accelerators["chip"].states == "1 TB/s Also https://example.org/peak: 1 TFLOP/s"
    broken = text.replace("https://example.org/peak", "http://example.org/peak")
    assert _error(broken).startswith("m.toml:7: accelerator chip: extra_sources entry")


def test_a_declared_accelerator_that_became_a_preset_must_agree_with_it() -> None:
    declaration = """
[accelerators.h100-sxm]
peak_flop_per_s = { fp16 = 989e12 }
bandwidth_bytes_per_s = {bandwidth}
source_url = "https://example.org/h100"
source_quote = "3.35 TB/s"
"""
    (row,) = load_measurements(declaration.replace("{bandwidth}", "3.35e12") + ROW, filename="m.toml").rows
    assert row.accelerator is get_accelerator("h100-sxm")
    message = _error(declaration.replace("{bandwidth}", "3.0e12") + ROW)
    assert message.startswith("m.toml:2: accelerator h100-sxm declares 3e+12 bytes/s but the preset has 3.35e+12")
