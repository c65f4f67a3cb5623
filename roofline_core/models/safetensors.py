"""Read what a safetensors checkpoint says about its weights: a shard's header and the index.

A ``.safetensors`` file is 8 bytes (the header's length, a little-endian u64), a JSON header
naming every tensor's dtype, shape and ``data_offsets`` (begin and end within the data that
follows) with an optional ``__metadata__`` map of strings, then the data. The header alone gives
the exact stored bytes, by dtype. A sharded checkpoint's ``model.safetensors.index.json`` holds
``metadata.total_size`` (the stored bytes of every shard) and the ``weight_map`` from tensor to
shard.

Format: https://github.com/huggingface/safetensors#format . The checks are the reference
reader's (``Metadata::validate`` and ``read_metadata`` in safetensors/src/tensor.rs): a header of
at most 100,000,000 bytes that starts with ``{``, tensors that, in order of their offsets, each
start where the one before ended and take exactly their shape's bytes, and data that ends where
the file does. Every fault is one :class:`SafetensorsError` naming the byte offset or the tensor
and what was expected. Standard library only: this runs in Pyodide.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any

from roofline_core.models.config_error import ConfigError
from roofline_core.models.hf_config import check_json_shape

#: Bits of one element of each dtype (``Dtype::bitsize`` in safetensors/src/tensor.rs).
DTYPE_BITS: dict[str, int] = {
    "BOOL": 8,
    "F4": 4,
    "F6_E2M3": 6,
    "F6_E3M2": 6,
    "U8": 8,
    "I8": 8,
    "F8_E5M2": 8,
    "F8_E4M3": 8,
    "F8_E8M0": 8,
    "I16": 16,
    "U16": 16,
    "F16": 16,
    "BF16": 16,
    "I32": 32,
    "U32": 32,
    "F32": 32,
    "C64": 64,
    "F64": 64,
    "I64": 64,
    "U64": 64,
}
#: Longest header, in bytes: the reference's MAX_HEADER_SIZE.
MAX_HEADER_BYTES = 100_000_000
#: Most tensors in one shard or index (DeepSeek-V3's index lists about 91,000).
MAX_TENSORS = 1 << 20
#: Most dimensions of one tensor (real ones have at most 5).
MAX_DIMS = 64
#: Longest ``model.safetensors.index.json`` read, in characters (DeepSeek-V3's is about 9 MB).
MAX_INDEX_CHARS = 64 * 1024 * 1024
#: Largest byte count or dimension accepted (2^63, the reference's usize on 64-bit machines).
_MAX_WHOLE = (1 << 63) - 1


class SafetensorsError(ValueError):
    """A safetensors header or index that cannot be read, in one sentence saying where and what was expected."""


class SafetensorsNeedMoreBytes(SafetensorsError):
    """The header runs past the bytes given: read :attr:`bytes_needed` bytes from the file's start.

    Unlike GGUF, the first 8 bytes say exactly how long the header is, so one more read does it.
    """

    def __init__(self, *, bytes_needed: int, given: int) -> None:
        self.bytes_needed = bytes_needed
        super().__init__(
            f"the header continues past the {given:,} bytes given; expected {bytes_needed:,} bytes "
            "from the start of the file"
        )


@dataclass(frozen=True)
class SafetensorsTensor:
    """One tensor of a shard's header.

    Attributes:
        name: The tensor's name (``"model.layers.0.self_attn.q_proj.weight"``).
        dtype: Its dtype as the header writes it (``"BF16"``).
        shape: Its dimensions.
        data_offsets: Where its bytes begin and end, counted from the end of the header.
    """

    name: str
    dtype: str
    shape: tuple[int, ...]
    data_offsets: tuple[int, int]

    @property
    def elements(self) -> int:
        return math.prod(self.shape)

    @property
    def bytes(self) -> int:
        """Stored bytes."""
        return self.data_offsets[1] - self.data_offsets[0]


@dataclass(frozen=True)
class SafetensorsHeader:
    """What a shard's header says.

    Attributes:
        tensors: The tensors, in the order of their data.
        metadata: The ``__metadata__`` strings (None when absent).
        header_bytes: The JSON header's length in bytes.
        file_size: The file's size in bytes, when the caller gave it.
    """

    tensors: tuple[SafetensorsTensor, ...]
    metadata: dict[str, str] | None
    header_bytes: int
    file_size: int | None = None

    @property
    def data_offset(self) -> int:
        """Where the tensor data starts, in bytes from the start of the file."""
        return 8 + self.header_bytes

    @property
    def tensor_bytes(self) -> int:
        """Stored bytes of every tensor."""
        return sum(t.bytes for t in self.tensors)

    @property
    def elements(self) -> int:
        return sum(t.elements for t in self.tensors)

    def bytes_by_dtype(self) -> dict[str, int]:
        """Stored bytes by dtype, most bytes first."""
        totals: dict[str, int] = {}
        for t in self.tensors:
            totals[t.dtype] = totals.get(t.dtype, 0) + t.bytes
        return dict(sorted(totals.items(), key=lambda kv: (-kv[1], kv[0])))


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= _MAX_WHOLE


def _json(text: str, what: str) -> Any:
    """Parse ``text`` after the project's depth and number-length check (no reader recursion)."""
    try:
        check_json_shape(text)
        return json.loads(text)
    except ConfigError as error:
        raise SafetensorsError(f"{what}: {error}") from None
    except json.JSONDecodeError as error:
        raise SafetensorsError(
            f"{what}: line {error.lineno}, column {error.colno}: {error.msg}; expected valid JSON"
        ) from None
    except (ValueError, RecursionError):
        raise SafetensorsError(f"{what} cannot be read as JSON; expected valid JSON") from None


