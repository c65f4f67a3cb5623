"""A model's architecture from a ``config.json``, in a short code a link can carry.

A reader who pastes a ``config.json`` into a calculator should be able to share the scenario
as a link, without the file. The link cannot hold the whole config (a few kilobytes of mostly
irrelevant keys), so it holds the architecture fields :func:`~roofline_core.models.hf_config.from_hf_config`
reads, each under a short name, e.g. for Llama 3.1 8B::

    t-llama.l-32.h-4096.a-32.k-8.f-14336.v-128256.te-0.n-meta-llama/Llama-3.1-8B

Grammar: ``name-value`` pairs joined by ``.``; the display name (``n``), if any, comes last and
runs to the end (it may hold dots). Lists are items joined by ``_``, a run of one item written
``item*count`` (Gemma 3's six-layer pattern is ``s*5_f_s*5_f...``); layer kinds are written
``f`` (full), ``s`` (sliding), ``c`` (chunked attention), ``g`` (linear attention), ``m`` (Mamba) and
``a`` (attention, in Granite and Jamba lists); Nemotron-H's block string is written with ``m``, ``a``, ``p``
and ``e`` for ``M``, ``*``, ``-`` and ``E``; DeepSeek-V4's ``compress_ratios`` with ``w``, ``c`` and ``h``
for 0, 4 and 128. Every character the code uses is
one a query string keeps as it is, so the code is what the address bar shows.

:func:`read_model_config` accepts either form (the JSON text or the code) and returns the code,
after checking that it describes a model, so a link and a paste are read the same way.
Standard library only: this runs in the browser in Pyodide.
"""

from __future__ import annotations

import json
import re
from typing import Any

from roofline_core.models.hf_config import ConfigError, from_hf_config, parse_config_text
from roofline_core.models.hybrid_config import (
    HYBRID_CODE_FIELDS,
    HYBRID_LAYER_KIND_CODES,
    KDA_KEYS,
    PATTERN_CODES,
    RATIO_CODES,
    kda_block,
)
from roofline_core.models.quantisation import NOTE_TEXTS, PARTS, SIXTEEN_BIT, STORED_PARTS, read_quantisation
from roofline_core.models.safetensors import SafetensorsError, read_safetensors_index

