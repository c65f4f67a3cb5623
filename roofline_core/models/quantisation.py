"""The weight format a ``config.json``'s ``quantization_config`` declares, and what one weight costs.

A checkpoint quantised by AWQ, GPTQ, llm-compressor (compressed-tensors), bitsandbytes, an FP8
recipe or MXFP4 says so in its ``config.json``. :func:`read_quantisation` turns that block into
a :class:`WeightQuantisation`: the project's format name for the quantised weights (``int4``,
``int8``, ``fp8``, ``nvfp4``, ``mxfp4``), the bytes one weight really takes once its group's
scales and zero points are counted, which parts of the model stay 16-bit (the output head, the
embedding table, whatever the config's ignore list names) and, in plain words, whatever it did
not understand. Anything not understood is reported, never guessed: an unknown method reads the
weights as 16-bit and says so.

Wrong types in the fields it reads (``"bits": "four"``) raise :class:`ConfigError` naming the
field, like every other config field. Standard library only: this runs in Pyodide.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any

from roofline_core.hardware.block_formats import BLOCK_FORMATS
from roofline_core.models.config_error import ConfigError

# The model's parts a quantisation can leave 16-bit (roofline_core.models.model.Model.weight_parts).
EMBEDDING, LM_HEAD, ATTENTION, MLP, EXPERTS = "embedding", "lm_head", "attention", "mlp", "experts"
PARTS = (EMBEDDING, LM_HEAD, ATTENTION, MLP, EXPERTS)
#: The part holding the norms and MoE routers (:meth:`roofline_core.models.model.Model.weight_parts`),
#: which a format only changes when the file says exactly what they take (a GGUF's F32 norms).
SIXTEEN_BIT = "sixteen_bit"
#: Every part a file's exact stored bytes are given for (:attr:`WeightQuantisation.part_bytes`).
STORED_PARTS = (*PARTS, SIXTEEN_BIT)
#: Largest stored bytes of one part accepted from a link or file (10^15 bytes, a petabyte).
MAX_PART_BYTES = 10**15
#: What a library quantises when its config names nothing: the linear layers of the decoder
#: blocks. The MoE router and the norms are always counted 16-bit (the router is under 0.1 % of
#: an MoE's weights, and every method here keeps norms in the model's dtype).
_LINEAR_PARTS = (ATTENTION, MLP, EXPERTS)
#: The same parts, public: what a weight format narrower than 16 bits applies to when no
#: ``quantization_config`` says otherwise (:meth:`roofline_core.models.model.Model.part_format`).
LINEAR_PARTS = _LINEAR_PARTS

#: Kinds of things not understood, each with its sentence; ``{m}`` is the method, ``{a}`` the
#: argument, ``{d}`` the 16-bit format the weights are read in instead.
NOTE_TEXTS: dict[str, str] = {
    "method": "quant_method '{a}' is not known; weights read as 16-bit ({d})",
    "nomethod": "quantization_config has no quant_method; weights read as 16-bit ({d})",
    "bits": "{m} with {a}-bit weights has no format here; weights read as 16-bit ({d})",
    "type": "{m} weights of type '{a}' have no format here; weights read as 16-bit ({d})",
    "groups": "config_groups holds {a} groups with different weight formats; only the first is used",
    "strategy": "{m} strategy '{a}' is not known; its scales are not counted",
    "modules": "{a} entries of the list of unquantised modules name modules this page cannot place; "
    "they are counted as quantised",
    "targets": "config_groups targets '{a}' rather than every Linear layer; every linear layer is counted as quantised",
}

_ARG = re.compile(r"[^a-z0-9-]")


def method_word(text: Any) -> str:
    """A method name as a link can carry it (a letter or digit first), ``"unknown"`` if nothing is left."""
    return note_arg(text).strip("-") or "unknown"


def note_arg(text: Any) -> str:
    """A note's argument as a link can carry it: lower case letters, digits and '-', 40 at most."""
    return _ARG.sub("-", str(text).lower())[:40]


