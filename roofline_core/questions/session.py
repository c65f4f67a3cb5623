"""An agentic session: one task served as N turns whose context grows with every tool call.

Turn 1 prefills the task's prompt and generates ``output_tokens``; every later turn appends the
previous call's tool output (``tool_tokens``) and generates again, so before turn ``i`` the
context holds ``prompt + (i - 1) x (output + tool)`` tokens minus the last tool output.

Per turn (every time realistic: each roof at the fitted share of peak of
:mod:`roofline_core.estimates.efficiency`, through the estimates' own rule):

1. **Prefix cache.** A share ``hit_rate`` of the previous context is found cached (the engine
   kept it, or an offload tier holds it); the rest of it and the new tool tokens are prefilled.
   The prefill of ``u`` uncached tokens after ``c`` cached ones is the prefill estimate of
   ``u`` tokens (weights read once, ``2 x params`` FLOPs a token) plus what attending to the
   cached prefix adds: causal attention over ``c + u`` tokens less that over ``c`` alone, and
   the prefix's KV cache read once.
2. **KV room.** ``concurrent`` sessions share the devices; memory left after the weights and the
   engine's reserve (:func:`~roofline_core.estimates.inference.memory_fit`) holds their caches.
   When the sessions' caches at the turn's start outgrow it, that share of every idle cache has
   been moved out while its tool ran: to CPU memory over PCIe, or to a disk; with no tier it is
   dropped and its hits are recomputed. Bringing a prefix back takes ``bytes / (devices x
   link bandwidth)`` (each device fetches its own shard over its own link) and is paid before
   the prefill, not overlapped with it.
3. **TTFT** = that transfer + the prefill. Queueing behind other sessions' prefills is not
   modelled: the turn is taken as served when it arrives.
4. **TPOT** = a decode step of ``concurrent`` sequences at the turn's mean context (start plus
   half the output) (:func:`~roofline_core.estimates.inference.estimate_decode`'s
   ``expected_step_time_s``). A turn takes ``TTFT + (output - 1) x TPOT``.

Totals: the task's wall time adds the tool calls' own time between turns. Device-seconds charge
a prefill the whole replica (it runs alone) and a decode step a ``1 / concurrent`` share of it
(the step is shared), transfers none (the copy engines move the bytes). Cost is device-seconds x
the price per device-hour / 3,600; energy is device-seconds x the board power, an upper bound
(boards rarely draw their limit, and the host, network and cooling are left out).
Standard library only.

>>> from roofline_core.hardware import ACCELERATORS
>>> from roofline_core.models import MODELS
>>> result = run_session(Session(model=MODELS["llama-3.1-8b"], accelerator=ACCELERATORS["h100-sxm"], turns=3))
>>> [turn.context_tokens for turn in result.turns]
[4000, 5300, 6600]
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from roofline_core.estimates.efficiency import expected_tensor_parallel_s
from roofline_core.estimates.inference import (
    MemoryFit,
    PrefillEstimate,
    estimate_decode,
    estimate_prefill,
    memory_fit,
    step_expected_s,
)
from roofline_core.hardware import AnyAccelerator
from roofline_core.models import AnyModel
from roofline_core.models.attention import prefill_attention_cost

#: Where a cache that outgrows the devices goes: CPU memory over PCIe, a disk, or nowhere.
CPU, DISK, NONE = "cpu", "disk", "none"
TIERS: tuple[str, ...] = (CPU, DISK, NONE)

#: PCIe 5.0 x16, one direction: 32 GT/s x 16 lanes x 128/130 encoding / 8 bits = 63 GB/s
#: (PCI-SIG, https://pcisig.com/pci-express-50-faq: "32 GT/s"; 128b/130b from PCIe 3.0 on).
PCIE5_X16_BYTES_PER_S = 32e9 * 16 * 128 / 130 / 8
#: A PCIe 4.0 x4 NVMe drive's link, one direction: 16 GT/s x 4 x 128/130 / 8 = 7.9 GB/s; fast
#: drives read sequentially just under it (Samsung 990 PRO: "up to 7,450 MB/s",
#: https://semiconductor.samsung.com/consumer-storage/internal-ssd/990-pro/).
NVME_GEN4_BYTES_PER_S = 7.45e9
TIER_BANDWIDTH: dict[str, float] = {CPU: PCIE5_X16_BYTES_PER_S, DISK: NVME_GEN4_BYTES_PER_S, NONE: 0.0}


@dataclass(frozen=True)
class Session:
    """One agentic task and the devices that serve it.

    Attributes:
        model: The model.
        accelerator: One device of the replica.
        weight_dtype: Storage format of the weights.
        kv_dtype: Storage format of the KV cache.
        devices: Devices of the replica (tensor parallel).
        turns: Model calls in the task (at least 1).
        prompt_tokens: The task's first prompt (system prompt, tools, request), in tokens.
        tool_tokens: Tool output appended before every turn after the first, in tokens.
        output_tokens: Tokens each turn generates (at least 1).
        hit_rate: Share of the previous context found in the prefix cache (0 to 1).
        concurrent: Sessions sharing the replica (the decode batch).
        tool_time_s: Seconds each tool call takes between turns.
        tier: Where caches that outgrow the devices go: :data:`CPU`, :data:`DISK` or :data:`NONE`.
        tier_bandwidth_bytes_per_s: The tier's link per device, in bytes/s (None: the tier's default).
        price_per_device_hour: Price of one device for an hour (0 for unknown).
    """

    model: AnyModel
    accelerator: AnyAccelerator
    weight_dtype: str = "fp8"
    kv_dtype: str = "fp8"
    devices: int = 1
    turns: int = 10
    prompt_tokens: int = 4000
    tool_tokens: int = 1000
    output_tokens: int = 300
    hit_rate: float = 0.9
    concurrent: int = 8
    tool_time_s: float = 2.0
    tier: str = CPU
    tier_bandwidth_bytes_per_s: float | None = None
    price_per_device_hour: float = 0.0

    def __post_init__(self) -> None:
        for name in ("devices", "turns", "prompt_tokens", "output_tokens", "concurrent"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{name} must be a whole number of at least 1, got {value!r}")
        if isinstance(self.tool_tokens, bool) or not isinstance(self.tool_tokens, int) or self.tool_tokens < 0:
            raise ValueError(f"tool_tokens must be a whole number of at least 0, got {self.tool_tokens!r}")
        if not 0 <= self.hit_rate <= 1:
            raise ValueError(f"hit_rate must be from 0 to 1, got {self.hit_rate!r}")
        if self.tier not in TIERS:
            raise ValueError(f"tier must be one of {', '.join(TIERS)}, got {self.tier!r}")
        if self.tier_bandwidth_bytes_per_s is not None and not self.tier_bandwidth_bytes_per_s > 0:
            raise ValueError(f"tier_bandwidth_bytes_per_s must be above 0, got {self.tier_bandwidth_bytes_per_s!r}")
        for name in ("tool_time_s", "price_per_device_hour"):
            if not (getattr(self, name) >= 0 and math.isfinite(getattr(self, name))):
                raise ValueError(f"{name} must be at least 0, got {getattr(self, name)!r}")

    @property
    def tier_bandwidth(self) -> float:
        """The tier's link per device, in bytes/s (0 for no tier)."""
        if self.tier == NONE:
            return 0.0
        return self.tier_bandwidth_bytes_per_s or TIER_BANDWIDTH[self.tier]

    @property
    def final_context_tokens(self) -> int:
        """Context at the end of the last turn, in tokens."""
        return self.prompt_tokens + self.turns * self.output_tokens + (self.turns - 1) * self.tool_tokens


