"""Questions asked of the estimates: what fits, what matters most, why a measurement differs.

Holds the inverse questions (``inverse``: the largest batch or context that fits), sensitivity
of a result to each input (``sensitivity``), reconciling a measured speed with the bound
(``reconcile``) and reading pasted benchmark output for it (``bench_output``), the cheapest
fleet that serves a request rate within latency targets (``capacity``), the common
pitfalls a setup falls into (``pitfalls``), the engine commands that run a scenario
(``engine_flags``), and an engine's start-up log reproduced from the model (``engine_log_check``,
reading what :mod:`roofline_core.engine_log` parsed).
It may import: ``roofline_core.estimates``, ``roofline_core.models``, ``roofline_core.hardware``,
``roofline_core.roofline``, ``roofline_core.sources``, ``roofline_core.formatting``,
``roofline_core.vocabulary``, ``roofline_core.engine_log``.
"""

from __future__ import annotations