@dataclass(frozen=True)
class WeightQuantisation:
    """What a ``quantization_config`` says about the weights.

    Attributes:
        method: ``quant_method`` as given (``"awq"``, ``"compressed-tensors"``...).
        weight_dtype: The project's format name for the quantised weights (a key of
            :data:`roofline_core.hardware.dtypes.DTYPES`), or None when not understood: then the weights
            are read in ``unquantised_dtype``.
        bits: Bits of one stored weight, scales aside (0 if unknown).
        group_size: Weights that share one scale (0: one per row or tensor, negligible).
        zero_points: Whether each group also stores a zero point.
        bytes_per_weight: Bytes one quantised weight takes, its group's scale and zero point included.
        unquantised: Parts of the model kept in ``unquantised_dtype`` (of :data:`PARTS`).
        unquantised_dtype: The model's 16-bit format (``"bf16"`` or ``"fp16"``, from ``torch_dtype``).
        not_understood: ``(kind, argument)`` pairs; :attr:`notes` says them in words.
        part_bytes: ``(part, bytes)`` pairs of :data:`STORED_PARTS`: the exact stored bytes of
            each part, when a file lists every tensor's type (a GGUF header). Given, they replace
            ``bytes_per_weight`` and the 16-bit parts: each part costs its own bytes, so a mix of
            types (Q4_K_M's Q4_K, Q6_K and F32 tensors) is counted exactly
            (:meth:`roofline_core.models.model.Model.part_format`).
    """

    method: str
    weight_dtype: str | None
    bits: int = 0
    group_size: int = 0
    zero_points: bool = False
    bytes_per_weight: float = 2.0
    unquantised: tuple[str, ...] = ()
    unquantised_dtype: str = "bf16"
    not_understood: tuple[tuple[str, str], ...] = field(default=())
    part_bytes: tuple[tuple[str, int], ...] = field(default=())

    @property
    def quantised_parts(self) -> tuple[str, ...]:
        """Parts stored in :attr:`weight_dtype` (none when the format was not understood)."""
        if self.weight_dtype is None:
            return ()
        return tuple(part for part in PARTS if part not in self.unquantised)

    @property
    def notes(self) -> tuple[str, ...]:
        """What was not understood, in plain words."""
        return tuple(
            NOTE_TEXTS[kind].format(m=self.method_label, a=arg, d=self.unquantised_dtype.upper())
            for kind, arg in self.not_understood
        )

    @property
    def method_label(self) -> str:
        return _METHOD_LABELS.get(self.method, self.method)

    @property
    def summary(self) -> str:
        """One line for the page: ``"Weight format INT4 (AWQ, group 128, zero points, 4.16 bits per
        weight with its scales) read from quantization_config; the embedding and lm_head stay
        FP16"``, then anything not understood; or, for a format not understood, the notes alone."""
        if self.weight_dtype is None:
            return "; ".join(self.notes) or f"weights read as 16-bit ({self.unquantised_dtype.upper()})"
        if self.part_bytes:
            total = sum(size for _, size in self.part_bytes)
            return (
                f"Weights as the {self.method_label} file stores them: {total:,} bytes, every tensor in its "
                f"own type ({self.bytes_per_weight * 8:.3g} bits per weight on average, scales included)"
            )
        details = [] if self.method_label == self.weight_dtype.upper() else [self.method_label]
        side = math.isqrt(self.group_size)
        if self.group_size >= 1024 and side * side == self.group_size:
            details.append(f"{side} x {side} blocks")  # DeepSeek's FP8 scales 128 x 128 tiles
        elif self.group_size:
            details.append(f"group {self.group_size}")
        if self.zero_points:
            details.append("zero points")
        bits = self.bytes_per_weight * 8
        text = (
            f"Weight format {self.weight_dtype.upper()} ({', '.join([*details, f'{bits:.3g} bits per weight'])} "
            "with its scales) read from quantization_config"
        )
        kept = [_PART_WORDS[part] for part in PARTS if part in self.unquantised]
        if kept:
            verb = "stays" if len(kept) == 1 else "stay"
            text += f"; {_join(kept)} {verb} {self.unquantised_dtype.upper()}"
        if self.notes:
            text += ". Not understood: " + "; ".join(self.notes)
        return text

    def to_config(self) -> dict[str, Any]:
        """This reading as a ``quantization_config`` that :func:`read_quantisation` reads back
        unchanged (what a link's code carries)."""
        return {
            "quant_method": self.method,
            "read_as": {
                "format": self.weight_dtype,
                "bits": self.bits,
                "group_size": self.group_size,
                "zero_points": self.zero_points,
                "bytes_per_weight": self.bytes_per_weight,
                "unquantised": list(self.unquantised),
                "unquantised_dtype": self.unquantised_dtype,
                "not_understood": [list(pair) for pair in self.not_understood],
                # Only when given, so every other reading's link stays as it was.
                **({"part_bytes": dict(self.part_bytes)} if self.part_bytes else {}),
            },
        }


