"""One place that assembles an accelerator research record, for the modules of records added after
:mod:`roofline_core.hardware.accelerator_presets`.

A record is the same dict those modules hold (see that module's docstring): :func:`record` fills
the bookkeeping fields (completeness, what is missing, whether every source is secondary, the
FP16-accumulate alternative of a GeForce-class part) from the figures, so a record cannot claim
a completeness its figures do not have.
"""

from __future__ import annotations


def record(
    *,
    slug: str,
    name: str,
    vendor: str,
    family: str,
    sources: list[dict],
    peaks: dict[str, float],
    bandwidth: tuple[float, str],
    capacity: tuple[float, str],
    memory_kind: str,
    exposed_why: str,
    link_kind: str,
    power_w: float | None,
    notes: str,
    halved_from_sparse: tuple[str, ...] = (),
    halved_for_fp32_accumulate: tuple[str, ...] = (),
    fp32_accumulate: bool = False,
    arithmetic: dict[str, dict] | None = None,
    link: tuple[float, str, str] | None = None,
    peak_basis: str = "vendor",
) -> dict:
    """A research record from its figures.

    Args:
        peaks: Dense peaks in TFLOP/s (TOP/s for INT8) by dtype, as the preset holds them.
        bandwidth, capacity: ``(value, unit)`` as the source writes them (``(960, "GB/s")``).
        exposed_why: Why the capacity is read in GiB (one of :mod:`capacity_reasons`).
        fp32_accumulate: A part whose tensor cores run FP32 accumulation at half the
            FP16-accumulate rate (GeForce and the GB10): the peaks are the FP32-accumulate
            rates and the record keeps twice each 16-bit and FP8 peak as the alternative.
        arithmetic: For a peak no source states, ``{dtype: {"stated": x, "factor": f, "from":
            "what x is"}}``: the peak is ``x * f`` with ``x`` quoted; ``peak_basis`` must then be
            ``"arithmetic"``.
        link: ``(value, unit, direction)`` of a quoted device-to-device link, or None.
    """
    # The preset built from the record checks peak_basis against accelerators.PEAK_BASES (this
    # module stays below accelerators, which gathers the records).
    if arithmetic and peak_basis != "arithmetic":
        raise ValueError(f"{slug}: a peak computed from stated units has peak_basis 'arithmetic'")
    for dtype, rule in (arithmetic or {}).items():
        if abs(rule["stated"] * rule["factor"] - peaks[dtype]) > 1e-9 * peaks[dtype]:
            raise ValueError(f"{slug}: {dtype} peak {peaks[dtype]} is not {rule['stated']} x {rule['factor']}")
    has_16_bit = bool({"fp16", "bf16"} & set(peaks))
    missing = [
        *([] if has_16_bit else ["16-bit peak"]),
        *([] if link else ["interconnect bandwidth"]),
        *([] if power_w is not None else ["board_power_w"]),
    ]
    alternative = {d: 2 * v for d, v in peaks.items() if d in ("fp16", "fp8")} if fp32_accumulate else {}
    return {
        "slug": slug,
        "vendor": vendor,
        "family": family,
        "name": name,
        "sources": sources,
        "dense_peak_tera_per_s": peaks,
        "dense_halved_from_sparse": list(halved_from_sparse),
        "accumulate": "FP32" if fp32_accumulate else "",
        "halved_for_fp32_accumulate": list(halved_for_fp32_accumulate),
        "fp16_accumulate_dense_tera_per_s": alternative,
        "arithmetic": arithmetic or {},
        "peak_basis": peak_basis,
        "memory_bandwidth": {"value": bandwidth[0], "unit": bandwidth[1]},
        "memory_capacity": {"value": capacity[0], "unit": capacity[1]},
        "memory_exposed": {"value": capacity[0], "unit": "GiB", "why": exposed_why},
        "memory_kind": memory_kind,
        "interconnect": (
            {"kind": link_kind, "value": link[0], "unit": link[1], "direction": link[2]}
            if link
            else {"kind": link_kind, "value": None, "unit": None, "direction": None}
        ),
        "board_power_w": power_w,
        "measured": peak_basis == "measured",
        "secondary_only": all(s["secondary"] for s in sources),
        "complete": not missing,
        "missing": missing,
        "notes": notes,
    }
