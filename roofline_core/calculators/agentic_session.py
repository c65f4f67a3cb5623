"""Agentic session: a task of many turns, each appending tool output to a growing context.

It opens on Llama 3.1 70B in FP8 on two H100 SXMs serving 48 such sessions at once: a
4,000-token first prompt, ten turns of 300 output tokens, 1,000 tokens of tool output between
them, 90% of the previous context found in the prefix cache, caches that outgrow the devices
offloaded to CPU memory. Every number comes from
:func:`roofline_core.questions.session.run_session`: the table is its turns, the chart their
times against the context, and the totals what the task costs.
"""

from __future__ import annotations

from typing import Any

from roofline_core.calculators._common import (
    WEIGHT_FORMAT_READ,
    accelerator_input,
    devices_input,
    dtype_input,
    model_config_input,
    model_input,
    model_of,
    price_input,
    unanswered_outputs,
)
from roofline_core.calculators.base import Calculator, Output, value
from roofline_core.calculators.session_chart import session_chart
from roofline_core.formatting import (
    format_amount,
    format_bandwidth,
    format_bytes,
    format_number,
    format_percent,
    format_time,
    format_whole,
)
from roofline_core.hardware import ACCELERATORS
from roofline_core.questions.session import (
    CPU,
    DISK,
    NONE,
    TIER_BANDWIDTH,
    Session,
    SessionResult,
    run_session,
    without_cache,
)
from roofline_core.vocabulary import MAX_TOKENS, Choice, Number, OneOf, WholeNumber

TIER_WORDS = {CPU: "CPU memory over PCIe", DISK: "a local NVMe disk", NONE: "nowhere (recomputed)"}


def _session(values: dict[str, Any]) -> Session:
    bandwidth = values["tier_bandwidth_gb_per_s"] * 1e9
    return Session(
        model=model_of(values),
        accelerator=ACCELERATORS[values["accelerator"]],
        weight_dtype=values["weight_dtype"],
        kv_dtype=values["kv_dtype"],
        devices=values["devices"],
        turns=values["turns"],
        prompt_tokens=values["prompt_tokens"],
        tool_tokens=values["tool_tokens"],
        output_tokens=values["output_tokens"],
        hit_rate=values["hit_rate"] / 100,
        concurrent=values["concurrent"],
        tool_time_s=values["tool_time_s"],
        tier=values["tier"],
        tier_bandwidth_bytes_per_s=bandwidth or None,
        price_per_device_hour=values["price_per_device_hour"],
    )


#: The slowest offload link read, in GB/s (below it a field error: 0 asks for the tier's default).
SLOWEST_LINK_GB_PER_S = 0.1


def _cross_check(values: dict[str, Any]) -> dict[str, str]:
    bandwidth = values.get("tier_bandwidth_gb_per_s")
    if isinstance(bandwidth, (int, float)) and 0 < bandwidth < SLOWEST_LINK_GB_PER_S:
        field = AGENTIC_SESSION.field("tier_bandwidth_gb_per_s")
        return {
            field.id: (
                f"{field.label}: {field.expected()}, where 0 asks for the tier's default and any other "
                f"value is at least {format_number(SLOWEST_LINK_GB_PER_S)} GB/s"
            )
        }
    return {}


def _cost(result: SessionResult) -> dict[str, Any]:
    # A headline: one short figure. How it is charged is the device-seconds output's text.
    s = result.session
    hours = result.device_s / 3600
    if s.price_per_device_hour == 0:
        return value(0, "USD", f"{format_number(hours)} device-hours")
    return value(result.cost, "USD", f"${format_number(result.cost)}")


def _energy(result: SessionResult) -> dict[str, Any]:
    power = getattr(result.session.accelerator, "board_power_w", None)
    if result.energy_j is None or not power:
        return value(0, "J", "unknown: this chip's board power is not recorded")
    wh = result.energy_j / 3600
    return value(
        result.energy_j,
        "J",
        f"at most {format_number(wh)} Wh ({format_number(result.device_s)} device-seconds × {format_whole(power)} W "
        "board power; an upper bound: boards rarely draw their limit, host and cooling left out)",
    )


