"""Turning SI numbers into the short strings people read: "4.78 ms", "209 tok/s", "16.1 GB".

Formatting is the only place units change: everything else stays in FLOP, bytes and seconds.
Three significant figures, except that whole numbers of 100 or more keep every digit of their
integer part ("6,126 tok/s", not "6,130"), and a value that rounds to a whole number drops its
zero decimals ("80 GB" beside "141 GB", not "80.0 GB"): a reader takes "80.0" for a measured
figure where the sheet says 80.
"""

from __future__ import annotations

import math
from decimal import ROUND_HALF_UP, Context, Decimal
from typing import TYPE_CHECKING, Any

from roofline_core.roofline import COMPUTE, MEMORY

if TYPE_CHECKING:
    from roofline_core.estimates.inference import FitAlternatives, MemoryFit

#: Decimal SI prefixes by power of ten, largest first: the one table for units with a prefix
#: ("16.1 GB", "989 TFLOP/s") and for chart ticks ("10k", "1T").
SI_PREFIXES: dict[int, str] = {18: "E", 15: "P", 12: "T", 9: "G", 6: "M", 3: "k", 0: ""}

_DECIMAL_PREFIXES = tuple((10.0**exponent, prefix) for exponent, prefix in SI_PREFIXES.items())


# Enough precision for every digit of the largest float (about 1.8e308) shown without exponent.
_WIDE = Context(prec=400)


def _round_half_up(value: Decimal, digits: int) -> Decimal:
    return value.quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP, context=_WIDE)


def format_number(value: float, significant: int = 3) -> str:
    """``value`` to ``significant`` figures, with thousands separators and no exponent.

    A value that rounds to a whole number is written without decimals (``80.0`` -> ``"80"``,
    ``0.99996`` -> ``"1"``); others keep their significant zeros (``2.5`` -> ``"2.50"``).
    Halves round away from zero, as people round (0.5625 -> "0.563"), not to even as
    ``round()`` does; the value is taken as its shortest decimal form (``repr``).
    """
    if not math.isfinite(value):
        return str(value)
    if value == 0:
        return "0"
    exact = Decimal(repr(float(value)))
    if abs(value) >= 10 ** (significant - 1):
        return f"{int(_round_half_up(exact, 0)):,}"
    digits = significant - 1 - math.floor(math.log10(abs(value)))
    rounded = _round_half_up(exact, digits)
    # Rounding can carry into a new digit (9.996 -> 10.0); recompute the decimals for it.
    if abs(rounded) >= 10 ** (significant - 1):
        return f"{int(rounded):,}"
    digits = max(0, significant - 1 - math.floor(math.log10(abs(rounded))))
    rounded = _round_half_up(rounded, digits)
    if rounded == rounded.to_integral_value():
        return f"{int(rounded):,}"
    return f"{rounded:,.{digits}f}"


def _with_prefix(value: float, unit: str, prefixes=_DECIMAL_PREFIXES) -> str:
    if not math.isfinite(value):
        return f"{value} {unit}"
    for scale, prefix in prefixes:
        # Pick the prefix after rounding, so 999.96e9 shows as "1 TB" rather than "1,000 GB".
        if abs(value) >= scale * 0.9995 or scale == prefixes[-1][0]:
            scaled = value / scale
            if abs(scaled) >= 999.5 and scale != prefixes[0][0]:
                continue
            return f"{format_number(scaled)} {prefix}{unit}"
    raise AssertionError("unreachable: the last prefix always matches")


def format_bytes(value_bytes: float) -> str:
    """Decimal bytes: ``16.1e9`` -> ``"16.1 GB"``."""
    return _with_prefix(value_bytes, "B")


def format_capacity(value_bytes: float) -> str:
    """A device's memory in the binary unit it is built in: ``80 * 2**30`` -> ``"80 GiB"``."""
    return f"{format_number(value_bytes / 2**30)} GiB"


