"""Fleet capacity under latency targets: the cheapest set of replicas that serves a request rate.

A request stream (``rate_per_s`` requests a second, prompts and outputs of a mean and a
high-percentile length) must meet a time-to-first-token target and a time-per-output-token
target at a percentile. This module searches tensor-parallel sizes, chunked-prefill budgets and
replica counts for the fewest devices that meet both, and says which target binds.

The steady-state model (one replica of ``tp`` devices receives ``rate / replicas``; every
number below is per replica):

1. **Continuous batching.** Each engine step decodes one token for every running sequence and,
   while prompts wait, processes a chunk of ``chunk`` prompt tokens beside them (vLLM's and
   SGLang's chunked prefill). A prefix-cache hit rate ``h`` removes that share of each prompt's
   tokens from the work (their cache is reused); the cache itself still holds the whole prompt.
2. **Step times.** A decode-only step at batch ``B`` is the existing decode estimate
   (:func:`~roofline_core.estimates.inference.estimate_decode`, context = prompt + half the
   output, the mean over a sequence's life). A step that also carries a chunk adds that
   chunk's share of the prompt's prefill FLOPs (:func:`~roofline_core.estimates.inference.estimate_prefill`,
   attention over the whole prompt included) to the same weight read, and the tensor-parallel
   all-reduces of ``B + chunk`` tokens. Both are made realistic the way the prefill calculator
   does it: each roof at the fraction of peak fitted on the published measurements,
   communication unchanged (:mod:`roofline_core.estimates.mixed_step`).
3. **Interference.** Prompts arrive as ``a = rate x prompt_eff / chunk`` chunk-steps a second,
   each lasting ``s_chunk``; the rest of the time runs decode-only steps of ``s_decode``. So a
   decoding sequence sees a mean time per token ``1 / (a + (1 - a s_chunk) / s_decode)``: the
   prefill chunks slow every decoder (that is the interference decode pays), and a prompt's
   chunks each wait for a whole mixed step (the interference prefill pays).
4. **Little's law.** The decode batch is ``rate x output x TPOT`` (sequences in their decode
   phase), solved as a fixed point because TPOT grows with the batch. With Poisson arrivals the
   number of requests in the system is Poisson-distributed (an M/G/infinity occupancy), so the
   batch at the target's percentile is that Poisson's quantile; TPOT at the percentile is the
   step time at that batch. The engine's cap on concurrent sequences is set at the 99th
   percentile of the whole concurrency ``rate x (TTFT + output x TPOT)``, where it rarely bites.
5. **Queueing for TTFT: M/D/1.** Prompts queue for the prefill chunk slot, first come first
   served. Arrivals are Poisson (many independent users); the service time of a mean prompt,
   ``S = prompt_eff / chunk x s_chunk``, is nearly deterministic (a chunk step's time barely
   varies), hence M/D/1 rather than M/M/1, whose exponential service would double the mean
   wait. The slot's utilisation is ``u = rate x S`` (must stay below 1); the mean wait is
   Pollaczek-Khinchine's ``u S / (2 (1 - u))``. Its percentile uses the exponential tail of
   the M/G/1 wait (exact for M/M/1, Kingman's heavy-traffic form otherwise): a share ``u`` of
   prompts wait, and their wait is exponential with mean ``W / u``, so the p-th percentile is
   ``(W / u) ln(u / (1 - p))`` (0 when ``u <= 1 - p``). Not modelled: the spread of prompt
   lengths in the queue (an M/G/1 with varying prompts waits longer by ``(1 + cv^2)``) -- the
   TTFT at the percentile compensates by serving the high-percentile prompt (an upper bound,
   since the long prompt and the long wait are taken together).
6. **TTFT at the percentile** = that wait + ``ceil(prompt_eff_high / chunk)`` mixed steps at the
   high-percentile batch.
7. **Memory.** The cap on concurrent sequences, each at prompt + output tokens, must fit in the
   KV cache beside the weights (:func:`~roofline_core.estimates.inference.memory_fit`, with the
   engine's reserve), and so must one sequence at the high-percentile lengths.

Cost is devices x price per device-hour; per million output tokens it is that over
``rate x output``. Standard library only.

>>> from roofline_core.hardware import ACCELERATORS
>>> from roofline_core.models import MODELS
>>> plan = cheapest_plan(Scenario(model=MODELS["llama-3.1-70b"], accelerator=ACCELERATORS["h100-sxm"]))
>>> plan.tp, plan.replicas, plan.binds
(2, 3, 'ttft')
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from roofline_core.estimates.mixed_step import MixedSteps
from roofline_core.hardware import AnyAccelerator
from roofline_core.models import AnyModel
from roofline_core.models.tensor_split import tensor_parallel_refusal

#: Tensor-parallel sizes the search tries: one node's worth of NVLink at most.
TP_SIZES: tuple[int, ...] = (1, 2, 4, 8)
#: Prefill tokens per step the search tries (vLLM's default budget is 2,048 or 8,192 tokens a
#: step, depending on the version and the chip; SGLang's chunked-prefill size is 2,048 to 8,192).
CHUNK_BUDGETS: tuple[int, ...] = (512, 1024, 2048, 4096, 8192)
#: The percentile of the concurrency at which the engine's cap on running sequences is set.
SLOT_PERCENTILE = 0.99
#: Most replicas the search considers.
MAX_REPLICAS = 4096

#: What binds a plan: the TTFT target, the TPOT target, memory (the smallest TP that holds it),
#: or nothing (one replica at the smallest TP already meets everything).
TTFT, TPOT, MEMORY, NONE = "ttft", "tpot", "memory", "none"


@dataclass(frozen=True)
class Scenario:
    """What a fleet must serve and how well.

    Attributes:
        model: A preset :class:`~roofline_core.models.Model` (or a config's).
        accelerator: The device every replica uses.
        weight_dtype: Storage format of the weights.
        kv_dtype: Storage format of the KV cache.
        rate_per_s: Requests arriving a second, all replicas together (Poisson).
        prompt_tokens: Mean prompt length, in tokens.
        prompt_tokens_high: Prompt length at the percentile, in tokens.
        output_tokens: Mean output length, in tokens.
        output_tokens_high: Output length at the percentile, in tokens.
        prefix_hit_rate: Share of prompt tokens found in the prefix cache (0 to < 1).
        percentile: The percentile both targets hold at (0 < p < 1, 0.9 for p90).
        ttft_target_s: Time to first token at the percentile, in seconds.
        tpot_target_s: Time per output token at the percentile, in seconds.
        price_per_device_hour: Price of one device for an hour (any currency; 0 for unknown).
    """

    model: AnyModel
    accelerator: AnyAccelerator
    weight_dtype: str = "fp8"
    kv_dtype: str = "fp8"
    rate_per_s: float = 10.0
    prompt_tokens: int = 2000
    prompt_tokens_high: int = 2000
    output_tokens: int = 500
    output_tokens_high: int = 500
    prefix_hit_rate: float = 0.0
    percentile: float = 0.9
    ttft_target_s: float = 2.0
    tpot_target_s: float = 0.05
    price_per_device_hour: float = 0.0

    def __post_init__(self) -> None:
        if not (isinstance(self.rate_per_s, (int, float)) and self.rate_per_s > 0 and math.isfinite(self.rate_per_s)):
            raise ValueError(f"rate_per_s must be a number above 0, got {self.rate_per_s!r}")
        for name in ("prompt_tokens", "prompt_tokens_high", "output_tokens", "output_tokens_high"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{name} must be a whole number of at least 1, got {value!r}")
        if self.prompt_tokens_high < self.prompt_tokens or self.output_tokens_high < self.output_tokens:
            raise ValueError("a high-percentile length must be at least the mean length")
        if not 0 <= self.prefix_hit_rate < 1:
            raise ValueError(f"prefix_hit_rate must be at least 0 and below 1, got {self.prefix_hit_rate!r}")
        if not 0 < self.percentile < 1:
            raise ValueError(f"percentile must be above 0 and below 1, got {self.percentile!r}")
        for name in ("ttft_target_s", "tpot_target_s"):
            if not getattr(self, name) > 0:
                raise ValueError(f"{name} must be above 0, got {getattr(self, name)!r}")
        if not self.price_per_device_hour >= 0:
            raise ValueError(f"price_per_device_hour must be at least 0, got {self.price_per_device_hour!r}")

    @property
    def prompt_work_tokens(self) -> float:
        """Prompt tokens a mean request makes the replica compute (prefix hits taken off)."""
        return self.prompt_tokens * (1 - self.prefix_hit_rate)

    @property
    def prompt_work_tokens_high(self) -> float:
        """The same for the high-percentile prompt."""
        return self.prompt_tokens_high * (1 - self.prefix_hit_rate)

    @property
    def decode_context_tokens(self) -> int:
        """Cached tokens a decode step reads per sequence: prompt and half the output (the mean
        over a sequence's life)."""
        return self.prompt_tokens + self.output_tokens // 2


@dataclass(frozen=True)
class Replica:
    """One replica's steady state at a rate: every number the plan is made of.

    Attributes:
        tp: Devices per replica (tensor parallel).
        chunk_tokens: Prefill tokens per mixed step (the chunked-prefill budget).
        rate_per_s: Requests a second this replica receives.
        decode_batch: Mean sequences decoding (Little's law), fractional.
        decode_batch_high: Sequences decoding at the percentile (Poisson quantile).
        decode_step_s: A decode-only step at the high batch, in seconds.
        chunk_step_s: A step with a prefill chunk at the high batch, in seconds.
        tpot_s: Mean time per output token, in seconds.
        tpot_high_s: Time per output token at the percentile, in seconds.
        interference_s: What prefill chunks add to the percentile TPOT, in seconds.
        prefill_utilisation: Share of the replica's time spent in steps carrying a chunk (0 to 1).
        queue_wait_s: Mean wait for the chunk slot (M/D/1), in seconds.
        queue_wait_high_s: Wait at the percentile, in seconds.
        prefill_high_s: Chunk steps of the high-percentile prompt, in seconds.
        ttft_high_s: Time to first token at the percentile, in seconds.
        concurrency: Mean requests in the replica (prefilling or decoding).
        max_sequences: The engine's cap on running sequences (99th percentile of concurrency).
        kv_share: KV cache of ``max_sequences`` as a share of the memory left for it (0 to ...).
        failure: Why the replica cannot hold this rate ("" when it can: it may still miss a target).
    """

    tp: int
    chunk_tokens: int
    rate_per_s: float
    decode_batch: float = 0.0
    decode_batch_high: int = 0
    decode_step_s: float = math.inf
    chunk_step_s: float = math.inf
    tpot_s: float = math.inf
    tpot_high_s: float = math.inf
    interference_s: float = 0.0
    prefill_utilisation: float = 1.0
    queue_wait_s: float = math.inf
    queue_wait_high_s: float = math.inf
    prefill_high_s: float = math.inf
    ttft_high_s: float = math.inf
    concurrency: float = 0.0
    max_sequences: int = 0
    kv_share: float = 0.0
    failure: str = ""

    @property
    def stable(self) -> bool:
        return not self.failure


@dataclass(frozen=True)
class Plan:
    """A fleet: ``replicas`` replicas of ``tp`` devices each, and how it meets the targets.

    Attributes:
        scenario: What it serves.
        replica: The steady state of one replica.
        replicas: Replicas.
        binds: :data:`TTFT`, :data:`TPOT`, :data:`MEMORY` or :data:`NONE`: what stops a cheaper fleet.
        bind_reason: One sentence with the numbers behind ``binds``.
        per_tp: The cheapest plan found at each TP size tried (None where none meets the targets).
    """

    scenario: Scenario
    replica: Replica
    replicas: int
    binds: str = NONE
    bind_reason: str = ""
    per_tp: tuple[tuple[int, Plan | None], ...] = field(default=(), compare=False)

    @property
    def tp(self) -> int:
        return self.replica.tp

    @property
    def chunk_tokens(self) -> int:
        return self.replica.chunk_tokens

    @property
    def devices(self) -> int:
        return self.replicas * self.replica.tp

    @property
    def output_tokens_per_s(self) -> float:
        """Output tokens a second, the whole fleet."""
        return self.scenario.rate_per_s * self.scenario.output_tokens

    @property
    def tokens_per_s_per_device(self) -> float:
        """Output tokens a second per device."""
        return self.output_tokens_per_s / self.devices

    @property
    def cost_per_hour(self) -> float:
        return self.devices * self.scenario.price_per_device_hour

    @property
    def cost_per_million_output_tokens(self) -> float:
        """``devices x price / 3600 / output tokens a second x 1e6`` (0 when no price is given)."""
        return self.cost_per_hour / 3600 / self.output_tokens_per_s * 1e6

    @property
    def batched_tokens(self) -> int:
        """vLLM's ``--max-num-batched-tokens``: the chunk plus one decode token per running sequence."""
        return self.replica.chunk_tokens + self.replica.max_sequences

    @property
    def max_model_len(self) -> int:
        """The longest sequence the engine must admit: the high-percentile prompt and output."""
        return self.scenario.prompt_tokens_high + self.scenario.output_tokens_high


def poisson_quantile(mean: float, p: float) -> int:
    """Smallest ``k`` with P(X <= k) >= ``p`` for X Poisson with ``mean`` (0 for a mean of 0).

    >>> poisson_quantile(10, 0.9), poisson_quantile(0.5, 0.5)
    (14, 0)
    """
    if mean <= 0:
        return 0
    log_pmf = -mean  # log P(X = 0)
    total = math.exp(log_pmf)
    k = 0
    # Summed in log space so a mean in the thousands (whose P(X = 0) underflows) still works.
    while total < p and k < mean + 40 * math.sqrt(mean) + 40:
        k += 1
        log_pmf += math.log(mean / k)
        total += math.exp(log_pmf)
    return k


def md1_wait_s(utilisation: float, service_s: float, percentile: float) -> tuple[float, float]:
    """The mean wait of an M/D/1 queue (Pollaczek-Khinchine) and its wait at ``percentile`` (the
    exponential tail of item 5), in seconds; ``utilisation`` must be below 1.

    >>> [round(w, 4) for w in md1_wait_s(0.5, 0.25, 0.9)]
    [0.125, 0.4024]
    """
    wait_s = utilisation * service_s / (2 * (1 - utilisation))
    tail = 1 - percentile
    wait_high_s = 0.0 if utilisation <= tail else wait_s / utilisation * math.log(utilisation / tail)
    return wait_s, wait_high_s


def scenario_steps(scenario: Scenario) -> MixedSteps:
    """The scenario's step times (they do not depend on the rate, so one memo serves many)."""
    return MixedSteps(
        model=scenario.model,
        accelerator=scenario.accelerator,
        weight_dtype=scenario.weight_dtype,
        kv_dtype=scenario.kv_dtype,
        context_tokens=scenario.decode_context_tokens,
        prompt_tokens=max(1, round(scenario.prompt_work_tokens)),
    )


def _mean_step_s(decode_s: float, chunk_s: float, chunk_steps_per_s: float) -> float:
    """Mean step time a decoder sees when ``chunk_steps_per_s`` steps carry a chunk (item 3)."""
    return 1.0 / (chunk_steps_per_s + (1.0 - chunk_steps_per_s * chunk_s) / decode_s)


def replica_state(
    scenario: Scenario, *, tp: int, chunk_tokens: int, replicas: int, steps: MixedSteps | None = None
) -> Replica:
    """The steady state of one of ``replicas`` replicas of ``tp`` devices (the module's items 1-7)."""
    steps = steps or scenario_steps(scenario)
    s = scenario
    rate = s.rate_per_s / replicas
    base = Replica(tp=tp, chunk_tokens=chunk_tokens, rate_per_s=rate)
    fit_one = steps.memory(tp, 1, s.prompt_tokens_high + s.output_tokens_high)
    if not fit_one.fits:
        return replace(base, failure="memory: one sequence at the high-percentile lengths does not fit")
    chunk_steps_per_s = rate * s.prompt_work_tokens / chunk_tokens
    # Fixed point of Little's law: batch = rate x output x TPOT(batch), from below.
    batch = 0.0
    tpot = math.inf
    # A batch well past what memory holds means the fixed point runs away (each larger batch
    # slows the step enough to need a larger one still); memory would refuse it anyway.
    most = max(1, fit_one.max_batch or 1) * 4
    for _ in range(200):
        whole = max(1, math.ceil(batch))
        decode_s, chunk_s = steps.step_s(tp, whole, 0), steps.step_s(tp, whole, chunk_tokens)
        if chunk_steps_per_s * chunk_s >= 1:
            return replace(base, failure="ttft: prefill chunks alone would fill every step")
        tpot = _mean_step_s(decode_s, chunk_s, chunk_steps_per_s)
        new_batch = rate * s.output_tokens * tpot
        if new_batch > most:
            return replace(base, failure="tpot: the decode batch grows without bound")
        if abs(new_batch - batch) < 1e-6 * max(1.0, batch):
            batch = new_batch
            break
        batch = new_batch
    high = max(1, poisson_quantile(batch, s.percentile))
    decode_s, chunk_s = steps.step_s(tp, high, 0), steps.step_s(tp, high, chunk_tokens)
    mean_chunk_s = steps.step_s(tp, max(1, math.ceil(batch)), chunk_tokens)
    utilisation = chunk_steps_per_s * mean_chunk_s
    if chunk_steps_per_s * chunk_s >= 1:
        return replace(base, failure="ttft: prefill chunks alone would fill every step at the percentile batch")
    tpot_high = _mean_step_s(decode_s, chunk_s, chunk_steps_per_s)
    service_s = s.prompt_work_tokens / chunk_tokens * mean_chunk_s
    wait_s, wait_high_s = md1_wait_s(utilisation, service_s, s.percentile)
    prefill_high_s = math.ceil(s.prompt_work_tokens_high / chunk_tokens) * chunk_s
    ttft_mean_s = wait_s + service_s
    concurrency = rate * (ttft_mean_s + s.output_tokens * tpot)
    max_sequences = max(1, poisson_quantile(concurrency, SLOT_PERCENTILE))
    fit = steps.memory(tp, max_sequences, s.prompt_tokens + s.output_tokens)
    kv_share = fit.kv_bytes / fit.free_bytes
    state = replace(
        base,
        decode_batch=batch,
        decode_batch_high=high,
        decode_step_s=decode_s,
        chunk_step_s=chunk_s,
        tpot_s=tpot,
        tpot_high_s=tpot_high,
        interference_s=tpot_high - decode_s,
        prefill_utilisation=utilisation,
        queue_wait_s=wait_s,
        queue_wait_high_s=wait_high_s,
        prefill_high_s=prefill_high_s,
        ttft_high_s=wait_high_s + prefill_high_s,
        concurrency=concurrency,
        max_sequences=max_sequences,
        kv_share=kv_share,
    )
    if not fit.fits:
        return replace(state, failure=f"memory: {max_sequences} sequences' KV cache does not fit beside the weights")
    return state


def misses(scenario: Scenario, replica: Replica) -> tuple[str, ...]:
    """The targets (or memory) ``replica`` misses: empty when it meets both."""
    if replica.failure:
        return (replica.failure.split(":")[0],)
    missed = []
    if replica.ttft_high_s > scenario.ttft_target_s:
        missed.append(TTFT)
    if replica.tpot_high_s > scenario.tpot_target_s:
        missed.append(TPOT)
    return tuple(missed)


def tp_sizes(scenario: Scenario) -> tuple[int, ...]:
    """The sizes of :data:`TP_SIZES` the model can be split over (as vLLM splits it)."""
    return tuple(n for n in TP_SIZES if tensor_parallel_refusal(scenario.model, n) is None)


def _fewest_replicas(scenario: Scenario, tp: int, chunk: int, steps: MixedSteps) -> tuple[int, Replica] | None:
    """Fewest replicas of ``tp`` devices with ``chunk`` that meet both targets: more replicas
    share the rate, which never lengthens a step or a queue, so the first that works is found by
    doubling and halving."""

    def state(n: int) -> Replica:
        return replica_state(scenario, tp=tp, chunk_tokens=chunk, replicas=n, steps=steps)

    # The most replicas must meet the targets, or no count will.
    if misses(scenario, state(MAX_REPLICAS)):
        return None
    high = 1
    while misses(scenario, state(high)):
        high *= 2
        if high > MAX_REPLICAS:
            return None
    low = high // 2  # misses (or 0)
    while high - low > 1:
        middle = (low + high) // 2
        if misses(scenario, state(middle)):
            low = middle
        else:
            high = middle
    return high, state(high)


def _binding(scenario: Scenario, plan: Plan, steps: MixedSteps) -> tuple[str, str]:
    """What stops a fleet one replica smaller (or, at one replica, one at the next smaller TP)."""
    if plan.replicas == 1:
        smaller = [tp for tp in tp_sizes(scenario) if tp < plan.tp]
        if not smaller:
            return NONE, "one replica at the smallest tensor-parallel size meets both targets"
        tp = smaller[-1]
        state = replica_state(scenario, tp=tp, chunk_tokens=plan.chunk_tokens, replicas=1, steps=steps)
        missed = misses(scenario, state)
        if state.failure:
            return missed[0], f"at TP={tp}, {state.failure.partition(': ')[2]}"
        if TTFT in missed:
            return TTFT, f"at TP={tp} the time to first token at the percentile would be {_s(state.ttft_high_s)}"
        return TPOT, f"at TP={tp} the time per output token at the percentile would be {_s(state.tpot_high_s)}"
    fewer = replica_state(scenario, tp=plan.tp, chunk_tokens=plan.chunk_tokens, replicas=plan.replicas - 1, steps=steps)
    missed = misses(scenario, fewer)
    n = plan.replicas - 1
    if fewer.failure:
        target, _, why = fewer.failure.partition(": ")
        return target, f"with {n} {'replica' if n == 1 else 'replicas'}, {why}"
    ttft_ratio = fewer.ttft_high_s / scenario.ttft_target_s
    tpot_ratio = fewer.tpot_high_s / scenario.tpot_target_s
    if TTFT in missed and (TPOT not in missed or ttft_ratio >= tpot_ratio):
        return TTFT, f"with {n} replicas the time to first token at the percentile would be {_s(fewer.ttft_high_s)}"
    return TPOT, f"with {n} replicas the time per output token at the percentile would be {_s(fewer.tpot_high_s)}"


def _s(seconds: float) -> str:
    if not math.isfinite(seconds):
        return "unbounded"
    return f"{seconds * 1e3:.3g} ms" if seconds < 1 else f"{seconds:.3g} s"


def _cheapest(found: Iterable[Plan]) -> Plan | None:
    # Fewest devices; between equals the smaller TP (more replicas: more failure isolation),
    # then the shorter time per token.
    return min(found, key=lambda p: (p.devices, p.tp, p.replica.tpot_high_s), default=None)


def cheapest_plan(scenario: Scenario, *, chunk_budgets: tuple[int, ...] = CHUNK_BUDGETS) -> Plan | None:
    """The fleet with the fewest devices that meets both targets, over :func:`tp_sizes` and
    ``chunk_budgets``; None when no TP size and chunk meets them at any replica count."""
    steps = scenario_steps(scenario)
    per_tp: list[tuple[int, Plan | None]] = []
    for tp in tp_sizes(scenario):
        found = []
        for chunk in chunk_budgets:
            answer = _fewest_replicas(scenario, tp, chunk, steps)
            if answer is not None:
                found.append(Plan(scenario=scenario, replica=answer[1], replicas=answer[0]))
        per_tp.append((tp, _cheapest(found)))
    best = _cheapest(p for _, p in per_tp if p is not None)
    if best is None:
        return None
    binds, reason = _binding(scenario, best, steps)
    return replace(best, binds=binds, bind_reason=reason, per_tp=tuple(per_tp))


def largest_rate(scenario: Scenario, *, tp: int, replicas: int, chunk_tokens: int) -> tuple[float, str]:
    """The most requests a second ``replicas`` x ``tp`` devices sustain within both targets, and
    what binds there (0 and the reason's target when even a trickle misses).

    A higher rate never shortens a step or a queue, so the edge is found by bisection to 0.1 %.
    """

    # Step times do not depend on the rate: one memo serves every rate tried.
    steps = scenario_steps(scenario)

    def state(rate: float) -> tuple[Scenario, Replica]:
        s = replace(scenario, rate_per_s=rate)
        return s, replica_state(s, tp=tp, chunk_tokens=chunk_tokens, replicas=replicas, steps=steps)

    def ok(rate: float) -> bool:
        return not misses(*state(rate))

    low, high = 0.0, max(scenario.rate_per_s, 1e-3)
    if not ok(high * 1e-6):
        return 0.0, misses(*state(high * 1e-6))[0]
    while ok(high):
        low, high = high, high * 2
    while high - low > 1e-3 * high:
        middle = (low + high) / 2
        low, high = (middle, high) if ok(middle) else (low, middle)
    missed = misses(*state(high))
    return low, missed[0] if missed else NONE


def tightest_tpot(scenario: Scenario, *, devices: int, chunk_budgets: tuple[int, ...] = CHUNK_BUDGETS) -> Plan | None:
    """The fleet of at most ``devices`` devices with the shortest TPOT at the percentile that
    still meets the TTFT target; its ``replica.tpot_high_s`` is the tightest TPOT target
    reachable. More replicas only lighten each one, so each TP size uses as many as fit.

    Returns:
        The plan (``binds`` left :data:`NONE`), or None when no split fits in ``devices``.
    """
    steps = scenario_steps(scenario)
    found = []
    for tp in tp_sizes(scenario):
        if tp > devices:
            continue
        replicas = devices // tp
        for chunk in chunk_budgets:
            state = replica_state(scenario, tp=tp, chunk_tokens=chunk, replicas=replicas, steps=steps)
            if state.failure or state.ttft_high_s > scenario.ttft_target_s:
                continue
            found.append(Plan(scenario=scenario, replica=state, replicas=replicas))
    return min(found, key=lambda p: (p.replica.tpot_high_s, p.devices), default=None)
