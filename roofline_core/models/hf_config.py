"""Build a :class:`~roofline_core.models.model.Model` from a Hugging Face ``config.json``.

One path for every model: the presets are stored as the architecture fields of their published
configs and loaded through :func:`from_hf_config`, exactly as a reader's pasted config is.

Field names follow the Hugging Face ``transformers`` configuration classes of each family
(``LlamaConfig``, ``Qwen2MoeConfig``, ``DeepseekV3Config``, ``Gemma3TextConfig``,
``GptOssConfig``, ``Llama4TextConfig``, ...). Where a family applies a default the file omits
(Gemma ties its embeddings; Gemma 2 slides every other layer), the default is the one those
classes document. Standard library only: this runs in the browser in Pyodide.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import replace
from typing import Any

from roofline_core.hardware.block_formats import BLOCK_FORMATS
from roofline_core.models.config_error import ConfigError
from roofline_core.models.hybrid_config import HYBRID_MODEL_TYPES, NO_DENSE_WIDTH, read_hybrid
from roofline_core.models.model import GQA, MHA, MLA, Model
from roofline_core.models.quantisation import EXPERTS, read_quantisation
from roofline_core.sources import Source

#: Largest values a field may take: bigger than any published model by an order of magnitude,
#: small enough that a typo (or a hostile file) cannot make the arithmetic absurd.
FIELD_LIMITS: dict[str, int] = {
    "num_hidden_layers": 2_000,
    "hidden_size": 262_144,
    "num_attention_heads": 4_096,
    "num_key_value_heads": 4_096,
    "head_dim": 16_384,
    "intermediate_size": 4_194_304,
    "vocab_size": 16_777_216,
    "experts": 65_536,
    "window": 1 << 40,
}

#: Largest config text accepted, in characters (real ones are a few kilobytes).
MAX_CONFIG_CHARS = 1_000_000
#: Deepest nesting of objects and lists accepted. Real configs nest at most 4 levels (a
#: ``text_config`` holding a ``rope_scaling`` object); the JSON reader recurses once per level,
#: and in Pyodide a few thousand levels overflow the WebAssembly stack, a fatal error no
#: ``except`` sees, so the depth is measured before the text reaches the reader.
MAX_JSON_DEPTH = 32
#: Most digits in one run of a number: no architecture field needs more than 15, and ``int()``
#: (which the JSON reader calls) refuses strings of over 4,300 digits with a bare ValueError.
MAX_NUMBER_DIGITS = 100

#: Gemma 3n's text model, alone or inside its multimodal wrapper.
_GEMMA_3N = ("gemma3n", "gemma3n_text")
_GEMMA_FAMILY = ("gemma", "gemma2", "gemma3", "gemma3_text", *_GEMMA_3N)

# What the pre-scan steps on: a bracket, a string (skipped whole; one that never closes stops
# at the line's end, which no valid string crosses), or the start of an over-long digit run.
# The alternatives share no first character and none can backtrack into another, so the scan
# is linear in the text's length.
_JSON_TOKEN = re.compile(rf'[\[{{]|[\]}}]|"(?:[^"\\\n]|\\.)*"?|(?<!\d)\d{{{MAX_NUMBER_DIGITS + 1},}}')


def _line_of(text: str, index: int) -> int:
    return text.count("\n", 0, index) + 1


def check_json_shape(text: str) -> None:
    """Refuse JSON nested deeper than :data:`MAX_JSON_DEPTH` or holding a number longer than
    :data:`MAX_NUMBER_DIGITS` digits, before any JSON reader sees it (one linear pass).

    >>> check_json_shape('{"a": [[1]], "b": "[[[["}')
    >>> check_json_shape('{"a": ' + '[' * 40 + ']' * 40 + '}')
    Traceback (most recent call last):
        ...
    roofline_core.models.config_error.ConfigError: line 1: the JSON is nested 41 levels deep; expected at most 32 levels (a config.json has 4)

    Raises:
        ConfigError: naming the line of the first bracket past the limit, or of the number.
    """
    depth = deepest = 0
    first_too_deep = -1
    for token in _JSON_TOKEN.finditer(text):
        first = token.group()[0]
        if first in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if depth == MAX_JSON_DEPTH + 1:
                    first_too_deep = token.start()
        elif first in "]}":
            depth = max(depth - 1, 0)
        elif first != '"':
            digits = len(token.group())
            raise ConfigError(
                f"line {_line_of(text, token.start())}: a number of {digits:,} digits; "
                f"expected at most {MAX_NUMBER_DIGITS} digits"
            )
    if first_too_deep >= 0:
        raise ConfigError(
            f"line {_line_of(text, first_too_deep)}: the JSON is nested {deepest:,} levels deep; "
            f"expected at most {MAX_JSON_DEPTH} levels (a config.json has 4)"
        )


def parse_config_text(text: str) -> dict:
    """The JSON object in ``text``.

    Raises:
        ConfigError: for text that is not a JSON object, naming the line and column of a syntax
            error, or the line where it nests too deeply or holds a number too long to read.
    """
    if not isinstance(text, str) or not text.strip():
        raise ConfigError("the config is empty; expected the text of a config.json")
    if len(text) > MAX_CONFIG_CHARS:
        raise ConfigError(f"the config has {len(text):,} characters; expected a config.json (a few kilobytes)")
    check_json_shape(text)
    try:
        value = json.loads(text)
    except json.JSONDecodeError as error:
        raise ConfigError(f"line {error.lineno}, column {error.colno}: {error.msg}; expected valid JSON") from None
    except (ValueError, RecursionError):
        # The pre-scan should leave nothing for these; a reader's paste still gets a message.
        raise ConfigError("the JSON cannot be read; expected a config.json") from None
    if not isinstance(value, dict):
        raise ConfigError(f"the JSON is a {type(value).__name__}, not an object; expected a config.json")
    return value


class _Fields:
    """Typed access to a config's fields, each failure a :class:`ConfigError` naming the field."""

    def __init__(self, config: dict) -> None:
        self.config = config

    def has(self, key: str) -> bool:
        return self.config.get(key) is not None

    def whole(self, key: str, *, limit: str | None = None, default: int | None = None, minimum: int = 1) -> int:
        value = self.config.get(key)
        if value is None:
            if default is not None:
                return default
            raise ConfigError(f"field '{key}' is missing; expected a whole number >= {minimum}")
        if (
            isinstance(value, bool)
            or not isinstance(value, (int, float))
            or not math.isfinite(value)
            or value != int(value)
        ):
            raise ConfigError(f"field '{key}' is {value!r}; expected a whole number >= {minimum}")
        value = int(value)
        if value < minimum:
            raise ConfigError(f"field '{key}' is {value}; expected a whole number >= {minimum}")
        top = FIELD_LIMITS.get(limit or key)
        if top is not None and value > top:
            raise ConfigError(f"field '{key}' is {value:,}; expected at most {top:,}")
        return value

    def flag(self, key: str, default: bool) -> bool:
        value = self.config.get(key)
        if value is None:
            return default
        if not isinstance(value, bool):
            raise ConfigError(f"field '{key}' is {value!r}; expected true or false")
        return value

    def list_of(self, key: str) -> list | None:
        value = self.config.get(key)
        if value is None:
            return None
        if not isinstance(value, list):
            raise ConfigError(f"field '{key}' is {type(value).__name__}; expected a list")
        return value


