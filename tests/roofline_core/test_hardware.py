"""Accelerator presets: sourced, dense, and consistent with their spec sheets."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from roofline_core import ACCELERATORS, CustomAccelerator, get_accelerator
from roofline_core.hardware.accelerator_presets import ACCELERATOR_RECORDS
from roofline_core.hardware.accelerators import (
    PEAK_BASES,
    VENDORS_WITHOUT_PUBLISHED_PEAKS,
    _from_record,
    arithmetic_peak_tera_per_s,
)

REQUIRED = {
    "h100-sxm",
    "h100-pcie",
    "h200",
    "b200",
    "a100-sxm-40gb",
    "a100-sxm-80gb",
    "l40s",
    "rtx-4090",
    "mi300x",
    "tpu-v5e",
}


def _numbers(text: str) -> set[float]:
    return {float(n.replace(",", "")) for n in re.findall(r"\d[\d,]*(?:\.\d+)?", text)}


def test_required_presets_exist() -> None:
    assert REQUIRED <= set(ACCELERATORS)


@pytest.mark.parametrize("slug", sorted(ACCELERATORS))
def test_every_preset_has_a_source_quoting_its_figures(slug: str) -> None:
    accelerator = ACCELERATORS[slug]
    source = accelerator.source
    assert source.url.startswith("https://")
    assert source.title and source.states
    quoted = _numbers(source.states)
    # The 16-bit peak is quoted either as the dense figure or as the sparse one (twice it), in
    # TFLOP/s, or in PFLOP/s as the newest sheets state it. A GeForce sheet may state only the
    # FP16-accumulate rate, twice the FP32-accumulate peak the preset holds.
    peak_tflops = accelerator.peak_for("fp16") / 1e12
    scales = (1, 2, 4) if accelerator.accumulate == "FP32" else (1, 2)
    # A peak computed from quoted inputs (peak_arithmetic) or from a stated figure by a rule
    # (peak_basis "arithmetic") is checked in tests/data/test_preset_sources.py.
    assert accelerator.peak_basis == "arithmetic" or any(
        any(abs(q - k * peak_tflops) < 0.6 * k for k in scales) or abs(1000 * q - peak_tflops) < 0.6 for q in quoted
    ), (
        slug,
        peak_tflops,
        quoted,
    )
    # Bandwidth quoted in TB/s or GB/s (a CPU's may be channels x 8 bytes x MT/s, checked in
    # tests/data/test_preset_sources.py).
    record = next(r for r in ACCELERATOR_RECORDS if r["slug"] == slug)
    bandwidth_tb = accelerator.bandwidth_bytes_per_s / 1e12
    assert (record.get("memory_arithmetic") or {}).get("bandwidth_computed") or any(
        abs(q - bandwidth_tb) < 1e-6 or abs(q - bandwidth_tb * 1000) < 1e-3 for q in quoted
    ), (
        slug,
        bandwidth_tb,
    )
    positive = all(v > 0 for v in accelerator.peak_flop_per_s.values())
    assert positive and accelerator.memory_bytes > 0


#: The 16-bit "with sparsity" figure each vendor sheet states (TFLOP/s), as quoted in the source.
SPARSE_16BIT_TFLOPS = {
    "h100-sxm": "1,979",
    "h100-pcie": "1,513",
    "h200": "1,979",
    "b200": "4,500",
    "a100-sxm-40gb": "624",
    "a100-sxm-80gb": "624",
    "rtx-4090": "330.4",
    "mi300x": "2,614.9",
    "h100-nvl": "1,671",
}


@pytest.mark.parametrize("slug", sorted(SPARSE_16BIT_TFLOPS))
def test_peaks_are_dense_half_of_the_sparse_figure(slug: str) -> None:
    accelerator = ACCELERATORS[slug]
    sparse = SPARSE_16BIT_TFLOPS[slug]
    assert sparse in accelerator.source.states
    # Rounded as the seeds round (1,979 / 2 -> 989); within 0.1%.
    assert accelerator.peak_for("fp16") == pytest.approx(float(sparse.replace(",", "")) * 1e12 / 2, rel=1e-3)


def test_l40s_uses_the_stated_dense_figure() -> None:
    # NVIDIA states the L40S dense rate itself (362.05), a little under half the sparse 733.
    l40s = ACCELERATORS["l40s"]
    assert "362.05 TFLOPS (733 with sparsity)" in l40s.source.states
    assert l40s.peak_for("fp16") == 362.05e12


def test_h100_fp16_peak_is_half_the_sparse_datasheet_figure() -> None:
    h100 = get_accelerator("h100-sxm")
    assert "1,979 TFLOPS*" in h100.source.states and "*With sparsity" in h100.source.states
    assert h100.peak_for("fp16") == pytest.approx(1979e12 / 2, rel=1e-3)
    assert h100.peak_for("fp16") == 989e12
    assert h100.bandwidth_bytes_per_s == 3.35e12


def test_a100_dense_and_ridge() -> None:
    a100 = get_accelerator("a100-sxm-80gb")
    assert a100.peak_for("fp16") == 312e12
    assert "624 with sparsity" in a100.source.states
    assert round(a100.ridge_point()) == 153


def test_tpu_falls_back_to_bf16_for_fp16_math() -> None:
    tpu = get_accelerator("tpu-v5e")
    assert tpu.peak_for("fp16") == tpu.peak_for("bf16") == 197e12
    with pytest.raises(KeyError, match="no fp8 peak"):
        tpu.peak_for("fp8")


def test_unknown_slug_lists_the_known_ones() -> None:
    with pytest.raises(KeyError, match="h100-sxm"):
        get_accelerator("h1000")


def test_custom_accelerator_validates() -> None:
    custom = CustomAccelerator(peak_flop_per_s={"fp16": 989e12}, bandwidth_bytes_per_s=3.35e12)
    assert round(custom.ridge_point()) == 295
    assert custom.memory_bytes is None
    with pytest.raises(ValueError, match="bandwidth_bytes_per_s"):
        CustomAccelerator(peak_flop_per_s={"fp16": 1e12}, bandwidth_bytes_per_s=0)


def test_there_are_at_least_thirty_presets_each_with_a_unique_name() -> None:
    assert len(ACCELERATORS) >= 30
    names = [a.name for a in ACCELERATORS.values()]
    assert len(names) == len(set(names))


def test_every_preset_of_a_vendor_without_published_peaks_is_measured_or_computed() -> None:
    # Apple publishes no FLOP/s figure, so an Apple preset's peak is a cited measurement or
    # shader arithmetic (peak_basis), never a vendor figure; a measured one says so in its name.
    for slug, accelerator in ACCELERATORS.items():
        if accelerator.vendor in VENDORS_WITHOUT_PUBLISHED_PEAKS:
            record = next(r for r in ACCELERATOR_RECORDS if r["slug"] == slug)
            assert accelerator.peak_basis in ("measured", "arithmetic"), slug
            assert accelerator.peak_is_measured == bool(record["measured"]), slug
            assert accelerator.name.endswith("(measured peak)") == accelerator.peak_is_measured, slug
    measured = {slug for slug, a in ACCELERATORS.items() if a.peak_is_measured}
    assert {"apple-m2-ultra", "apple-m3-max", "apple-m4-max"} <= measured
    assert all(ACCELERATORS[slug].vendor in VENDORS_WITHOUT_PUBLISHED_PEAKS for slug in measured)


def _apple_record(**changes: object) -> dict:
    record = dict(next(r for r in ACCELERATOR_RECORDS if r["slug"] == "apple-m4-max"))
    record.update(changes)
    return record


def test_a_vendor_peak_for_an_apple_chip_is_refused_unless_measured() -> None:
    with pytest.raises(ValueError, match="apple-m4-max: Apple publishes no FLOP/s figure"):
        _from_record(_apple_record(dense_peak_tera_per_s={"fp16": 10.0}, measured=False))
    preset = _from_record(_apple_record(dense_peak_tera_per_s={"fp16": 10.0}, measured=True))
    assert preset is not None and preset.peak_is_measured and preset.peak_for("bf16") == 10e12


def test_every_preset_says_how_its_peak_was_obtained() -> None:
    for slug, accelerator in ACCELERATORS.items():
        assert accelerator.peak_basis in PEAK_BASES, slug
        assert accelerator.peak_is_measured == (accelerator.peak_basis == "measured"), slug
        if accelerator.vendor in VENDORS_WITHOUT_PUBLISHED_PEAKS:
            assert accelerator.peak_basis != "vendor", slug
        # A peak computed from a record's peak_arithmetic carries its working; the others none.
        assert not accelerator.peak_working or accelerator.peak_basis == "arithmetic", slug
    assert ACCELERATORS["h100-sxm"].peak_basis == "vendor"


_ARITHMETIC = {
    "cores": 10,
    "cores_what": "GPU cores",
    "units_per_core": 128,
    "units_what": "ALUs",
    "flop_per_clock_per_unit": 2,
    "clock_ghz": 1.398,
    "dtypes": ["fp16"],
}


def test_an_arithmetic_peak_is_computed_from_its_inputs_and_written_out() -> None:
    # 10 cores x 128 ALUs x 2 FLOP (one FMA) x 1.398 GHz = 3,579 GFLOP/s, the M2's figure.
    assert arithmetic_peak_tera_per_s(_ARITHMETIC) == pytest.approx(3.579, abs=5e-4)
    preset = _from_record(
        _apple_record(dense_peak_tera_per_s={}, measured=False, peak_basis="arithmetic", peak_arithmetic=_ARITHMETIC)
    )
    assert preset is not None and preset.peak_basis == "arithmetic" and not preset.peak_is_measured
    assert preset.peak_for("fp16") == pytest.approx(3.579e12, rel=1e-4)
    assert preset.peak_working == "10 GPU cores x 128 ALUs x 2 FLOP per clock x 1.398 GHz = 3.58 TFLOP/s"
    assert preset.peak_mark == "computed"


def test_a_peak_basis_that_contradicts_the_record_is_refused() -> None:
    with pytest.raises(ValueError, match="apple-m4-max: measured is True but peak_basis is 'arithmetic'"):
        _from_record(_apple_record(peak_basis="arithmetic", peak_arithmetic=_ARITHMETIC))
    with pytest.raises(ValueError, match="peak_arithmetic goes with peak_basis 'arithmetic' only"):
        _from_record(_apple_record(measured=False, peak_basis="vendor", peak_arithmetic=_ARITHMETIC))
    with pytest.raises(
        ValueError, match=r"peak_basis must be one of \('vendor', 'arithmetic', 'measured'\), got 'guessed'"
    ):
        _from_record(_apple_record(measured=False, peak_basis="guessed"))


def test_records_without_a_16_bit_peak_are_not_presets() -> None:
    for record in ACCELERATOR_RECORDS:
        # A peak is quoted, or computed from quoted shader arithmetic.
        quoted = {k for k, v in record["dense_peak_tera_per_s"].items() if v}
        computed = set((record.get("peak_arithmetic") or {}).get("dtypes", ()))
        has_16_bit = bool({"fp16", "bf16"} & (quoted | computed))
        assert (record["slug"] in ACCELERATORS) == has_16_bit, record["slug"]


def test_the_h100_nvl_is_the_per_gpu_half_of_the_sparse_sheet() -> None:
    nvl = ACCELERATORS["h100-nvl"]
    assert "* With sparsity" in nvl.source.states
    assert nvl.peak_for("fp8") == 1670.5e12 and nvl.memory_bytes == 94 * 2**30
    assert nvl.interconnect_bandwidth_bytes_per_s == 600e9 and nvl.board_power_w == 400


def test_the_l40_uses_the_dense_figure_its_sheet_states() -> None:
    l40 = ACCELERATORS["l40"]
    assert "| FP16 Tensor Core | 181.05 | 362.1* |" in l40.source.states
    assert l40.peak_for("fp16") == 181.05e12 and l40.bandwidth_bytes_per_s == 864e9


def test_tpu_v7_reads_its_capacity_in_gib_and_its_bandwidth_from_the_hot_chips_report() -> None:
    tpu = ACCELERATORS["tpu-v7"]
    assert tpu.memory_bytes == 192 * 2**30
    assert tpu.bandwidth_bytes_per_s == 7.3e12 and tpu.peak_for("fp8") == 4614e12


def test_capacities_are_what_the_device_exposes() -> None:
    """HBM and GDDR are binary-sized: an H100 "80 GB" exposes 80 GiB (nvidia-smi: 81,559 MiB of it
    usable), ROCm lists the MI300X as 192 GiB; the vendor's words stay beside the figure."""
    h100 = ACCELERATORS["h100-sxm"]
    assert h100.memory_bytes == 80 * 2**30 and h100.memory_stated == "80 GB"
    assert ACCELERATORS["mi300x"].memory_bytes == 192 * 2**30
    assert ACCELERATORS["rtx-4090"].memory_bytes == 24 * 2**30
    assert ACCELERATORS["tpu-v5p"].memory_stated == "95 GiB" and ACCELERATORS["tpu-v5p"].memory_bytes == 95 * 2**30
    assert "as the device exposes it: 80 GiB" in h100.source.states


