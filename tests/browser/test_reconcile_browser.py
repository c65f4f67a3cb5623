"""The reconciler in Chromium: a pasted vLLM summary and a llama-bench row fill the form, the
results match CPython's, what could not be read is named, and the paste stays out of the link.
Fields a paste filled are marked, go back when the paste changes or is cleared, and become the
reader's when edited."""

from __future__ import annotations

import time
from urllib.parse import parse_qs, urlparse

import pytest

from roofline_core.calculators import compute
from tests.browser.test_calculators_browser import (
    ROOT,
    form_inputs,
    real_errors,
    shown_outputs,
    wait_until_matches_cpython,
)
from tests.conftest import PageWatch
from tests.support.bench_outputs import LLAMA_BENCH_TABLE, VLLM_SUMMARY
from tests.support.browser_wait import HANG_MS
from tests.support.calculator_driver import wait_until_settled

pytestmark = pytest.mark.browser

PASTE = f"{ROOT} [name=benchmark_output]"


def _wait_for(page, condition, what: str, timeout_s: float = 20) -> None:
    """Poll ``condition()`` by hand (Playwright's wait_for_function would not await Python)."""
    deadline = time.monotonic() + timeout_s
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"timed out waiting for {what}; the form holds {form_inputs(page)}")
        page.wait_for_timeout(100)


def _query(page) -> dict[str, str]:
    return {key: values[0] for key, values in parse_qs(urlparse(page.url).query).items()}


@pytest.fixture
def reconciler(browser, site_server):
    context = browser.new_context(viewport={"width": 1280, "height": 900}, service_workers="block")
    page = context.new_page()
    watch = PageWatch()
    watch.attach(page)
    page.goto(site_server + "calculators/reconcile/")
    page.wait_for_selector(f"{ROOT}[data-engine]")
    yield page, watch
    context.close()


def test_a_pasted_vllm_summary_fills_the_fields_and_names_what_it_could_not_read(reconciler):
    page, watch = reconciler
    page.fill(PASTE, VLLM_SUMMARY + "this line is noise\n")
    page.wait_for_selector(f'{ROOT}[data-engine="live"]', timeout=HANG_MS)
    _wait_for(page, lambda: form_inputs(page)["batch"] == "16", "the summary's concurrency in the batch box")
    inputs = wait_until_matches_cpython(page, "reconcile")
    assert {
        key: inputs[key] for key in ("measurement_kind", "measured", "ttft_ms", "prompt_tokens", "context_tokens")
    } == {
        "measurement_kind": "ms_per_token",
        "measured": "17.52",
        "ttft_ms": "198.77",
        "prompt_tokens": "1024",
        "context_tokens": "1152",
    }
    shown = shown_outputs(page)
    expected = compute("reconcile", inputs)["outputs"]
    assert shown["mbu"] == expected["mbu"]["text"] and shown["mbu"].endswith("of 3.35 TB/s")
    # The share of the other roof: what the H100 SXM measurably reaches.
    assert shown["mbu_measured"] == expected["mbu_measured"]["text"]
    assert shown["mfu"].endswith("(FP16)") and "%" in shown["unexplained"]
    assert shown["pasted"].startswith("vLLM benchmark summary: Batch size: 16 (from Maximum request concurrency: 16)")
    assert shown["not_read"].startswith("'this line is noise': not a line of vLLM's summary")
    # One table row per part, the part's name linking its glossary entry.
    links = page.eval_on_selector_all(f"{ROOT} [data-table] tbody a", "as => as.map(a => a.getAttribute('href'))")
    assert any(href.endswith("/glossary/cuda-graphs/") for href in links)
    # The link carries the fields the paste filled, never the paste itself.
    query = _query(page)
    assert query["batch"] == "16" and query["measured"] == "17.52" and "benchmark_output" not in query
    assert watch.external_requests == [] and real_errors(watch) == []


