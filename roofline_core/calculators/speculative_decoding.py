"""Speculative decoding: the speed-up a draft gives, after its own cost and the verify step's."""

from __future__ import annotations

from typing import Any

from roofline_core.calculators._common import (
    WEIGHT_FORMAT_READ,
    accelerator_input,
    batch_input,
    context_input,
    devices_input,
    dtype_input,
    model_config_input,
    model_input,
    model_of,
    parts_result,
)
from roofline_core.calculators.base import Calculator, Output, value
from roofline_core.estimates.headroom import kv_cache_copies, reserved_bytes
from roofline_core.estimates.inference import MemoryFit
from roofline_core.estimates.speculative import DRAFT_HEAD, DRAFT_MODEL, DRAFT_NGRAM, estimate_speculative_decode
from roofline_core.formatting import (
    bound_phrase,
    format_amount,
    format_bytes,
    format_memory_fit,
    format_number,
    format_percent,
    format_time,
    format_tokens_per_s,
)
from roofline_core.hardware import ACCELERATORS
from roofline_core.models import MODELS
from roofline_core.vocabulary import Choice, Number, OneOf, WholeNumber


def _memory(values: dict[str, Any], draft_kind: str) -> MemoryFit:
    """Target and draft together: both models' weights and KV caches share the devices."""
    models = [model_of(values)]
    if draft_kind == DRAFT_MODEL:
        models.append(MODELS[values["draft_model"]])
    weight = sum(m.weight_bytes(values["weight_dtype"]) for m in models)
    # Each model's cache as the devices hold it (an MLA cache whole on each device).
    kv = sum(
        m.kv_cache_bytes(context_tokens=values["context_tokens"], batch=values["batch"], kv_dtype=values["kv_dtype"])
        * kv_cache_copies(m, devices=values["devices"])
        for m in models
    )
    capacity = ACCELERATORS[values["accelerator"]].fit_memory_bytes * values["devices"]
    return MemoryFit(
        capacity_bytes=capacity,
        weight_bytes=weight,
        kv_bytes=kv,
        kv_bytes_per_sequence=kv / values["batch"],
        max_batch=None,
        max_context_tokens=None,
        reserved_bytes=reserved_bytes(models[0], capacity_bytes=capacity, devices=values["devices"]),
    )


def _draft_text(share: float, draft_step_s: float) -> str:
    if draft_step_s == 0:
        return "none: n-gram lookup runs on the host"
    return f"{format_percent(share)} of each cycle ({format_time(draft_step_s)} per draft token)"


def _compute(values: dict[str, Any]) -> dict[str, Any]:
    draft_kind = values["draft_kind"]
    estimate = estimate_speculative_decode(
        model=model_of(values),
        accelerator=ACCELERATORS[values["accelerator"]],
        draft_kind=draft_kind,
        draft_model=MODELS[values["draft_model"]] if draft_kind == DRAFT_MODEL else None,
        draft_tokens=values["draft_tokens"],
        acceptance_rate=values["acceptance_percent"] / 100,
        batch=values["batch"],
        context_tokens=values["context_tokens"],
        weight_dtype=values["weight_dtype"],
        kv_dtype=values["kv_dtype"],
        devices=values["devices"],
    )
    speedup = estimate.speedup
    if abs(speedup - 1) < 5e-4:
        speedup_text = "no faster than plain decoding"
    elif speedup > 1:
        speedup_text = f"{format_number(speedup)}× faster"
    else:
        speedup_text = f"{format_number(speedup)}×: slower, the draft and verify cost more than they save"
    plain_rate = 1 / estimate.plain_step_s
    fit = _memory(values, draft_kind)
    cycle = (
        f"a draft-and-verify cycle, which yields {format_amount(estimate.expected_tokens, 'tokens')}"
        " per sequence on average"
    )
    return {
        "parts": parts_result("tokens_per_s", estimate.cycle_s, estimate.parts, estimate.working, inverts=cycle),
        "outputs": {
            "speedup": value(speedup, "1", speedup_text),
            "tokens_per_s": value(
                estimate.tokens_per_s_per_sequence,
                "tokens/s",
                f"{format_tokens_per_s(estimate.tokens_per_s_per_sequence)} per sequence "
                f"(plain decoding: {format_tokens_per_s(plain_rate)})",
            ),
            "expected_tokens": value(
                estimate.expected_tokens,
                "tokens",
                format_amount(estimate.expected_tokens, "tokens"),
            ),
            "verify_step": value(
                estimate.verify_step_s,
                "s",
                f"{format_time(estimate.verify_step_s)}, {bound_phrase(estimate.verify_bound)} "
                f"(a plain step: {format_time(estimate.plain_step_s)})",
            ),
            "draft_share": value(
                estimate.draft_share,
                "1",
                _draft_text(estimate.draft_share, estimate.draft_step_s),
            ),
            "fits": value(fit.fits, "", format_memory_fit(fit)),
            "kv_bytes": value(fit.kv_bytes, "B", format_bytes(fit.kv_bytes)),
        },
    }