#: config.json key -> (short name, kind). Kinds: ``int``, ``bool``, ``word`` (a model type),
#: ``kinds`` (a list of layer kinds), ``ints`` (a list of whole numbers). The keys are every
#: field :func:`~roofline_core.models.hf_config.from_hf_config` reads.
FIELDS: dict[str, tuple[str, str]] = {
    "model_type": ("t", "word"),
    "num_hidden_layers": ("l", "int"),
    "hidden_size": ("h", "int"),
    "num_attention_heads": ("a", "int"),
    "num_key_value_heads": ("k", "int"),
    "head_dim": ("d", "int"),
    "intermediate_size": ("f", "int"),
    "intermediate_size_mlp": ("fm", "int"),
    "vocab_size": ("v", "int"),
    "tie_word_embeddings": ("te", "bool"),
    "attention_bias": ("ab", "bool"),
    "use_sliding_window": ("us", "bool"),
    "sliding_window": ("w", "int"),
    "sliding_window_pattern": ("wp", "int"),
    "layer_types": ("lt", "kinds"),
    "attention_chunk_size": ("cs", "int"),
    "no_rope_layers": ("nr", "ints"),
    "num_local_experts": ("e", "int"),
    "num_experts": ("ne", "int"),
    "n_routed_experts": ("re", "int"),
    "num_experts_per_tok": ("ep", "int"),
    "n_shared_experts": ("se", "int"),
    "shared_expert_intermediate_size": ("sf", "int"),
    "moe_intermediate_size": ("mf", "int"),
    "decoder_sparse_step": ("ds", "int"),
    "mlp_only_layers": ("ml", "ints"),
    "first_k_dense_replace": ("fd", "int"),
    "interleave_moe_layer_step": ("is", "int"),
    "qk_nope_head_dim": ("qn", "int"),
    "qk_rope_head_dim": ("qr", "int"),
    "kv_lora_rank": ("kl", "int"),
    "q_lora_rank": ("ql", "int"),
    "v_head_dim": ("vh", "int"),
    # 2025-26 (non-hybrid) families: multi-token prediction, MiniMax-M2 and ERNIE 4.5 experts
    "num_nextn_predict_layers": ("np", "int"),
    "use_mtp": ("um", "bool"),
    "num_mtp_modules": ("mm", "int"),
    "mtp_transformer_layers": ("mt", "int"),
    "shared_intermediate_size": ("si", "int"),
    "use_bias": ("ub", "bool"),
    "moe_num_experts": ("me", "int"),
    "moe_k": ("mk", "int"),
    "moe_num_shared_experts": ("ms", "int"),
    "moe_layer_start_index": ("mb", "int"),
    "moe_layer_end_index": ("mz", "int"),
    "moe_layer_interval": ("mi", "int"),
    # Gemma 4: the full-attention layers' own shape, and its experts
    "global_head_dim": ("gh", "int"),
    "num_global_key_value_heads": ("gk", "int"),
    "attention_k_eq_v": ("kq", "bool"),
    "enable_moe_block": ("eb", "bool"),
    "top_k_experts": ("tk", "int"),
    "num_kv_shared_layers": ("ks", "int"),
    "hidden_size_per_layer_input": ("hp", "int"),
    # Gemma 3n: the per-layer embedding table, AltUp's streams and LAuReL's rank
    "vocab_size_per_layer_input": ("vp", "int"),
    "altup_num_inputs": ("an", "int"),
    "laurel_rank": ("lr", "int"),
    # Hunyuan-A13B: expert fields per layer, one value repeated
    "moe_topk": ("ht", "int"),
    "num_shared_expert": ("hs", "int"),
    "use_mixed_mlp_moe": ("hm", "bool"),
    # Hybrid, state-space and sparse-attention families (roofline_core.models.hybrid_config).
    **HYBRID_CODE_FIELDS,
}
#: The key of the weights' quantisation; a code carries its reading
#: (:meth:`roofline_core.models.quantisation.WeightQuantisation.to_config`) as the ``q`` pairs below,
#: so a link gives the same bytes per weight, the same 16-bit parts and the same notes.
QUANT_KEY = "quantization_config"
#: ``read_as`` key -> short name (``qm`` is the method).
QUANT_FIELDS: dict[str, str] = {
    "format": "qf",
    "bits": "qb",
    "group_size": "qg",
    "zero_points": "qz",
    "bytes_per_weight": "qw",
    "unquantised": "qk",
    "unquantised_dtype": "qd",
    "not_understood": "qu",
    "part_bytes": "qp",
}
_QUANT_METHOD = "qm"
_QUANT_OF_SHORT = {short: key for key, short in QUANT_FIELDS.items()}
#: Parts kept 16-bit, one letter each.
_PART_CODES = {"embedding": "e", "lm_head": "h", "attention": "a", "mlp": "m", "experts": "x"}
_PART_OF_CODE = {code: part for part, code in _PART_CODES.items()}
#: Parts whose exact stored bytes a code carries (``qp-e~1234_a~5678``): those above and the norms.
_STORED_CODES = {**_PART_CODES, SIXTEEN_BIT: "n"}
_STORED_OF_CODE = {code: part for part, code in _STORED_CODES.items()}
_QUANT_WORD = re.compile(r"[a-z0-9][a-z0-9-]{0,39}")
_NOTE_ARG = re.compile(r"[a-z0-9-]{0,40}")
_BYTES = re.compile(r"\d{1,2}p\d{1,20}")
#: The display name's key and short name; it is written last because it may hold dots.
NAME_KEY, NAME_SHORT = "_name_or_path", "n"
#: Longest code read (a real model's is under 300 characters; Gemma 3's layer list is the longest).
MAX_CODE_CHARS = 4000
#: Longest display name kept.
MAX_NAME_CHARS = 120

