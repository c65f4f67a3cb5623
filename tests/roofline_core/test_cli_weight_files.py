"""The command line reads weight files' headers: ``weights --gguf/--safetensors/--safetensors-index``
prints their exact bytes, and ``--gguf`` stands in for ``--model`` with the file's exact weight
bytes; only the header is read from disk."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from safetensors.numpy import save_file

import roofline_core.models.gguf as gguf_module
from roofline_core.cli import main
from roofline_core.models.gguf import read_gguf_file
from tests.support import gguf_files
from tests.support.gguf_files import T


def _json(capsys, argv: list[str]) -> dict:
    assert main([*argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_weights_of_a_gguf_prints_the_exact_bytes_and_what_the_estimates_use(tmp_path: Path, capsys) -> None:
    path = gguf_files.llama_q4_k_m(tmp_path / "m.gguf")
    header = read_gguf_file(path)
    out = _json(capsys, ["weights", "--gguf", str(path)])["outputs"]
    assert out["weight_bytes_stored"]["value"] == header.tensor_bytes
    assert out["weight_bytes"]["value"] == pytest.approx(header.tensor_bytes, rel=1e-12)
    embedding = header.tensor("token_embd.weight").bytes
    assert out["streamed_weight_bytes"]["value"] == pytest.approx(header.tensor_bytes - embedding, rel=1e-12)
    assert out["file_type"]["text"] == "Q4_K_M"
    assert main(["weights", "--gguf", str(path)]) == 0
    text = capsys.readouterr().out
    assert "Q6_K" in text and f"{header.tensor_bytes:,} bytes" in text


def test_decode_with_a_gguf_uses_its_exact_weight_bytes(tmp_path: Path, capsys) -> None:
    path = gguf_files.qwen3_moe(tmp_path / "moe.gguf")
    header = read_gguf_file(path)
    result = _json(capsys, ["decode", "--gguf", str(path), "--batch", "2", "--context", "64"])
    assert result["outputs"]["weight_bytes"]["value"] == pytest.approx(header.tensor_bytes, rel=1e-12)
    assert "(from --gguf)" in result["inputs"]["model"]["text"]
    kv = _json(capsys, ["kv-cache", "--gguf", str(path), "--accelerator", "h100-sxm", "--context", "64"])
    assert kv["outputs"]["weight_bytes"]["value"] == pytest.approx(header.tensor_bytes, rel=1e-12)


def test_only_the_header_is_read_from_disk(tmp_path: Path, capsys, monkeypatch) -> None:
    # A file whose tensor data would be 8 GB: the reader must stop at its header.
    path = gguf_files.write(tmp_path / "big.gguf", "llama", {}, [("token_embd.weight", T.F32, (64, 2))])
    data = path.read_bytes()
    header = read_gguf_file(path)
    path.write_bytes(data[: header.data_offset])
    with path.open("r+b") as handle:
        handle.truncate(header.data_offset + 8 * 10**9)  # sparse: no disk used
    read_sizes: list[int] = []
    real_open = open

    def counting_open(*args, **kwargs):
        handle = real_open(*args, **kwargs)
        real_read = handle.read

        def read(size=-1):
            chunk = real_read(size)
            read_sizes.append(len(chunk))
            return chunk

        handle.read = read
        return handle

    monkeypatch.setattr(gguf_module, "open", counting_open, raising=False)
    out = _json(capsys, ["weights", "--gguf", str(path)])["outputs"]
    assert out["weight_bytes_stored"]["value"] == 64 * 2 * 4
    assert sum(read_sizes) <= gguf_module.FIRST_READ_BYTES


def test_weights_of_a_safetensors_shard_and_index(tmp_path: Path, capsys) -> None:
    save_file({"a": np.zeros((4, 4), np.float16), "b": np.zeros(3, np.float32)}, str(tmp_path / "s.safetensors"))
    out = _json(capsys, ["weights", "--safetensors", str(tmp_path / "s.safetensors")])
    assert out["outputs"]["weight_bytes"]["value"] == 32 + 12
    assert [row["dtype"]["text"] for row in out["rows"]] == ["F16", "F32"]
    index = tmp_path / "model.safetensors.index.json"
    index.write_text(
        json.dumps({"metadata": {"total_size": 44}, "weight_map": {"a": "s.safetensors", "b": "s.safetensors"}})
    )
    out = _json(capsys, ["weights", "--safetensors-index", str(index)])
    assert out["outputs"]["weight_bytes"]["value"] == 44 and out["outputs"]["shards"]["value"] == 1


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["weights"], "give one of --gguf, --safetensors or --safetensors-index"),
        (["weights", "--gguf", "{x}", "--safetensors", "{x}"], "give one of --gguf, --safetensors"),
        (["weights", "--gguf", "{st}"], "--gguf: {st}: byte 0: the file starts with"),
        (["weights", "--safetensors", "{x}"], "--safetensors: {x}: bytes 0-7 give a header of"),
        (["weights", "--safetensors-index", "{x}"], "--safetensors-index: {x} is not UTF-8 text"),
        (["weights", "--gguf", "{missing}"], "--gguf: cannot read {missing}"),
        (["decode", "--gguf", "{x}", "--model", "llama-3-8b"], "give --gguf or --model, not both"),
        (["decode", "--gguf", "{x}", "--config", "{x}"], "give --config or --gguf, not both"),
        (["decode", "--gguf", "{mamba}"], "--gguf: {mamba}: architecture 'mamba' is not read into a model here"),
    ],
)
def test_each_weight_file_mistake_is_one_line(tmp_path: Path, capsys, argv: list[str], message: str) -> None:
    paths = {
        "x": gguf_files.llama_q4_k_m(tmp_path / "x.gguf"),
        "st": tmp_path / "s.safetensors",
        "missing": tmp_path / "none.gguf",
        "mamba": gguf_files.write(tmp_path / "mamba.gguf", "mamba", {}, [("token_embd.weight", T.F16, (64, 2))]),
    }
    save_file({"a": np.zeros(2, np.float16)}, str(paths["st"]))
    names = {key: str(path) for key, path in paths.items()}
    assert main([part.format(**names) for part in argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("roofline: error: ") and len(err.splitlines()) == 1
    assert message.format(**names) in err