SPECULATIVE_DECODING = Calculator(
    id="speculative-decoding",
    title="Speculative decoding speed-up",
    description=(
        "Tokens per verify step from the draft length and acceptance rate, and the speed-up after "
        "the draft's own cost and the larger verify step."
    ),
    inputs=(
        # Llama 3.1 8B drafted by Llama 3.2 1B (same tokenizer), both in 16-bit weights on
        # one H100: a pairing engines document, and a scenario that fits with room to spare.
        model_input(default="llama-3.1-8b"),
        model_config_input(),
        OneOf(
            id="draft_kind",
            label="Draft",
            choices=(
                Choice(value=DRAFT_MODEL, label="A smaller model", uses=("draft_model",)),
                Choice(value=DRAFT_HEAD, label="A one-layer head (MTP, EAGLE)"),
                Choice(value=DRAFT_NGRAM, label="N-gram lookup in the prompt (free)"),
            ),
            default=DRAFT_MODEL,
            help="What proposes the guesses; a draft model must share the target's tokenizer.",
        ),
        OneOf(
            id="draft_model",
            label="Draft model",
            choices=tuple(Choice(value=m.slug, label=m.name, group=m.family) for m in MODELS.values()),
            default="llama-3.2-1b",
            help="Runs its own decode step per guess, in the same formats and on the same devices.",
        ),
        WholeNumber(
            id="draft_tokens",
            label="Draft length",
            unit="tokens",
            default=4,
            minimum=1,
            maximum=16,
            slider=True,
            help="Guesses proposed before each verify step (k).",
        ),
        Number(
            id="acceptance_percent",
            label="Acceptance rate",
            unit="%",
            default=70,
            minimum=0,
            maximum=100,
            step=1,
            slider=True,
            help="Chance that each guess is accepted, taken as independent per token.",
        ),
        batch_input(default=1),
        context_input(default=4096, min=1, slider=True),
        dtype_input(id="weight_dtype", label="Weight format", help="How the weights of both models are stored."),
        dtype_input(id="kv_dtype", label="KV cache format", help="How cached keys and values are stored."),
        accelerator_input(),
        devices_input(default=1),
    ),
    outputs=(
        Output("speedup", "Speed-up"),
        Output("tokens_per_s", "Tokens per second"),
        Output("expected_tokens", "Tokens per verify step"),
        Output("verify_step", "Verify step"),
        Output("draft_share", "Time spent drafting"),
        Output("fits", "Fits in memory"),
        Output("kv_bytes", "KV cache, both models"),
        WEIGHT_FORMAT_READ,
    ),
    headline=("speedup", "tokens_per_s"),
    key_inputs=("acceptance_percent", "draft_tokens"),
    compute=_compute,
)
