"""Fields and choices several calculators share, so a batch or a model means the same everywhere."""

from __future__ import annotations

from typing import Any

from roofline_core.calculators.fields import Choice, ChoiceInput, NumberInput
from roofline_core.dtypes import DTYPES, STORAGE_DTYPES, bytes_per_element
from roofline_core.figures import roofline_curve
from roofline_core.formatting import format_bytes, format_percent
from roofline_core.hardware import ACCELERATORS, TERA
from roofline_core.inference import MemoryFit, kv_cache_bytes
from roofline_core.models import MLA, MODELS, Model

CUSTOM = "custom"
GIGA = 1e9

#: Largest context any calculator accepts: 2^20 tokens, past every preset's window.
MAX_CONTEXT_TOKENS = 1_048_576


def accelerator_choices(*, with_custom: bool, with_fills: bool = True) -> tuple[Choice, ...]:
    """Accelerator presets as choices.

    Args:
        with_custom: Add a "Custom" choice (the calculator then has peak and bandwidth fields).
        with_fills: Whether each preset fills its fp16 peak (TFLOP/s) and bandwidth (TB/s) into
            the ``peak_tflop_per_s`` and ``bandwidth_tb_per_s`` fields; only for calculators
            that have those fields.
    """
    choices = [
        Choice(
            value=a.slug,
            label=a.name,
            fills=(
                {
                    "peak_tflop_per_s": a.peak_flop_per_s.get("fp16", a.peak_flop_per_s.get("bf16", 0)) / TERA,
                    "bandwidth_tb_per_s": a.bandwidth_bytes_per_s / TERA,
                }
                if with_fills
                else {}
            ),
        )
        for a in ACCELERATORS.values()
    ]
    if with_custom:
        choices.append(Choice(value=CUSTOM, label="Custom (enter peak and bandwidth)"))
    return tuple(choices)


def accelerator_input(*, with_custom: bool = False) -> ChoiceInput:
    """The accelerator select; ``with_custom`` adds "Custom" and makes presets fill the peak and bandwidth fields."""
    return ChoiceInput(
        id="accelerator",
        label="Accelerator",
        choices=accelerator_choices(with_custom=with_custom, with_fills=with_custom),
        default="h100-sxm",
    )


def model_choices(*, custom_fields: tuple[str, ...] = ()) -> tuple[Choice, ...]:
    """Model presets as choices, plus "Custom" when the calculator has custom-model fields.

    Each preset fills those of ``custom_fields`` it has numbers for (parameters streamed per
    token, in billions; attention kind; layers; KV heads and head width, or MLA's latent widths),
    so switching to "Custom" starts from the preset.
    """
    choices = []
    for m in MODELS.values():
        known: dict[str, float | str] = {
            "params_billion": round(m.streamed_params_per_token / GIGA, 3),
            "attention": m.attention,
            "layers": m.layers,
        }
        if m.attention == MLA:
            known.update({"mla_latent_dim": m.mla_latent_dim, "mla_rope_dim": m.mla_rope_dim})
        else:
            known.update({"kv_heads": m.kv_heads, "head_dim": m.head_dim})
        fills = {key: known[key] for key in custom_fields if key in known}
        choices.append(Choice(value=m.slug, label=m.name, fills=fills))
    if custom_fields:
        choices.append(Choice(value=CUSTOM, label="Custom (enter the sizes)"))
    return tuple(choices)


def model_input(*, default: str, custom_fields: tuple[str, ...] = ()) -> ChoiceInput:
    """The model select; ``custom_fields`` are the ids of the calculator's custom-model fields."""
    return ChoiceInput(
        id="model",
        label="Model",
        choices=model_choices(custom_fields=custom_fields),
        default=default,
        help="A published model, or Custom to enter its size." if custom_fields else "A published model's shapes.",
    )


def dtype_input(*, id: str, label: str, default: str = "fp16", help: str = "") -> ChoiceInput:
    return ChoiceInput(
        id=id,
        label=label,
        choices=tuple(Choice(value=d, label=f"{DTYPES[d].label} ({_bytes_text(DTYPES[d].bytes_per_element)})") for d in STORAGE_DTYPES),
        default=default,
        help=help,
    )


def _bytes_text(bytes_per_element: float) -> str:
    if bytes_per_element == 1:
        return "1 byte"
    if bytes_per_element == int(bytes_per_element):
        return f"{int(bytes_per_element)} bytes"
    return f"{bytes_per_element:g} byte"


