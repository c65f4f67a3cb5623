"""A continuous-batching engine step at realistic speed: a decode batch, and a prefill chunk beside it.

Serving engines with chunked prefill (vLLM, SGLang) run one forward pass per step over every
running sequence's next token and, while prompts wait, a chunk of prompt tokens. Such a step is
built here from the existing estimates, with no second copy of their formulas:

- the decode step of the batch (:func:`~roofline_core.estimates.inference.estimate_decode`):
  the weights and the batch's KV cache read, the batch's arithmetic;
- plus the chunk's share of its prompt's prefill FLOPs
  (:func:`~roofline_core.estimates.inference.estimate_prefill`, attention over the whole prompt
  included, shared out evenly over its chunks), on the same weight read;
- plus the tensor-parallel all-reduces of ``batch + chunk`` tokens as engines run them
  (:func:`~roofline_core.estimates.efficiency.expected_tensor_parallel_s`).

Its realistic time is the decode estimate's own rule
(:func:`~roofline_core.estimates.inference.step_expected_s`, the regime's fitted shares and fixed
cost in :mod:`roofline_core.estimates.efficiency`), so a step without a chunk takes exactly the
decode estimate's ``expected_step_time_s``. Standard library only.
"""

from __future__ import annotations

from dataclasses import replace

from roofline_core.estimates.efficiency import expected_tensor_parallel_s
from roofline_core.estimates.inference import (
    DecodeEstimate,
    MemoryFit,
    StepEstimate,
    estimate_decode,
    estimate_prefill,
    memory_fit,
    step_expected_s,
)
from roofline_core.hardware import AnyAccelerator
from roofline_core.models import AnyModel


class MixedSteps:
    """Step times of one model, chip and formats, remembered: a capacity search or a frontier
    asks for the same batch many times.

    Args:
        model: The model served.
        accelerator: One device of a replica.
        weight_dtype: Storage format of the weights.
        kv_dtype: Storage format of the KV cache.
        context_tokens: Cached tokens each decoding sequence reads, in tokens.
        prompt_tokens: Prompt tokens whose prefill a chunk is a share of, in tokens.
    """

    def __init__(
        self,
        *,
        model: AnyModel,
        accelerator: AnyAccelerator,
        weight_dtype: str,
        kv_dtype: str,
        context_tokens: int,
        prompt_tokens: int,
    ) -> None:
        self.model = model
        self.accelerator = accelerator
        self.weight_dtype = weight_dtype
        self.kv_dtype = kv_dtype
        self.context_tokens = context_tokens
        self.prompt_tokens = prompt_tokens
        self._times: dict[tuple[int, int, int], float] = {}
        self._prefill: dict[int, StepEstimate] = {}
        self._fits: dict[tuple[int, int, int], MemoryFit] = {}

    def memory(self, tp: int, batch: int, context_tokens: int) -> MemoryFit:
        """How ``batch`` sequences of ``context_tokens`` fit on ``tp`` devices beside the weights
        (:func:`~roofline_core.estimates.inference.memory_fit`, with the engine's reserve)."""
        key = (tp, batch, context_tokens)
        if key not in self._fits:
            self._fits[key] = memory_fit(
                model=self.model,
                accelerator=self.accelerator,
                weight_dtype=self.weight_dtype,
                kv_dtype=self.kv_dtype,
                batch=batch,
                context_tokens=context_tokens,
                devices=tp,
            )
        return self._fits[key]

    def decode(self, tp: int, batch: int) -> DecodeEstimate:
        """The decode estimate of ``batch`` sequences on ``tp`` devices (its ``step`` at peak)."""
        return estimate_decode(
            model=self.model,
            accelerator=self.accelerator,
            weight_dtype=self.weight_dtype,
            kv_dtype=self.kv_dtype,
            batch=batch,
            context_tokens=self.context_tokens,
            devices=tp,
        )

    def prefill(self, tp: int) -> StepEstimate:
        """The whole prompt's prefill on ``tp`` devices, at peak."""
        if tp not in self._prefill:
            self._prefill[tp] = estimate_prefill(
                model=self.model,
                accelerator=self.accelerator,
                weight_dtype=self.weight_dtype,
                prompt_tokens=self.prompt_tokens,
                devices=tp,
            )
        return self._prefill[tp]

    def step_s(self, tp: int, batch: int, chunk: int) -> float:
        """A step of ``batch`` decoding sequences and ``chunk`` prompt tokens on ``tp`` devices,
        at realistic speed, in seconds."""
        key = (tp, batch, chunk)
        if key not in self._times:
            decode = self.decode(tp, batch)
            step = decode.step
            if chunk:
                prefill = self.prefill(tp)
                step = replace(step, flops=step.flops + prefill.flops * chunk / prefill.tokens)
            self._times[key] = step_expected_s(
                step,
                decode.regime,
                model=self.model,
                accelerator=self.accelerator,
                kv_bytes=decode.kv_bytes,
                communication_s=expected_tensor_parallel_s(
                    self.model, self.accelerator, devices=tp, tokens=batch + chunk
                ),
            )
        return self._times[key]
