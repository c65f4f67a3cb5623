"""Prefill/decode disaggregation: separate pools for prompts and for generation, sized for a rate.

The same request stream as the capacity planner (:class:`~roofline_core.questions.capacity.Scenario`:
a Poisson rate, prompt and output lengths, targets at a percentile) is served by two pools:

1. **Prefill pool.** Instances of ``tp`` devices each run whole prompts one at a time, nothing
   else (no decode steps between them). A prompt's service time is its realistic prefill
   (:func:`~roofline_core.estimates.inference.estimate_prefill`'s ``expected_ttft_s`` over the
   prompt's tokens less its prefix-cache hits). Prompts queue first come first served at each
   instance: M/D/1 as in the capacity planner (Poisson arrivals, a near-constant service), so
   TTFT at the percentile = the wait at the percentile + the prefill of the high-percentile
   prompt. The prefill makes the first token, so the hand-over below does not delay it.
2. **KV transfer.** Each request's cache (every prompt token, hits included: the decode side
   holds none of it) goes from a prefill instance to a decode instance over the chosen link;
   each prefill device sends its shard over its own link, so a request takes ``KV bytes /
   (tp x link bandwidth)``, and delays the second token by that much. The pool needs ``rate x KV
   bytes`` a second over all its links; the links must carry it (a pool too small for its
   links gets more instances).
3. **Decode pool.** Instances of ``tp`` devices each run decode steps only: Little's law gives
   the batch (``rate x output x TPOT``, a fixed point), the Poisson quantile its percentile, and
   the step at that batch the TPOT at the percentile, as in the capacity planner but with no
   prefill chunk between steps (the interference disaggregation removes). The engine's cap on
   sequences (the 99th percentile of the decode batch) must fit in the KV cache at prompt +
   output tokens.

Each pool takes the tensor-parallel size and instance count with the fewest devices. The
co-located fleet it is compared with is the capacity planner's cheapest plan at the same
targets. Standard library only.

>>> from roofline_core.hardware import ACCELERATORS
>>> from roofline_core.models import MODELS
>>> from roofline_core.questions.capacity import Scenario
>>> split = disaggregated_plan(Split(Scenario(model=MODELS["llama-3.1-8b"], accelerator=ACCELERATORS["h100-sxm"])))
>>> split.prefill.devices, split.decode.devices
(1, 1)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from roofline_core.estimates.inference import estimate_prefill
from roofline_core.estimates.mixed_step import MixedSteps
from roofline_core.questions.capacity import (
    MAX_REPLICAS,
    SLOT_PERCENTILE,
    Plan,
    Scenario,
    cheapest_plan,
    md1_wait_s,
    poisson_quantile,
    scenario_steps,
    tp_sizes,
)

#: A 400 Gb/s network port per device (InfiniBand NDR or 400 GbE, as on NVIDIA's ConnectX-7):
#: 400e9 / 8 bytes/s, one direction (https://www.nvidia.com/en-us/networking/ethernet-adapters/:
#: "up to 400Gb/s"). NVLink inside a node is faster; set the link for the fleet you have.
DEFAULT_LINK_BYTES_PER_S = 400e9 / 8


@dataclass(frozen=True)
class Split:
    """A request stream and the link between the pools.

    Attributes:
        scenario: The stream, its lengths, targets and price (the capacity planner's).
        link_bytes_per_s: Each device's link to the other pool, one direction, in bytes/s.
    """

    scenario: Scenario
    link_bytes_per_s: float = DEFAULT_LINK_BYTES_PER_S

    def __post_init__(self) -> None:
        if not (self.link_bytes_per_s > 0 and math.isfinite(self.link_bytes_per_s)):
            raise ValueError(f"link_bytes_per_s must be above 0, got {self.link_bytes_per_s!r}")


class PhaseSteps(MixedSteps):
    """The scenario's step times, and whole prefills at realistic speed, remembered."""

    def __init__(self, scenario: Scenario) -> None:
        base = scenario_steps(scenario)
        super().__init__(
            model=base.model,
            accelerator=base.accelerator,
            weight_dtype=base.weight_dtype,
            kv_dtype=base.kv_dtype,
            context_tokens=base.context_tokens,
            prompt_tokens=base.prompt_tokens,
        )
        self._whole: dict[tuple[int, int], float] = {}

    def prefill_s(self, tp: int, tokens: int) -> float:
        """A whole prefill of ``tokens`` on ``tp`` devices, realistic, in seconds."""
        key = (tp, tokens)
        if key not in self._whole:
            self._whole[key] = estimate_prefill(
                model=self.model,
                accelerator=self.accelerator,
                weight_dtype=self.weight_dtype,
                prompt_tokens=tokens,
                devices=tp,
            ).expected_ttft_s
        return self._whole[key]


@dataclass(frozen=True)
class PrefillPool:
    """Instances running prompts only.

    Attributes:
        tp: Devices per instance.
        instances: Instances.
        service_s: Prefill of a mean prompt, in seconds.
        utilisation: Share of each instance's time spent prefilling (0 to < 1).
        wait_s: Mean wait in the instance's queue (M/D/1), in seconds.
        wait_high_s: Wait at the percentile, in seconds.
        prefill_high_s: Prefill of the high-percentile prompt, in seconds.
        ttft_high_s: Time to first token at the percentile, in seconds.
        link_share: Share of the instance's links the KV hand-over keeps busy (0 to 1).
    """

    tp: int
    instances: int
    service_s: float
    utilisation: float
    wait_s: float
    wait_high_s: float
    prefill_high_s: float
    ttft_high_s: float
    link_share: float

    @property
    def devices(self) -> int:
        return self.tp * self.instances


@dataclass(frozen=True)
class DecodePool:
    """Instances running decode steps only.

    Attributes:
        tp: Devices per instance.
        instances: Instances.
        batch: Mean sequences decoding per instance (Little's law).
        batch_high: Sequences at the percentile.
        tpot_s: Mean time per output token, in seconds.
        tpot_high_s: Time per output token at the percentile, in seconds.
        max_sequences: The engine's cap (99th percentile of the batch).
        kv_share: KV cache of ``max_sequences`` as a share of the memory left for it.
    """

    tp: int
    instances: int
    batch: float
    batch_high: int
    tpot_s: float
    tpot_high_s: float
    max_sequences: int
    kv_share: float

    @property
    def devices(self) -> int:
        return self.tp * self.instances


@dataclass(frozen=True)
class SplitPlan:
    """Both pools, the hand-over between them, and the co-located fleet at the same targets.

    Attributes:
        split: What was planned for.
        prefill: The prefill pool (None when no size meets the TTFT target).
        decode: The decode pool (None when no size meets the TPOT target).
        kv_bytes_per_request: Cache handed over for a mean prompt, in bytes.
        kv_bytes_per_request_high: For the high-percentile prompt, in bytes.
        colocated: The capacity planner's cheapest fleet (None when it finds none).
    """

    split: Split
    prefill: PrefillPool | None
    decode: DecodePool | None
    kv_bytes_per_request: float
    kv_bytes_per_request_high: float
    colocated: Plan | None

    @property
    def devices(self) -> int | None:
        if self.prefill is None or self.decode is None:
            return None
        return self.prefill.devices + self.decode.devices

    @property
    def link_bytes_per_s_needed(self) -> float:
        """KV bytes a second from the prefill pool to the decode pool, all links together."""
        return self.split.scenario.rate_per_s * self.kv_bytes_per_request

    @property
    def transfer_s(self) -> float:
        """Hand-over of the high-percentile prompt's cache, in seconds (0 without a prefill pool)."""
        if self.prefill is None:
            return 0.0
        return self.kv_bytes_per_request_high / (self.prefill.tp * self.split.link_bytes_per_s)

    @property
    def cost_per_hour(self) -> float | None:
        devices = self.devices
        return None if devices is None else devices * self.split.scenario.price_per_device_hour


def kv_bytes_of_prompt(scenario: Scenario, tokens: int) -> float:
    """One copy of a prompt's KV cache, in bytes (what crosses the link)."""
    steps = scenario_steps(scenario)
    return steps.memory(1, 1, tokens).kv_bytes_per_sequence


def prefill_instance(split: Split, steps: PhaseSteps, *, tp: int, instances: int) -> PrefillPool | None:
    """One of ``instances`` prefill instances of ``tp`` devices at the rate (None when its queue
    would grow without bound or the high prompt does not fit)."""
    s = split.scenario
    if not steps.memory(tp, 1, s.prompt_tokens_high).fits:
        return None
    rate = s.rate_per_s / instances
    service_s = steps.prefill_s(tp, max(1, round(s.prompt_work_tokens)))
    utilisation = rate * service_s
    if utilisation >= 1:
        return None
    wait_s, wait_high_s = md1_wait_s(utilisation, service_s, s.percentile)
    prefill_high_s = steps.prefill_s(tp, max(1, round(s.prompt_work_tokens_high)))
    kv = kv_bytes_of_prompt(s, s.prompt_tokens)
    return PrefillPool(
        tp=tp,
        instances=instances,
        service_s=service_s,
        utilisation=utilisation,
        wait_s=wait_s,
        wait_high_s=wait_high_s,
        prefill_high_s=prefill_high_s,
        ttft_high_s=wait_high_s + prefill_high_s,
        link_share=rate * kv / (tp * split.link_bytes_per_s),
    )


def decode_instance(scenario: Scenario, steps: MixedSteps, *, tp: int, instances: int) -> DecodePool | None:
    """One of ``instances`` decode instances of ``tp`` devices (None when the batch runs away or
    the engine's cap on sequences does not fit)."""
    s = scenario
    fit_one = steps.memory(tp, 1, s.prompt_tokens_high + s.output_tokens_high)
    if not fit_one.fits:
        return None
    rate = s.rate_per_s / instances
    most = max(1, fit_one.max_batch or 1) * 4
    batch, tpot = 0.0, math.inf
    for _ in range(200):
        tpot = steps.step_s(tp, max(1, math.ceil(batch)), 0)
        new_batch = rate * s.output_tokens * tpot
        if new_batch > most:
            return None
        done = abs(new_batch - batch) < 1e-6 * max(1.0, batch)
        batch = new_batch
        if done:
            break
    high = max(1, poisson_quantile(batch, s.percentile))
    max_sequences = max(1, poisson_quantile(batch, SLOT_PERCENTILE))
    fit = steps.memory(tp, max_sequences, s.prompt_tokens + s.output_tokens)
    if not fit.fits:
        return None
    return DecodePool(
        tp=tp,
        instances=instances,
        batch=batch,
        batch_high=high,
        tpot_s=tpot,
        tpot_high_s=steps.step_s(tp, high, 0),
        max_sequences=max_sequences,
        kv_share=fit.kv_bytes / fit.free_bytes,
    )


def _fewest(meets, make) -> object | None:  # type: ignore[no-untyped-def]
    """The pool with the fewest instances that ``meets`` the target: more instances share the
    rate, which never lengthens a queue or a step, so it is found by doubling and halving."""
    if not meets(make(MAX_REPLICAS)):
        return None
    high = 1
    while not meets(make(high)):
        high *= 2
    low = high // 2
    while high - low > 1:
        middle = (low + high) // 2
        if meets(make(middle)):
            high = middle
        else:
            low = middle
    return make(high)


def disaggregated_plan(split: Split, *, steps: PhaseSteps | None = None) -> SplitPlan:
    """Both pools with the fewest devices for ``split``, and the co-located fleet beside them."""
    s = split.scenario
    steps = steps or PhaseSteps(s)
    prefills, decodes = [], []
    for tp in tp_sizes(s):
        pool = _fewest(
            lambda p: p is not None and p.ttft_high_s <= s.ttft_target_s and p.link_share <= 1,
            lambda n, tp=tp: prefill_instance(split, steps, tp=tp, instances=n),
        )
        if pool is not None:
            prefills.append(pool)
        pool = _fewest(
            lambda p: p is not None and p.tpot_high_s <= s.tpot_target_s,
            lambda n, tp=tp: decode_instance(s, steps, tp=tp, instances=n),
        )
        if pool is not None:
            decodes.append(pool)
    # Fewest devices; between equals the smaller TP (more instances, more failure isolation).
    prefill = min(prefills, key=lambda p: (p.devices, p.tp), default=None)
    decode = min(decodes, key=lambda p: (p.devices, p.tp), default=None)
    return SplitPlan(
        split=split,
        prefill=prefill,  # type: ignore[arg-type]
        decode=decode,  # type: ignore[arg-type]
        kv_bytes_per_request=kv_bytes_of_prompt(s, s.prompt_tokens),
        kv_bytes_per_request_high=kv_bytes_of_prompt(s, s.prompt_tokens_high),
        colocated=cheapest_plan(s),
    )
