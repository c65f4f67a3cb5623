"""Which number format the matrix units compute in, given how the weights are stored.

Storage and arithmetic are separate choices. Mainstream engines run 8-bit weights with 8-bit
activations on the 8-bit peak (W8A8) where the chip has one, and otherwise dequantise them to
16 bits inside the kernel (weight-only, W8A16); 4-bit integer weights (AWQ, GPTQ) are
weight-only (W4A16) everywhere; FP4 weights use the FP4 peak on chips that have one. vLLM's
documentation states the FP8 case: "Ada Lovelace, Hopper, and Blackwell GPUs are supported for
W8A8. Turing/Ampere GPUs are supported for W8A16 (weight-only FP8) utilizing Marlin kernels"
(https://docs.vllm.ai/en/latest/features/quantization/fp8/), and its INT4 path is W4A16
(https://docs.vllm.ai/en/latest/features/quantization/int4/)::

    >>> from roofline_core.hardware.accelerators import ACCELERATORS
    >>> engine_compute_dtype("fp8", ACCELERATORS["h100-sxm"]), engine_compute_dtype("fp8", ACCELERATORS["a100-sxm-80gb"])
    ('fp8', 'fp16')
    >>> engine_compute_dtype("int4", ACCELERATORS["h100-sxm"])
    'fp16'

Standard library only.
"""

from __future__ import annotations

from roofline_core.hardware.accelerators import AnyAccelerator
from roofline_core.hardware.dtypes import bytes_per_element

#: The value of a "math format" field that means "what engines do for these weights on this chip".
AUTO = "auto"

#: Storage formats whose own peak engines use when the chip has one (W8A8, W4A4).
_NATIVE_WHEN_SUPPORTED = ("fp8", "int8", "fp4")
#: Block-scaled formats that run on the FP4 peak where the chip has one (Blackwell's block-scaled
#: tensor cores take MXFP4 and NVFP4 directly); GGUF blocks are counted on their dequantising
#: path, at the 16-bit peak.
_FP4_BLOCKS = ("mxfp4", "nvfp4")


def sixteen_bit(accelerator: AnyAccelerator) -> str:
    """The chip's 16-bit math format: ``"fp16"``, or ``"bf16"`` where only that is listed (TPUs)."""
    return "fp16" if "fp16" in accelerator.peak_flop_per_s or "bf16" not in accelerator.peak_flop_per_s else "bf16"


def engine_compute_dtype(weight_dtype: str, accelerator: AnyAccelerator) -> str:
    """The format mainstream engines compute in for weights stored as ``weight_dtype`` on ``accelerator``."""
    if weight_dtype in _NATIVE_WHEN_SUPPORTED and accelerator.supports(weight_dtype):
        return weight_dtype
    if weight_dtype in _FP4_BLOCKS and accelerator.supports("fp4"):
        return "fp4"
    return sixteen_bit(accelerator)


def resolve_compute_dtype(compute_dtype: str | None, weight_dtype: str, accelerator: AnyAccelerator) -> str:
    """``compute_dtype`` itself, or the engines' choice when it is None or :data:`AUTO`."""
    if compute_dtype is None or compute_dtype == AUTO:
        return engine_compute_dtype(weight_dtype, accelerator)
    return compute_dtype


def compute_scheme(weight_dtype: str, compute_dtype: str) -> str:
    """How the weights meet the math, in words: ``"W8A8 on the FP8 peak"``, ``"weight-only: INT4 widened to FP16"``."""
    weights, math = weight_dtype.upper(), compute_dtype.upper()
    if weight_dtype in _FP4_BLOCKS and compute_dtype == "fp4":
        return f"W4A4 on the FP4 peak ({weights} blocks)"
    if weight_dtype == compute_dtype:
        if weight_dtype in _NATIVE_WHEN_SUPPORTED:
            bits = round(bytes_per_element(weight_dtype) * 8)
            return f"W{bits}A{bits} on the {math} peak"
        return f"{weights} weights on the {math} peak"
    if bytes_per_element(weight_dtype) < bytes_per_element(compute_dtype):
        return f"weight-only: {weights} widened to {math} on its peak"
    if bytes_per_element(weight_dtype) == bytes_per_element(compute_dtype):
        return f"{weights} weights on the {math} peak"
    return f"{weights} weights with the math in {math}, on its peak"
