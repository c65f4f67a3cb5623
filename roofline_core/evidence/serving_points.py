"""The cited continuous-batching serving measurements, as points a throughput chart can draw.

The measurement table (``measurements/measurements.toml``, read by
:mod:`roofline_core.evidence.measurements`) holds each ``serving_*`` figure as a row of its own:
the server's output tokens per second, and where the source gives it the mean time per output
token, at one concurrency. This module pairs them into one point a configuration, copied here
because the browser computes without the table (as the fitted efficiencies are copied into
:mod:`roofline_core.estimates.efficiency`); ``tests/roofline_core/test_serving_points.py`` holds
the copy equal to the table, row for row.

Standard library only.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ServingPoint:
    """One served configuration of the table at one concurrency.

    Attributes:
        row_id: The table's row of the output tokens per second (its anchor on the
            measurements page).
        model: Model slug.
        accelerator: Accelerator slug.
        weight_format: The weights' format slug.
        devices: Devices serving one replica.
        concurrency: Requests kept in flight.
        input_tokens: Prompt tokens a request.
        output_tokens: Output tokens a request.
        tokens_per_s: The server's output tokens per second, all requests.
        tpot_ms: Mean time per output token (inter-token latency), in ms, or None where the
            source gives none.
        engine: The serving engine.
        engine_version: Its version as the source states it.
    """

    row_id: str
    model: str
    accelerator: str
    weight_format: str
    devices: int
    concurrency: int
    input_tokens: int
    output_tokens: int
    tokens_per_s: float
    tpot_ms: float | None
    engine: str
    engine_version: str

    @property
    def tokens_per_s_per_device(self) -> float:
        """Output tokens per second per device."""
        return self.tokens_per_s / self.devices

    @property
    def tokens_per_s_per_user(self) -> float:
        """What one request sees, in tokens/s: 1 / the time per output token where the source
        gives it; otherwise the server's rate shared by the requests in flight, which counts
        each request's wait for its first token too (so it reads a little slow)."""
        if self.tpot_ms is not None:
            return 1000.0 / self.tpot_ms
        return self.tokens_per_s / self.concurrency


#: Every serving configuration of the table with an output rate, in the table's order.
SERVING_POINTS: tuple[ServingPoint, ...] = (
    ServingPoint(
        "nim-18-llama33-70b-fp8-tp2-5000-500-c1-tput",
        "llama-3.1-70b",
        "h100-sxm",
        "fp8",
        2,
        1,
        5000,
        500,
        51.67,
        18.58,
        "NVIDIA NIM (TensorRT-LLM)",
        "1.8.0",
    ),
    ServingPoint(
        "nim-18-llama33-70b-fp8-tp2-5000-500-c5-tput",
        "llama-3.1-70b",
        "h100-sxm",
        "fp8",
        2,
        5,
        5000,
        500,
        218.48,
        21.83,
        "NVIDIA NIM (TensorRT-LLM)",
        "1.8.0",
    ),
    ServingPoint(
        "nim-18-llama33-70b-fp8-tp2-5000-500-c25-tput",
        "llama-3.1-70b",
        "h100-sxm",
        "fp8",
        2,
        25,
        5000,
        500,
        623.4,
        38.75,
        "NVIDIA NIM (TensorRT-LLM)",
        "1.8.0",
    ),
    ServingPoint(
        "nim-18-llama33-70b-fp8-tp2-5000-500-c50-tput",
        "llama-3.1-70b",
        "h100-sxm",
        "fp8",
        2,
        50,
        5000,
        500,
        814.37,
        59.73,
        "NVIDIA NIM (TensorRT-LLM)",
        "1.8.0",
    ),
    ServingPoint(
        "nim-18-llama33-70b-fp8-tp2-500-2000-c1-tput",
        "llama-3.1-70b",
        "h100-sxm",
        "fp8",
        2,
        1,
        500,
        2000,
        52.85,
        18.91,
        "NVIDIA NIM (TensorRT-LLM)",
        "1.8.0",
    ),
    ServingPoint(
        "vllm-rtx4090-mistral-7b-256-128-c4-tput",
        "mistral-7b-v0.3",
        "rtx-4090",
        "bf16",
        1,
        4,
        256,
        100,
        210.0,
        None,
        "vLLM",
        "not stated",
    ),
    ServingPoint(
        "vllm-rtx4090-mistral-7b-256-128-c8-tput",
        "mistral-7b-v0.3",
        "rtx-4090",
        "bf16",
        1,
        8,
        256,
        100,
        377.0,
        None,
        "vLLM",
        "not stated",
    ),
    ServingPoint(
        "vllm-rtx4090-mistral-7b-256-128-c16-tput",
        "mistral-7b-v0.3",
        "rtx-4090",
        "bf16",
        1,
        16,
        256,
        100,
        644.0,
        None,
        "vLLM",
        "not stated",
    ),
    ServingPoint(
        "vllm-rtx4090-mistral-7b-256-128-c32-tput",
        "mistral-7b-v0.3",
        "rtx-4090",
        "bf16",
        1,
        32,
        256,
        100,
        975.0,
        None,
        "vLLM",
        "not stated",
    ),
    ServingPoint(
        "vllm-rtx4090-mistral-7b-256-128-c48-tput",
        "mistral-7b-v0.3",
        "rtx-4090",
        "bf16",
        1,
        48,
        256,
        100,
        1190.0,
        None,
        "vLLM",
        "not stated",
    ),
)


def serving_points(*, model: str, accelerator: str, weight_format: str) -> tuple[ServingPoint, ...]:
    """The points measured on this model, accelerator and weight format (any lengths, any
    devices), in the table's order."""
    return tuple(
        p for p in SERVING_POINTS if (p.model, p.accelerator, p.weight_format) == (model, accelerator, weight_format)
    )
