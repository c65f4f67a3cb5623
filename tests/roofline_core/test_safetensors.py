"""The safetensors header and index readers against files written by the pinned ``safetensors``
package: tensor by tensor (dtype, shape, offsets, bytes), the metadata, and the reference's checks."""

from __future__ import annotations

import json
import struct
import tempfile
from functools import cache
from pathlib import Path

import numpy as np
import pytest
import safetensors
from hypothesis import given, settings
from hypothesis import strategies as st
from safetensors.numpy import save_file

from roofline_core.models.safetensors import (
    DTYPE_BITS,
    MAX_HEADER_BYTES,
    SafetensorsError,
    SafetensorsNeedMoreBytes,
    read_safetensors_file,
    read_safetensors_header,
    read_safetensors_index,
    safetensors_index_summary,
    safetensors_summary,
)

NUMPY_TENSORS = {
    "model.embed_tokens.weight": np.zeros((10, 8), np.float16),
    "model.norm.weight": np.zeros((8,), np.float32),
    "a.f64": np.zeros((2, 3), np.float64),
    "a.i8": np.zeros((5,), np.int8),
    "a.u8": np.zeros((7,), np.uint8),
    "a.i16": np.zeros((3,), np.int16),
    "a.u16": np.zeros((3,), np.uint16),
    "a.i32": np.zeros((2, 2), np.int32),
    "a.u32": np.zeros((2,), np.uint32),
    "a.i64": np.zeros((1,), np.int64),
    "a.u64": np.zeros((1,), np.uint64),
    "a.bool": np.zeros((9,), np.bool_),
    "a.scalar": np.zeros((), np.float32),
    "a.empty": np.zeros((0, 4), np.float16),
}


def _numpy_file(path: Path) -> Path:
    save_file(NUMPY_TENSORS, str(path), metadata={"format": "pt", "note": "written by safetensors.numpy"})
    return path


def _spec_bytes() -> bytes:
    """Dtypes numpy lacks (BF16, FP8, FP4, complex), written through the package's raw serializer."""
    buffer = np.zeros(4096, np.uint8)
    specs = {
        "w.bf16": ("bfloat16", [4, 8], 64),
        "w.f8e4m3": ("float8_e4m3fn", [16], 16),
        "w.f8e5m2": ("float8_e5m2", [3, 3], 9),
        "w.f8e8m0": ("float8_e8m0fnu", [5], 5),
        "w.f4": ("float4_e2m1fn_x2", [2, 8], 16),  # 2 x 16 four-bit elements, two per byte
        "w.c64": ("complex64", [2], 16),
    }
    tensors = {
        name: safetensors.TensorSpec(dtype=dtype, shape=shape, data_ptr=buffer.ctypes.data, data_len=size)
        for name, (dtype, shape, size) in specs.items()
    }
    return safetensors.serialize(tensors, metadata={"format": "pt"})


def test_every_tensor_agrees_with_the_reference_reader(tmp_path: Path) -> None:
    path = _numpy_file(tmp_path / "model.safetensors")
    header = read_safetensors_file(path)
    raw = json.loads(path.read_bytes()[8 : header.data_offset])
    with safetensors.safe_open(str(path), framework="np") as reference:
        assert sorted(t.name for t in header.tensors) == sorted(reference.keys())
        assert header.metadata == reference.metadata()
        for tensor in header.tensors:
            view = reference.get_slice(tensor.name)
            assert list(tensor.shape) == list(view.get_shape())
            assert tensor.dtype == view.get_dtype() == raw[tensor.name]["dtype"]
            assert list(tensor.data_offsets) == raw[tensor.name]["data_offsets"]
            assert tensor.bytes == NUMPY_TENSORS[tensor.name].nbytes
    assert header.tensor_bytes == sum(a.nbytes for a in NUMPY_TENSORS.values())
    assert header.data_offset + header.tensor_bytes == path.stat().st_size
    assert header.bytes_by_dtype()["F16"] == 160


def test_dtypes_numpy_lacks_are_counted_in_bits() -> None:
    data = _spec_bytes()
    header = read_safetensors_header(data, file_size=len(data))
    reference = {
        name: (info["dtype"], info["shape"], len(info["data"])) for name, info in safetensors.deserialize(data)
    }
    assert reference == {t.name: (t.dtype, list(t.shape), t.bytes) for t in header.tensors}
    by_name = {t.name: t for t in header.tensors}
    assert by_name["w.f4"].dtype == "F4" and by_name["w.f4"].shape == (2, 16) and by_name["w.f4"].bytes == 16
    assert by_name["w.bf16"].dtype == "BF16" and by_name["w.bf16"].bytes == 64
    assert by_name["w.f8e8m0"].dtype == "F8_E8M0"
    assert header.tensor_bytes == 64 + 16 + 9 + 5 + 16 + 16


