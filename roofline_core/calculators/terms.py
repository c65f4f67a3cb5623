"""The glossary term that explains each calculator input and output, by its id.

Ids mean the same in every calculator (a batch is a batch), so one table serves them all; the
page links each label to its term (``roofline_site/calculators/render.py``), and a test checks
that every slug here is a glossary entry. Standard library only: this runs in Pyodide too.
"""

from __future__ import annotations

#: Input or output id -> glossary slug.
TERM_OF: dict[str, str] = {
    # Inputs
    "intensity": "arithmetic-intensity",
    "peak_tflop_per_s": "peak-flops",
    "bandwidth_tb_per_s": "memory-bandwidth",
    "memory_gb": "hbm",
    "batch": "batching",
    "context_tokens": "kv-cache",
    "prompt_tokens": "prefill",
    "weight_dtype": "quantization",
    "kv_dtype": "kv-cache-quantisation",
    "devices": "tensor-parallelism",
    "bandwidth_efficiency": "model-bandwidth-utilisation",
    "attention": "grouped-query-attention",
    "mla_latent_dim": "multi-head-latent-attention",
    "mla_rope_dim": "multi-head-latent-attention",
    "rate_per_s": "littles-law",
    "prefix_hit_rate": "prefix-caching",
    "percentile": "tail-latency",
    "ttft_target_ms": "time-to-first-token",
    "tpot_target_ms": "inter-token-latency",
    "price_per_device_hour": "cost-per-token",
    "gpu_layers": "cpu-offloading",
    "pcie": "pcie-bandwidth",
    "pcie_rate": "pcie-bandwidth",
    "host": "memory-channels",
    # Outputs
    "attainable": "roofline",
    "share_of_peak": "peak-flops",
    "bound": "roofline",
    "ridge_point": "ridge-point",
    "step_time": "decode",
    "tokens_per_s": "tokens-per-second",
    "tokens_per_s_per_sequence": "tokens-per-second",
    "compute_utilisation": "model-flops-utilisation",
    "kv_bytes": "kv-cache",
    "kv_bytes_per_token": "kv-cache",
    "kv_bytes_per_sequence": "kv-cache",
    "kv_bytes_at_context": "kv-cache",
    "max_batch": "batching",
    "ttft": "time-to-first-token",
    "active_params": "mixture-of-experts",
    "decode_flops_per_token": "decode",
    "fits": "kv-cache",
    # The capacity planner
    "cost": "cost-per-token",
    "decode_batch": "continuous-batching",
    "chunk_tokens": "chunked-prefill",
    "tpot": "inter-token-latency",
    "frontier": "throughput-latency-trade-off",
    # The agentic session
    "turns": "agentic-workloads",
    "tool_tokens": "agentic-workloads",
    "hit_rate": "prefix-cache-hit-rate",
    "tier": "kv-cache-offload",
    # Prefill/decode disaggregation
    "split": "prefill-decode-disaggregation",
    "link_gb_per_s": "kv-cache-transfer",
    # The reconciler (measured against the bound)
    "measured": "inter-token-latency",
    "ttft_ms": "time-to-first-token",
    "versus": "speed-of-light",
    "mbu": "model-bandwidth-utilisation",
    "mfu": "model-flops-utilisation",
}


def term_of(field_or_output_id: str) -> str | None:
    """The glossary slug explaining an input or output, or None when no entry does."""
    return TERM_OF.get(field_or_output_id)
