"""Read the layer plan of hybrid, state-space and sparse-attention configs (2025-26 model types).

:func:`roofline_core.models.hf_config.from_hf_config` reads the attention shape every config has;
this module reads what these families add: which layers attend and which keep a fixed-size
state (:mod:`roofline_core.models.layer_kinds`), the state's shape and format, the MLP layout
where it differs, and DeepSeek Sparse Attention's indexer. Field names are those of each
family's Hugging Face configuration class (``Qwen3NextConfig``, ``NemotronHConfig``,
``GraniteMoeHybridConfig``, ``FalconH1Config``, ``JambaConfig``, Moonshot's ``KimiLinearConfig``,
DeepSeek's ``DeepseekV32`` config), with the defaults those classes document.

``fields`` is the reader's typed view of the config (``hf_config._Fields``), passed in so this
module does not import the importer that imports it. Standard library only.
"""

from __future__ import annotations

import math
from typing import Any

from roofline_core.models.config_error import ConfigError
from roofline_core.models.layer_kinds import (
    CSA_RATIO,
    GATED_DELTANET,
    HCA_RATIO,
    KDA,
    LIGHTNING,
    MAMBA1,
    MAMBA2,
    CompressedAttention,
    RecurrentMixer,
    SparseAttention,
)

#: model_type -> family name shown in grouped lists.
HYBRID_MODEL_TYPES: dict[str, str] = {
    "qwen3_next": "Qwen",
    "qwen3_5": "Qwen",
    "qwen3_5_text": "Qwen",
    "qwen3_5_moe": "Qwen",
    "qwen3_5_moe_text": "Qwen",
    "nemotron_h": "Nemotron",
    "granitemoehybrid": "Granite",
    "falcon_h1": "Falcon",
    "jamba": "Jamba",
    "kimi_linear": "Kimi",
    "deepseek_v32": "DeepSeek",
    # GLM-5: DeepSeek-V3.2's layout (MLA, DSA indexer, DeepSeek-style experts) at its own sizes
    # (GlmMoeDsaConfig in transformers; https://github.com/zai-org/GLM-5 "integrates DeepSeek
    # Sparse Attention (DSA)").
    "glm_moe_dsa": "GLM",
    # DeepSeek-V4: a window of uncompressed tokens in every layer, most layers also over the
    # context pooled 4 (with DSA-style top-k) or 128 tokens to one entry, hyper-connections.
    "deepseek_v4": "DeepSeek",
    "minimax": "MiniMax",
    "minimax_text_01": "MiniMax",
}

#: Types whose every MLP is a mixture of experts or that size their MLPs in other fields, so
#: ``intermediate_size`` may be absent.
NO_DENSE_WIDTH = ("qwen3_5_moe", "qwen3_5_moe_text", "kimi_linear", "granitemoehybrid", "deepseek_v4")

#: Types with DeepSeek Sparse Attention's indexer (index_n_heads, index_head_dim, index_topk).
DSA_MODEL_TYPES = ("deepseek_v32", "glm_moe_dsa")

_QWEN_GDN = ("qwen3_next", "qwen3_5", "qwen3_5_text", "qwen3_5_moe", "qwen3_5_moe_text")

#: torch dtype names as configs write them -> this project's format names.
_DTYPE_NAMES = {"float32": "fp32", "float16": "fp16", "bfloat16": "bf16"}


def _dtype(config: dict, *keys: str) -> str:
    """The first of ``keys`` the config sets, as a format name; the model's dtype otherwise
    (vLLM's default for recurrent state, ``mamba_ssm_cache_dtype="auto"``)."""
    for key in (*keys, "torch_dtype", "dtype"):
        value = config.get(key)
        if value is None:
            continue
        if not isinstance(value, str) or value not in _DTYPE_NAMES:
            raise ConfigError(f"field '{key}' is {value!r}; expected one of {', '.join(_DTYPE_NAMES)}")
        return _DTYPE_NAMES[value]
    return "bf16"


