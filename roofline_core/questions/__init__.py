"""Questions asked of the estimates: what fits, what matters most, why a measurement differs.

Holds the inverse questions (``inverse``: the largest batch or context that fits), sensitivity
of a result to each input (``sensitivity``), reconciling a measured speed with the bound
(``reconcile``) and reading pasted benchmark output for it (``bench_output``), the common
pitfalls a setup falls into (``pitfalls``), and the engine commands that run a scenario
(``engine_flags``).
It may import: ``roofline_core.estimates``, ``roofline_core.models``, ``roofline_core.hardware``,
``roofline_core.roofline``, ``roofline_core.sources``, ``roofline_core.formatting``,
``roofline_core.vocabulary``.
"""

from __future__ import annotations
