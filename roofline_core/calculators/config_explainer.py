"""config.json explained: each field that shapes a model, what it sets, and what it costs.

A reader pastes a Hugging Face ``config.json`` and sees, for each field that matters, the glossary
term it belongs to and its effect in parameters, bytes and FLOPs, all from the
:class:`~roofline_core.models.Model` that :func:`~roofline_core.models.hf_config.from_hf_config` builds,
the same one the other calculators use.
"""

from __future__ import annotations

from typing import Any

from roofline_core.calculators._common import WEIGHT_FORMAT_READ, context_input, dtype_input
from roofline_core.calculators.base import Calculator, Output, value
from roofline_core.formatting import format_bytes, format_count, format_flops, format_number
from roofline_core.hardware.dtypes import bytes_per_element
from roofline_core.models import MLA, Model
from roofline_core.models.config_code import decode, model_from_code, pretty_json
from roofline_core.models.quantisation import ATTENTION, EMBEDDING
from roofline_core.vocabulary import MODEL_CONFIG

#: The config the explainer opens on: Llama 3.1 8B's architecture fields, as its config.json
#: (https://huggingface.co/meta-llama/Llama-3.1-8B/blob/main/config.json) states them.
_OPENING_CODE = "t-llama.l-32.h-4096.a-32.k-8.f-14336.v-128256.te-0.ab-0.n-meta-llama/Llama-3.1-8B"
OPENING_CONFIG = pretty_json(decode(_OPENING_CODE))

#: A row: ``(config keys it explains, glossary term or "", what it sets, its effect)``.
Row = tuple[tuple[str, ...], str, str, str]


def _count(params: float) -> str:
    return f"{format_count(params)} parameters"


def _weights(model: Model, params: float, weight_dtype: str, part: str) -> str:
    """``params`` of one ``part`` and their bytes, in the part's own format (the embedding and
    output head of a 4- or 8-bit model stay 16-bit: :meth:`~roofline_core.models.Model.part_format`)."""
    stored, each = model.part_format(part, weight_dtype)
    return f"{_count(params)}, {format_bytes(params * each)} in {stored.upper()}"


def _mlp_effect(m: Model, fields: dict[str, Any]) -> str:
    dense = m.layers - m.mlp_free_layers - m.moe_layers
    if dense:
        return f"{dense} dense MLP layers × {_count(m.mlp_matrices * m.hidden_size * m.ffn_size)} each."
    if "moe_intermediate_size" not in fields:
        # Mixtral and gpt-oss give their experts this width.
        return f"Here it is each expert's width: {_count(m.expert_params)} per expert per layer."
    return "Not used: every layer's MLP is a mixture of experts."