def _row(turn: Any, session: Session) -> dict[str, Any]:
    # Short cells: seven columns must fit a page's width; the outputs above tell the parts.
    ttft = (
        f"{format_time(turn.ttft_s)} ({format_time(turn.transfer_s)} back)"
        if turn.transfer_s
        else format_time(turn.ttft_s)
    )
    return {
        "turn": value(turn.index, "", format_whole(turn.index)),
        "context": value(turn.context_tokens, "tokens", format_whole(turn.context_tokens)),
        "prefilled": value(
            turn.prefill_tokens,
            "tokens",
            f"{format_whole(turn.prefill_tokens)} ({format_whole(turn.cached_tokens)} hit)",
        ),
        "ttft": value(turn.ttft_s, "s", ttft),
        "tpot": value(turn.tpot_s, "s", format_time(turn.tpot_s)),
        "turn_time": value(turn.turn_s, "s", format_time(turn.turn_s)),
        "kv": value(
            turn.kv_bytes,
            "bytes",
            f"{format_bytes(turn.kv_bytes)} / {format_bytes(turn.kv_room_bytes)}"
            + (f" ({format_percent(turn.overflow_share)} out)" if turn.overflow_share else ""),
        ),
    }


def _failed(why: str) -> dict[str, Any]:
    return {"outputs": unanswered_outputs(AGENTIC_SESSION.outputs, task_time=why)}


def _compute(values: dict[str, Any]) -> dict[str, Any]:
    session = _session(values)
    result = run_session(session)
    if result.failure:
        return _failed(f"The session cannot run: {result.failure}. Add devices or choose a smaller format.")
    plain = without_cache(session)
    turns = result.turns
    first, last = turns[0], turns[-1]
    saved_s = plain.device_s - result.device_s
    offloaded = [t for t in turns if t.offloaded_bytes]
    if offloaded:
        moved = sum(t.offloaded_bytes for t in offloaded)
        offload_text = (
            f"From turn {offloaded[0].index}, {format_amount(session.concurrent, 'sessions')}' caches outgrow the "
            f"{format_bytes(last.kv_room_bytes)} each has; the share that does not fit waits in "
            f"{TIER_WORDS[session.tier]} during tool calls. {format_bytes(moved)} come back over "
            f"{format_bandwidth(session.tier_bandwidth)} a device in all, "
            f"{format_time(sum(t.transfer_s for t in turns))} added to the first tokens."
        )
    elif any(t.overflow_share for t in turns):
        offload_text = (
            "The caches outgrow the devices and nothing holds the rest, so its hits are prefilled again "
            f"(from turn {next(t.index for t in turns if t.overflow_share)})."
        )
    else:
        offload_text = (
            "No turn has to bring cache back: at every turn's start the sessions' caches fit in the "
            f"{format_bytes(last.kv_room_bytes)} of room each has (the last turn ends at {format_bytes(last.kv_bytes)})."
        )
    outputs = {
        # The two headline figures stay one short number each, so they and the chart keep the
        # first screen (and an embed's first 500 px); their working is in the outputs below.
        "task_time": value(result.task_time_s, "s", format_time(result.task_time_s)),
        "cost": _cost(result),
        "task_parts": value(
            result.task_time_s,
            "s",
            f"{format_time(result.task_time_s)} = {format_time(result.model_time_s)} in the model + "
            f"{format_whole(session.turns - 1)} tool calls × {format_time(session.tool_time_s)}",
        ),
        "ttft_growth": value(
            last.ttft_s,
            "s",
            f"{format_time(first.ttft_s)} on turn 1 (whole prompt), {format_time(last.ttft_s)} on turn "
            f"{last.index} at {format_whole(last.context_tokens)} tokens of context",
        ),
        "tpot_growth": value(
            last.tpot_s,
            "s",
            f"{format_time(first.tpot_s)} on turn 1, {format_time(last.tpot_s)} on turn {last.index} "
            f"(a step of {format_amount(session.concurrent, 'sequences')} reads more cache as contexts grow)",
        ),
        "cache_saves": value(
            saved_s,
            "s",
            f"{format_whole(result.cached_tokens)} of {format_whole(plain.prefill_tokens)} prefill tokens reused; "
            f"{format_number(saved_s)} device-seconds saved ({format_number(plain.device_s)} without a cache, "
            f"{format_number(result.device_s)} with it); time to the task's end "
            f"{format_time(plain.task_time_s - result.task_time_s)} shorter",
        ),
        "offload": value(sum(t.transfer_s for t in turns), "s", offload_text),
        "device_seconds": value(
            result.device_s,
            "s",
            f"{format_number(result.device_s)} device-seconds: {format_amount(session.devices, 'devices')} × "
            f"(each prefill alone + each decode step's 1/{format_whole(session.concurrent)} share); "
            + (
                f"{format_number(result.device_s)} × ${format_number(session.price_per_device_hour)} a device-hour "
                f"÷ 3,600 s = ${format_number(result.cost)} a task"
                if session.price_per_device_hour
                else "times your price per device-hour ÷ 3,600 s, they are the cost of a task"
            ),
        ),
        "energy": _energy(result),
    }
    rows = [_row(t, session) for t in turns]
    return {"outputs": outputs, "table": rows, "chart": session_chart(result)}