def _kinds_list(fields: Any, key: str, layers: int, allowed: tuple[str, ...]) -> list[str] | None:
    kinds = fields.list_of(key)
    if kinds is None:
        return None
    if len(kinds) != layers:
        raise ConfigError(f"field '{key}' lists {len(kinds)} layers; expected num_hidden_layers ({layers})")
    unknown = sorted({str(k) for k in kinds} - set(allowed))
    if unknown:
        raise ConfigError(f"field '{key}' holds {unknown[0]!r}; expected {' or '.join(allowed)}")
    return [str(k) for k in kinds]


def read_hybrid(fields: Any, model_type: str, base: dict[str, Any]) -> dict[str, Any]:
    """The Model fields a hybrid or sparse-attention config adds to (or changes in) ``base``,
    the fields read from its attention shape.

    Raises:
        ConfigError: naming the field that is missing, mistyped or inconsistent.
    """
    layers = base["layers"]
    if model_type in _QWEN_GDN:
        return _qwen_gated_deltanet(fields, model_type, layers)
    if model_type == "nemotron_h":
        return _nemotron_h(fields, base)
    if model_type == "granitemoehybrid":
        return _granite_hybrid(fields, layers)
    if model_type == "falcon_h1":
        return _falcon_h1(fields, layers)
    if model_type == "jamba":
        return _jamba(fields, layers, base)
    if model_type == "kimi_linear":
        return _kimi_linear(fields, layers)
    if model_type in ("minimax", "minimax_text_01"):
        return _minimax_lightning(fields, layers, base)
    if model_type == "deepseek_v4":
        return _deepseek_v4(fields, base)
    if model_type in DSA_MODEL_TYPES:
        return {
            "sparse_attention": SparseAttention(
                index_heads=fields.whole("index_n_heads", limit="num_attention_heads"),
                index_head_dim=fields.whole("index_head_dim", limit="head_dim"),
                top_k=fields.whole("index_topk", limit="window"),
            )
        }
    raise ConfigError(f"model_type {model_type!r} has no hybrid reader")  # pragma: no cover - guarded by the caller


def _deepseek_v4(fields: Any, base: dict[str, Any]) -> dict[str, Any]:
    """DeepSeek-V4: ``compress_ratios`` gives each layer's pooling (0: the window only, 4: CSA
    with the indexer, 128: HCA), with one more entry for the multi-token-prediction layer, which
    vLLM runs with the window only (``DeepseekV4Attention``: "MTP layer is not included in the
    compress ratio list"). ``hc_mult`` residual streams mix through two hyper-connections a layer
    and one before the head: small FP32 weights every token reads (``auxiliary_params``).

    Shapes from transformers' ``models/deepseek_v4/modeling_deepseek_v4.py`` (commit
    019760818965c71b0a4d38e95820ee0b6cee4240) and vLLM's ``models/deepseek_v4.py`` (commit
    023da1fc828eb07787cf0734a1ba32f0a0f11887).
    """
    layers, h = base["layers"], base["hidden_size"]
    ratios = fields.list_of("compress_ratios")
    extra = base.get("mtp_layers", 0)
    if (
        ratios is None
        or len(ratios) not in (layers, layers + extra)
        or any(r not in (0, CSA_RATIO, HCA_RATIO) or isinstance(r, bool) for r in ratios)
    ):
        shown = "missing" if ratios is None else f"a list of {len(ratios)}"
        mtp = f" and one for each of the {extra} multi-token-prediction layers" if extra else ""
        raise ConfigError(
            f"field 'compress_ratios' is {shown}; expected one ratio for each of the {layers} layers{mtp}, "
            f"each 0, {CSA_RATIO} or {HCA_RATIO}"
        )
    ratios = ratios[:layers]
    indexer = SparseAttention(
        index_heads=fields.whole("index_n_heads", limit="num_attention_heads"),
        index_head_dim=fields.whole("index_head_dim", limit="head_dim"),
        top_k=fields.whole("index_topk", limit="window"),
    )
    heads = base["heads"]
    groups = fields.whole("o_groups", limit="num_attention_heads")
    if heads % groups:
        raise ConfigError(f"field 'o_groups' is {groups}; expected a divisor of num_attention_heads ({heads})")
    if base["kv_heads"] != 1:
        raise ConfigError(
            f"field 'num_key_value_heads' is {base['kv_heads']}; expected 1 (DeepSeek-V4 shares one key-value head)"
        )
    attention = CompressedAttention(
        window=fields.whole("sliding_window", limit="window"),
        entry_dim=base["head_dim"],
        csa_layers=sum(r == CSA_RATIO for r in ratios),
        hca_layers=sum(r == HCA_RATIO for r in ratios),
        indexer=indexer,
        q_latent_dim=fields.whole("q_lora_rank", limit="hidden_size"),
        out_groups=groups,
        out_rank=fields.whole("o_lora_rank", limit="hidden_size"),
    )
    streams = fields.whole("hc_mult", limit="experts")
    mixes = (2 + streams) * streams  # pre, post and the streams' mixing matrix
    per_layer = 2 * (mixes * streams * h + mixes + 3)  # before attention and before the MLP
    head = streams * streams * h + streams + 1  # the streams' collapse before the final norm
    return {"compressed_attention": attention, "auxiliary_params": layers * per_layer + head}