def _text_part(config: dict) -> dict:
    """The language model's fields: a multimodal config keeps them under ``text_config``."""
    text = config.get("text_config")
    if text is None:
        return config
    if not isinstance(text, dict):
        raise ConfigError("field 'text_config' is not an object; expected the language model's config")
    # The outer model_type names the wrapper (gemma3, llama4); the inner one, if any, the text model.
    return {**text, "model_type": text.get("model_type") or config.get("model_type")}


def _attention_shape(f: _Fields) -> tuple[int, int, int, int, int, str]:
    """``(layers, hidden, heads, kv_heads, head_dim)`` plus the attention kind (MHA or GQA)."""
    layers = f.whole("num_hidden_layers")
    hidden = f.whole("hidden_size")
    heads = f.whole("num_attention_heads")
    kv_heads = f.whole("num_key_value_heads", limit="num_key_value_heads", default=heads)
    if kv_heads > heads or heads % kv_heads:
        raise ConfigError(
            f"field 'num_key_value_heads' is {kv_heads}; expected a divisor of num_attention_heads ({heads})"
        )
    if f.has("head_dim"):
        # An explicit head width wins: Gemma, Llama 3.2 and Qwen3 set it apart from hidden/heads.
        head_dim = f.whole("head_dim")
    elif f.has("kv_lora_rank") and f.has("qk_nope_head_dim"):
        # Latent attention gives its head widths itself (Kimi K3: 7,168 wide, 96 heads).
        head_dim = f.whole("qk_nope_head_dim", limit="head_dim")
    else:
        if hidden % heads:
            raise ConfigError(
                f"field 'hidden_size' ({hidden}) is not a multiple of num_attention_heads ({heads}); "
                "expected head_dim to be given"
            )
        head_dim = hidden // heads
    return layers, hidden, heads, kv_heads, head_dim, (MHA if kv_heads == heads else GQA)