def _tokens(id: str, label: str, default: int, help: str, minimum: int = 1) -> WholeNumber:
    return WholeNumber(
        id=id, label=label, unit="tokens", default=default, minimum=minimum, maximum=MAX_TOKENS, tokens=True, help=help
    )


TIER_INPUT = OneOf(
    id="tier",
    label="Offload tier",
    choices=(
        Choice(value=CPU, label="CPU memory (PCIe)"),
        Choice(value=DISK, label="Local NVMe disk"),
        Choice(value=NONE, label="None: recompute"),
    ),
    default=CPU,
    help="Where the share of idle caches that outgrows the devices waits during tool calls.",
)

AGENTIC_SESSION = Calculator(
    id="agentic-session",
    title="Agentic session: a task of many turns",
    description=(
        "Each turn's time to first token and per output token as tool output grows the context, what "
        "the prefix cache saves, when caches spill to CPU memory or disk, and the task's cost and energy."
    ),
    inputs=(
        model_input(default="llama-3.1-70b"),
        model_config_input(),
        accelerator_input(),
        dtype_input(id="weight_dtype", label="Weight format", default="fp8", help="How the weights are stored."),
        dtype_input(
            id="kv_dtype", label="KV cache format", default="fp8", help="How cached keys and values are stored."
        ),
        devices_input(default=2),
        WholeNumber(
            id="turns", label="Turns", unit="", default=10, minimum=1, maximum=1000, help="Model calls in the task."
        ),
        _tokens("prompt_tokens", "First prompt", 4000, "System prompt, tool definitions and the request, in tokens."),
        _tokens("tool_tokens", "Tool output a turn", 1000, "Tokens each tool call appends before the next turn.", 0),
        _tokens(
            "output_tokens", "Output a turn", 300, "Tokens the model generates each turn (a tool call or the answer)."
        ),
        Number(
            id="hit_rate",
            label="Prefix-cache hit rate",
            unit="%",
            default=90,
            minimum=0,
            maximum=100,
            step=1,
            help="Share of the previous context found in the cache at each turn (the rest is prefilled again).",
        ),
        WholeNumber(
            id="concurrent",
            label="Sessions at once",
            unit="sequences",
            default=48,
            minimum=1,
            maximum=4096,
            help="Sessions sharing the devices: the decode batch, and the caches the memory holds.",
        ),
        Number(
            id="tool_time_s",
            label="Tool call time",
            unit="s",
            default=2,
            minimum=0,
            maximum=86_400,
            step=0.1,
            help="Seconds each tool call takes between turns (wall time only: the devices serve others).",
        ),
        TIER_INPUT,
        Number(
            id="tier_bandwidth_gb_per_s",
            label="Offload link bandwidth",
            unit="GB/s",
            default=0,
            minimum=0,
            maximum=10_000,
            step=0.1,
            help=(
                f"Per device; 0 for the tier's default: {format_number(TIER_BANDWIDTH[CPU] / 1e9)} GB/s for PCIe 5.0 "
                f"x16, {format_number(TIER_BANDWIDTH[DISK] / 1e9)} GB/s for a PCIe 4.0 NVMe drive."
            ),
        ),
        price_input(help="What one accelerator costs you per hour; 0 gives the cost in device-hours."),
    ),
    outputs=(
        Output("task_time", "Time for the task"),
        Output("cost", "Cost per task"),
        Output("task_parts", "How the task's time adds up"),
        Output("ttft_growth", "Time to first token, first and last turn"),
        Output("tpot_growth", "Time per output token, first and last turn"),
        Output("cache_saves", "What the prefix cache saves"),
        Output("offload", "KV offload"),
        Output("device_seconds", "Device-seconds per task"),
        Output("energy", "Energy per task"),
        WEIGHT_FORMAT_READ,
    ),
    headline=("task_time", "cost"),
    key_inputs=("turns", "hit_rate"),
    compute=_compute,
    cross_check=_cross_check,
    table_columns=(
        Output("turn", "Turn"),
        Output("context", "Context"),
        Output("prefilled", "Prefilled"),
        Output("ttft", "TTFT"),
        Output("tpot", "TPOT"),
        Output("turn_time", "Turn"),
        Output("kv", "KV cache / room"),
    ),
)