def _tensor(name: str, entry: Any) -> SafetensorsTensor:
    if not isinstance(entry, dict):
        raise SafetensorsError(f"tensor {name!r} is {type(entry).__name__}; expected an object")
    dtype = entry.get("dtype")
    if dtype not in DTYPE_BITS:
        raise SafetensorsError(
            f"tensor {name!r} has dtype {str(dtype)[:20]!r}; expected one of {', '.join(DTYPE_BITS)}"
        )
    shape = entry.get("shape")
    if not isinstance(shape, list) or len(shape) > MAX_DIMS or not all(_whole(d) for d in shape):
        raise SafetensorsError(f"tensor {name!r} has shape {str(shape)[:40]}; expected a list of whole numbers")
    offsets = entry.get("data_offsets")
    if not (isinstance(offsets, list) and len(offsets) == 2 and all(_whole(o) for o in offsets)):
        raise SafetensorsError(f"tensor {name!r} has data_offsets {str(offsets)[:40]}; expected [begin, end] in bytes")
    return SafetensorsTensor(name=name, dtype=dtype, shape=tuple(shape), data_offsets=(offsets[0], offsets[1]))


def _check_layout(tensors: list[SafetensorsTensor]) -> None:
    """In order of their offsets, each tensor starts where the one before ends and holds exactly
    its shape's bytes (the reference's ``Metadata::validate``)."""
    start = 0
    for tensor in tensors:
        begin, end = tensor.data_offsets
        if begin != start or end < begin:
            raise SafetensorsError(
                f"tensor {tensor.name!r} has data_offsets [{begin:,}, {end:,}]; expected it to start at {start:,}, "
                "where the tensor before it ends"
            )
        bits = tensor.elements * DTYPE_BITS[tensor.dtype]
        if bits % 8:
            raise SafetensorsError(
                f"tensor {tensor.name!r} holds {bits:,} bits of {tensor.dtype}; expected a whole number of bytes"
            )
        if end - begin != bits // 8:
            raise SafetensorsError(
                f"tensor {tensor.name!r} takes {end - begin:,} bytes; expected {bits // 8:,} "
                f"for {tensor.elements:,} elements of {tensor.dtype}"
            )
        start = end