def _sliding_from_layer_types(f: _Fields, layers: int) -> int | None:
    """Sliding layers counted from ``layer_types`` (None if the config has none)."""
    kinds = f.list_of("layer_types")
    if kinds is None:
        return None
    if len(kinds) != layers:
        raise ConfigError(f"field 'layer_types' lists {len(kinds)} layers; expected num_hidden_layers ({layers})")
    unknown = sorted({str(k) for k in kinds} - {"full_attention", "sliding_attention", "chunked_attention"})
    if unknown:
        raise ConfigError(
            f"field 'layer_types' holds {unknown[0]!r}; expected full_attention, sliding_attention or chunked_attention"
        )
    return sum(kind != "full_attention" for kind in kinds)


def _sliding(f: _Fields, model_type: str, layers: int) -> tuple[int, int]:
    """``(sliding_window, sliding_layers)`` as each family applies its window."""
    if model_type in ("qwen2", "qwen2_moe", "qwen3", "qwen3_moe") and not f.flag("use_sliding_window", False):
        return 0, 0  # Qwen configs carry a window they do not use unless use_sliding_window is set
    if not f.has("sliding_window"):
        return 0, 0
    window = f.whole("sliding_window", limit="window")
    counted = _sliding_from_layer_types(f, layers)
    if counted is not None:
        return window, counted
    if model_type == "gemma2":
        return window, (layers + 1) // 2  # every other layer, starting with the first
    if model_type in ("gemma3", "gemma3_text"):
        pattern = f.whole("sliding_window_pattern", default=6)
        return window, layers - layers // pattern  # every pattern-th layer is global
    if model_type in _GEMMA_3N:
        return window, layers - layers // 5  # Gemma3nTextConfig: four sliding layers, then a full one
    return window, layers  # Mistral v0.1, Phi-3: the window applies to every layer


def _llama4_chunked(f: _Fields, layers: int) -> tuple[int, int]:
    """Llama 4 attends within chunks on its rotary layers; the rest (every fourth) is global."""
    if not f.has("attention_chunk_size"):
        return 0, 0
    chunk = f.whole("attention_chunk_size", limit="window")
    flags = f.list_of("no_rope_layers")
    if flags:
        if len(flags) != layers:
            raise ConfigError(f"field 'no_rope_layers' lists {len(flags)} layers; expected {layers}")
        chunked = sum(bool(x) for x in flags)
    else:
        chunked = layers - layers // 4
    return chunk, chunked


def _moe(f: _Fields, model_type: str, layers: int, hidden_ffn: int) -> dict[str, int]:
    """Expert fields of a mixture-of-experts config (empty for a dense one)."""
    if model_type in ("mixtral", "gpt_oss"):
        experts = f.whole("num_local_experts", limit="experts")
        per_token = f.whole("num_experts_per_tok", limit="experts")
        return {"experts": experts, "experts_per_token": per_token, "moe_ffn_size": hidden_ffn}
    if model_type in ("qwen2_moe", "qwen3_moe"):
        step = f.whole("decoder_sparse_step", default=1)
        dense_only = f.list_of("mlp_only_layers") or []
        moe_layers = sum(1 for i in range(layers) if i not in dense_only and (i + 1) % step == 0)
        shared_width = f.whole("shared_expert_intermediate_size", limit="intermediate_size", default=0, minimum=0)
        return {
            "experts": f.whole("num_experts", limit="experts"),
            "experts_per_token": f.whole("num_experts_per_tok", limit="experts"),
            "moe_ffn_size": f.whole("moe_intermediate_size", limit="intermediate_size"),
            "dense_layers": layers - moe_layers,
            "shared_experts": 1 if shared_width else 0,
            "shared_expert_ffn_size": shared_width,
        }
    if model_type in ("deepseek_v2", "deepseek_v3", "kimi_k2", "deepseek_v32", "glm_moe_dsa", "deepseek_v4"):
        first_dense = f.whole("first_k_dense_replace", default=0, minimum=0)
        return {
            "experts": f.whole("n_routed_experts", limit="experts"),
            "experts_per_token": f.whole("num_experts_per_tok", limit="experts"),
            "moe_ffn_size": f.whole("moe_intermediate_size", limit="intermediate_size"),
            "shared_experts": f.whole("n_shared_experts", limit="experts", default=0, minimum=0),
            "dense_layers": min(first_dense, layers),
        }
    if model_type in ("llama4", "llama4_text"):
        step = f.whole("interleave_moe_layer_step", default=1)
        moe_layers = layers // step
        return {
            "experts": f.whole("num_local_experts", limit="experts"),
            "experts_per_token": f.whole("num_experts_per_tok", limit="experts"),
            "moe_ffn_size": hidden_ffn,
            "shared_experts": 1,  # every Llama 4 MoE layer adds one shared expert of the same width
            "dense_layers": layers - moe_layers,
        }
    return _moe_2026(f, model_type, layers, hidden_ffn)


