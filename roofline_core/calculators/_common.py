"""Fields and choices several calculators share, so a batch or a model means the same everywhere."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from roofline_core.calculators.base import CUSTOM, FROM_CONFIG, Output, value
from roofline_core.estimates.communication import CommCost
from roofline_core.estimates.inference import EXPERT, PIPELINE, TENSOR, MemoryFit, fit_alternatives, model_memory_fit
from roofline_core.estimates.parts import LABEL_TEXT, Part
from roofline_core.figures import roofline_curve
from roofline_core.formatting import (
    bound_phrase,
    format_bandwidth,
    format_capacity,
    format_fit_advice,
    format_flop_per_s,
    format_memory_fit,
    format_percent,
    format_time,
    format_whole,
)
from roofline_core.hardware import ACCELERATORS, TERA, Accelerator, AnyAccelerator, CustomAccelerator
from roofline_core.hardware.compute_format import AUTO, compute_scheme, resolve_compute_dtype
from roofline_core.hardware.dtypes import DTYPES
from roofline_core.models import GQA, MLA, MODELS, AnyModel, CustomModel, Model
from roofline_core.models.config_code import model_from_code
from roofline_core.questions.sensitivity import NOTICEABLE, Factor, describe
from roofline_core.vocabulary import (
    ACCELERATOR,
    BANDWIDTH_TB_PER_S,
    BATCH,
    CONTEXT_TOKENS,
    DEVICES,
    HEAD_DIM,
    KV_DTYPE,
    KV_HEADS,
    LAYERS,
    MEMORY_GB,
    MODEL,
    MODEL_CONFIG,
    PARAMS_BILLION,
    PEAK_TFLOP_PER_S,
    PROMPT_TOKENS,
    WEIGHT_DTYPE,
    Choice,
    ModelConfig,
    Number,
    OneOf,
    WholeNumber,
)

GIGA = 1e9


def parts_result(
    output: str, total_s: float, parts: tuple[Part, ...], working: tuple[tuple[str, str], ...], *, inverts: str = ""
) -> dict[str, Any]:
    """The parts of a calculator's main time, as its result's ``"parts"`` for the view to draw.

    Args:
        output: Id of the output the parts explain (a time, or a rate that inverts one).
        total_s: The time the parts add up to, in seconds.
        parts: From an estimate's ``.parts``; ``working`` from its ``.working``.
        inverts: For a rate, what time it inverts (``"a draft-and-verify cycle"``); empty for a time.

    Returns:
        ``{"output", "inverts", "total": value(...), "items": [...]}``, each item
        ``{"label", "phrase", "seconds", "text", "share", "share_text", "working"}``: a label of
        :mod:`roofline_core.estimates.parts`, the reader's phrase for it, its seconds and their
        text, its share of the total (0 to 1), and the formula with the scenario's values.
    """
    formulas = dict(working)
    return {
        "output": output,
        "inverts": inverts,
        "total": value(total_s, "s", format_time(total_s)),
        "items": [
            {
                "label": part.label,
                "phrase": LABEL_TEXT[part.label],
                "seconds": part.seconds,
                "text": format_time(part.seconds),
                "share": part.seconds / total_s,
                "share_text": format_percent(part.seconds / total_s),
                "working": formulas.get(part.label, ""),
            }
            for part in parts
        ],
    }


#: Fields a preset accelerator fills (its fp16 peak in TFLOP/s, bandwidth in TB/s, memory in GB),
#: which are the "Custom" accelerator's own numbers.
ACCELERATOR_FILLS: dict[str, Callable[[Accelerator], float]] = {
    "peak_tflop_per_s": lambda a: a.peak_for("fp16") / TERA,
    "bandwidth_tb_per_s": lambda a: a.bandwidth_bytes_per_s / TERA,
    "memory_gb": lambda a: a.memory_bytes / GIGA,
}


def accelerator_choices(*, custom_fields: tuple[str, ...] = ()) -> tuple[Choice, ...]:
    """Accelerator presets as choices, plus "Custom" when the calculator has custom-hardware fields.

    Args:
        custom_fields: Ids of the calculator's custom-accelerator fields (keys of
            :data:`ACCELERATOR_FILLS`); each preset fills them with its own numbers, so switching
            to "Custom" starts from the preset.
    """
    choices = [
        Choice(
            value=a.slug,
            label=a.name,
            fills={key: ACCELERATOR_FILLS[key](a) for key in custom_fields},
            group=a.group,
        )
        for a in ACCELERATORS.values()
    ]
    if custom_fields:
        words = [_CUSTOM_ACCELERATOR_WORDS[key] for key in custom_fields]
        wanted = words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"
        choices.append(Choice(value=CUSTOM, label=f"Custom (enter {wanted})"))
    return tuple(choices)


_CUSTOM_ACCELERATOR_WORDS = {"peak_tflop_per_s": "peak", "bandwidth_tb_per_s": "bandwidth", "memory_gb": "memory"}


def accelerator_input(*, custom_fields: tuple[str, ...] = ()) -> OneOf:
    """The accelerator select; ``custom_fields`` adds "Custom" and makes presets fill those fields."""
    return ACCELERATOR.with_choices(accelerator_choices(custom_fields=custom_fields), help="")


def custom_accelerator_inputs(*custom_fields: str) -> tuple[Number, ...]:
    """The custom-accelerator fields named (defaults: the H100 SXM's numbers)."""
    fields = {
        "peak_tflop_per_s": PEAK_TFLOP_PER_S.variant(help="Dense peak, used with the Custom accelerator."),
        "bandwidth_tb_per_s": BANDWIDTH_TB_PER_S.variant(
            help="Peak memory bandwidth, used with the Custom accelerator."
        ),
        "memory_gb": MEMORY_GB.variant(help="Memory of one accelerator, used with the Custom accelerator."),
    }
    return tuple(fields[key] for key in custom_fields)


def memory_bytes_of(values: dict[str, Any]) -> float:
    """Memory a model may use on one accelerator, in bytes: the preset's (on unified memory, the
    GPU-usable share), or the custom ``memory_gb`` field's."""
    if values["accelerator"] == CUSTOM:
        return values["memory_gb"] * GIGA
    return ACCELERATORS[values["accelerator"]].fit_memory_bytes


def accelerator_of(values: dict[str, Any], *, compute_dtype: str = "fp16") -> AnyAccelerator:
    """The preset chosen, or a :class:`CustomAccelerator` from the custom fields.

    A custom peak is the rate of ``compute_dtype``; a custom accelerator without a memory field
    has unknown memory.
    """
    if values["accelerator"] != CUSTOM:
        return ACCELERATORS[values["accelerator"]]
    return CustomAccelerator(
        peak_flop_per_s={compute_dtype: values["peak_tflop_per_s"] * TERA},
        bandwidth_bytes_per_s=values["bandwidth_tb_per_s"] * TERA,
        memory_bytes=values["memory_gb"] * GIGA if "memory_gb" in values else None,
    )


#: Which memory roof a calculator's speed of light uses: the datasheet's, or what a cited run
#: reached on the chip (hardware.measured_ceilings). One definition for the roofline explorer,
#: decode and prefill calculators, so the field reads and refuses the same everywhere.
MEMORY_ROOF = OneOf(
    id="roof",
    label="Memory roof",
    choices=(
        Choice(value="datasheet", label="Datasheet bandwidth"),
        Choice(value="measured", label="Measured bandwidth (where a run is cited)"),
    ),
    default="datasheet",
    help="The datasheet's peak bandwidth, or what a cited copy or STREAM-like run reached on the chip.",
)


def measured_bandwidth(accelerator: AnyAccelerator) -> float | None:
    """The chip's cited measured bandwidth in bytes/s, or None (every custom accelerator)."""
    return getattr(accelerator, "measured_bandwidth_bytes_per_s", None)


def roof_cross_check(values: dict[str, Any]) -> dict[str, str]:
    """The measured roof is refused, at its field, on a chip with no cited measurement."""
    if values.get(MEMORY_ROOF.id, MEMORY_ROOF.default) != "measured":
        return {}
    accelerator = accelerator_of(values)
    if measured_bandwidth(accelerator) is None:
        return {MEMORY_ROOF.id: f"{accelerator.name} has no cited bandwidth measurement; choose the datasheet roof."}
    return {}


def at_memory_roof(accelerator: AnyAccelerator, values: dict[str, Any]) -> AnyAccelerator:
    """The accelerator whose bandwidth is the chosen memory roof: itself for the datasheet's, a
    copy reading at the measured bandwidth for the measured one.

    Only the speed of light moves: the realistic estimate's shares were fitted against datasheet
    bandwidth (estimates.efficiency), so a calculator keeps the datasheet chip for it.
    """
    measured = measured_bandwidth(accelerator)
    if values.get(MEMORY_ROOF.id, MEMORY_ROOF.default) != "measured" or measured is None:
        return accelerator
    # The copy's datasheet figure is the measured one; its own "measured" fields are cleared, as
    # a roof at the datasheet's is not a measurement below it.
    return replace(
        accelerator,
        bandwidth_bytes_per_s=measured,
        measured_bandwidth_bytes_per_s=None,
        measured_bandwidth_source=None,
        measured_bandwidth_method="",
    )


def other_memory_roof(accelerator: AnyAccelerator, values: dict[str, Any]) -> tuple[str, float] | None:
    """The memory roof a chart draws dashed beside the chosen one (issue 34: both roofs shown):
    the measured roof under the datasheet's, or the datasheet's above the measured one; None on a
    chip with no cited measurement."""
    measured = measured_bandwidth(accelerator)
    if measured is None:
        return None
    if values.get(MEMORY_ROOF.id, MEMORY_ROOF.default) == "measured":
        return f"datasheet {format_bandwidth(accelerator.bandwidth_bytes_per_s)}", accelerator.bandwidth_bytes_per_s
    return f"measured {format_bandwidth(measured)}", measured


def memory_roof_output(accelerator: AnyAccelerator, values: dict[str, Any] | None = None) -> dict[str, Any]:
    """The chip's measured roof beside its datasheet's (and which one the figures use), or why
    there is none."""
    measured = measured_bandwidth(accelerator)
    if measured is None:
        return value(0, "B/s", "none cited for this accelerator")
    datasheet = accelerator.bandwidth_bytes_per_s
    # Short: a half-width card on a phone (390 px) holds "831 GB/s (88.8% of 936 GB/s)" in two
    # lines; the output's label says it is the measured roof.
    text = f"{format_bandwidth(measured)} ({format_percent(measured / datasheet)} of {format_bandwidth(datasheet)})"
    if values is not None:
        used = values.get(MEMORY_ROOF.id, MEMORY_ROOF.default) == "measured"
        text += ", the roof in use" if used else "; the datasheet's roof is in use"
    return value(measured, "B/s", text)


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
        choices.append(Choice(value=m.slug, label=m.name, fills=fills, group=m.family))
    if custom_fields:
        choices.append(Choice(value=CUSTOM, label="Custom (enter the sizes)"))
    choices.append(Choice(value=FROM_CONFIG, label="From a config.json or GGUF file", uses=(MODEL_CONFIG.id,)))
    return tuple(choices)


def model_input(*, default: str, custom_fields: tuple[str, ...] = ()) -> OneOf:
    """The model select; ``custom_fields`` are the ids of the calculator's custom-model fields.

    It always offers "From a config.json", which reads :func:`model_config_input`'s field.
    """
    return MODEL.with_choices(
        model_choices(custom_fields=custom_fields),
        default=default,
        help=(
            "A published model, your own model's config.json, or Custom to enter its size."
            if custom_fields
            else "A published model, or your own model's config.json."
        ),
    )


def model_config_input() -> ModelConfig:
    """The pasted config.json (or a link's code for it), read when the model is "From a config.json"."""
    return MODEL_CONFIG


def dtype_input(*, id: str, label: str, default: str = "fp16", help: str = "") -> OneOf:
    """A storage-format select (``weight_dtype`` or ``kv_dtype``), each option with its size."""
    declared = {d.id: d for d in (WEIGHT_DTYPE, KV_DTYPE)}[id]
    choices = [
        Choice(value=c.value, label=f"{c.label} ({_bytes_text(DTYPES[c.value].bytes_per_element)})")
        for c in declared.choices
    ]
    return declared.with_choices(choices, label=label, default=default, help=help)


def _bytes_text(bytes_per_element: float) -> str:
    if bytes_per_element == 1:
        return "1 byte"
    if bytes_per_element == int(bytes_per_element):
        return f"{int(bytes_per_element)} bytes"
    return f"{bytes_per_element:g} byte"


def price_input(*, help: str) -> Number:  # noqa: A002 - the field's own word
    """The price of one accelerator per hour, in US dollars: 0 (the default) means none given,
    and ``help`` says what the calculator then shows."""
    return Number(
        id="price_per_device_hour",
        label="Price per device-hour",
        unit="USD",
        default=0,
        minimum=0,
        maximum=10_000,
        step=0.01,
        help=help,
    )


def params_input(*, default: float) -> Number:
    return PARAMS_BILLION.variant(
        default=default,
        help="Custom model only: parameters read per generated token (for a mixture of experts, the active ones).",
    )


def batch_input(*, default: int = 1) -> WholeNumber:
    return BATCH.variant(default=default)


def context_input(
    *, default: int, min: int, slider: bool, help: str = "Tokens already in each sequence's KV cache."
) -> WholeNumber:
    """The context length; ``min`` may raise the shared minimum (a log slider cannot start at 0)."""
    return CONTEXT_TOKENS.variant(default=default, minimum=min, slider=slider, log_slider=slider, help=help)


def prompt_input(*, help: str) -> WholeNumber:
    return PROMPT_TOKENS.variant(help=help)


def devices_input(*, default: int = 1) -> WholeNumber:
    return DEVICES if default == DEVICES.default else DEVICES.variant(default=default)


def custom_kv_inputs() -> tuple[WholeNumber, ...]:
    """Layers, KV heads and head width of a custom MHA/GQA model (defaults: Llama 3 70B's shape)."""
    return (
        LAYERS.variant(help="Custom model only: decoder layers."),
        KV_HEADS.variant(help="Custom model only: key/value heads per layer (all heads for MHA, fewer for GQA)."),
        HEAD_DIM.variant(help="Custom model only: width of one attention head."),
    )


def roofline_chart(
    *, peak_flop_per_s: float, bandwidth_bytes_per_s: float, points: list[dict[str, Any]], dots: str | None = None
) -> dict[str, Any]:
    """The chart of a calculator's roofline with its points.

    A fixed frame (0.1 to 10,000 FLOP/byte, widened only when a point falls outside it) keeps
    the chart still while the reader drags a slider. ``dots`` says in a few words what the
    points are when there are too many to label ("table rows"); the legend shows it.
    """
    xs = [p["intensity_flop_per_byte"] for p in points]
    return {"dots": dots} | roofline_curve(
        peak_flop_per_s=peak_flop_per_s,
        bandwidth_bytes_per_s=bandwidth_bytes_per_s,
        points=points,
        x_min_flop_per_byte=min([0.1, *xs]),
        x_max_flop_per_byte=max([10_000.0, *xs]),
    )


def model_of(values: dict[str, Any]) -> AnyModel:
    """The preset model chosen, the model of a pasted config.json, or for "Custom" a
    :class:`CustomModel` of the custom fields present."""
    if values["model"] == FROM_CONFIG:
        return model_from_code(values[MODEL_CONFIG.id], slug="imported")
    if values["model"] != CUSTOM:
        return MODELS[values["model"]]
    return CustomModel(
        streamed_params_per_token=values["params_billion"] * GIGA,
        attention=values.get("attention", GQA),
        layers=values.get("layers", 0),
        kv_heads=values.get("kv_heads", 0),
        head_dim=values.get("head_dim", 0),
        mla_latent_dim=values.get("mla_latent_dim", 0),
        mla_rope_dim=values.get("mla_rope_dim", 0),
    )


#: The KV-cache calculator's choice of how attention runs over several devices.
ATTENTION_SPLIT_ID, DATA_PARALLEL_ATTENTION = "attention_split", "data"


def memory_fit_of(values: dict[str, Any], model: AnyModel, *, context_tokens: int) -> MemoryFit:
    """Whether the chosen batch of ``model`` fits the chosen devices' memory at a context (under
    the calculator's parallelism, tensor parallelism where it has none)."""
    return model_memory_fit(
        model=model,
        capacity_bytes=memory_bytes_of(values) * values["devices"],
        weight_dtype=values["weight_dtype"],
        kv_dtype=values["kv_dtype"],
        batch=values["batch"],
        context_tokens=context_tokens,
        devices=values["devices"],
        parallelism=values.get("parallelism", "tensor"),
        data_parallel_attention=values.get(ATTENTION_SPLIT_ID) == DATA_PARALLEL_ATTENTION,
    )


def fit_advice(values: dict[str, Any], *, batch: int, context_tokens: int) -> str:
    """What would make the scenario fit: ``"It fits on 2 devices, or in FP8 weights."``."""
    alternatives = fit_alternatives(
        model=model_of(values),
        device_memory_bytes=memory_bytes_of(values),
        devices=values["devices"],
        weight_dtype=values["weight_dtype"],
        kv_dtype=values["kv_dtype"],
        batch=batch,
        context_tokens=context_tokens,
        data_parallel_attention=values.get(ATTENTION_SPLIT_ID) == DATA_PARALLEL_ATTENTION,
    )
    return format_fit_advice(alternatives, devices=values["devices"])


def fit_verdict(values: dict[str, Any], fit: MemoryFit, *, batch: int, context_tokens: int) -> str:
    """Whether the scenario fits, said plainly; for one that does not, what would (more devices,
    smaller weights): ``"No: needs 141 GB of 80 GB. It fits on 2 devices, or in FP8 weights."``."""
    shared = _unified_memory_words(values)
    if fit.fits:
        return format_memory_fit(fit) + (f" ({shared})" if shared else "")
    verdict = f"{format_memory_fit(fit)}. {fit_advice(values, batch=batch, context_tokens=context_tokens)}"
    if shared:
        # On unified memory the pool is larger than the GPU's default share; say how to move it.
        advice = ACCELERATORS[values["accelerator"]].gpu_memory_advice
        verdict += f" The capacity is {shared}: {advice}."
    return verdict


def _unified_memory_words(values: dict[str, Any]) -> str:
    """For a unified-memory preset, what the capacity in a fit verdict is; empty elsewhere."""
    if values["accelerator"] == CUSTOM:
        return ""
    chip = ACCELERATORS[values["accelerator"]]
    if chip.gpu_usable_memory_bytes is None:
        return ""
    return f"the GPU's share of {format_capacity(chip.memory_bytes * values['devices'])} of unified memory"


def math_accelerator(values: dict[str, Any]) -> tuple[AnyAccelerator, str]:
    """The chosen accelerator and the math format an estimate runs in (the "Math format" field).

    "Auto" is what engines do for the weight format on that chip
    (:func:`roofline_core.hardware.compute_format.engine_compute_dtype`); a custom accelerator's peak is
    the rate of the chosen format, or of 16-bit math under "Auto".
    """
    chosen = values["compute_dtype"]
    accelerator = accelerator_of(values, compute_dtype="fp16" if chosen == AUTO else chosen)
    return accelerator, resolve_compute_dtype(chosen, values["weight_dtype"], accelerator)


def math_cross_check(values: dict[str, Any]) -> dict[str, str]:
    """A math format the chosen chip lists no peak for is refused at its field."""
    chosen = values.get("compute_dtype", AUTO)
    if chosen == AUTO or values["accelerator"] == CUSTOM:
        return {}
    accelerator = ACCELERATORS[values["accelerator"]]
    if accelerator.supports(chosen):
        return {}
    supported = ", ".join(d.upper() for d in accelerator.peak_flop_per_s)
    return {
        "compute_dtype": f"Math format {chosen.upper()} has no peak on the {accelerator.name}; "
        f"choose one of Auto, {supported}."
    }


def math_text(values: dict[str, Any], accelerator: AnyAccelerator, compute_dtype: str) -> str:
    """How the weights meet the math: ``"W8A8 on the FP8 peak (1,979 TFLOP/s)"``."""
    peak = format_flop_per_s(accelerator.peak_for(compute_dtype))
    # A peak no sheet states says so where it is used (hardware.PEAK_BASES).
    basis = getattr(accelerator, "peak_basis", "vendor")
    sureness = {"arithmetic": ", a computed peak", "measured": ", a measured peak"}.get(basis, "")
    return f"{compute_scheme(values['weight_dtype'], compute_dtype)} ({peak}{sureness})"


def communication_output(communication: CommCost, step_time_s: float, *, noun: str = "all-reduces") -> dict[str, Any]:
    """The share of a step spent communicating (``noun``: what the collectives are), or why there is
    none or it is unknown."""
    if communication.collectives == 0 and communication.known:
        return value(0.0, "1", "none: one device")
    if not communication.known:
        return value(0.0, "1", "unknown: no link bandwidth for this accelerator or model")
    share = communication.time_s / step_time_s
    return value(
        share,
        "1",
        f"{format_percent(share)} ({format_time(communication.time_s)} in "
        f"{format_whole(communication.collectives)} {noun})",
    )


#: The parallelism select of the decode calculator (roofline_core.estimates.inference.PARALLELISMS).
PARALLELISM_INPUT = OneOf(
    id="parallelism",
    label="Parallelism",
    choices=(
        Choice(value=TENSOR, label="Tensor (every layer split; two all-reduces per layer)"),
        Choice(value=PIPELINE, label="Pipeline (layers in stages; micro-batches cycle)"),
        Choice(value=EXPERT, label="Expert (MoE experts spread; all-to-alls per MoE layer)"),
    ),
    default=TENSOR,
    help="How the work is split when there is more than one device.",
)

#: What each parallelism's collectives are, for the communication output.
COLLECTIVE_NOUN = {TENSOR: "all-reduces", PIPELINE: "stage hops", EXPERT: "all-to-alls"}


def parallelism_cross_check(values: dict[str, Any]) -> dict[str, str]:
    """Expert parallelism needs experts: refused at its field for a dense model."""
    if values.get("parallelism") != EXPERT:
        return {}
    model = model_of(values)
    if isinstance(model, Model) and model.is_moe:
        return {}
    return {"parallelism": "Parallelism Expert needs a mixture-of-experts model; choose one of Tensor, Pipeline."}


def what_moves(factors: tuple[Factor, ...], *, measure: str, bound: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The "what moves it" output and the result's ``sensitivity`` beside it.

    The output's value is the largest factor's name and its text the noticeable moves in one
    line; the ``sensitivity`` holds the factors themselves, what they move and the binding roof,
    for the page's tornado chart of that output (:mod:`roofline_core.view.tornado`).
    """
    top = factors[0].name if factors and factors[0].swing >= NOTICEABLE else ""
    sensitivity = {
        "output": "what_moves",
        "factors": [factor.to_json() for factor in factors],
        "measure": measure,
        "bound": bound_phrase(bound),
    }
    return value(top, "", describe(factors)), sensitivity


#: The output every calculator with a config box and a weight format shows: what the pasted
#: config's ``quantization_config`` said about the weights, and what it did not understand.
WEIGHT_FORMAT_READ = Output("weight_format_read", "Weight format from the config")


def unanswered_outputs(outputs: tuple[Output, ...], **said: str) -> dict[str, dict[str, Any]]:
    """The outputs of a scenario no estimate can be made for: each a dash, but those named in
    ``said``, which carry their sentence (why, and what to change). :data:`WEIGHT_FORMAT_READ` is
    left to :func:`config_weight_format`, which fills it either way."""
    shown = {out.id: value("", "", "–") for out in outputs if out.id != WEIGHT_FORMAT_READ.id}
    return shown | {output_id: value("", "", text) for output_id, text in said.items()}


def config_weight_format(values: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The fills and the output of :data:`WEIGHT_FORMAT_READ` for ``values``.

    A pasted config with a ``quantization_config`` sets the weight format (as a pasted
    benchmark summary sets the reconciler's fields): its format when understood, else the
    model's 16-bit format, which is how the weights are then read. Returns ``({field: value},
    output value)``; no fills for a preset, a custom model or a config without one.
    """
    # The config explainer has no model select: its box is always read.
    if values.get("model", FROM_CONFIG) != FROM_CONFIG or MODEL_CONFIG.id not in values:
        return {}, value("", "", "none: the model is not a pasted config.json")
    quantisation = model_from_code(values[MODEL_CONFIG.id]).quantisation
    if quantisation is None:
        chosen = values["weight_dtype"].upper()
        return {}, value("", "", f"none: the config.json has no quantization_config; weights in {chosen} as chosen")
    slug = quantisation.weight_dtype or quantisation.unquantised_dtype
    chosen = values["weight_dtype"]
    if chosen != slug:
        # The reader chose another format: the numbers use theirs, and the sentence says so.
        return {"weight_dtype": slug}, value(
            slug, "", f"{quantisation.summary}; the weight format field holds {chosen.upper()}, which these results use"
        )
    return {"weight_dtype": slug}, value(slug, "", quantisation.summary)
