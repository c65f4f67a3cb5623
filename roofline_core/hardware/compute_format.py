"""Which number format the matrix units compute in, given how the weights are stored.

Storage and arithmetic are separate choices, and the default here ("auto") is what vLLM runs
for each storage format:

- **FP8** weights run with FP8 activations on the FP8 peak (W8A8) where the chip has one, and
  are otherwise widened to 16 bits in the kernel (W8A16): "Ada Lovelace, Hopper, and Blackwell
  GPUs are supported for W8A8. Turing/Ampere GPUs are supported for W8A16 (weight-only FP8)
  utilizing Marlin kernels" (https://docs.vllm.ai/en/latest/features/quantization/fp8/).
- **INT8** checkpoints are mostly weight-only (GPTQ and AWQ 8-bit, bitsandbytes), served as
  W8A16 by the Marlin and Machete kernels; W8A8 INT8 needs a checkpoint quantised for it
  (SmoothQuant-style, https://docs.vllm.ai/en/latest/features/quantization/int8/), so it is an
  override (``compute_dtype="int8"``), not the default.
- **INT4** (AWQ, GPTQ) is W4A16 everywhere
  (https://docs.vllm.ai/en/latest/features/quantization/int4/).
- **MXFP4** (gpt-oss's experts) is W4A16 by default even on Blackwell: vLLM's
  ``get_mxfp4_backend`` picks FlashInfer's MXFP4 x BF16 MoE kernel on SM100 unless
  ``VLLM_USE_FLASHINFER_MOE_MXFP4_MXFP8`` asks for MXFP8 activations (W4A8), and Triton or
  Marlin W4A16 kernels on Hopper
  (https://github.com/vllm-project/vllm/blob/main/vllm/model_executor/layers/quantization/mxfp4.py);
  gpt-oss's attention and dense layers are BF16 (https://blog.vllm.ai/2025/08/05/gpt-oss.html).
  ``compute_dtype="fp8"`` models the W4A8 path.
- **NVFP4** and plain **FP4** run W4A4 on the FP4 peak where the chip has one (Blackwell's
  block-scaled tensor cores, vLLM's CUTLASS NVFP4 GEMM), otherwise widened to 16 bits; GGUF
  blocks are counted on their dequantising path, at the 16-bit peak.

::

    >>> from roofline_core.hardware.accelerators import ACCELERATORS
    >>> engine_compute_dtype("fp8", ACCELERATORS["h100-sxm"]), engine_compute_dtype("fp8", ACCELERATORS["a100-sxm-80gb"])
    ('fp8', 'fp16')
    >>> engine_compute_dtype("int4", ACCELERATORS["h100-sxm"]), engine_compute_dtype("int8", ACCELERATORS["h100-sxm"])
    ('fp16', 'fp16')
    >>> engine_compute_dtype("mxfp4", ACCELERATORS["b200"]), engine_compute_dtype("nvfp4", ACCELERATORS["b200"])
    ('fp16', 'fp4')

Standard library only.
"""

from __future__ import annotations

from roofline_core.hardware.accelerators import AnyAccelerator
from roofline_core.hardware.dtypes import bytes_per_element

#: The value of a "math format" field that means "what engines do for these weights on this chip".
AUTO = "auto"

#: Storage formats whose own peak engines use by default when the chip has one (W8A8, W4A4).
#: INT8 is not among them: its checkpoints are mostly weight-only (see the module docstring).
_NATIVE_WHEN_SUPPORTED = ("fp8", "fp4")
#: Formats whose weights and activations share a width when the math is in that format; the
#: words of :func:`compute_scheme` call such a pairing WnAn.
_SAME_WIDTH = ("fp8", "int8", "fp4")
#: Block-scaled 4-bit formats; their math can run on the FP4 peak.
_FP4_BLOCKS = ("mxfp4", "nvfp4")
#: Of those, the ones engines run on the FP4 peak by default (MXFP4 is W4A16 in vLLM).
_FP4_PEAK_BY_DEFAULT = ("nvfp4",)


def sixteen_bit(accelerator: AnyAccelerator) -> str:
    """The chip's 16-bit math format: ``"fp16"``, or ``"bf16"`` where only that is listed (TPUs)."""
    return "fp16" if "fp16" in accelerator.peak_flop_per_s or "bf16" not in accelerator.peak_flop_per_s else "bf16"


def engine_compute_dtype(weight_dtype: str, accelerator: AnyAccelerator) -> str:
    """The format mainstream engines compute in for weights stored as ``weight_dtype`` on ``accelerator``."""
    if weight_dtype in _NATIVE_WHEN_SUPPORTED and accelerator.supports(weight_dtype):
        return weight_dtype
    if weight_dtype in _FP4_PEAK_BY_DEFAULT and accelerator.supports("fp4"):
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
    if weight_dtype in _FP4_BLOCKS and compute_dtype == "fp8":
        return f"W4A8 on the FP8 peak ({weights} blocks)"
    if weight_dtype == compute_dtype:
        if weight_dtype in _SAME_WIDTH:
            bits = round(bytes_per_element(weight_dtype) * 8)
            return f"W{bits}A{bits} on the {math} peak"
        return f"{weights} weights on the {math} peak"
    if bytes_per_element(weight_dtype) < bytes_per_element(compute_dtype):
        return f"weight-only: {weights} widened to {math} on its peak"
    if bytes_per_element(weight_dtype) == bytes_per_element(compute_dtype):
        return f"{weights} weights on the {math} peak"
    return f"{weights} weights with the math in {math}, on its peak"