def _qwen_gated_deltanet(fields: Any, model_type: str, layers: int) -> dict[str, Any]:
    """Qwen3-Next and Qwen3.5: Gated DeltaNet layers, every ``full_attention_interval``-th layer
    a gated full attention; MoE with one shared expert (the 27B Qwen3.5 is dense)."""
    kinds = _kinds_list(fields, "layer_types", layers, ("linear_attention", "full_attention"))
    if kinds is None:
        interval = fields.whole("full_attention_interval", default=4)
        kinds = ["full_attention" if (i + 1) % interval == 0 else "linear_attention" for i in range(layers)]
    mixer = RecurrentMixer(
        kind=GATED_DELTANET,
        heads=fields.whole("linear_num_value_heads", limit="num_attention_heads"),
        key_heads=fields.whole("linear_num_key_heads", limit="num_attention_heads"),
        key_dim=fields.whole("linear_key_head_dim", limit="head_dim"),
        value_dim=fields.whole("linear_value_head_dim", limit="head_dim"),
        conv_kernel=fields.whole("linear_conv_kernel_dim", limit="head_dim", default=4),
        state_dtype=_dtype(fields.config, "mamba_ssm_cache_dtype", "mamba_ssm_dtype"),
        conv_dtype=_dtype(fields.config),
    )
    out: dict[str, Any] = {
        "recurrent": mixer,
        "recurrent_layers": kinds.count("linear_attention"),
        # Qwen3NextAttention always gates its output; Qwen3.5 says so in attn_output_gate.
        "attention_output_gate": fields.flag("attn_output_gate", True),
        "sliding_window": 0,
        "sliding_layers": 0,
    }
    if fields.has("num_experts") and fields.whole("num_experts", limit="experts", minimum=0):
        step = fields.whole("decoder_sparse_step", default=1)
        dense_only = fields.list_of("mlp_only_layers") or []
        moe_layers = sum(1 for i in range(layers) if i not in dense_only and (i + 1) % step == 0)
        shared = fields.whole("shared_expert_intermediate_size", limit="intermediate_size", default=0, minimum=0)
        out.update(
            experts=fields.whole("num_experts", limit="experts"),
            experts_per_token=fields.whole("num_experts_per_tok", limit="experts"),
            moe_ffn_size=fields.whole("moe_intermediate_size", limit="intermediate_size"),
            dense_layers=layers - moe_layers,
            shared_experts=1 if shared else 0,
            shared_expert_ffn_size=shared,
        )
    return out


#: Mamba-2 field names: Nemotron-H's, and the ``mamba_`` ones of Granite 4.0-H and Falcon-H1.
_NEMOTRON_MAMBA = ("mamba_num_heads", "mamba_head_dim", "n_groups", "ssm_state_size", "conv_kernel", "use_conv_bias")
_PREFIXED_MAMBA = (
    "mamba_n_heads",
    "mamba_d_head",
    "mamba_n_groups",
    "mamba_d_state",
    "mamba_d_conv",
    "mamba_conv_bias",
)