_KEY_OF_SHORT = {short: key for key, (short, _) in FIELDS.items()}
_LAYER_KIND_CODES = {
    "full_attention": "f",
    "sliding_attention": "s",
    "chunked_attention": "c",
    **HYBRID_LAYER_KIND_CODES,
}
_LAYER_KIND_OF_CODE = {code: kind for kind, code in _LAYER_KIND_CODES.items()}
_WORD = re.compile(r"[a-z][a-z0-9_]{0,39}")
_CODE_START = re.compile(r"[a-z]{1,2}-")
_WHOLE = re.compile(r"\d{1,15}")
# Name characters a query string keeps as they are (plus "/", which it escapes but which model
# names need); anything else becomes "-".
_NAME_UNSAFE = re.compile(r"[^A-Za-z0-9._/-]")


def architecture_of(config: dict) -> dict[str, Any]:
    """The fields of ``config`` that shape the model, multimodal wrapper unwrapped.

    Raises:
        ConfigError: if the config is not an object or its ``text_config`` is not one.
    """
    if not isinstance(config, dict):
        raise ConfigError(f"the config is a {type(config).__name__}; expected a JSON object")
    text = config.get("text_config")
    if text is not None and not isinstance(text, dict):
        raise ConfigError("field 'text_config' is not an object; expected the language model's config")
    source = config if text is None else text
    # An absent field, null and an empty list all mean "not set" to the reader.
    fields = {key: source[key] for key in FIELDS if source.get(key) is not None and source[key] != []}
    for key, value in fields.items():
        if FIELDS.get(key, ("", ""))[1] == "int" and isinstance(value, list) and value:
            # Hunyuan repeats an expert field per layer: one value stands for all (a list that
            # varies is left as it is, for the reader to refuse by name).
            if all(item == value[0] and type(item) is type(value[0]) for item in value):
                fields[key] = value[0]
    if fields.get("moe_layer_end_index") == -1:
        del fields["moe_layer_end_index"]  # ERNIE's "to the last layer", the same as leaving it out
    if "linear_attn_config" in fields:
        fields["linear_attn_config"] = kda_block(fields["linear_attn_config"])
    if text is not None and config.get("model_type") is not None and "model_type" not in fields:
        # The inner model_type names the text model; without one, the wrapper's names the family.
        fields["model_type"] = config["model_type"]
    block = config.get(QUANT_KEY, source.get(QUANT_KEY))
    if block is not None:
        # Kept as read, not as written: the reading is what the numbers use and what a link carries.
        dtype = config.get("torch_dtype", source.get("torch_dtype"))
        fields[QUANT_KEY] = read_quantisation(block, torch_dtype=dtype).to_config()
    name = config.get(NAME_KEY)
    if isinstance(name, str) and name.strip():
        fields[NAME_KEY] = name.strip()
    return fields


def encode(fields: dict[str, Any]) -> str:
    """The short code of ``fields`` (as :func:`architecture_of` returns them).

    Raises:
        ConfigError: for a value the code cannot hold (a field of the wrong type).
    """
    pairs = []
    for key, (short, kind) in FIELDS.items():
        if fields.get(key) is not None:
            pairs.append(f"{short}-{_encode_value(key, kind, fields[key])}")
    if fields.get(QUANT_KEY) is not None:
        pairs += _encode_quantisation(fields[QUANT_KEY])
    name = fields.get(NAME_KEY)
    if isinstance(name, str) and name:
        pairs.append(f"{NAME_SHORT}-{_NAME_UNSAFE.sub('-', name)[:MAX_NAME_CHARS]}")
    return ".".join(pairs)


def _encode_quantisation(block: Any) -> list[str]:
    """The ``q`` pairs of a quantisation reading (any ``quantization_config`` is read first)."""
    reading = read_quantisation(block).to_config()
    read = reading["read_as"]
    pairs = [f"{_QUANT_METHOD}-{reading['quant_method']}", f"qf-{read['format'] or 'none'}"]
    pairs += [f"qb-{read['bits']}", f"qg-{read['group_size']}", f"qz-{1 if read['zero_points'] else 0}"]
    # repr() of a float reads back as the same float; "." separates pairs, so it becomes "p".
    pairs.append(f"qw-{repr(float(read['bytes_per_weight'])).replace('.', 'p')}")
    if read["unquantised"]:
        pairs.append("qk-" + "_".join(_PART_CODES[part] for part in read["unquantised"]))
    pairs.append(f"qd-{read['unquantised_dtype']}")
    if read["not_understood"]:
        pairs.append("qu-" + "_".join(f"{kind}~{arg}" for kind, arg in read["not_understood"]))
    if read.get("part_bytes"):
        stored = read["part_bytes"]
        pairs.append(
            "qp-" + "_".join(f"{_STORED_CODES[part]}~{stored[part]}" for part in STORED_PARTS if part in stored)
        )
    return pairs