def _shape_rows(m: Model, v: dict[str, Any], fields: dict[str, Any]) -> list[Row]:
    kv_dtype, weight_dtype = v["kv_dtype"], v["weight_dtype"]
    cached = m.cached_full_layers + m.cached_sliding_layers
    per_layer_kv = m.kv_bytes_per_token(kv_dtype) / max(cached, 1)
    if m.kv_shared_layers:
        layers_text = (
            f"{m.layers} decoder layers, all attending; the last {m.kv_shared_layers} read the KV cache of an "
            f"earlier layer of their kind instead of their own, so {cached} keep one."
        )
    elif m.attention_layers == m.layers:
        layers_text = f"{m.layers} decoder layers, each with its own attention, MLP and KV cache."
    else:
        layers_text = (
            f"{m.layers} decoder layers; {m.attention_layers} of them attend and keep a KV cache, "
            "the others keep a fixed state or only an MLP."
        )
    rows: list[Row] = [
        (
            ("model_type",),
            "",
            # A model_type nobody knows is read by the layout its fields match: say which.
            m.notes[0]
            if m.notes
            else f"The architecture family ({m.family}); it decides how the other fields are read.",
            "None by itself.",
        ),
        (
            ("num_hidden_layers",),
            "kv-cache",
            layers_text,
            f"Each attention layer holds {_weights(m, m.attention_params_per_layer, weight_dtype, ATTENTION)}; "
            f"each attention layer caches {format_bytes(per_layer_kv)} per token.",
        ),
        (
            ("hidden_size",),
            "gemm",
            f"The model width: every token is a vector of {m.hidden_size:,} numbers between layers.",
            "It is one side of every weight matrix, so the weights grow with it.",
        ),
        (
            ("intermediate_size",),
            "gemm",
            f"Width of a dense MLP ({m.ffn_size:,}): {'three' if m.mlp_matrices == 3 else 'two'} matrices of "
            "hidden x this width.",
            _mlp_effect(m, fields),
        ),
        (
            ("vocab_size", "tie_word_embeddings"),
            "",
            f"{m.vocab_size:,} tokens in the vocabulary; the output head "
            + ("shares the embedding table (tied)." if m.tied_embeddings else "is a separate matrix (untied)."),
            f"Embedding table: {_weights(m, m.embedding_params, weight_dtype, EMBEDDING)}"
            + ("." if m.tied_embeddings else "; the output head as much again."),
        ),
    ]
    ca = m.compressed_attention
    if ca is not None:
        window = m.attention_layers * ca.window * ca.entry_dim * bytes_per_element(kv_dtype)
        rows.append(
            (
                ("num_attention_heads", "num_key_value_heads", "head_dim", "sliding_window"),
                "grouped-query-attention",
                f"{m.heads} query heads share one {ca.entry_dim}-wide head that is both key and value; every "
                f"layer keeps the last {ca.window} tokens uncompressed.",
                f"The window holds {format_bytes(window)} per sequence in all {m.attention_layers} layers; a token "
                f"costs {format_bytes(m.kv_bytes_per_token(kv_dtype))} while in it, counting its share of the "
                "compressed entries below.",
            )
        )
    elif m.attention == MLA:
        # Full keys are the no-rope and rotary parts together; values are v_head_dim wide.
        full = (
            m.attention_layers
            * m.heads
            * (m.head_dim + m.mla_rope_dim + m.mla_v_head_dim)
            * bytes_per_element(kv_dtype)
        )
        rows.append(
            (
                ("kv_lora_rank", "qk_rope_head_dim"),
                "multi-head-latent-attention",
                f"Multi-head latent attention: each layer caches one {m.mla_latent_dim}-wide latent and a "
                f"{m.mla_rope_dim}-wide rotary key per token instead of keys and values per head.",
                f"KV cache {format_bytes(m.kv_bytes_per_token(kv_dtype))} per token, against "
                f"{format_bytes(full)} if all {m.heads} heads cached full keys and values.",
            )
        )
    else:
        per_query_head = 2 * m.attention_layers * m.heads * m.head_dim * bytes_per_element(kv_dtype)
        kind = "multi-head attention: one" if m.kv_heads == m.heads else "grouped-query attention: one"
        rows.append(
            (
                ("num_attention_heads", "num_key_value_heads", "head_dim"),
                "grouped-query-attention",
                f"{m.heads} query heads and {m.kv_heads} key/value heads of width {m.head_dim} "
                f"({kind} KV head per {m.heads // m.kv_heads} query heads).",
                f"KV cache 2 × {m.attention_layers} × {m.kv_heads} × {m.head_dim} × {bytes_per_element(kv_dtype):g} "
                f"bytes = {format_bytes(m.kv_bytes_per_token(kv_dtype))} per token"
                + (
                    f", against {format_bytes(per_query_head)} with one KV head per query head."
                    if m.kv_heads != m.heads
                    else "."
                ),
            )
        )
    return rows


#: Expert fields under each family's names (each config states the ones of its family).
_EXPERT_KEYS = (
    "num_local_experts",
    "num_experts",
    "n_routed_experts",
    "n_shared_experts",
    "num_experts_per_tok",
    "moe_intermediate_size",
)


