"""Capacity planner: the cheapest fleet that serves a request rate within TTFT and TPOT targets.

It opens on Llama 3.1 70B in FP8 on H100 SXMs at 10 requests/s of 2,000-token prompts and
500-token outputs, both targets at p90 (2 s to the first token, 50 ms a token after it). The
plan comes from :func:`roofline_core.questions.capacity.cheapest_plan`, each of its times told
with the parts it is made of; the table shows the cheapest fleet at every tensor-parallel size
searched, and the chart the decode-only throughput-interactivity frontier with the plan on it.
"""

from __future__ import annotations

from typing import Any

from roofline_core.calculators._common import (
    WEIGHT_FORMAT_READ,
    accelerator_input,
    dtype_input,
    model_config_input,
    model_input,
    model_of,
    price_input,
    unanswered_outputs,
)
from roofline_core.calculators.base import Calculator, Output, value
from roofline_core.figures.frontier import frontier_chart
from roofline_core.formatting import (
    format_amount,
    format_number,
    format_percent,
    format_time,
    format_tokens_per_s,
    format_whole,
)
from roofline_core.hardware import ACCELERATORS
from roofline_core.models.preset_records import PRESET_RECORDS
from roofline_core.questions.capacity import (
    MEMORY,
    NONE,
    SLOT_PERCENTILE,
    TPOT,
    TTFT,
    Plan,
    Scenario,
    cheapest_plan,
    largest_rate,
    scenario_steps,
    tightest_tpot,
)
from roofline_core.questions.engine_flags import engine_commands
from roofline_core.vocabulary import MAX_TOKENS, Number, WholeNumber

BINDS_TEXT = {
    TTFT: "the time-to-first-token target",
    TPOT: "the time-per-output-token target",
    MEMORY: "memory",
    NONE: "nothing: one replica at the smallest split meets both targets",
}
#: What binds, as a headline's few words.
BINDS_SHORT = {TTFT: "time to first token", TPOT: "time per output token", MEMORY: "memory", NONE: "nothing"}
_REPOS = {record["slug"]: record["repo"] for record in PRESET_RECORDS}


def _scenario(values: dict[str, Any]) -> Scenario:
    return Scenario(
        model=model_of(values),
        accelerator=ACCELERATORS[values["accelerator"]],
        weight_dtype=values["weight_dtype"],
        kv_dtype=values["kv_dtype"],
        rate_per_s=values["rate_per_s"],
        prompt_tokens=values["prompt_tokens"],
        # A length at the percentile below the mean is read as the mean (the fields' help says so).
        prompt_tokens_high=max(values["prompt_tokens_high"], values["prompt_tokens"]),
        output_tokens=values["output_tokens"],
        output_tokens_high=max(values["output_tokens_high"], values["output_tokens"]),
        prefix_hit_rate=values["prefix_hit_rate"] / 100,
        percentile=values["percentile"] / 100,
        ttft_target_s=values["ttft_target_ms"] / 1e3,
        tpot_target_s=values["tpot_target_ms"] / 1e3,
        price_per_device_hour=values["price_per_device_hour"],
    )


def _p(scenario: Scenario) -> str:
    return f"p{format_number(scenario.percentile * 100)}"


def _cost(plan: Plan) -> dict[str, Any]:
    """Cost per million output tokens: in dollars at the reader's price, else per unit of price."""
    if plan.scenario.price_per_device_hour == 0:
        per_price = plan.devices / 3600 / plan.output_tokens_per_s * 1e6
        # Device-hours per million tokens: times the reader's price, the cost (the working says so).
        return value(0, "USD", f"{format_number(per_price)} device-hours")
    return value(plan.cost_per_million_output_tokens, "USD", f"${format_number(plan.cost_per_million_output_tokens)}")


