"""roofline_core: the one source of truth for every number on Roofline Glossary.

Standard library only, so the same code runs in CPython at build time and in Pyodide in the
reader's browser. SI units everywhere (FLOP, bytes, seconds); 2 FLOPs per multiply-add; dense
peaks. See the README for a tour.
"""

from __future__ import annotations

from roofline_core.estimates.inference import (
    DecodeEstimate,
    MemoryFit,
    StepEstimate,
    SweepRow,
    batch_sweep,
    context_for_kv_bytes,
    critical_batch,
    decode_step,
    estimate_decode,
    estimate_prefill,
    fit_in_memory,
    kv_cache_bytes,
    memory_fit,
    prefill_step,
)
from roofline_core.estimates.operations import OPERATION_KINDS, Operation, matvec_exact_cost, operations_catalogue
from roofline_core.hardware import ACCELERATORS, Accelerator, AnyAccelerator, CustomAccelerator, get_accelerator
from roofline_core.hardware.dtypes import DTYPES, DType, bytes_per_element, get_dtype
from roofline_core.models import MODELS, AnyModel, ConfigError, CustomModel, Model, from_hf_config, get_model
from roofline_core.roofline import (
    MatmulCost,
    attainable_flop_per_s,
    bound,
    matmul_cost,
    op_time_s,
    ridge_point,
)
from roofline_core.sources import Source

__version__ = "0.1.0"

__all__ = [
    "from_hf_config",
    "ACCELERATORS",
    "DTYPES",
    "MODELS",
    "OPERATION_KINDS",
    "Accelerator",
    "AnyAccelerator",
    "AnyModel",
    "ConfigError",
    "CustomAccelerator",
    "CustomModel",
    "DType",
    "DecodeEstimate",
    "MatmulCost",
    "MemoryFit",
    "Model",
    "Operation",
    "Source",
    "StepEstimate",
    "SweepRow",
    "attainable_flop_per_s",
    "batch_sweep",
    "bound",
    "bytes_per_element",
    "context_for_kv_bytes",
    "critical_batch",
    "decode_step",
    "estimate_decode",
    "estimate_prefill",
    "fit_in_memory",
    "get_accelerator",
    "get_dtype",
    "get_model",
    "kv_cache_bytes",
    "matmul_cost",
    "matvec_exact_cost",
    "memory_fit",
    "op_time_s",
    "operations_catalogue",
    "prefill_step",
    "ridge_point",
]
