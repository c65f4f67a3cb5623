"""What splitting inference over devices costs in communication: tensor, expert and pipeline parallelism.

Collective times follow the α–β model: a fixed latency ``α`` per step plus the bytes each
device must send over its link bandwidth ``β``. NCCL's own performance notes
(https://github.com/NVIDIA/nccl-tests/blob/master/doc/PERFORMANCE.md) give the bandwidth term:
an all-reduce of ``S`` bytes over ``n`` devices, each with link bandwidth ``B``, takes at best
``(S / B) * 2(n-1)/n`` (a ring does it in ``2(n-1)`` steps), and an all-to-all ``(S / B) * (n-1)/n``.

- **Tensor parallelism** (Megatron-LM, https://arxiv.org/abs/1909.08053, section 3) splits each
  layer's matrices over the devices and all-reduces the activations twice per layer in the
  forward pass, after attention and after the MLP: ``batch x tokens x hidden`` elements each.
- **Expert parallelism** places experts on different devices; every MoE layer sends each token's
  activation to the devices of its chosen experts and back (dispatch and combine: two
  all-to-alls), as in GShard (https://arxiv.org/abs/2006.16668).
- **Pipeline parallelism** splits the layers into stages; with ``m`` micro-batches in flight
  over ``p`` stages a share ``(p-1)/(m+p-1)`` of the time is idle bubble (GPipe,
  https://arxiv.org/abs/1811.06965).

Standard library only.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from roofline_core.hardware import AnyAccelerator
from roofline_core.models import AnyModel, Model

#: Latency of one step of a collective, in seconds: an assumption, since no vendor sheet states
#: one. Decode's all-reduces are small, so this term dominates them; NCCL switches to tree and
#: low-latency protocols and vLLM to a one-shot custom all-reduce for small messages, so the
#: ring's ``2(n-1)`` steps at this latency lean high. One named constant, changed in one place.
STEP_LATENCY_S = 1e-6


def link_bandwidth_per_direction_bytes_per_s(accelerator: AnyAccelerator) -> float | None:
    """One device's link bandwidth in one direction, from its preset's figure and wording.

    Sheets state NVLink and ICI as the total of both directions ("bidirectional", "2x 900",
    "total") or leave the direction unstated, which for NVIDIA means the total; those are
    halved. A figure stated per direction ("per direction", "unidirectional") is used as is.
    None when the preset has no interconnect figure.
    """
    figure = getattr(accelerator, "interconnect_bandwidth_bytes_per_s", None)
    if not figure:
        return None
    direction = getattr(accelerator, "interconnect_direction", "").lower()
    if direction.startswith("per direction") or direction.startswith("unidirectional"):
        return figure
    # "bidirectional", "total ...", "stated as '2x ...'", "not stated", "per link, direction
    # not stated": the cautious reading is that both directions are summed.
    return figure / 2


def all_reduce_time_s(
    *, message_bytes: float, devices: int, link_bandwidth_bytes_per_s: float, step_latency_s: float = STEP_LATENCY_S
) -> float:
    """Ring all-reduce of ``message_bytes`` on each of ``devices``: ``2(n-1)`` steps and ``2(n-1)/n`` of the bytes.

    >>> all_reduce_time_s(message_bytes=16e6, devices=8, link_bandwidth_bytes_per_s=450e9, step_latency_s=0)
    6.222222222222222e-05
    """
    if devices <= 1:
        return 0.0
    steps = 2 * (devices - 1)
    return steps * step_latency_s + message_bytes * steps / devices / link_bandwidth_bytes_per_s


def all_to_all_time_s(
    *, message_bytes: float, devices: int, link_bandwidth_bytes_per_s: float, step_latency_s: float = STEP_LATENCY_S
) -> float:
    """All-to-all of ``message_bytes`` per device: ``(n-1)/n`` of it leaves over the link, ``n-1`` exchanges."""
    if devices <= 1:
        return 0.0
    return (devices - 1) * step_latency_s + message_bytes * (devices - 1) / devices / link_bandwidth_bytes_per_s


@dataclass(frozen=True)
class CommCost:
    """Communication of one forward step.

    Attributes:
        time_s: Time on the critical path, in seconds (0 on one device).
        bytes_per_device: Bytes each device sends, in bytes.
        collectives: Collectives in the step.
        known: False when the accelerator has no interconnect figure (then ``time_s`` is 0 and
            the estimate says communication is unknown).
        latency_s: The part of ``time_s`` that is per-step latency (the α term); the rest is
            ``bytes_per_device`` over the link (the β term).
        link_bytes_per_s: The link bandwidth per direction the transfer used, in bytes/s (0 when
            nothing is sent).
        kind: What the collectives are (``"all-reduce"``, ``"all-to-all"``, ``"hop"``), for
            the working a reader sees.
    """

    time_s: float
    bytes_per_device: float
    collectives: int
    known: bool = True
    latency_s: float = 0.0
    link_bytes_per_s: float = 0.0
    kind: str = ""

    @property
    def transfer_s(self) -> float:
        """The part of ``time_s`` spent sending bytes over the link, in seconds."""
        return self.time_s - self.latency_s


NONE = CommCost(0.0, 0.0, 0)


def tensor_parallel_comm(
    model: AnyModel,
    accelerator: AnyAccelerator,
    *,
    devices: int,
    tokens: int,
    activation_bytes_per_element: float = 2,
) -> CommCost:
    """Two all-reduces per layer of ``tokens x hidden`` activations (``tokens`` = batch x tokens per sequence).

    A model known only by its size has no layer count or width: its communication is unknown.
    """
    if devices <= 1:
        return NONE
    link = link_bandwidth_per_direction_bytes_per_s(accelerator)
    if link is None or not isinstance(model, Model):
        return CommCost(0.0, 0.0, 0, known=False)
    message = tokens * model.hidden_size * activation_bytes_per_element
    collectives = 2 * model.layers
    one = all_reduce_time_s(message_bytes=message, devices=devices, link_bandwidth_bytes_per_s=link)
    sent = message * 2 * (devices - 1) / devices
    latency = collectives * 2 * (devices - 1) * STEP_LATENCY_S
    return CommCost(collectives * one, collectives * sent, collectives, True, latency, link, "all-reduce")


def expert_parallel_comm(
    model: Model,
    accelerator: AnyAccelerator,
    *,
    devices: int,
    tokens: int,
    activation_bytes_per_element: float = 2,
) -> CommCost:
    """Dispatch and combine all-to-alls per MoE layer: each token's activation to its ``k`` experts and back.

    The layout is wide expert parallelism as DeepSeek-V3 and vLLM's ``--enable-expert-parallel``
    run it: each device owns a share of the tokens (data-parallel attention, or tensor-parallel
    attention whose ranks each dispatch a slice of the tokens), and every MoE
    layer sends each of them, ``hidden`` activations, once per chosen expert (DeepEP's
    low-latency kernels copy a token per expert, https://github.com/deepseek-ai/DeepEP), then
    brings the expert outputs back the same way. The devices wait for the busiest one, which
    holds ``ceil(tokens / devices)`` tokens: one sequence on eight devices still sends a whole
    token's activations, not an eighth. Of a device's messages ``(n-1)/n`` leave it (experts
    spread evenly, so a share ``1/n`` is local).
    """
    if devices <= 1 or not model.is_moe:
        return NONE
    link = link_bandwidth_per_direction_bytes_per_s(accelerator)
    if link is None:
        return CommCost(0.0, 0.0, 0, known=False)
    busiest_tokens = math.ceil(tokens / devices)
    per_device = busiest_tokens * model.experts_per_token * model.hidden_size * activation_bytes_per_element
    collectives = 2 * model.moe_layers
    one = all_to_all_time_s(message_bytes=per_device, devices=devices, link_bandwidth_bytes_per_s=link)
    sent = collectives * per_device * (devices - 1) / devices
    latency = collectives * (devices - 1) * STEP_LATENCY_S
    return CommCost(collectives * one, sent, collectives, True, latency, link, "all-to-all")


def pipeline_bubble_fraction(*, stages: int, microbatches: int) -> float:
    """Share of a pipeline's time its stages sit idle: ``(p-1)/(m+p-1)``.

    >>> pipeline_bubble_fraction(stages=4, microbatches=4)
    0.42857142857142855
    """
    if stages < 1 or microbatches < 1:
        raise ValueError("stages and microbatches must be at least 1")
    return (stages - 1) / (microbatches + stages - 1)


def communication_share(*, compute_time_s: float, communication_time_s: float) -> float:
    """Share of a step spent communicating, when communication is not overlapped with compute."""
    total = compute_time_s + communication_time_s
    return communication_time_s / total if total > 0 else 0.0
