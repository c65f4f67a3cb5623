"""The GGUF header reader against files written by llama.cpp's own writer (the pinned ``gguf``
package): tensor by tensor, key by key, and the exact weight bytes a model built from it uses."""

from __future__ import annotations

import json
import struct
import tempfile
from functools import cache
from pathlib import Path

import gguf
import pytest
from gguf import GGML_QUANT_SIZES, GGMLQuantizationType, LlamaFileType
from hypothesis import given, settings
from hypothesis import strategies as st

from roofline_core.estimates.inference import estimate_decode, memory_fit
from roofline_core.hardware.accelerators import ACCELERATORS
from roofline_core.models.config_code import architecture_of, encode, model_from_code
from roofline_core.models.gguf import (
    FILE_TYPES,
    GGML_TYPES,
    MAX_ARRAY_DEPTH,
    MAX_HEADER_BYTES,
    GGUFError,
    GGUFNeedMoreBytes,
    SkippedArray,
    gguf_model_config,
    gguf_summary,
    model_from_gguf,
    read_gguf,
    read_gguf_file,
    stored_part_bytes,
)
from tests.support import gguf_files
from tests.support.gguf_files import T


def test_the_type_table_equals_gguf_py_for_every_type() -> None:
    reference = {t.value: (t.name, *GGML_QUANT_SIZES[t]) for t in GGMLQuantizationType}
    ours = {i: (t.name, t.block_elements, t.block_bytes) for i, t in GGML_TYPES.items()}
    assert ours == reference


def test_the_file_type_names_equal_gguf_py() -> None:
    reference = {
        f.value: f.name.removeprefix("MOSTLY_").removeprefix("ALL_") for f in LlamaFileType if f.name != "GUESSED"
    }
    assert FILE_TYPES == reference


def _every_type_file(path: Path) -> Path:
    metadata = {
        "general.alignment": ("custom_alignment", None),
        "u8": ("uint8", 200),
        "i8": ("int8", -5),
        "u16": ("uint16", 60000),
        "i16": ("int16", -30000),
        "u32": ("uint32", 4_000_000_000),
        "i32": ("int32", -2_000_000_000),
        "f32": ("float32", 0.1),
        "yes": ("bool", True),
        "no": ("bool", False),
        "text": ("string", "Grüße, 世界"),
        "u64": ("uint64", 2**63 + 5),
        "i64": ("int64", -(2**62)),
        "f64": ("float64", 1e300),
        "ints": ("array", [1, 2, 3]),
        "floats": ("array", [0.5, 1.5]),
        "words": ("array", ["a", "bc", ""]),
        "nested": ("array", [[1, 2], [3]]),
        "nested_words": ("array", [["x"], ["y", "z"]]),
    }
    writer = gguf.GGUFWriter(str(path), "llama")
    writer.add_custom_alignment(64)
    for key, (adder, value) in metadata.items():
        if adder != "custom_alignment":
            getattr(writer, f"add_{adder}")(key, value)
    # Two rows of 256 weights (every block size divides 256) in every type, then an odd shape.
    for ggml_type in GGMLQuantizationType:
        gguf_files.add(writer, f"t.{ggml_type.name}", ggml_type, (256, 2))
    gguf_files.add(writer, "four.dims", T.Q8_0, (64, 3, 2, 2))
    gguf_files.add(writer, "vector", T.F32, (7,))
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return path


def test_every_tensor_agrees_with_the_reference_reader(tmp_path: Path) -> None:
    path = _every_type_file(tmp_path / "all.gguf")
    header = read_gguf_file(path)
    reference = gguf.GGUFReader(str(path))
    assert len(header.tensors) == len(reference.tensors) == len(GGMLQuantizationType) + 2
    assert header.alignment == 64
    for ours, theirs in zip(header.tensors, reference.tensors, strict=True):
        assert ours.name == theirs.name
        assert list(ours.shape) == [int(d) for d in theirs.shape]
        assert ours.ggml_type.type_id == theirs.tensor_type.value
        assert ours.elements == theirs.n_elements
        assert ours.bytes == theirs.n_bytes
        assert header.data_offset + ours.offset == theirs.data_offset
    assert header.tensor_bytes == sum(t.n_bytes for t in reference.tensors)
    assert header.data_offset + header.data_bytes == path.stat().st_size