def _build(config: dict, model_type: str) -> dict[str, Any]:
    f = _Fields(config)
    layers, hidden, heads, kv_heads, head_dim, attention = _attention_shape(f)
    if model_type in _GEMMA_3N:
        # MatFormer configs list a width per layer; the released E2B and E4B repeat one.
        ffn = _uniform(f, "intermediate_size", layers, limit="intermediate_size")
    else:
        ffn = f.whole("intermediate_size", default=0 if model_type in NO_DENSE_WIDTH else None)
    fields: dict[str, Any] = {
        "layers": layers,
        "hidden_size": hidden,
        "heads": heads,
        "kv_heads": kv_heads,
        "head_dim": head_dim,
        "ffn_size": ffn,
        "vocab_size": f.whole("vocab_size"),
        "tied_embeddings": f.flag("tie_word_embeddings", model_type in _GEMMA_FAMILY),
        "attention": attention,
    }
    bias = f.flag("attention_bias", False)
    fields["qkv_bias"] = bias or model_type == "qwen2" or model_type == "qwen2_moe"  # Qwen2 always biases q, k, v
    fields["out_bias"] = bias
    moe = _moe(f, model_type, layers, ffn)
    if model_type in ("llama4", "llama4_text"):
        fields["ffn_size"] = f.whole("intermediate_size_mlp", limit="intermediate_size", default=ffn)
        fields["sliding_window"], fields["sliding_layers"] = _llama4_chunked(f, layers)
    elif model_type in HYBRID_MODEL_TYPES:
        pass  # their layer plan, windows included, is read below (hybrid_config)
    else:
        fields["sliding_window"], fields["sliding_layers"] = _sliding(f, model_type, layers)
    if model_type in ("deepseek_v2", "deepseek_v3", "kimi_k2", "deepseek_v32", "glm_moe_dsa", "kimi_linear"):
        fields.update(
            attention=MLA,
            kv_heads=heads,
            head_dim=f.whole("qk_nope_head_dim"),
            mla_latent_dim=f.whole("kv_lora_rank"),
            mla_rope_dim=f.whole("qk_rope_head_dim"),
            mla_q_latent_dim=f.whole("q_lora_rank", default=0, minimum=0),
            mla_v_head_dim=f.whole("v_head_dim"),
        )
    fields.update(moe)
    _refine_2026(f, model_type, fields)
    if model_type in HYBRID_MODEL_TYPES:
        fields.update(read_hybrid(f, model_type, fields))
    return fields


# 2025-26 model types, chunked attention, sinks and multi-token prediction ----------------------
# Kept apart from the families above so each reads as one block. Field names follow each
# family's transformers configuration class (Glm4MoeConfig, MiniMaxM2Config, MiMoConfig,
# Ernie4_5_MoeConfig, SmolLM3Config, Olmo2Config, Olmo3Config, Ministral3Config).

#: Families whose MoE fields are DeepSeek's (``n_routed_experts``, ``first_k_dense_replace``)
#: around grouped-query attention instead of MLA.
_DEEPSEEK_STYLE_MOE = ("glm4_moe",)
#: Gemma 4's text model, alone or inside its multimodal wrapper.
_GEMMA_4 = ("gemma4", "gemma4_text")
#: Families whose ``attention_bias`` covers the query, key and value projections only (the output
#: projection never has one): GLM-4.5's and MiMo's (Qwen2-style) attention.
_QKV_ONLY_BIAS = ("glm4_moe", "mimo")