def read_safetensors_header(data: bytes | bytearray | memoryview, *, file_size: int | None = None) -> SafetensorsHeader:
    """The header at the start of ``data``: a shard's first bytes, or all of it.

    Args:
        data: The file's first bytes (at least the header; more do no harm).
        file_size: The whole file's size in bytes, when known: the tensors' data must then end
            exactly where the file does, and a header past it is truncated, not "read more".

    Raises:
        SafetensorsNeedMoreBytes: the header runs past ``data``; it says how many bytes to read.
        SafetensorsError: for anything else wrong.
    """
    view = memoryview(data).cast("B")
    if len(view) < 8:
        if file_size is not None and file_size < 8:
            raise SafetensorsError(f"the file has {file_size} bytes; expected at least the 8-byte header length")
        raise SafetensorsNeedMoreBytes(bytes_needed=8, given=len(view))
    length = int.from_bytes(view[:8], "little")
    if length > MAX_HEADER_BYTES:
        raise SafetensorsError(
            f"bytes 0-7 give a header of {length:,} bytes; expected at most {MAX_HEADER_BYTES:,} (not a safetensors file?)"
        )
    end = 8 + length
    if file_size is not None and end > file_size:
        raise SafetensorsError(f"the header would end at byte {end:,}, past the end of the file ({file_size:,} bytes)")
    if end > len(view):
        raise SafetensorsNeedMoreBytes(bytes_needed=end, given=len(view))
    raw = bytes(view[8:end])
    if not raw.startswith(b"{"):
        raise SafetensorsError(f"byte 8 is {raw[:1]!r}; expected the header's JSON object to start with '{{'")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise SafetensorsError(f"byte {8 + error.start:,}: the header is not valid UTF-8; expected JSON text") from None
    parsed = _json(text, "the header")
    if not isinstance(parsed, dict):
        raise SafetensorsError(f"the header is a {type(parsed).__name__}; expected a JSON object")
    metadata = parsed.pop("__metadata__", None)
    if metadata is not None and not (isinstance(metadata, dict) and all(isinstance(v, str) for v in metadata.values())):
        raise SafetensorsError("__metadata__ is not a map of strings to strings; expected one, as the format requires")
    if len(parsed) > MAX_TENSORS:
        raise SafetensorsError(f"the header lists {len(parsed):,} tensors; expected at most {MAX_TENSORS:,}")
    tensors = sorted((_tensor(name, entry) for name, entry in parsed.items()), key=lambda t: t.data_offsets)
    _check_layout(tensors)
    data_end = end + (tensors[-1].data_offsets[1] if tensors else 0)
    if file_size is not None and data_end != file_size:
        raise SafetensorsError(
            f"the tensors' data ends at byte {data_end:,}; expected the end of the file ({file_size:,} bytes)"
        )
    return SafetensorsHeader(tensors=tuple(tensors), metadata=metadata, header_bytes=length, file_size=file_size)


def read_safetensors_file(path: Any) -> SafetensorsHeader:
    """The header of the shard at ``path``, reading only its first ``8 + header length`` bytes.

    Raises:
        SafetensorsError: as :func:`read_safetensors_header`.
        OSError: if the file cannot be read.
    """
    with open(path, "rb") as handle:
        handle.seek(0, 2)
        size = handle.tell()
        handle.seek(0)
        first = handle.read(8)
        try:
            return read_safetensors_header(first, file_size=size)
        except SafetensorsNeedMoreBytes as more:
            handle.seek(0)
            return read_safetensors_header(handle.read(more.bytes_needed), file_size=size)


