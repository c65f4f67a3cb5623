"""Why a preset record's exposed capacity is read in GiB: one reason per memory kind.

Shared by every module of accelerator records (``accelerator_presets`` and the records it
gathers), so records of one memory kind give the same reason.
"""

from __future__ import annotations

HBM_IS_BINARY = (
    "HBM is built from binary-sized DRAM dies, so the sheet's 'GB' is GiB (ROCm lists the MI300X as"
    " 192 GiB); the driver keeps a few hundred MiB back: nvidia-smi reports an H100 80GB's total as"
    " 81,559 MiB of its 81,920, a gap left to the engine's reserve"
)
GDDR_IS_BINARY = (
    "GDDR chips come in binary sizes (a 16 Gb chip holds 2 GiB), so the sheet's"
    " 'GB' is GiB; where ECC is switched on it takes a further share, not counted here"
)
LPDDR_IS_BINARY = (
    "unified LPDDR memory comes in binary sizes (macOS reports a '192GB'"
    " Mac as 192 GiB); the GPU shares it with the CPU and may use only part of it"
)
STATED_IN_GIB = "stated in GiB by the vendor"
DDR_IS_BINARY = (
    "DDR5 modules come in binary sizes (a '64 GB' module holds 64 GiB); the operating system and"
    " other programs share them with the model"
)
