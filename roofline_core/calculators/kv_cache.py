"""KV cache size: how much memory cached keys and values take, and how many sequences fit."""

from __future__ import annotations

from typing import Any

from roofline_core.calculators._common import (
    ATTENTION_SPLIT_ID,
    DATA_PARALLEL_ATTENTION,
    WEIGHT_FORMAT_READ,
    accelerator_input,
    batch_input,
    context_input,
    custom_accelerator_inputs,
    custom_kv_inputs,
    devices_input,
    dtype_input,
    fit_advice,
    memory_fit_of,
    model_config_input,
    model_input,
    model_of,
    params_input,
)
from roofline_core.calculators._engines import (
    BLOCK_INPUT,
    COMMAND_OUTPUTS,
    UTILISATION_INPUT,
    VLLM_OUTPUTS,
    command_outputs,
    vllm_outputs,
)
from roofline_core.calculators.base import CUSTOM, Calculator, Output, value
from roofline_core.calculators.kv_cache_chart import kv_cache_chart
from roofline_core.estimates.headroom import KV_BLOCK_TOKENS, kv_capacity
from roofline_core.estimates.inference import MemoryFit
from roofline_core.formatting import (
    format_amount,
    format_bytes,
    format_capacity,
    format_max_batch,
    format_max_context,
    format_percent,
    format_whole,
)
from roofline_core.hardware import ACCELERATORS
from roofline_core.models import GQA, MHA, MLA, AnyModel, Model
from roofline_core.vocabulary import Choice, OneOf, WholeNumber


def _accelerator_name(values: dict[str, Any]) -> str:
    """The chosen accelerator's name; this calculator's "Custom" has only a memory size, so no
    :class:`CustomAccelerator` is built for it."""
    if values["accelerator"] == CUSTOM:
        return "a custom accelerator"
    return ACCELERATORS[values["accelerator"]].name


def _max_batch_text(values: dict[str, Any], fit: MemoryFit) -> str:
    """The largest batch; when not even one sequence fits, why, and what would fit it."""
    if fit.max_batch != 0:
        return format_max_batch(fit)
    return f"{format_max_batch(fit)}. {fit_advice(values, batch=1, context_tokens=values['context_tokens'])}"


def _engine_report(values: dict[str, Any], model: AnyModel, fit: MemoryFit) -> dict[str, Any]:
    """What an engine prints at start-up: the tokens its KV blocks hold, and how many requests
    of this context run at once."""
    if not isinstance(model, Model):
        return value(0, "tokens", "unknown for a model given by size alone")
    report = kv_capacity(
        model,
        capacity_bytes=fit.capacity_bytes,
        weight_bytes=fit.weight_bytes,
        kv_dtype=values["kv_dtype"],
        context_tokens=values["context_tokens"],
        devices=values["devices"],
        data_parallel_attention=values[ATTENTION_SPLIT_ID] == DATA_PARALLEL_ATTENTION,
    )
    if report.blocks == 0:
        return value(0, "tokens", "none: no room beside the weights and the runtime's reserve")
    return value(
        report.cache_tokens,
        "tokens",
        f"{format_whole(report.cache_tokens)} tokens in {format_whole(report.blocks)} blocks of "
        f"{KV_BLOCK_TOKENS}; {format_amount(report.max_sequences, 'requests')} of this context at once",
    )


def _copies_text(model: AnyModel, fit: MemoryFit, devices: int) -> str:
    """How many copies of the cache the devices keep, and why."""
    if fit.kv_copies <= 1:
        return "1: the cache is split over the devices" if devices > 1 else "1"
    if getattr(model, "attention", None) == MLA:
        return (
            f"{format_whole(devices)}: tensor parallelism keeps the whole MLA latent cache on every device "
            "(vLLM, SGLang); data-parallel attention keeps one"
        )
    return f"{fit.kv_copies:g}: {devices} devices share {model.kv_heads} KV heads, so engines repeat them"