def _moe_2026(f: _Fields, model_type: str, layers: int, hidden_ffn: int) -> dict[str, int]:
    """Expert fields of the 2025-26 MoE families (empty for a dense one)."""
    if model_type in _DEEPSEEK_STYLE_MOE:
        return {
            "experts": f.whole("n_routed_experts", limit="experts"),
            "experts_per_token": f.whole("num_experts_per_tok", limit="experts"),
            "moe_ffn_size": f.whole("moe_intermediate_size", limit="intermediate_size"),
            "shared_experts": f.whole("n_shared_experts", limit="experts", default=0, minimum=0),
            "dense_layers": min(f.whole("first_k_dense_replace", default=0, minimum=0), layers),
        }
    if model_type == "minimax_m2":
        # Every layer is a MoE layer; intermediate_size is one expert's width.
        shared = f.whole("shared_intermediate_size", limit="intermediate_size", default=0, minimum=0)
        return {
            "experts": f.whole("num_local_experts", limit="experts"),
            "experts_per_token": f.whole("num_experts_per_tok", limit="experts"),
            "moe_ffn_size": hidden_ffn,
            "shared_experts": 1 if shared else 0,
            "shared_expert_ffn_size": shared,
        }
    if model_type in _GEMMA_4 and f.flag("enable_moe_block", False):
        # Gemma 4 26B-A4B: every layer keeps its dense MLP (intermediate_size) beside the
        # experts, which is what a shared expert of that width counts.
        return {
            "experts": f.whole("num_experts", limit="experts"),
            "experts_per_token": f.whole("top_k_experts", limit="experts"),
            "moe_ffn_size": f.whole("moe_intermediate_size", limit="intermediate_size"),
            "shared_experts": 1,
            "shared_expert_ffn_size": hidden_ffn,
        }
    if model_type == "hunyuan_v1_moe":
        # Hunyuan-A13B gives its expert fields per layer; every layer keeps a shared MLP
        # (use_mixed_mlp_moe) of num_shared_expert x intermediate_size.
        shared = _uniform(f, "num_shared_expert", layers, minimum=0) if f.flag("use_mixed_mlp_moe", True) else 0
        return {
            "experts": _uniform(f, "num_experts", layers, limit="experts"),
            "experts_per_token": _uniform(f, "moe_topk", layers, limit="experts"),
            "moe_ffn_size": _uniform(f, "moe_intermediate_size", layers, limit="intermediate_size")
            if f.has("moe_intermediate_size")
            else hidden_ffn,
            "shared_experts": shared,
            "shared_expert_ffn_size": hidden_ffn if shared else 0,
        }
    if model_type == "ernie4_5_moe":
        # Experts on layers start..end (end -1: the last) every interval-th; the shared experts
        # are one MLP moe_num_shared_experts times an expert's width (Ernie4_5_MoeSparseMoeBlock).
        start = f.whole("moe_layer_start_index", default=0, minimum=0)
        end_raw = f.config.get("moe_layer_end_index")
        end = layers - 1 if end_raw in (None, -1) else f.whole("moe_layer_end_index", minimum=0)
        step = f.whole("moe_layer_interval", default=1)
        moe_layers = sum(1 for i in range(layers) if start <= i <= end and (i + 1) % step == 0)
        return {
            "experts": f.whole("moe_num_experts", limit="experts"),
            "experts_per_token": f.whole("moe_k", limit="experts"),
            "moe_ffn_size": f.whole("moe_intermediate_size", limit="intermediate_size"),
            "shared_experts": f.whole("moe_num_shared_experts", limit="experts", default=0, minimum=0),
            "dense_layers": layers - moe_layers,
        }
    return {}


def _uniform(f: _Fields, key: str, layers: int, *, limit: str | None = None, minimum: int = 1) -> int:
    """A field given as one number or as one per layer; a per-layer list must repeat one value."""
    values = f.config.get(key)
    if not isinstance(values, list):
        return f.whole(key, limit=limit, minimum=minimum)
    if len(values) != layers or len({json.dumps(v) for v in values}) != 1:
        raise ConfigError(
            f"field '{key}' lists {len(values)} values; expected one value repeated on all {layers} layers"
        )
    return _Fields({key: values[0]}).whole(key, limit=limit, minimum=minimum)


def _mtp_layers(f: _Fields, model_type: str) -> int:
    """Multi-token-prediction modules the checkpoint carries (0 for none)."""
    if model_type == "minimax_m2":
        if not f.flag("use_mtp", False):
            return 0
        return f.whole("num_mtp_modules", limit="num_hidden_layers", default=0, minimum=0) * f.whole(
            "mtp_transformer_layers", limit="num_hidden_layers", default=1
        )
    return f.whole("num_nextn_predict_layers", limit="num_hidden_layers", default=0, minimum=0)


def _refine_2026(f: _Fields, model_type: str, fields: dict[str, Any]) -> None:
    """What the 2025-26 families add to the fields :func:`_build` read."""
    if model_type in _QKV_ONLY_BIAS:
        fields["out_bias"] = False
        fields["qkv_bias"] = fields["qkv_bias"] or model_type == "mimo"  # MiMo is Qwen2's attention
    if model_type in ("ernie4_5", "ernie4_5_moe"):
        bias = f.flag("use_bias", False)  # ERNIE names its linear layers' bias use_bias
        fields["qkv_bias"] = fields["out_bias"] = bias
    if model_type == "mimo" and not f.flag("use_sliding_window", False):
        fields["sliding_window"], fields["sliding_layers"] = 0, 0  # carried but unused, as in Qwen2
    if model_type == "gpt_oss":
        fields["attention_sinks"] = True  # GptOssAttention always learns one sink per head
    kinds = f.list_of("layer_types") or []
    if model_type in ("llama4", "llama4_text") and fields["sliding_layers"]:
        fields["chunked_attention"] = True
    elif "chunked_attention" in kinds:
        if "sliding_attention" in kinds:
            raise ConfigError(
                "field 'layer_types' mixes sliding_attention and chunked_attention; "
                "expected one kind of local attention"
            )
        fields["chunked_attention"] = True
    fields["mtp_layers"] = _mtp_layers(f, model_type)
    if model_type in _GEMMA_4:
        _gemma_4(f, fields)
    if model_type in _GEMMA_3N:
        _gemma_3n(f, fields)