def test_a_record_without_an_exposed_capacity_is_refused() -> None:
    record = dict(next(r for r in ACCELERATOR_RECORDS if r["slug"] == "l4"))
    record.pop("memory_exposed")
    with pytest.raises(ValueError, match="memory_exposed in GiB"):
        _from_record(record)


def test_a_link_direction_outside_the_vocabulary_is_refused() -> None:
    record = dict(next(r for r in ACCELERATOR_RECORDS if r["slug"] == "l40"))
    record["interconnect"] = {**record["interconnect"], "direction": "stated as '2x 900 GB/s'"}
    with pytest.raises(ValueError, match="must begin with 'per direction' or 'both directions'"):
        _from_record(record)


@pytest.mark.parametrize("slug", ["rtx-3090", "rtx-4090", "rtx-5090"])
def test_geforce_peaks_are_fp32_accumulate_with_the_fp16_accumulate_alternative(slug: str) -> None:
    chip = ACCELERATORS[slug]
    assert chip.accumulate == "FP32"
    assert chip.fp16_accumulate_peak_flop_per_s["fp16"] == pytest.approx(2 * chip.peak_for("fp16"), rel=1e-3)


def test_lists_group_cpus_apart_and_keep_each_group_together() -> None:
    from roofline_core.calculators._common import accelerator_choices

    groups = [choice.group for choice in accelerator_choices()]
    assert groups == sorted(groups, key=groups.index), "a group's presets are listed together"
    assert ACCELERATORS["xeon-6980p"].group == "CPUs: Intel" and ACCELERATORS["ryzen-9-9950x"].group == "CPUs: AMD"
    assert ACCELERATORS["ryzen-ai-max-395"].group == "AMD", "Strix Halo's GPU is listed with AMD's GPUs"
    assert ACCELERATORS["xeon-6980p"].kind == "cpu" and ACCELERATORS["tpu-v5e"].kind == "tpu"