def test_every_metadata_type_reads_as_written(tmp_path: Path) -> None:
    path = _every_type_file(tmp_path / "all.gguf")
    header = read_gguf_file(path)
    reference = gguf.GGUFReader(str(path))
    for key, field in reference.fields.items():
        if key.startswith("GGUF."):
            continue  # the reference reader's own entries for the fixed header
        if key in ("nested", "nested_words"):
            continue  # gguf-py's contents() does not unpack nested arrays; checked below
        theirs = field.contents()
        ours = header.metadata[key]
        if isinstance(theirs, float):
            assert ours == pytest.approx(theirs, rel=1e-7)
        elif isinstance(theirs, list) and theirs and isinstance(theirs[0], float):
            assert ours == pytest.approx(theirs)
        else:
            assert ours == theirs, key
    assert header.metadata["nested"] == [[1, 2], [3]]
    assert header.metadata["nested_words"] == [["x"], ["y", "z"]]
    assert header.metadata_types["nested_words"] == "array[array[string]]"
    assert header.metadata_types["u64"] == "uint64" and header.metadata["u64"] == 2**63 + 5
    assert header.metadata_types["yes"] == "bool" and header.metadata["yes"] is True
    assert header.version == 3


def test_a_long_array_is_checked_and_its_length_kept(tmp_path: Path) -> None:
    path = gguf_files.llama_q4_k_m(tmp_path / "m.gguf")
    header = read_gguf_file(path, keep_array_values=100)
    assert header.metadata["tokenizer.ggml.tokens"] == SkippedArray("string", gguf_files.VOCAB)
    assert header.metadata["tokenizer.ggml.scores"] == SkippedArray("float32", gguf_files.VOCAB)
    assert read_gguf_file(path).metadata["tokenizer.ggml.tokens"][:2] == ["t0", "t1"]


def test_a_q4_k_m_mix_is_exact_part_by_part(tmp_path: Path) -> None:
    path = gguf_files.llama_q4_k_m(tmp_path / "m.gguf")
    header = read_gguf_file(path)
    assert header.file_type == "Q4_K_M"
    assert header.architecture_fields()["block_count"] == gguf_files.LAYERS
    by_type = header.bytes_by_type()
    assert set(by_type) == {"Q4_K", "Q6_K", "F32"}
    model = model_from_gguf(header)
    assert model.name == "Tiny Llama"
    assert model.total_params == header.elements  # a Llama's tensors are exactly its parameters
    fmt = model.quantisation.weight_dtype
    assert fmt == "q4_k"
    # Every stored byte, once; a decode step reads all but the embedding table.
    assert model.weight_bytes(fmt) == pytest.approx(header.tensor_bytes, rel=1e-12)
    embedding = header.tensor("token_embd.weight").bytes
    assert model.streamed_weight_bytes(fmt) == pytest.approx(header.tensor_bytes - embedding, rel=1e-12)
    # Not one format's average: Q4_K alone would miss the Q6_K and F32 tensors.
    assert header.tensor_bytes > header.elements * GGML_TYPES[12].bits_per_weight / 8


def test_a_tied_head_is_the_embedding_read_again(tmp_path: Path) -> None:
    header = read_gguf_file(gguf_files.llama_q4_k_m(tmp_path / "m.gguf", tied=True))
    model = model_from_gguf(header)
    assert model.tied_embeddings
    fmt = model.quantisation.weight_dtype
    assert model.weight_bytes(fmt) == pytest.approx(header.tensor_bytes, rel=1e-12)
    # The head multiplies the whole embedding matrix, so the step reads every tensor.
    assert model.streamed_weight_bytes(fmt) == pytest.approx(header.tensor_bytes, rel=1e-12)


