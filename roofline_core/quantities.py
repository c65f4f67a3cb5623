"""Named quantities: the numbers prose may quote, each computed here and formatted for reading.

Glossary entries and pages never type a figure in by hand; they name a quantity and its
parameters, and the site asks this registry for the formatted text at build time::

    >>> evaluate("ridge_point", {"accelerator": "h100-sxm"}).text
    '295 FLOP/byte'
    >>> evaluate_reference("decode_step_time params=8e9 accelerator=h100-sxm").text
    '4.78 ms'

A reference is the quantity's name followed by ``key=value`` pairs separated by spaces (values
hold no spaces). Every parameter arrives as the string a writer typed; parsing it here means the
error names the parameter and what it accepts. Each :class:`Value` also carries the
:class:`~roofline_core.sources.Source` of every preset it used, so a page can cite them.

Standard library only, like the rest of ``roofline_core``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from roofline_core.estimates.communication import link_bandwidth_per_direction_bytes_per_s
from roofline_core.estimates.inference import (
    EXPERT,
    PIPELINE,
    TENSOR,
    MemoryFit,
    critical_batch,
    estimate_decode,
    estimate_prefill,
    memory_fit,
)
from roofline_core.estimates.operations import OPERATION_KINDS, matvec_exact_cost, operations_catalogue
from roofline_core.estimates.parts import COMMUNICATION_LABELS, LABELS, Part
from roofline_core.formatting import (
    bound_phrase,
    format_bandwidth,
    format_bytes,
    format_capacity,
    format_count,
    format_flop_per_s,
    format_flops,
    format_intensity,
    format_number,
    format_percent,
    format_time,
    format_tokens_per_s,
)
from roofline_core.hardware import ACCELERATORS, PEAK_BASIS_WORDS, Accelerator
from roofline_core.hardware.compute_format import resolve_compute_dtype
from roofline_core.hardware.dtypes import DTYPES, bytes_per_element
from roofline_core.models import MODELS, AnyModel, CustomModel, Model
from roofline_core.roofline import attainable_flop_per_s, matmul_cost
from roofline_core.sources import Source
from roofline_core.vocabulary import (
    ACCELERATOR,
    BANDWIDTH_EFFICIENCY,
    BATCH,
    COMPUTE_DTYPE,
    CONTEXT_TOKENS,
    DEVICES,
    INTENSITY,
    KV_DTYPE,
    MATH_DTYPE,
    MAX_MATRIX_DIM,
    MODEL,
    PARAMS,
    PROMPT_TOKENS,
    WEIGHT_DTYPE,
    Declaration,
    ListOf,
    Number,
    OneOf,
    WholeNumber,
    slugs,
    suggestion,
)

#: Operation slugs of :func:`roofline_core.estimates.operations.operations_catalogue`, in table order.
OPERATION_SLUGS: tuple[str, ...] = tuple(OPERATION_KINDS)


class QuantityError(ValueError):
    """A reference names an unknown quantity or gives a parameter it cannot use.

    The message has the form ``<what is wrong>; <what is expected>``, so a caller can prefix
    the file and line.
    """


@dataclass(frozen=True)
class Value:
    """A formatted quantity and the sources of the presets behind it.

    Attributes:
        text: What the reader sees (``"4.78 ms"``).
        sources: Sources of every preset used, without repeats.
        memory: For a quantity that describes running a model on devices (a decode step, a
            prefill pass), whether its weights and KV cache fit those devices' memory; None
            for a quantity with no such scenario.
        hypothetical: Whether the reference was marked ``hypothetical=yes``: a bound for a
            scenario the named devices cannot hold, which the prose must call hypothetical.
        number: The value in SI units (seconds, bytes, FLOP/s, tokens/s, FLOP/byte, a share
            from 0 to 1...), or None for a quantity that is a word (a name, a bound).
        parts: For a time, its parts (:class:`~roofline_core.estimates.parts.Part`, adding up
            to ``number``); for a rate, the parts of the time it inverts; empty otherwise.
        working: ``(label, formula with the reference's values)`` for each of ``parts``.
        inverts: For a rate, the time it is the inverse of (``"decode step time"``); empty
            otherwise.
    """

    text: str
    sources: tuple[Source, ...] = ()
    memory: MemoryFit | None = None
    hypothetical: bool = False
    number: float | None = None
    parts: tuple[Part, ...] = ()
    working: tuple[tuple[str, str], ...] = ()
    inverts: str = ""


def _plain(value: float) -> str:
    """A size as a person would type it: ``1``, ``1,000,000``, ``0.125``."""
    return f"{int(value):,}" if value == int(value) else f"{value:g}"


@dataclass(frozen=True)
class Quantity:
    """A named, documented number.

    Attributes:
        name: Name used in references (``ridge_point``).
        description: What it is, in one sentence, with its unit.
        parameters: What it takes: :mod:`roofline_core.vocabulary` declarations, whose ``id`` is
            the key written in a reference. A declaration without a default is required.
        compute: Called with the parsed parameters as keywords (presets as their objects);
            returns a :class:`Value`.
        requires_one_of: Parameters of which exactly one must be given (``("model", "params")``:
            a preset model or a raw parameter count); the other arrives as None.
        example: A reference the docs show with its output.
        memory_scenario: For a quantity about running a model on devices, called with the same
            keywords as ``compute``; returns the :class:`~roofline_core.estimates.inference.MemoryFit`
            of that scenario, which :func:`evaluate` puts in ``Value.memory``. Such a quantity
            also takes ``hypothetical``.
    """

    name: str
    description: str
    parameters: tuple[Declaration, ...]
    compute: Callable[..., Value]
    requires_one_of: tuple[str, ...] = ()
    example: str = ""
    memory_scenario: Callable[..., MemoryFit] | None = None

    def signature(self) -> str:
        """The reference with every parameter, for docs and error messages."""
        parts = [self.name]
        for p in self.parameters:
            parts.append(f"{p.id}=<{p.id}>" if p.default is None else f"{p.id}={p.write(p.default)}")
        return " ".join(parts)


# Parameters ------------------------------------------------------------------------------
# The vocabulary's standard declarations, so a batch or a context length means the same here
# as in the calculators and figures; a reference key is the declaration's id.

_ACCELERATOR = ACCELERATOR.variant(default=None)
_MODEL_REQUIRED = MODEL.variant(default=None)
_MODEL_OR_PARAMS = (
    MODEL.variant(default=None, help="A model preset (or give params)."),
    PARAMS.variant(help="Parameters streamed per generated token, e.g. 8e9 (or give model)."),
)
_STORAGE_DTYPE = OneOf(
    id="dtype",
    label="Storage format",
    default="fp16",
    help="How the weights are stored.",
    choices=WEIGHT_DTYPE.choices,
    noun_text=WEIGHT_DTYPE.noun_text,
)
_ANY_DTYPE = OneOf(
    id="dtype",
    label="Number format",
    default=None,
    help="A number format.",
    choices=tuple(slugs(tuple(DTYPES), [d.label for d in DTYPES.values()])),
    noun_text="number format",
)


def _whole_dim(key: str, label: str, unit: str) -> WholeNumber:
    """A matrix dimension: a whole number from 1 to the vocabulary's largest matrix size."""
    return WholeNumber(
        id=key, label=label, unit=unit, default=None, minimum=1, maximum=MAX_MATRIX_DIM, help=f"{label}."
    )


#: Tokens a matrix product processes, and features in and out.
_MATRIX_DIMS = (
    _whole_dim("m", "Tokens (rows of the activations)", "tokens"),
    _whole_dim("n", "Output features", "features"),
    _whole_dim("k", "Input features", "features"),
)
_ELEMENT_BYTES = Number(
    id="bytes_per_element",
    label="Bytes per element",
    unit="bytes",
    default=2,
    minimum=0.125,
    maximum=8,
    help="Storage size of one element (2 for fp16, 0.5 for int4).",
)


#: Marks a scenario that does not fit its devices' memory as a deliberate, hypothetical bound.
HYPOTHETICAL = OneOf(
    id="hypothetical",
    label="Hypothetical",
    default="no",
    help=(
        "yes: the scenario does not fit the devices' memory (weights plus KV cache) and the sentence"
        " says it is a hypothetical bound; without it such a scenario stops the build."
    ),
    choices=slugs(("no", "yes")),
)

#: Parts that one name quotes together: ``part=communication`` is its latency and transfer.
PART_GROUPS: dict[str, tuple[str, ...]] = {"communication": COMMUNICATION_LABELS}


class _PartList(ListOf):
    """``part=`` of a time: ``all`` (the default), or parts by label, separated by commas."""

    def parse(self, raw: Any):
        if isinstance(raw, str) and raw.strip() == "all":
            return [], None
        return super().parse(raw)

    def expected(self) -> str:
        return "all, or " + super().expected()

    def write(self, values) -> str:
        return super().write(values) if values else "all"


#: Quotes only some parts of a time, so a sentence about "the weight reads" shows exactly that
#: (roofline_site.glossary.composition checks the words around a figure against its parts).
PART = _PartList(
    OneOf(
        id="part",
        label="Part",
        default=None,
        help=(
            "Which parts of the time to show (their sum): all, or labels of "
            "roofline_core.estimates.parts separated by commas, or communication (its latency and"
            " transfer); a part this scenario does not have is refused."
        ),
        choices=slugs((*LABELS, *PART_GROUPS)),
    ),
    most=len(LABELS),
)


def _choice(key: str, values: tuple[str, ...], default: str | None, help: str) -> OneOf:
    return OneOf(id=key, label=key.capitalize(), default=default, help=help, choices=slugs(values))


def _sources(*items: Accelerator | Model | None) -> tuple[Source, ...]:
    seen: dict[str, Source] = {}
    for item in items:
        if item is not None:
            seen.setdefault(item.source.url + item.source.title, item.source)
    return tuple(seen.values())


# Accelerator quantities -----------------------------------------------------------------


def _for_dtype(lookup: Callable[[str], float], dtype: str) -> float:
    """``lookup(dtype)`` (a peak or ridge of an accelerator), its KeyError as a QuantityError."""
    try:
        return lookup(dtype)
    except KeyError as exc:
        raise QuantityError(f"{exc.args[0]}; expected a dtype the accelerator supports") from None


def _number(number: float, render: Callable[[float], str], *items: Accelerator | Model | None) -> Value:
    """A quantity that is one number: its text and the number itself, with the presets' sources."""
    return Value(render(number), _sources(*items), number=number)


def _peak(*, accelerator: Accelerator, dtype: str) -> Value:
    peak_flop_per_s = _for_dtype(accelerator.peak_for, dtype)
    text = format_flop_per_s(peak_flop_per_s)
    if accelerator.accumulate and dtype in ("fp16", "bf16", "fp8"):
        # GeForce parts run FP32 accumulation at half rate; the preset holds that rate.
        text += f" ({accelerator.accumulate} accumulate)"
    if accelerator.peak_basis != "vendor":
        # A measured or computed peak is less sure than a vendor's figure; the text says which.
        text += f" ({accelerator.peak_mark})"
    return Value(text, _sources(accelerator), number=peak_flop_per_s)


def _sparse_peak(*, accelerator: Accelerator, dtype: str) -> Value:
    # 2:4 structured sparsity skips half the multiplies, which spec sheets count as doubling the
    # rate; presets hold the dense figure, so the marketing number is twice it.
    return _number(2 * _for_dtype(accelerator.peak_for, dtype), format_flop_per_s, accelerator)


def _bandwidth(*, accelerator: Accelerator) -> Value:
    return _number(accelerator.bandwidth_bytes_per_s, format_bandwidth, accelerator)


def _measured_bandwidth(*, accelerator: Accelerator) -> Value:
    # The achievable roof: what a cited copy/STREAM-like run reached, cited to that run, never to
    # the datasheet (hardware.measured_ceilings).
    measured = accelerator.measured_bandwidth_bytes_per_s
    if measured is None or accelerator.measured_bandwidth_source is None:
        having = ", ".join(a.slug for a in ACCELERATORS.values() if a.measured_bandwidth_bytes_per_s)
        raise QuantityError(f"{accelerator.name} has no cited bandwidth measurement; expected one of: {having}")
    share = measured / accelerator.bandwidth_bytes_per_s
    text = f"{format_bandwidth(measured)} ({format_percent(share)} of the datasheet's {format_bandwidth(accelerator.bandwidth_bytes_per_s)})"
    return Value(text, (accelerator.measured_bandwidth_source,), number=measured)


def _peak_basis(*, accelerator: Accelerator) -> Value:
    return Value(PEAK_BASIS_WORDS[accelerator.peak_basis], _sources(accelerator))


def _memory_capacity(*, accelerator: Accelerator) -> Value:
    # As the device exposes it (binary); the source quote says how the vendor wrote it.
    return _number(accelerator.memory_bytes, format_capacity, accelerator)


def _memory_kind(*, accelerator: Accelerator) -> Value:
    return Value(accelerator.memory_kind, _sources(accelerator))


def _with_link(accelerator: Accelerator) -> float:
    if not accelerator.interconnect_bandwidth_bytes_per_s:
        having = ", ".join(a.slug for a in ACCELERATORS.values() if a.interconnect_bandwidth_bytes_per_s)
        raise QuantityError(f"{accelerator.name} has no interconnect figure in its sources; expected one of: {having}")
    return accelerator.interconnect_bandwidth_bytes_per_s


def _interconnect_bandwidth(*, accelerator: Accelerator, per: str) -> Value:
    # Sheets differ in whether they quote both directions together; "per=direction" applies the
    # site's one reading of each preset's wording (roofline_core.estimates.communication).
    if per == "direction":
        _with_link(accelerator)
        figure = link_bandwidth_per_direction_bytes_per_s(accelerator)
        return Value(f"{format_bandwidth(figure)} per direction", _sources(accelerator), number=figure)
    return _number(_with_link(accelerator), format_bandwidth, accelerator)


def _interconnect_kind(*, accelerator: Accelerator) -> Value:
    return Value(accelerator.interconnect_kind or "none stated", _sources(accelerator))


def _board_power(*, accelerator: Accelerator) -> Value:
    if not accelerator.board_power_w:
        having = ", ".join(a.slug for a in ACCELERATORS.values() if a.board_power_w)
        raise QuantityError(f"{accelerator.name} has no board power in its sources; expected one of: {having}")
    return _number(accelerator.board_power_w, lambda watts: f"{format_number(watts)} W", accelerator)


def _accelerator_name(*, accelerator: Accelerator) -> Value:
    return Value(accelerator.name, _sources(accelerator))


def _ridge_point(*, accelerator: Accelerator, dtype: str) -> Value:
    return _number(_for_dtype(accelerator.ridge_point, dtype), format_intensity, accelerator)


#: The math format of :func:`_critical_batch`: the estimates' "auto" rule, keyed ``dtype`` as
#: the other accelerator quantities' format is.
_CRITICAL_MATH = replace(MATH_DTYPE, id="dtype")


def _critical_batch(*, accelerator: Accelerator, weight_dtype: str, dtype: str) -> Value:
    # ``dtype`` is the format of the math; "auto" is the estimates' rule (what engines run these
    # weights on: FP8 weights on an H100's FP8 peak, INT8 and INT4 widened to 16 bits), so the
    # critical batch matches the decode estimates beside it.
    math = resolve_compute_dtype(dtype, weight_dtype, accelerator)
    batch = critical_batch(
        peak_flop_per_s=_for_dtype(accelerator.peak_for, math),
        bandwidth_bytes_per_s=accelerator.bandwidth_bytes_per_s,
        weight_bytes_per_element=bytes_per_element(weight_dtype),
    )
    return _number(batch, format_number, accelerator)


def _attainable(*, accelerator: Accelerator, intensity: float, dtype: str) -> Value:
    value = attainable_flop_per_s(
        intensity_flop_per_byte=intensity,
        peak_flop_per_s=accelerator.peak_for(dtype),
        bandwidth_bytes_per_s=accelerator.bandwidth_bytes_per_s,
    )
    return _number(value, format_flop_per_s, accelerator)


def _bytes_per_element(*, dtype: str) -> Value:
    size = bytes_per_element(dtype)
    return Value(f"{_plain(size)} byte" + ("" if size == 1 else "s"), number=size)


# Model quantities -----------------------------------------------------------------------


def _params(*, model: Model, kind: str) -> Value:
    count = {
        "total": model.total_params,
        "active": model.active_params_per_token,
        "streamed": model.streamed_params_per_token,
    }[kind]
    return _number(count, format_count, model)


def _weight_bytes(*, model: Model, dtype: str) -> Value:
    return _number(model.weight_bytes(dtype), format_bytes, model)


def _kv_bytes_per_token(*, model: Model, kv_dtype: str) -> Value:
    return _number(model.kv_bytes_per_token(kv_dtype), format_bytes, model)


def _state_bytes_per_sequence(*, model: Model) -> Value:
    return _number(model.state_bytes_per_sequence, format_bytes, model)


def _kv_cache_bytes(*, model: Model, context_tokens: int, batch: int, kv_dtype: str) -> Value:
    return _number(
        model.kv_cache_bytes(context_tokens=context_tokens, batch=batch, kv_dtype=kv_dtype), format_bytes, model
    )


# Decode and prefill ---------------------------------------------------------------------


def _model_or_params(model: Model | None, params: float | None, context_tokens: int = 0) -> AnyModel:
    """The preset, or a :class:`CustomModel` of ``params`` streamed parameters (weights only)."""
    if model is not None:
        return model
    if context_tokens:
        raise QuantityError(
            "parameter 'context_tokens' needs a model preset; expected model=<slug> with context_tokens="
        )
    return CustomModel(streamed_params_per_token=params)


def _decode(
    *,
    accelerator: Accelerator,
    model: Model | None,
    params: float | None,
    batch: int,
    context_tokens: int,
    devices: int,
    weight_dtype: str,
    kv_dtype: str,
    bandwidth_efficiency: float,
    compute_dtype: str,
    parallelism: str = TENSOR,
):
    """A decode step of a preset model, or of a model known only by its size (weights only).

    ``bandwidth_efficiency`` is in percent, as typed (the calculators' unit).
    """
    return _decode_estimate(
        accelerator=accelerator,
        model=model,
        params=params,
        batch=batch,
        context_tokens=context_tokens,
        devices=devices,
        weight_dtype=weight_dtype,
        kv_dtype=kv_dtype,
        bandwidth_efficiency=bandwidth_efficiency,
        compute_dtype=compute_dtype,
        parallelism=parallelism,
    ).step


def _decode_estimate(
    *,
    accelerator: Accelerator,
    model: Model | None,
    params: float | None,
    batch: int,
    context_tokens: int,
    devices: int,
    weight_dtype: str,
    kv_dtype: str,
    bandwidth_efficiency: float,
    compute_dtype: str,
    parallelism: str = TENSOR,
):
    """The whole decode estimate (speed of light and the realistic figure) of :func:`_decode`'s scenario."""
    return estimate_decode(
        parallelism=parallelism,
        model=_model_or_params(model, params, context_tokens),
        accelerator=accelerator,
        weight_dtype=weight_dtype,
        kv_dtype=kv_dtype,
        batch=batch,
        context_tokens=context_tokens,
        devices=devices,
        bandwidth_efficiency=bandwidth_efficiency / 100,
        compute_dtype=compute_dtype,
    )


def _expected_rate(estimate: Any) -> float:
    return estimate.expected_tokens_per_s_per_sequence


def _expected_rate_text(estimate: Any) -> str:
    low, high = estimate.expected_range_tokens_per_s_per_sequence
    return (
        f"{format_tokens_per_s(estimate.expected_tokens_per_s_per_sequence)} "
        f"({format_tokens_per_s(low)} to {format_tokens_per_s(high)})"
    )


def _expected_ttft_text(estimate: Any) -> str:
    fast_s, slow_s = estimate.expected_range_ttft_s
    return f"{format_time(estimate.expected_ttft_s)} ({format_time(fast_s)} to {format_time(slow_s)})"


def _prefill(
    *,
    accelerator: Accelerator,
    model: Model | None,
    params: float | None,
    prompt_tokens: int,
    batch: int,
    devices: int,
    weight_dtype: str,
    bandwidth_efficiency: float,
    compute_dtype: str,
    parallelism: str = TENSOR,
):
    """A prefill pass; ``bandwidth_efficiency`` in percent, as typed."""
    return estimate_prefill(
        parallelism=parallelism,
        model=_model_or_params(model, params),
        accelerator=accelerator,
        prompt_tokens=prompt_tokens,
        weight_dtype=weight_dtype,
        batch=batch,
        devices=devices,
        bandwidth_efficiency=bandwidth_efficiency / 100,
        compute_dtype=compute_dtype,
    )


def _decode_memory(
    *,
    accelerator: Accelerator,
    model: Model | None,
    params: float | None,
    batch: int,
    context_tokens: int,
    devices: int,
    weight_dtype: str,
    kv_dtype: str,
    **_: Any,
) -> MemoryFit:
    """Weights and the KV cache of the whole batch at ``context_tokens``, on ``devices``."""
    return memory_fit(
        model=_model_or_params(model, params, context_tokens),
        accelerator=accelerator,
        weight_dtype=weight_dtype,
        kv_dtype=kv_dtype,
        batch=batch,
        context_tokens=context_tokens,
        devices=devices,
    )


def _prefill_memory(
    *,
    accelerator: Accelerator,
    model: Model | None,
    params: float | None,
    prompt_tokens: int,
    batch: int,
    devices: int,
    weight_dtype: str,
    **_: Any,
) -> MemoryFit:
    """Weights and the KV cache the prompts leave behind; weights only for a raw ``params``
    count, whose KV shape is unknown."""
    return memory_fit(
        model=_model_or_params(model, params),
        accelerator=accelerator,
        weight_dtype=weight_dtype,
        batch=batch,
        context_tokens=prompt_tokens if model is not None else 0,
        devices=devices,
    )


#: What a step quantity's number is: a time (it has parts), a rate inverting the step time (it
#: shows that time's parts), or another figure of the step (no parts).
TIME, RATE, OTHER = "time", "rate", "other"


def _step_quantity(
    step_of: Callable[..., Any],
    number_of: Callable[..., float | None],
    render: Callable[[float], str],
    *,
    kind: str = OTHER,
    inverts: str = "",
    describe: Callable[[Any], str] | None = None,
) -> Callable[..., Value]:
    """A quantity that renders one step of :func:`_decode` or :func:`_prefill` (``per`` goes to ``number_of``).

    ``number_of(step)`` gives the number in SI units (None for a word such as the bound, which
    ``render`` then takes the step for); a time carries the step's parts, and a rate the parts
    of the time it inverts, named by ``inverts``. ``describe(step)``, when given, writes the text
    instead (a realistic figure with its range).
    """

    def compute(
        *, accelerator: Accelerator, model: Model | None = None, params: float | None = None, **rest: Any
    ) -> Value:
        extra = {k: rest.pop(k) for k in ("per",) if k in rest}
        chosen = rest.pop(PART.id, [])
        step = step_of(accelerator=accelerator, model=model, params=params, **rest)
        number = number_of(step, **extra)
        parts, working = (step.parts, step.working) if kind in (TIME, RATE) else ((), ())
        if chosen:
            parts, working = _chosen_parts(parts, working, chosen)
            number = sum(p.seconds for p in parts)
        text = describe(step) if describe else render(step) if number is None else render(number)
        return Value(
            text,
            _sources(accelerator, model),
            number=number,
            parts=parts,
            working=working,
            inverts=inverts if kind == RATE else "",
        )

    return compute


def _chosen_parts(parts: tuple[Part, ...], working, chosen: list[str]) -> tuple[tuple[Part, ...], Any]:
    """The parts ``part=`` names, in their usual order, with their working.

    Raises:
        QuantityError: for a part the scenario does not have (it would show 0 s).
    """
    labels = {label for name in chosen for label in PART_GROUPS.get(name, (name,))}
    present = {p.label for p in parts if p.seconds > 0}
    missing = [name for name in chosen if not set(PART_GROUPS.get(name, (name,))) & present]
    if missing:
        has = ", ".join(p.label for p in parts if p.seconds > 0)
        raise QuantityError(
            f"parameter 'part': this scenario's time has no '{missing[0]}' part; expected one it has: {has}"
        )
    return (
        tuple(p for p in parts if p.label in labels),
        tuple((label, text) for label, text in working if label in labels),
    )


def _tokens_per_s(step, *, per: str = "batch") -> float:
    # A decode step yields one token per sequence: a single sequence sees 1 / step time.
    return step.tokens_per_s if per == "batch" else 1.0 / step.step_time_s


def _step_time(step) -> float:
    return step.step_time_s


# Matrix products and operations ---------------------------------------------------------


def _matmul(what: str) -> Callable[..., Value]:
    def compute(*, m: int, n: int, k: int, bytes_per_element: float) -> Value:
        cost = matmul_cost(
            m=m, n=n, k=k, weight_bytes_per_element=bytes_per_element, activation_bytes_per_element=bytes_per_element
        )
        return Value(_cost_text(cost, what, exact=False), number=_cost_number(cost, what))

    return compute


def _matvec_exact(*, rows: int, cols: int, bytes_per_element: float, what: str) -> Value:
    cost = matvec_exact_cost(rows=rows, cols=cols, bytes_per_element=bytes_per_element)
    # Hand-sized examples read best as plain counts ("9 FLOPs", "16 bytes"), not "9.00 FLOP".
    number = _cost_number(cost, what)
    if what == "flops" and cost.flops < 1000 and cost.flops == int(cost.flops):
        return Value(f"{int(cost.flops)} FLOPs", number=number)
    if what == "bytes" and cost.bytes_moved < 1000 and cost.bytes_moved == int(cost.bytes_moved):
        return Value(f"{int(cost.bytes_moved)} bytes", number=number)
    return Value(_cost_text(cost, what, exact=True), number=number)


def _cost_number(cost, what: str) -> float:
    """FLOPs, bytes or FLOP/byte of a matrix product's cost, as ``what`` names."""
    return {"flops": cost.flops, "bytes": cost.bytes_moved}.get(what, cost.intensity_flop_per_byte)


def _cost_text(cost, what: str, *, exact: bool) -> str:
    if what == "flops":
        return format_flops(cost.flops)
    if what == "bytes":
        return format_bytes(cost.bytes_moved)
    # Small hand-sized examples (seed 003's 9 FLOPs over 16 bytes) need more than 3 figures
    # to show the exact ratio, so intensity keeps up to 4 decimals when below 1.
    value = cost.intensity_flop_per_byte
    if exact and value < 1:
        return f"{value:.4f}".rstrip("0").rstrip(".") + " FLOP/byte"
    return format_intensity(value)


def _operation(
    *,
    operation: str,
    model: Model,
    accelerator: Accelerator,
    what: str,
    batch: int,
    prompt_tokens: int,
    context_tokens: int,
) -> Value:
    ops = operations_catalogue(
        accelerator=accelerator, model=model, batch=batch, prompt_tokens=prompt_tokens, context_tokens=context_tokens
    )
    op = next(o for o in ops if o.slug == operation)
    number: float | None
    if what == "bound":
        text, number = bound_phrase(op.bound), None
    elif what == "flops":
        text, number = format_flops(op.flops), op.flops
    elif what == "bytes":
        text, number = format_bytes(op.bytes_moved), op.bytes_moved
    else:
        text, number = format_intensity(op.intensity_flop_per_byte), op.intensity_flop_per_byte
    return Value(text, _sources(accelerator, model), number=number)


def _step_parameters(*extra: Declaration) -> tuple[Declaration, ...]:
    return (
        _ACCELERATOR,
        *_MODEL_OR_PARAMS,
        *extra,
        DEVICES,
        WEIGHT_DTYPE,
        MATH_DTYPE,
        BANDWIDTH_EFFICIENCY,
        HYPOTHETICAL,
    )


def _parallelism(values: tuple[str, ...]) -> OneOf:
    """How ``devices`` share the work; expert parallelism pays all-to-alls, not all-reduces."""
    return _choice(
        "parallelism",
        values,
        TENSOR,
        "How the devices share the work: tensor (two all-reduces per layer), "
        + ("pipeline (layers in stages), " if PIPELINE in values else "")
        + "or expert (an MoE model's experts spread over them, two all-to-alls per MoE layer).",
    )


_DECODE_PARAMETERS = _step_parameters(BATCH, CONTEXT_TOKENS, KV_DTYPE, _parallelism((TENSOR, PIPELINE, EXPERT)))
_PREFILL_PARAMETERS = _step_parameters(PROMPT_TOKENS.variant(default=None), BATCH, _parallelism((TENSOR, EXPERT)))
_COST_PARAMETERS = (*_MATRIX_DIMS, _ELEMENT_BYTES)


def _q(
    name: str, description: str, parameters: tuple[Declaration, ...], compute, requires_one_of=(), memory_scenario=None
) -> Quantity:
    return Quantity(name, description, parameters, compute, requires_one_of, _EXAMPLES[name], memory_scenario)


#: The reference the docs show for each quantity, with its output computed.
_EXAMPLES: dict[str, str] = {
    "peak_flop_per_s": "peak_flop_per_s accelerator=h100-sxm",
    "sparse_peak_flop_per_s": "sparse_peak_flop_per_s accelerator=h100-sxm",
    "bandwidth": "bandwidth accelerator=h100-sxm",
    "measured_bandwidth": "measured_bandwidth accelerator=h100-sxm",
    "peak_basis": "peak_basis accelerator=rtx-4070",
    "memory_capacity": "memory_capacity accelerator=h100-sxm",
    "memory_kind": "memory_kind accelerator=h100-sxm",
    "accelerator_name": "accelerator_name accelerator=h100-sxm",
    "interconnect_bandwidth": "interconnect_bandwidth accelerator=h100-sxm",
    "interconnect_kind": "interconnect_kind accelerator=h100-sxm",
    "board_power": "board_power accelerator=h100-sxm",
    "ridge_point": "ridge_point accelerator=h100-sxm",
    "critical_batch": "critical_batch accelerator=h100-sxm",
    "attainable_flop_per_s": "attainable_flop_per_s accelerator=h100-sxm intensity=1",
    "bytes_per_element": "bytes_per_element dtype=fp16",
    "params": "params model=llama-3-8b",
    "weight_bytes": "weight_bytes model=llama-3-8b",
    "kv_bytes_per_token": "kv_bytes_per_token model=llama-3-8b",
    "kv_cache_bytes": "kv_cache_bytes model=llama-3-70b context_tokens=32k",
    "state_bytes_per_sequence": "state_bytes_per_sequence model=qwen3.5-35b-a3b",
    "decode_step_time": "decode_step_time params=8e9 accelerator=h100-sxm",
    "decode_tokens_per_s": "decode_tokens_per_s params=8e9 accelerator=h100-sxm",
    "decode_intensity": "decode_intensity params=8e9 accelerator=h100-sxm",
    "expected_decode_tokens_per_s": "expected_decode_tokens_per_s model=llama-3-8b accelerator=h100-sxm",
    "expected_ttft": "expected_ttft model=llama-3-8b accelerator=h100-sxm prompt_tokens=2048",
    "decode_bound": "decode_bound params=8e9 accelerator=h100-sxm",
    "decode_utilisation": "decode_utilisation params=8e9 accelerator=h100-sxm",
    "prefill_time": "prefill_time params=8e9 accelerator=h100-sxm prompt_tokens=2048",
    "prefill_tokens_per_s": "prefill_tokens_per_s params=8e9 accelerator=h100-sxm prompt_tokens=2048",
    "prefill_intensity": "prefill_intensity params=8e9 accelerator=h100-sxm prompt_tokens=2048",
    "prefill_bound": "prefill_bound params=8e9 accelerator=h100-sxm prompt_tokens=2048",
    "prefill_utilisation": "prefill_utilisation params=8e9 accelerator=h100-sxm prompt_tokens=2048",
    "matmul_flops": "matmul_flops m=1 n=8192 k=8192",
    "matmul_bytes": "matmul_bytes m=1 n=8192 k=8192",
    "matmul_intensity": "matmul_intensity m=1 n=8192 k=8192",
    "matvec_exact": "matvec_exact rows=3 cols=2",
    "operation": "operation operation=decode-gemm-batched model=llama-3-70b accelerator=h100-sxm",
}


_MODEL_OR_PARAMS_NAMES = ("model", "params")

QUANTITIES: dict[str, Quantity] = {
    q.name: q
    for q in (
        _q("peak_flop_per_s", "Dense peak compute of an accelerator, in FLOP/s.", (_ACCELERATOR, COMPUTE_DTYPE), _peak),
        _q(
            "sparse_peak_flop_per_s",
            "The 'with sparsity' peak a spec sheet quotes: twice the dense peak, in FLOP/s.",
            (_ACCELERATOR, COMPUTE_DTYPE),
            _sparse_peak,
        ),
        _q("bandwidth", "Peak memory bandwidth of an accelerator, in bytes/s.", (_ACCELERATOR,), _bandwidth),
        _q(
            "measured_bandwidth",
            "Memory bandwidth a cited copy or STREAM-like run reached on an accelerator (the achievable roof),"
            " in bytes/s, with its share of the datasheet's.",
            (_ACCELERATOR,),
            _measured_bandwidth,
        ),
        _q("peak_basis", "How an accelerator's peak was obtained, so how sure it is.", (_ACCELERATOR,), _peak_basis),
        _q("memory_capacity", "Memory capacity of an accelerator, in bytes.", (_ACCELERATOR,), _memory_capacity),
        _q("memory_kind", "What an accelerator's memory is (HBM3, GDDR6X...).", (_ACCELERATOR,), _memory_kind),
        _q("accelerator_name", "Display name of an accelerator preset.", (_ACCELERATOR,), _accelerator_name),
        _q(
            "interconnect_bandwidth",
            "Device-to-device link bandwidth as the sheet states it (per=sheet), or one direction of it"
            " (per=direction), in bytes/s.",
            (_ACCELERATOR, _choice("per", ("sheet", "direction"), "sheet", "The sheet's figure, or one direction.")),
            _interconnect_bandwidth,
        ),
        _q("interconnect_kind", "Name of an accelerator's device-to-device link.", (_ACCELERATOR,), _interconnect_kind),
        _q("board_power", "Board (or module) power of an accelerator, in watts.", (_ACCELERATOR,), _board_power),
        _q("ridge_point", "Peak compute over bandwidth, in FLOP/byte.", (_ACCELERATOR, COMPUTE_DTYPE), _ridge_point),
        _q(
            "critical_batch",
            "Decode batch at which weight streaming reaches the ridge point of the math's format (sequences).",
            (_ACCELERATOR, WEIGHT_DTYPE, _CRITICAL_MATH),
            _critical_batch,
        ),
        _q(
            "attainable_flop_per_s",
            "The roofline: min(peak, bandwidth x intensity) at a given intensity, in FLOP/s.",
            (_ACCELERATOR, INTENSITY.variant(default=None), COMPUTE_DTYPE),
            _attainable,
        ),
        _q("bytes_per_element", "Storage size of one element of a number format.", (_ANY_DTYPE,), _bytes_per_element),
        _q(
            "params",
            "Parameter count of a model: total, active per token, or streamed per decode token.",
            (_MODEL_REQUIRED, _choice("kind", ("total", "active", "streamed"), "total", "Which count.")),
            _params,
        ),
        _q(
            "weight_bytes",
            "Bytes to hold every weight of a model, in bytes.",
            (_MODEL_REQUIRED, _STORAGE_DTYPE),
            _weight_bytes,
        ),
        _q(
            "kv_bytes_per_token",
            "KV-cache bytes one token adds, in bytes.",
            (_MODEL_REQUIRED, KV_DTYPE),
            _kv_bytes_per_token,
        ),
        _q(
            "state_bytes_per_sequence",
            "Fixed recurrent state one sequence of a hybrid model holds whatever its length, in bytes.",
            (_MODEL_REQUIRED,),
            _state_bytes_per_sequence,
        ),
        _q(
            "kv_cache_bytes",
            "KV cache (with a hybrid model's fixed state) of a batch of sequences at a context length, in bytes.",
            (_MODEL_REQUIRED, CONTEXT_TOKENS.variant(default=None, minimum=1), BATCH, KV_DTYPE),
            _kv_cache_bytes,
        ),
        _q(
            "decode_step_time",
            "Time of one decode step (every sequence gains a token), in seconds.",
            (*_DECODE_PARAMETERS, PART),
            _step_quantity(_decode, _step_time, format_time, kind=TIME),
            _MODEL_OR_PARAMS_NAMES,
            _decode_memory,
        ),
        _q(
            "decode_tokens_per_s",
            "Decode throughput, in tokens/s: over the batch (per=batch) or as one sequence sees it (per=sequence).",
            (
                *_DECODE_PARAMETERS,
                _choice("per", ("batch", "sequence"), "batch", "Whose rate: the whole batch or one sequence."),
            ),
            _step_quantity(_decode, _tokens_per_s, format_tokens_per_s, kind=RATE, inverts="decode step time"),
            _MODEL_OR_PARAMS_NAMES,
            _decode_memory,
        ),
        _q(
            "expected_decode_tokens_per_s",
            "The realistic decode speed one sequence sees, in tokens/s, with its 80% range: the speed of "
            "light at the shares of peak, fixed cost and communication fitted on published runs of its "
            "regime (weight format, engine kind, devices).",
            _DECODE_PARAMETERS,
            _step_quantity(_decode_estimate, _expected_rate, format_tokens_per_s, describe=_expected_rate_text),
            _MODEL_OR_PARAMS_NAMES,
            _decode_memory,
        ),
        _q(
            "decode_intensity",
            "Arithmetic intensity of a decode step, in FLOP/byte.",
            _DECODE_PARAMETERS,
            _step_quantity(_decode, lambda s: s.intensity_flop_per_byte, format_intensity),
            _MODEL_OR_PARAMS_NAMES,
            _decode_memory,
        ),
        _q(
            "decode_bound",
            "Which roof limits a decode step: 'memory-bound' or 'compute-bound'.",
            _DECODE_PARAMETERS,
            _step_quantity(_decode, lambda s: None, lambda s: bound_phrase(s.bound)),
            _MODEL_OR_PARAMS_NAMES,
            _decode_memory,
        ),
        _q(
            "decode_utilisation",
            "Achieved FLOP/s of a decode step as a share of peak (model FLOPs utilisation).",
            _DECODE_PARAMETERS,
            _step_quantity(_decode, lambda s: s.compute_utilisation, format_percent),
            _MODEL_OR_PARAMS_NAMES,
            _decode_memory,
        ),
        _q(
            "prefill_time",
            "Time to process whole prompts in one pass (time to first token when idle), in seconds.",
            (*_PREFILL_PARAMETERS, PART),
            _step_quantity(_prefill, _step_time, format_time, kind=TIME),
            _MODEL_OR_PARAMS_NAMES,
            _prefill_memory,
        ),
        _q(
            "prefill_tokens_per_s",
            "Prompt tokens processed per second during prefill, in tokens/s.",
            _PREFILL_PARAMETERS,
            _step_quantity(_prefill, lambda s: s.tokens_per_s, format_tokens_per_s, kind=RATE, inverts="prefill time"),
            _MODEL_OR_PARAMS_NAMES,
            _prefill_memory,
        ),
        _q(
            "expected_ttft",
            "The realistic time to first token of an idle server, in seconds, with its 80% range, from "
            "published runs of its regime.",
            _PREFILL_PARAMETERS,
            _step_quantity(_prefill, lambda e: e.expected_ttft_s, format_time, describe=_expected_ttft_text),
            _MODEL_OR_PARAMS_NAMES,
            _prefill_memory,
        ),
        _q(
            "prefill_intensity",
            "Arithmetic intensity of a prefill pass, in FLOP/byte.",
            _PREFILL_PARAMETERS,
            _step_quantity(_prefill, lambda s: s.intensity_flop_per_byte, format_intensity),
            _MODEL_OR_PARAMS_NAMES,
            _prefill_memory,
        ),
        _q(
            "prefill_bound",
            "Which roof limits a prefill pass: 'memory-bound' or 'compute-bound'.",
            _PREFILL_PARAMETERS,
            _step_quantity(_prefill, lambda s: None, lambda s: bound_phrase(s.bound)),
            _MODEL_OR_PARAMS_NAMES,
            _prefill_memory,
        ),
        _q(
            "prefill_utilisation",
            "Achieved FLOP/s of a prefill pass as a share of peak.",
            _PREFILL_PARAMETERS,
            _step_quantity(_prefill, lambda s: s.compute_utilisation, format_percent),
            _MODEL_OR_PARAMS_NAMES,
            _prefill_memory,
        ),
        _q("matmul_flops", "FLOPs of an m x k by k x n product (2mnk).", _COST_PARAMETERS, _matmul("flops")),
        _q(
            "matmul_bytes",
            "Bytes an m x k by k x n product moves (weights, input, output).",
            _COST_PARAMETERS,
            _matmul("bytes"),
        ),
        _q(
            "matmul_intensity",
            "Arithmetic intensity of an m x k by k x n product, in FLOP/byte.",
            _COST_PARAMETERS,
            _matmul("intensity"),
        ),
        _q(
            "matvec_exact",
            "A small matrix-vector product counted exactly (2k - 1 FLOPs per output, loads only).",
            (
                _whole_dim("rows", "Rows of the matrix (outputs)", "rows"),
                _whole_dim("cols", "Columns of the matrix (inputs)", "columns"),
                _choice("what", ("flops", "bytes", "intensity"), "intensity", "Which figure."),
                _ELEMENT_BYTES,
            ),
            _matvec_exact,
        ),
        _q(
            "operation",
            "FLOPs, bytes, intensity or bound of one LLM operation from the operations table.",
            (
                _choice("operation", OPERATION_SLUGS, None, "An operation of the operations table."),
                _MODEL_REQUIRED,
                _ACCELERATOR,
                _choice("what", ("intensity", "bound", "flops", "bytes"), "intensity", "Which figure."),
                BATCH.variant(default=64),
                PROMPT_TOKENS,
                CONTEXT_TOKENS.variant(default=4096, minimum=1),
            ),
            _operation,
        ),
    )
}


#: The quantities that are a time, or a rate that inverts one, each with the time quantity whose
#: parts it carries (``Value.parts``; for a rate, ``Value.inverts`` names that time).
TIMES: dict[str, str] = {
    "decode_step_time": "decode_step_time",
    "decode_tokens_per_s": "decode_step_time",
    "prefill_time": "prefill_time",
    "prefill_tokens_per_s": "prefill_time",
}


def evaluate(name: str, arguments: Mapping[str, str]) -> Value:
    """Compute the quantity ``name`` from typed ``arguments``.

    Args:
        name: A key of :data:`QUANTITIES`.
        arguments: Parameter key (a declaration's id) to the text typed for it.

    Returns:
        The formatted :class:`Value`; for a quantity with a memory scenario, with its
        ``memory`` fit and whether it was marked ``hypothetical=yes``.

    Raises:
        QuantityError: for an unknown quantity, an unknown, missing or bad parameter, or a
            combination the formulas reject; the message says what was expected.
    """
    quantity = QUANTITIES.get(name)
    if quantity is None:
        raise QuantityError(
            f"unknown quantity '{name}'{suggestion(name, tuple(QUANTITIES))}; expected one of: {', '.join(QUANTITIES)}"
        )
    known = {p.id: p for p in quantity.parameters}
    unknown = [key for key in arguments if key not in known]
    if unknown:
        raise QuantityError(
            f"unknown parameter '{unknown[0]}' for quantity '{name}'{suggestion(unknown[0], tuple(known))};"
            f" expected: {quantity.signature()}"
        )
    if quantity.requires_one_of:
        given = [key for key in quantity.requires_one_of if key in arguments]
        if len(given) != 1:
            options = " or ".join(f"{key}=" for key in quantity.requires_one_of)
            raise QuantityError(f"quantity '{name}' needs exactly one of {options}; expected: {quantity.signature()}")
    values: dict[str, Any] = {}
    for parameter in quantity.parameters:
        if parameter.id in arguments:
            parsed, invalid = parameter.parse(arguments[parameter.id])
            if invalid is not None:
                raise QuantityError(f"parameter '{parameter.id}' of quantity '{name}': {invalid}")
            values[parameter.id] = _PRESETS.get(parameter.id, _same)(parsed)
        elif parameter.id in quantity.requires_one_of:
            values[parameter.id] = None  # the alternative given instead (model= or params=)
        elif parameter.default is None:
            raise QuantityError(
                f"missing parameter '{parameter.id}' for quantity '{name}'; expected: {quantity.signature()}"
            )
        else:
            values[parameter.id] = _PRESETS.get(parameter.id, _same)(parameter.default)
    hypothetical = values.pop(HYPOTHETICAL.id, "no") == "yes"
    try:
        value = quantity.compute(**values)
        if quantity.memory_scenario is None:
            return value
        return replace(value, memory=quantity.memory_scenario(**values), hypothetical=hypothetical)
    except QuantityError:
        raise
    except (ValueError, KeyError) as exc:
        # The formula layer validates its inputs; repeat its reason in the reference's terms.
        reason = exc.args[0] if exc.args else type(exc).__name__
        raise QuantityError(
            f"quantity '{name}' cannot be computed ({reason}); expected parameters the formulas accept"
        ) from None


def _same(value: Any) -> Any:
    return value


#: Parameters whose slug the compute functions take as the preset itself.
_PRESETS: dict[str, Callable[[str], Any]] = {"accelerator": ACCELERATORS.__getitem__, "model": MODELS.__getitem__}


def parse_reference(text: str) -> tuple[str, dict[str, str]]:
    """Split ``"name key=value key=value"`` into the name and the typed arguments.

    Raises:
        QuantityError: for an empty reference, a part without ``=``, or a repeated key.
    """
    parts = text.split()
    if not parts:
        raise QuantityError("empty quantity reference; expected a name such as 'ridge_point accelerator=h100-sxm'")
    name, arguments = parts[0], {}
    for part in parts[1:]:
        key, sep, value = part.partition("=")
        if not sep or not key or not value:
            raise QuantityError(f"'{part}' in quantity '{name}' is not key=value; expected e.g. accelerator=h100-sxm")
        if key in arguments:
            raise QuantityError(f"parameter '{key}' is given twice in quantity '{name}'; expected each parameter once")
        arguments[key] = value
    return name, arguments


@functools.lru_cache(maxsize=4096)
def evaluate_reference(text: str) -> Value:
    """Evaluate a whole reference such as ``"ridge_point accelerator=h100-sxm"``.

    Kept per reference text (a build asks for each one several times: the page, its checks, its
    sources and its reproduce section); a :class:`Value` is frozen, and an error is not kept.
    """
    name, arguments = parse_reference(text)
    return evaluate(name, arguments)


def scenario_words(text: str) -> str:
    """What a reference computes and for which scenario, in words, for readers without the page.

    The quantity's description, then every parameter it was given or defaulted to, by label
    (presets by their display names), so a figure quoted away from the page (a Markdown twin,
    llms-full.txt) still says what it assumes::

        >>> scenario_words("ridge_point accelerator=h100-sxm")
        'Peak compute over bandwidth, in FLOP/byte. Accelerator: NVIDIA H100 SXM; precision: FP16.'

    Raises:
        QuantityError: for a reference :func:`evaluate_reference` refuses.
    """
    evaluate_reference(text)  # the same errors, in the same words, as the number itself
    name, arguments = parse_reference(text)
    quantity = QUANTITIES[name]
    said = []
    for parameter in quantity.parameters:
        typed = arguments.get(parameter.id)
        if typed is None and (parameter.default is None or parameter.id in (HYPOTHETICAL.id, PART.item.id)):
            continue  # not given: the alternative was (model= or params=), or it changes nothing
        value, _invalid = parameter.parse(typed if typed is not None else parameter.write(parameter.default))
        label = parameter.label
        # "Batch size" reads "batch size" mid-sentence; "KV cache format" keeps its capitals.
        label = label[0].lower() + label[1:] if label[1:2].islower() else label
        said.append(f"{label}: {_in_words(parameter, value)}")
    if not said:
        return quantity.description
    first = said[0][0].upper() + said[0][1:]
    return f"{quantity.description} {'; '.join([first, *said[1:]])}."


def _in_words(parameter: Any, value: Any) -> str:
    """A parsed parameter value as a reader would say it (a preset's name, a number and its unit)."""
    if isinstance(parameter, OneOf):
        return {c.value: c.label for c in parameter.choices}.get(value, str(value))
    if isinstance(parameter, ListOf):
        return ", ".join(_in_words(parameter.item, item) for item in value) if value else "all"
    if isinstance(parameter, Number):
        unit = getattr(parameter, "unit", "")
        shown = _plain(value)
        return f"{shown}{unit}" if unit == "%" else f"{shown} {unit}".rstrip()
    return str(value)


# Documentation --------------------------------------------------------------------------


def reference_table() -> str:
    """The Markdown table of every quantity, its parameters and an example with its output.

    docs/authoring-terms.md holds this table; a test fails when the two disagree.
    """
    rows = ["| quantity | what it is | parameters (defaults after `=`) | example | gives |", "|---|---|---|---|---|"]
    for q in QUANTITIES.values():
        parts, alternatives = [], [f"`{key}`" for key in q.requires_one_of]
        for p in q.parameters:
            if p.id in q.requires_one_of:
                if p.id == q.requires_one_of[0]:
                    parts.append(" or ".join(alternatives))
            elif p.default is None:
                parts.append(f"`{p.id}`")
            else:
                parts.append(f"`{p.id}={p.write(p.default)}`")
        example = "{{ " + q.example + " }}"
        rows.append(
            f"| `{q.name}` | {q.description} | {', '.join(parts)} | `{example}` | {evaluate_reference(q.example).text} |"
        )
    return "\n".join(rows) + "\n"


def parameters_table() -> str:
    """The Markdown table of every parameter key: what it accepts and which quantities take it."""
    seen: dict[tuple[str, str], tuple[Declaration, list[str]]] = {}
    for q in QUANTITIES.values():
        for p in q.parameters:
            seen.setdefault((p.id, p.expected()), (p, []))[1].append(q.name)
    rows = ["| key | accepts | what it is | quantities |", "|---|---|---|---|"]
    for (key, accepts), (p, names) in sorted(seen.items()):
        alone = sum(1 for k, _ in seen if k == key) == 1
        where = "every quantity with this key" if alone and len(names) > 3 else ", ".join(f"`{n}`" for n in names)
        rows.append(f"| `{key}` | {accepts} | {p.help} | {where} |")
    return "\n".join(rows) + "\n"


if __name__ == "__main__":  # pragma: no cover - prints the tables docs/authoring-terms.md holds
    print(reference_table())
    print(parameters_table())