_METHOD_LABELS = {
    "awq": "AWQ",
    "gptq": "GPTQ",
    "compressed-tensors": "compressed-tensors",
    "fp8": "FP8",
    "fbgemm_fp8": "FBGEMM FP8",
    "bitsandbytes": "bitsandbytes",
    "mxfp4": "MXFP4",
    "gguf": "GGUF",
}
_PART_WORDS = {
    EMBEDDING: "the embedding",
    LM_HEAD: "lm_head",
    ATTENTION: "attention",
    MLP: "the dense MLPs",
    EXPERTS: "the experts",
}


def _join(words: list[str]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


# Field access --------------------------------------------------------------------------


def _error(path: str, value: Any, expected: str) -> Any:
    shown = repr(value) if not isinstance(value, (dict, list)) else type(value).__name__
    return ConfigError(f"field 'quantization_config.{path}' is {shown[:60]}; expected {expected}")


def _whole(block: dict, key: str, path: str, default: int | None = None) -> int:
    value = block.get(key)
    if value is None and default is not None:
        return default
    if isinstance(value, bool) or not isinstance(value, int) or not -1 <= value <= 1 << 20:
        raise _error(path, value, "a whole number")
    return value


def _typed(block: dict, key: str, path: str, *, ok: Any, expected: str, default: Any) -> Any:
    """``block[key]`` if ``ok(value)``; ``default`` when absent or null; else a ConfigError at ``path``."""
    value = block.get(key)
    if value is None:
        return default
    if not ok(value):
        raise _error(path, value, expected)
    return value


def _flag(block: dict, key: str, path: str, default: bool) -> bool:
    return _typed(block, key, path, ok=lambda v: isinstance(v, bool), expected="true or false", default=default)


def _names(block: dict, key: str, path: str) -> list[str]:
    def ok(v: Any) -> bool:
        return isinstance(v, list) and all(isinstance(item, str) for item in v)

    return _typed(block, key, path, ok=ok, expected="a list of module names", default=[])


def _object(block: dict, key: str, path: str) -> dict:
    return _typed(block, key, path, ok=lambda v: isinstance(v, dict), expected="an object", default={})


def _word(block: dict, key: str, path: str) -> str | None:
    return _typed(block, key, path, ok=lambda v: isinstance(v, str), expected="text", default=None)


# Which parts an ignore list names -------------------------------------------------------

_ONE_LAYER = re.compile(r"layers\.\d+\.")
_ROUTER = re.compile(r"(^|[.*:])(gate|router)\$?$")
_OUTSIDE = ("vision", "visual", "multi_modal", "mm_projector", "audio", "image")


def _place(entry: str) -> str | None:
    """The part an ignore-list entry names, ``"router"``/``"outside"`` for what is counted 16-bit
    or not counted anyway, or None when it cannot be placed (one layer's module, a pattern)."""
    name = entry.lower().removeprefix("re:")
    if any(word in name for word in _OUTSIDE):
        return "outside"  # vision towers and projectors are not part of the language model counted here
    if "lm_head" in name or name in ("output", "head"):
        return LM_HEAD
    if "embed" in name or name.endswith("wte"):
        return EMBEDDING
    # e_score_correction_bias: the per-expert bias of a DeepSeek-style router (MiniMax-M2 lists it).
    if _ROUTER.search(name) or "router" in name or "e_score_correction_bias" in name:
        return "router"  # routers are always counted 16-bit (see _LINEAR_PARTS), one layer or all
    if _ONE_LAYER.search(name):
        return None
    if "attn" in name or "attention" in name:
        return ATTENTION
    # Kimi K2.5's INT4 config keeps "re:.*shared_experts.*" and the dense layers' MLP
    # ("re:.*mlp\.(gate|up|gate_up|down)_proj.*") in 16 bits: the part holding dense MLPs and
    # shared experts. A routed expert's projection ("mlp.experts.3.down_proj") is not one.
    if "shared_expert" in name or ("mlp" in name and "proj" in name and "expert" not in name):
        return MLP
    return None


def _kept(default: tuple[str, ...], entries: list[str]) -> tuple[tuple[str, ...], int]:
    """Parts kept 16-bit: ``default`` and what the entries name; and how many could not be placed."""
    kept = set(default)
    unplaced = 0
    for entry in entries:
        part = _place(entry)
        if part is None:
            unplaced += 1
        elif part in PARTS:
            kept.add(part)
    return tuple(part for part in PARTS if part in kept), unplaced


# Bytes per weight ------------------------------------------------------------------------


def grouped_bytes_per_weight(*, bits: int, group_size: int, scale_bits: int, zero_bits: int = 0) -> float:
    """Bytes per weight when every ``group_size`` weights share a scale of ``scale_bits`` (and a
    zero point of ``zero_bits``); a group size of 0 (one scale per row or tensor) adds nothing
    that shows: 16 bits over a row of thousands of weights is under 0.01 bits each.

    >>> grouped_bytes_per_weight(bits=4, group_size=128, scale_bits=16, zero_bits=4)  # AWQ, GPTQ
    0.51953125
    """
    overhead = (scale_bits + zero_bits) / group_size if group_size > 0 else 0.0
    return (bits + overhead) / 8.0


def _sixteen_bit(torch_dtype: Any) -> str:
    return "fp16" if torch_dtype in ("float16", "half") else "bf16"


def read_quantisation(config: Any, *, torch_dtype: Any = None) -> WeightQuantisation:
    """The weights' format from a ``quantization_config`` object.

    Args:
        config: The ``quantization_config`` value.
        torch_dtype: The config's ``torch_dtype``: the 16-bit format of what stays unquantised.

    Raises:
        ConfigError: for a field of the wrong type, naming it.
    """
    if not isinstance(config, dict):
        raise ConfigError(f"field 'quantization_config' is {type(config).__name__}; expected an object")
    if "read_as" in config:
        return _read_canonical(config)
    sixteen = _sixteen_bit(torch_dtype)
    method = config.get("quant_method")
    if method is None:
        return WeightQuantisation("unknown", None, unquantised_dtype=sixteen, not_understood=(("nomethod", ""),))
    if not isinstance(method, str):
        raise _error("quant_method", method, "a method name such as 'awq'")
    method = method.strip().lower()
    reader = _READERS.get(method)
    if reader is None:
        return WeightQuantisation(
            method_word(method), None, unquantised_dtype=sixteen, not_understood=(("method", note_arg(method)),)
        )
    return reader(config, method, sixteen)


def _fallback(method: str, sixteen: str, kind: str, arg: Any) -> WeightQuantisation:
    return WeightQuantisation(method, None, unquantised_dtype=sixteen, not_understood=((kind, note_arg(arg)),))


def _integer_groups(config: dict, method: str, sixteen: str, *, defaults: tuple[str, ...]) -> WeightQuantisation:
    """AWQ and GPTQ: packed integers, an FP16 scale and a packed zero point per group.

    AutoAWQ's WQLinear_GEMM keeps ``qweight`` (int32, 32 // bits weights each), ``qzeros``
    (int32, one zero per group and output, packed the same way) and ``scales`` (fp16, one per
    group and output): https://github.com/casper-hansen/AutoAWQ/blob/main/awq/modules/linear/gemm.py
    AutoGPTQ's QuantLinear stores the same three (qzeros even when ``sym`` is true) plus
    ``g_idx``, one int32 per input row, under 0.01 bits per weight and left out:
    https://github.com/AutoGPTQ/AutoGPTQ/blob/main/auto_gptq/nn_modules/qlinear/qlinear_cuda_old.py
    """
    # transformers writes bits/group_size; AutoAWQ's own quant_config says w_bit/q_group_size.
    bits_key = "bits" if "bits" in config else "w_bit"
    group_key = "group_size" if "group_size" in config else "q_group_size"
    bits = _whole(config, bits_key, bits_key, default=4)
    group = _whole(config, group_key, group_key, default=128)
    entries = _names(config, "modules_to_not_convert", "modules_to_not_convert")
    keep = defaults
    if method == "gptq" and _flag(config, "lm_head", "lm_head", False):
        keep = tuple(part for part in defaults if part != LM_HEAD)  # GPTQModel's lm_head: true quantises it
    formats = {4: "int4", 8: "int8"}
    if bits not in formats:
        return _fallback(method, sixteen, "bits", bits)
    kept, unplaced = _kept(keep, entries)
    group = max(group, 0)  # -1 means one scale per output row
    return WeightQuantisation(
        method,
        formats[bits],
        bits=bits,
        group_size=group,
        zero_points=True,
        bytes_per_weight=grouped_bytes_per_weight(bits=bits, group_size=group, scale_bits=16, zero_bits=bits),
        unquantised=kept,
        unquantised_dtype=sixteen,
        not_understood=(("modules", str(unplaced)),) if unplaced else (),
    )


def _awq(config: dict, method: str, sixteen: str) -> WeightQuantisation:
    return _integer_groups(config, method, sixteen, defaults=(EMBEDDING, LM_HEAD))


def _gptq(config: dict, method: str, sixteen: str) -> WeightQuantisation:
    return _integer_groups(config, method, sixteen, defaults=(EMBEDDING, LM_HEAD))


def _compressed_tensors(config: dict, method: str, sixteen: str) -> WeightQuantisation:
    """llm-compressor's format: ``config_groups`` of ``weights`` (``num_bits``, ``type``,
    ``strategy``, ``group_size``, ``symmetric``) over ``targets``, minus an ``ignore`` list.

    Schema: https://github.com/neuralmagic/compressed-tensors/blob/main/src/compressed_tensors/quantization/quant_args.py
    Integer groups keep a scale in the model's dtype per group and, when not symmetric, a zero
    point packed like the weights; NVFP4 (``tensor_group``, groups of 16) keeps an FP8 scale per
    group, as :data:`roofline_core.hardware.block_formats.BLOCK_FORMATS` counts it. Embeddings are not
    Linear layers and are never targeted.
    """
    groups = _object(config, "config_groups", "config_groups")
    notes: list[tuple[str, str]] = []
    if not groups:
        return _fallback(method, sixteen, "groups", 0)
    readings = []
    for name, group in groups.items():
        if not isinstance(group, dict):
            raise _error(f"config_groups.{name}", group, "an object")
        weights = _object(group, "weights", f"config_groups.{name}.weights")
        readings.append((name, group, weights))
    first_name, first, weights = readings[0]
    path = f"config_groups.{first_name}.weights"
    if len({repr(sorted(w.items(), key=lambda kv: kv[0])) for _, _, w in readings}) > 1:
        notes.append(("groups", str(len(readings))))
    targets = _names(first, "targets", f"config_groups.{first_name}.targets")
    odd_targets = [t for t in targets if t != "Linear"]
    if odd_targets:
        notes.append(("targets", note_arg(odd_targets[0])))
    bits = _whole(weights, "num_bits", f"{path}.num_bits", default=0)
    kind = _word(weights, "type", f"{path}.type") or "int"
    strategy = _word(weights, "strategy", f"{path}.strategy") or "tensor"
    group = _whole(weights, "group_size", f"{path}.group_size", default=0)
    symmetric = _flag(weights, "symmetric", f"{path}.symmetric", True)
    if kind not in ("int", "float"):
        return _fallback(method, sixteen, "type", kind)
    if kind == "float" and bits == 4:
        slug = "nvfp4" if group == 16 else "mxfp4" if group == 32 else None
        if slug is None:
            return _fallback(method, sixteen, "bits", bits)
        bytes_per_weight = BLOCK_FORMATS[slug].bytes_per_weight
        zero = False
    else:
        slug = {("int", 4): "int4", ("int", 8): "int8", ("float", 8): "fp8"}.get((kind, bits))
        if slug is None:
            return _fallback(method, sixteen, "bits", bits)
        zero = not symmetric
        if strategy in ("group", "tensor_group"):
            scale_group = max(group, 0)
        elif strategy == "block":
            block = weights.get("block_structure")
            if not (isinstance(block, list) and len(block) == 2 and all(isinstance(b, int) and b > 0 for b in block)):
                raise _error(f"{path}.block_structure", block, "two whole numbers such as [128, 128]")
            scale_group = block[0] * block[1]
        else:
            if strategy not in ("channel", "tensor"):
                notes.append(("strategy", note_arg(strategy)))
            scale_group = 0
        bytes_per_weight = grouped_bytes_per_weight(
            bits=bits, group_size=scale_group, scale_bits=16, zero_bits=bits if zero else 0
        )
    kept, unplaced = _kept((EMBEDDING,), _names(config, "ignore", "ignore"))
    if unplaced:
        notes.append(("modules", str(unplaced)))
    return WeightQuantisation(
        method,
        slug,
        bits=bits,
        group_size=max(group, 0) if strategy in ("group", "tensor_group") else 0,
        zero_points=zero,
        bytes_per_weight=bytes_per_weight,
        unquantised=kept,
        unquantised_dtype=sixteen,
        not_understood=tuple(notes),
    )


def _fp8(config: dict, method: str, sixteen: str) -> WeightQuantisation:
    """DeepSeek's block-scaled FP8 (``quant_method: fp8``, ``weight_block_size: [128, 128]``): an
    E4M3 weight and one FP32 ``weight_scale_inv`` per 128 x 128 block, per DeepSeek-V3's
    README_WEIGHTS.md ("128x128 weight block"):
    https://github.com/deepseek-ai/DeepSeek-V3/blob/main/README_WEIGHTS.md . The embedding and
    the output head stay BF16 there. FBGEMM FP8 (Meta's Llama 3.1 405B FP8) keeps one scale per
    output row and names what it leaves alone in ``modules_to_not_convert``.
    """
    block = config.get("weight_block_size")
    if block is None:
        group = 0
    elif (
        isinstance(block, list)
        and len(block) == 2
        and all(isinstance(b, int) and not isinstance(b, bool) and 0 < b <= 1 << 16 for b in block)
    ):
        group = block[0] * block[1]
    else:
        raise _error("weight_block_size", block, "two whole numbers such as [128, 128]")
    entries = _names(config, "modules_to_not_convert", "modules_to_not_convert")
    kept, unplaced = _kept((EMBEDDING, LM_HEAD), entries)
    return WeightQuantisation(
        method,
        "fp8",
        bits=8,
        group_size=group,
        bytes_per_weight=grouped_bytes_per_weight(bits=8, group_size=group, scale_bits=32),
        unquantised=kept,
        unquantised_dtype=sixteen,
        not_understood=(("modules", str(unplaced)),) if unplaced else (),
    )


def _bitsandbytes(config: dict, method: str, sixteen: str) -> WeightQuantisation:
    """bitsandbytes as transformers' BitsAndBytesConfig writes it.

    4-bit (``load_in_4bit``; NF4 or FP4 codes): one FP32 absmax per block of 64 weights, 0.5
    bits each; with ``bnb_4bit_use_double_quant`` the absmax is itself stored in 8 bits with an
    FP32 scale per 256 of them, "from 32/64 = 0.5 bits, to 8/64 + 32/(64 * 256) = 0.127 bits"
    (QLoRA, https://arxiv.org/abs/2305.14314 , section 3). 8-bit (LLM.int8()): int8 weights with
    one scale per row. transformers keeps the output head unquantised unless
    ``llm_int8_skip_modules`` says otherwise:
    https://huggingface.co/docs/transformers/main/en/quantization/bitsandbytes
    """
    four = _flag(config, "load_in_4bit", "load_in_4bit", False)
    eight = _flag(config, "load_in_8bit", "load_in_8bit", False)
    skip = config.get("llm_int8_skip_modules")
    entries = _names(config, "llm_int8_skip_modules", "llm_int8_skip_modules")
    # An explicit list replaces transformers' default (the output head).
    kept, unplaced = _kept((EMBEDDING,) if skip is not None else (EMBEDDING, LM_HEAD), entries)
    notes = (("modules", str(unplaced)),) if unplaced else ()
    if four:
        kind = _word(config, "bnb_4bit_quant_type", "bnb_4bit_quant_type") or "fp4"
        if kind not in ("nf4", "fp4"):
            return _fallback(method, sixteen, "type", kind)
        double = _flag(config, "bnb_4bit_use_double_quant", "bnb_4bit_use_double_quant", False)
        overhead_bits = 8 / 64 + 32 / (64 * 256) if double else 32 / 64
        return WeightQuantisation(
            method,
            "int4",
            bits=4,
            group_size=64,
            bytes_per_weight=(4 + overhead_bits) / 8,
            unquantised=kept,
            unquantised_dtype=sixteen,
            not_understood=notes,
        )
    if eight:
        return WeightQuantisation(
            method,
            "int8",
            bits=8,
            bytes_per_weight=1.0,
            unquantised=kept,
            unquantised_dtype=sixteen,
            not_understood=notes,
        )
    return _fallback(method, sixteen, "bits", 0)


def _mxfp4(config: dict, method: str, sixteen: str) -> WeightQuantisation:
    """OCP MXFP4 (gpt-oss): 4-bit E2M1 weights with one E8M0 scale per 32, 4.25 bits each
    (:data:`roofline_core.hardware.block_formats.BLOCK_FORMATS`); gpt-oss lists what stays BF16 in
    ``modules_to_not_convert`` (attention, router, embedding, head: only the experts are MXFP4,
    per https://huggingface.co/openai/gpt-oss-20b/blob/main/config.json).
    """
    kept, unplaced = _kept((EMBEDDING, LM_HEAD), _names(config, "modules_to_not_convert", "modules_to_not_convert"))
    return WeightQuantisation(
        method,
        "mxfp4",
        bits=4,
        group_size=32,
        bytes_per_weight=BLOCK_FORMATS["mxfp4"].bytes_per_weight,
        unquantised=kept,
        unquantised_dtype=sixteen,
        not_understood=(("modules", str(unplaced)),) if unplaced else (),
    )


_READERS = {
    "awq": _awq,
    "gptq": _gptq,
    "compressed-tensors": _compressed_tensors,
    "fp8": _fp8,
    "fbgemm_fp8": _fp8,
    "bitsandbytes": _bitsandbytes,
    "mxfp4": _mxfp4,
}
#: The methods read, as ``quant_method`` names them.
KNOWN_METHODS: tuple[str, ...] = tuple(_READERS)


def _read_canonical(config: dict) -> WeightQuantisation:
    """A reading written by :meth:`WeightQuantisation.to_config` (a link's code), checked."""
    from roofline_core.hardware.dtypes import DTYPES

    method = _word(config, "quant_method", "quant_method") or "unknown"
    read = _object(config, "read_as", "read_as")
    slug = read.get("format")
    if slug is not None and slug not in DTYPES:
        raise _error("read_as.format", slug, "a weight format such as 'int4'")
    size = read.get("bytes_per_weight", 2.0)
    if isinstance(size, bool) or not isinstance(size, (int, float)) or not 0 < size <= 4:
        raise _error("read_as.bytes_per_weight", size, "a number of bytes above 0, at most 4")
    kept = _names(read, "unquantised", "read_as.unquantised")
    if any(part not in PARTS for part in kept):
        raise _error("read_as.unquantised", kept, f"parts among {', '.join(PARTS)}")
    sixteen = read.get("unquantised_dtype", "bf16")
    if sixteen not in ("bf16", "fp16"):
        raise _error("read_as.unquantised_dtype", sixteen, "bf16 or fp16")
    pairs = read.get("not_understood") or []
    if not isinstance(pairs, list) or not all(
        isinstance(p, list) and len(p) == 2 and p[0] in NOTE_TEXTS and isinstance(p[1], str) for p in pairs
    ):
        raise _error("read_as.not_understood", pairs, f"[kind, text] pairs, kinds among {', '.join(NOTE_TEXTS)}")
    stored = _object(read, "part_bytes", "read_as.part_bytes")
    for part, stored_bytes in stored.items():
        if part not in STORED_PARTS:
            raise _error("read_as.part_bytes", part, f"parts among {', '.join(STORED_PARTS)}")
        if (
            isinstance(stored_bytes, bool)
            or not isinstance(stored_bytes, int)
            or not 0 <= stored_bytes <= MAX_PART_BYTES
        ):
            raise _error(f"read_as.part_bytes.{part}", stored_bytes, "a whole number of bytes, at most 10^15")
    return WeightQuantisation(
        method_word(method),
        slug,
        bits=_whole(read, "bits", "read_as.bits", default=0),
        group_size=max(_whole(read, "group_size", "read_as.group_size", default=0), 0),
        zero_points=_flag(read, "zero_points", "read_as.zero_points", False),
        bytes_per_weight=float(size),
        unquantised=tuple(part for part in PARTS if part in kept),
        unquantised_dtype=sixteen,
        not_understood=tuple((kind, note_arg(arg)) for kind, arg in pairs),
        part_bytes=tuple((part, stored[part]) for part in STORED_PARTS if part in stored),
    )