def _gemma_3n(f: _Fields, fields: dict[str, Any]) -> None:
    """Gemma 3n: the last ``num_kv_shared_layers`` layers attend over the cache of the last
    earlier layer of their kind instead of their own; a per-layer embedding table; AltUp's
    extra residual streams, LAuReL's low-rank residual and the per-layer inputs' projections.

    Shapes from ``Gemma3nTextModel`` and ``Gemma3nTextDecoderLayer`` in transformers'
    ``models/gemma3n/modeling_gemma3n.py``; defaults from ``Gemma3nTextConfig`` (those of
    google/gemma-3n-E4B). The vision and audio encoders are not counted, as for every
    multimodal wrapper here.
    """
    layers, h = fields["layers"], fields["hidden_size"]
    if not fields["sliding_layers"]:
        kinds = ["full_attention"] * layers  # no sliding_window: every layer attends in full
    else:
        kinds = f.list_of("layer_types") or [
            "full_attention" if (i + 1) % 5 == 0 else "sliding_attention" for i in range(layers)
        ]
    shared = f.whole("num_kv_shared_layers", limit="num_hidden_layers", default=15, minimum=0)
    own = kinds[: layers - shared]
    missing = sorted({kind for kind in kinds[layers - shared :] if kind not in own})
    if shared >= layers or missing:
        raise ConfigError(
            f"field 'num_kv_shared_layers' is {shared}; expected fewer than num_hidden_layers ({layers}), "
            f"with an earlier layer of each kind to share ({missing[0] if missing else 'none'} has none)"
        )
    fields["kv_shared_layers"] = shared
    fields["kv_shared_sliding_layers"] = sum(kind != "full_attention" for kind in kinds[layers - shared :])
    ple = f.whole("hidden_size_per_layer_input", limit="hidden_size", default=256, minimum=0)
    ple_vocab = f.whole("vocab_size_per_layer_input", limit="vocab_size", default=262_144, minimum=0)
    streams = f.whole("altup_num_inputs", limit="experts", default=4)
    rank = f.whole("laurel_rank", limit="hidden_size", default=64, minimum=0)
    fields["per_layer_embedding_params"] = ple_vocab * layers * ple
    # Per layer: AltUp (output scale, correction and prediction coefficients, router and its
    # norm), LAuReL (two low-rank matrices and a norm), the per-layer input's gate, projection
    # and norm. Once: the per-layer inputs' projection and norm, AltUp's in and out projections.
    altup = 2 * h + streams * streams + streams**3 + h * streams
    per_layer = altup + (2 * h * rank + h) + (2 * h * ple + h)
    fields["auxiliary_params"] = h * layers * ple + ple + 2 * (streams - 1) * h * h + layers * per_layer


def _gemma_4(f: _Fields, fields: dict[str, Any]) -> None:
    """Gemma 4's full-attention layers: wider heads, fewer KV heads, values from the keys."""
    for key in ("num_kv_shared_layers", "hidden_size_per_layer_input"):
        if f.whole(
            key, limit="num_hidden_layers" if key == "num_kv_shared_layers" else "hidden_size", default=0, minimum=0
        ):
            raise ConfigError(
                f"field '{key}' is {f.config[key]}; expected 0 (the smaller Gemma 4 models share caches "
                "across layers and add per-layer embeddings, which this reader does not count yet)"
            )
    fields["tied_embeddings"] = f.flag("tie_word_embeddings", True)  # Gemma ties its embeddings
    if f.has("global_head_dim"):
        fields["global_head_dim"] = f.whole("global_head_dim", limit="head_dim")
    values_from_keys = f.flag("attention_k_eq_v", False)
    fields["global_values_from_keys"] = values_from_keys
    if values_from_keys and f.has("num_global_key_value_heads"):
        # Gemma4TextAttention takes num_global_key_value_heads only where values come from keys.
        heads = fields["heads"]
        global_kv = f.whole("num_global_key_value_heads", limit="num_key_value_heads")
        if global_kv > heads or heads % global_kv:
            raise ConfigError(
                f"field 'num_global_key_value_heads' is {global_kv}; "
                f"expected a divisor of num_attention_heads ({heads})"
            )
        fields["global_kv_heads"] = global_kv