def _working(plan: Plan) -> dict[str, Any]:
    """The plan's headline numbers worked out, and why a cheaper fleet misses."""
    s = plan.scenario
    devices = format_amount(plan.devices, "devices")
    tokens = format_number(plan.output_tokens_per_s)
    device_hours = plan.devices / 3600 / plan.output_tokens_per_s * 1e6
    price = (
        f" × ${format_number(s.price_per_device_hour)} an hour = ${format_number(plan.cost_per_million_output_tokens)}"
        if s.price_per_device_hour
        else ""
    )
    text = (
        f"{format_amount(plan.replicas, 'replicas')} of {format_amount(plan.tp, 'devices')} each "
        f"({s.accelerator.name}). {BINDS_TEXT[plan.binds][0].upper()}{BINDS_TEXT[plan.binds][1:]} binds: "
        f"{plan.bind_reason}. {format_number(s.rate_per_s)} requests/s × {format_whole(s.output_tokens)} tokens = "
        f"{tokens} output tokens/s over {devices} = {format_number(plan.tokens_per_s_per_device)} each; a million "
        f"tokens take {devices} ÷ 3,600 s ÷ {tokens} tokens/s × 10⁶ = {format_number(device_hours)} "
        f"device-hours{price}."
    )
    return value(text, "", text)


def _ttft(plan: Plan) -> dict[str, Any]:
    r, s = plan.replica, plan.scenario
    chunks = round(r.prefill_high_s / r.chunk_step_s)
    return value(
        r.ttft_high_s,
        "s",
        f"{format_time(r.ttft_high_s)} at {_p(s)}, made of {format_time(r.queue_wait_high_s)} waiting for the "
        f"prefill slot (M/D/1 at {format_percent(r.prefill_utilisation)} busy; mean wait "
        f"{format_time(r.queue_wait_s)}) + {format_time(r.prefill_high_s)} of prefill "
        f"({format_whole(chunks)} {'chunk' if chunks == 1 else 'chunks'} of {format_whole(r.chunk_tokens)} tokens × "
        f"{format_time(r.chunk_step_s)} a step); target {format_time(s.ttft_target_s)}",
    )


def _tpot(plan: Plan) -> dict[str, Any]:
    r, s = plan.replica, plan.scenario
    return value(
        r.tpot_high_s,
        "s",
        f"{format_time(r.tpot_high_s)} at {_p(s)}, made of {format_time(r.decode_step_s)} a decode step at "
        f"{format_amount(r.decode_batch_high, 'sequences')} + {format_time(r.interference_s)} of prefill chunks "
        f"interleaved ({format_percent(r.prefill_utilisation)} of the time); target {format_time(s.tpot_target_s)}",
    )


def _commands(plan: Plan, values: dict[str, Any]) -> tuple[Any, ...]:
    s = plan.scenario
    repo = _REPOS.get(values["model"], s.model.name)
    return engine_commands(
        model=repo,
        devices=plan.tp,
        context_tokens=plan.max_model_len,
        sequences=plan.replica.max_sequences,
        kv_dtype=s.kv_dtype,
        batched_tokens=plan.batched_tokens,
        prefill_chunk_tokens=plan.chunk_tokens,
    )


def _row(tp: int, plan: Plan | None, chosen: Plan) -> dict[str, Any]:
    if plan is None:
        text = "no replica count meets both targets (or the model does not fit)"
        return {
            "tp": value(tp, "devices", f"TP={tp}"),
            "fleet": value(0, "devices", text),
            "ttft": value(0, "s", "–"),
            "tpot": value(0, "s", "–"),
            "chunk": value(0, "tokens", "–"),
        }
    mark = " (the plan)" if plan is chosen or (plan.tp == chosen.tp and plan.replicas == chosen.replicas) else ""
    return {
        "tp": value(tp, "devices", f"TP={tp}"),
        "fleet": value(
            plan.devices,
            "devices",
            f"{format_amount(plan.replicas, 'replicas')}, {format_amount(plan.devices, 'devices')}{mark}",
        ),
        "ttft": value(plan.replica.ttft_high_s, "s", format_time(plan.replica.ttft_high_s)),
        "tpot": value(plan.replica.tpot_high_s, "s", format_time(plan.replica.tpot_high_s)),
        "chunk": value(plan.chunk_tokens, "tokens", f"{format_whole(plan.chunk_tokens)} tokens"),
    }