def _per_token_text(model: AnyModel, per_token: float, kv_dtype: str) -> str:
    """Bytes per token, and for a hybrid model which of its layers they come from."""
    if isinstance(model, Model) and model.compressed_attention is not None:
        ca = model.compressed_attention
        # 512 tokens: whole windows of both ratios' pooling (4 and 128), so the share is exact.
        beyond = model.growing_kv_cache_bytes(context_tokens=ca.window + 512, kv_dtype=kv_dtype)
        beyond -= model.growing_kv_cache_bytes(context_tokens=ca.window, kv_dtype=kv_dtype)
        return (
            f"{format_bytes(per_token)} while a token is among the last {ca.window} in every layer; beyond them "
            f"{format_bytes(beyond / 512)}, its share of the entries the context is pooled into"
        )
    if not (isinstance(model, Model) and model.recurrent is not None):
        return format_bytes(per_token)
    return (
        f"{format_bytes(per_token)}, from the {model.attention_layers} of {model.layers} layers that attend; "
        f"the {model.recurrent_layers} {model.recurrent.label} layers add nothing per token"
    )


def _fixed_state(model: AnyModel, fit: MemoryFit, batch: int) -> dict[str, Any]:
    """The per-sequence state that does not grow with the context, and how much of the sequence it is."""
    state = model.state_bytes_per_sequence
    if not state:
        return value(0.0, "B", "none: every layer that mixes tokens keeps a KV cache")
    assert isinstance(model, Model)
    growing = fit.kv_bytes_per_sequence - state * fit.kv_copies
    if model.compressed_attention is not None:
        ca = model.compressed_attention
        return value(
            state,
            "B",
            f"{format_bytes(state)} per sequence in the compressors of {ca.compressed_layers} layers (FP32 tokens "
            f"waiting to be pooled), whatever the context; {format_bytes(max(growing, 0.0))} per sequence grows with it"
            + (f"; {format_bytes(state * batch)} for the batch" if batch > 1 else ""),
        )
    assert model.recurrent is not None
    return value(
        state,
        "B",
        f"{format_bytes(state)} per sequence in {model.recurrent_layers} {model.recurrent.label} layers "
        f"({model.recurrent.state_dtype.upper()} state), whatever the context; "
        f"{format_bytes(max(growing, 0.0))} per sequence grows with it"
        + (f"; {format_bytes(state * batch)} for the batch" if batch > 1 else ""),
    )


def _compute(values: dict[str, Any]) -> dict[str, Any]:
    model = model_of(values)
    per_token = model.kv_bytes_per_token(values["kv_dtype"])
    fit = memory_fit_of(values, model, context_tokens=values["context_tokens"])
    kv_share = fit.kv_bytes / fit.capacity_bytes
    return {
        "outputs": {
            "kv_bytes": value(
                fit.kv_bytes,
                "B",
                format_bytes(fit.kv_bytes) + (f" ({fit.kv_copies:g} copies)" if fit.kv_copies > 1 else ""),
            ),
            "kv_copies": value(fit.kv_copies, "", _copies_text(model, fit, values["devices"])),
            # One copy per token, as the model defines it; the batch and sequence figures count copies.
            "kv_bytes_per_token": value(per_token, "B", _per_token_text(model, per_token, values["kv_dtype"])),
            "state_bytes_per_sequence": _fixed_state(model, fit, values["batch"]),
            "kv_bytes_per_sequence": value(fit.kv_bytes_per_sequence, "B", format_bytes(fit.kv_bytes_per_sequence)),
            "share_of_memory": value(
                kv_share, "1", f"{format_percent(kv_share)} of {format_capacity(fit.capacity_bytes)}"
            ),
            "weight_bytes": value(fit.weight_bytes, "B", format_bytes(fit.weight_bytes)),
            "max_batch": value(fit.max_batch, "sequences", _max_batch_text(values, fit)),
            "max_context_tokens": value(fit.max_context_tokens, "tokens", format_max_context(fit)),
            "cache_tokens": _engine_report(values, model, fit),
            **vllm_outputs(values, model, weight_bytes=fit.weight_bytes, context_tokens=values["context_tokens"]),
            **command_outputs(
                values, model, context_tokens=values["context_tokens"], sequences=values["batch"], fits=fit.fits
            ),
        },
        "chart": kv_cache_chart(
            model=model,
            fit=fit,
            kv_dtype=values["kv_dtype"],
            batch=values["batch"],
            context_tokens=values["context_tokens"],
            devices=values["devices"],
            accelerator_name=_accelerator_name(values),
        ),
    }


