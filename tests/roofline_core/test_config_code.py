"""The short model code a link carries for a pasted config.json: exact, compact, safe to read."""

from __future__ import annotations

import dataclasses
import json
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from safetensors.numpy import save_file

from roofline_core.models.config_code import (
    FIELDS,
    MAX_CODE_CHARS,
    architecture_of,
    decode,
    encode,
    model_from_code,
    pretty_json,
    read_model_config,
)
from roofline_core.models.hf_config import ConfigError, from_hf_config
from tests.support.hf_configs import config, config_text, stored_slugs

# Characters a query string keeps as they are (URLSearchParams leaves * - . _ and alphanumerics),
# plus "/" inside a model's name.
URL_PLAIN = re.compile(r"[A-Za-z0-9*._/-]+")


def _shape(model) -> dict:
    """A model's fields apart from who it is (slug, name, source)."""
    return {k: v for k, v in dataclasses.asdict(model).items() if k not in ("slug", "name", "source")}


@pytest.mark.parametrize("slug", stored_slugs())
def test_a_real_config_and_its_code_give_the_same_model(slug: str) -> None:
    code, fields = read_model_config(config_text(slug))
    assert _shape(model_from_code(code)) == _shape(from_hf_config(config(slug)))
    assert decode(code) == fields
    # Compact and plain in an address bar: what a shared link carries.
    assert URL_PLAIN.fullmatch(code) and len(code) < 300, code


@pytest.mark.parametrize("slug", stored_slugs())
def test_the_code_of_the_pretty_json_is_the_same_code(slug: str) -> None:
    code, fields = read_model_config(config_text(slug))
    assert read_model_config(pretty_json(fields))[0] == code
    assert read_model_config(code)[0] == code


def test_llama_reads_as_documented() -> None:
    code, _ = read_model_config(config_text("llama-3.1-8b"))
    assert code == "t-llama.l-32.h-4096.a-32.k-8.f-14336.v-128256.te-0.ab-0"


def test_layer_kinds_are_run_length_coded() -> None:
    kinds = ["sliding_attention"] * 5 + ["full_attention"] + ["sliding_attention"] * 5 + ["full_attention"]
    fields = {"model_type": "gemma3_text", "layer_types": kinds}
    assert encode(fields) == "t-gemma3_text.lt-s*5_f_s*5_f"
    assert decode("t-gemma3_text.lt-s*5_f_s*5_f") == fields


def test_the_name_goes_last_and_may_hold_dots() -> None:
    fields = {"model_type": "qwen2", "_name_or_path": "Qwen/Qwen2.5-7B-Instruct"}
    assert encode(fields) == "t-qwen2.n-Qwen/Qwen2.5-7B-Instruct"
    assert decode(encode(fields)) == fields
    # Characters a query string would escape become "-" (a name is only a label).
    assert encode({"model_type": "llama", "_name_or_path": "my model <b>&"}) == "t-llama.n-my-model--b--"


def test_a_multimodal_config_keeps_its_text_model() -> None:
    outer = {"model_type": "gemma3", "text_config": {"model_type": "gemma3_text", "hidden_size": 8}, "hidden_size": 99}
    assert architecture_of(outer) == {"model_type": "gemma3_text", "hidden_size": 8}
    assert architecture_of({"model_type": "llama4", "text_config": {"hidden_size": 8}})["model_type"] == "llama4"


def test_every_field_the_reader_reads_has_a_short_name() -> None:
    shorts = [short for short, _kind in FIELDS.values()]
    assert len(shorts) == len(set(shorts)) and "n" not in shorts
    assert all(re.fullmatch(r"[a-z]{1,2}", short) for short in shorts)


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("t-llama.zz-4", "names 'zz'"),
        ("t-llama.l-32.l-32", "gives 'l' twice"),
        ("t-llama.l-3x", "'l' is '3x'; expected a whole number"),
        ("t-llama.te-yes", "'te' is 'yes'; expected 0 or 1"),
        ("t-Llama", "expected a model type"),
        ("t-gemma2.lt-s_q", "holds 'q'; expected one of f, s, c, g, m, a"),
        ("t-gemma2.lt-s*99999", "repeats 99,999 times"),
        ("t-llama.l", "has no '-'"),
        ("t-" + "a" * MAX_CODE_CHARS, f"expected at most {MAX_CODE_CHARS:,}"),
    ],
)
def test_a_broken_code_says_what_is_wrong(code: str, message: str) -> None:
    with pytest.raises(ConfigError, match=re.escape(message)):
        decode(code)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "nothing pasted yet"),
        ("   ", "nothing pasted yet"),
        ("hello world", "'hello world' is neither JSON nor a model code"),
        ('{"model_type": "llama",', "line 1, column 24"),
        ('{"model_type": "bert"}', "'bert' is not supported"),
        ("t-llama.l-32", "field 'hidden_size' is missing"),
        # A layer kind the code cannot write, in a config the reader would otherwise accept.
        (json.dumps({**config("llama-3.1-8b"), "layer_types": ["cross_attention"] * 32}), "holds 'cross_attention'"),
    ],
)
def test_reading_a_paste_or_a_link_explains_every_failure(text: str, message: str) -> None:
    with pytest.raises(ConfigError, match=re.escape(message)):
        read_model_config(text)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200))
def test_any_text_reads_or_fails_with_a_config_error(text: str) -> None:
    try:
        code, _ = read_model_config(text)
    except ConfigError:
        return
    assert read_model_config(code)[0] == code


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(stored_slugs()),
    st.integers(min_value=0, max_value=200),
    st.text(alphabet="abcdefghlkt0123456789-._*sf", max_size=6),
)
def test_an_edited_code_gives_a_model_or_a_config_error(slug: str, at: int, inserted: str) -> None:
    code, _ = read_model_config(config_text(slug))
    edited = code[:at] + inserted + code[at + len(inserted) :]
    try:
        again, _ = read_model_config(edited)
    except ConfigError:
        return
    assert _shape(model_from_code(again)) == _shape(model_from_code(read_model_config(again)[0]))


def test_pretty_json_is_a_config_json() -> None:
    _code, fields = read_model_config(config_text("qwen3-8b"))
    assert json.loads(pretty_json(fields)) == fields


def test_a_pasted_safetensors_index_says_its_stored_bytes_and_asks_for_the_config(tmp_path) -> None:
    shards = {
        "model-00001-of-00002.safetensors": {"embed.weight": np.zeros((320, 64), np.float16)},
        "model-00002-of-00002.safetensors": {"lm_head.weight": np.zeros((320, 64), np.float16), "norm": np.zeros(64)},
    }
    weight_map, total = {}, 0
    for shard, tensors in shards.items():
        save_file(tensors, str(tmp_path / shard))
        weight_map |= dict.fromkeys(tensors, shard)
        total += sum(t.nbytes for t in tensors.values())
    text = json.dumps({"metadata": {"total_size": total}, "weight_map": weight_map})
    with pytest.raises(ConfigError) as raised:
        read_model_config(text)
    assert str(raised.value) == (
        "this is a model.safetensors.index.json: 3 tensors in 2 files, 82,432 bytes stored (metadata.total_size), "
        "but no shape; expected the config.json beside it, which gives the model's layers and widths"
    )
    with pytest.raises(ConfigError, match="looks like a model.safetensors.index.json, but field 'weight_map'"):
        read_model_config('{"metadata": {}, "weight_map": []}')