def test_a_moe_reads_its_routed_share_of_the_expert_bytes(tmp_path: Path) -> None:
    header = read_gguf_file(gguf_files.qwen3_moe(tmp_path / "moe.gguf"))
    model = model_from_gguf(header)
    assert (model.experts, model.experts_per_token, model.moe_ffn_size) == (8, 2, gguf_files.MOE_FFN)
    assert model.head_dim == 128 and model.dense_layers == 0
    fmt = model.quantisation.weight_dtype
    assert fmt == "q4_k"  # the experts hold most of the linear layers' bytes
    parts = stored_part_bytes(header)
    experts = parts["experts"]
    assert experts == sum(t.bytes for t in header.tensors if "_exps" in t.name)
    assert model.weight_bytes(fmt) == pytest.approx(header.tensor_bytes, rel=1e-12)
    one_token = header.tensor_bytes - parts["embedding"] - experts * (1 - 2 / 8)
    assert model.streamed_weight_bytes(fmt) == pytest.approx(one_token, rel=1e-12)


def test_the_estimates_use_the_exact_bytes(tmp_path: Path) -> None:
    header = read_gguf_file(gguf_files.llama_q4_k_m(tmp_path / "m.gguf"))
    model = model_from_gguf(header)
    fmt = model.quantisation.weight_dtype
    h100 = ACCELERATORS["h100-sxm"]
    fit = memory_fit(model=model, accelerator=h100, context_tokens=0, weight_dtype=fmt)
    assert fit.weight_bytes == pytest.approx(header.tensor_bytes, rel=1e-12)
    step = estimate_decode(model=model, accelerator=h100, context_tokens=0, weight_dtype=fmt)
    streamed = header.tensor_bytes - header.tensor("token_embd.weight").bytes
    assert step.weight_bytes_streamed == pytest.approx(streamed, rel=1e-12)


def test_a_link_code_carries_the_exact_bytes(tmp_path: Path) -> None:
    header = read_gguf_file(gguf_files.qwen3_moe(tmp_path / "moe.gguf"))
    config = gguf_model_config(header)
    code = encode(architecture_of(config))
    model = model_from_code(code)
    fmt = model.quantisation.weight_dtype
    assert model.weight_bytes(fmt) == pytest.approx(header.tensor_bytes, rel=1e-12)
    assert model.quantisation.part_bytes == model_from_gguf(header).quantisation.part_bytes


def test_an_architecture_not_read_into_a_model_says_so(tmp_path: Path) -> None:
    path = gguf_files.write(tmp_path / "m.gguf", "mamba", {}, [("token_embd.weight", T.F16, (64, 10))])
    header = read_gguf_file(path)
    assert header.tensor_bytes == 64 * 10 * 2
    with pytest.raises(GGUFError, match="architecture 'mamba' is not read into a model here"):
        model_from_gguf(header)


# A prefix of the file, as the browser passes File.slice(0, n) ------------------------------


def test_a_prefix_too_short_says_how_many_bytes_to_read(tmp_path: Path) -> None:
    data = gguf_files.llama_q4_k_m(tmp_path / "m.gguf").read_bytes()
    whole = read_gguf(data, file_size=len(data))
    given = 100
    while True:
        try:
            header = read_gguf(data[:given], file_size=len(data))
            break
        except GGUFNeedMoreBytes as more:
            assert more.bytes_needed > given and "expected at least" in str(more)
            given = more.suggested_bytes
    assert header == whole
    assert header.data_offset <= given <= len(data)


def test_a_short_header_needs_exactly_the_missing_bytes() -> None:
    with pytest.raises(GGUFNeedMoreBytes) as more:
        read_gguf(b"GGUF\x03\x00\x00\x00")
    assert more.value.bytes_needed == 16  # the tensor count is the next 8 bytes


def test_a_truncated_file_is_an_error_not_a_request(tmp_path: Path) -> None:
    data = gguf_files.llama_q4_k_m(tmp_path / "m.gguf").read_bytes()
    with pytest.raises(GGUFError, match="the file ends") as error:
        read_gguf(data[:500], file_size=500)
    assert not isinstance(error.value, GGUFNeedMoreBytes)


def test_tensor_data_past_the_end_of_the_file_is_refused(tmp_path: Path) -> None:
    data = gguf_files.llama_q4_k_m(tmp_path / "m.gguf").read_bytes()
    with pytest.raises(GGUFError, match="past the end of the file"):
        read_gguf(data[:-100], file_size=len(data) - 100)