def test_a_peak_basis_that_disagrees_with_peak_is_measured_is_refused() -> None:
    """Pages say how sure a peak is: a vendor figure, arithmetic from stated units, or a measurement."""
    assert {a.peak_basis for a in ACCELERATORS.values()} <= set(PEAK_BASES)
    assert ACCELERATORS["h100-sxm"].peak_basis == "vendor"
    assert ACCELERATORS["apple-m4-max"].peak_basis == "measured"
    preset = _from_record(_apple_record(dense_peak_tera_per_s={"fp16": 10.0}, measured=True))
    assert preset is not None and preset.peak_basis == "measured"
    with pytest.raises(ValueError, match="peak_basis must be one of"):
        replace(ACCELERATORS["h100-sxm"], peak_basis="guessed")
    with pytest.raises(ValueError, match="disagrees with peak_is_measured"):
        replace(ACCELERATORS["h100-sxm"], peak_basis="measured")


def test_a_measured_roof_at_or_above_the_datasheet_is_refused() -> None:
    h100 = ACCELERATORS["h100-sxm"]
    assert h100.bandwidth_for("measured") == 2.97e12 < h100.bandwidth_for() == 3.35e12
    with pytest.raises(ValueError, match="must lie between 0 and the datasheet's"):
        replace(h100, measured_bandwidth_bytes_per_s=3.35e12)
    with pytest.raises(ValueError, match="needs measured_bandwidth_source"):
        replace(h100, measured_bandwidth_source=None)
    with pytest.raises(ValueError, match="measured bf16 rate"):
        replace(h100, measured_peak_flop_per_s={"bf16": 1e16})


def test_a_chip_without_a_measurement_has_only_the_datasheet_roof() -> None:
    l4 = ACCELERATORS["l4"]
    assert l4.measured_bandwidth_bytes_per_s is None and l4.bandwidth_for("datasheet") == l4.bandwidth_bytes_per_s
    with pytest.raises(KeyError, match="no cited bandwidth measurement"):
        l4.bandwidth_for("measured")
    with pytest.raises(KeyError, match="unknown ceiling"):
        l4.bandwidth_for("typical")


def test_every_select_heading_is_one_unbroken_run() -> None:
    """Selects group options by consecutive runs of one heading, so each heading appears once."""
    runs = [a.group for a in ACCELERATORS.values()]
    starts = [g for i, g in enumerate(runs) if i == 0 or runs[i - 1] != g]
    assert len(starts) == len(set(starts)), starts
    assert ACCELERATORS["rtx-4090"].group == "NVIDIA GeForce" and ACCELERATORS["h100-sxm"].group == "NVIDIA"