def params_input(*, default: float) -> NumberInput:
    return NumberInput(
        id="params_billion",
        label="Parameters",
        unit="billion",
        default=default,
        min=0.001,
        max=100_000,
        step=0.1,
        help="Custom model only: parameters read per generated token (for a mixture of experts, the active ones).",
    )


def batch_input(*, default: int = 1, max: int = 1024) -> NumberInput:
    return NumberInput(
        id="batch",
        label="Batch size",
        unit="sequences",
        default=default,
        min=1,
        max=max,
        step=1,
        integer=True,
        slider=True,
        log_slider=True,
        help="Sequences processed together in one step.",
    )


def context_input(
    *, default: int, min: int, slider: bool, help: str = "Tokens already in each sequence's KV cache."
) -> NumberInput:
    return NumberInput(
        id="context_tokens",
        label="Context length",
        unit="tokens",
        default=default,
        min=min,
        max=MAX_CONTEXT_TOKENS,
        step=1,
        integer=True,
        slider=slider,
        log_slider=slider,
        help=help,
    )


def prompt_input(*, max: int, help: str) -> NumberInput:
    return NumberInput(
        id="prompt_tokens",
        label="Prompt length",
        unit="tokens",
        default=2048,
        min=1,
        max=max,
        step=1,
        integer=True,
        slider=True,
        log_slider=True,
        help=help,
    )


def devices_input() -> NumberInput:
    return NumberInput(
        id="devices",
        label="Devices",
        unit="accelerators",
        default=1,
        min=1,
        max=1024,
        step=1,
        integer=True,
        help="Accelerators the weights and work are split over evenly (tensor parallelism, no communication cost).",
    )


def custom_kv_inputs() -> tuple[NumberInput, ...]:
    """Layers, KV heads and head width of a custom MHA/GQA model (defaults: Llama-3-70B's shape)."""
    return (
        NumberInput(
            id="layers",
            label="Layers",
            unit="layers",
            default=80,
            min=1,
            max=1000,
            integer=True,
            help="Custom model only: decoder layers.",
        ),
        NumberInput(
            id="kv_heads",
            label="KV heads",
            unit="heads",
            default=8,
            min=1,
            max=1024,
            integer=True,
            help="Custom model only: key/value heads per layer (all heads for MHA, fewer for GQA).",
        ),
        NumberInput(
            id="head_dim",
            label="Head width",
            unit="elements",
            default=128,
            min=1,
            max=4096,
            integer=True,
            help="Custom model only: width of one attention head.",
        ),
    )


def custom_kv_bytes_per_token(values: dict[str, Any]) -> float:
    """KV bytes one token adds for the custom MHA/GQA shape (``layers``, ``kv_heads``, ``head_dim``, ``kv_dtype``)."""
    return kv_cache_bytes(
        layers=values["layers"],
        kv_heads=values["kv_heads"],
        head_dim=values["head_dim"],
        tokens=1,
        bytes_per_element=bytes_per_element(values["kv_dtype"]),
    )


def roofline_chart(*, peak_flop_per_s: float, bandwidth_bytes_per_s: float, points: list[dict[str, Any]]) -> dict[str, Any]:
    """The chart of a calculator's roofline with its points.

    A fixed frame (0.1 to 10,000 FLOP/byte, widened only when a point falls outside it) keeps
    the chart still while the reader drags a slider.
    """
    xs = [p["intensity_flop_per_byte"] for p in points]
    return roofline_curve(
        peak_flop_per_s=peak_flop_per_s,
        bandwidth_bytes_per_s=bandwidth_bytes_per_s,
        points=points,
        x_min_flop_per_byte=min([0.1, *xs]),
        x_max_flop_per_byte=max([10_000.0, *xs]),
    )


def model_of(values: dict[str, Any]) -> Model | None:
    """The preset model chosen, or None for Custom."""
    return None if values["model"] == CUSTOM else MODELS[values["model"]]


def fit_text(fit: MemoryFit) -> str:
    """"Yes: 16.1 GB of 80 GB (20.1%)" or "No: needs 141 GB of 80 GB"."""
    used, capacity = format_bytes(fit.used_bytes), format_bytes(fit.capacity_bytes)
    if fit.fits:
        return f"Yes: {used} of {capacity} ({format_percent(fit.share_of_memory)})"
    return f"No: needs {used} of {capacity}"