# Malformed and hostile headers: one sentence each, with the byte offset ---------------------


def _header(version: int = 3, tensors: int = 0, pairs: int = 0) -> bytes:
    return b"GGUF" + struct.pack("<IQQ", version, tensors, pairs)


def _string(text: bytes) -> bytes:
    return struct.pack("<Q", len(text)) + text


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"GGML" + bytes(20), r"byte 0: the file starts with b'GGML'; expected b'GGUF' \(not a GGUF file\)"),
        (_header(version=1), "byte 4: the file is GGUF version 1 .*; expected version 2 or 3"),
        (_header(version=4), "byte 4: the file is GGUF version 4; expected version 2 or 3"),
        (b"GGUF" + struct.pack(">I", 3) + bytes(16), "byte 4: the version reads as 50,331,648: a big-endian file"),
        (_header(tensors=2**64 - 1), "byte 8: the header lists 18,446,744,073,709,551,615 tensors; expected at most"),
        (_header(pairs=10**9), "byte 16: the header lists 1,000,000,000 metadata pairs; expected at most"),
        (
            _header(pairs=1) + struct.pack("<Q", 2**62),
            "byte 24: the key of metadata pair 0 is 4,611,686,018,427,387,904 bytes long; expected at most",
        ),
        (
            _header(pairs=1) + struct.pack("<Q", 65_536) + b"k" * 65_536,
            "byte 24: the key of metadata pair 0 is 65,536 bytes long; expected at most 65,535",
        ),
        (
            _header(pairs=1) + _string(b"k") + struct.pack("<I", 13),
            r"byte 33: 'k' has value type 13; expected one of 0 to 12",
        ),
        (
            _header(pairs=1) + _string(b"k") + struct.pack("<IB", 7, 2),
            "byte 37: 'k' is a bool stored as 2; expected 0 or 1",
        ),
        (
            _header(pairs=1) + _string(b"k") + struct.pack("<IIQ", 9, 8, 2**40),
            r"byte 41: 'k' holds 1,099,511,627,776 elements; expected at most 16,777,216",
        ),
        (
            _header(pairs=1) + _string(b"k") + struct.pack("<IIQ", 9, 8, 2**24),
            r"byte 49: the 16,777,216 elements of 'k' would end at byte 134,217,777; expected a header of at most",
        ),
        (
            _header(pairs=2) + (_string(b"k") + struct.pack("<IB", 0, 1)) * 2,
            "byte 38: the key 'k' appears twice; expected each key once",
        ),
        (
            _header(pairs=1) + _string(b"\xff") + struct.pack("<IB", 0, 1),
            "byte 24: the key of metadata pair 0 is not valid UTF-8",
        ),
        (
            _header(pairs=1) + _string(b"general.alignment") + struct.pack("<II", 4, 48),
            r"general.alignment is 48 \(uint32\); expected a uint32 power of two",
        ),
    ],
)
def test_each_malformed_header_gets_one_sentence(data: bytes, message: str) -> None:
    with pytest.raises(GGUFError, match=message) as error:
        read_gguf(data, file_size=len(data) if b"appears" not in data else None)
    assert not isinstance(error.value, GGUFNeedMoreBytes) or "continues" in str(error.value)
    assert "\n" not in str(error.value)


def _tensor(name: bytes, dims: tuple[int, ...], type_id: int, offset: int) -> bytes:
    return _string(name) + struct.pack(f"<I{len(dims)}QIQ", len(dims), *dims, type_id, offset)