def _mamba2(fields: Any, names: tuple[str, ...]) -> RecurrentMixer:
    heads, head, groups, state, conv, conv_bias = names
    return RecurrentMixer(
        kind=MAMBA2,
        heads=fields.whole(heads, limit="num_attention_heads"),
        key_heads=fields.whole(groups, limit="num_attention_heads", default=1),
        key_dim=fields.whole(state, limit="head_dim"),
        value_dim=fields.whole(head, limit="head_dim"),
        conv_kernel=fields.whole(conv, default=4),
        conv_bias=fields.flag(conv_bias, True),
        state_dtype=_dtype(fields.config, "mamba_ssm_cache_dtype", "mamba_ssm_dtype"),
        conv_dtype=_dtype(fields.config),
    )


#: ``layers_block_type`` names -> ``hybrid_override_pattern`` letters (NemotronHConfig).
_NEMOTRON_BLOCKS = {"mamba": "M", "attention": "*", "mlp": "-", "moe": "E"}


def _nemotron_h(fields: Any, base: dict[str, Any]) -> dict[str, Any]:
    """Nemotron-H and Nemotron 3: one block per character of ``hybrid_override_pattern``:
    ``M`` Mamba-2, ``*`` attention, ``-`` an MLP, ``E`` a mixture of experts; squared-ReLU MLPs
    (two matrices)."""
    layers = base["layers"]
    pattern = fields.config.get("hybrid_override_pattern")
    if pattern is None and fields.list_of("layers_block_type") is not None:
        # Newer Nemotron configs (Nemotron 3.5, Nemotron 3 Ultra) name each block in a list
        # instead of the pattern string: the same four kinds.
        kinds = _kinds_list(fields, "layers_block_type", layers, tuple(_NEMOTRON_BLOCKS))
        pattern = "".join(_NEMOTRON_BLOCKS[kind] for kind in kinds)
    if not isinstance(pattern, str) or len(pattern) != layers or set(pattern) - set("M*-E"):
        raise ConfigError(
            f"field 'hybrid_override_pattern' is {pattern!r}; expected {layers} characters of M, *, - and E"
        )
    if fields.has("moe_latent_size"):
        raise ConfigError("field 'moe_latent_size' (latent experts) is not modelled; expected a config without it")
    out: dict[str, Any] = {
        "recurrent": _mamba2(fields, _NEMOTRON_MAMBA),
        "recurrent_layers": pattern.count("M"),
        "mixer_free_layers": pattern.count("-") + pattern.count("E"),
        "mlp_free_layers": pattern.count("M") + pattern.count("*"),
        "mlp_matrices": 3 if fields.config.get("mlp_hidden_act", "relu2") in ("silu", "swiglu") else 2,
        "sliding_window": 0,
        "sliding_layers": 0,
    }
    if not fields.has("head_dim") and fields.has("attention_head_dim"):
        out["head_dim"] = fields.whole("attention_head_dim", limit="head_dim")
    if "E" in pattern:
        out.update(
            experts=fields.whole("n_routed_experts", limit="experts"),
            experts_per_token=fields.whole("num_experts_per_tok", limit="experts"),
            moe_ffn_size=fields.whole("moe_intermediate_size", limit="intermediate_size"),
            shared_experts=fields.whole("n_shared_experts", limit="experts", default=0, minimum=0),
            shared_expert_ffn_size=fields.whole(
                "moe_shared_expert_intermediate_size", limit="intermediate_size", default=0, minimum=0
            ),
            dense_layers=pattern.count("-"),
        )
    return out


