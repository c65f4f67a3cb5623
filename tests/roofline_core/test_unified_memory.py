"""Unified memory: the fit verdict uses the share the GPU may use, and says how to raise it."""

from __future__ import annotations

import pytest

from roofline_core.calculators import compute
from roofline_core.estimates.inference import memory_fit, model_memory_fit
from roofline_core.hardware import ACCELERATORS
from roofline_core.hardware.accelerator_presets import ACCELERATOR_RECORDS
from roofline_core.hardware.unified_memory import (
    MACOS_DEFAULT_SOURCES,
    gpu_usable_memory,
    macos_default_gpu_bytes,
    macos_raise_advice,
)
from roofline_core.models import MODELS

GIB = 2**30


@pytest.mark.parametrize(
    ("ram_gib", "gpu_gib", "stated"),
    [
        # exo measured ~10.67 GB on a 16 GB M4 (2/3); Stencel: ~21-24 of 32 GB (2/3), ~48 of 64 GB
        # and ~96 of 128 GB (3/4); Think Different: about 27 of 36 GB (3/4).
        (16, 16 * 2 / 3, "~10.67 GB on 16GB M4"),
        (32, 32 * 2 / 3, "a 32 GB Mac only ~21–24 GB for GPU"),
        (36, 27, "On a 36GB machine, about 27GB."),
        (64, 48, "a 64 GB Mac has ~48 GB usable for GPU"),
        (128, 96, "about 96 GB"),
    ],
)
def test_the_macos_default_is_two_thirds_up_to_36_gb_and_three_quarters_above(
    ram_gib: int, gpu_gib: float, stated: str
) -> None:
    assert macos_default_gpu_bytes(ram_gib * GIB) == pytest.approx(gpu_gib * GIB)
    assert any(stated in source.states for source in MACOS_DEFAULT_SOURCES)


def test_every_mac_preset_uses_the_macos_default_and_other_chips_their_whole_memory() -> None:
    for chip in ACCELERATORS.values():
        if chip.vendor == "Apple":
            assert chip.gpu_usable_memory_bytes == macos_default_gpu_bytes(chip.memory_bytes), chip.slug
            assert "sudo sysctl iogpu.wired_limit_mb=" in chip.gpu_memory_advice
        elif chip.gpu_usable_memory_bytes is None:
            assert chip.fit_memory_bytes == chip.memory_bytes and not chip.gpu_memory_advice


def test_a_model_that_fits_64_gib_but_not_the_gpus_48_is_refused_on_a_64_gb_mac() -> None:
    # Gemma 2 27B in FP16 is 50.7 GiB of weights: over 3/4 of 64 GiB (48 GiB), under 64 GiB.
    mac, model = ACCELERATORS["apple-m1-max"], MODELS["gemma-2-27b"]
    assert mac.memory_bytes == 64 * GIB and mac.fit_memory_bytes == 48 * GIB
    fit = memory_fit(model=model, accelerator=mac, weight_dtype="fp16", context_tokens=4096)
    assert 48 * GIB < fit.weight_bytes < 64 * GIB
    assert fit.capacity_bytes == 48 * GIB and not fit.fits
    whole = model_memory_fit(model=model, capacity_bytes=mac.memory_bytes, weight_dtype="fp16", context_tokens=4096)
    assert whole.fits, "the whole 64 GiB would hold it: the share is what refuses it"


def test_the_verdict_names_the_share_and_the_sysctl_that_raises_it() -> None:
    inputs = {"accelerator": "apple-m1-max", "model": "gemma-2-27b", "weight_dtype": "fp16", "context_tokens": "4096"}
    verdict = compute("decode-speed-of-light", inputs)["outputs"]["fits"]
    assert verdict["value"] is False
    # 64 GiB less the 8 GiB left to macOS is 56 GiB = 57,344 MiB.
    assert "the GPU's share of 64 GiB of unified memory" in verdict["text"]
    assert "sudo sysctl iogpu.wired_limit_mb=57344" in verdict["text"]
    fits = compute("decode-speed-of-light", {**inputs, "weight_dtype": "int8"})["outputs"]["fits"]
    assert fits["value"] is True and fits["text"].endswith("(the GPU's share of 64 GiB of unified memory)")
    h100 = compute("decode-speed-of-light", {**inputs, "accelerator": "h100-sxm"})["outputs"]["fits"]["text"]
    assert "unified memory" not in h100 and "sysctl" not in h100