@pytest.mark.parametrize(
    ("records", "message"),
    [
        ([_tensor(b"x" * 64, (32,), 0, 0)], "tensor 0's name is 64 bytes long; expected at most 63"),
        ([_tensor(b"a", (32,), 0, 0), _tensor(b"a", (32,), 0, 128)], "tensor 'a' appears twice"),
        ([_tensor(b"a", (1,) * 5, 0, 0)], "tensor 'a' has 5 dimensions; expected at most 4"),
        ([_tensor(b"a", (2**62, 4), 0, 0)], "tensor 'a' has 18,446,744,073,709,551,616 elements so far"),
        ([_tensor(b"a", (32,), 4, 0)], r"tensor 'a' has type 4 \(Q4_2, a type llama.cpp has removed\)"),
        ([_tensor(b"a", (32,), 99, 0)], r"tensor 'a' has type 99 \(not a ggml type\); expected one of F32, F16"),
        ([_tensor(b"a", (100,), 12, 0)], "tensor 'a' of type Q4_K has rows of 100 weights; expected a multiple of"),
        ([_tensor(b"a", (32,), 0, 64)], "tensor 'a' starts at data byte 64; expected 0"),
        (
            [_tensor(b"a", (32,), 0, 0), _tensor(b"b", (32,), 0, 100)],
            r"tensor 'b' starts at data byte 100; expected 128 \(where the tensor before it ends, padded to 32",
        ),
    ],
)
def test_each_malformed_tensor_record_gets_one_sentence(records: list[bytes], message: str) -> None:
    data = _header(tensors=len(records)) + b"".join(records)
    data += bytes(-len(data) % 32) + bytes(1024)
    with pytest.raises(GGUFError, match=message):
        read_gguf(data)


def test_arrays_nested_too_deep_are_refused() -> None:
    nested = struct.pack("<IQ", 9, 1) * (MAX_ARRAY_DEPTH + 1) + struct.pack("<IQB", 0, 1, 0)
    data = _header(pairs=1) + _string(b"k") + struct.pack("<I", 9) + nested
    with pytest.raises(GGUFError, match=f"'k' nests arrays {MAX_ARRAY_DEPTH + 1} deep; expected at most"):
        read_gguf(data, file_size=len(data))


def test_a_forged_string_length_asks_for_no_more_than_the_header_limit() -> None:
    data = _header(pairs=1) + _string(b"k") + struct.pack("<IQ", 8, 10 * 1024 * 1024) + b"abc"
    with pytest.raises(GGUFNeedMoreBytes) as more:
        read_gguf(data)
    assert more.value.bytes_needed == len(data) - 3 + 10 * 1024 * 1024
    assert more.value.suggested_bytes <= MAX_HEADER_BYTES


# Property tests: any prefix or mutation of real headers reads or fails with one GGUFError ---


@cache
def _real_files() -> tuple[bytes, ...]:
    with tempfile.TemporaryDirectory() as folder:
        return (
            gguf_files.llama_q4_k_m(Path(folder) / "a.gguf", vocab=40).read_bytes(),
            gguf_files.qwen3_moe(Path(folder) / "b.gguf").read_bytes(),
            _every_type_file(Path(folder) / "c.gguf").read_bytes(),
        )


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2), st.floats(0, 1))
def test_any_prefix_reads_or_asks_for_more(which: int, share: float) -> None:
    data = _real_files()[which]
    whole = read_gguf(data)
    cut = int(share * len(data))
    try:
        header = read_gguf(data[:cut])
    except GGUFNeedMoreBytes as more:
        assert cut < whole.data_offset and cut < more.bytes_needed <= whole.data_offset
    else:
        assert cut >= whole.data_offset - whole.alignment and header.tensors == whole.tensors
    # Told the file is that short, the reader says it is truncated instead.
    try:
        read_gguf(data[:cut], file_size=cut)
    except GGUFNeedMoreBytes:
        pytest.fail("a prefix as long as the file asked for more bytes")
    except GGUFError:
        pass


@settings(max_examples=400, deadline=None)
@given(st.integers(0, 2), st.lists(st.tuples(st.floats(0, 1), st.integers(0, 255)), min_size=1, max_size=8))
def test_any_mutated_header_reads_or_fails_with_one_gguf_error(which: int, edits: list[tuple[float, int]]) -> None:
    data = bytearray(_real_files()[which])
    header_end = read_gguf(bytes(data)).data_offset
    for share, value in edits:
        data[int(share * (header_end - 1))] = value
    try:
        header = read_gguf(bytes(data), file_size=len(data))
    except GGUFError as error:
        assert "\n" not in str(error)
        return
    assert header.data_offset + header.tensor_bytes <= len(data)
    # Whatever this reader accepts, llama.cpp's Python reader reads the same tensors from.
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "m.gguf"
        path.write_bytes(bytes(data))
        theirs = gguf.GGUFReader(str(path)).tensors
        got = [(t.name, t.ggml_type.type_id, t.bytes, header.data_offset + t.offset) for t in header.tensors]
        assert got == [(t.name, t.tensor_type.value, t.n_bytes, t.data_offset) for t in theirs]
    try:
        model_from_gguf(header)
    except (GGUFError, ValueError):
        pass  # a model that does not add up is refused with a sentence too (ConfigError is a ValueError)