def test_the_dtype_table_covers_what_the_package_writes() -> None:
    header = read_safetensors_header(_spec_bytes())
    assert {t.dtype for t in header.tensors} <= set(DTYPE_BITS)
    assert DTYPE_BITS["F4"] == 4 and DTYPE_BITS["BF16"] == 16


def test_a_prefix_reads_after_one_more_read(tmp_path: Path) -> None:
    data = _numpy_file(tmp_path / "m.safetensors").read_bytes()
    with pytest.raises(SafetensorsNeedMoreBytes) as more:
        read_safetensors_header(data[:8], file_size=len(data))
    header = read_safetensors_header(data[: more.value.bytes_needed], file_size=len(data))
    assert header == read_safetensors_header(data, file_size=len(data))
    with pytest.raises(SafetensorsNeedMoreBytes) as first:
        read_safetensors_header(data[:3])
    assert first.value.bytes_needed == 8


def test_an_index_gives_total_size_and_shards(tmp_path: Path) -> None:
    shards = {
        "model-00001-of-00002.safetensors": {k: v for k, v in list(NUMPY_TENSORS.items())[:6]},
        "model-00002-of-00002.safetensors": {k: v for k, v in list(NUMPY_TENSORS.items())[6:]},
    }
    for name, tensors in shards.items():
        save_file(tensors, str(tmp_path / name))
    index = {
        # As huggingface_hub writes it: the tensors' storage bytes, summed.
        "metadata": {"total_size": sum(a.nbytes for a in NUMPY_TENSORS.values())},
        "weight_map": {tensor: name for name, tensors in shards.items() for tensor in tensors},
    }
    read = read_safetensors_index(json.dumps(index))
    assert read.shards == tuple(sorted(shards))
    assert read.tensors_per_shard() == {"model-00001-of-00002.safetensors": 6, "model-00002-of-00002.safetensors": 8}
    headers = [read_safetensors_file(tmp_path / name) for name in read.shards]
    assert read.total_size == sum(h.tensor_bytes for h in headers)


def _shard(header: object, data: bytes = b"") -> bytes:
    text = json.dumps(header).encode() if not isinstance(header, bytes) else header
    return struct.pack("<Q", len(text)) + text + data


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (struct.pack("<Q", 2**40) + b"{}", r"bytes 0-7 give a header of 1,099,511,627,776 bytes; expected at most"),
        (_shard(b"[1]"), r"byte 8 is b'\['; expected the header's JSON object to start with '\{'"),
        (_shard(b'{"a": "\xff"}'), "byte 15: the header is not valid UTF-8"),
        (_shard(b"{" * 40), "the header: line 1: the JSON is nested 40 levels deep; expected at most 32"),
        (_shard(b'{"a": 1,}'), "the header: line 1, column 9: Expecting property name"),
        (_shard({"__metadata__": {"a": 1}}), "__metadata__ is not a map of strings to strings"),
        (_shard({"w": {"dtype": "F12", "shape": [1], "data_offsets": [0, 2]}}, bytes(2)), "tensor 'w' has dtype 'F12'"),
        (
            _shard({"w": {"dtype": "F16", "shape": [-1], "data_offsets": [0, 2]}}, bytes(2)),
            r"tensor 'w' has shape \[-1\]",
        ),
        (
            _shard({"w": {"dtype": "F16", "shape": [1], "data_offsets": [0]}}, bytes(2)),
            r"tensor 'w' has data_offsets \[0\]; expected \[begin, end\]",
        ),
        (
            _shard({"w": {"dtype": "F16", "shape": [2], "data_offsets": [0, 2]}}, bytes(2)),
            "tensor 'w' takes 2 bytes; expected 4 for 2 elements of F16",
        ),
        (
            _shard(
                {
                    "a": {"dtype": "F16", "shape": [1], "data_offsets": [0, 2]},
                    "b": {"dtype": "F16", "shape": [1], "data_offsets": [4, 6]},
                },
                bytes(6),
            ),
            r"tensor 'b' has data_offsets \[4, 6\]; expected it to start at 2",
        ),
        (
            _shard({"w": {"dtype": "F4", "shape": [3], "data_offsets": [0, 2]}}, bytes(2)),
            "tensor 'w' holds 12 bits of F4; expected a whole number of bytes",
        ),
        (
            _shard({"w": {"dtype": "F16", "shape": [1], "data_offsets": [0, 2]}}, bytes(5)),
            r"the tensors' data ends at byte \d+; expected the end of the file",
        ),
    ],
)
def test_each_malformed_shard_gets_one_sentence(data: bytes, message: str) -> None:
    with pytest.raises(SafetensorsError, match=message) as error:
        read_safetensors_header(data, file_size=len(data))
    assert "\n" not in str(error.value)
    # The reference refuses each of them too.
    with pytest.raises(Exception):  # noqa: B017 - the binding raises its own error type
        safetensors.deserialize(data)