def _optional_rows(m: Model, v: dict[str, Any]) -> list[Row]:
    kv_dtype, context = v["kv_dtype"], v["context_tokens"]
    rows: list[Row] = []
    if m.sliding_layers and m.chunked_attention:
        held = m.kv_cache_bytes(context_tokens=context, kv_dtype=kv_dtype)
        read = m.kv_read_bytes(context_tokens=context, kv_dtype=kv_dtype)
        rows.append(
            (
                ("attention_chunk_size", "layer_types"),
                "sliding-window-attention",
                f"{m.sliding_layers} of {m.layers} layers attend within chunks of {m.sliding_window:,} tokens: "
                f"a token sees only the earlier tokens of its own chunk (0 to {m.sliding_window - 1:,}).",
                f"At {context:,} tokens memory holds {format_bytes(held)} of KV cache per sequence (a whole "
                f"chunk per chunked layer); the next token reads {format_bytes(read)} of it, its chunk holding "
                f"{m.local_tokens_read(context):,} tokens.",
            )
        )
    elif m.sliding_layers:
        capped = m.kv_cache_bytes(context_tokens=context, kv_dtype=kv_dtype)
        uncapped = m.kv_bytes_per_token(kv_dtype) * context
        rows.append(
            (
                ("sliding_window", "layer_types"),
                "sliding-window-attention",
                f"{m.sliding_layers} of {m.layers} layers attend to the last {m.sliding_window:,} tokens only.",
                f"At {context:,} tokens the KV cache is {format_bytes(capped)} per sequence, "
                f"against {format_bytes(uncapped)} if every layer kept the whole context.",
            )
        )
    rows.extend(_hybrid_rows(m, v))
    if m.has_global_shape:
        full = m.layers - m.sliding_layers
        rows.append(
            (
                ("global_head_dim", "num_global_key_value_heads", "attention_k_eq_v"),
                "",
                f"The {full} full-attention layers have {m.full_layer_kv_heads} key/value heads of width "
                f"{m.full_layer_head_dim}"
                + (", their values taken from the key projection" if m.global_values_from_keys else "")
                + ".",
                f"Each of their tokens caches {format_bytes(2 * m.full_layer_kv_heads * m.full_layer_head_dim * bytes_per_element(kv_dtype))} "
                "per layer, keys and values.",
            )
        )
    if m.attention_sinks:
        rows.append(
            (
                ("model_type",),
                "attention-sinks",
                f"Every layer learns one sink logit per query head ({m.heads}), which can take attention "
                "that no token should get.",
                f"{_count(m.layers * m.heads)}; nothing cached.",
            )
        )
    if m.mtp_layers:
        weight_dtype = v["weight_dtype"]
        rows.append(
            (
                ("num_nextn_predict_layers", "num_mtp_modules"),
                "multi-token-prediction",
                f"{m.mtp_layers} multi-token-prediction module{'s' if m.mtp_layers > 1 else ''}: a layer that "
                "predicts a further token from the last hidden state, for speculative decoding.",
                f"Memory holds {_count(m.mtp_params)} more ({format_bytes(m.weight_bytes(weight_dtype) - _main_bytes(m, weight_dtype))}); "
                f"a decode step reads none of it unless it drafts, and then {_count(m.mtp_streamed_params_per_draft)} a draft token.",
            )
        )
    if m.is_moe:
        rows.append(
            (
                _EXPERT_KEYS,
                "mixture-of-experts",
                f"A mixture of experts on {m.moe_layers} layers: {m.experts} routed experts"
                + (f" and {m.shared_experts} shared" if m.shared_experts else "")
                + f", {m.experts_per_token} routed used per token.",
                f"Memory holds all {_count(m.total_params)}; a token reads "
                f"{_count(m.active_params_per_token)} ({format_number(100 * m.active_params_per_token / m.total_params)}%).",
            )
        )
    return rows


#: The fields that say which layers keep a fixed state, under each family's names.
_LAYER_PLAN_KEYS = (
    "layer_types",
    "full_attention_interval",
    "hybrid_override_pattern",
    "layers_block_type",
    "linear_attn_config",
    "attn_layer_period",
)


def _hybrid_rows(m: Model, v: dict[str, Any]) -> list[Row]:
    """Rows for the recurrent layers of a hybrid model and for sparse attention."""
    kv_dtype, context = v["kv_dtype"], v["context_tokens"]
    rows: list[Row] = []
    if m.recurrent is not None:
        r = m.recurrent
        # Every layer that mixes tokens (not Nemotron-H's MLP-only blocks) caching like an attention layer.
        mixing = m.layers - m.mixer_free_layers
        dense_like = m.kv_bytes_per_token(kv_dtype) / max(m.attention_layers, 1) * mixing * context
        rows.append(
            (
                _LAYER_PLAN_KEYS,
                "kv-cache",
                f"{m.recurrent_layers} of {m.layers} layers are {r.label}: each keeps a fixed state of "
                f"{format_bytes(r.state_bytes())} per sequence ({r.state_dtype.upper()} recurrent state "
                "and the short convolution's last inputs) instead of a KV cache.",
                f"At {context:,} tokens a sequence holds {format_bytes(m.kv_cache_bytes(context_tokens=context, kv_dtype=kv_dtype))} "
                f"({format_bytes(m.state_bytes_per_sequence)} of it fixed), against {format_bytes(dense_like)} "
                "if every layer kept keys and values.",
            )
        )
    if m.compressed_attention is not None:
        ca = m.compressed_attention
        read = m.decode_cache_read_bytes(context_tokens=context, kv_dtype=kv_dtype)
        whole = m.kv_cache_bytes(context_tokens=context, kv_dtype=kv_dtype)
        uncompressed = m.attention_layers * context * ca.entry_dim * bytes_per_element(kv_dtype)
        rows.append(
            (
                ("compress_ratios", "index_topk", "index_n_heads"),
                "kv-cache",
                f"Compressed attention: {ca.csa_layers} layers also attend over the context pooled 4 tokens to "
                f"one entry, of which an indexer of {ca.indexer.index_heads} heads picks {ca.indexer.top_k:,}; "
                f"{ca.hca_layers} over every entry of it pooled 128 to one; "
                f"{m.attention_layers - ca.compressed_layers} over the window only.",
                f"At {context:,} tokens a sequence holds {format_bytes(whole)} "
                f"({format_bytes(m.state_bytes_per_sequence)} of it the compressors' fixed FP32 state), against "
                f"{format_bytes(uncompressed)} uncompressed; a decode step reads {format_bytes(read)} of it.",
            )
        )
    if m.sparse_attention is not None:
        sa = m.sparse_attention
        read = m.decode_cache_read_bytes(context_tokens=context, kv_dtype=kv_dtype)
        whole = m.growing_kv_cache_bytes(context_tokens=context, kv_dtype=kv_dtype)
        rows.append(
            (
                ("index_topk", "index_n_heads", "index_head_dim"),
                "kv-cache",
                f"Sparse attention: an indexer of {sa.index_heads} heads scores every cached token and each "
                f"query attends over the best {sa.top_k:,}; the cache still holds every token.",
                f"At {context:,} tokens a decode step reads {format_bytes(read)} of a "
                f"{format_bytes(whole)} cache per sequence.",
            )
        )
    return rows