KV_CACHE = Calculator(
    id="kv-cache",
    title="KV cache size",
    description="How much memory the cached keys and values of a batch take, and how many sequences fit beside the weights.",
    inputs=(
        model_input(
            default="llama-3-70b",
            custom_fields=(
                "params_billion",
                "attention",
                "layers",
                "kv_heads",
                "head_dim",
                "mla_latent_dim",
                "mla_rope_dim",
            ),
        ),
        model_config_input(),
        params_input(default=70),
        OneOf(
            id="attention",
            label="Attention",
            choices=(
                Choice(value=MHA, label="Multi-head (MHA)"),
                Choice(value=GQA, label="Grouped-query (GQA)"),
                Choice(value=MLA, label="Multi-head latent (MLA)"),
            ),
            default=GQA,
            help="Custom model only: MHA and GQA cache a key and a value per KV head; MLA caches one compressed latent.",
        ),
        *custom_kv_inputs(),
        WholeNumber(
            id="mla_latent_dim",
            label="MLA latent width",
            unit="elements",
            default=512,
            minimum=1,
            maximum=65536,
            help="Custom MLA model only: width of the compressed KV latent cached per layer.",
        ),
        WholeNumber(
            id="mla_rope_dim",
            label="MLA rotary key width",
            unit="elements",
            default=64,
            minimum=0,
            maximum=4096,
            help="Custom MLA model only: width of the decoupled rotary key cached beside the latent.",
        ),
        context_input(default=32768, min=1, slider=True),
        batch_input(default=1),
        dtype_input(id="kv_dtype", label="KV cache format", help="How cached keys and values are stored."),
        accelerator_input(custom_fields=("memory_gb",)),
        *custom_accelerator_inputs("memory_gb"),
        dtype_input(
            id="weight_dtype", label="Weight format", help="How the weights are stored; they share the memory."
        ),
        # Four: Llama 3 70B's 16-bit weights (141 GB) overflow one H100 (80 GiB), and two hold
        # them but only one 32k-token cache beside a serving engine's reserve; a calculator
        # opens on a scenario that runs with room to batch.
        devices_input(default=4),
        OneOf(
            id=ATTENTION_SPLIT_ID,
            label="Attention over the devices",
            choices=(
                Choice(value="tensor", label="Split by heads (tensor parallel)"),
                Choice(value=DATA_PARALLEL_ATTENTION, label="Each device its own sequences (data parallel)"),
            ),
            default="tensor",
            help=(
                "Tensor parallelism splits the cache by KV heads, so an MLA cache, which has none, is kept "
                "whole on every device. Data-parallel attention (SGLang's --enable-dp-attention) keeps one "
                "copy but puts all the attention weights on every device."
            ),
        ),
        UTILISATION_INPUT,
        BLOCK_INPUT,
    ),
    outputs=(
        Output("kv_bytes", "KV cache, whole batch"),
        Output("kv_bytes_per_token", "KV cache per token"),
        Output("kv_bytes_per_sequence", "KV cache per sequence"),
        Output("state_bytes_per_sequence", "Fixed state per sequence (recurrent layers, compressors)"),
        Output("kv_copies", "Copies the devices keep"),
        Output("share_of_memory", "Share of accelerator memory"),
        Output("weight_bytes", "Weights"),
        WEIGHT_FORMAT_READ,
        Output("max_batch", "Largest batch that fits"),
        Output("max_context_tokens", "Longest context that fits"),
        Output("cache_tokens", "KV cache capacity, at a generic engine's reserve"),
        *VLLM_OUTPUTS,
        *COMMAND_OUTPUTS,
    ),
    # Whether the batch fits leads (a configuration that does not fit says so at the top); the
    # chart beside shows up to what context it does.
    headline=("max_batch", "kv_bytes"),
    key_inputs=("model", "context_tokens"),
    compute=_compute,
)
