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

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from roofline_core.dtypes import DTYPES, STORAGE_DTYPES, bytes_per_element
from roofline_core.formatting import (
    bound_phrase,
    format_bandwidth,
    format_bytes,
    format_count,
    format_flop_per_s,
    format_flops,
    format_intensity,
    format_number,
    format_percent,
    format_time,
    format_tokens_per_s,
)
from roofline_core.hardware import ACCELERATORS, Accelerator
from roofline_core.inference import (
    critical_batch,
    estimate_decode,
    estimate_prefill,
)
from roofline_core.models import MODELS, AnyModel, CustomModel, Model
from roofline_core.operations import OPERATION_KINDS, matvec_exact_cost, operations_catalogue
from roofline_core.roofline import attainable_flop_per_s, matmul_cost
from roofline_core.sources import Source

#: Operation slugs of :func:`roofline_core.operations.operations_catalogue`, in table order.
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
    """

    text: str
    sources: tuple[Source, ...] = ()


@dataclass(frozen=True)
class Parameter:
    """One parameter of a quantity.

    Attributes:
        name: Key in the reference (``accelerator``).
        kind: ``"accelerator"``, ``"model"``, ``"dtype"``, ``"int"``, ``"float"`` or ``"choice"``.
        default: Value used when the reference leaves it out, as typed text; ``None`` = required.
        help: What it is, with its unit.
        choices: Accepted values of a ``"choice"`` parameter.
        minimum: Smallest accepted number (``int`` and ``float`` kinds).
        maximum: Largest accepted number (``int`` and ``float`` kinds).
    """

    name: str
    kind: str
    default: str | None = None
    help: str = ""
    choices: tuple[str, ...] = ()
    minimum: float | None = None
    maximum: float | None = None

    def expected(self) -> str:
        """What the parameter accepts, in words (for error messages and the docs)."""
        if self.kind == "accelerator":
            return "an accelerator slug: " + ", ".join(ACCELERATORS)
        if self.kind == "model":
            return "a model slug: " + ", ".join(MODELS)
        if self.kind == "dtype":
            return "a number format: " + ", ".join(self.choices or tuple(DTYPES))
        if self.kind == "choice":
            return "one of: " + ", ".join(self.choices)
        what = "a whole number" if self.kind == "int" else "a number"
        if self.minimum is not None and self.maximum is not None:
            return f"{what} from {_plain(self.minimum)} to {_plain(self.maximum)}"
        if self.minimum is not None:
            return f"{what} of at least {_plain(self.minimum)}"
        return what

    def parse(self, raw: str) -> Any:
        """Turn the typed text into the value the compute function takes.

        Raises:
            QuantityError: naming the parameter and what it accepts.
        """
        problem = f"bad value {raw!r} for parameter '{self.name}'; expected {self.expected()}"
        if self.kind == "accelerator":
            if raw not in ACCELERATORS:
                raise QuantityError(problem)
            return ACCELERATORS[raw]
        if self.kind == "model":
            if raw not in MODELS:
                raise QuantityError(problem)
            return MODELS[raw]
        if self.kind in ("dtype", "choice"):
            allowed = self.choices or tuple(DTYPES)
            if raw not in allowed:
                raise QuantityError(problem)
            return raw
        try:
            number = float(raw.replace("_", ""))
        except ValueError:
            raise QuantityError(problem) from None
        if not math.isfinite(number):
            raise QuantityError(problem)
        if self.kind == "int":
            if number != int(number):
                raise QuantityError(problem)
            number = int(number)
        if (self.minimum is not None and number < self.minimum) or (self.maximum is not None and number > self.maximum):
            raise QuantityError(problem)
        return number


def _plain(value: float) -> str:
    """A limit as a person would type it: ``1``, ``1,000,000``, ``0.125``."""
    return f"{int(value):,}" if value == int(value) else f"{value:g}"


@dataclass(frozen=True)
class Quantity:
    """A named, documented number.

    Attributes:
        name: Name used in references (``ridge_point``).
        description: What it is, in one sentence, with its unit.
        parameters: What it takes.
        compute: Called with the parsed parameters as keywords; returns a :class:`Value`.
        requires_one_of: Groups of parameters of which exactly one must be given
            (``("model", "params")``: a preset model or a raw parameter count).
    """

    name: str
    description: str
    parameters: tuple[Parameter, ...]
    compute: Callable[..., Value]
    requires_one_of: tuple[str, ...] = ()

    def signature(self) -> str:
        """The reference with every parameter, for docs and error messages."""
        parts = [self.name]
        for p in self.parameters:
            parts.append(f"{p.name}=<{p.kind}>" if p.default is None else f"{p.name}={p.default or '<' + p.kind + '>'}")
        return " ".join(parts)


# Parameters shared by several quantities ------------------------------------------------

_ACCELERATOR = Parameter("accelerator", "accelerator", help="accelerator preset slug")
_COMPUTE_DTYPE = Parameter("dtype", "dtype", default="fp16", help="format of the matrix math")
_MODEL_REQUIRED = Parameter("model", "model", help="model preset slug")
_MODEL_OR_PARAMS = (
    Parameter("model", "model", default="", help="model preset slug (or give params)"),
    Parameter("params", "float", default="", minimum=1, help="parameters streamed per token (or give model)"),
)
_WEIGHT_DTYPE = Parameter("weight_dtype", "dtype", default="fp16", choices=STORAGE_DTYPES, help="storage format of the weights")
_KV_DTYPE = Parameter("kv_dtype", "dtype", default="fp16", choices=STORAGE_DTYPES, help="storage format of the KV cache")
_BATCH = Parameter("batch", "int", default="1", minimum=1, maximum=1_000_000, help="sequences processed together")
_DEVICES = Parameter("devices", "int", default="1", minimum=1, maximum=1024, help="devices the work is split over")
_EFFICIENCY = Parameter(
    "efficiency", "float", default="1", minimum=0.01, maximum=1, help="share of peak bandwidth sustained (0 to 1)"
)
_CONTEXT = Parameter("context", "int", default="0", minimum=0, maximum=10_000_000, help="cached tokens per sequence")
_PROMPT = Parameter("prompt", "int", minimum=1, maximum=10_000_000, help="prompt tokens per sequence")


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


def _peak(*, accelerator: Accelerator, dtype: str) -> Value:
    return Value(format_flop_per_s(_for_dtype(accelerator.peak_for, dtype)), _sources(accelerator))


def _sparse_peak(*, accelerator: Accelerator, dtype: str) -> Value:
    # 2:4 structured sparsity skips half the multiplies, which spec sheets count as doubling the
    # rate; presets hold the dense figure, so the marketing number is twice it.
    return Value(format_flop_per_s(2 * _for_dtype(accelerator.peak_for, dtype)), _sources(accelerator))


def _bandwidth(*, accelerator: Accelerator) -> Value:
    return Value(format_bandwidth(accelerator.bandwidth_bytes_per_s), _sources(accelerator))


def _memory_capacity(*, accelerator: Accelerator) -> Value:
    return Value(format_bytes(accelerator.memory_bytes), _sources(accelerator))


def _memory_kind(*, accelerator: Accelerator) -> Value:
    return Value(accelerator.memory_kind, _sources(accelerator))


def _accelerator_name(*, accelerator: Accelerator) -> Value:
    return Value(accelerator.name, _sources(accelerator))


def _ridge_point(*, accelerator: Accelerator, dtype: str) -> Value:
    return Value(format_intensity(_for_dtype(accelerator.ridge_point, dtype)), _sources(accelerator))


def _critical_batch(*, accelerator: Accelerator, weight_dtype: str) -> Value:
    batch = critical_batch(
        peak_flop_per_s=accelerator.peak_for("fp16"),
        bandwidth_bytes_per_s=accelerator.bandwidth_bytes_per_s,
        weight_bytes_per_element=bytes_per_element(weight_dtype),
    )
    return Value(format_number(batch), _sources(accelerator))


def _attainable(*, accelerator: Accelerator, intensity: float, dtype: str) -> Value:
    value = attainable_flop_per_s(
        intensity_flop_per_byte=intensity,
        peak_flop_per_s=accelerator.peak_for(dtype),
        bandwidth_bytes_per_s=accelerator.bandwidth_bytes_per_s,
    )
    return Value(format_flop_per_s(value), _sources(accelerator))


def _bytes_per_element(*, dtype: str) -> Value:
    size = bytes_per_element(dtype)
    return Value(f"{_plain(size)} byte" + ("" if size == 1 else "s"))


# Model quantities -----------------------------------------------------------------------


def _params(*, model: Model, kind: str) -> Value:
    count = {
        "total": model.total_params,
        "active": model.active_params_per_token,
        "streamed": model.streamed_params_per_token,
    }[kind]
    return Value(format_count(count), _sources(model))


def _weight_bytes(*, model: Model, dtype: str) -> Value:
    return Value(format_bytes(model.weight_bytes(dtype)), _sources(model))


def _kv_bytes_per_token(*, model: Model, kv_dtype: str) -> Value:
    return Value(format_bytes(model.kv_bytes_per_token(kv_dtype)), _sources(model))


def _kv_cache_bytes(*, model: Model, context: int, batch: int, kv_dtype: str) -> Value:
    return Value(format_bytes(model.kv_bytes_per_token(kv_dtype) * context * batch), _sources(model))


# Decode and prefill ---------------------------------------------------------------------


def _model_or_params(model: Model | None, params: float | None, context: int = 0) -> AnyModel:
    """The preset, or a :class:`CustomModel` of ``params`` streamed parameters (weights only)."""
    if model is not None:
        return model
    if context:
        raise QuantityError("parameter 'context' needs a model preset; expected model=<slug> with context=")
    return CustomModel(streamed_params_per_token=params)


def _decode(
    *,
    accelerator: Accelerator,
    model: Model | None,
    params: float | None,
    batch: int,
    context: int,
    devices: int,
    weight_dtype: str,
    kv_dtype: str,
    efficiency: float,
):
    """A decode step of a preset model, or of a model known only by its size (weights only)."""
    return estimate_decode(
        model=_model_or_params(model, params, context),
        accelerator=accelerator,
        weight_dtype=weight_dtype,
        kv_dtype=kv_dtype,
        batch=batch,
        context_tokens=context,
        devices=devices,
        bandwidth_efficiency=efficiency,
    ).step


def _prefill(
    *,
    accelerator: Accelerator,
    model: Model | None,
    params: float | None,
    prompt: int,
    batch: int,
    devices: int,
    weight_dtype: str,
    efficiency: float,
):
    return estimate_prefill(
        model=_model_or_params(model, params),
        accelerator=accelerator,
        prompt_tokens=prompt,
        weight_dtype=weight_dtype,
        batch=batch,
        devices=devices,
        bandwidth_efficiency=efficiency,
    )


def _step_quantity(step_of: Callable[..., Any], render: Callable[..., str]) -> Callable[..., Value]:
    """A quantity that renders one step of :func:`_decode` or :func:`_prefill` (``per`` goes to ``render``)."""

    def compute(*, accelerator: Accelerator, model: Model | None = None, params: float | None = None, **rest: Any) -> Value:
        extra = {k: rest.pop(k) for k in ("per",) if k in rest}
        step = step_of(accelerator=accelerator, model=model, params=params, **rest)
        return Value(render(step, **extra), _sources(accelerator, model))

    return compute


def _tokens_per_s(step, *, per: str = "batch") -> str:
    # A decode step yields one token per sequence: a single sequence sees 1 / step time.
    return format_tokens_per_s(step.tokens_per_s if per == "batch" else 1.0 / step.step_time_s)


# Matrix products and operations ---------------------------------------------------------


def _matmul(what: str) -> Callable[..., Value]:
    def compute(*, m: int, n: int, k: int, bytes: float) -> Value:  # noqa: A002 - the reference's key
        cost = matmul_cost(m=m, n=n, k=k, weight_bytes_per_element=bytes, activation_bytes_per_element=bytes)
        return Value(_cost_text(cost, what, exact=False))

    return compute


def _matvec_exact(*, rows: int, cols: int, bytes: float, what: str) -> Value:  # noqa: A002
    cost = matvec_exact_cost(rows=rows, cols=cols, bytes_per_element=bytes)
    # Hand-sized examples read best as plain counts ("9 FLOPs", "16 bytes"), not "9.00 FLOP".
    if what == "flops" and cost.flops < 1000 and cost.flops == int(cost.flops):
        return Value(f"{int(cost.flops)} FLOPs")
    if what == "bytes" and cost.bytes_moved < 1000 and cost.bytes_moved == int(cost.bytes_moved):
        return Value(f"{int(cost.bytes_moved)} bytes")
    return Value(_cost_text(cost, what, exact=True))


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


def _operation(*, operation: str, model: Model, accelerator: Accelerator, what: str, batch: int, prompt: int, context: int) -> Value:
    ops = operations_catalogue(
        accelerator=accelerator, model=model, batch=batch, prompt_tokens=prompt, context_tokens=context
    )
    op = next(o for o in ops if o.slug == operation)
    if what == "bound":
        text = bound_phrase(op.bound)
    elif what == "flops":
        text = format_flops(op.flops)
    elif what == "bytes":
        text = format_bytes(op.bytes_moved)
    else:
        text = format_intensity(op.intensity_flop_per_byte)
    return Value(text, _sources(accelerator, model))


def _step_parameters(*extra: Parameter) -> tuple[Parameter, ...]:
    return (_ACCELERATOR, *_MODEL_OR_PARAMS, *extra, _DEVICES, _WEIGHT_DTYPE, _EFFICIENCY)


_DECODE_PARAMETERS = _step_parameters(_BATCH, _CONTEXT, _KV_DTYPE)
_PREFILL_PARAMETERS = _step_parameters(_PROMPT, _BATCH)
_COST_PARAMETERS = (
    Parameter("m", "int", minimum=1, help="tokens (rows of the activations)"),
    Parameter("n", "int", minimum=1, help="output features"),
    Parameter("k", "int", minimum=1, help="input features"),
    Parameter("bytes", "float", default="2", minimum=0.125, maximum=8, help="bytes per element"),
)


def _q(name: str, description: str, parameters: tuple[Parameter, ...], compute, requires_one_of=()) -> Quantity:
    return Quantity(name, description, parameters, compute, requires_one_of)


_MODEL_OR_PARAMS_NAMES = ("model", "params")

QUANTITIES: dict[str, Quantity] = {
    q.name: q
    for q in (
        _q("peak_flop_per_s", "Dense peak compute of an accelerator, in FLOP/s.", (_ACCELERATOR, _COMPUTE_DTYPE), _peak),
        _q(
            "sparse_peak_flop_per_s",
            "The 'with sparsity' peak a spec sheet quotes: twice the dense peak, in FLOP/s.",
            (_ACCELERATOR, _COMPUTE_DTYPE),
            _sparse_peak,
        ),
        _q("bandwidth", "Peak memory bandwidth of an accelerator, in bytes/s.", (_ACCELERATOR,), _bandwidth),
        _q("memory_capacity", "Memory capacity of an accelerator, in bytes.", (_ACCELERATOR,), _memory_capacity),
        _q("memory_kind", "What an accelerator's memory is (HBM3, GDDR6X...).", (_ACCELERATOR,), _memory_kind),
        _q("accelerator_name", "Display name of an accelerator preset.", (_ACCELERATOR,), _accelerator_name),
        _q("ridge_point", "Peak compute over bandwidth, in FLOP/byte.", (_ACCELERATOR, _COMPUTE_DTYPE), _ridge_point),
        _q(
            "critical_batch",
            "Decode batch at which weight streaming reaches the ridge point (sequences).",
            (_ACCELERATOR, _WEIGHT_DTYPE),
            _critical_batch,
        ),
        _q(
            "attainable_flop_per_s",
            "The roofline: min(peak, bandwidth x intensity) at a given intensity, in FLOP/s.",
            (_ACCELERATOR, Parameter("intensity", "float", minimum=0, help="FLOP/byte"), _COMPUTE_DTYPE),
            _attainable,
        ),
        _q("bytes_per_element", "Storage size of one element of a number format.", (Parameter("dtype", "dtype"),), _bytes_per_element),
        _q(
            "params",
            "Parameter count of a model: total, active per token, or streamed per decode token.",
            (_MODEL_REQUIRED, Parameter("kind", "choice", default="total", choices=("total", "active", "streamed"))),
            _params,
        ),
        _q(
            "weight_bytes",
            "Bytes to hold every weight of a model, in bytes.",
            (_MODEL_REQUIRED, Parameter("dtype", "dtype", default="fp16", choices=STORAGE_DTYPES)),
            _weight_bytes,
        ),
        _q("kv_bytes_per_token", "KV-cache bytes one token adds, in bytes.", (_MODEL_REQUIRED, _KV_DTYPE), _kv_bytes_per_token),
        _q(
            "kv_cache_bytes",
            "KV cache of a batch of sequences at a context length, in bytes.",
            (_MODEL_REQUIRED, Parameter("context", "int", minimum=1, maximum=10_000_000, help="tokens"), _BATCH, _KV_DTYPE),
            _kv_cache_bytes,
        ),
        _q(
            "decode_step_time",
            "Time of one decode step (every sequence gains a token), in seconds.",
            _DECODE_PARAMETERS,
            _step_quantity(_decode, lambda s: format_time(s.step_time_s)),
            _MODEL_OR_PARAMS_NAMES,
        ),
        _q(
            "decode_tokens_per_s",
            "Decode throughput, in tokens/s: over the batch (per=batch) or as one sequence sees it (per=sequence).",
            (*_DECODE_PARAMETERS, Parameter("per", "choice", default="batch", choices=("batch", "sequence"))),
            _step_quantity(_decode, _tokens_per_s),
            _MODEL_OR_PARAMS_NAMES,
        ),
        _q(
            "decode_intensity",
            "Arithmetic intensity of a decode step, in FLOP/byte.",
            _DECODE_PARAMETERS,
            _step_quantity(_decode, lambda s: format_intensity(s.intensity_flop_per_byte)),
            _MODEL_OR_PARAMS_NAMES,
        ),
        _q(
            "decode_bound",
            "Which roof limits a decode step: 'memory-bound' or 'compute-bound'.",
            _DECODE_PARAMETERS,
            _step_quantity(_decode, lambda s: bound_phrase(s.bound)),
            _MODEL_OR_PARAMS_NAMES,
        ),
        _q(
            "decode_utilisation",
            "Achieved FLOP/s of a decode step as a share of peak (model FLOPs utilisation).",
            _DECODE_PARAMETERS,
            _step_quantity(_decode, lambda s: format_percent(s.compute_utilisation)),
            _MODEL_OR_PARAMS_NAMES,
        ),
        _q(
            "prefill_time",
            "Time to process whole prompts in one pass (time to first token when idle), in seconds.",
            _PREFILL_PARAMETERS,
            _step_quantity(_prefill, lambda s: format_time(s.step_time_s)),
            _MODEL_OR_PARAMS_NAMES,
        ),
        _q(
            "prefill_tokens_per_s",
            "Prompt tokens processed per second during prefill, in tokens/s.",
            _PREFILL_PARAMETERS,
            _step_quantity(_prefill, lambda s: format_tokens_per_s(s.tokens_per_s)),
            _MODEL_OR_PARAMS_NAMES,
        ),
        _q(
            "prefill_intensity",
            "Arithmetic intensity of a prefill pass, in FLOP/byte.",
            _PREFILL_PARAMETERS,
            _step_quantity(_prefill, lambda s: format_intensity(s.intensity_flop_per_byte)),
            _MODEL_OR_PARAMS_NAMES,
        ),
        _q(
            "prefill_bound",
            "Which roof limits a prefill pass: 'memory-bound' or 'compute-bound'.",
            _PREFILL_PARAMETERS,
            _step_quantity(_prefill, lambda s: bound_phrase(s.bound)),
            _MODEL_OR_PARAMS_NAMES,
        ),
        _q(
            "prefill_utilisation",
            "Achieved FLOP/s of a prefill pass as a share of peak.",
            _PREFILL_PARAMETERS,
            _step_quantity(_prefill, lambda s: format_percent(s.compute_utilisation)),
            _MODEL_OR_PARAMS_NAMES,
        ),
        _q("matmul_flops", "FLOPs of an m x k by k x n product (2mnk).", _COST_PARAMETERS, _matmul("flops")),
        _q("matmul_bytes", "Bytes an m x k by k x n product moves (weights, input, output).", _COST_PARAMETERS, _matmul("bytes")),
        _q("matmul_intensity", "Arithmetic intensity of an m x k by k x n product, in FLOP/byte.", _COST_PARAMETERS, _matmul("intensity")),
        _q(
            "matvec_exact",
            "A small matrix-vector product counted exactly (2k - 1 FLOPs per output, loads only).",
            (
                Parameter("rows", "int", minimum=1),
                Parameter("cols", "int", minimum=1),
                Parameter("what", "choice", default="intensity", choices=("flops", "bytes", "intensity")),
                Parameter("bytes", "float", default="2", minimum=0.125, maximum=8),
            ),
            _matvec_exact,
        ),
        _q(
            "operation",
            "FLOPs, bytes, intensity or bound of one LLM operation from the operations table.",
            (
                Parameter("operation", "choice", choices=OPERATION_SLUGS),
                _MODEL_REQUIRED,
                _ACCELERATOR,
                Parameter("what", "choice", default="intensity", choices=("intensity", "bound", "flops", "bytes")),
                Parameter("batch", "int", default="64", minimum=1, maximum=1_000_000),
                Parameter("prompt", "int", default="2048", minimum=1, maximum=10_000_000),
                Parameter("context", "int", default="4096", minimum=1, maximum=10_000_000),
            ),
            _operation,
        ),
    )
}


def evaluate(name: str, arguments: Mapping[str, str]) -> Value:
    """Compute the quantity ``name`` from typed ``arguments``.

    Args:
        name: A key of :data:`QUANTITIES`.
        arguments: Parameter name to the text typed for it.

    Returns:
        The formatted :class:`Value`.

    Raises:
        QuantityError: for an unknown quantity, an unknown, missing or bad parameter, or a
            combination the formulas reject; the message says what was expected.
    """
    quantity = QUANTITIES.get(name)
    if quantity is None:
        raise QuantityError(f"unknown quantity '{name}'; expected one of: {', '.join(QUANTITIES)}")
    known = {p.name: p for p in quantity.parameters}
    unknown = [key for key in arguments if key not in known]
    if unknown:
        raise QuantityError(
            f"unknown parameter '{unknown[0]}' for quantity '{name}'; expected: {quantity.signature()}"
        )
    if quantity.requires_one_of:
        given = [key for key in quantity.requires_one_of if key in arguments]
        if len(given) != 1:
            options = " or ".join(f"{key}=" for key in quantity.requires_one_of)
            raise QuantityError(f"quantity '{name}' needs exactly one of {options}; expected: {quantity.signature()}")
    values: dict[str, Any] = {}
    for parameter in quantity.parameters:
        if parameter.name in arguments:
            values[parameter.name] = parameter.parse(arguments[parameter.name])
        elif parameter.default is None:
            raise QuantityError(
                f"missing parameter '{parameter.name}' for quantity '{name}'; expected: {quantity.signature()}"
            )
        elif parameter.default == "":
            values[parameter.name] = None  # an optional alternative (model= or params=)
        else:
            values[parameter.name] = parameter.parse(parameter.default)
    try:
        return quantity.compute(**values)
    except QuantityError:
        raise
    except (ValueError, KeyError) as exc:
        # The formula layer validates its inputs; repeat its reason in the reference's terms.
        reason = exc.args[0] if exc.args else type(exc).__name__
        raise QuantityError(f"quantity '{name}' cannot be computed ({reason}); expected parameters the formulas accept") from None


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


def evaluate_reference(text: str) -> Value:
    """Evaluate a whole reference such as ``"ridge_point accelerator=h100-sxm"``."""
    name, arguments = parse_reference(text)
    return evaluate(name, arguments)