def _granite_hybrid(fields: Any, layers: int) -> dict[str, Any]:
    """Granite 4.0-H: ``layer_types`` of ``mamba`` and ``attention``; each block's MLP is a shared
    MLP of ``shared_intermediate_size`` plus, where ``num_local_experts`` > 0, experts of
    ``intermediate_size``."""
    kinds = _kinds_list(fields, "layer_types", layers, ("mamba", "attention"))
    if kinds is None:
        raise ConfigError("field 'layer_types' is missing; expected a list of mamba and attention")
    shared = fields.whole("shared_intermediate_size", limit="intermediate_size")
    out: dict[str, Any] = {
        "recurrent": _mamba2(fields, _PREFIXED_MAMBA),
        "recurrent_layers": kinds.count("mamba"),
        "sliding_window": 0,
        "sliding_layers": 0,
        "ffn_size": shared,
    }
    experts = fields.whole("num_local_experts", limit="experts", default=0, minimum=0)
    if experts:
        out.update(
            experts=experts,
            experts_per_token=fields.whole("num_experts_per_tok", limit="experts"),
            moe_ffn_size=fields.whole("intermediate_size"),
            shared_experts=1,
            shared_expert_ffn_size=shared,
        )
    return out


def _falcon_h1(fields: Any, layers: int) -> dict[str, Any]:
    """Falcon-H1: every layer runs attention and a Mamba-2 mixer side by side."""
    return {
        "recurrent": _mamba2(fields, _PREFIXED_MAMBA),
        "recurrent_layers": layers,
        "parallel_hybrid": True,
        "sliding_window": 0,
        "sliding_layers": 0,
    }


def _jamba(fields: Any, layers: int, base: dict[str, Any]) -> dict[str, Any]:
    """Jamba: attention every ``attn_layer_period``-th layer (from ``attn_layer_offset``), Mamba
    (version 1) elsewhere; experts every ``expert_layer_period``-th layer."""
    kinds = _kinds_list(fields, "layers_block_type", layers, ("attention", "mamba"))
    if kinds is None:
        period, offset = (
            fields.whole("attn_layer_period", default=8),
            fields.whole("attn_layer_offset", default=4, minimum=0),
        )
        kinds = ["attention" if i % period == offset else "mamba" for i in range(layers)]
    hidden = base["hidden_size"]
    inner = fields.whole("mamba_expand", default=2) * hidden
    rank = fields.config.get("mamba_dt_rank", "auto")
    dt_rank = math.ceil(hidden / 16) if rank == "auto" else fields.whole("mamba_dt_rank")
    out: dict[str, Any] = {
        "recurrent": RecurrentMixer(
            kind=MAMBA1,
            heads=inner,
            key_heads=inner,
            key_dim=fields.whole("mamba_d_state", default=16),
            value_dim=1,
            conv_kernel=fields.whole("mamba_d_conv", default=4),
            conv_bias=fields.flag("mamba_conv_bias", True),
            dt_rank=dt_rank,
            state_dtype=_dtype(fields.config, "mamba_ssm_cache_dtype"),
            conv_dtype=_dtype(fields.config),
        ),
        "recurrent_layers": kinds.count("mamba"),
        "sliding_window": 0,
        "sliding_layers": 0,
    }
    experts = fields.whole("num_experts", limit="experts", default=0, minimum=0)
    if experts > 1:
        period, offset = (
            fields.whole("expert_layer_period", default=2),
            fields.whole("expert_layer_offset", default=1, minimum=0),
        )
        moe_layers = sum(1 for i in range(layers) if i % period == offset)
        out.update(
            experts=experts,
            experts_per_token=fields.whole("num_experts_per_tok", limit="experts"),
            moe_ffn_size=base["ffn_size"],
            dense_layers=layers - moe_layers,
        )
    return out


