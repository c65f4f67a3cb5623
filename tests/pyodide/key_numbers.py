"""The key numbers of the roofline_core tests, computed the same way in CPython and in Pyodide.

``key_numbers_json()`` returns them as one JSON string (sorted keys, no NaN), so the two
interpreters can be compared for exact equality. This file is run inside Pyodide by
``run_in_pyodide.mjs`` and imported by the pytest that compares.
"""

from __future__ import annotations

import dataclasses
import json
import sys
import time

from roofline_core import (
    batch_sweep,
    decode_step,
    estimate_decode,
    get_accelerator,
    get_model,
    kv_cache_bytes,
    matmul_cost,
    matvec_exact_cost,
    operations_catalogue,
    prefill_step,
    ridge_point,
)
from roofline_core.calculators import CALCULATORS, compute, definition
from roofline_core.engine_log import parse as parse_engine_log
from roofline_core.view import compute_view_json

H100 = {"peak_flop_per_s": 989e12, "bandwidth_bytes_per_s": 3.35e12}

#: A few things a person can type, per calculator: every field gets each of them in turn.
BAD_INPUTS = ["", "abc", "NaN", "inf", "-1", "0", "1e308", "<img src=x onerror=alert(1)>"]


def _seed_numbers() -> dict:
    step_8b = decode_step(params=8e9, **H100)
    llama70 = get_model("llama-3-70b")
    fp16 = matmul_cost(m=1, n=8192, k=8192)
    int8 = matmul_cost(m=1, n=8192, k=8192, weight_bytes_per_element=1, activation_bytes_per_element=1)
    mixtral = estimate_decode(
        model=get_model("mixtral-8x7b"), accelerator=get_accelerator("h100-sxm"), batch=16, context_tokens=4096
    )
    return {
        "ridge_h100": ridge_point(**H100),
        "ridge_a100_80gb": get_accelerator("a100-sxm-80gb").ridge_point(),
        "decode_8b_step_time_s": step_8b.step_time_s,
        "decode_8b_tokens_per_s": step_8b.tokens_per_s,
        "seed_004_table": [
            [r.batch, r.intensity_flop_per_byte, r.bound, r.step_time_s, r.tokens_per_s, r.compute_utilisation]
            for r in batch_sweep(params=70e9, **H100)
        ],
        "kv_llama_3_70b_32k": kv_cache_bytes(
            layers=llama70.layers, kv_heads=llama70.kv_heads, head_dim=llama70.head_dim, tokens=32768
        ),
        "matvec_seed_003": matvec_exact_cost(rows=3, cols=2).intensity_flop_per_byte,
        "int8_bytes_ratio": int8.bytes_moved / fp16.bytes_moved,
        "int8_intensity_ratio": int8.intensity_flop_per_byte / fp16.intensity_flop_per_byte,
        "prefill_8b_2048": prefill_step(params=8e9, prompt_tokens=2048, **H100).step_time_s,
        "mixtral_decode_16": [mixtral.step_time_s, mixtral.weight_bytes_streamed],
        # Parts and their working (issue 31): the same seconds and the same text in Pyodide.
        "mixtral_decode_16_parts": [list(mixtral.parts), list(mixtral.working)],
        "params": {
            slug: [m.total_params, m.active_params_per_token, m.streamed_params_per_token] for slug, m in _models()
        },
        # Hybrid and sparse-attention models: the fixed state, the cache at 32k and a decode read.
        "layer_kinds": {
            slug: [
                m.state_bytes_per_sequence,
                m.kv_cache_bytes(context_tokens=32768, batch=4),
                m.decode_cache_read_bytes(context_tokens=100_000, batch=4),
            ]
            for slug, m in _models()
            if m.recurrent is not None or m.sparse_attention is not None
        },
        "operations": [
            [op.slug, op.flops, op.bytes_moved, op.bound, op.why]
            for op in operations_catalogue(accelerator=get_accelerator("h100-sxm"), model=llama70)
        ],
    }


def _models():
    from roofline_core import MODELS

    return sorted(MODELS.items())


def _calculator_results() -> dict:
    results = {}
    for calc_id, calc in sorted(CALCULATORS.items()):
        results[calc_id] = {
            "definition": definition(calc_id),
            "defaults": compute(calc_id, {}),
            # The page's view as the browser receives it (a string: its exact bytes and key
            # order are what the browser's elements are built from).
            "view": compute_view_json(calc_id, {}, f"calculator-{calc_id}"),
            "bad": {},
        }
        conditions = calc.field_conditions()
        for field in calc.inputs:
            # A field shown only under a choice (the config box) is tried under that choice.
            condition = conditions.get(field.id)
            shown_by = {condition["select"]: condition["values"][0]} if condition else {}
            results[calc_id]["bad"][field.id] = [
                compute(calc_id, {**shown_by, field.id: bad})["errors"] for bad in BAD_INPUTS
            ]
    return results


#: One start-up log per engine (lines as tests/roofline_core/test_engine_log.py cites them), with
#: colour codes, CRLF and a line no engine prints.
ENGINE_LOGS = {
    "vllm": "\x1b[1;36m(EngineCore_DP0 pid=7)\x1b[0;0m INFO 11-27 12:00:05 [gpu_worker.py:298] Available KV cache"
    " memory: 53.47 GiB\r\n(EngineCore_DP0 pid=7) INFO 11-27 12:00:05 [kv_cache_utils.py:1087] GPU KV cache size:"
    " 437,968 tokens\r\nINFO:     Application startup complete.\r\n",
    "sglang": "[2026-02-04 11:30:29] KV Cache is allocated. #tokens: 20480, K size: 0.12 GB, V size: 0.12 GB\n"
    "[2026-02-26 16:41:18 TP2] KV Cache is allocated. #tokens: 2454421, KV size: 160.63 GB\n",
    "llama.cpp": "llama_context: n_ctx         = 4096\nload_tensors:        CUDA0 model buffer size =  4403.49 MiB\n"
    "llama_kv_cache: size =  512.00 MiB (  4096 cells,  32 layers,  1/1 seqs), K (f16):  256.00 MiB, V (f16):"
    "  256.00 MiB\n",
}


def _engine_logs() -> dict:
    return {name: dataclasses.asdict(parse_engine_log(text)) for name, text in ENGINE_LOGS.items()}


def key_numbers_json() -> str:
    numbers = {"seeds": _seed_numbers(), "calculators": _calculator_results(), "engine_logs": _engine_logs()}
    return json.dumps(numbers, allow_nan=False, sort_keys=True)


def bench_json(calls: int) -> str:
    """Per-call times (seconds) of ``compute(id, defaults)`` for each calculator, and of the
    browser's round trip ``compute_view_json`` (compute, lay out, serialise), and the interpreter."""
    timings = {}
    view_timings = {}
    for calc_id in sorted(CALCULATORS):
        timings[calc_id] = _timed(lambda calc_id=calc_id: compute(calc_id, {}), calls)
        view_timings[calc_id] = _timed(lambda calc_id=calc_id: compute_view_json(calc_id, {}, "calculator"), calls)
    runtime = f"{sys.implementation.name} {sys.version.split()[0]} ({sys.platform})"
    return json.dumps({"runtime": runtime, "timings_s": timings, "view_timings_s": view_timings})


def _timed(call, calls: int) -> list[float]:
    call()  # warm caches (imports, first-call costs)
    samples = []
    for _ in range(calls):
        start = time.perf_counter()
        call()
        samples.append(time.perf_counter() - start)
    return samples