def _main_bytes(m: Model, weight_dtype: str) -> float:
    """Bytes of the weights without the multi-token-prediction modules, in bytes."""
    from dataclasses import replace

    return replace(m, mtp_layers=0).weight_bytes(weight_dtype)


def _keys_given(fields: dict[str, Any], keys: tuple[str, ...]) -> str:
    """The row's keys the config states (or its first key, for a value the family defaults)."""
    given = [key for key in keys if key in fields]
    return ", ".join(given or keys[:1])


def _field_text(raw: Any) -> str:
    """A config value as the table shows it (a per-layer list by its length)."""
    if isinstance(raw, bool):
        return "true" if raw else "false"
    if isinstance(raw, list):
        return f"{len(raw)} entries"
    return f"{raw:,}" if isinstance(raw, int) else str(raw)


def _compute(values: dict[str, Any]) -> dict[str, Any]:
    code = values[MODEL_CONFIG.id]
    fields = decode(code)
    model = model_from_code(code, slug="imported")
    weight_dtype, kv_dtype = values["weight_dtype"], values["kv_dtype"]
    streamed = model.streamed_params_per_token
    kv_at_context = model.kv_cache_bytes(context_tokens=values["context_tokens"], kv_dtype=kv_dtype)
    rows = []
    for keys, term, sets, effect in _shape_rows(model, values, fields) + _optional_rows(model, values):
        field_cell = value(_keys_given(fields, keys), "", _keys_given(fields, keys))
        if term:
            field_cell["term"] = term
        shown = ", ".join(_field_text(fields[k]) for k in keys if k in fields)
        rows.append(
            {
                "field": field_cell,
                "value": value(shown, "", shown or "(family default)"),
                "sets": value(sets, "", sets),
                "effect": value(effect, "", effect),
            }
        )
    weight_bytes = model.weight_bytes(weight_dtype)
    return {
        "outputs": {
            "name": value(model.name, "", model.name),
            "total_params": value(model.total_params, "parameters", format_count(model.total_params)),
            "active_params": value(
                model.active_params_per_token, "parameters", format_count(model.active_params_per_token)
            ),
            "weight_bytes": value(weight_bytes, "B", format_bytes(weight_bytes)),
            "kv_bytes_per_token": value(
                model.kv_bytes_per_token(kv_dtype), "B", format_bytes(model.kv_bytes_per_token(kv_dtype))
            ),
            "kv_bytes_at_context": value(kv_at_context, "B", format_bytes(kv_at_context)),
            # Two FLOPs (a multiply and an add) per weight read, per generated token.
            "decode_flops_per_token": value(2 * streamed, "FLOP", format_flops(2 * streamed)),
        },
        "table": rows,
    }


CONFIG_EXPLAINER = Calculator(
    id="config-explainer",
    title="config.json explained",
    description="Paste a model's config.json to see what each field sets and what it costs in parameters, bytes and FLOPs.",
    inputs=(
        MODEL_CONFIG.variant(default=OPENING_CONFIG),
        context_input(default=32768, min=1, slider=True, help="Tokens in one sequence, for its KV cache."),
        dtype_input(id="weight_dtype", label="Weight format", help="How the weights are stored."),
        dtype_input(id="kv_dtype", label="KV cache format", help="How cached keys and values are stored."),
    ),
    outputs=(
        Output("name", "Model"),
        Output("total_params", "Parameters (all, in memory)"),
        Output("active_params", "Active parameters per token"),
        Output("weight_bytes", "Weights"),
        WEIGHT_FORMAT_READ,
        Output("kv_bytes_per_token", "KV cache per token"),
        Output("kv_bytes_at_context", "KV cache per sequence at the context"),
        Output("decode_flops_per_token", "Weight FLOPs per generated token"),
    ),
    headline=("total_params", "active_params", "kv_bytes_per_token", "weight_bytes"),
    key_inputs=("model_config",),
    compute=_compute,
    table_columns=(
        Output("field", "Config field"),
        Output("value", "Value"),
        Output("sets", "What it sets"),
        Output("effect", "Effect"),
    ),
)
