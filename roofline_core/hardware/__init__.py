"""Accelerators and number formats: what a chip can do, with every figure cited.

Holds the accelerator type and lookups (``accelerators``), the accelerator presets, each quoting
its spec sheet (``accelerator_presets``, with the shared reasons a capacity is read in GiB in
``capacity_reasons``), the number formats (``dtypes``) and block-scaled
formats (``block_formats``), and which compute format a model's weights run in on a chip
(``compute_format``). ``roofline_core.hardware`` re-exports the accelerator names.
It may import: ``roofline_core.roofline``, ``roofline_core.sources`` (and the standard library).
"""

from __future__ import annotations

from roofline_core.hardware.accelerators import (
    ACCELERATORS,
    CEILINGS,
    GIGA,
    PEAK_BASES,
    PEAK_BASIS_WORDS,
    SIXTEEN_BIT_TWINS,
    TERA,
    VENDORS_WITHOUT_PUBLISHED_PEAKS,
    Accelerator,
    AnyAccelerator,
    CustomAccelerator,
    accelerators_by_vendor,
    get_accelerator,
)

__all__ = [
    "ACCELERATORS",
    "Accelerator",
    "CEILINGS",
    "AnyAccelerator",
    "CustomAccelerator",
    "GIGA",
    "PEAK_BASES",
    "PEAK_BASIS_WORDS",
    "SIXTEEN_BIT_TWINS",
    "TERA",
    "VENDORS_WITHOUT_PUBLISHED_PEAKS",
    "accelerators_by_vendor",
    "get_accelerator",
]