@dataclass(frozen=True)
class Turn:
    """One model call of a session.

    Attributes:
        index: 1 for the first turn.
        previous_tokens: Context before the turn (everything the earlier turns left), in tokens.
        new_tokens: Tokens the turn appends before generating (the prompt, then tool output).
        cached_tokens: Tokens of the previous context reused from the cache (device or tier).
        prefill_tokens: Tokens the turn prefills: new ones and the previous context's misses.
        offloaded_bytes: Cached bytes brought back from the tier before the prefill.
        overflow_share: Share of the sessions' idle caches that did not fit on the devices (0 to 1).
        transfer_s: Time to bring ``offloaded_bytes`` back, in seconds.
        prefill_s: The prefill of ``prefill_tokens`` after the cached ones, realistic, in seconds.
        ttft_s: ``transfer_s + prefill_s``.
        tpot_s: A decode step of the concurrent sessions at the turn's mean context, in seconds.
        turn_s: ``ttft_s + (output - 1) x tpot_s``.
        context_tokens: Context at the turn's start including its new tokens, in tokens.
        kv_bytes: This session's KV cache at the turn's end (every copy the devices keep), in bytes.
        kv_room_bytes: Memory for KV cache per concurrent session, in bytes.
        device_s: Device-seconds the turn costs (see the module's totals), in seconds.
    """

    index: int
    previous_tokens: int
    new_tokens: int
    cached_tokens: int
    prefill_tokens: int
    offloaded_bytes: float
    overflow_share: float
    transfer_s: float
    prefill_s: float
    ttft_s: float
    tpot_s: float
    turn_s: float
    context_tokens: int
    kv_bytes: float
    kv_room_bytes: float
    device_s: float