@dataclass(frozen=True)
class SafetensorsIndex:
    """What a ``model.safetensors.index.json`` says.

    Attributes:
        total_size: ``metadata.total_size``: every shard's stored tensor bytes (None when absent).
        weight_map: Tensor name -> the shard file holding it.
        metadata: The whole ``metadata`` object.
    """

    total_size: int | None
    weight_map: dict[str, str]
    metadata: dict[str, Any]

    @property
    def shards(self) -> tuple[str, ...]:
        """The shard files, sorted."""
        return tuple(sorted(set(self.weight_map.values())))

    def tensors_per_shard(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for shard in self.weight_map.values():
            counts[shard] = counts.get(shard, 0) + 1
        return dict(sorted(counts.items()))


def read_safetensors_index(text: str) -> SafetensorsIndex:
    """The ``model.safetensors.index.json`` in ``text``.

    Raises:
        SafetensorsError: naming the field that is missing or mistyped.
    """
    if not isinstance(text, str) or not text.strip():
        raise SafetensorsError("the index is empty; expected the text of a model.safetensors.index.json")
    if len(text) > MAX_INDEX_CHARS:
        raise SafetensorsError(f"the index has {len(text):,} characters; expected at most {MAX_INDEX_CHARS:,}")
    parsed = _json(text, "the index")
    if not isinstance(parsed, dict):
        raise SafetensorsError(f"the index is a {type(parsed).__name__}; expected a JSON object")
    metadata = parsed.get("metadata", {})
    if not isinstance(metadata, dict):
        raise SafetensorsError(f"field 'metadata' is {type(metadata).__name__}; expected an object")
    total = metadata.get("total_size")
    if isinstance(total, float) and total.is_integer():
        total = int(total)  # some writers store it as a float
    if total is not None and not _whole(total):
        raise SafetensorsError(f"field 'metadata.total_size' is {str(total)[:40]}; expected a whole number of bytes")
    weight_map = parsed.get("weight_map")
    if not isinstance(weight_map, dict) or not weight_map:
        shown = "missing" if weight_map is None else type(weight_map).__name__
        raise SafetensorsError(f"field 'weight_map' is {shown}; expected an object from tensor names to shard files")
    if len(weight_map) > MAX_TENSORS:
        raise SafetensorsError(
            f"field 'weight_map' lists {len(weight_map):,} tensors; expected at most {MAX_TENSORS:,}"
        )
    for name, shard in weight_map.items():
        if not isinstance(shard, str) or not shard:
            raise SafetensorsError(
                f"field 'weight_map' gives tensor {name[:60]!r} the shard {str(shard)[:40]}; expected a file name"
            )
    return SafetensorsIndex(total_size=total, weight_map=dict(weight_map), metadata=metadata)


def safetensors_summary(data: bytes | bytearray | memoryview, *, file_size: int | None = None) -> dict[str, Any]:
    """What a page shows for a dropped shard, as JSON-ready values, from its first bytes:
    ``status`` ``"need_more"`` (with ``read_bytes``), ``"error"`` (with ``message``) or ``"read"``
    (``tensor_bytes`` exact, ``bytes_by_dtype`` as ``[dtype, bytes]`` pairs, most first)."""
    try:
        header = read_safetensors_header(data, file_size=file_size)
    except SafetensorsNeedMoreBytes as more:
        return {"status": "need_more", "read_bytes": more.bytes_needed, "message": str(more)}
    except SafetensorsError as error:
        return {"status": "error", "message": str(error)}
    return {
        "status": "read",
        "tensors": len(header.tensors),
        "header_bytes": header.data_offset,
        "tensor_bytes": header.tensor_bytes,
        "parameters": header.elements,
        "bytes_by_dtype": [[dtype, size] for dtype, size in header.bytes_by_dtype().items()],
        "metadata": header.metadata,
    }


def safetensors_index_summary(text: str) -> dict[str, Any]:
    """What a page shows for a pasted ``model.safetensors.index.json``: ``status`` ``"error"``
    (with ``message``) or ``"read"`` (``total_size``, the tensor and shard counts)."""
    try:
        index = read_safetensors_index(text)
    except SafetensorsError as error:
        return {"status": "error", "message": str(error)}
    return {
        "status": "read",
        "total_size": index.total_size,
        "tensors": len(index.weight_map),
        "shards": [[name, count] for name, count in index.tensors_per_shard().items()],
    }