def _encode_value(key: str, kind: str, value: Any) -> str:
    if kind == "bool":
        if not isinstance(value, bool):
            raise ConfigError(f"field '{key}' is {value!r}; expected true or false")
        return "1" if value else "0"
    if kind == "word":
        if not isinstance(value, str) or not _WORD.fullmatch(value):
            raise ConfigError(f"field '{key}' is {value!r}; expected a model type such as 'llama'")
        return value
    if kind == "int":
        return _whole_text(key, value)
    if kind == "rank":
        return "auto" if value == "auto" else _whole_text(key, value)
    if kind == "pattern":
        if not isinstance(value, str) or not value or set(value) - set(PATTERN_CODES):
            raise ConfigError(f"field '{key}' is {value!r}; expected a string of M, *, - and E")
        return "".join(PATTERN_CODES[c] for c in value)
    if kind == "ratios":
        if not isinstance(value, list) or not value or any(isinstance(r, bool) or r not in RATIO_CODES for r in value):
            raise ConfigError(f"field '{key}' is {str(value)[:40]}; expected a list of 0, 4 and 128")
        return "".join(RATIO_CODES[r] for r in value)
    if kind == "kda":
        block = kda_block(value)
        head = [_whole_text(f"{key}.{k}", block.get(k, 0)) for k in KDA_KEYS]
        layers = block.get("kda_layers") or []
        if not isinstance(layers, list):
            raise ConfigError(f"field '{key}.kda_layers' is {type(layers).__name__}; expected a list")
        return "_".join(head + [_whole_text(f"{key}.kda_layers", n) for n in layers])
    if not isinstance(value, list):
        raise ConfigError(f"field '{key}' is {type(value).__name__}; expected a list")
    if kind == "kinds":
        items = []
        for item in value:
            if item not in _LAYER_KIND_CODES:
                raise ConfigError(f"field '{key}' holds {item!r}; expected one of {', '.join(_LAYER_KIND_CODES)}")
            items.append(_LAYER_KIND_CODES[item])
    else:
        items = [_whole_text(key, item) for item in value]
    return _runs(items)


def _whole_text(key: str, value: Any) -> str:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value or value < 0:
        raise ConfigError(f"field '{key}' is {value!r}; expected a whole number >= 0")
    # The size first: int() of an infinity (a JSON 1e999) raises OverflowError.
    if value >= 10**15 or value != int(value):
        raise ConfigError(f"field '{key}' is {value!r}; expected a whole number below 10^15")
    return str(int(value))


def _runs(items: list[str]) -> str:
    """``["s", "s", "f"]`` -> ``"s*2_f"``."""
    parts: list[str] = []
    index = 0
    while index < len(items):
        end = index
        while end < len(items) and items[end] == items[index]:
            end += 1
        count = end - index
        parts.append(items[index] if count == 1 else f"{items[index]}*{count}")
        index = end
    return "_".join(parts)


def decode(code: str) -> dict[str, Any]:
    """The fields a short code holds (the inverse of :func:`encode`).

    Raises:
        ConfigError: naming the part of the code that is wrong.
    """
    if len(code) > MAX_CODE_CHARS:
        raise ConfigError(f"the model code has {len(code):,} characters; expected at most {MAX_CODE_CHARS:,}")
    fields: dict[str, Any] = {}
    rest = code.strip()
    while rest:
        short, dash, after = rest.partition("-")
        if not dash:
            raise ConfigError(f"the model code part {rest[:40]!r} has no '-'; expected name-value pairs joined by '.'")
        if short == NAME_SHORT:
            fields[NAME_KEY] = after[:MAX_NAME_CHARS]
            break
        text, _, rest = after.partition(".")
        if short == _QUANT_METHOD or short in _QUANT_OF_SHORT:
            _decode_quantisation(fields, short, text)
            continue
        key = _KEY_OF_SHORT.get(short)
        if key is None:
            raise ConfigError(f"the model code names {short[:20]!r}; expected one of {', '.join(_KEY_OF_SHORT)}")
        if key in fields:
            raise ConfigError(f"the model code gives {short!r} twice; expected each once")
        fields[key] = _decode_value(key, FIELDS[key][1], text)
    _finish_quantisation(fields)
    return fields


