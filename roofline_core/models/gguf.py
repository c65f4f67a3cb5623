"""Read a GGUF file's header: its metadata, every tensor's type and shape, and their exact bytes.

GGUF is llama.cpp's file format: a header (magic ``GGUF``, version, tensor and metadata counts,
the metadata key/value pairs, then one record per tensor: name, dimensions, ggml type, offset)
followed by the tensor data. The header alone says how many bytes every tensor takes, so the
weight bytes of a mixed file (a Q4_K_M keeps some tensors in Q6_K, norms in F32) are exact
rather than one format's average, without reading the gigabytes of data after it.

The reader takes the first bytes of a file (the browser passes ``File.slice(0, n)``; the
command line reads from disk): when the header runs past them, :class:`GGUFNeedMoreBytes`
says how many bytes to read. Anything malformed, truncated or hostile raises one
:class:`GGUFError` naming the byte offset and what was expected; the limits below keep a
forged count or length from causing a long loop or a large allocation.

Format: https://github.com/ggml-org/ggml/blob/master/docs/gguf.md ; the checks follow
llama.cpp's own reader, ``gguf_init_from_file_impl`` in
https://github.com/ggml-org/llama.cpp/blob/master/ggml/src/gguf.cpp . Standard library only:
this runs in Pyodide.
"""

from __future__ import annotations

import math
import struct
from dataclasses import dataclass, field
from typing import Any

from roofline_core.hardware.block_formats import BLOCK_FORMATS
from roofline_core.models.config_code import architecture_of, encode
from roofline_core.models.hf_config import from_hf_config
from roofline_core.models.model import Model
from roofline_core.models.quantisation import (
    ATTENTION,
    EMBEDDING,
    EXPERTS,
    LINEAR_PARTS,
    LM_HEAD,
    MLP,
    SIXTEEN_BIT,
    STORED_PARTS,
)
from roofline_core.sources import Source

_SPEC = "https://github.com/ggml-org/ggml/blob/master/docs/gguf.md"
_GGUF_CPP = "https://github.com/ggml-org/llama.cpp/blob/master/ggml/src/gguf.cpp"

#: The file's first four bytes.
MAGIC = b"GGUF"
#: Versions read: 2 made the counts 64-bit, 3 allowed big-endian files (not read here).
VERSIONS = (2, 3)
#: Where tensor data is aligned when ``general.alignment`` is absent (the spec's default).
DEFAULT_ALIGNMENT = 32

# Limits. Real headers are a few megabytes (the tokenizer's vocabulary and merges are most of
# it: Llama 3's 128k tokens and 280k merges come to about 8 MB); each limit is far above any
# published file and far below what would exhaust a browser tab.
#: Longest header read, in bytes, up to the start of the tensor data.
MAX_HEADER_BYTES = 64 * 1024 * 1024
#: Most tensors (DeepSeek-V3's GGUF has about 1,100; one tensor per expert would be 15,000).
MAX_TENSORS = 65_536
#: Most metadata pairs (real files have 20 to 60).
MAX_METADATA = 65_536
#: Longest string, in bytes (a whole ``tokenizer.huggingface.json`` is a few megabytes).
MAX_STRING_BYTES = 16 * 1024 * 1024
#: Longest array (the largest vocabularies hold about 262,000 tokens).
MAX_ARRAY_LENGTH = 1 << 24
#: Deepest nesting of arrays within arrays (real files nest none).
MAX_ARRAY_DEPTH = 8
#: llama.cpp's GGML_MAX_DIMS and GGML_MAX_NAME: a tensor has at most 4 dimensions and a name
#: shorter than 64 bytes (gguf.cpp refuses ``name.length() >= GGML_MAX_NAME``).
MAX_DIMS = 4
MAX_TENSOR_NAME_BYTES = 63
#: Longest metadata key, in bytes (the spec: "at most 2^16-1 bytes long").
MAX_KEY_BYTES = (1 << 16) - 1
#: The first read a caller should make; most headers fit.
FIRST_READ_BYTES = 1 << 20


class GGUFError(ValueError):
    """A GGUF header that cannot be read, in one sentence naming the byte offset and what was expected.

    Attributes:
        offset: Byte offset in the file where the problem is (None when it is not one place).
    """

    def __init__(self, message: str, *, offset: int | None = None) -> None:
        super().__init__(message if offset is None else f"byte {offset:,}: {message}")
        self.offset = offset


class GGUFNeedMoreBytes(GGUFError):
    """The header runs past the bytes given: read at least :attr:`bytes_needed` from the file's start.

    Attributes:
        bytes_needed: The fewest bytes from the start of the file that could hold what was
            being read (the header may need more once those are read).
        suggested_bytes: What to read next: at least ``bytes_needed``, at least twice what was
            given (so a long header takes few reads), and never past the header limit or the file.
    """

    def __init__(self, *, bytes_needed: int, given: int, file_size: int | None, what: str) -> None:
        suggested = min(max(bytes_needed, 2 * given, FIRST_READ_BYTES), MAX_HEADER_BYTES)
        if file_size is not None:
            suggested = min(suggested, file_size)
        self.bytes_needed = bytes_needed
        self.suggested_bytes = max(suggested, bytes_needed)
        super().__init__(
            f"the header continues past the {given:,} bytes given ({what}); "
            f"expected at least {bytes_needed:,} bytes from the start of the file"
        )


@dataclass(frozen=True)
class GGMLType:
    """How llama.cpp stores one tensor type: blocks of ``block_elements`` weights in ``block_bytes``.

    Attributes:
        type_id: The number a tensor record carries (``ggml_type`` in ggml.h).
        name: The type's name (``"Q4_K"``).
        block_elements: Weights per block (1 for plain types; 32 or 256 for quantised ones).
        block_bytes: Bytes of one block, scales included.
    """

    type_id: int
    name: str
    block_elements: int
    block_bytes: int

    @property
    def bits_per_weight(self) -> float:
        """Stored bits per weight, scales included (4.5 for Q4_K)."""
        return 8 * self.block_bytes / self.block_elements

    def tensor_bytes(self, elements: int) -> int:
        """Bytes of ``elements`` weights of this type (a whole number of blocks)."""
        return elements // self.block_elements * self.block_bytes