#: The fields a Llama-style decoder cannot do without.
_DENSE_KEYS = ("num_hidden_layers", "hidden_size", "num_attention_heads", "intermediate_size", "vocab_size")
#: Words in a field's name that only state-space or linear-attention layers use: no known layout
#: reads such a model, so it is refused rather than read as a plain decoder.
_UNREADABLE_MARKERS = (
    "mamba",
    "ssm",
    "linear_attn",
    "linear_num",
    "hybrid_override",
    "layers_block_type",
    # Gemma 3n's alternating updates, low-rank residuals, per-layer embeddings and shared caches
    "altup",
    "laurel",
    "per_layer_input",
    "kv_shared",
    # DeepSeek-V4's compressed attention (per-layer compress_ratios of the cached tokens) and
    # hyper-connections (hc_mult residual streams): read as a plain DeepSeek MoE, its cache would
    # be several times too large.
    "compress_ratio",
    "hc_mult",
    # MiMo-V2-Flash's sliding layers with their own head counts (swa_num_key_value_heads ...) in
    # a hybrid_layer_pattern: read as a plain MoE, every layer would cache the whole context.
    "hybrid_layer_pattern",
    "swa_",
)
#: How each fallback layout is named in its note.
_LAYOUT_NAMES = {
    "deepseek_v3": "a DeepSeek-style MoE with multi-head latent attention",
    "glm4_moe": "a DeepSeek-style MoE (n_routed_experts) with grouped-query attention",
    "qwen3_moe": "a Qwen-style MoE (num_experts, moe_intermediate_size)",
    "mixtral": "a Mixtral-style MoE (num_local_experts)",
    "llama": "a Llama-style decoder",
}


def _matching_layout(text: dict) -> tuple[str | None, str]:
    """The known model type whose fields ``text`` has, or None and what keeps it from any."""
    unreadable = sorted(key for key in text if any(word in key for word in _UNREADABLE_MARKERS))
    if unreadable:
        return None, f"it has {unreadable[0]!r}, a field of layers no known layout reads"
    missing = [key for key in _DENSE_KEYS if text.get(key) is None]
    if missing:
        return None, f"it lacks {', '.join(missing)}"
    if text.get("kv_lora_rank") is not None and text.get("n_routed_experts") is not None:
        return "deepseek_v3", ""
    if text.get("n_routed_experts") is not None:
        return "glm4_moe", ""
    if text.get("num_experts") is not None and text.get("moe_intermediate_size") is not None:
        return "qwen3_moe", ""
    if text.get("num_local_experts") is not None:
        return "mixtral", ""
    if text.get("kv_lora_rank") is not None:
        return None, "it has kv_lora_rank (latent attention) but no n_routed_experts"
    return "llama", ""


def _quantisation(config: dict, text: dict) -> Any:
    """The config's ``quantization_config`` read (:mod:`roofline_core.models.quantisation`), or None.

    A multimodal wrapper keeps it (and ``torch_dtype``) at the top level; a text config may too.
    """
    block = config.get("quantization_config", text.get("quantization_config"))
    if block is None:
        return None
    return read_quantisation(block, torch_dtype=config.get("torch_dtype", text.get("torch_dtype")))


#: model_type -> family name shown in grouped lists.
SUPPORTED_MODEL_TYPES: dict[str, str] = {
    "llama": "Llama",
    "llama4": "Llama",
    "llama4_text": "Llama",
    "mistral": "Mistral",
    "mixtral": "Mistral",
    "qwen2": "Qwen",
    "qwen2_moe": "Qwen",
    "qwen3": "Qwen",
    "qwen3_moe": "Qwen",
    "gemma": "Gemma",
    "gemma2": "Gemma",
    "gemma3": "Gemma",
    "gemma3_text": "Gemma",
    "phi3": "Phi",
    "deepseek_v2": "DeepSeek",
    "deepseek_v3": "DeepSeek",
    "kimi_k2": "Kimi",
    "gpt_oss": "gpt-oss",
    # 2025-26 (non-hybrid) families
    "glm4_moe": "GLM",
    "minimax_m2": "MiniMax",
    "mimo": "MiMo",
    "ernie4_5": "ERNIE",
    "ernie4_5_moe": "ERNIE",
    "smollm3": "SmolLM",
    "olmo2": "OLMo",
    "olmo3": "OLMo",
    "ministral3": "Mistral",
    "mistral3": "Mistral",
    "gemma4": "Gemma",
    "gemma4_text": "Gemma",
    "gemma3n": "Gemma",
    "gemma3n_text": "Gemma",
    "hunyuan_v1_moe": "Hunyuan",
    # Hunyuan's dense models (Hunyuan-7B and smaller, HunYuanDenseV1Config): a Llama layout with
    # query and key norms (2 x head_dim weights a layer, left out as the other norms' heads are).
    "hunyuan_v1_dense": "Hunyuan",
    # Hybrid, state-space and sparse-attention families (hybrid_config.py)
    **HYBRID_MODEL_TYPES,
}
#: Family of a model whose model_type is unknown but whose fields a known layout reads.
FALLBACK_FAMILY = "Other"