def _decode_quantisation(fields: dict[str, Any], short: str, text: str) -> None:
    """Put one ``q`` pair into ``fields[QUANT_KEY]`` (a reading, as ``to_config`` writes it)."""
    block = fields.setdefault(QUANT_KEY, {"quant_method": "unknown", "read_as": {}})
    read = block["read_as"]
    key = "quant_method" if short == _QUANT_METHOD else _QUANT_OF_SHORT[short]
    if key in read or (key == "quant_method" and block.get("_seen")):
        raise ConfigError(f"the model code gives {short!r} twice; expected each once")
    if key == "quant_method":
        if not _QUANT_WORD.fullmatch(text):
            raise ConfigError(f"the model code's {short!r} is {text[:20]!r}; expected a method such as 'awq'")
        block["quant_method"], block["_seen"] = text, True
    elif key == "format":
        read[key] = None if text == "none" else text  # checked by read_quantisation
    elif key in ("bits", "group_size"):
        read[key] = _whole(short, text)
    elif key == "zero_points":
        if text not in ("0", "1"):
            raise ConfigError(f"the model code's {short!r} is {text[:20]!r}; expected 0 or 1")
        read[key] = text == "1"
    elif key == "bytes_per_weight":
        if not _BYTES.fullmatch(text):
            raise ConfigError(f"the model code's {short!r} is {text[:20]!r}; expected bytes such as 0p5")
        read[key] = float(text.replace("p", "."))
    elif key == "unquantised":
        codes = text.split("_")
        if not all(code in _PART_OF_CODE for code in codes):
            raise ConfigError(f"the model code's {short!r} is {text[:20]!r}; expected letters among e, h, a, m, x")
        read[key] = [part for part in PARTS if _PART_CODES[part] in codes]
    elif key == "unquantised_dtype":
        read[key] = text  # checked by read_quantisation
    elif key == "part_bytes":
        stored = {}
        for item in text.split("_"):
            code, _, size = item.partition("~")
            if code not in _STORED_OF_CODE or _STORED_OF_CODE[code] in stored:
                raise ConfigError(
                    f"the model code's {short!r} holds {item[:20]!r}; expected part~bytes, parts e h a m x n"
                )
            stored[_STORED_OF_CODE[code]] = _whole(short, size)
        read[key] = stored
    else:
        notes = []
        for item in text.split("_"):
            kind, _, arg = item.partition("~")
            if kind not in NOTE_TEXTS or not _NOTE_ARG.fullmatch(arg):
                raise ConfigError(f"the model code's {short!r} holds {item[:20]!r}; expected kind~text notes")
            notes.append([kind, arg])
        read[key] = notes


def _finish_quantisation(fields: dict[str, Any]) -> None:
    """Check the ``q`` pairs of a code as the config reader would (wrong values named)."""
    block = fields.get(QUANT_KEY)
    if block is None:
        return
    block.pop("_seen", None)
    if "format" not in block["read_as"]:
        raise ConfigError("the model code has q pairs without 'qf'; expected the weight format")
    # Checked, and written as a paste's reading is (every key, in order).
    fields[QUANT_KEY] = read_quantisation(block).to_config()