@dataclass(frozen=True)
class SessionResult:
    """A session turn by turn, and its totals.

    Attributes:
        session: What was served.
        turns: One :class:`Turn` a model call.
        failure: Why the session cannot run ("" when it can).
    """

    session: Session
    turns: tuple[Turn, ...]
    failure: str = ""

    @property
    def model_time_s(self) -> float:
        """The turns' time, tool calls left out, in seconds."""
        return sum(t.turn_s for t in self.turns)

    @property
    def task_time_s(self) -> float:
        """Wall time of the task: the turns and the tool calls between them, in seconds."""
        return self.model_time_s + (len(self.turns) - 1) * self.session.tool_time_s if self.turns else 0.0

    @property
    def device_s(self) -> float:
        """Device-seconds the task costs, in seconds."""
        return sum(t.device_s for t in self.turns)

    @property
    def prefill_tokens(self) -> int:
        return sum(t.prefill_tokens for t in self.turns)

    @property
    def cached_tokens(self) -> int:
        return sum(t.cached_tokens for t in self.turns)

    @property
    def cost(self) -> float:
        """Device-seconds x price per device-hour / 3,600 (0 when no price is given)."""
        return self.device_s * self.session.price_per_device_hour / 3600

    @property
    def energy_j(self) -> float | None:
        """Device-seconds x board power, in joules: an upper bound (None when the power is unknown)."""
        power = getattr(self.session.accelerator, "board_power_w", None)
        return None if not power else self.device_s * power


def _fit(s: Session, batch: int, context_tokens: int) -> MemoryFit:
    return memory_fit(
        model=s.model,
        accelerator=s.accelerator,
        weight_dtype=s.weight_dtype,
        kv_dtype=s.kv_dtype,
        batch=batch,
        context_tokens=context_tokens,
        devices=s.devices,
    )


def _kv_bytes(s: Session, context_tokens: int) -> float:
    """One session's cache at ``context_tokens``, every copy the devices keep counted."""
    return _fit(s, 1, context_tokens).kv_bytes_per_sequence if context_tokens else 0.0


def prefix_prefill_step(s: Session, *, new_tokens: int, cached_tokens: int) -> tuple[PrefillEstimate, float]:
    """The speed-of-light prefill of ``new_tokens`` that follow ``cached_tokens`` already cached,
    and the cached prefix's KV bytes it reads (the module's item 1)."""
    estimate = estimate_prefill(
        model=s.model,
        accelerator=s.accelerator,
        weight_dtype=s.weight_dtype,
        prompt_tokens=new_tokens,
        devices=s.devices,
    )
    if not cached_tokens:
        return estimate, 0.0
    whole = prefill_attention_cost(s.model, prompt_tokens=cached_tokens + new_tokens)
    alone = prefill_attention_cost(s.model, prompt_tokens=new_tokens)
    prefix = prefill_attention_cost(s.model, prompt_tokens=cached_tokens)
    # The new tokens' queries against the cached keys: what the whole causal square adds beyond
    # the squares of its two parts (the prefix's own was paid on an earlier turn).
    cross = max(0.0, whole.flops - alone.flops - prefix.flops)
    prefix_kv = _kv_bytes(s, cached_tokens)
    return replace(estimate, flops=estimate.flops + cross, bytes_moved=estimate.bytes_moved + prefix_kv), prefix_kv