def from_hf_config(
    config: dict,
    *,
    slug: str | None = None,
    name: str | None = None,
    source: Source | None = None,
    family: str | None = None,
) -> Model:
    """A :class:`Model` from the fields of a Hugging Face ``config.json``.

    Args:
        config: The parsed JSON object (see :func:`parse_config_text` for text).
        slug: Identifier; defaults to ``"imported"``.
        name: Display name; defaults to the config's ``_name_or_path`` or its model type.
        source: Citation; defaults to "a config.json you gave".
        family: Group name for lists; defaults to the model type's family.

    Raises:
        ConfigError: naming the field that is missing, mistyped or out of range, or the supported
            model types for an unknown one.

    >>> m = from_hf_config({"model_type": "llama", "num_hidden_layers": 32, "hidden_size": 4096,
    ...     "num_attention_heads": 32, "num_key_value_heads": 8, "intermediate_size": 14336,
    ...     "vocab_size": 128256})
    >>> round(m.total_params / 1e9, 2), m.kv_bytes_per_token("fp16")
    (8.03, 131072.0)
    """
    if not isinstance(config, dict):
        raise ConfigError(f"the config is a {type(config).__name__}; expected a JSON object")
    text = _text_part(config)
    model_type = text.get("model_type")
    layout, notes = model_type, ()
    if not isinstance(model_type, str) or model_type not in SUPPORTED_MODEL_TYPES:
        layout, why = _matching_layout(text)
        if layout is None:
            raise ConfigError(
                f"model_type {model_type!r} is not supported, and its fields match no known layout ({why}); "
                f"expected one of {', '.join(sorted(SUPPORTED_MODEL_TYPES))}, or the fields of a Llama-style "
                f"decoder ({', '.join(_DENSE_KEYS)})"
            )
        named = (
            f"model_type {model_type!r} is not one this project knows"
            if model_type
            else "the config names no model_type"
        )
        notes = (
            f"{named}; its fields are those of "
            f"{_LAYOUT_NAMES[layout]}, so it is read as {layout}. Check the counts against the model card.",
        )
    fields = _build(text, layout)
    quantisation = _quantisation(config, text)
    if quantisation is not None:
        fields["quantisation"] = quantisation
    label = name or (config.get("_name_or_path") if isinstance(config.get("_name_or_path"), str) else None)
    try:
        model = Model(
            slug=slug or "imported",
            name=(label or f"Imported {model_type or layout} model")[:120],
            source=source or Source(title="config.json you gave", url="https://huggingface.co/", states="pasted"),
            family=family or (FALLBACK_FAMILY if notes else SUPPORTED_MODEL_TYPES[layout]),
            notes=notes,
            **fields,
        )
    except ValueError as error:
        raise ConfigError(str(error)) from None
    return _deepseek_v4_experts(model, text) if layout == "deepseek_v4" else model


def _deepseek_v4_experts(model: Model, text: dict) -> Model:
    """DeepSeek-V4's checkpoints keep the routed experts in MXFP4 (``expert_dtype: fp4``; vLLM's
    ``DeepseekV4FP8Config`` takes fp4 when the field is absent and knows fp8 besides, in
    ``models/deepseek_v4.py`` at commit 023da1fc828eb07787cf0734a1ba32f0a0f11887) and the other
    linear layers in the FP8 the ``quantization_config`` names. One format for every linear layer
    would count the experts, nearly all the weights, at twice their bytes; the stored bytes of each
    part say it instead (32 four-bit weights and one 8-bit scale: 17 bytes, as ``block_mxfp4``)."""
    expert_dtype = text.get("expert_dtype", "fp4")
    if expert_dtype not in ("fp4", "fp8"):
        raise ConfigError(f"field 'expert_dtype' is {expert_dtype!r}; expected 'fp4' or 'fp8'")
    q = model.quantisation
    if q is None or q.weight_dtype != "fp8" or q.part_bytes or expert_dtype != "fp4":
        return model
    stored = {
        part: round(
            params * (BLOCK_FORMATS["mxfp4"].bytes_per_weight if part == EXPERTS else model.part_format(part, "fp8")[1])
        )
        for part, params in model.weight_parts().items()
    }
    average = sum(stored.values()) / model.held_params
    return replace(model, quantisation=replace(q, part_bytes=tuple(stored.items()), bytes_per_weight=average))
