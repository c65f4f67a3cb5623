"""How far below the speed of light real servers run, from the site's table of published measurements.

The numbers here are fitted by :mod:`roofline_core.evidence.validation` on the fit half of
``measurements/measurements.toml`` and copied as constants, because the browser computes without
the table; ``tests/data/test_measurements.py`` refits the table and fails if they drift.
Standard library only.
"""

from __future__ import annotations

#: Fractions of peak memory bandwidth and peak compute that best fit the table's fit rows
#: (roofline_core.evidence.validation.FITTED_EFFICIENCIES is built from these).
FITTED_BANDWIDTH_SHARE = 0.73
FITTED_COMPUTE_SHARE = 0.6

#: The middle half (25th to 75th percentile) of measured single-device decode speed as a share of
#: the speed of light, over the fit rows: a realistic range for a decode estimate.
DECODE_SHARE_OF_SPEED_OF_LIGHT = (0.51, 0.69)
