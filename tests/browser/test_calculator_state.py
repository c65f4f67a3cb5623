"""What a calculator shows is what roofline_core computes for the inputs it shows.

Two ways this went wrong: a value typed before the calculator's module ran was shown but not
computed (the card kept the build's result and said "Live"), and a paste's fills outlived the
paste. The first test types before the module loads; the second drives random sequences of
paste, type, select, clear, pin and reload, and after each checks every shown result against
``roofline_core.calculators.compute`` of the shown inputs.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from roofline_core.calculators import compute
from tests.browser.test_calculators_browser import form_inputs, real_errors, shown_outputs
from tests.conftest import PageWatch
from tests.support.bench_outputs import LLAMA_BENCH_TABLE, VLLM_SUMMARY
from tests.support.browser_wait import HANG_MS
from tests.support.calculator_driver import wait_until_settled

pytestmark = pytest.mark.browser

# Records, from the first script on, every moment the status says "Live" with the outputs then
# shown (a mutation observer: no polling can miss a short-lived wrong "Live").
_RECORD_LIVE = """
window.__liveShown = [];
new MutationObserver(() => {
  const root = document.querySelector('[data-calculator]');
  const status = root && root.querySelector('[data-status]');
  if (status && status.textContent.startsWith('Live')) {
    const inputs = Object.fromEntries([...root.querySelectorAll('[name]')].map(c => [c.name, c.value]));
    const outputs = Object.fromEntries([...root.querySelectorAll('[data-output]')].map(o => [o.dataset.output, o.textContent]));
    window.__liveShown.push({ inputs, outputs });
  }
}).observe(document, { subtree: true, childList: true, characterData: true });
"""


def _expected(calculator_id: str, inputs: dict[str, str]) -> dict[str, str]:
    return {key: out["text"] for key, out in compute(calculator_id, inputs)["outputs"].items()}


def test_a_value_typed_before_the_calculator_runs_is_computed_and_only_then_live(browser, site_server):
    context = browser.new_context(viewport={"width": 390, "height": 844}, service_workers="block")
    context.add_init_script(_RECORD_LIVE)
    page = context.new_page()
    watch = PageWatch()
    watch.attach(page)
    held = []
    # The module that binds the controls is held back until the reader has typed.
    page.route("**/calculators/calculator.mjs", lambda route: held.append(route))
    try:
        page.goto(site_server + "calculators/decode-speed-of-light/")
        page.wait_for_function("() => !!document.querySelector('[data-calculator] [name=batch]')")
        page.fill("[data-calculator] [name=batch]", "64")
        while not held:
            page.wait_for_timeout(50)
        assert page.get_attribute("[data-calculator]", "data-engine") is None  # not mounted yet
        built = shown_outputs(page)
        held[0].continue_()
        page.wait_for_selector("[data-calculator][data-engine]", timeout=HANG_MS)
        assert wait_until_settled(page, timeout_ms=HANG_MS) == "live"
        inputs = form_inputs(page)
        assert inputs["batch"] == "64"
        expected = _expected("decode-speed-of-light", inputs)
        assert shown_outputs(page) == expected != built
        assert page.text_content("[data-calculator] [data-status]").startswith("Live")
        # Every "Live" the reader could have seen was for the inputs shown at that moment.
        seen = page.evaluate("() => window.__liveShown")
        assert seen, "the status never said Live"
        for moment in seen:
            assert moment["outputs"] == _expected("decode-speed-of-light", moment["inputs"])
        assert "batch=64" in page.url
        assert watch.external_requests == [] and real_errors(watch) == []
    finally:
        context.close()


# --- random sequences -------------------------------------------------------------------------

CALCULATOR = "reconcile"
ROOT = f'[data-calculator="{CALCULATOR}"]'
PASTES = (LLAMA_BENCH_TABLE, VLLM_SUMMARY, VLLM_SUMMARY.replace("16", "4"), "nothing a benchmark prints\n")
# Numbers in range and out of it, and text no field takes: an invalid form is a state too.
TYPED = ("1", "4", "16", "64", "0.5", "2048", "0", "-3", "many")

ACTIONS = st.one_of(
    st.tuples(st.just("paste"), st.sampled_from(PASTES)),
    st.tuples(st.just("type"), st.integers(0, 50), st.sampled_from(TYPED)),
    st.tuples(st.just("select"), st.integers(0, 50), st.integers(0, 50)),
    st.tuples(st.just("clear")),
    st.tuples(st.just("pin")),
    st.tuples(st.just("reload")),
)


@pytest.fixture(scope="module")
def state_page(browser, site_server):
    context = browser.new_context(viewport={"width": 1280, "height": 900}, service_workers="block")
    page = context.new_page()
    watch = PageWatch()
    watch.attach(page)
    yield page, watch, site_server + f"calculators/{CALCULATOR}/"
    context.close()


def _visible(page, selector: str) -> list[str]:
    """Names of the calculator's visible, enabled controls matching ``selector``."""
    return page.eval_on_selector_all(
        f"{ROOT} {selector}",
        "els => els.filter(el => el.checkVisibility() && !el.disabled).map(el => el.name)",
    )


