"""Regime-aware efficiency: regimes, the measured communication model, the one formula of the
realistic figure, and the expected_* fields every consumer reads."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from roofline_core.calculators import compute
from roofline_core.estimates import efficiency
from roofline_core.estimates.communication import all_reduce_time_s
from roofline_core.estimates.efficiency import (
    ALL,
    FP8,
    GGUF_BLOCK,
    INT8_WEIGHT_ONLY,
    NVLINK,
    PCIE,
    SIXTEEN_BIT,
    Regime,
    RegimeConstants,
    expected_all_reduce_s,
    expected_range_s,
    expected_step_s,
    family_of,
    kernel_of,
    link_of,
    regime_of_run,
    uses_cuda_graphs,
)
from roofline_core.estimates.inference import estimate_decode, estimate_prefill
from roofline_core.evidence.measurements import Measurement, WeightFormat
from roofline_core.evidence.validation import predict_expected
from roofline_core.hardware import get_accelerator
from roofline_core.models import get_model
from roofline_core.quantities import evaluate
from roofline_core.questions.reconcile import reconcile_decode
from tests.support.measurement_rows import measurement_row

H100 = get_accelerator("h100-sxm")
LLAMA = get_model("llama-3-8b")
CORE = Path(__file__).resolve().parents[2] / "roofline_core"


def test_weight_formats_fall_into_families_by_format_and_math() -> None:
    assert family_of("bf16", "bf16") == SIXTEEN_BIT
    assert family_of("fp8", "fp8") == FP8
    # FP8 weights on a chip without FP8 math are dequantised: weight-only.
    assert family_of("fp8", "fp16") == INT8_WEIGHT_ONLY
    assert family_of("int8", "fp16") == INT8_WEIGHT_ONLY
    assert family_of("q4_0", "fp16") == family_of("gguf-q4_k_m-llama3-8b", "fp16") == GGUF_BLOCK
    assert family_of("awq-int4-g128", "fp16") == family_of("int4", "fp16") == "4-bit weight-only"


def test_engines_name_their_kernel_and_whether_decode_runs_as_a_graph() -> None:
    assert uses_cuda_graphs("TensorRT-LLM") and uses_cuda_graphs("gpt-fast (PyTorch, torch.compile)")
    assert not uses_cuda_graphs("llama.cpp (CUDA, llama-bench)")
    assert kernel_of("llama.cpp (Metal, llama-bench)", GGUF_BLOCK) == "llama.cpp Metal"
    assert kernel_of("AutoAWQ (fused modules, AWQ GEMV kernel)", "4-bit weight-only") == "AWQ GEMV"
    assert kernel_of("TensorRT-LLM", FP8) == ""
    # A prefill is never a graph: engines capture decode steps only.
    regime = regime_of_run(phase="prefill", weight_format="fp8", compute_format="fp8", accelerator=H100, engine="vLLM")
    assert not regime.cuda_graphs and regime.fixed_keys == ("prefill",)


def test_a_regime_looks_its_constants_up_from_the_most_specific_key_to_all() -> None:
    regime = Regime("decode", GGUF_BLOCK, "llama.cpp CUDA", cuda_graphs=False, memory="HBM")
    assert regime.share_keys == (
        "GGUF block formats/llama.cpp CUDA/HBM",
        "GGUF block formats/llama.cpp CUDA",
        "GGUF block formats",
        ALL,
    )
    constants = RegimeConstants(
        {ALL: 0.5, "GGUF block formats/llama.cpp CUDA": 0.6}, {ALL: 0.4}, {ALL: 0.3}, {}, {ALL: (0.8, 1.2)}, {}
    )
    # The HBM key has no value (it fell back), so its parent's is used.
    assert constants.bandwidth(regime) == 0.6
    assert constants.kv(regime) == 0.4 and constants.compute(regime) == 0.3
    assert constants.fixed(regime) == 0.0
    assert constants.interval(regime) == (0.8, 1.2)


def test_the_realistic_step_is_the_slower_roof_at_its_shares_plus_fixed_cost_and_communication() -> None:
    constants = RegimeConstants({ALL: 0.5}, {ALL: 0.25}, {ALL: 0.8}, {"CUDA graphs": 1e-5}, {ALL: (0.5, 2.0)}, {})
    regime = Regime("decode", SIXTEEN_BIT)
    seconds = expected_step_s(
        compute_s=1e-3,
        memory_s=4e-3,
        kv_memory_s=1e-3,
        communication_s=2e-4,
        regime=regime,
        layers=32,
        constants=constants,
    )
    # max(1 ms / 0.8, 4 ms / 0.5 + 1 ms / 0.25) + 32 x 10 us + 0.2 ms
    assert seconds == pytest.approx(12e-3 + 32e-5 + 2e-4)
    assert expected_range_s(seconds, regime, constants) == pytest.approx((seconds / 2.0, seconds / 0.5))


def test_a_one_shot_all_reduce_is_nearly_flat_in_devices_where_a_ring_grows() -> None:
    message = 8192 * 2  # one token's activations of an 8192-wide model, in bytes
    one_shot = {n: expected_all_reduce_s(message_bytes=message, devices=n, accelerator=H100) for n in (2, 4, 8)}
    ring = {n: all_reduce_time_s(message_bytes=message, devices=n, link_bandwidth_bytes_per_s=450e9) for n in (2, 8)}
    assert link_of(H100) == NVLINK
    assert one_shot[8] / one_shot[2] < 1.5 < ring[8] / ring[2]
    assert one_shot[2] == pytest.approx(8.7e-6, rel=0.01)
    # A PCIe-only card falls back to NCCL's ring: 2(n - 1) steps of about 3 us.
    card = get_accelerator("rtx-4090")
    assert link_of(card) == PCIE
    assert expected_all_reduce_s(message_bytes=message, devices=4, accelerator=card) == pytest.approx(
        6 * 42.14e-6 / 14 + message * 2 * 3 / 4 / 24.69e9
    )


def test_decode_carries_its_realistic_figure_and_range_beside_the_speed_of_light() -> None:
    decode = estimate_decode(model=LLAMA, accelerator=H100, weight_dtype="bf16", kv_dtype="bf16", context_tokens=1024)
    plain = estimate_decode(
        model=LLAMA,
        accelerator=H100,
        weight_dtype="bf16",
        kv_dtype="bf16",
        context_tokens=1024,
        bandwidth_efficiency=0.5,
    )
    assert decode.tokens_per_s_per_sequence == pytest.approx(1 / decode.step.step_time_s)
    assert decode.expected_tokens_per_s_per_sequence < decode.tokens_per_s_per_sequence
    low, high = decode.expected_range_tokens_per_s_per_sequence
    assert low < decode.expected_tokens_per_s_per_sequence < high
    # The realistic figure is from the peaks at the fitted shares, whatever efficiency a reader types.
    assert plain.expected_tokens_per_s_per_sequence == pytest.approx(decode.expected_tokens_per_s_per_sequence)
    assert decode.regime == Regime("decode", SIXTEEN_BIT, memory="HBM")


def test_tensor_parallel_decode_pays_the_measured_all_reduces() -> None:
    model = get_model("llama-3-70b")
    one = estimate_decode(model=model, accelerator=H100, weight_dtype="fp8", kv_dtype="fp8", devices=1)
    eight = estimate_decode(model=model, accelerator=H100, weight_dtype="fp8", kv_dtype="fp8", devices=8)
    collectives = 2 * model.layers * efficiency.one_shot_latency_s(8)
    assert 1 / eight.expected_tokens_per_s_per_sequence > collectives
    assert eight.expected_tokens_per_s_per_sequence < 8 * one.expected_tokens_per_s_per_sequence


def test_prefill_carries_its_realistic_time_to_first_token_and_stays_the_plain_step() -> None:
    prefill = estimate_prefill(model=LLAMA, accelerator=H100, prompt_tokens=2048)
    assert prefill.expected_ttft_s > prefill.step_time_s
    fast, slow = prefill.expected_range_ttft_s
    assert fast < prefill.expected_ttft_s < slow
    # (It still equals the plain prefill_step of the same numbers: tests/roofline_core/test_inference.py.)


def _row(**changes: object) -> Measurement:
    # A vLLM run in BF16 at batch 4; the rest as tests/support/measurement_rows.py has it.
    bf16 = {"weight_format": WeightFormat("bf16", 16.0), "kv_format": "bf16", "compute_format": "bf16"}
    return measurement_row(**{**bf16, "batch": 4, "engine": "vLLM", "date": "2025", **changes})


def test_the_comparison_and_the_estimates_make_the_realistic_figure_the_same_way() -> None:
    # A vLLM row (CUDA graphs, no kernel of its own) at mean context 200 is the site's default
    # regime: the comparison's estimate is the decode estimate's expected figure.
    row = _row()
    decode = estimate_decode(
        model=LLAMA, accelerator=H100, weight_dtype="bf16", kv_dtype="bf16", batch=4, context_tokens=200
    )
    assert predict_expected(row) == pytest.approx(decode.expected_tokens_per_s_per_sequence, rel=1e-9)
    four = dict(devices=4, parallelism="tensor")
    decode4 = estimate_decode(
        model=LLAMA, accelerator=H100, weight_dtype="bf16", kv_dtype="bf16", batch=4, context_tokens=200, devices=4
    )
    assert predict_expected(_row(**four)) == pytest.approx(decode4.expected_tokens_per_s_per_sequence, rel=1e-9)


def test_calculators_reconciler_and_quantities_read_the_one_table_of_shares(monkeypatch: pytest.MonkeyPatch) -> None:
    before = {
        "calculator": compute("decode-speed-of-light", {})["outputs"]["realistic"]["value"],
        "quantity": evaluate("expected_decode_tokens_per_s", {"model": "llama-3-8b", "accelerator": "h100-sxm"}).number,
        "reconcile": reconcile_decode(model=LLAMA, accelerator=H100, measured_time_s=0.01).expected_time_s,
        "comparison": predict_expected(_row(batch=1)),
    }
    # Halve every bandwidth share and take the fixed cost away: each consumer moves with it.
    for key in list(efficiency.BANDWIDTH_SHARE):
        monkeypatch.setitem(efficiency.BANDWIDTH_SHARE, key, efficiency.BANDWIDTH_SHARE[key] / 2)
    for key in list(efficiency.FIXED_LAYER_S):
        monkeypatch.setitem(efficiency.FIXED_LAYER_S, key, 0.0)
    after = {
        "calculator": compute("decode-speed-of-light", {})["outputs"]["realistic"]["value"],
        "quantity": evaluate("expected_decode_tokens_per_s", {"model": "llama-3-8b", "accelerator": "h100-sxm"}).number,
        "reconcile": reconcile_decode(model=LLAMA, accelerator=H100, measured_time_s=0.01).expected_time_s,
        "comparison": predict_expected(_row(batch=1)),
    }
    assert all(after[name] != pytest.approx(before[name]) for name in before), (before, after)


def test_no_module_but_efficiency_holds_a_realistic_share_or_formula() -> None:
    # One implementation: the constants live in estimates/efficiency.py, the formula is called by
    # the estimates and the comparison only, and nothing else scales the speed of light itself.
    names = re.compile(r"\b(BANDWIDTH_SHARE|KV_SHARE|COMPUTE_SHARE|FIXED_LAYER_S|INTERVALS|FITTED_EFFICIENCIES)\b")
    callers = set()
    for path in CORE.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        relative = path.relative_to(CORE).as_posix()
        if relative != "estimates/efficiency.py":
            assert not names.search(text), relative
            assert "DECODE_SHARE_OF_SPEED_OF_LIGHT" not in text, relative
        if "expected_step_s(" in text:
            callers.add(relative)
    assert callers == {"estimates/efficiency.py", "estimates/inference.py", "evidence/validation.py"}