def _no_plan(scenario: Scenario) -> dict[str, Any]:
    why = (
        f"No tensor-parallel size up to 8 with up to the most replicas searched meets "
        f"{format_time(scenario.ttft_target_s)} to the first token and {format_time(scenario.tpot_target_s)} "
        f"a token at {_p(scenario)}: loosen a target, or choose a faster chip or a smaller format."
    )
    outputs = unanswered_outputs(CAPACITY.outputs, plan="none found", binds="no plan meets both targets", working=why)
    return {"outputs": outputs}


def _compute(values: dict[str, Any]) -> dict[str, Any]:
    scenario = _scenario(values)
    plan = cheapest_plan(scenario)
    if plan is None:
        return _no_plan(scenario)
    r = plan.replica
    rate, rate_binds = largest_rate(scenario, tp=plan.tp, replicas=plan.replicas, chunk_tokens=plan.chunk_tokens)
    tight = tightest_tpot(scenario, devices=plan.devices)
    vllm, sglang, _llama = _commands(plan, values)
    chart = frontier_chart(
        scenario_steps(scenario),
        accelerator_name=scenario.accelerator.name,
        operating_point=(1 / r.tpot_s, plan.tokens_per_s_per_device, "the plan"),
        measured_for=(values["model"], values["accelerator"], scenario.weight_dtype),
    )
    outputs = {
        "plan": value(
            plan.devices,
            "devices",
            f"{format_whole(plan.replicas)} × TP={plan.tp} = {format_amount(plan.devices, 'devices')}",
        ),
        "binds": value(plan.binds, "", BINDS_SHORT[plan.binds]),
        "cost": _cost(plan),
        "tokens_per_s_per_device": value(
            plan.tokens_per_s_per_device, "tokens/s", format_tokens_per_s(plan.tokens_per_s_per_device)
        ),
        "working": _working(plan),
        "ttft": _ttft(plan),
        "tpot": _tpot(plan),
        "decode_batch": value(
            r.decode_batch,
            "sequences",
            f"{format_number(r.decode_batch)} sequences decoding on average (Little's law: "
            f"{format_number(r.rate_per_s)} requests/s × {format_whole(scenario.output_tokens)} tokens × "
            f"{format_time(r.tpot_s)}); {format_whole(r.decode_batch_high)} at {_p(scenario)}",
        ),
        "max_sequences": value(
            r.max_sequences,
            "sequences",
            f"{format_whole(r.max_sequences)} per replica (p{format_number(SLOT_PERCENTILE * 100)} of "
            f"{format_number(r.concurrency)} in flight)",
        ),
        "chunk_tokens": value(
            r.chunk_tokens,
            "tokens",
            f"{format_whole(r.chunk_tokens)} prompt tokens a step",
        ),
        "utilisation": value(
            r.prefill_utilisation,
            "1",
            f"{format_percent(r.prefill_utilisation)} of each replica's steps carry a prefill chunk; "
            f"the KV cache of {format_whole(r.max_sequences)} sequences fills "
            f"{format_percent(r.kv_share)} of the memory left for it",
        ),
        "largest_rate": value(
            rate,
            "requests/s",
            f"{format_number(rate)} requests/s ({BINDS_SHORT.get(rate_binds, rate_binds)} binds)",
        ),
        "tightest_tpot": (
            value(
                tight.replica.tpot_high_s,
                "s",
                f"{format_time(tight.replica.tpot_high_s)} at {_p(scenario)} with the same "
                f"{format_amount(plan.devices, 'devices')} as {format_amount(tight.replicas, 'replicas')} × "
                f"TP={tight.tp}, the TTFT target still met",
            )
            if tight is not None
            else value(0, "s", "none within these devices")
        ),
        "vllm": value(vllm.text, "", vllm.text),
        "sglang": value(sglang.text, "", sglang.text),
        "frontier": value(chart["reading"], "", chart["reading"]),
    }
    rows = [_row(tp, found, plan) for tp, found in plan.per_tp]
    return {"outputs": outputs, "table": rows, "chart": chart}