def _decode_value(key: str, kind: str, text: str) -> Any:
    short = FIELDS[key][0]
    if kind == "bool":
        if text not in ("0", "1"):
            raise ConfigError(f"the model code's {short!r} is {text[:20]!r}; expected 0 or 1")
        return text == "1"
    if kind == "word":
        if not _WORD.fullmatch(text):
            raise ConfigError(f"the model code's {short!r} is {text[:20]!r}; expected a model type such as 'llama'")
        return text
    if kind == "int":
        return _whole(short, text)
    if kind == "rank":
        return "auto" if text == "auto" else _whole(short, text)
    if kind == "pattern":
        letters = {code: letter for letter, code in PATTERN_CODES.items()}
        if not text or len(text) > 10_000 or set(text) - set(letters):
            raise ConfigError(f"the model code's {short!r} is {text[:20]!r}; expected letters m, a, p and e")
        return "".join(letters[c] for c in text)
    if kind == "ratios":
        ratios = {code: ratio for ratio, code in RATIO_CODES.items()}
        if not text or len(text) > 10_000 or set(text) - set(ratios):
            raise ConfigError(f"the model code's {short!r} is {text[:20]!r}; expected letters w, c and h")
        return [ratios[c] for c in text]
    if kind == "kda":
        numbers = [_whole(short, part) for part in text.split("_")]
        if len(numbers) < len(KDA_KEYS) or len(numbers) > 10_000:
            raise ConfigError(f"the model code's {short!r} is {text[:20]!r}; expected heads, width, kernel and layers")
        block: dict[str, Any] = dict(zip(KDA_KEYS, numbers, strict=False))
        block = {k: v for k, v in block.items() if v}
        block["kda_layers"] = numbers[len(KDA_KEYS) :]
        return block
    items: list[Any] = []
    for part in text.split("_") if text else []:
        item, star, count_text = part.partition("*")
        count = _whole(short, count_text) if star else 1
        if not 1 <= count <= 10_000 or len(items) + count > 10_000:
            raise ConfigError(f"the model code's {short!r} repeats {count:,} times; expected at most 10,000 items")
        if kind == "kinds":
            if item not in _LAYER_KIND_OF_CODE:
                raise ConfigError(
                    f"the model code's {short!r} holds {item[:20]!r}; expected one of {', '.join(_LAYER_KIND_OF_CODE)}"
                )
            items += [_LAYER_KIND_OF_CODE[item]] * count
        else:
            items += [_whole(short, item)] * count
    return items


def _whole(short: str, text: str) -> int:
    if not _WHOLE.fullmatch(text):
        raise ConfigError(f"the model code's {short!r} is {text[:20]!r}; expected a whole number")
    return int(text)


def read_model_config(text: str) -> tuple[str, dict[str, Any]]:
    """The code and the fields of a pasted ``config.json`` or of a code from a link.

    Text starting with ``{`` is read as JSON, anything else as a code. Either way the fields
    must describe a model :func:`~roofline_core.models.hf_config.from_hf_config` can build.

    Raises:
        ConfigError: saying what is wrong, for the reader who pasted it.
    """
    stripped = text.strip() if isinstance(text, str) else ""
    if not stripped:
        raise ConfigError("nothing pasted yet; expected the text of a model's config.json")
    if stripped.startswith("{"):
        parsed = parse_config_text(stripped)
        if "weight_map" in parsed and "model_type" not in parsed:
            raise ConfigError(_index_instead(stripped))
        fields = architecture_of(parsed)
    elif _CODE_START.match(stripped):
        fields = decode(stripped)
    else:
        raise ConfigError(
            f"{stripped[:30]!r} is neither JSON nor a model code from a link; expected the text of a model's config.json"
        )
    from_hf_config(fields)  # raises ConfigError naming what is missing or out of range
    return encode(fields), fields


def _index_instead(text: str) -> str:
    """The sentence for a pasted ``model.safetensors.index.json``: what it says (its exact stored
    bytes, ``metadata.total_size``), and that the shape comes from the config.json beside it."""
    try:
        index = read_safetensors_index(text)
    except SafetensorsError as error:
        return f"this looks like a model.safetensors.index.json, but {error}"
    stored = "no total_size" if index.total_size is None else f"{index.total_size:,} bytes stored (metadata.total_size)"
    return (
        f"this is a model.safetensors.index.json: {len(index.weight_map):,} tensors in "
        f"{len(index.shards):,} file{'' if len(index.shards) == 1 else 's'}, {stored}, but no shape; "
        "expected the config.json beside it, "
        "which gives the model's layers and widths"
    )


def model_from_code(code: str, **identity: Any) -> Any:
    """The :class:`~roofline_core.models.model.Model` a code describes (``identity``: slug, name, ...)."""
    return from_hf_config(decode(code), **identity)


def pretty_json(fields: dict[str, Any]) -> str:
    """The fields as an indented JSON object, the way a ``config.json`` reads."""
    return json.dumps(fields, indent=2)