def format_flop_per_s(value_flop_per_s: float) -> str:
    """``989e12`` -> ``"989 TFLOP/s"``."""
    return _with_prefix(value_flop_per_s, "FLOP/s")


def format_flops(value_flop: float) -> str:
    """A FLOP count: ``2.8e11`` -> ``"280 GFLOP"``."""
    return _with_prefix(value_flop, "FLOP")


def format_bandwidth(value_bytes_per_s: float) -> str:
    """``3.35e12`` -> ``"3.35 TB/s"``."""
    return _with_prefix(value_bytes_per_s, "B/s")


def format_time(value_s: float) -> str:
    """Seconds in the unit that reads best: ``0.00478`` -> ``"4.78 ms"``."""
    if not math.isfinite(value_s):
        return f"{value_s} s"
    for scale, unit in ((1.0, "s"), (1e-3, "ms"), (1e-6, "µs"), (1e-9, "ns")):
        if abs(value_s) >= scale * 0.9995 or unit == "ns":
            return f"{format_number(value_s / scale)} {unit}"
    raise AssertionError("unreachable")


def format_tokens_per_s(value: float) -> str:
    """``209.2`` -> ``"209 tok/s"``."""
    return f"{format_number(value)} tok/s"


def format_intensity(value_flop_per_byte: float) -> str:
    """``295.2`` -> ``"295 FLOP/byte"``."""
    return f"{format_number(value_flop_per_byte)} FLOP/byte"


def format_percent(share: float) -> str:
    """A share from 0 to 1: ``0.00338`` -> ``"0.338%"``."""
    return f"{format_number(share * 100)}%"


#: Plural units that lose their "s" for a count of exactly one ("1 sequence", "2 sequences").
_SINGULAR_OF = {
    "sequences": "sequence",
    "accelerators": "accelerator",
    "devices": "device",
    "tokens": "token",
    "layers": "layer",
    "heads": "head",
    "replicas": "replica",
}


def format_amount(count: float, unit: str) -> str:
    """A count with its unit, singular for exactly one: ``(1, "sequences")`` -> ``"1 sequence"``.

    Whole counts keep every digit with thousands separators (``"32,768 tokens"``).
    """
    number = format_whole(count) if float(count).is_integer() else format_number(count)
    return f"{number} {_SINGULAR_OF.get(unit, unit) if count == 1 else unit}"


def format_whole(count: float) -> str:
    """A whole count with every digit and thousands separators: ``1024`` -> ``"1,024"``."""
    return f"{int(count):,}"


def format_count(value: float) -> str:
    """Large counts with a word prefix: ``8.03e9`` -> ``"8.03B"``."""
    for scale, suffix in ((1e12, "T"), (1e9, "B"), (1e6, "M"), (1e3, "k")):
        if abs(value) >= scale * 0.9995:
            return f"{format_number(value / scale)}{suffix}"
    return format_number(value)


def bound_phrase(bound: str) -> str:
    """Which roof limits a step, in words: ``"memory"`` -> ``"memory-bound"``.

    Raises:
        ValueError: for anything but ``"memory"`` or ``"compute"``.
    """
    if bound not in (MEMORY, COMPUTE):
        raise ValueError(f"bound must be {MEMORY!r} or {COMPUTE!r}, got {bound!r}")
    return f"{bound}-bound"


# Memory fit ------------------------------------------------------------------------------------


def format_memory_fit(fit: MemoryFit) -> str:
    """The verdict, weights and cache first, then the runtime's reserve:
    ``"Yes: 16.1 GB + 8.22 GB reserve of 80 GB"`` or ``"No: needs 141 GB + 8.37 GB reserve of 80 GB"``
    (without a reserve, ``"Yes: 16.1 GB of 80 GB (20.1%)"``)."""
    used, capacity = format_bytes(fit.used_bytes), format_bytes(fit.capacity_bytes)
    if fit.reserved_bytes:
        needed = f"{used} + {format_bytes(fit.reserved_bytes)} reserve of {capacity}"
        return f"Yes: {needed}" if fit.fits else f"No: needs {needed}"
    if fit.fits:
        return f"Yes: {used} of {capacity} ({format_percent(fit.share_of_memory)})"
    return f"No: needs {used} of {capacity}"


