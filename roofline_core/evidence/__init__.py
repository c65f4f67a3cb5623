"""Evidence: published inference measurements and how far the estimates are from them.

Holds the cited measurements read from ``measurements/measurements.toml`` with their checks
(``measurements``) and the comparison and efficiency fit against the formula layer
(``validation``).
It may import: ``roofline_core.estimates``, ``roofline_core.models``, ``roofline_core.hardware``,
``roofline_core.roofline``, ``roofline_core.sources``, ``roofline_core.formatting``.
"""

from __future__ import annotations