def test_the_raise_advice_leaves_8_gib_to_macos() -> None:
    assert "iogpu.wired_limit_mb=122880" in macos_raise_advice(128 * GIB)
    assert "about three quarters" in macos_raise_advice(128 * GIB)
    assert "about two thirds" in macos_raise_advice(16 * GIB)


def _record(slug: str) -> dict:
    return dict(next(r for r in ACCELERATOR_RECORDS if r["slug"] == slug))


def test_an_unknown_scheme_or_an_allocation_beyond_the_memory_is_refused() -> None:
    record = _record("apple-m4-max")
    with pytest.raises(ValueError, match="apple-m4-max: gpu_memory scheme must be one of"):
        gpu_usable_memory({**record, "gpu_memory": {"scheme": "bios"}}, 128 * GIB)
    too_much = {"scheme": "stated-allocation", "value": 200, "unit": "GiB", "how_to_raise": ""}
    with pytest.raises(ValueError, match="expected a GPU allocation in GiB within the memory"):
        gpu_usable_memory({**record, "gpu_memory": too_much}, 128 * GIB)
    assert gpu_usable_memory({**record, "gpu_memory": None}, 128 * GIB) == (None, "")


def test_strix_halo_fits_in_the_96_gib_its_variable_graphics_memory_gives_the_gpu() -> None:
    # AMD: "AMD Ryzen AI Max+ 395 (128GB) processor with 96GB of Variable Graphics Memory".
    apu = ACCELERATORS["ryzen-ai-max-395"]
    assert apu.memory_bytes == 128 * GIB and apu.fit_memory_bytes == 96 * GIB
    assert "96GB of Variable Graphics Memory" in apu.source.states
    inputs = {
        "accelerator": "ryzen-ai-max-395",
        "model": "gpt-oss-120b",
        "weight_dtype": "fp8",
        "context_tokens": "4096",
    }
    verdict = compute("decode-speed-of-light", inputs)["outputs"]["fits"]
    assert verdict["value"] is False
    assert (
        "the GPU's share of 128 GiB of unified memory" in verdict["text"]
        and "Variable Graphics Memory" in verdict["text"]
    )


def _math(slug: str) -> str:
    return compute("decode-speed-of-light", {"accelerator": slug})["outputs"]["math"]["text"]


def test_the_math_output_says_how_sure_a_computed_or_measured_peak_is() -> None:
    math = _math
    assert math("apple-m4-pro").endswith("(7.53 TFLOP/s, a computed peak)")
    assert math("apple-m4-max").endswith("(14.8 TFLOP/s, a measured peak)")
    assert math("h100-sxm").endswith("(989 TFLOP/s)")


def test_dgx_spark_fits_in_what_linux_leaves_its_gpu_about_117_of_128_gib() -> None:
    # No firmware split on the GB10: a cited start measured about 117 GiB available after
    # dropping the page cache, and the fit verdict uses that, not the whole 128 GB.
    spark = ACCELERATORS["dgx-spark"]
    assert spark.memory_bytes == 128 * GIB and spark.fit_memory_bytes == 117 * GIB
    assert "leaving about 117 GiB available" in spark.source.states
    assert "drop_caches" in spark.gpu_memory_advice and "drop_caches" in spark.source.states
    record = _record("dgx-spark")
    assert record["gpu_memory"]["scheme"] == "measured-available"
    beyond = {**record["gpu_memory"], "value": 130}
    with pytest.raises(ValueError, match="expected a GPU allocation in GiB within the memory"):
        gpu_usable_memory({**record, "gpu_memory": beyond}, 128 * GIB)
