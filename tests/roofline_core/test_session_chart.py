"""The agentic-session chart's data (roofline_core.calculators.session_chart)."""

from __future__ import annotations

import math

from roofline_core.calculators.session_chart import session_chart
from roofline_core.hardware import ACCELERATORS
from roofline_core.models import MODELS
from roofline_core.questions.session import Session, run_session


def test_the_chart_marks_the_ends_and_every_turn_that_waited_on_the_tier():
    result = run_session(
        Session(model=MODELS["llama-3.1-70b"], accelerator=ACCELERATORS["h100-sxm"], devices=2, concurrent=48)
    )
    chart = session_chart(result)
    labelled = [p["label"] for p in chart["points"] if p["label"]]
    assert labelled == ["turn 1", f"turn {len(result.turns)}"]
    offloaded = {t.context_tokens for t in result.turns if t.transfer_s > 0}
    assert offloaded and {p["x"] for p in chart["points"] if p["role"] == "offload"} == offloaded
    turn_line = next(s for s in chart["series"] if s["id"] == "turn")
    assert turn_line["points"] == [[t.context_tokens, t.turn_s] for t in result.turns]


def test_the_context_axis_always_holds_a_decade_to_label():
    # 12k to 60k tokens holds no power of ten once padded by a quarter only above 10k.
    result = run_session(
        Session(
            model=MODELS["llama-3.1-8b"],
            accelerator=ACCELERATORS["h100-sxm"],
            prompt_tokens=13_000,
            tool_tokens=5_000,
            turns=8,
        )
    )
    lo, hi = session_chart(result)["x_range"]
    assert math.floor(math.log10(hi)) >= math.ceil(math.log10(lo))
    assert lo <= result.turns[0].context_tokens and hi >= result.turns[-1].context_tokens