def _tokens(id: str, label: str, default: int, help: str) -> WholeNumber:
    return WholeNumber(
        id=id, label=label, unit="tokens", default=default, minimum=1, maximum=MAX_TOKENS, tokens=True, help=help
    )


CAPACITY = Calculator(
    id="capacity",
    title="Capacity planner: a fleet under latency targets",
    description=(
        "The fewest devices that serve a request rate within a time-to-first-token and a "
        "time-per-output-token target, how the plan is made up, and which target binds."
    ),
    inputs=(
        model_input(default="llama-3.1-70b"),
        model_config_input(),
        accelerator_input(),
        dtype_input(id="weight_dtype", label="Weight format", default="fp8", help="How the weights are stored."),
        dtype_input(
            id="kv_dtype", label="KV cache format", default="fp8", help="How cached keys and values are stored."
        ),
        Number(
            id="rate_per_s",
            label="Request rate",
            unit="requests/s",
            default=10,
            minimum=0.001,
            maximum=1_000_000,
            step=0.1,
            help="Requests arriving a second over the whole fleet (arrivals at random, as from many users).",
        ),
        _tokens("prompt_tokens", "Prompt length (mean)", 2000, "Mean tokens in a prompt."),
        _tokens(
            "prompt_tokens_high",
            "Prompt length at the percentile",
            2000,
            "Prompt tokens at the percentile (read as the mean when below it).",
        ),
        _tokens("output_tokens", "Output length (mean)", 500, "Mean tokens generated for a request."),
        _tokens(
            "output_tokens_high",
            "Output length at the percentile",
            500,
            "Output tokens at the percentile (read as the mean when below it).",
        ),
        Number(
            id="prefix_hit_rate",
            label="Prefix-cache hit rate",
            unit="%",
            default=0,
            minimum=0,
            maximum=99,
            step=1,
            help="Share of prompt tokens whose KV cache is reused from an earlier request (not computed again).",
        ),
        Number(
            id="percentile",
            label="Percentile of the targets",
            unit="%",
            default=90,
            minimum=50,
            maximum=99.9,
            step=0.1,
            help="The share of requests that must meet both targets (90 for p90).",
        ),
        Number(
            id="ttft_target_ms",
            label="Time-to-first-token target",
            unit="ms",
            default=2000,
            minimum=1,
            maximum=600_000,
            step=1,
            help="Longest wait for the first token at the percentile, queueing included.",
        ),
        Number(
            id="tpot_target_ms",
            label="Time-per-output-token target",
            unit="ms",
            default=50,
            minimum=0.1,
            maximum=10_000,
            step=0.1,
            help="Longest mean time between output tokens at the percentile.",
        ),
        price_input(help="What one accelerator costs you per hour; 0 gives the cost as a multiple of it."),
    ),
    outputs=(
        Output("plan", "Cheapest fleet"),
        Output("binds", "What binds"),
        Output("cost", "Cost per million output tokens"),
        Output("tokens_per_s_per_device", "Output tokens/s per device"),
        Output("working", "How the plan adds up"),
        Output("ttft", "Time to first token"),
        Output("tpot", "Time per output token"),
        Output("decode_batch", "Decode batch"),
        Output("max_sequences", "Most sequences at once"),
        Output("chunk_tokens", "Chunked-prefill budget"),
        Output("utilisation", "Utilisation"),
        Output("largest_rate", "Largest rate this fleet sustains"),
        Output("tightest_tpot", "Tightest TPOT with these devices"),
        Output("vllm", "vLLM command (each replica)"),
        Output("sglang", "SGLang command (each replica)"),
        Output("frontier", "Reading the frontier"),
        WEIGHT_FORMAT_READ,
    ),
    headline=("plan", "binds"),
    key_inputs=("rate_per_s", "tpot_target_ms"),
    compute=_compute,
    table_columns=(
        Output("tp", "Tensor parallel"),
        Output("fleet", "Cheapest fleet"),
        Output("chunk", "Chunk"),
        Output("ttft", "TTFT at the percentile"),
        Output("tpot", "TPOT at the percentile"),
    ),
)
