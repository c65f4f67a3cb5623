"""Prefill/decode disaggregation: separate prompt and generation pools beside a co-located fleet.

The same inputs as the capacity planner (its scenario opens on Llama 3.1 70B in FP8 on H100
SXMs at 10 requests/s, 2,000 tokens in and 500 out, p90 targets of 2 s and 50 ms), plus the
link each device has to the other pool. Every number comes from
:func:`roofline_core.questions.disaggregation.disaggregated_plan`; the table sets the two pools
beside the capacity planner's co-located fleet.
"""

from __future__ import annotations

from typing import Any

from roofline_core.calculators._common import WEIGHT_FORMAT_READ, unanswered_outputs
from roofline_core.calculators.base import Calculator, Output, value
from roofline_core.calculators.capacity import CAPACITY
from roofline_core.calculators.capacity import _scenario as capacity_scenario
from roofline_core.formatting import (
    format_amount,
    format_bandwidth,
    format_bytes,
    format_number,
    format_percent,
    format_time,
    format_whole,
)
from roofline_core.questions.disaggregation import DEFAULT_LINK_BYTES_PER_S, Split, SplitPlan, disaggregated_plan
from roofline_core.vocabulary import Number

LINK_INPUT = Number(
    id="link_gb_per_s",
    label="Link between the pools",
    unit="GB/s",
    default=DEFAULT_LINK_BYTES_PER_S / 1e9,
    minimum=0.1,
    maximum=10_000,
    step=0.1,
    help="Each device's link to the other pool, one direction (50 GB/s is a 400 Gb/s network port).",
)


def _p(plan: SplitPlan) -> str:
    return f"p{format_number(plan.split.scenario.percentile * 100)}"


def _fleet(devices: int | None, price: float) -> str:
    if devices is None:
        return "–"
    cost = f", ${format_number(devices * price)} an hour" if price else ""
    return f"{format_amount(devices, 'devices')}{cost}"


def _colocated(plan: SplitPlan) -> dict[str, Any]:
    # A headline: the one figure to set beside the disaggregated fleet's.
    co = plan.colocated
    if co is None:
        return value(0, "devices", "none meets the targets")
    return value(co.devices, "devices", format_amount(co.devices, "devices"))


def _compare(plan: SplitPlan) -> dict[str, Any]:
    co = plan.colocated
    if plan.devices is None or co is None:
        return value(0, "devices", "no comparison: one of the two fleets meets no configuration searched")
    difference = plan.devices - co.devices
    if difference < 0:
        verdict = f"saves {format_amount(-difference, 'devices')}"
    elif difference > 0:
        verdict = f"needs {format_amount(difference, 'devices')} more"
    else:
        verdict = "needs the same number of devices"
    return value(
        difference,
        "devices",
        f"Disaggregated {verdict}: {format_whole(plan.devices)} against "
        f"{format_whole(co.replicas)} × TP={co.tp} = {format_whole(co.devices)} co-located (the capacity planner's "
        "cheapest fleet)",
    )


def _empty(why: str) -> dict[str, Any]:
    return {"outputs": unanswered_outputs(DISAGGREGATION.outputs, split=why)}


