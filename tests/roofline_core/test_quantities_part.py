"""``part=``: a time quantity that shows only some of its parts, so prose about "the weight
reads" can quote exactly them (roofline_site.glossary.composition checks the words around)."""

from __future__ import annotations

import pytest

from roofline_core.quantities import QuantityError, evaluate_reference

TP2 = "decode_step_time model=llama-3-70b accelerator=h100-sxm devices=2"


def test_a_part_is_its_own_seconds_and_the_parts_add_up_to_the_whole():
    whole = evaluate_reference(TP2)
    weights = evaluate_reference(f"{TP2} part=weights")
    communication = evaluate_reference(f"{TP2} part=communication")
    # 141 GB of FP16 weights over two H100s at 3.35 TB/s each: 21.0 ms ... less the embedding
    # table, which is gathered rather than streamed.
    assert weights.text == "20.7 ms"
    assert [p.label for p in weights.parts] == ["weights"]
    # "communication" is its latency and transfer together.
    assert [p.label for p in communication.parts] == ["communication_latency", "communication_transfer"]
    assert weights.number + communication.number == pytest.approx(whole.number)
    assert evaluate_reference(f"{TP2} part=weights,communication").number == pytest.approx(whole.number)
    assert evaluate_reference(f"{TP2} part=all") == whole


def test_prefill_takes_part_too():
    reference = "prefill_time model=llama-3.1-8b accelerator=h100-sxm prompt_tokens=131072"
    attention = evaluate_reference(f"{reference} part=attention")
    assert attention.number > evaluate_reference(reference).number / 2


@pytest.mark.parametrize(
    ("reference", "message"),
    [
        (
            f"{TP2} part=kv_cache",
            "parameter 'part': this scenario's time has no 'kv_cache' part; expected one it has: weights,"
            " communication_latency, communication_transfer",
        ),
        (
            f"{TP2} part=weight",
            "parameter 'part' of quantity 'decode_step_time': unknown part 'weight' (did you mean weights?)",
        ),
    ],
)
def test_a_part_the_scenario_lacks_or_an_unknown_one_is_refused(reference, message):
    with pytest.raises(QuantityError) as info:
        evaluate_reference(reference)
    assert str(info.value).startswith(message)