def _exact(model, header) -> None:
    fmt = model.quantisation.weight_dtype
    assert model.weight_bytes(fmt) == pytest.approx(header.tensor_bytes, rel=1e-12)


def test_gemma_3_ties_its_head_and_slides_five_layers_in_six(tmp_path: Path) -> None:
    header = read_gguf_file(gguf_files.gemma3(tmp_path / "g.gguf"))
    model = model_from_gguf(header)
    assert model.tied_embeddings and model.head_dim == 128 and model.kv_heads == 1
    assert (model.sliding_window, model.sliding_layers) == (512, 5)
    _exact(model, header)
    fmt = model.quantisation.weight_dtype
    assert fmt == "q4_0"
    assert model.streamed_weight_bytes(fmt) == pytest.approx(header.tensor_bytes, rel=1e-12)


@pytest.mark.parametrize(("pattern", "sliding"), [(3, 4), ([True, False, False, True, True, False], 3)])
def test_a_stated_sliding_pattern_is_followed(tmp_path: Path, pattern: int | list[bool], sliding: int) -> None:
    model = model_from_gguf(read_gguf_file(gguf_files.gemma3(tmp_path / "g.gguf", pattern=pattern)))
    assert model.sliding_layers == sliding


def test_deepseek_mla_with_a_dense_layer_and_a_shared_expert(tmp_path: Path) -> None:
    header = read_gguf_file(gguf_files.deepseek2(tmp_path / "d.gguf"))
    model = model_from_gguf(header)
    assert model.attention == "mla"
    assert (model.mla_latent_dim, model.mla_rope_dim, model.mla_q_latent_dim) == (128, 32, 128)
    assert (model.head_dim, model.mla_v_head_dim) == (64, 64)
    assert (model.dense_layers, model.shared_experts, model.experts, model.moe_ffn_size) == (1, 1, 8, 256)
    # The model's own count of parameters is the tensors' (norms and router aside, which it counts its way).
    parts = stored_part_bytes(header)
    assert set(parts) == {"embedding", "lm_head", "attention", "mlp", "experts", "sixteen_bit"}
    _exact(model, header)
    fmt = model.quantisation.weight_dtype
    # Most linear bytes are the experts' I-quants, which have no format of their own here.
    assert header.bytes_by_type().keys() >= {"IQ2_XXS", "IQ3_S"}
    one_token = header.tensor_bytes - parts["embedding"] - parts["experts"] * (1 - 2 / 8)
    assert model.streamed_weight_bytes(fmt) == pytest.approx(one_token, rel=1e-12)


def test_gpt_oss_has_biases_sinks_and_alternate_sliding_layers(tmp_path: Path) -> None:
    header = read_gguf_file(gguf_files.gpt_oss(tmp_path / "o.gguf"))
    model = model_from_gguf(header)
    assert model.qkv_bias and model.out_bias
    assert (model.sliding_window, model.sliding_layers) == (128, 1)
    assert (model.experts, model.experts_per_token, model.moe_ffn_size) == (8, 2, 256)
    assert model.quantisation.weight_dtype == "mxfp4"
    _exact(model, header)


