"""The operations catalogue (seed 004's table) and seed 003's hand-counted matrix-vector product."""

from __future__ import annotations

import pytest

from roofline_core import OPERATION_KINDS, get_accelerator, get_model, matvec_exact_cost, operations_catalogue


def test_seed_003_matrix_vector_is_0_5625() -> None:
    # A 3 x 2 matrix times a 2-vector in fp16: 8 numbers (16 bytes) loaded, 3 outputs of 3 FLOPs.
    cost = matvec_exact_cost(rows=3, cols=2, bytes_per_element=2)
    assert cost.flops == 9
    assert cost.bytes_moved == 16
    assert cost.intensity_flop_per_byte == 0.5625


def test_matvec_rejects_zero_sizes() -> None:
    with pytest.raises(ValueError, match="rows"):
        matvec_exact_cost(rows=0, cols=2)


@pytest.fixture(scope="module")
def table():
    return {
        op.slug: op
        for op in operations_catalogue(accelerator=get_accelerator("h100-sxm"), model=get_model("llama-3-70b"))
    }


def test_catalogue_has_every_kind_in_order(table) -> None:
    assert list(table) == list(OPERATION_KINDS)


def test_where_each_operation_lands_on_an_h100(table) -> None:
    assert table["decode-gemv"].intensity_flop_per_byte == pytest.approx(1.0, rel=1e-3)
    assert table["decode-gemv"].bound == "memory"
    assert table["decode-gemm-batched"].intensity_flop_per_byte == pytest.approx(64, rel=0.02)
    assert table["prefill-gemm"].bound == "compute"
    assert table["decode-attention-mha"].intensity_flop_per_byte == pytest.approx(1.0)
    # GQA with 64 query heads over 8 KV heads: 8 times the intensity.
    assert table["decode-attention-gqa"].intensity_flop_per_byte == pytest.approx(8.0)
    assert table["prefill-attention-unfused"].bound == "memory"
    assert table["prefill-attention-fused"].bound == "compute"
    assert table["elementwise-add"].intensity_flop_per_byte == pytest.approx(1 / 6)
    for op in table.values():
        assert op.why.endswith(f"so it is {op.bound}-bound.")
        assert "295 FLOP/byte" in op.why


def test_fusion_only_removes_bytes(table) -> None:
    unfused, fused = table["prefill-attention-unfused"], table["prefill-attention-fused"]
    assert unfused.flops == fused.flops
    assert fused.bytes_moved < unfused.bytes_moved


def test_int8_elements_double_every_intensity() -> None:
    kw = {"accelerator": get_accelerator("h100-sxm"), "model": get_model("llama-3-8b")}
    fp16 = operations_catalogue(bytes_per_element=2, **kw)
    int8 = operations_catalogue(bytes_per_element=1, **kw)
    for a, b in zip(fp16, int8):
        assert b.bytes_moved == a.bytes_moved / 2
        assert b.intensity_flop_per_byte == pytest.approx(2 * a.intensity_flop_per_byte)