def _compute(values: dict[str, Any]) -> dict[str, Any]:
    scenario = capacity_scenario(values)
    plan = disaggregated_plan(Split(scenario, link_bytes_per_s=values["link_gb_per_s"] * 1e9))
    pre, dec, co = plan.prefill, plan.decode, plan.colocated
    if pre is None or dec is None:
        missing = "time-to-first-token" if pre is None else "time-per-output-token"
        return _empty(f"No pool up to TP=8 meets the {missing} target: loosen it, or choose a faster chip.")
    price = scenario.price_per_device_hour
    devices = plan.devices or 0
    outputs = {
        # The two headline figures are one short number each, so the answer keeps the first
        # screen and an embed's first 500 px; the pools' shapes are in the table below.
        "split": value(devices, "devices", format_amount(devices, "devices")),
        "colocated": _colocated(plan),
        "ratio": value(
            pre.devices / dec.devices,
            "1",
            f"{format_whole(pre.devices)} : {format_whole(dec.devices)} prefill to decode devices",
        ),
        "versus": _compare(plan),
        "kv_transfer": value(
            plan.kv_bytes_per_request,
            "bytes",
            f"{format_bytes(plan.kv_bytes_per_request)} a mean request ({format_whole(scenario.prompt_tokens)} "
            f"prompt tokens of cache), {format_time(plan.transfer_s)} over {format_whole(pre.tp)} × "
            f"{format_bandwidth(plan.split.link_bytes_per_s)} for the {_p(plan)} prompt: it delays the second token",
        ),
        "link_needed": value(
            plan.link_bytes_per_s_needed,
            "bytes/s",
            f"{format_bandwidth(plan.link_bytes_per_s_needed)} from the prefill pool to the decode pool "
            f"({format_number(scenario.rate_per_s)} requests/s × {format_bytes(plan.kv_bytes_per_request)}); "
            f"{format_percent(pre.link_share)} of each prefill device's link",
        ),
        "ttft": value(
            pre.ttft_high_s,
            "s",
            f"{format_time(pre.ttft_high_s)} at {_p(plan)}: {format_time(pre.wait_high_s)} queueing (M/D/1 at "
            f"{format_percent(pre.utilisation)} busy, mean wait {format_time(pre.wait_s)}) + "
            f"{format_time(pre.prefill_high_s)} of prefill; target {format_time(scenario.ttft_target_s)}",
        ),
        "tpot": value(
            dec.tpot_high_s,
            "s",
            f"{format_time(dec.tpot_high_s)} at {_p(plan)}: a decode step of {format_amount(dec.batch_high, 'sequences')} "
            f"({format_number(dec.batch)} on average), no prefill between steps; target "
            f"{format_time(scenario.tpot_target_s)}",
        ),
        "decode_memory": value(
            dec.kv_share,
            "1",
            f"{format_whole(dec.max_sequences)} sequences a decode instance at most; their KV cache fills "
            f"{format_percent(dec.kv_share)} of the memory left for it",
        ),
    }
    rows = [
        {
            "pool": value("prefill", "", "Prefill pool"),
            "config": value(pre.devices, "devices", f"{format_whole(pre.instances)} × TP={pre.tp}"),
            "fleet": value(pre.devices, "devices", _fleet(pre.devices, price)),
            "ttft": value(pre.ttft_high_s, "s", format_time(pre.ttft_high_s)),
            "tpot": value(0, "s", "–"),
        },
        {
            "pool": value("decode", "", "Decode pool"),
            "config": value(dec.devices, "devices", f"{format_whole(dec.instances)} × TP={dec.tp}"),
            "fleet": value(dec.devices, "devices", _fleet(dec.devices, price)),
            "ttft": value(0, "s", "–"),
            "tpot": value(dec.tpot_high_s, "s", format_time(dec.tpot_high_s)),
        },
    ]
    if co is not None:
        rows.append(
            {
                "pool": value("colocated", "", "Co-located (capacity planner)"),
                "config": value(co.devices, "devices", f"{format_whole(co.replicas)} × TP={co.tp}"),
                "fleet": value(co.devices, "devices", _fleet(co.devices, price)),
                "ttft": value(co.replica.ttft_high_s, "s", format_time(co.replica.ttft_high_s)),
                "tpot": value(co.replica.tpot_high_s, "s", format_time(co.replica.tpot_high_s)),
            }
        )
    return {"outputs": outputs, "table": rows}


DISAGGREGATION = Calculator(
    id="disaggregation",
    title="Prefill/decode disaggregation: two pools against one fleet",
    description=(
        "Prefill and decode devices for a request rate within TTFT and TPOT targets, their ratio, the KV "
        "cache each request hands over and the link bandwidth it needs, beside a co-located fleet."
    ),
    inputs=(*CAPACITY.inputs, LINK_INPUT),
    outputs=(
        Output("split", "Disaggregated fleet"),
        Output("colocated", "Co-located fleet"),
        Output("ratio", "Prefill to decode"),
        Output("versus", "Against a co-located fleet"),
        Output("kv_transfer", "KV cache handed over"),
        Output("link_needed", "Link bandwidth needed"),
        Output("ttft", "Time to first token"),
        Output("tpot", "Time per output token"),
        Output("decode_memory", "Decode instance memory"),
        WEIGHT_FORMAT_READ,
    ),
    headline=("split", "colocated"),
    key_inputs=("rate_per_s", "link_gb_per_s"),
    compute=_compute,
    table_columns=(
        Output("pool", "Pool"),
        Output("config", "Instances"),
        Output("fleet", "Devices"),
        Output("ttft", "TTFT at the percentile"),
        Output("tpot", "TPOT at the percentile"),
    ),
)