def test_a_llama_file_with_experts_is_a_mixtral(tmp_path: Path) -> None:
    hidden = 256
    metadata = {
        "llama.block_count": ("uint32", 1),
        "llama.embedding_length": ("uint32", hidden),
        "llama.feed_forward_length": ("uint32", 512),
        "llama.attention.head_count": ("uint32", 4),
        "llama.attention.head_count_kv": ("uint32", 2),
        "llama.expert_count": ("uint32", 4),
        "llama.expert_used_count": ("uint32", 2),
    }
    tensors = [
        ("token_embd.weight", T.Q4_K, (hidden, 320)),
        ("blk.0.attn_q.weight", T.Q4_K, (hidden, hidden)),
        ("blk.0.attn_k.weight", T.Q4_K, (hidden, 128)),
        ("blk.0.attn_v.weight", T.Q6_K, (hidden, 128)),
        ("blk.0.attn_output.weight", T.Q4_K, (hidden, hidden)),
        ("blk.0.ffn_gate_inp.weight", T.F32, (hidden, 4)),
        ("blk.0.ffn_gate_exps.weight", T.Q4_K, (hidden, 512, 4)),
        ("blk.0.ffn_up_exps.weight", T.Q4_K, (hidden, 512, 4)),
        ("blk.0.ffn_down_exps.weight", T.Q6_K, (512, hidden, 4)),
        ("output.weight", T.Q6_K, (hidden, 320)),
    ]
    header = read_gguf_file(gguf_files.write(tmp_path / "x.gguf", "llama", metadata, tensors))
    model = model_from_gguf(header)
    assert (model.experts, model.experts_per_token, model.moe_ffn_size, model.family) == (4, 2, 512, "Mistral")
    _exact(model, header)


def test_the_pages_summary_asks_for_bytes_then_reads(tmp_path: Path) -> None:
    data = gguf_files.llama_q4_k_m(tmp_path / "m.gguf").read_bytes()
    first = gguf_summary(data[:64], file_size=len(data))
    assert first["status"] == "need_more" and first["read_bytes"] == len(data)  # the file is under 1 MiB
    read = gguf_summary(data[: first["read_bytes"]], file_size=len(data))
    header = read_gguf(data)
    assert read["status"] == "read" and read["tensor_bytes"] == header.tensor_bytes
    assert read["bytes_by_type"][0][0] == "Q4_K" and read["file_type"] == "Q4_K_M"
    model = model_from_code(read["model_code"])
    assert model.weight_bytes(model.quantisation.weight_dtype) == pytest.approx(header.tensor_bytes, rel=1e-12)
    assert model.name == "Tiny-Llama"  # as a link's code writes a name
    json.dumps(read)  # JSON-ready as it is
    assert gguf_summary(b"nope" + bytes(30), file_size=34) == {
        "status": "error",
        "message": "byte 0: the file starts with b'nope'; expected b'GGUF' (not a GGUF file)",
    }
    mamba = gguf_files.write(tmp_path / "x.gguf", "mamba", {}, [("token_embd.weight", T.F16, (64, 2))]).read_bytes()
    other = gguf_summary(mamba)
    assert other["status"] == "read" and other["model_code"] is None
    assert other["model_error"].startswith("architecture 'mamba' is not read into a model here")


def test_version_2_reads_as_version_3(tmp_path: Path) -> None:
    # Version 3 only added big-endian files; a little-endian version 2 header is laid out the same.
    data = bytearray(gguf_files.llama_q4_k_m(tmp_path / "m.gguf").read_bytes())
    three = read_gguf(bytes(data))
    data[4:8] = struct.pack("<I", 2)
    two = read_gguf(bytes(data))
    assert two.version == 2 and two.tensors == three.tensors and two.metadata == three.metadata


def test_one_part_of_a_split_file_is_not_taken_for_the_model(tmp_path: Path) -> None:
    writer = gguf.GGUFWriter(str(tmp_path / "m.gguf"), "llama", split_max_tensors=2)
    writer.add_uint32("llama.block_count", 1)
    for name in ("token_embd.weight", "blk.0.attn_q.weight", "output.weight"):
        gguf_files.add(writer, name, T.F16, (64, 64))
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    first = read_gguf_file(tmp_path / "m-00001-of-00002.gguf")
    assert first.metadata["split.count"] == 2 and len(first.tensors) == 2
    assert first.tensor_bytes == 2 * 64 * 64 * 2  # its own bytes stay exact
    with pytest.raises(GGUFError, match="this is part 1 of 2 of a split GGUF, holding 2 of its 3 tensors"):
        model_from_gguf(first)