_QK_K = 256  # weights in a K-quant (and I-quant) super-block, QK_K in ggml-common.h

#: Every tensor type llama.cpp reads, by the number a tensor record carries. The block sizes are
#: the structs of ggml-common.h (https://github.com/ggml-org/llama.cpp/blob/master/ggml/src/ggml-common.h)
#: as ggml.c's ``type_traits`` table lists them (``blck_size``, ``type_size``), written as the
#: struct's fields add up; gguf-py repeats the table as ``GGML_QUANT_SIZES``
#: (https://github.com/ggml-org/llama.cpp/blob/master/gguf-py/gguf/constants.py), which the tests
#: compare this one with, type by type.
GGML_TYPES: dict[int, GGMLType] = {
    t.type_id: t
    for t in (
        GGMLType(0, "F32", 1, 4),
        GGMLType(1, "F16", 1, 2),
        GGMLType(2, "Q4_0", 32, 2 + 16),  # fp16 scale, 32 nibbles
        GGMLType(3, "Q4_1", 32, 2 + 2 + 16),  # scale and min
        GGMLType(6, "Q5_0", 32, 2 + 4 + 16),  # plus the fifth bits
        GGMLType(7, "Q5_1", 32, 2 + 2 + 4 + 16),
        GGMLType(8, "Q8_0", 32, 2 + 32),
        GGMLType(9, "Q8_1", 32, 4 + 4 + 32),  # fp32 scale and sum
        GGMLType(10, "Q2_K", _QK_K, 2 + 2 + _QK_K // 16 + _QK_K // 4),
        GGMLType(11, "Q3_K", _QK_K, 2 + _QK_K // 4 + _QK_K // 8 + 12),
        GGMLType(12, "Q4_K", _QK_K, 2 + 2 + _QK_K // 2 + 12),
        GGMLType(13, "Q5_K", _QK_K, 2 + 2 + _QK_K // 2 + _QK_K // 8 + 12),
        GGMLType(14, "Q6_K", _QK_K, 2 + _QK_K // 2 + _QK_K // 4 + _QK_K // 16),
        GGMLType(15, "Q8_K", _QK_K, 4 + _QK_K + _QK_K // 8),  # fp32 scale, int16 block sums
        GGMLType(16, "IQ2_XXS", _QK_K, 2 + _QK_K // 4),
        GGMLType(17, "IQ2_XS", _QK_K, 2 + _QK_K // 4 + _QK_K // 32),
        GGMLType(18, "IQ3_XXS", _QK_K, 2 + _QK_K // 4 + _QK_K // 8),
        GGMLType(19, "IQ1_S", _QK_K, 2 + _QK_K // 8 + _QK_K // 16),
        GGMLType(20, "IQ4_NL", 32, 2 + 16),
        GGMLType(21, "IQ3_S", _QK_K, 2 + _QK_K // 4 + _QK_K // 8 + _QK_K // 32 + 4),
        GGMLType(22, "IQ2_S", _QK_K, 2 + _QK_K // 4 + _QK_K // 16),
        GGMLType(23, "IQ4_XS", _QK_K, 2 + 2 + _QK_K // 2 + _QK_K // 64),
        GGMLType(24, "I8", 1, 1),
        GGMLType(25, "I16", 1, 2),
        GGMLType(26, "I32", 1, 4),
        GGMLType(27, "I64", 1, 8),
        GGMLType(28, "F64", 1, 8),
        GGMLType(29, "IQ1_M", _QK_K, _QK_K // 8 + _QK_K // 16 + _QK_K // 32),  # no fp16 scale field
        GGMLType(30, "BF16", 1, 2),
        GGMLType(34, "TQ1_0", _QK_K, 2 + 4 * 13),  # ternary: 1.6875 bits per weight
        GGMLType(35, "TQ2_0", _QK_K, 2 + _QK_K // 4),
        GGMLType(39, "MXFP4", 32, 1 + 16),  # E8M0 scale, 32 E2M1 nibbles
        GGMLType(40, "NVFP4", 64, 4 + 32),  # four UE4M3 scales, 64 E2M1 nibbles
        GGMLType(41, "Q1_0", 128, 2 + 16),  # fp16 scale, 128 sign bits
    )
}
#: Type numbers llama.cpp once used and has removed (ggml.h keeps them as comments), so an
#: old file gets a precise sentence rather than "unknown type".
REMOVED_GGML_TYPES: dict[int, str] = {
    4: "Q4_2",
    5: "Q4_3",
    31: "Q4_0_4_4",
    32: "Q4_0_4_8",
    33: "Q4_0_8_8",
    36: "IQ4_NL_4_4",
    37: "IQ4_NL_4_8",
    38: "IQ4_NL_8_8",
}

#: ``general.file_type`` (``llama_ftype`` in llama.h, ``LlamaFileType`` in gguf-py): the
#: quantisation recipe the file was made with; the tensors' own types are what count.
FILE_TYPES: dict[int, str] = {
    0: "F32",
    1: "F16",
    2: "Q4_0",
    3: "Q4_1",
    7: "Q8_0",
    8: "Q5_0",
    9: "Q5_1",
    10: "Q2_K",
    11: "Q3_K_S",
    12: "Q3_K_M",
    13: "Q3_K_L",
    14: "Q4_K_S",
    15: "Q4_K_M",
    16: "Q5_K_S",
    17: "Q5_K_M",
    18: "Q6_K",
    19: "IQ2_XXS",
    20: "IQ2_XS",
    21: "Q2_K_S",
    22: "IQ3_XS",
    23: "IQ3_XXS",
    24: "IQ1_S",
    25: "IQ4_NL",
    26: "IQ3_S",
    27: "IQ3_M",
    28: "IQ2_S",
    29: "IQ2_M",
    30: "IQ4_XS",
    31: "IQ1_M",
    32: "BF16",
    36: "TQ1_0",
    37: "TQ2_0",
    38: "MXFP4_MOE",
    39: "NVFP4",
    40: "Q1_0",
}
#: llama.cpp sets this bit on a file type it guessed from the tensors.
FILE_TYPE_GUESSED = 1024

# Metadata value types (gguf_type in gguf.h): name, struct code, size in bytes.
_UINT8, _INT8, _UINT16, _INT16, _UINT32, _INT32, _FLOAT32, _BOOL, _STRING, _ARRAY = range(10)
_UINT64, _INT64, _FLOAT64 = 10, 11, 12
_FIXED: dict[int, tuple[str, str, int]] = {
    _UINT8: ("uint8", "B", 1),
    _INT8: ("int8", "b", 1),
    _UINT16: ("uint16", "H", 2),
    _INT16: ("int16", "h", 2),
    _UINT32: ("uint32", "I", 4),
    _INT32: ("int32", "i", 4),
    _FLOAT32: ("float32", "f", 4),
    _BOOL: ("bool", "B", 1),
    _UINT64: ("uint64", "Q", 8),
    _INT64: ("int64", "q", 8),
    _FLOAT64: ("float64", "d", 8),
}
#: Every metadata value type by number, as the spec names them.
VALUE_TYPES: dict[int, str] = {**{k: v[0] for k, v in _FIXED.items()}, _STRING: "string", _ARRAY: "array"}


@dataclass(frozen=True)
class SkippedArray:
    """An array longer than the reader was asked to keep (a tokenizer's vocabulary): checked, not kept.

    Attributes:
        element_type: Its elements' type name (``"string"``, ``"float32"``, ``"array"``).
        length: How many elements it holds.
    """

    element_type: str
    length: int


@dataclass(frozen=True)
class GGUFTensor:
    """One tensor record of the header.

    Attributes:
        name: The tensor's name (``"blk.0.attn_q.weight"``).
        shape: Its dimensions as the file lists them, innermost (the row) first, as ggml's
            ``ne`` (a ``[vocab, hidden]`` embedding matrix is ``(hidden, vocab)``).
        ggml_type: How its weights are stored.
        offset: Where its data starts, in bytes from the start of the data section.
    """

    name: str
    shape: tuple[int, ...]
    ggml_type: GGMLType
    offset: int

    @property
    def elements(self) -> int:
        """Number of weights."""
        return math.prod(self.shape)

    @property
    def bytes(self) -> int:
        """Stored bytes, scales included (without the padding that follows it)."""
        return self.ggml_type.tensor_bytes(self.elements)


@dataclass(frozen=True)
class GGUFHeader:
    """What a GGUF header says.

    Attributes:
        version: The format version (2 or 3).
        metadata: Every key's value: ints, floats, bools, strings, lists (arrays; nested
            arrays are lists of lists) or a :class:`SkippedArray`.
        metadata_types: Every key's value type (``"uint32"``, ``"array[string]"``).
        tensors: The tensor records, in file order.
        alignment: Alignment of the data section and of every tensor in it, in bytes.
        data_offset: Where the tensor data starts, in bytes from the start of the file: the
            header's size with its padding.
        file_size: The file's size in bytes, when the caller gave it.
    """

    version: int
    metadata: dict[str, Any]
    metadata_types: dict[str, str]
    tensors: tuple[GGUFTensor, ...]
    alignment: int
    data_offset: int
    file_size: int | None = None
    _by_name: dict[str, GGUFTensor] = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self) -> None:
        self._by_name.update({t.name: t for t in self.tensors})

    def tensor(self, name: str) -> GGUFTensor | None:
        """The tensor called ``name``, None if the file has none."""
        return self._by_name.get(name)

    @property
    def tensor_bytes(self) -> int:
        """Stored bytes of every tensor, scales included, padding between tensors left out."""
        return sum(t.bytes for t in self.tensors)

    @property
    def data_bytes(self) -> int:
        """The data section's size as llama.cpp computes it: each tensor padded to the alignment."""
        return sum(_pad(t.bytes, self.alignment) for t in self.tensors)

    @property
    def elements(self) -> int:
        """Weights in every tensor."""
        return sum(t.elements for t in self.tensors)

    @property
    def bits_per_weight(self) -> float:
        """Average stored bits per weight over every tensor (0 for a file without tensors)."""
        return 8 * self.tensor_bytes / self.elements if self.elements else 0.0

    def bytes_by_type(self) -> dict[str, int]:
        """Stored bytes by tensor type, most bytes first."""
        totals: dict[str, int] = {}
        for t in self.tensors:
            totals[t.ggml_type.name] = totals.get(t.ggml_type.name, 0) + t.bytes
        return dict(sorted(totals.items(), key=lambda kv: (-kv[1], kv[0])))

    @property
    def architecture(self) -> str | None:
        """``general.architecture`` (``"llama"``, ``"qwen3moe"``), None if absent or not text."""
        value = self.metadata.get("general.architecture")
        return value if isinstance(value, str) else None

    @property
    def file_type(self) -> str | None:
        """``general.file_type`` as llama.cpp names it (``"Q4_K_M"``), None if absent or unknown."""
        value = self.metadata.get("general.file_type")
        if isinstance(value, bool) or not isinstance(value, int):
            return None
        name = FILE_TYPES.get(value & ~FILE_TYPE_GUESSED)
        if name is None:
            return None
        return f"{name} (guessed)" if value & FILE_TYPE_GUESSED else name

    def arch_value(self, key: str) -> Any:
        """``<architecture>.<key>`` (``arch_value("block_count")``), None if absent."""
        arch = self.architecture
        return None if arch is None else self.metadata.get(f"{arch}.{key}")

    def architecture_fields(self) -> dict[str, Any]:
        """The metadata that shapes the model, under the spec's names without the architecture
        prefix (``block_count``, ``attention.head_count_kv``...), those present only."""
        found = {key: self.arch_value(key) for key in ARCHITECTURE_KEYS}
        return {key: value for key, value in found.items() if value is not None}


#: The ``<architecture>.`` keys that describe a model's shape (gguf.md, "LLM" section, plus
#: the expert and MLA keys llama.cpp writes for MoE and DeepSeek models).
ARCHITECTURE_KEYS: tuple[str, ...] = (
    "context_length",
    "embedding_length",
    "block_count",
    "feed_forward_length",
    "attention.head_count",
    "attention.head_count_kv",
    "attention.key_length",
    "attention.value_length",
    "attention.key_length_mla",
    "attention.value_length_mla",
    "attention.sliding_window",
    "attention.q_lora_rank",
    "attention.kv_lora_rank",
    "rope.dimension_count",
    "expert_count",
    "expert_used_count",
    "expert_shared_count",
    "expert_feed_forward_length",
    "expert_shared_feed_forward_length",
    "leading_dense_block_count",
    "interleave_moe_layer_step",
    "vocab_size",
)


def _pad(size: int, alignment: int) -> int:
    return -(-size // alignment) * alignment


class _Reader:
    """A cursor over the bytes given, every read checked against them and the limits."""

    def __init__(self, data: bytes | bytearray | memoryview, file_size: int | None) -> None:
        self.data = memoryview(data).cast("B")
        self.size = len(self.data)
        self.file_size = file_size
        self.pos = 0

    def need(self, count: int, what: str) -> None:
        """Check ``count`` more bytes can be read for ``what``; else say why not."""
        end = self.pos + count
        if end <= self.size:
            return
        if end > MAX_HEADER_BYTES:
            raise GGUFError(
                f"{what} would end at byte {end:,}; expected a header of at most {MAX_HEADER_BYTES:,} bytes",
                offset=self.pos,
            )
        if self.file_size is not None and end > self.file_size:
            raise GGUFError(
                f"the file ends (at byte {self.file_size:,}) inside {what}; expected {count:,} more bytes",
                offset=self.pos,
            )
        raise GGUFNeedMoreBytes(bytes_needed=end, given=self.size, file_size=self.file_size, what=what)

    def fixed(self, code: str, size: int, what: str) -> Any:
        self.need(size, what)
        value = struct.unpack_from("<" + code, self.data, self.pos)[0]
        self.pos += size
        return value

    def u32(self, what: str) -> int:
        return self.fixed("I", 4, what)

    def u64(self, what: str) -> int:
        return self.fixed("Q", 8, what)

    def string_bytes(self, what: str, limit: int = MAX_STRING_BYTES) -> memoryview:
        start = self.pos
        length = self.u64(f"the length of {what}")
        if length > limit:
            raise GGUFError(f"{what} is {length:,} bytes long; expected at most {limit:,}", offset=start)
        self.need(length, what)
        raw = self.data[self.pos : self.pos + length]
        self.pos += length
        return raw

    def name(self, what: str, limit: int = MAX_STRING_BYTES) -> str:
        """A key or tensor name: UTF-8, or an error (names are compared and shown)."""
        start = self.pos
        raw = self.string_bytes(what, limit)
        try:
            return bytes(raw).decode("utf-8")
        except UnicodeDecodeError:
            raise GGUFError(f"{what} is not valid UTF-8; expected a name", offset=start) from None


def _value(reader: _Reader, kind: int, what: str, *, depth: int, keep: int) -> tuple[Any, str]:
    """One metadata value of type ``kind``, and its type's name."""
    if kind in _FIXED:
        name, code, size = _FIXED[kind]
        start = reader.pos
        value = reader.fixed(code, size, what)
        if kind == _BOOL:
            if value > 1:
                raise GGUFError(f"{what} is a bool stored as {value}; expected 0 or 1", offset=start)
            value = bool(value)
        return value, name
    if kind == _STRING:
        # Values are shown, never compared: a stray byte becomes U+FFFD rather than an error.
        return bytes(reader.string_bytes(what)).decode("utf-8", errors="replace"), "string"
    if kind == _ARRAY:
        return _array(reader, what, depth=depth + 1, keep=keep)
    raise GGUFError(
        f"{what} has value type {kind}; expected one of 0 to 12 (uint8 ... float64)",
        offset=reader.pos - 4,
    )


def _array(reader: _Reader, what: str, *, depth: int, keep: int) -> tuple[Any, str]:
    start = reader.pos
    if depth > MAX_ARRAY_DEPTH:
        raise GGUFError(f"{what} nests arrays {depth} deep; expected at most {MAX_ARRAY_DEPTH}", offset=start)
    kind = reader.u32(f"the element type of {what}")
    if kind not in VALUE_TYPES:
        raise GGUFError(f"{what} has element type {kind}; expected one of 0 to 12 (uint8 ... float64)", offset=start)
    count = reader.u64(f"the length of {what}")
    if count > MAX_ARRAY_LENGTH:
        raise GGUFError(f"{what} holds {count:,} elements; expected at most {MAX_ARRAY_LENGTH:,}", offset=start + 4)
    element = VALUE_TYPES[kind]
    if kind in _FIXED:
        _, code, size = _FIXED[kind]
        reader.need(count * size, f"the {count:,} elements of {what}")
        if count > keep:
            values: Any = SkippedArray(element, count)
        else:
            values = list(struct.unpack_from(f"<{count}{code}", reader.data, reader.pos))
            if kind == _BOOL:
                if any(v > 1 for v in values):
                    raise GGUFError(f"{what} holds a bool other than 0 or 1", offset=reader.pos)
                values = [bool(v) for v in values]
        reader.pos += count * size
        return values, f"array[{element}]"
    # Strings take at least 8 bytes each, arrays 12: a forged count fails here, before any loop.
    smallest = 8 if kind == _STRING else 12
    reader.need(count * smallest, f"the {count:,} elements of {what}")
    if kind == _STRING:
        strings = _strings(reader, count, what, keep=count <= keep)
        return (strings if count <= keep else SkippedArray(element, count)), "array[string]"
    items = []
    inner = element
    for index in range(count):
        item, inner = _value(reader, kind, f"element {index} of {what}", depth=depth, keep=keep)
        items.append(item)
    if count > keep:
        return SkippedArray(element, count), f"array[{inner}]"
    return items, f"array[{inner}]"


_U64 = struct.Struct("<Q")


def _strings(reader: _Reader, count: int, what: str, *, keep: bool) -> list[str]:
    """``count`` strings of an array (a vocabulary's 150,000 tokens), decoded when ``keep``.

    The same checks as :meth:`_Reader.string_bytes`, in one tight loop: the messages are
    written only when one is raised, which keeps a large vocabulary to a fraction of a second.
    """
    data, size, pos = reader.data, reader.size, reader.pos
    unpack = _U64.unpack_from
    values: list[str] = []
    for index in range(count):
        if pos + 8 > size:
            reader.pos = pos
            reader.need(8, f"the length of element {index} of {what}")
        (length,) = unpack(data, pos)
        if length > MAX_STRING_BYTES or pos + 8 + length > size:
            reader.pos = pos
            reader.string_bytes(f"element {index} of {what}")  # raises the error or the request for bytes
        if keep:
            values.append(bytes(data[pos + 8 : pos + 8 + length]).decode("utf-8", errors="replace"))
        pos += 8 + length
    reader.pos = pos
    return values


def _alignment(metadata: dict[str, Any], types: dict[str, str]) -> int:
    if "general.alignment" not in metadata:
        return DEFAULT_ALIGNMENT
    value = metadata["general.alignment"]
    if types["general.alignment"] != "uint32" or value == 0 or value & (value - 1):
        raise GGUFError(
            f"general.alignment is {value!r} ({types['general.alignment']}); expected a uint32 power of two"
        )
    return value


def _tensor(reader: _Reader, index: int, seen: set[str]) -> GGUFTensor:
    start = reader.pos
    name = reader.name(f"the name of tensor {index}", limit=MAX_KEY_BYTES)
    if len(name.encode("utf-8")) > MAX_TENSOR_NAME_BYTES:
        raise GGUFError(
            f"tensor {index}'s name is {len(name.encode('utf-8'))} bytes long; "
            f"expected at most {MAX_TENSOR_NAME_BYTES} (llama.cpp's GGML_MAX_NAME)",
            offset=start,
        )
    if name in seen:
        raise GGUFError(f"tensor {name!r} appears twice; expected each name once", offset=start)
    seen.add(name)
    dims_at = reader.pos
    n_dims = reader.u32(f"the dimension count of tensor {name!r}")
    if n_dims > MAX_DIMS:
        raise GGUFError(f"tensor {name!r} has {n_dims:,} dimensions; expected at most {MAX_DIMS}", offset=dims_at)
    shape = []
    elements = 1
    for axis in range(n_dims):
        at = reader.pos
        dim = reader.u64(f"dimension {axis} of tensor {name!r}")
        elements *= dim
        if dim >= 1 << 63 or elements >= 1 << 63:
            raise GGUFError(f"tensor {name!r} has {elements:,} elements so far; expected fewer than 2^63", offset=at)
        shape.append(dim)
    type_at = reader.pos
    type_id = reader.u32(f"the type of tensor {name!r}")
    ggml_type = GGML_TYPES.get(type_id)
    if ggml_type is None:
        removed = REMOVED_GGML_TYPES.get(type_id)
        detail = f"{removed}, a type llama.cpp has removed" if removed else "not a ggml type"
        raise GGUFError(
            f"tensor {name!r} has type {type_id} ({detail}); expected one of "
            f"{', '.join(t.name for t in GGML_TYPES.values())}",
            offset=type_at,
        )
    row = shape[0] if shape else 1
    if row % ggml_type.block_elements:
        raise GGUFError(
            f"tensor {name!r} of type {ggml_type.name} has rows of {row:,} weights; "
            f"expected a multiple of its block of {ggml_type.block_elements}",
            offset=dims_at,
        )
    offset = reader.u64(f"the data offset of tensor {name!r}")
    return GGUFTensor(name=name, shape=tuple(shape), ggml_type=ggml_type, offset=offset)


def read_gguf(
    data: bytes | bytearray | memoryview, *, file_size: int | None = None, keep_array_values: int = 4096
) -> GGUFHeader:
    """The header at the start of ``data``: the first bytes of a GGUF file, or all of it.

    Args:
        data: The file's first bytes (as many as the header needs; more do no harm).
        file_size: The whole file's size in bytes, when known: a header that runs past it is
            truncated (rather than :class:`GGUFNeedMoreBytes`), and every tensor's data must
            lie within it.
        keep_array_values: Arrays longer than this (a tokenizer's vocabulary and merges) are
            checked and kept as a :class:`SkippedArray` of their length, not their values.

    Raises:
        GGUFNeedMoreBytes: the header runs past ``data``; it says how many bytes to read.
        GGUFError: for anything else wrong, naming the byte offset and what was expected.
    """
    if file_size is not None and (isinstance(file_size, bool) or not isinstance(file_size, int) or file_size < 0):
        raise GGUFError(f"file_size is {file_size!r}; expected a whole number of bytes")
    reader = _Reader(data, file_size)
    reader.need(4, "the magic number")
    magic = bytes(reader.data[:4])
    if magic != MAGIC:
        raise GGUFError(f"the file starts with {magic!r}; expected b'GGUF' (not a GGUF file)", offset=0)
    reader.pos = 4
    version = reader.u32("the version")
    if version & 0xFFFF == 0 and version:
        raise GGUFError(f"the version reads as {version:,}: a big-endian file; expected a little-endian GGUF", offset=4)
    if version not in VERSIONS:
        detail = " (version 1, with 32-bit counts, predates August 2023)" if version == 1 else ""
        raise GGUFError(f"the file is GGUF version {version}{detail}; expected version 2 or 3", offset=4)
    tensor_count = reader.u64("the tensor count")
    if tensor_count > MAX_TENSORS:
        raise GGUFError(f"the header lists {tensor_count:,} tensors; expected at most {MAX_TENSORS:,}", offset=8)
    metadata_count = reader.u64("the metadata count")
    if metadata_count > MAX_METADATA:
        raise GGUFError(
            f"the header lists {metadata_count:,} metadata pairs; expected at most {MAX_METADATA:,}", offset=16
        )
    metadata: dict[str, Any] = {}
    types: dict[str, str] = {}
    for index in range(metadata_count):
        start = reader.pos
        key = reader.name(f"the key of metadata pair {index}", limit=MAX_KEY_BYTES)
        if key in metadata:
            raise GGUFError(f"the key {key!r} appears twice; expected each key once", offset=start)
        kind = reader.u32(f"the value type of {key!r}")
        metadata[key], types[key] = _value(reader, kind, repr(key), depth=0, keep=keep_array_values)
    alignment = _alignment(metadata, types)
    reader.need(tensor_count * 24, f"the {tensor_count:,} tensor records")  # each takes 24 bytes at least
    seen: set[str] = set()
    tensors = tuple(_tensor(reader, index, seen) for index in range(tensor_count))
    data_offset = _pad(reader.pos, alignment)
    if data_offset > MAX_HEADER_BYTES:
        raise GGUFError(f"the header is {data_offset:,} bytes; expected at most {MAX_HEADER_BYTES:,}")
    _check_offsets(tensors, alignment, data_offset, file_size)
    return GGUFHeader(
        version=version,
        metadata=metadata,
        metadata_types=types,
        tensors=tensors,
        alignment=alignment,
        data_offset=data_offset,
        file_size=file_size,
    )


def _check_offsets(tensors: tuple[GGUFTensor, ...], alignment: int, data_offset: int, file_size: int | None) -> None:
    """Each tensor must start where the one before it ends, padded to the alignment, as
    llama.cpp requires (gguf.cpp: "tensor '%s' has offset %lu, expected %zu"), and lie within the file."""
    expected = 0
    for tensor in tensors:
        if tensor.offset != expected:
            raise GGUFError(
                f"tensor {tensor.name!r} starts at data byte {tensor.offset:,}; expected {expected:,} "
                f"(where the tensor before it ends, padded to {alignment} bytes)"
            )
        end = data_offset + tensor.offset + tensor.bytes
        if file_size is not None and end > file_size:
            raise GGUFError(
                f"tensor {tensor.name!r} ends at byte {end:,}, past the end of the file ({file_size:,} bytes); "
                "expected the whole file"
            )
        expected += _pad(tensor.bytes, alignment)


def read_gguf_file(path: Any, *, keep_array_values: int = 4096) -> GGUFHeader:
    """The header of the GGUF file at ``path``, reading only as much of the file as it needs.

    Raises:
        GGUFError: as :func:`read_gguf` (the file's size is known, so a short file is truncated).
        OSError: if the file cannot be read.
    """
    with open(path, "rb") as handle:
        handle.seek(0, 2)
        size = handle.tell()
        want = min(FIRST_READ_BYTES, size)
        while True:
            handle.seek(0)
            data = handle.read(want)
            try:
                return read_gguf(data, file_size=size, keep_array_values=keep_array_values)
            except GGUFNeedMoreBytes as more:
                want = more.suggested_bytes


# From a header to the project's model -----------------------------------------------------

#: ``general.architecture`` -> the ``config.json`` ``model_type`` read with the same fields
#: (llama.cpp's converter writes one from the other: convert_hf_to_gguf.py). A ``llama`` file
#: with experts is a Mixtral.
MODEL_TYPES: dict[str, str] = {
    "llama": "llama",
    "qwen2": "qwen2",
    "qwen2moe": "qwen2_moe",
    "qwen3": "qwen3",
    "qwen3moe": "qwen3_moe",
    "gemma": "gemma",
    "gemma2": "gemma2",
    "gemma3": "gemma3_text",
    "phi3": "phi3",
    "deepseek2": "deepseek_v3",
    "gpt-oss": "gpt_oss",
}

#: ggml types with a weight format of the same name here (:data:`roofline_core.hardware.dtypes.DTYPES`).
_FORMAT_OF_TYPE = {
    "F32": "fp32",
    "F16": "fp16",
    "BF16": "bf16",
    "I8": "int8",
    "Q4_0": "q4_0",
    "Q4_K": "q4_k",
    "Q8_0": "q8_0",
    "MXFP4": "mxfp4",
    "NVFP4": "nvfp4",
}


def tensor_part(name: str) -> str:
    """The part of the model a tensor belongs to, as :meth:`~roofline_core.models.model.Model.weight_parts`
    names them, from llama.cpp's tensor names (``tensor_mapping.py`` in gguf-py).

    >>> [tensor_part(n) for n in ("token_embd.weight", "output.weight", "blk.3.attn_k.weight",
    ...     "blk.3.ffn_up_exps.weight", "blk.3.ffn_down_shexp.weight", "blk.3.ffn_gate_inp.weight",
    ...     "blk.3.attn_norm.weight", "output_norm.weight")]
    ['embedding', 'lm_head', 'attention', 'experts', 'mlp', 'sixteen_bit', 'sixteen_bit', 'sixteen_bit']
    """
    if name.startswith("token_embd."):
        return EMBEDDING
    if name.startswith("output."):
        return LM_HEAD
    if not name.startswith("blk.") or "norm" in name:
        return SIXTEEN_BIT  # norms, rotary tables and anything outside the decoder blocks
    module = name.split(".")[2] if name.count(".") >= 2 else ""
    if module.startswith("ffn_gate_inp") or module == "exp_probs_b":
        return SIXTEEN_BIT  # the router, kept with the norms as Model.weight_parts counts it
    if module.endswith("_exps"):
        return EXPERTS
    if module.startswith("ffn_"):
        return MLP  # dense MLPs and shared experts (_shexp)
    if module.startswith("attn_"):
        return ATTENTION
    return SIXTEEN_BIT


def stored_part_bytes(header: GGUFHeader) -> dict[str, int]:
    """The stored bytes of every tensor, summed by :func:`tensor_part`."""
    totals: dict[str, int] = {}
    for tensor in header.tensors:
        part = tensor_part(tensor.name)
        totals[part] = totals.get(part, 0) + tensor.bytes
    return totals


def _whole(header: GGUFHeader, key: str, default: int | None = None) -> int:
    """``<arch>.<key>`` as a whole number: one value, or a per-layer list whose values agree."""
    value = header.arch_value(key)
    if isinstance(value, list) and value and all(v == value[0] for v in value):
        value = value[0]  # some converters write a per-layer list of one value
    if value is None and default is not None:
        return default
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        shown = "missing" if value is None else f"{value!r}"[:60]
        raise GGUFError(f"metadata {header.architecture}.{key} is {shown}; expected a whole number")
    return value


def _width(header: GGUFHeader, name: str, axis: int = 1) -> int | None:
    """A dimension of the tensor ``name`` (a matrix's output width is axis 1), None if absent."""
    tensor = header.tensor(name)
    return tensor.shape[axis] if tensor is not None and len(tensor.shape) > axis else None


def gguf_config(header: GGUFHeader) -> dict[str, Any]:
    """The ``config.json`` fields a GGUF header describes, for
    :func:`~roofline_core.models.hf_config.from_hf_config`, without the weights' format.

    Widths come from the metadata, with the tensors' shapes where the metadata is silent (the
    vocabulary is the embedding matrix's height; which layers are dense, where the experts are).

    Raises:
        GGUFError: for an architecture not read here or a field missing or mistyped.
    """
    arch = header.architecture
    if arch is None:
        raise GGUFError("the metadata has no general.architecture; expected the model's architecture")
    model_type = MODEL_TYPES.get(arch)
    if model_type is None:
        raise GGUFError(
            f"architecture {arch!r} is not read into a model here (its bytes above are still exact); "
            f"expected one of {', '.join(sorted(MODEL_TYPES))}"
        )
    layers = _whole(header, "block_count")
    heads = _whole(header, "attention.head_count")
    vocab = _width(header, "token_embd.weight")
    if vocab is None:
        vocab = _whole(header, "vocab_size")
    config: dict[str, Any] = {
        "num_hidden_layers": layers,
        "hidden_size": _whole(header, "embedding_length"),
        "num_attention_heads": heads,
        "num_key_value_heads": _whole(header, "attention.head_count_kv", default=heads),
        "vocab_size": vocab,
        "tie_word_embeddings": header.tensor("output.weight") is None,
    }
    experts = _whole(header, "expert_count", default=0)
    if model_type == "llama" and experts:
        model_type = "mixtral"
    config["model_type"] = model_type
    name = header.metadata.get("general.name")
    if isinstance(name, str) and name.strip():
        config["_name_or_path"] = name.strip()
    if header.arch_value("attention.key_length") is not None and model_type != "deepseek_v3":
        config["head_dim"] = _whole(header, "attention.key_length")
    ffn = header.arch_value("feed_forward_length")
    config["intermediate_size"] = (
        _whole(header, "feed_forward_length") if ffn is not None else _width(header, "blk.0.ffn_up.weight") or 0
    )
    out_bias = header.tensor("blk.0.attn_output.bias") is not None
    qkv_bias = header.tensor("blk.0.attn_q.bias") is not None
    config["attention_bias"] = out_bias or (qkv_bias and model_type not in ("qwen2", "qwen2_moe"))
    if experts:
        config.update(_gguf_moe(header, model_type, layers, experts))
    if model_type == "deepseek_v3":
        config.update(_gguf_mla(header))
    window = _whole(header, "attention.sliding_window", default=0)
    if window and model_type in ("gemma2", "gemma3_text", "phi3", "gpt_oss"):
        config["sliding_window"] = window
        pattern = header.arch_value("attention.sliding_window_pattern")
        if isinstance(pattern, list) and len(pattern) == layers and all(isinstance(p, bool) for p in pattern):
            # Newer converters write which layers slide, one bool per layer (llama.cpp's swa_layers).
            config["layer_types"] = ["sliding_attention" if p else "full_attention" for p in pattern]
        elif model_type == "gemma3_text" and pattern is not None:
            config["sliding_window_pattern"] = _whole(header, "attention.sliding_window_pattern")
        elif model_type == "gpt_oss":
            # gpt-oss alternates: even layers slide over 128 tokens, odd ones attend fully
            # (its config.json's layer_types), which llama.cpp applies without writing a list.
            config["layer_types"] = ["sliding_attention" if i % 2 == 0 else "full_attention" for i in range(layers)]
    return config


def _gguf_moe(header: GGUFHeader, model_type: str, layers: int, experts: int) -> dict[str, Any]:
    used = _whole(header, "expert_used_count")
    expert_ffn = header.arch_value("expert_feed_forward_length")
    expert_width = _whole(header, "expert_feed_forward_length") if expert_ffn is not None else None
    if expert_width is None:
        expert_width = _width(header, "blk.0.ffn_up_exps.weight") or _width(
            header, f"blk.{layers - 1}.ffn_up_exps.weight"
        )
    if model_type in ("mixtral", "gpt_oss"):
        fields: dict[str, Any] = {"num_local_experts": experts, "num_experts_per_tok": used}
        if model_type == "gpt_oss" and expert_width:
            fields["intermediate_size"] = expert_width
        return fields
    if model_type in ("qwen2_moe", "qwen3_moe"):
        shared = header.arch_value("expert_shared_feed_forward_length")
        shared_width = (
            _whole(header, "expert_shared_feed_forward_length")
            if shared is not None
            else _width(header, "blk.0.ffn_up_shexp.weight") or 0
        )
        dense = [i for i in range(layers) if header.tensor(f"blk.{i}.ffn_gate_inp.weight") is None]
        return {
            "num_experts": experts,
            "num_experts_per_tok": used,
            "moe_intermediate_size": expert_width or 0,
            "shared_expert_intermediate_size": shared_width,
            "mlp_only_layers": dense,
        }
    # deepseek_v3
    return {
        "n_routed_experts": experts,
        "num_experts_per_tok": used,
        "moe_intermediate_size": expert_width or 0,
        "n_shared_experts": _whole(header, "expert_shared_count", default=0),
        "first_k_dense_replace": _whole(header, "leading_dense_block_count", default=0),
    }


def _gguf_mla(header: GGUFHeader) -> dict[str, Any]:
    """DeepSeek's MLA widths. Newer llama.cpp files store the absorbed attention's key width
    (latent + rotary) as ``key_length`` and the per-head widths as ``key_length_mla`` and
    ``value_length_mla``; older ones have only the per-head ``key_length`` (nope + rope)."""
    rope = _whole(header, "rope.dimension_count")
    mla_key = header.arch_value("attention.key_length_mla") is not None
    key = _whole(header, "attention.key_length_mla" if mla_key else "attention.key_length")
    value = _whole(header, "attention.value_length_mla" if mla_key else "attention.value_length")
    if key <= rope:
        raise GGUFError(f"metadata gives a key width of {key} with {rope} rotary; expected more than the rotary part")
    return {
        "kv_lora_rank": _whole(header, "attention.kv_lora_rank"),
        "q_lora_rank": _whole(header, "attention.q_lora_rank", default=0),
        "qk_rope_head_dim": rope,
        "qk_nope_head_dim": key - rope,
        "v_head_dim": value,
    }


def weight_format(header: GGUFHeader) -> str:
    """The project's weight format closest to the file's: that of the type holding most of the
    linear layers' bytes when one has the same name (Q4_K, Q8_0, F16...), else the GGUF block
    format nearest in bits per weight (Q6_K reads as Q8_0's neighbour, IQ2 as Q4's). The bytes
    never depend on it: :attr:`WeightQuantisation.part_bytes` carries them exactly; it names the
    format the calculators show and compute in (GGUF blocks dequantise to 16 bits)."""
    totals: dict[str, int] = {}
    for tensor in header.tensors:
        if tensor_part(tensor.name) in LINEAR_PARTS:
            totals[tensor.ggml_type.name] = totals.get(tensor.ggml_type.name, 0) + tensor.bytes
    if not totals:
        totals = header.bytes_by_type()
    main = max(sorted(totals), key=lambda name: totals[name])
    if main in _FORMAT_OF_TYPE:
        return _FORMAT_OF_TYPE[main]
    bits = next(t.bits_per_weight for t in GGML_TYPES.values() if t.name == main)
    blocks = sorted(slug for slug, block in BLOCK_FORMATS.items() if block.whole_file)
    return min(blocks, key=lambda slug: abs(BLOCK_FORMATS[slug].bits_per_weight - bits))


def model_from_gguf(header: GGUFHeader, *, slug: str | None = None, name: str | None = None) -> Model:
    """The :class:`~roofline_core.models.model.Model` a GGUF header describes, its weights at
    the exact bytes the file stores (every tensor at its own type) in :func:`weight_format`.

    Raises:
        GGUFError: as :func:`gguf_config`, or for a file without tensors.
        ConfigError: if the fields do not make a model (:func:`~roofline_core.models.hf_config.from_hf_config`).
    """
    return _model(gguf_model_config(header), header, slug=slug, name=name)


def gguf_model_config(header: GGUFHeader) -> dict[str, Any]:
    """:func:`gguf_config` with a ``quantization_config`` carrying the exact stored bytes of each
    part (``quant_method: gguf``), ready for :func:`~roofline_core.models.hf_config.from_hf_config`
    or a link's code (:mod:`roofline_core.models.config_code`)."""
    split = header.metadata.get("split.count")
    if isinstance(split, int) and not isinstance(split, bool) and split > 1:
        # llama-gguf-split spreads the tensors over files; one holds only its share of the bytes.
        part = header.metadata.get("split.no", 0)
        raise GGUFError(
            f"this is part {part + 1 if isinstance(part, int) else '?'} of {split} of a split GGUF, holding "
            f"{len(header.tensors):,} of its {header.metadata.get('split.tensors.count', '?')} tensors; "
            "expected the whole model (merge the parts with llama-gguf-split --merge, or read each part's bytes)"
        )
    if not header.tensors or not header.elements:
        raise GGUFError("the file lists no weights; expected a model's tensors")
    config = gguf_config(header)
    plain = from_hf_config(config)
    params = plain.weight_parts()
    stored = stored_part_bytes(header)
    for part in list(stored):
        # A tensor the model's shape has no parameters for (an untied head in a file whose
        # shape says tied cannot happen, but a stray tensor can) is counted with the norms,
        # so every stored byte is counted once.
        if part != SIXTEEN_BIT and not params.get(part):
            stored[SIXTEEN_BIT] = stored.get(SIXTEEN_BIT, 0) + stored.pop(part)
    average = header.tensor_bytes / header.elements
    config["quantization_config"] = {
        "quant_method": "gguf",
        "read_as": {
            "format": weight_format(header),
            "bits": round(average * 8),
            "group_size": 0,
            "zero_points": False,
            "bytes_per_weight": min(average, 4.0),
            "unquantised": [],
            "unquantised_dtype": "bf16",
            "not_understood": [],
            "part_bytes": {part: stored[part] for part in STORED_PARTS if part in stored},
        },
    }
    return config


def _model(config: dict[str, Any], header: GGUFHeader, *, slug: str | None, name: str | None) -> Model:
    kind = header.file_type or "GGUF"
    source = Source(
        title="GGUF header you gave",
        url="https://github.com/ggml-org/ggml/blob/master/docs/gguf.md",
        states=f"{kind}: {len(header.tensors):,} tensors, {header.tensor_bytes:,} bytes stored",
    )
    return from_hf_config(config, slug=slug or "gguf", name=name, source=source)


def gguf_summary(data: bytes | bytearray | memoryview, *, file_size: int | None = None) -> dict[str, Any]:
    """What a page shows for a dropped GGUF file, as JSON-ready values, from its first bytes.

    One of three answers, by ``status``:

    * ``"need_more"``: ``read_bytes`` says how many bytes from the file's start to pass next
      (``File.slice(0, read_bytes)``), with ``message``;
    * ``"error"``: ``message`` is the one sentence to show;
    * ``"read"``: the header's figures (``tensor_bytes`` exact, ``bytes_by_type`` as
      ``[type, bytes]`` pairs, most first) and ``model_code``, the code a calculator's config
      field takes (:mod:`roofline_core.models.config_code`), or ``model_error`` saying why the
      file does not make a model here (its bytes are still exact).
    """
    try:
        header = read_gguf(data, file_size=file_size)
    except GGUFNeedMoreBytes as more:
        return {"status": "need_more", "read_bytes": more.suggested_bytes, "message": str(more)}
    except GGUFError as error:
        return {"status": "error", "message": str(error)}
    code: str | None = None
    problem: str | None = None
    try:
        code = encode(architecture_of(gguf_model_config(header)))
    except (GGUFError, ValueError) as error:  # ConfigError is a ValueError
        problem = str(error)
    return {
        "status": "read",
        "version": header.version,
        "architecture": header.architecture,
        "file_type": header.file_type,
        "tensors": len(header.tensors),
        "header_bytes": header.data_offset,
        "tensor_bytes": header.tensor_bytes,
        "bits_per_weight": header.bits_per_weight,
        "bytes_by_type": [[name, size] for name, size in header.bytes_by_type().items()],
        "model_code": code,
        "model_error": problem,
    }
