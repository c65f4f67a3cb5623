"""What a calculator's config box shows for a model file dropped on it: a GGUF file or a
safetensors shard, read from its first bytes only.

The browser never reads a multi-gigabyte file whole: it passes the first megabyte
(``File.slice``), and when the header runs past that, :func:`model_file_json` says how many
bytes from the start to pass next (the readers' own limits cap it). Everything a reader sees
(the summary sentence, the share of each tensor type, the sentence for a bad file) and the
model code the box then holds (:mod:`roofline_core.models.config_code`, carrying the file's exact
stored bytes per part) come from here, so the page does no arithmetic.

Standard library only: this runs in the browser in Pyodide.
"""

from __future__ import annotations

import json
from typing import Any

from roofline_core.formatting import format_bytes, format_percent, format_whole
from roofline_core.models.gguf import FIRST_READ_BYTES, MAGIC, gguf_summary
from roofline_core.models.safetensors import safetensors_summary

#: How many tensor types the summary names before it sums the rest as "other".
MOST_TYPES_NAMED = 4
#: Bytes the page reads first: the GGUF reader's first read (1 MiB) holds a model's whole
#: header but for large vocabularies, which then ask for more.
FIRST_BYTES = FIRST_READ_BYTES
#: Bytes enough to tell a GGUF file (4-byte magic) from a safetensors shard (8-byte length, then ``{``).
_SNIFF_BYTES = 9
#: What a link to the scenario carries of a dropped file, said beside its summary.
LINK_NOTE = (
    "A link to this scenario carries the model's shape and its exact bytes per part, not the file "
    "or its mix of types: open the file again to see them."
)
#: A safetensors file has the bytes but not the shape, so the box keeps what it held.
SHARD_NOTE = (
    "A safetensors file holds no architecture, so the estimates still use the model in the box: "
    "paste its config.json for them."
)


def model_file_json(data: bytes | bytearray | memoryview, file_size: int, file_name: str = "") -> str:
    """The answer for the first bytes of a dropped model file, as JSON.

    Args:
        data: The file's first bytes (the page reads ``data`` with ``File.slice(0, n)``).
        file_size: The whole file's size in bytes, so a cut-off file is told apart from a
            prefix.
        file_name: The file's name, used only in the sentences.

    Returns:
        A JSON object with ``status``: ``"need_more"`` with ``read_bytes`` (bytes from the
        start to pass next); ``"error"`` with ``message``, the one sentence to show; or
        ``"read"`` with ``kind`` (``"gguf"`` or ``"safetensors"``), ``summary`` (the sentence
        to show), ``note`` (what a link keeps) and ``code``, the model code for the config
        box, or null when the file makes no model here (``summary`` then says why).
    """
    return json.dumps(model_file_answer(bytes(data), file_size, file_name), separators=(",", ":"))


def model_file_answer(data: bytes, file_size: int, file_name: str = "") -> dict[str, Any]:
    """:func:`model_file_json`'s answer as a dict."""
    name = _name(file_name)
    if len(data) < min(file_size, _SNIFF_BYTES):
        # The page's first call passes no bytes: the first read's size is decided here.
        return {"status": "need_more", "read_bytes": min(FIRST_BYTES, file_size)}
    if data[: len(MAGIC)] == MAGIC:
        return _gguf_answer(gguf_summary(data, file_size=file_size), name)
    if len(data) >= 9 and data[8:9] == b"{":
        # A safetensors file starts with its header's length (8 bytes) and the JSON header.
        return _shard_answer(safetensors_summary(data, file_size=file_size), name)
    if file_size == 0:
        return {"status": "error", "message": f"{name} is empty; expected a .gguf file or a .safetensors shard."}
    return {
        "status": "error",
        "message": (
            f"{name} is neither a GGUF file (which starts with the letters GGUF) nor a safetensors shard "
            "(an 8-byte length, then a JSON header); expected a .gguf or .safetensors file, or a config.json."
        ),
    }


def _name(file_name: str) -> str:
    # Shown as text by the page; a long or odd name is cut, never interpreted.
    cleaned = "".join(ch for ch in str(file_name) if ch.isprintable())[:80]
    return f"The file {cleaned!r}" if cleaned else "The file"


def _failure(summary: dict[str, Any], name: str) -> dict[str, Any] | None:
    if summary["status"] == "need_more":
        return {"status": "need_more", "read_bytes": summary["read_bytes"]}
    if summary["status"] == "error":
        return {"status": "error", "message": f"{name} could not be read: {_sentence(summary['message'])}"}
    return None


def _sentence(message: str) -> str:
    return message if message.endswith(".") else message + "."


def type_mix(pairs: list[list[Any]], total_bytes: int) -> str:
    """``[[type, bytes], ...]`` (most first) as shares of ``total_bytes``: ``"Q4_K 62%, Q6_K 18%, ..."``.

    The first :data:`MOST_TYPES_NAMED` types are named; the rest are summed as "other".
    """
    if total_bytes <= 0:
        return "no bytes"
    named = [f"{kind} {format_percent(size / total_bytes)}" for kind, size in pairs[:MOST_TYPES_NAMED]]
    rest = sum(size for _, size in pairs[MOST_TYPES_NAMED:])
    if rest:
        named.append(f"{len(pairs) - MOST_TYPES_NAMED} other types {format_percent(rest / total_bytes)}")
    return ", ".join(named)


def _tensors(count: int) -> str:
    return f"{format_whole(count)} tensor{'' if count == 1 else 's'}"


def _stored(total_bytes: int) -> str:
    return f"{format_bytes(total_bytes)} stored ({format_whole(total_bytes)} bytes)"


def _gguf_answer(summary: dict[str, Any], name: str) -> dict[str, Any]:
    failed = _failure(summary, name)
    if failed:
        return failed
    kind = summary["file_type"] or "GGUF"
    total = summary["tensor_bytes"]
    text = (
        f"GGUF v{summary['version']}, architecture {summary['architecture'] or 'not stated'}, {kind}: "
        f"{_tensors(summary['tensors'])}, {_stored(total)}: {type_mix(summary['bytes_by_type'], total)}."
    )
    if summary["model_code"] is None:
        text += f" It makes no model here: {_sentence(summary['model_error'])}"
        return {"status": "read", "kind": "gguf", "summary": text, "note": "", "code": None}
    return {"status": "read", "kind": "gguf", "summary": text, "note": LINK_NOTE, "code": summary["model_code"]}


def _shard_answer(summary: dict[str, Any], name: str) -> dict[str, Any]:
    failed = _failure(summary, name)
    if failed:
        return failed
    total = summary["tensor_bytes"]
    text = (
        f"safetensors: {_tensors(summary['tensors'])}, {_stored(total)}: {type_mix(summary['bytes_by_dtype'], total)}."
    )
    return {"status": "read", "kind": "safetensors", "summary": text, "note": SHARD_NOTE, "code": None}