def prefill_after_prefix_s(s: Session, *, new_tokens: int, cached_tokens: int) -> float:
    """The realistic time of :func:`prefix_prefill_step`, in seconds (0 for no new tokens)."""
    if new_tokens == 0:
        return 0.0
    step, prefix_kv = prefix_prefill_step(s, new_tokens=new_tokens, cached_tokens=cached_tokens)
    assert step.regime is not None
    return step_expected_s(
        step,
        step.regime,
        model=s.model,
        accelerator=s.accelerator,
        kv_bytes=prefix_kv,
        communication_s=expected_tensor_parallel_s(s.model, s.accelerator, devices=s.devices, tokens=new_tokens),
    )


def run_session(session: Session) -> SessionResult:
    """Every turn of ``session`` (the module's items 1-4); ``failure`` says when one session's
    cache at its final context does not fit beside the weights."""
    s = session
    if not _fit(s, 1, s.final_context_tokens).fits:
        return SessionResult(
            session=s,
            turns=(),
            failure=(
                f"one session's cache at {s.final_context_tokens} tokens does not fit beside the weights "
                f"on {s.devices} {'device' if s.devices == 1 else 'devices'}"
            ),
        )
    room = _fit(s, s.concurrent, 1).free_bytes / s.concurrent
    turns = []
    previous = 0
    for index in range(1, s.turns + 1):
        new = s.prompt_tokens if index == 1 else s.tool_tokens
        kv_previous = _kv_bytes(s, previous)
        # Share of every idle session's cache the devices could not keep while its tool ran.
        overflow = max(0.0, 1.0 - room / kv_previous) if kv_previous > room else 0.0
        hit = math.floor(s.hit_rate * previous)
        if s.tier == NONE:
            cached = math.floor(hit * (1 - overflow))
            offloaded = 0.0
        else:
            cached = hit
            offloaded = kv_previous * (hit / previous) * overflow if previous else 0.0
        # At least one token is computed: its logits give the first output token (vLLM recomputes
        # the last prompt token on a full hit for the same reason).
        if cached and cached >= previous + new:
            offloaded *= (previous + new - 1) / cached
            cached = previous + new - 1
        transfer_s = offloaded / (s.devices * s.tier_bandwidth) if offloaded else 0.0
        prefill_tokens = previous - cached + new
        prefill_s = prefill_after_prefix_s(s, new_tokens=prefill_tokens, cached_tokens=cached)
        context = previous + new
        decode = estimate_decode(
            model=s.model,
            accelerator=s.accelerator,
            weight_dtype=s.weight_dtype,
            kv_dtype=s.kv_dtype,
            batch=s.concurrent,
            context_tokens=context + s.output_tokens // 2,
            devices=s.devices,
        )
        tpot_s = decode.expected_step_time_s
        ttft_s = transfer_s + prefill_s
        decode_s = (s.output_tokens - 1) * tpot_s
        turns.append(
            Turn(
                index=index,
                previous_tokens=previous,
                new_tokens=new,
                cached_tokens=cached,
                prefill_tokens=prefill_tokens,
                offloaded_bytes=offloaded,
                overflow_share=overflow,
                transfer_s=transfer_s,
                prefill_s=prefill_s,
                ttft_s=ttft_s,
                tpot_s=tpot_s,
                turn_s=ttft_s + decode_s,
                context_tokens=context,
                kv_bytes=_kv_bytes(s, context + s.output_tokens),
                kv_room_bytes=room,
                device_s=s.devices * (prefill_s + decode_s / s.concurrent),
            )
        )
        previous = context + s.output_tokens
    return SessionResult(session=s, turns=tuple(turns))


def without_cache(session: Session) -> SessionResult:
    """The same session with no prefix cache: what caching saves is the difference."""
    return run_session(replace(session, hit_rate=0.0))