def _minimax_lightning(fields: Any, layers: int, base: dict[str, Any]) -> dict[str, Any]:
    """MiniMax-Text-01 and MiniMax-M1: lightning attention in most layers, softmax attention in
    the others (``layer_types``, or the original release's ``attn_type_list`` of 0 for lightning
    and 1 for softmax); a mixture of experts of ``intermediate_size`` in every layer. A lightning
    layer has as many heads of the same width as attention and no short convolution."""
    kinds = _kinds_list(fields, "layer_types", layers, ("linear_attention", "full_attention"))
    if kinds is None:
        flags = fields.list_of("attn_type_list")
        if flags is None or len(flags) != layers or any(flag not in (0, 1) for flag in flags):
            raise ConfigError(f"field 'attn_type_list' must list {layers} layers of 0 (lightning) or 1 (softmax)")
        kinds = ["full_attention" if flag == 1 else "linear_attention" for flag in flags]
    heads, head_dim = base["heads"], base["head_dim"]
    return {
        "recurrent": RecurrentMixer(
            kind=LIGHTNING,
            heads=heads,
            key_heads=heads,
            key_dim=head_dim,
            value_dim=head_dim,
            conv_kernel=0,
            # vLLM keeps this state in the model's dtype and refuses FP32 for it
            # (MambaStateDtypeCalculator.linear_attention_state_dtype).
            state_dtype=_dtype(fields.config),
            conv_dtype=_dtype(fields.config),
        ),
        "recurrent_layers": kinds.count("linear_attention"),
        "sliding_window": 0,
        "sliding_layers": 0,
        "experts": fields.whole("num_local_experts", limit="experts"),
        "experts_per_token": fields.whole("num_experts_per_tok", limit="experts"),
        "moe_ffn_size": base["ffn_size"],
    }


def _kimi_linear(fields: Any, layers: int) -> dict[str, Any]:
    """Kimi Linear: Kimi Delta Attention layers and MLA layers, listed (1-based) in
    ``linear_attn_config``; MoE after the first ``first_k_dense_replace`` layers."""
    for key, what in (("routed_expert_hidden_size", "latent experts"), ("attn_res_block_size", "attention residuals")):
        if fields.has(key):
            # Kimi K3's additions to the Kimi Linear layout: counting it as Kimi Linear would be wrong.
            raise ConfigError(f"field '{key}' ({what}) is not modelled; expected a config without it")
    block = fields.config.get("linear_attn_config")
    if not isinstance(block, dict):
        raise ConfigError("field 'linear_attn_config' is missing; expected an object with kda_layers")
    inner = type(fields)(block)  # the same typed access, one level down
    kda_layers = inner.list_of("kda_layers") or []
    if len(kda_layers) > layers or any(
        isinstance(i, bool) or not isinstance(i, int) or not 1 <= i <= layers for i in kda_layers
    ):
        raise ConfigError(f"field 'linear_attn_config.kda_layers' must list layer numbers 1..{layers}")
    head_dim = inner.whole("head_dim", limit="head_dim")
    out: dict[str, Any] = {
        "recurrent": RecurrentMixer(
            kind=KDA,
            heads=inner.whole("num_heads", limit="num_attention_heads"),
            key_heads=inner.whole("num_heads", limit="num_attention_heads"),
            key_dim=head_dim,
            value_dim=head_dim,
            conv_kernel=inner.whole("short_conv_kernel_size", default=4),
            gate_rank=head_dim,
            # vLLM keeps KDA's recurrent state in FP32 whatever the model's dtype, its convolution
            # state in the model's (MambaStateDtypeCalculator.kda_state_dtype returns float32 last;
            # vllm/model_executor/layers/mamba/mamba_utils.py at commit 2afe1e8573cf).
            state_dtype="fp32",
            conv_dtype=_dtype(fields.config),
        ),
        "recurrent_layers": len(set(kda_layers)),
        "sliding_window": 0,
        "sliding_layers": 0,
    }
    experts = fields.whole("num_experts", limit="experts", default=0, minimum=0)
    if experts:
        out.update(
            experts=experts,
            experts_per_token=fields.whole("num_experts_per_token", limit="experts"),
            moe_ffn_size=fields.whole("moe_intermediate_size", limit="intermediate_size"),
            shared_experts=fields.whole("num_shared_experts", limit="experts", default=0, minimum=0),
            dense_layers=min(fields.whole("first_k_dense_replace", default=0, minimum=0), layers),
        )
    return out


