"""Speculative decoding on the roofline: tokens per verify step, and what the draft costs.

A draft proposes ``k`` tokens; the target model checks them, plus the current position, in one
forward pass and keeps them up to the first rejection, then adds its own token there. If each
draft token is accepted independently with probability ``a`` (the assumption of Leviathan,
Kalman and Matias 2023, https://arxiv.org/abs/2211.17192, section 3), one verify step yields

    E = (1 - a^(k+1)) / (1 - a)          (k + 1 when a = 1)

tokens on average::

    >>> round(expected_tokens_per_verify(acceptance_rate=0.8, draft_tokens=4), 3)
    3.362
    >>> expected_tokens_per_verify(acceptance_rate=0.0, draft_tokens=4)
    1.0

The time per cycle is ``k`` draft steps plus one verify step. The verify step is a decode step
whose every sequence carries ``k + 1`` tokens: the weights and the KV cache are read once, the
FLOPs are ``k + 1`` times a plain step's, so it stays as fast as a plain step only while the
step is memory-bound. On several devices every step, verify and draft alike, pays tensor
parallelism's all-reduces as a plain step does (the verify step's carry ``k + 1`` tokens per
sequence), so with nothing accepted speculation is never faster than plain decoding.
Standard library only.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from roofline_core.estimates.communication import CommCost, tensor_parallel_comm
from roofline_core.estimates.inference import (
    StepEstimate,
    _kv_bytes_per_token,
    _step,
    _weight_bytes_read,
    estimate_decode,
    with_communication,
)
from roofline_core.estimates.parts import DRAFT_STEPS, KV_CACHE, WEIGHTS, BrokenIntoParts, Part
from roofline_core.formatting import format_time, format_whole
from roofline_core.hardware import Accelerator
from roofline_core.hardware.dtypes import bytes_per_element
from roofline_core.models import Model

#: Draft kinds: a separate small model; a head of one extra layer on the target's last hidden
#: state (DeepSeek-V3's multi-token prediction module, EAGLE); n-gram lookup in the prompt.
DRAFT_MODEL = "model"
DRAFT_HEAD = "head"
DRAFT_NGRAM = "ngram"
DRAFT_KINDS = (DRAFT_MODEL, DRAFT_HEAD, DRAFT_NGRAM)


def expected_tokens_per_verify(*, acceptance_rate: float, draft_tokens: int) -> float:
    """Mean tokens one verify step yields, for i.i.d. acceptance ``acceptance_rate`` of ``draft_tokens`` guesses.

    Raises:
        ValueError: if the rate is outside [0, 1] or the draft length is negative.
    """
    if not 0.0 <= acceptance_rate <= 1.0:
        raise ValueError(f"acceptance_rate must be from 0 to 1, got {acceptance_rate!r}")
    if draft_tokens < 0:
        raise ValueError(f"draft_tokens must be 0 or more, got {draft_tokens!r}")
    if acceptance_rate == 1.0:
        return float(draft_tokens + 1)
    return (1.0 - acceptance_rate ** (draft_tokens + 1)) / (1.0 - acceptance_rate)


@dataclass(frozen=True)
class SpeculativeEstimate(BrokenIntoParts):
    """One draft-and-verify cycle against plain decoding, per sequence of the batch.

    Attributes:
        expected_tokens: Mean tokens each verify step yields per sequence.
        plain_step_s: A plain decode step of the target, in seconds.
        draft_step_s: One draft step, in seconds (0 for n-gram lookup).
        verify_step_s: The verify step with ``draft_tokens + 1`` tokens per sequence, in seconds.
        draft_tokens: Guesses per cycle.
        verify_bound: ``"memory"`` or ``"compute"``: the roof that sets the verify step.
        verify: The verify step itself, whose parts make up most of a cycle's; None when the
            estimate was built from the times alone.
    """

    expected_tokens: float
    plain_step_s: float
    draft_step_s: float
    verify_step_s: float
    draft_tokens: int
    verify_bound: str
    verify: StepEstimate | None = field(default=None, compare=False)

    def _parts_and_working(self) -> tuple[tuple[Part, str], ...]:
        found: list[tuple[Part, str]] = []
        drafting = self.draft_tokens * self.draft_step_s
        if drafting > 0:
            found.append(
                (Part(DRAFT_STEPS, drafting), f"{format_whole(self.draft_tokens)} × {format_time(self.draft_step_s)}")
            )
        if self.verify is None:
            found.append((Part(WEIGHTS, self.verify_step_s), format_time(self.verify_step_s)))
        else:
            found.extend(zip(self.verify.parts, (text for _, text in self.verify.working)))
        return tuple(found)

    @property
    def cycle_s(self) -> float:
        """Drafting plus verifying, in seconds."""
        return self.draft_tokens * self.draft_step_s + self.verify_step_s

    @property
    def speedup(self) -> float:
        """Tokens per second with speculation over tokens per second without."""
        return self.expected_tokens * self.plain_step_s / self.cycle_s

    @property
    def tokens_per_s_per_sequence(self) -> float:
        """Tokens/s each sequence sees with speculation."""
        return self.expected_tokens / self.cycle_s

    @property
    def draft_share(self) -> float:
        """Share of the cycle spent drafting (0 to 1)."""
        return self.draft_tokens * self.draft_step_s / self.cycle_s


def _head_draft_step_s(
    model: Model,
    accelerator: Accelerator,
    *,
    weight_dtype: str,
    kv_dtype: str,
    batch: int,
    context_tokens: int,
    devices: int,
) -> float:
    """One step of a one-layer draft head: a layer's share of the weights, the output head, one layer's KV.

    A model that ships multi-token-prediction modules drafts with the first one: its own layer
    (the routed experts a token uses), its projection and norms, and the shared output head.
    """
    head_params = model.vocab_size * model.hidden_size
    layer_params = (model.streamed_params_per_token - head_params) / model.layers
    kv_one_layer = _kv_bytes_per_token(model, kv_dtype, context_tokens) * context_tokens * batch / model.layers
    params = model.mtp_streamed_params_per_draft or layer_params + head_params
    step = _step(
        flops=2.0 * params * batch,
        bytes_moved=params * bytes_per_element(weight_dtype) + kv_one_layer,
        tokens=batch,
        peak_flop_per_s=accelerator.peak_for("fp16"),
        bandwidth_bytes_per_s=accelerator.bandwidth_bytes_per_s,
        devices=devices,
        byte_parts=((WEIGHTS, params * bytes_per_element(weight_dtype)), (KV_CACHE, kv_one_layer)),
    )
    # Split over the devices like the target, the head's one layer all-reduces twice.
    whole = tensor_parallel_comm(model, accelerator, devices=devices, tokens=batch)
    return with_communication(step, _one_layer_of(whole, model.layers)).step_time_s


def _one_layer_of(communication: CommCost, layers: int) -> CommCost:
    """One layer's share of a whole model's tensor-parallel communication (two all-reduces)."""
    if communication.collectives == 0:
        return communication
    share = 1 / layers
    return CommCost(
        communication.time_s * share,
        communication.bytes_per_device * share,
        communication.collectives // layers,
        communication.known,
        communication.latency_s * share,
        communication.link_bytes_per_s,
        communication.kind,
    )


def estimate_speculative_decode(
    *,
    model: Model,
    accelerator: Accelerator,
    draft_kind: str,
    draft_tokens: int,
    acceptance_rate: float,
    draft_model: Model | None = None,
    batch: int = 1,
    context_tokens: int = 0,
    weight_dtype: str = "fp16",
    kv_dtype: str = "fp16",
    devices: int = 1,
) -> SpeculativeEstimate:
    """Speculative decoding of ``model`` at the roofline, draft and target on the same devices.

    Args:
        draft_kind: One of :data:`DRAFT_KINDS`. A draft model runs its own decode step (its
            weights and its KV cache, in the same formats); a head costs one layer of the
            target plus the output head; n-gram lookup costs nothing on the accelerator.
        draft_model: The draft model, for ``draft_kind="model"``.

    Raises:
        ValueError: for an unknown draft kind, a missing draft model, or values out of range.
    """
    if draft_kind not in DRAFT_KINDS:
        raise ValueError(f"unknown draft kind {draft_kind!r}; expected one of {', '.join(DRAFT_KINDS)}")
    if draft_kind == DRAFT_MODEL and draft_model is None:
        raise ValueError("draft_kind 'model' needs draft_model")
    expected = expected_tokens_per_verify(acceptance_rate=acceptance_rate, draft_tokens=draft_tokens)
    common = {"accelerator": accelerator, "weight_dtype": weight_dtype, "kv_dtype": kv_dtype, "devices": devices}
    plain = estimate_decode(model=model, batch=batch, context_tokens=context_tokens, **common)
    verify_tokens = batch * (draft_tokens + 1)
    # One read of the weights (for an MoE, the experts the k + 1 tokens of every sequence pick)
    # and of the KV cache; k + 1 times the FLOPs of a plain step.
    weights = _weight_bytes_read(model, weight_dtype, verify_tokens)
    verify = _step(
        flops=plain.step.flops * (draft_tokens + 1),
        bytes_moved=weights + plain.kv_bytes,
        tokens=verify_tokens,
        peak_flop_per_s=plain.step.peak_flop_per_s,
        bandwidth_bytes_per_s=plain.step.bandwidth_bytes_per_s,
        devices=devices,
        byte_parts=((WEIGHTS, weights), (KV_CACHE, plain.kv_bytes)),
        attention_flops=plain.step.attention_flops * (draft_tokens + 1),
    )
    # The verify step is a forward pass over k + 1 tokens per sequence on the same devices as a
    # plain step: it pays the same all-reduces, on k + 1 times the activations.
    verify = with_communication(verify, tensor_parallel_comm(model, accelerator, devices=devices, tokens=verify_tokens))
    if draft_kind == DRAFT_NGRAM:
        draft_s = 0.0
    elif draft_kind == DRAFT_HEAD:
        draft_s = _head_draft_step_s(
            model,
            accelerator,
            weight_dtype=weight_dtype,
            kv_dtype=kv_dtype,
            batch=batch,
            context_tokens=context_tokens,
            devices=devices,
        )
    else:
        assert draft_model is not None
        draft_s = estimate_decode(model=draft_model, batch=batch, context_tokens=context_tokens, **common).step_time_s
    return SpeculativeEstimate(
        expected_tokens=expected,
        plain_step_s=plain.step_time_s,
        draft_step_s=draft_s,
        verify_step_s=verify.step_time_s,
        draft_tokens=draft_tokens,
        verify_bound=verify.bound,
        verify=verify,
    )
