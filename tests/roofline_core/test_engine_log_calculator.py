"""The engine-log calculator (roofline_core.calculators.engine_log): a pasted start-up log, every
number reproduced from the model, unknown lines named, the paste never in a link."""

from __future__ import annotations

import pytest

from roofline_core.calculators import compute, definition, linked_inputs
from roofline_core.calculators.engine_log import EXAMPLE_LOG
from roofline_core.engine_log import MAX_INPUT_BYTES
from roofline_core.models import MODELS

QWEN_NEXT_TP4 = """INFO 11-27 12:00:05 [gpu_worker.py:298] Available KV cache memory: 10.00 GiB
INFO 11-27 12:00:06 [kv_cache_utils.py:1087] GPU KV cache size: 218,416 tokens
INFO 11-27 12:00:06 [kv_cache_utils.py:1091] Maximum concurrency for 32,768 tokens per request: 25.90x
something the reader has never seen"""


def test_the_example_log_is_reproduced_and_its_unknown_line_named() -> None:
    result = compute("engine-log", {"engine_log": EXAMPLE_LOG})
    out, rows = result["outputs"], result["table"]
    assert out["engine"]["text"] == "vLLM"
    # The available memory is reproduced too (on the default 80 GiB H100); the example's 53.47 GiB
    # is 2.32 GiB under the model's 55.79, more than the estimated reserves, so it differs.
    assert out["agreement"]["text"] == "2 of 3 reproduced numbers agree with the model"
    by_name = {row["number"]["value"]: row for row in rows}
    assert by_name["kv_cache_memory_bytes"]["verdict"]["text"].startswith("differs: The log leaves 3.57 GiB")
    # 53.47 GiB over 2 MiB blocks (Llama 3.1 8B, BF16): 27,376 blocks of 16 tokens.
    tokens = by_name["kv_cache_tokens"]
    assert tokens["model"]["value"] == 438_016 and "27,376 blocks" in tokens["working"]["text"]
    assert out["unused"]["value"] == 1 and "line 4" in out["unused"]["text"]


def test_a_hybrid_log_at_tensor_parallel_four_uses_vllms_hybrid_page() -> None:
    result = compute("engine-log", {"engine_log": QWEN_NEXT_TP4, "model": "qwen3-next-80b-a3b", "devices": "4"})
    rows = {row["number"]["value"]: row for row in result["table"]}
    assert rows["kv_cache_tokens"]["model"]["value"] == 218_416
    assert rows["max_concurrency"]["verdict"]["text"].startswith("agrees")
    assert "something the reader has never seen" in result["outputs"]["unused"]["text"]


def test_nothing_pasted_and_too_much_pasted_say_so() -> None:
    assert compute("engine-log", {"engine_log": ""})["outputs"]["engine"]["text"].startswith("nothing pasted")
    too_long = compute("engine-log", {"engine_log": "x" * (MAX_INPUT_BYTES + 1)})
    assert "engine_log" in too_long["errors"]


def test_the_paste_never_goes_into_a_link() -> None:
    fields = {f["id"]: f for f in definition("engine-log")["inputs"]}
    assert fields["engine_log"]["linked"] is False
    assert linked_inputs("engine-log", {"engine_log": QWEN_NEXT_TP4, "devices": "4"}) == {"devices": "4"}


@pytest.mark.parametrize("devices", ["1", "2"])
def test_any_device_count_computes(devices) -> None:
    assert not compute("engine-log", {"devices": devices}).get("errors")


def test_the_docs_page_shows_the_example_log() -> None:
    from pathlib import Path

    page = (Path(__file__).parents[2] / "docs" / "calculators" / "engine-log.md").read_text()
    assert EXAMPLE_LOG in page


def test_the_table_is_never_empty_so_the_page_has_one_to_fill() -> None:
    for paste in ("", "hello"):
        rows = compute("engine-log", {"engine_log": paste})["table"]
        assert len(rows) == 1 and rows[0]["number"]["text"] == "–"


def test_the_device_and_weight_format_set_the_available_memory() -> None:
    line = "INFO 11-27 12:00:05 [gpu_worker.py:298] Available KV cache memory: 20.00 GiB"
    h100 = compute("engine-log", {"engine_log": line, "model": "llama-3.1-8b"})["table"][0]
    fp8 = compute("engine-log", {"engine_log": line, "model": "llama-3.1-8b", "weight_dtype": "fp8"})["table"][0]
    custom = compute("engine-log", {"engine_log": line, "accelerator": "custom", "memory_gb": "48"})["table"][0]
    assert h100["number"]["value"] == "kv_cache_memory_bytes"
    # FP8 weights (the embedding and head stay 16-bit) leave what they save for the cache.
    model = MODELS["llama-3.1-8b"]
    saved = model.weight_bytes("bf16") - model.weight_bytes("fp8")
    assert fp8["model"]["value"] - h100["model"]["value"] == pytest.approx(saved)
    # A custom device of 48 GB (decimal) is 44.70 GiB, as vLLM counts it.
    assert custom["working"]["text"].startswith("44.70 GiB x 0.9 = 40.23 GiB budget")
