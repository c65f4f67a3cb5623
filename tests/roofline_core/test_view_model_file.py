"""The config box's answer for a dropped model file (roofline_core.view.model_file), checked
against files the reference writers make: the pinned ``gguf`` package from llama.cpp and the
pinned ``safetensors`` package."""

from __future__ import annotations

import json
import struct
from pathlib import Path

import numpy as np
import pytest
from gguf import GGUFReader
from safetensors.numpy import save_file

from roofline_core.calculators import compute
from roofline_core.models.config_code import model_from_code
from roofline_core.models.gguf import MAX_HEADER_BYTES
from roofline_core.view.model_file import FIRST_BYTES, model_file_answer, model_file_json, type_mix
from tests.support.gguf_files import llama_q4_k_m, qwen3_moe


def read_like_the_page(path: Path) -> tuple[dict, list[int]]:
    """Read ``path`` as calculator.mjs does: first no bytes, then each prefix the answer asks
    for. Returns the last answer and the size of every read."""
    data = path.read_bytes()
    size, reads = 0, []
    while True:
        reads.append(size)
        answer = json.loads(model_file_json(memoryview(data[:size]), len(data), path.name))
        if answer["status"] != "need_more":
            return answer, reads
        assert answer["read_bytes"] > size
        size = answer["read_bytes"]


def reference_bytes_by_type(path: Path) -> dict[str, int]:
    totals: dict[str, int] = {}
    for tensor in GGUFReader(str(path)).tensors:
        totals[tensor.tensor_type.name] = totals.get(tensor.tensor_type.name, 0) + int(tensor.n_bytes)
    return totals


def test_a_gguf_reads_in_prefixes_and_its_code_carries_the_files_exact_bytes(tmp_path: Path) -> None:
    # A 60,000-token vocabulary puts the header past the first read: the answer asks for more.
    path = llama_q4_k_m(tmp_path / "tiny.gguf", vocab=60_000)
    answer, reads = read_like_the_page(path)
    assert reads == [0, FIRST_BYTES, 2 * FIRST_BYTES]
    assert answer["status"] == "read" and answer["kind"] == "gguf"
    reference = reference_bytes_by_type(path)
    total = sum(reference.values())
    # Every tensor as gguf-py reads it: the model the code makes stores exactly the file's bytes.
    model = model_from_code(answer["code"])
    assert sum(size for _, size in model.quantisation.part_bytes) == total
    assert f"21 tensors, 22 MB stored ({total:,} bytes)" in answer["summary"]
    shares = {kind: size / total for kind, size in reference.items()}
    assert f"Q6_K {100 * shares['Q6_K']:.1f}%, Q4_K {100 * shares['Q4_K']:.1f}%" in answer["summary"]
    assert answer["summary"].startswith("GGUF v3, architecture llama, Q4_K_M: ")
    assert "not the file" in answer["note"]
    # In a calculator, once the code's weight format is filled in, the weights are the file's bytes.
    result = compute("kv-cache", {"model": "config", "model_config": answer["code"], "weight_dtype": "q4_k"})
    assert result["outputs"]["weight_bytes"]["value"] == total


def test_a_moe_gguf_with_many_types_names_four_and_sums_the_rest(tmp_path: Path) -> None:
    path = qwen3_moe(tmp_path / "moe.gguf")
    answer, _ = read_like_the_page(path)
    reference = reference_bytes_by_type(path)
    assert model_from_code(answer["code"]).quantisation is not None
    pairs = sorted(reference.items(), key=lambda kv: (-kv[1], kv[0]))
    assert type_mix([list(p) for p in pairs], sum(reference.values())) in answer["summary"]


def test_type_mix_names_the_largest_types_first() -> None:
    pairs = [["Q4_K", 620], ["Q6_K", 180], ["F32", 100], ["Q8_0", 50], ["IQ3_S", 30], ["F16", 20]]
    assert type_mix(pairs, 1000) == "Q4_K 62%, Q6_K 18%, F32 10%, Q8_0 5%, 2 other types 5%"
    assert type_mix([], 0) == "no bytes"


def test_a_file_only_its_header_fits_still_reads(tmp_path: Path) -> None:
    # Only the header is passed; the file's size says the tensors lie beyond it.
    path = llama_q4_k_m(tmp_path / "tiny.gguf")
    data = path.read_bytes()
    answer = model_file_answer(data[:FIRST_BYTES], len(data) + 10**9, "tiny.gguf")
    assert answer["status"] == "read" and answer["code"]


@pytest.mark.parametrize(
    ("data", "size", "message"),
    [
        (b"", 0, "The file 'bad' is empty; expected a .gguf file or a .safetensors shard."),
        (
            b"PK\x03\x04" + bytes(60),
            64,
            "The file 'bad' is neither a GGUF file (which starts with the letters GGUF) nor a safetensors shard",
        ),
        (
            b"GGUF" + struct.pack("<IQQ", 3, 2**40, 1),
            24,
            "The file 'bad' could not be read: byte 8: the header lists 1,099,511,627,776 tensors; expected at most 65,536.",
        ),
        (
            b"GGUF" + struct.pack("<IQQQ", 3, 1, 1, 2**60),
            10**9,
            "The file 'bad' could not be read: byte 24: the key of metadata pair 0 is 1,152,921,504,606,846,976 bytes long",
        ),
        (b"GGUF" + struct.pack("<I", 9) + bytes(16), 24, "GGUF version 9; expected version 2 or 3."),
        (
            struct.pack("<Q", 2**40) + b"{" + bytes(7),
            16,
            f"bytes 0-7 give a header of {2**40:,} bytes; expected at most 100,000,000",
        ),
    ],
)
def test_each_bad_file_gets_one_sentence(data: bytes, size: int, message: str) -> None:
    answer = model_file_answer(data, size, "bad")
    assert answer["status"] == "error"
    assert message in answer["message"]
    assert answer["message"].count(". ") == 0 and answer["message"].endswith(".")


def test_a_cut_off_gguf_is_an_error_not_a_request(tmp_path: Path) -> None:
    data = llama_q4_k_m(tmp_path / "tiny.gguf").read_bytes()[:5000]
    answer = model_file_answer(data, len(data), "tiny.gguf")
    assert answer["status"] == "error"


def test_requests_never_pass_the_readers_limit() -> None:
    # A header that claims a 60 MB string: one larger read, never past the GGUF header limit.
    data = b"GGUF" + struct.pack("<IQQQ", 3, 1, 1, 8) + b"key.name" + struct.pack("<IQ", 8, 60_000_000)
    answer = model_file_answer(data, 10**10, "long.gguf")
    assert answer["status"] in ("need_more", "error")
    if answer["status"] == "need_more":
        assert len(data) < answer["read_bytes"] <= MAX_HEADER_BYTES


def test_a_safetensors_shard_gives_its_bytes_by_dtype_and_no_model(tmp_path: Path) -> None:
    path = tmp_path / "model-00001-of-00002.safetensors"
    save_file(
        {"a.weight": np.zeros((64, 32), np.float16), "b.weight": np.zeros((16,), np.float32)},
        str(path),
        {"format": "pt"},
    )
    answer, reads = read_like_the_page(path)
    assert reads == [0, FIRST_BYTES] or reads == [0, path.stat().st_size]
    assert answer == {
        "status": "read",
        "kind": "safetensors",
        "summary": "safetensors: 2 tensors, 4.16 kB stored (4,160 bytes): F16 98.5%, F32 1.54%.",
        "note": answer["note"],
        "code": None,
    }
    assert "holds no architecture" in answer["note"]