def _do(page, action: tuple) -> None:
    kind = action[0]
    if kind == "paste":
        page.fill(f"{ROOT} [name=benchmark_output]", action[1])
    elif kind == "clear":
        page.fill(f"{ROOT} [name=benchmark_output]", "")
    elif kind == "type":
        names = _visible(page, "input[type=text][name]")
        page.fill(f"{ROOT} [name={names[action[1] % len(names)]}]", action[2])
    elif kind == "select":
        names = _visible(page, "select[name]")
        select = f"{ROOT} select[name={names[action[1] % len(names)]}]"
        values = page.eval_on_selector_all(f"{select} option", "os => os.map(o => o.value)")
        page.select_option(select, values[action[2] % len(values)])
    elif kind == "pin":
        page.click(f"{ROOT} [data-pin]")
    elif kind == "reload":
        page.reload()
        page.wait_for_selector(f"{ROOT}[data-engine]", timeout=HANG_MS)


def _check_shown_is_computed(page) -> None:
    state = wait_until_settled(page, ROOT, timeout_ms=HANG_MS)
    inputs = form_inputs(page)
    result = compute(CALCULATOR, inputs)
    status = page.text_content(f"{ROOT} [data-status]")
    if state == "invalid":
        shown_errors = page.eval_on_selector_all(
            f"{ROOT} [data-error-for]",
            "els => Object.fromEntries(els.filter(e => e.textContent).map(e => [e.dataset.errorFor, e.textContent]))",
        )
        assert shown_errors == result["errors"], inputs
        assert not status.startswith("Live")
        return
    assert state in ("live", "precomputed"), state
    assert result["errors"] == {}, inputs
    assert shown_outputs(page) == {key: out["text"] for key, out in result["outputs"].items()}, inputs
    if state == "live":
        assert status.startswith("Live"), status


@settings(
    max_examples=12,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(actions=st.lists(ACTIONS, min_size=3, max_size=6))
def test_every_shown_result_is_compute_of_the_shown_inputs(state_page, actions):
    page, watch, url = state_page
    page.goto(url)
    page.wait_for_selector(f"{ROOT}[data-engine]", timeout=HANG_MS)
    for action in actions:
        _do(page, action)
    _check_shown_is_computed(page)
    assert watch.external_requests == [] and real_errors(watch) == []


def test_a_pasted_quantised_config_fills_the_weight_format_and_clearing_gives_it_back(page_factory, site_server):
    # An AWQ INT4 config.json proposes its format for the weight-format field, marked as read from
    # the box; the numbers shown are compute() of the form as shown; choosing a preset again
    # gives the field back.
    from tests.support.hf_configs import config_text

    page, watch = page_factory()
    page.goto(site_server + "calculators/kv-cache/", wait_until="load")
    page.wait_for_selector("[data-calculator][data-engine]")
    page.select_option("[data-calculator] [name=model]", "config")
    page.fill("[data-calculator] [name=model_config]", config_text("quantised/llama-3.1-8b-awq-int4"))
    page.wait_for_function(
        "() => document.querySelector('[data-calculator] [name=weight_dtype]').value === 'int4'",
        timeout=HANG_MS,
    )
    wait_until_settled(page)
    inputs = form_inputs(page)
    assert inputs["weight_dtype"] == "int4"
    shown = shown_outputs(page)
    assert shown == _expected("kv-cache", inputs)
    assert "INT4 (AWQ, group 128" in shown["weight_format_read"]
    mark = page.locator("[data-calculator] [data-field=weight_dtype] [data-from-paste]")
    assert mark.count() == 1 and mark.is_visible()
    # Cleared, the box gives the field back.
    page.fill("[data-calculator] [name=model_config]", "")
    page.wait_for_function(
        "() => document.querySelector('[data-calculator] [name=weight_dtype]').value === 'fp16'",
        timeout=HANG_MS,
    )
    assert mark.count() == 0
    assert watch.external_requests == [] and real_errors(watch) == []
