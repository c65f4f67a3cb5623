"""Number formats and how many bytes one element takes.

Sub-byte formats (int4, fp4) pack two elements per byte, so their size is 0.5 bytes: the bare
element, as the seeds count it. The block-scaled formats of :mod:`roofline_core.hardware.block_formats`
(MXFP4, NVFP4, GGUF Q4_0/Q4_K/Q8_0) are weight formats too, at their real size with the scales
included (``mxfp4`` is 4.25 bits, 0.53125 bytes).
"""

from __future__ import annotations

from dataclasses import dataclass

from roofline_core.hardware.block_formats import BLOCK_FORMATS


@dataclass(frozen=True)
class DType:
    """A number format.

    Attributes:
        slug: Short name used in presets, URLs and the command line (``"fp16"``).
        label: Display name (``"FP16"``).
        bytes_per_element: Storage size of one element, in bytes.
        is_float: Whether the format is a floating-point one (an accelerator may compute in it).
    """

    slug: str
    label: str
    bytes_per_element: float
    is_float: bool


DTYPES: dict[str, DType] = {
    d.slug: d
    for d in (
        DType("fp32", "FP32", 4.0, True),
        DType("tf32", "TF32", 4.0, True),  # stored as fp32; tensor cores round to 19 bits
        DType("bf16", "BF16", 2.0, True),
        DType("fp16", "FP16", 2.0, True),
        DType("fp8", "FP8", 1.0, True),
        DType("int8", "INT8", 1.0, False),
        DType("fp4", "FP4", 0.5, True),
        DType("int4", "INT4", 0.5, False),
        # Block-scaled weight formats, scales included; MX and NV formats hold floats.
        *(DType(f.slug, f.label, f.bytes_per_weight, f.slug in ("mxfp4", "nvfp4")) for f in BLOCK_FORMATS.values()),
    )
}

#: Formats a model's weights or KV cache are commonly stored in (tf32 is a compute mode only).
STORAGE_DTYPES: tuple[str, ...] = ("fp32", "bf16", "fp16", "fp8", "int8", "fp4", "int4")
#: Formats weights are stored in: the plain ones and the block-scaled ones.
WEIGHT_DTYPES: tuple[str, ...] = (*STORAGE_DTYPES, *BLOCK_FORMATS)
#: Formats the math can run in (each accelerator lists the ones it has a peak for).
COMPUTE_DTYPES: tuple[str, ...] = ("fp16", "bf16", "fp8", "int8", "fp4", "tf32")


def get_dtype(slug: str) -> DType:
    """Return the :class:`DType` named ``slug``.

    Raises:
        KeyError: with the accepted names, if ``slug`` is unknown.
    """
    try:
        return DTYPES[slug]
    except KeyError:
        raise KeyError(f"unknown dtype {slug!r}; expected one of {', '.join(DTYPES)}") from None


def bytes_per_element(slug: str) -> float:
    """Bytes one element of the format ``slug`` takes (e.g. 2.0 for fp16)."""
    return get_dtype(slug).bytes_per_element