def test_a_pasted_llama_bench_row_fills_decode_prefill_and_the_weight_format(reconciler):
    page, watch = reconciler
    page.fill(PASTE, LLAMA_BENCH_TABLE)
    page.wait_for_selector(f'{ROOT}[data-engine="live"]', timeout=HANG_MS)
    _wait_for(page, lambda: form_inputs(page)["measured"] == "150.25", "the tg128 rate in the measurement box")
    inputs = wait_until_matches_cpython(page, "reconcile")
    assert (inputs["measurement_kind"], inputs["batch"], inputs["weight_dtype"]) == (
        "tokens_per_s_per_sequence",
        "1",
        "q4_k",
    )
    assert (inputs["prompt_tokens"], inputs["ttft_ms"]) == ("512", "67.692")
    shown = shown_outputs(page)
    assert shown["pasted"].startswith("llama-bench table: ") and "size: 4.58 GiB" in shown["pasted"]
    assert shown["prefill"].startswith("MFU ")
    assert "benchmark_output" not in _query(page)
    assert watch.external_requests == [] and real_errors(watch) == []


def _marked(page) -> set[str]:
    """Fields marked "from the paste", by id; each mark is also the control's description."""
    return set(
        page.eval_on_selector_all(
            f"{ROOT} [data-field]:has([data-from-paste])",
            """boxes => boxes.map(box => {
                const control = box.querySelector('[name]');
                const note = box.querySelector('[data-from-paste]');
                if (note.textContent !== 'from the paste' ||
                    !control.getAttribute('aria-describedby').split(' ').includes(note.id)) {
                  throw new Error(`${control.name}: mark not named or not describing its control`);
                }
                return control.name;
            })""",
        )
    )


def _settled_and_matching(page) -> dict[str, str]:
    """Wait for the result of the inputs shown; check it is CPython's for them and says Live."""
    assert wait_until_settled(page) == "live"
    inputs = form_inputs(page)
    expected = compute("reconcile", inputs)
    assert expected["errors"] == {}
    assert shown_outputs(page) == {key: out["text"] for key, out in expected["outputs"].items()}
    assert page.text_content(f"{ROOT} [data-status]").startswith("Live")
    return inputs


def test_a_second_paste_fills_only_what_it_names_and_clearing_puts_the_fields_back(reconciler):
    page, watch = reconciler
    before = form_inputs(page)
    page.fill(PASTE, LLAMA_BENCH_TABLE)
    _wait_for(page, lambda: form_inputs(page)["weight_dtype"] == "q4_k", "the llama-bench weight format")
    first = _settled_and_matching(page)
    llama_fills = compute("reconcile", {"benchmark_output": LLAMA_BENCH_TABLE})["fills"]
    assert _marked(page) == set(llama_fills)

    # vLLM's summary names no weight format: Q4_K goes back to what the field held before.
    page.fill(PASTE, VLLM_SUMMARY)
    _wait_for(page, lambda: form_inputs(page)["measured"] == "17.52", "the summary's time per token")
    second = _settled_and_matching(page)
    vllm_fills = compute("reconcile", {"benchmark_output": VLLM_SUMMARY})["fills"]
    assert second["weight_dtype"] == before["weight_dtype"] != first["weight_dtype"]
    assert _marked(page) == set(vllm_fills) and "weight_dtype" not in _marked(page)
    assert (
        shown_outputs(page)["versus"]
        == compute("reconcile", {**{k: str(v) for k, v in vllm_fills.items()}, "benchmark_output": VLLM_SUMMARY})[
            "outputs"
        ]["versus"]["text"]
    )

    # Cleared, every field holds what it held before any paste, unmarked.
    page.fill(PASTE, "")
    _wait_for(page, lambda: form_inputs(page) == before, "the fields as they were before the paste")
    assert _settled_and_matching(page) == before and _marked(page) == set()
    assert watch.external_requests == [] and real_errors(watch) == []


def test_a_filled_field_the_reader_edits_is_theirs(reconciler):
    page, watch = reconciler
    page.fill(PASTE, VLLM_SUMMARY)
    _wait_for(page, lambda: form_inputs(page)["batch"] == "16", "the summary's concurrency in the batch box")
    _settled_and_matching(page)
    page.fill(f"{ROOT} [name=batch]", "4")
    inputs = _settled_and_matching(page)
    assert inputs["batch"] == "4" and "batch" not in _marked(page) and "measured" in _marked(page)
    # The paste no longer owns it: clearing the paste puts back the others and leaves it.
    page.fill(PASTE, "")
    _wait_for(page, lambda: form_inputs(page)["measured"] == "8", "the measurement as it was")
    assert _settled_and_matching(page)["batch"] == "4" and _marked(page) == set()
    assert _query(page)["batch"] == "4"
    assert watch.external_requests == [] and real_errors(watch) == []
