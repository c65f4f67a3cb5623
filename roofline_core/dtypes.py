"""Number formats and how many bytes one element takes.

Sub-byte formats (int4, fp4) pack two elements per byte, so their size is 0.5 bytes; block
scales (as in MXFP4 or GPTQ group scales) add a little on top and are ignored here, as the
seeds do.
"""

from __future__ import annotations

from dataclasses import dataclass


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
    )
}

#: Formats a model's weights or KV cache are commonly stored in (tf32 is a compute mode only).
STORAGE_DTYPES: tuple[str, ...] = ("fp32", "bf16", "fp16", "fp8", "int8", "fp4", "int4")
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
