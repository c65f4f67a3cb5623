"""Accelerator presets: sourced, dense, and consistent with their spec sheets."""

from __future__ import annotations

import re

import pytest

from roofline_core import ACCELERATORS, CustomAccelerator, get_accelerator

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
    # TFLOP/s, or in PFLOP/s as the newest sheets state it.
    peak_tflops = accelerator.peak_for("fp16") / 1e12
    assert any(
        abs(q - peak_tflops) < 0.6 or abs(q - 2 * peak_tflops) < 1.2 or abs(1000 * q - peak_tflops) < 0.6
        for q in quoted
    ), (
        slug,
        peak_tflops,
        quoted,
    )
    # Bandwidth quoted in TB/s or GB/s.
    bandwidth_tb = accelerator.bandwidth_bytes_per_s / 1e12
    assert any(abs(q - bandwidth_tb) < 1e-6 or abs(q - bandwidth_tb * 1000) < 1e-3 for q in quoted), (
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