#: The fields read above, for a link's short code (:mod:`roofline_core.models.config_code`):
#: config.json key -> (short name, kind). ``pattern`` is Nemotron-H's block string, ``rank`` a
#: whole number or ``"auto"``, ``kda`` Kimi Linear's ``linear_attn_config`` (the four numbers
#: read from it).
HYBRID_CODE_FIELDS: dict[str, tuple[str, str]] = {
    "full_attention_interval": ("fi", "int"),
    "attn_output_gate": ("og", "bool"),
    "linear_num_value_heads": ("lv", "int"),
    "linear_num_key_heads": ("lk", "int"),
    "linear_key_head_dim": ("kd", "int"),
    "linear_value_head_dim": ("vd", "int"),
    "linear_conv_kernel_dim": ("lc", "int"),
    "mamba_ssm_dtype": ("sd", "word"),
    "mamba_ssm_cache_dtype": ("sc", "word"),
    "hybrid_override_pattern": ("ho", "pattern"),
    "mamba_num_heads": ("mh", "int"),
    "mamba_head_dim": ("md", "int"),
    "n_groups": ("ng", "int"),
    "ssm_state_size": ("ss", "int"),
    "conv_kernel": ("ck", "int"),
    "use_conv_bias": ("cb", "bool"),
    "mlp_hidden_act": ("ma", "word"),
    "attention_head_dim": ("ad", "int"),
    "moe_shared_expert_intermediate_size": ("xs", "int"),
    "moe_latent_size": ("lz", "int"),
    "index_n_heads": ("ih", "int"),
    "index_head_dim": ("id", "int"),
    "index_topk": ("it", "int"),
    "shared_intermediate_size": ("si", "int"),
    "mamba_n_heads": ("nh", "int"),
    "mamba_d_head": ("dh", "int"),
    "mamba_n_groups": ("gn", "int"),
    "mamba_d_state": ("st", "int"),
    "mamba_d_conv": ("dc", "int"),
    "mamba_conv_bias": ("mc", "bool"),
    "mamba_expand": ("mx", "int"),
    "mamba_dt_rank": ("dr", "rank"),
    "layers_block_type": ("bt", "kinds"),
    "attn_layer_period": ("ap", "int"),
    "attn_layer_offset": ("ao", "int"),
    "expert_layer_period": ("xp", "int"),
    "expert_layer_offset": ("xo", "int"),
    "linear_attn_config": ("kc", "kda"),
    "num_experts_per_token": ("et", "int"),
    "num_shared_experts": ("ns", "int"),
    "attn_type_list": ("at", "ints"),
    # DeepSeek-V4: each layer's pooling ratio, the residual streams, the grouped output projection
    "compress_ratios": ("cr", "ratios"),
    "hc_mult": ("hc", "int"),
    "o_groups": ("gr", "int"),
    "o_lora_rank": ("or", "int"),
    "expert_dtype": ("xd", "word"),
}

#: Layer kinds these families name in ``layer_types`` / ``layers_block_type``, and their code letters.
HYBRID_LAYER_KIND_CODES = {"linear_attention": "g", "mamba": "m", "attention": "a", "moe": "e", "mlp": "p"}
#: Nemotron-H's block letters, and the ones a query string keeps as they are.
PATTERN_CODES = {"M": "m", "*": "a", "-": "p", "E": "e"}
#: DeepSeek-V4's ``compress_ratios`` in a code, one letter a layer (a list of numbers alternating
#: 4 and 128 would run past a link's length): the window only, CSA, HCA.
RATIO_CODES = {0: "w", CSA_RATIO: "c", HCA_RATIO: "h"}
#: The keys of ``linear_attn_config`` the reader uses, in the order a code writes them.
KDA_KEYS = ("num_heads", "head_dim", "short_conv_kernel_size")


def kda_block(value: Any) -> dict[str, Any]:
    """The part of a ``linear_attn_config`` the reader uses (what a link carries).

    Raises:
        ConfigError: if it is not an object.
    """
    if not isinstance(value, dict):
        raise ConfigError("field 'linear_attn_config' is not an object; expected one with kda_layers")
    return {key: value[key] for key in (*KDA_KEYS, "kda_layers") if value.get(key) is not None}