def test_a_header_past_the_end_of_the_file_is_truncated_not_a_request() -> None:
    data = _shard({"w": {"dtype": "F16", "shape": [1], "data_offsets": [0, 2]}}, bytes(2))
    with pytest.raises(SafetensorsError, match="past the end of the file") as error:
        read_safetensors_header(data[:20], file_size=20)
    assert not isinstance(error.value, SafetensorsNeedMoreBytes)
    assert MAX_HEADER_BYTES == 100_000_000  # the reference's MAX_HEADER_SIZE


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "the index is empty"),
        ("[]", "the index is a list; expected a JSON object"),
        ('{"metadata": [], "weight_map": {"a": "s"}}', "field 'metadata' is list; expected an object"),
        ('{"metadata": {"total_size": -1}, "weight_map": {"a": "s"}}', "field 'metadata.total_size' is -1"),
        ('{"metadata": {"total_size": 1}}', "field 'weight_map' is missing"),
        ('{"weight_map": {"a": 3}}', "field 'weight_map' gives tensor 'a' the shard 3; expected a file name"),
        ('{"weight_map": ' + "[" * 50 + "]" * 50 + "}", "the index: line 1: the JSON is nested 51 levels deep"),
    ],
)
def test_each_malformed_index_gets_one_sentence(text: str, message: str) -> None:
    with pytest.raises(SafetensorsError, match=message):
        read_safetensors_index(text)


@cache
def _real_shard() -> bytes:
    with tempfile.TemporaryDirectory() as folder:
        return _numpy_file(Path(folder) / "m.safetensors").read_bytes()


@settings(max_examples=300, deadline=None)
@given(st.floats(0, 1), st.lists(st.tuples(st.floats(0, 1), st.integers(0, 255)), max_size=6))
def test_any_cut_or_mutated_shard_reads_or_fails_with_one_error(share: float, edits: list[tuple[float, int]]) -> None:
    data = bytearray(_real_shard())
    header_end = read_safetensors_header(bytes(data)).data_offset
    for where, value in edits:
        data[int(where * (header_end - 1))] = value
    cut = bytes(data[: max(int(share * len(data)), 0)])
    for file_size in (None, len(cut)):
        try:
            header = read_safetensors_header(cut, file_size=file_size)
        except SafetensorsError as error:
            assert "\n" not in str(error)
            continue
        if file_size is not None:
            # Whatever this reader accepts as a whole file, the reference reads the same way.
            reference = dict(safetensors.deserialize(cut))
            assert sorted(reference) == sorted(t.name for t in header.tensors)


def test_the_pages_summaries(tmp_path: Path) -> None:
    data = _numpy_file(tmp_path / "m.safetensors").read_bytes()
    first = safetensors_summary(data[:8], file_size=len(data))
    assert first["status"] == "need_more"
    read = safetensors_summary(data[: first["read_bytes"]], file_size=len(data))
    assert read["status"] == "read" and read["tensor_bytes"] == sum(a.nbytes for a in NUMPY_TENSORS.values())
    assert read["bytes_by_dtype"][0] == ["F16", 160] and read["metadata"]["format"] == "pt"
    json.dumps(read)
    assert safetensors_summary(data[:20], file_size=20)["status"] == "error"
    index = safetensors_index_summary(json.dumps({"metadata": {"total_size": 9}, "weight_map": {"a": "x", "b": "x"}}))
    assert index == {"status": "read", "total_size": 9, "tensors": 2, "shards": [["x", 2]]}
    assert safetensors_index_summary("[]") == {
        "status": "error",
        "message": "the index is a list; expected a JSON object",
    }
