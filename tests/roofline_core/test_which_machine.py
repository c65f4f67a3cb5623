"""Which machine for which model: the largest preset that fits each chip, and its speed."""

from __future__ import annotations

import pytest

from roofline_core.estimates.inference import estimate_decode, memory_fit
from roofline_core.hardware import ACCELERATORS
from roofline_core.models import MODELS
from roofline_core.questions.which_machine import CONTEXT_TOKENS, FORMATS, largest_fit, machine_rows


@pytest.mark.parametrize("slug", ["rtx-4090", "apple-m4-max", "ryzen-9-9950x", "h100-sxm", "dgx-spark"])
@pytest.mark.parametrize("dtype", FORMATS)
def test_the_pick_fits_and_every_larger_model_does_not(slug, dtype):
    chip = ACCELERATORS[slug]
    pick = largest_fit(chip, weight_dtype=dtype)
    assert pick.model is not None
    words = {"accelerator": chip, "weight_dtype": dtype, "context_tokens": CONTEXT_TOKENS}
    assert memory_fit(model=pick.model, **words).fits
    larger = [m for m in MODELS.values() if m.weight_bytes(dtype) > pick.model.weight_bytes(dtype)]
    assert larger and not any(memory_fit(model=m, **words).fits for m in larger)
    plain = estimate_decode(model=pick.model, **words)
    assert pick.tokens_per_s == plain.tokens_per_s_per_sequence
    assert pick.expected_tokens_per_s == plain.expected_tokens_per_s_per_sequence


def test_a_24_gb_card_holds_a_30b_class_model_in_4_bits_not_a_70b():
    pick = largest_fit(ACCELERATORS["rtx-4090"], weight_dtype="int4")
    assert 20e9 < pick.model.total_params < 40e9


def test_nothing_fits_gives_no_model():
    tiny = {"llama-3.1-405b": MODELS["llama-3.1-405b"]}
    pick = largest_fit(ACCELERATORS["rtx-4090"], weight_dtype="int4", models=tiny)
    assert pick.model is None and pick.tokens_per_s == 0


def test_every_preset_appears_once_grouped_as_the_selects_group_them():
    groups = machine_rows()
    slugs = [row.accelerator.slug for rows in groups.values() for row in rows]
    assert sorted(slugs) == sorted(ACCELERATORS)
    assert all(row.accelerator.group == group for group, rows in groups.items() for row in rows)
    # Unified memory: the GPU's share, not the whole pool.
    m4_max = next(row for row in groups["Apple"] if row.accelerator.slug == "apple-m4-max")
    assert m4_max.usable_bytes == ACCELERATORS["apple-m4-max"].gpu_usable_memory_bytes
