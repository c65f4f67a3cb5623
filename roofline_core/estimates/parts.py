"""What a time is made of: the one vocabulary of parts every estimate breaks its time into.

A step's time is the slower of its roofs plus what sits beside them (communication, a pipeline's
idle stages, a draft's steps). Its **parts** say how much of the time each piece accounts for,
in seconds, in an order a reader can follow, and they add up to the time:

- the bytes at the devices' *peak* bandwidth, one part per kind of traffic (:data:`WEIGHTS`,
  :data:`KV_CACHE`, :data:`ACTIVATIONS`);
- :data:`EFFICIENCY`: the same bytes at the *sustained* bandwidth the estimate was given, minus
  at peak (0 at the speed of light);
- when the step is compute-bound, the compute time beyond that memory time, split between the
  weight matmuls (:data:`COMPUTE`) and attention (:data:`ATTENTION`) by their shares of the FLOPs;
- :data:`COMMUNICATION_LATENCY` and :data:`COMMUNICATION_TRANSFER`: the α and β terms of the
  collectives (:mod:`roofline_core.estimates.communication`);
- :data:`PIPELINE_IDLE` and :data:`DRAFT_STEPS` for pipelines and speculative decoding;
- :data:`HOST_LAYERS`, :data:`PCIE_TRANSFER` and :data:`SECOND_DEVICE` for a model split between a
  GPU, host memory and a second GPU (:mod:`roofline_core.estimates.offload`).

Each part also has its **working**: the formula with the scenario's values
(``"16.1 GB ÷ 3.35 TB/s"``), so a reader can redo it. Standard library only.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import NamedTuple

WEIGHTS = "weights"
KV_CACHE = "kv_cache"
ACTIVATIONS = "activations"
EFFICIENCY = "efficiency"
COMPUTE = "compute"
ATTENTION = "attention"
COMMUNICATION_LATENCY = "communication_latency"
COMMUNICATION_TRANSFER = "communication_transfer"
PIPELINE_IDLE = "pipeline_idle"
DRAFT_STEPS = "draft_steps"
HOST_LAYERS = "host_layers"
PCIE_TRANSFER = "pcie_transfer"
SECOND_DEVICE = "second_device"

#: Every label, in the order parts are listed (a speculative cycle drafts before it verifies),
#: with the phrase a reader sees for it.
LABEL_TEXT: dict[str, str] = {
    DRAFT_STEPS: "draft steps",
    WEIGHTS: "weights read",
    KV_CACHE: "KV cache read",
    ACTIVATIONS: "activation and score traffic",
    EFFICIENCY: "below peak bandwidth",
    COMPUTE: "matmul arithmetic beyond the memory time",
    ATTENTION: "attention arithmetic beyond the memory time",
    PIPELINE_IDLE: "pipeline idle",
    COMMUNICATION_LATENCY: "communication latency",
    COMMUNICATION_TRANSFER: "communication transfer",
    SECOND_DEVICE: "second GPU's layers",
    HOST_LAYERS: "layers computed by the CPU from host memory",
    PCIE_TRANSFER: "host-held weights sent over PCIe",
}
LABELS: tuple[str, ...] = tuple(LABEL_TEXT)

#: Labels whose time is spent moving bytes through memory (at peak bandwidth).
MEMORY_LABELS = (WEIGHTS, KV_CACHE, ACTIVATIONS)
#: Labels whose time is spent between devices.
COMMUNICATION_LABELS = (COMMUNICATION_LATENCY, COMMUNICATION_TRANSFER)


class Part(NamedTuple):
    """One piece of a time: its label (a key of :data:`LABEL_TEXT`) and its seconds."""

    label: str
    seconds: float


Working = tuple[tuple[str, str], ...]


class BrokenIntoParts:
    """Mixin of a result whose time breaks into parts: ``parts`` and ``working`` from one
    ``_parts_and_working()`` that the result defines (``(Part, formula text)`` pairs, in order)."""

    def _parts_and_working(self) -> tuple[tuple[Part, str], ...]:
        raise NotImplementedError

    @property
    def parts(self) -> tuple[Part, ...]:
        """The time broken into parts that add up to it, in order."""
        return tuple(part for part, _ in self._parts_and_working())

    @property
    def working(self) -> Working:
        """``(label, formula with this result's values)`` for each of :attr:`parts`, in the same order."""
        return tuple((part.label, text) for part, text in self._parts_and_working())


def part_text(label: str) -> str:
    """The reader's phrase for a label (``"kv_cache"`` -> ``"KV cache read"``)."""
    return LABEL_TEXT[label]


def adds_up(parts: Iterable[Part], total: float, rel: float = 1e-3) -> bool:
    """Whether ``parts`` sum to ``total`` within a relative tolerance ``rel``, none negative.

    >>> adds_up((Part(WEIGHTS, 4e-3), Part(KV_CACHE, 1e-3)), 5e-3)
    True
    >>> adds_up((Part(WEIGHTS, 4e-3),), 5e-3)
    False
    """
    parts = tuple(parts)
    if any(p.seconds < 0 or not math.isfinite(p.seconds) for p in parts):
        return False
    return math.isclose(sum(p.seconds for p in parts), total, rel_tol=rel, abs_tol=1e-15)