def format_fit_advice(alternatives: FitAlternatives, *, devices: int) -> str:
    """What would fit, for a scenario that does not: ``"It fits on 2 devices, or in FP8 weights."``
    (``"No device count or smaller format tried holds it."`` when nothing does)."""
    options = []
    if alternatives.devices_needed is not None:
        options.append(f"on {format_amount(alternatives.devices_needed, 'devices')}")
    if alternatives.weight_dtypes:
        formats = " or ".join(dtype.upper() for dtype in alternatives.weight_dtypes[:2])
        where = "" if devices == 1 else f" on {format_amount(devices, 'devices')}"
        options.append(f"in {formats} weights{where}")
    if not options:
        return "No device count or smaller format tried holds it."
    return f"It fits {', or '.join(options)}."


def format_memory_use(fit: MemoryFit) -> str:
    """Weights plus KV cache against capacity: ``"20.4 GB (25.4% of 80 GB)"``."""
    return (
        f"{format_bytes(fit.used_bytes)} ({format_percent(fit.share_of_memory)} of {format_bytes(fit.capacity_bytes)})"
    )


def format_max_batch(fit: MemoryFit) -> str:
    """The largest batch that fits, or why none does."""
    if fit.max_batch is None:
        return "no limit"
    if fit.max_batch > 0:
        return format_amount(fit.max_batch, "sequences")
    if fit.weight_bytes > fit.capacity_bytes:
        return f"none: the weights alone ({format_bytes(fit.weight_bytes)}) leave no room in {format_bytes(fit.capacity_bytes)}"
    free = format_bytes(fit.capacity_bytes - fit.weight_bytes)
    return f"none: one sequence needs {format_bytes(fit.kv_bytes_per_sequence)}, {free} is free"


def format_max_context(fit: MemoryFit) -> str:
    """The longest context that fits for the batch: ``"245,760 tokens per sequence"``."""
    if fit.max_context_tokens is None:
        return "no limit"
    if fit.max_context_tokens == 0:
        return "none"
    return f"{fit.max_context_tokens:,} tokens per sequence"


def box_text(value: Any) -> str:
    """A value as it appears in an input box: ``989``, ``3.35``, ``h100-sxm``.

    Numbers are written the way the browser's ``String(number)`` writes them (ECMAScript's
    Number::toString: shortest round-trip digits, exponent only below 1e-6 or from 1e21), so a
    preset's filled value reads the same whether the build or the browser put it in the box.
    """
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, (int, float)):
        return _js_number(float(value))
    return str(value)


def _js_number(value: float) -> str:
    if value == 0 or not math.isfinite(value):
        return "0" if value == 0 else {math.inf: "Infinity", -math.inf: "-Infinity"}.get(value, "NaN")
    sign = "-" if value < 0 else ""
    # repr gives the shortest digits that round-trip, as ECMAScript does.
    parts = Decimal(repr(abs(value))).normalize().as_tuple()
    digits = "".join(str(d) for d in parts.digits)
    k = len(digits)
    n = parts.exponent + k  # the decimal point sits after n digits
    if k <= n <= 21:
        text = digits + "0" * (n - k)
    elif 0 < n <= 21:
        text = digits[:n] + "." + digits[n:]
    elif -6 < n <= 0:
        text = "0." + "0" * (-n) + digits
    else:
        exponent = n - 1
        mantissa = digits if k == 1 else digits[0] + "." + digits[1:]
        text = f"{mantissa}e{'+' if exponent > 0 else '-'}{abs(exponent)}"
    return sign + text
