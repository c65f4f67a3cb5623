"""The engine commands a scenario prints (roofline_core.questions.engine_flags)."""

from __future__ import annotations

import re
import shlex

import pytest
from hypothesis import given
from hypothesis import strategies as st

from roofline_core.calculators import compute
from roofline_core.hardware.dtypes import STORAGE_DTYPES
from roofline_core.questions.engine_flags import SGLANG_CHUNK_SOURCE, engine_commands

# The cache formats each engine's documentation lists (the quotes in the module's sources).
DOCUMENTED_CACHE_FORMATS = {
    "vLLM": {"auto", "fp8", "fp8_e4m3", "fp8_e5m2"},
    "SGLang": {"auto", "fp8_e5m2", "fp8_e4m3", "bf16", "bfloat16", "fp4_e2m1"},
    "llama.cpp": {"f32", "f16", "bf16", "q8_0", "q4_0", "q4_1", "iq4_nl", "q5_0", "q5_1"},
}


def by_engine(**scenario):
    return {command.engine: command for command in engine_commands(**scenario)}


@pytest.mark.parametrize("kv_dtype", STORAGE_DTYPES)
@pytest.mark.parametrize("devices", [1, 2, 8])
def test_every_flag_is_one_its_engine_documents(kv_dtype, devices):
    for command in engine_commands(
        model="org/model",
        devices=devices,
        context_tokens=4096,
        sequences=8,
        kv_dtype=kv_dtype,
        batched_tokens=520,
        prefill_chunk_tokens=512,
    ):
        for flag in command.flags:
            # The flag's name, as a whole word, in the documentation the command cites.
            source = flag.source or command.source
            assert re.search(rf"(?<![\w-]){re.escape(flag.name)}(?![\w-])", source.states), (
                command.engine,
                flag,
            )
            assert flag.why
        cache = {flag.value for flag in command.flags if flag.name in ("--kv-cache-dtype", "-ctk", "-ctv")}
        assert cache and cache <= DOCUMENTED_CACHE_FORMATS[command.engine], (command.engine, cache)


def test_a_70b_fp8_cache_on_four_devices_by_hand():
    commands = by_engine(
        model="meta-llama/Llama-3.1-70B-Instruct", devices=4, context_tokens=8192, sequences=64, kv_dtype="fp8"
    )
    assert commands["vLLM"].text == (
        "vllm serve meta-llama/Llama-3.1-70B-Instruct --tensor-parallel-size 4 --max-model-len 8192 "
        "--max-num-seqs 64 --kv-cache-dtype fp8 --gpu-memory-utilization 0.9"
    )
    assert commands["SGLang"].text == (
        "python -m sglang.launch_server --model-path meta-llama/Llama-3.1-70B-Instruct --tp-size 4 "
        "--context-length 8192 --max-running-requests 64 --kv-cache-dtype fp8_e4m3 --mem-fraction-static 0.9"
    )
    llama = commands["llama.cpp"]
    # llama.cpp shares -c among its slots: 64 sequences of 8,192 tokens need 524,288.
    assert llama.text == "llama-server -m model.gguf -ngl all -c 524288 -np 64 -ctk f16 -ctv f16 -sm row"
    assert any("cannot keep the KV cache in FP8" in note for note in llama.notes)
    assert any("q8_0" in note for note in llama.notes)
    assert commands["vLLM"].notes == () and commands["SGLang"].notes == ()


def test_a_format_an_engine_cannot_store_says_so():
    commands = by_engine(model="org/model", context_tokens=2048, kv_dtype="int4")
    for command in commands.values():
        assert any("cannot keep the KV cache in INT4" in note for note in command.notes), command.engine


def test_one_device_needs_no_split():
    llama = by_engine(model="org/model", context_tokens=2048)["llama.cpp"]
    assert "-sm" not in llama.text and llama.notes == ()


@given(st.text(min_size=1, max_size=40))
def test_any_model_name_stays_one_word_of_the_command(name):
    vllm = by_engine(model=name, context_tokens=1024)["vLLM"]
    words = shlex.split(vllm.text)
    assert words[:3] == ["vllm", "serve", name]


@pytest.mark.parametrize(
    "scenario",
    [
        {"devices": 0},
        {"context_tokens": 0},
        {"sequences": -1},
        {"sequences": True},
        {"memory_fraction": 0},
        {"memory_fraction": 1.5},
    ],
)
def test_out_of_range_settings_are_refused(scenario):
    with pytest.raises(ValueError):
        engine_commands(**{"model": "org/model", "context_tokens": 1024, **scenario})


def test_the_command_line_prints_each_engine_and_refuses_a_bad_count(capsys):
    from roofline_core.cli import main

    assert main(["engine-flags", "--model", "org/model", "--context", "4096", "--sequences", "2"]) == 0
    printed = capsys.readouterr().out
    assert "vllm serve org/model --tensor-parallel-size 1 --max-model-len 4096 --max-num-seqs 2" in printed
    assert "llama-server -m model.gguf -ngl all -c 8192 -np 2" in printed
    assert main(["engine-flags", "--model", "org/model", "--context", "0"]) == 2
    assert "context_tokens must be a whole number" in capsys.readouterr().err


def test_a_chunked_prefill_budget_sets_vllms_batched_tokens():
    vllm, sglang, _ = engine_commands(model="org/model", context_tokens=4096, sequences=64, batched_tokens=2112)
    assert vllm.text.endswith("--max-num-batched-tokens 2112")
    assert "batched" not in sglang.text
    with pytest.raises(ValueError, match="batched_tokens"):
        engine_commands(model="org/model", context_tokens=4096, batched_tokens=0)


def test_a_prefill_chunk_sets_sglangs_chunked_prefill_size_the_chunk_alone():
    # vLLM's budget counts the decode tokens beside the chunk; SGLang's counts the chunk only.
    vllm, sglang, llama = engine_commands(
        model="org/model", context_tokens=4096, sequences=64, batched_tokens=576, prefill_chunk_tokens=512
    )
    assert sglang.text.endswith("--chunked-prefill-size 512")
    assert vllm.text.endswith("--max-num-batched-tokens 576") and "chunked" not in vllm.text + llama.text
    flag = next(f for f in sglang.flags if f.name == "--chunked-prefill-size")
    assert flag.source is SGLANG_CHUNK_SOURCE and "chunked_prefill_size" in flag.source.states
    assert "chunked" not in engine_commands(model="org/model", context_tokens=4096)[1].text
    with pytest.raises(ValueError, match="prefill_chunk_tokens"):
        engine_commands(model="org/model", context_tokens=4096, prefill_chunk_tokens=0)


def test_the_capacity_plan_prints_its_chunk_in_the_sglang_command():
    result = compute("capacity", {})
    chunk = result["outputs"]["chunk_tokens"]["value"]
    assert result["outputs"]["sglang"]["text"].endswith(f"--chunked-prefill-size {chunk}")
