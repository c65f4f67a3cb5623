"""Command line: ``python -m roofline_core <command>`` (installed as ``roofline`` too).

Commands: ``ridge``, ``decode``, ``prefill``, ``kv-cache``, ``batch-sweep``. Hardware and models
come from presets (``--accelerator h100-sxm --model llama-3-8b``) or from numbers
(``--peak-tflops 989 --bandwidth-tbs 3.35 --params 8e9``). Output is a readable table, or JSON
with ``--json``. Numbers are checked by the same fields the site's calculators use, so a bad
value gets the same message; any error is one line on stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Sequence

from roofline_core.calculators import CALCULATORS
from roofline_core.calculators._common import model_input
from roofline_core.calculators.base import value
from roofline_core.calculators.fields import ChoiceInput, Input, NumberInput
from roofline_core.dtypes import bytes_per_element
from roofline_core.formatting import (
    format_bandwidth,
    format_bytes,
    format_flop_per_s,
    format_intensity,
    format_number,
    format_percent,
    format_time,
    format_tokens_per_s,
)
from roofline_core.hardware import ACCELERATORS, TERA, AnyAccelerator, CustomAccelerator
from roofline_core.inference import (
    DEFAULT_SWEEP_BATCHES,
    DecodeEstimate,
    critical_batch,
    estimate_decode,
    estimate_prefill,
    fit_in_memory,
    kv_cache_bytes,
)
from roofline_core.models import MLA, MODELS, AnyModel, CustomModel, Model

PROG = "roofline"
EXIT_USAGE = 2


class CliError(Exception):
    """A problem with what was typed; printed as one line, never as a traceback."""


class _Parser(argparse.ArgumentParser):
    # argparse prints the usage and exits from inside error(); raising instead lets main()
    # print the single line every other error gets.
    def error(self, message: str) -> None:  # type: ignore[override]
        raise CliError(message)


def _calculator_field(calculator_id: str, field_id: str) -> Input:
    return next(f for f in CALCULATORS[calculator_id].inputs if f.id == field_id)


#: The calculators' own fields where one exists, so the site and the CLI accept the same values.
FIELDS: dict[str, Input] = {
    "accelerator": _calculator_field("decode-speed-of-light", "accelerator"),
    "model": model_input(default="llama-3-8b"),
    "weight_dtype": _calculator_field("decode-speed-of-light", "weight_dtype"),
    "kv_dtype": _calculator_field("decode-speed-of-light", "kv_dtype"),
    "batch": _calculator_field("decode-speed-of-light", "batch"),
    "context_tokens": _calculator_field("decode-speed-of-light", "context_tokens"),
    "kv_context_tokens": _calculator_field("kv-cache", "context_tokens"),
    "devices": _calculator_field("decode-speed-of-light", "devices"),
    "bandwidth_efficiency": _calculator_field("decode-speed-of-light", "bandwidth_efficiency"),
    "prompt_tokens": _calculator_field("prefill-ttft", "prompt_tokens"),
    "dtype": _calculator_field("roofline-explorer", "dtype"),
    "peak_tflop_per_s": _calculator_field("roofline-explorer", "peak_tflop_per_s"),
    "bandwidth_tb_per_s": _calculator_field("roofline-explorer", "bandwidth_tb_per_s"),
    "attention": _calculator_field("kv-cache", "attention"),
    "layers": _calculator_field("kv-cache", "layers"),
    "kv_heads": _calculator_field("kv-cache", "kv_heads"),
    "head_dim": _calculator_field("kv-cache", "head_dim"),
    "mla_latent_dim": _calculator_field("kv-cache", "mla_latent_dim"),
    "mla_rope_dim": _calculator_field("kv-cache", "mla_rope_dim"),
    # The calculators take billions; on the command line a plain count reads better (8e9).
    "params": NumberInput(
        id="params", label="Parameters", unit="parameters", default=8e9, min=1e6, max=1e14, step=1
    ),
    "memory_gb": NumberInput(id="memory_gb", label="Memory capacity", unit="GB", default=80, min=0.001, max=1e6),
}

#: Option spelled on the command line for each field.
OPTIONS: dict[str, str] = {
    "accelerator": "--accelerator",
    "model": "--model",
    "weight_dtype": "--weight-dtype",
    "kv_dtype": "--kv-dtype",
    "batch": "--batch",
    "context_tokens": "--context",
    "kv_context_tokens": "--context",
    "devices": "--devices",
    "bandwidth_efficiency": "--efficiency",
    "prompt_tokens": "--prompt-tokens",
    "dtype": "--dtype",
    "peak_tflop_per_s": "--peak-tflops",
    "bandwidth_tb_per_s": "--bandwidth-tbs",
    "attention": "--attention",
    "layers": "--layers",
    "kv_heads": "--kv-heads",
    "head_dim": "--head-dim",
    "mla_latent_dim": "--mla-latent-dim",
    "mla_rope_dim": "--mla-rope-dim",
    "params": "--params",
    "memory_gb": "--memory-gb",
}


# --- Parsing -----------------------------------------------------------------------------------


def _given(args: argparse.Namespace, dest: str) -> bool:
    return getattr(args, dest, None) is not None


def _get(args: argparse.Namespace, dest: str) -> Any:
    """The validated value of an option (its field's default when not given)."""
    field = FIELDS[dest]
    raw = getattr(args, dest, None)
    parsed, error = field.parse(field.default if raw is None else raw)
    if error is not None:
        raise CliError(f"{OPTIONS[dest]}: {error}")
    return parsed


def _add(parser: argparse.ArgumentParser, dest: str, help_text: str | None = None) -> None:
    field = FIELDS[dest]
    if isinstance(field, ChoiceInput):
        shown = f"one of {', '.join(c.value for c in field.choices if c.value != 'custom')}"
        default = "" if dest in ("model", "accelerator") else f"; default {field.default}"
        text = help_text or f"{field.label}: {shown}{default}"
    else:
        unit = f" ({field.unit})" if field.unit else ""
        text = help_text or f"{field.label}{unit}; default {field.default:g}"
    # argparse treats help as a %-format string ("%" units would break --help).
    parser.add_argument(OPTIONS[dest], dest=dest, metavar=OPTIONS[dest].lstrip("-").replace("-", "_").upper(), help=text.replace("%", "%%"))


def _add_hardware(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("hardware (a preset, or --peak-tflops with --bandwidth-tbs)")
    _add(group, "accelerator", "accelerator preset (default h100-sxm): " + ", ".join(ACCELERATORS))
    _add(group, "peak_tflop_per_s", "custom dense peak compute, TFLOP/s")
    _add(group, "bandwidth_tb_per_s", "custom memory bandwidth, TB/s")
    _add(group, "memory_gb", "custom memory capacity, GB (optional; enables the memory fit)")


def _add_model(parser: argparse.ArgumentParser, *, kv: bool) -> None:
    group = parser.add_argument_group("model (a preset, or --params)")
    _add(group, "model", "model preset: " + ", ".join(MODELS))
    _add(group, "params", "custom model: parameters read per token, e.g. 8e9")
    if kv:
        _add(group, "layers", "custom model: decoder layers (for the KV cache)")
        _add(group, "kv_heads", "custom model: key/value heads per layer")
        _add(group, "head_dim", "custom model: width of one head")


def _accelerator(args: argparse.Namespace, compute_dtype: str = "fp16") -> AnyAccelerator:
    custom = _given(args, "peak_tflop_per_s") or _given(args, "bandwidth_tb_per_s")
    if custom:
        if _given(args, "accelerator"):
            raise CliError("give --accelerator or --peak-tflops with --bandwidth-tbs, not both")
        if not (_given(args, "peak_tflop_per_s") and _given(args, "bandwidth_tb_per_s")):
            raise CliError("custom hardware needs both --peak-tflops and --bandwidth-tbs")
        memory = _get(args, "memory_gb") * 1e9 if _given(args, "memory_gb") else None
        return CustomAccelerator(
            peak_flop_per_s={compute_dtype: _get(args, "peak_tflop_per_s") * TERA},
            bandwidth_bytes_per_s=_get(args, "bandwidth_tb_per_s") * TERA,
            memory_bytes=memory,
        )
    if _given(args, "memory_gb"):
        raise CliError("--memory-gb goes with --peak-tflops and --bandwidth-tbs; a preset states its own memory")
    return ACCELERATORS[_get(args, "accelerator")]


def _model(args: argparse.Namespace) -> AnyModel:
    """The preset model, or a :class:`CustomModel` when the model is given by ``--params``."""
    if _given(args, "params"):
        if _given(args, "model"):
            raise CliError("give --model or --params, not both")
        shape = [dest for dest in ("layers", "kv_heads", "head_dim") if _given(args, dest)]
        if shape and len(shape) < 3:
            raise CliError("the KV cache of a --params model needs all of --layers, --kv-heads and --head-dim")
        params = _get(args, "params")
        return CustomModel(
            streamed_params_per_token=params,
            name=f"{params / 1e9:g}B-parameter model",
            **{dest: _get(args, dest) for dest in shape},
        )
    if not _given(args, "model"):
        raise CliError(f"give --model (one of {', '.join(MODELS)}) or --params")
    slug = _get(args, "model")
    for dest in ("layers", "kv_heads", "head_dim"):
        if _given(args, dest):
            raise CliError(f"{OPTIONS[dest]} describes a custom model; use it with --params, not --model")
    return MODELS[slug]


# --- Commands ----------------------------------------------------------------------------------


def _out(label: str, number: Any, unit: str, text: str) -> dict[str, Any]:
    return {"label": label, **value(number, unit, text)}


def _decode(args: argparse.Namespace, batch: int) -> tuple[DecodeEstimate, str, str]:
    """The estimate at ``batch``, the setup in words, and the conditions (context, bandwidth)."""
    accelerator = _accelerator(args)
    model = _model(args)
    weight_dtype, kv_dtype = _get(args, "weight_dtype"), _get(args, "kv_dtype")
    common = {
        "accelerator": accelerator,
        "weight_dtype": weight_dtype,
        "batch": batch,
        "context_tokens": _get(args, "context_tokens"),
        "devices": _get(args, "devices"),
        "bandwidth_efficiency": _get(args, "bandwidth_efficiency") / 100.0,
    }
    if common["context_tokens"] > 0 and not model.kv_cache_known:
        raise CliError("--context needs --layers, --kv-heads and --head-dim when the model is given by --params")
    estimate = estimate_decode(model=model, kv_dtype=kv_dtype, **common)
    name = model.name
    devices = common["devices"]
    where = f"{devices} x {accelerator.name}" if devices > 1 else accelerator.name
    setup = f"{name} ({weight_dtype} weights) on {where}"
    conditions = (
        f"context {common['context_tokens']:,} tokens, {format_number(_get(args, 'bandwidth_efficiency'))}% of peak bandwidth"
    )
    return estimate, setup, conditions


def cmd_decode(args: argparse.Namespace) -> dict[str, Any]:
    batch = _get(args, "batch")
    estimate, setup, conditions = _decode(args, batch)
    title = f"Decode: {setup}, batch {batch}, {conditions}"
    step = estimate.step
    outputs = {
        "step_time": _out("Time per decode step", step.step_time_s, "s", format_time(step.step_time_s)),
        "tokens_per_s_per_sequence": _out(
            "Tokens/s per sequence", estimate.tokens_per_s_per_sequence, "tokens/s",
            format_tokens_per_s(estimate.tokens_per_s_per_sequence),
        ),
        "tokens_per_s": _out("Tokens/s, whole batch", step.tokens_per_s, "tokens/s", format_tokens_per_s(step.tokens_per_s)),
        "intensity": _out(
            "Arithmetic intensity", step.intensity_flop_per_byte, "FLOP/byte", format_intensity(step.intensity_flop_per_byte)
        ),
        "bound": _out("Limited by", step.bound, "", f"{step.bound}-bound"),
        "compute_utilisation": _out(
            "Compute utilisation", step.compute_utilisation, "1", format_percent(step.compute_utilisation)
        ),
        "ridge_point": _out(
            "Ridge point", step.ridge_point_flop_per_byte, "FLOP/byte", format_intensity(step.ridge_point_flop_per_byte)
        ),
        "kv_bytes": _out("KV cache read per step", estimate.kv_bytes, "B", format_bytes(estimate.kv_bytes)),
        "weight_bytes_read": _out(
            "Weights read per step", estimate.weight_bytes_streamed, "B", format_bytes(estimate.weight_bytes_streamed)
        ),
    }
    fit = estimate.memory
    if fit is not None:
        text = (
            f"yes: {format_bytes(fit.used_bytes)} of {format_bytes(fit.capacity_bytes)}"
            if fit.fits
            else f"no: needs {format_bytes(fit.used_bytes)} of {format_bytes(fit.capacity_bytes)}"
        )
        outputs["fits"] = _out("Fits in memory", fit.fits, "", text)
    return {"command": "decode", "title": title, "outputs": outputs}


def cmd_batch_sweep(args: argparse.Namespace) -> dict[str, Any]:
    batches = _batches(args.batches)
    rows = []
    for batch in batches:
        estimate, setup, conditions = _decode(args, batch)
        step = estimate.step
        rows.append(
            {
                "batch": value(batch, "sequences", f"{batch:,}"),
                "intensity": value(step.intensity_flop_per_byte, "FLOP/byte", format_intensity(step.intensity_flop_per_byte)),
                "bound": value(step.bound, "", f"{step.bound}-bound"),
                "step_time": value(step.step_time_s, "s", format_time(step.step_time_s)),
                "tokens_per_s": value(step.tokens_per_s, "tokens/s", format_tokens_per_s(step.tokens_per_s)),
                "compute_utilisation": value(step.compute_utilisation, "1", format_percent(step.compute_utilisation)),
            }
        )
    title = f"Decode batch sweep: {setup}, {conditions}"
    columns = {
        "batch": "Batch",
        "intensity": "Intensity",
        "bound": "Regime",
        "step_time": "Latency",
        "tokens_per_s": "Throughput",
        "compute_utilisation": "Utilisation",
    }
    return {"command": "batch-sweep", "title": title, "columns": columns, "rows": rows}


def _batches(text: str | None) -> list[int]:
    if text is None:
        return list(DEFAULT_SWEEP_BATCHES)
    field = FIELDS["batch"]
    batches = []
    for part in text.split(","):
        parsed, error = field.parse(part)
        if error is not None:
            raise CliError(f"--batches: {error}")
        batches.append(parsed)
    return batches


def cmd_prefill(args: argparse.Namespace) -> dict[str, Any]:
    accelerator = _accelerator(args)
    model = _model(args)
    weight_dtype = _get(args, "weight_dtype")
    prompt_tokens, batch, devices = _get(args, "prompt_tokens"), _get(args, "batch"), _get(args, "devices")
    step = estimate_prefill(
        model=model, accelerator=accelerator, prompt_tokens=prompt_tokens, weight_dtype=weight_dtype,
        batch=batch, devices=devices,
    )
    name = model.name
    where = f"{devices} x {accelerator.name}" if devices > 1 else accelerator.name
    return {
        "command": "prefill",
        "title": f"Prefill of {batch} x {prompt_tokens:,}-token prompt(s), {name} ({weight_dtype} weights) on {where}",
        "outputs": {
            "ttft": _out("Time to first token", step.step_time_s, "s", format_time(step.step_time_s)),
            "bound": _out("Limited by", step.bound, "", f"{step.bound}-bound"),
            "intensity": _out(
                "Arithmetic intensity", step.intensity_flop_per_byte, "FLOP/byte", format_intensity(step.intensity_flop_per_byte)
            ),
            "tokens_per_s": _out("Prefill tokens/s", step.tokens_per_s, "tokens/s", format_tokens_per_s(step.tokens_per_s)),
            "compute_utilisation": _out(
                "Compute utilisation", step.compute_utilisation, "1", format_percent(step.compute_utilisation)
            ),
        },
    }


def cmd_kv_cache(args: argparse.Namespace) -> dict[str, Any]:
    kv_dtype = _get(args, "kv_dtype")
    batch = _get(args, "batch")
    context = _get(args, "kv_context_tokens")
    model = _model_for_kv(args)
    if isinstance(model, Model):
        per_token = model.kv_bytes_per_token(kv_dtype)
        name = model.name
        weight_bytes = model.weight_bytes(_get(args, "weight_dtype"))
    else:
        per_token, name = model
        weight_bytes = _get(args, "params") * bytes_per_element(_get(args, "weight_dtype")) if _given(args, "params") else None
    total = per_token * context * batch
    outputs = {
        "kv_bytes": _out("KV cache, whole batch", total, "B", format_bytes(total)),
        "kv_bytes_per_token": _out("KV cache per token", per_token, "B", format_bytes(per_token)),
        "kv_bytes_per_sequence": _out(
            "KV cache per sequence", per_token * context, "B", format_bytes(per_token * context)
        ),
    }
    hardware_given = any(_given(args, d) for d in ("accelerator", "peak_tflop_per_s", "bandwidth_tb_per_s", "memory_gb"))
    if hardware_given:
        accelerator = _accelerator(args)
        if accelerator.memory_bytes is not None:
            capacity = accelerator.memory_bytes * _get(args, "devices")
            share = total / capacity
            outputs["share_of_memory"] = _out(
                "Share of memory", share, "1", f"{format_percent(share)} of {format_bytes(capacity)}"
            )
            if weight_bytes is not None:
                fit = fit_in_memory(
                    capacity_bytes=capacity, weight_bytes=weight_bytes, kv_bytes_per_token=per_token,
                    batch=batch, context_tokens=context,
                )
                outputs["weight_bytes"] = _out("Weights", weight_bytes, "B", format_bytes(weight_bytes))
                outputs["max_batch"] = _out(
                    "Largest batch that fits", fit.max_batch, "sequences",
                    "no limit" if fit.max_batch is None else f"{fit.max_batch:,} sequences",
                )
    return {
        "command": "kv-cache",
        "title": f"KV cache of {name}, {batch} x {context:,} tokens, {kv_dtype}",
        "outputs": outputs,
    }


def _model_for_kv(args: argparse.Namespace) -> Model | tuple[float, str]:
    """A preset, or (KV bytes per token, name) of an architecture given by options."""
    shape_given = any(
        _given(args, d) for d in ("layers", "kv_heads", "head_dim", "attention", "mla_latent_dim", "mla_rope_dim")
    )
    if _given(args, "model"):
        if shape_given:
            raise CliError("give --model or the architecture (--layers ...), not both")
        return MODELS[_get(args, "model")]
    if not shape_given:
        raise CliError(f"give --model (one of {', '.join(MODELS)}) or the architecture (--attention, --layers, ...)")
    kv_bpe = bytes_per_element(_get(args, "kv_dtype"))
    attention = _get(args, "attention")
    layers = _get(args, "layers")
    if attention == MLA:
        latent, rope = _get(args, "mla_latent_dim"), _get(args, "mla_rope_dim")
        return layers * (latent + rope) * kv_bpe, f"a custom MLA model ({layers} layers, latent {latent}+{rope})"
    kv_heads, head_dim = _get(args, "kv_heads"), _get(args, "head_dim")
    per_token = kv_cache_bytes(layers=layers, kv_heads=kv_heads, head_dim=head_dim, tokens=1, bytes_per_element=kv_bpe)
    return per_token, f"a custom {attention.upper()} model ({layers} layers, {kv_heads} KV heads of {head_dim})"


def cmd_ridge(args: argparse.Namespace) -> dict[str, Any]:
    dtype = _get(args, "dtype")
    custom = any(_given(args, d) for d in ("peak_tflop_per_s", "bandwidth_tb_per_s"))
    if custom or _given(args, "accelerator"):
        accelerators = [_accelerator(args, compute_dtype=dtype)]
    else:
        accelerators = list(ACCELERATORS.values())
    rows = []
    for accelerator in accelerators:
        if not accelerator.supports(dtype):
            if len(accelerators) == 1:
                supported = ", ".join(accelerator.peak_flop_per_s)
                raise CliError(f"--dtype: {accelerator.name} has no {dtype} peak; choose one of {supported}")
            continue
        peak = accelerator.peak_for(dtype)
        bandwidth = accelerator.bandwidth_bytes_per_s
        ridge = accelerator.ridge_point(dtype)
        batch = critical_batch(peak_flop_per_s=peak, bandwidth_bytes_per_s=bandwidth)
        rows.append(
            {
                "accelerator": value(getattr(accelerator, "slug", "custom"), "", accelerator.name),
                "peak": value(peak, "FLOP/s", format_flop_per_s(peak)),
                "bandwidth": value(bandwidth, "B/s", format_bandwidth(bandwidth)),
                "ridge_point": value(ridge, "FLOP/byte", format_intensity(ridge)),
                "critical_batch": value(batch, "sequences", format_number(batch)),
            }
        )
    columns = {
        "accelerator": "Accelerator",
        "peak": f"Peak ({dtype}, dense)",
        "bandwidth": "Bandwidth",
        "ridge_point": "Ridge point",
        "critical_batch": "Critical batch (16-bit weights)",
    }
    return {"command": "ridge", "title": f"Ridge points for {dtype} math", "columns": columns, "rows": rows}


# --- Output ------------------------------------------------------------------------------------


def render_text(result: dict[str, Any]) -> str:
    """A readable table: label/value pairs, or columns for multi-row commands."""
    lines = [result["title"], ""]
    if "rows" in result:
        columns = result["columns"]
        cells = [list(columns.values())] + [[row[key]["text"] for key in columns] for row in result["rows"]]
        widths = [max(len(r[i]) for r in cells) for i in range(len(columns))]
        for index, row in enumerate(cells):
            # The first column (a name) reads left-aligned, numbers right-aligned.
            parts = [c.ljust(w) if i == 0 and not c[:1].isdigit() else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths))]
            lines.append("  ".join(parts).rstrip())
            if index == 0:
                lines.append("  ".join("-" * w for w in widths))
    else:
        width = max(len(out["label"]) for out in result["outputs"].values())
        for out in result["outputs"].values():
            lines.append(f"{out['label'].ljust(width)}  {out['text']}")
    return "\n".join(lines)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog=PROG, description="Roofline estimates for LLM inference (roofline_core).")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True, parser_class=_Parser)

    def command(name: str, help_text: str) -> argparse.ArgumentParser:
        sub = commands.add_parser(name, help=help_text, description=help_text)
        sub.add_argument("--json", action="store_true", help="print JSON instead of a table")
        return sub

    ridge = command("ridge", "ridge point of one accelerator, or of every preset")
    _add_hardware(ridge)
    _add(ridge, "dtype")
    ridge.set_defaults(run=cmd_ridge)

    decode = command("decode", "one decode step: time per token, tokens/s, bound, memory fit")
    _add_model(decode, kv=True)
    _add_hardware(decode)
    for dest in ("weight_dtype", "kv_dtype", "batch", "context_tokens", "devices", "bandwidth_efficiency"):
        _add(decode, dest)
    decode.set_defaults(run=cmd_decode)

    sweep = command("batch-sweep", "decode latency and throughput as the batch grows (seed 004's table)")
    _add_model(sweep, kv=True)
    _add_hardware(sweep)
    for dest in ("weight_dtype", "kv_dtype", "context_tokens", "devices", "bandwidth_efficiency"):
        _add(sweep, dest)
    sweep.add_argument("--batches", metavar="LIST", help="comma-separated batch sizes; default 1,2,4,...,256")
    sweep.set_defaults(run=cmd_batch_sweep)

    prefill = command("prefill", "prefill of a prompt: time to first token, bound, intensity")
    _add_model(prefill, kv=False)
    _add_hardware(prefill)
    for dest in ("weight_dtype", "prompt_tokens", "batch", "devices"):
        _add(prefill, dest)
    prefill.set_defaults(run=cmd_prefill)

    kv = command("kv-cache", "KV cache size; with hardware, its share of memory and the largest batch")
    group = kv.add_argument_group("model (a preset, or the architecture)")
    _add(group, "model", "model preset: " + ", ".join(MODELS))
    for dest in ("attention", "layers", "kv_heads", "head_dim", "mla_latent_dim", "mla_rope_dim", "params"):
        _add(group, dest)
    _add_hardware(kv)
    for dest in ("kv_context_tokens", "batch", "kv_dtype", "weight_dtype", "devices"):
        _add(kv, dest)
    kv.set_defaults(run=cmd_kv_cache)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (0, or 2 for any error)."""
    try:
        args = build_parser().parse_args(argv)
        result = args.run(args)
    except CliError as error:
        print(f"{PROG}: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    if args.json:
        print(json.dumps(result, allow_nan=False, indent=2))
    else:
        print(render_text(result))
    return 0
