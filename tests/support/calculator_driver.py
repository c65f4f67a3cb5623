"""Drive a live calculator in a Playwright page through its public DOM contract.

The contract (issue 5): each calculator root has ``data-calculator="<id>"`` and a
``data-state`` that reads ``precomputed`` until Pyodide answers and ``live`` once it has
(``failed`` when it cannot load); inputs have ``name="<input id>"``; outputs ``data-output``.
"""

from __future__ import annotations

from dataclasses import dataclass

from tests.support.browser_wait import HANG_MS

CALCULATOR = "[data-calculator]"
#: Controls a person changes with arrow keys: sliders, number boxes, selects.
KEYBOARD_CONTROLS = "input[type=range], input[type=number], select, input[type=text], input:not([type])"

# Predicates are passed as functions: under the strict CSP a string expression would need
# eval, which Playwright's wait_for_function uses for non-function strings.
_IS_CONTROL = """(el) => !!el && !!el.closest('[data-calculator]') &&
    el.matches('input[type=range], input[type=number], select, input[type=text], input:not([type])')"""


@dataclass(frozen=True)
class KeyboardChange:
    """What happened when a control was changed with the keyboard."""

    tabs: int
    control: str
    before: str
    after: str


def save_data(page) -> None:
    """Make ``page`` ask to save data (``navigator.connection.saveData``, through the DevTools
    protocol), on this and every later page it opens: calculators then mount with the build's
    precomputed values and never start Python by themselves (engine.mjs ``whenIdleAfterLoad``),
    as for a reader who saves data. A check of the mounted page, which never waits for the
    runtime, then pays for no boot (about 3 CPU-seconds on the 2-core machine), and needs no
    request interception either (a route, which would turn the page's HTTP cache off)."""
    session = page.context.new_cdp_session(page)
    session.send("Emulation.setDataSaverOverride", {"dataSaverEnabled": True})


def wait_until_mounted(page, *, timeout_ms: float = HANG_MS) -> None:
    """Wait until the page's script has mounted a calculator (it sets ``data-engine`` then).

    Keys pressed into a form no script listens to yet change the control but start nothing, so
    a calculator driven before it is mounted never goes live (seen under CI load).
    """
    page.locator(f"{CALCULATOR}[data-engine]").first.wait_for(timeout=timeout_ms)


def tab_to_calculator_control(page, *, max_tabs: int = 200) -> int:
    """Press Tab from the top of the page until a calculator control has focus; return the count.

    Waits first for a calculator to be mounted (:func:`wait_until_mounted`).

    Raises:
        AssertionError: if no calculator control is reached within ``max_tabs`` presses.
    """
    wait_until_mounted(page)
    page.evaluate("() => { document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0); }")
    for count in range(1, max_tabs + 1):
        page.keyboard.press("Tab")
        if page.evaluate(f"() => ({_IS_CONTROL})(document.activeElement)"):
            return count
    raise AssertionError(f"no calculator control reached after {max_tabs} Tab presses")


def change_focused_control_with_keys(page, *, max_controls: int = 4) -> KeyboardChange:
    """Change the focused control's value with arrow keys (up; down when already at the top).

    A text box does not move with arrow keys (it is typed into), so when the focused control
    does not change, Tab moves on to the next one (its slider, a select), up to ``max_controls``;
    if none of those moves either (a calculator whose first fields are all boxes), the first box
    is typed into: End, then a digit.
    """
    describe = "() => { const el = document.activeElement; return `${el.tagName.toLowerCase()}[name=${el.name}]`; }"
    first = page.evaluate(describe)
    first_before = page.evaluate("() => document.activeElement.value")
    for _ in range(max_controls):
        control = page.evaluate(describe)
        before = page.evaluate("() => document.activeElement.value")
        for key in ("ArrowUp", "ArrowDown", "ArrowRight", "ArrowLeft"):
            page.keyboard.press(key)
            after = page.evaluate("() => document.activeElement.value")
            if after != before:
                return KeyboardChange(0, control, before, after)
        page.keyboard.press("Tab")
    for _ in range(max_controls):
        page.keyboard.press("Shift+Tab")
    page.keyboard.press("End")
    page.keyboard.press("1")
    return KeyboardChange(0, first, first_before, page.evaluate("() => document.activeElement.value"))


def calculator_states(page) -> list[str]:
    """``data-state`` of every calculator on the page."""
    return page.evaluate("() => [...document.querySelectorAll('[data-calculator]')].map(el => el.dataset.state || '')")


#: How often the waits below test their condition, in ms. Playwright's default tests it on every
#: animation frame, which keeps a waiting page drawing frames for the whole boot (measured: 0.06
#: against 0.01 CPU-s per second of waiting) and takes the idle periods the calculators start in.
POLL_INTERVAL_MS = 50


def wait_until_live(page, *, timeout_ms: float = HANG_MS) -> list[str]:
    """Wait until every calculator on the page is live (or one failed); return their states."""
    page.wait_for_function(
        "() => { const s = [...document.querySelectorAll('[data-calculator]')].map(el => el.dataset.state);"
        " return s.length > 0 && (s.every(x => x === 'live') || s.includes('failed')); }",
        timeout=timeout_ms,
        polling=POLL_INTERVAL_MS,
    )
    return calculator_states(page)


def make_live(page, *, timeout_ms: float = HANG_MS) -> tuple[KeyboardChange, list[str]]:
    """Interact with the first calculator by keyboard (which starts Pyodide) and wait for it."""
    tabs = tab_to_calculator_control(page)
    change = change_focused_control_with_keys(page)
    states = wait_until_live(page, timeout_ms=timeout_ms)
    return KeyboardChange(tabs, change.control, change.before, change.after), states


def wait_until_settled(page, root: str = CALCULATOR, *, timeout_ms: float = HANG_MS) -> str:
    """Wait until the calculator at ``root`` is live and has no compute pending; return its state.

    ``data-state`` reads ``computing`` from the moment its inputs differ from those its results
    are for until the result of exactly the inputs shown is on screen (calculator.mjs), so a
    test waits on it instead of sleeping.
    """
    page.wait_for_function(
        """(selector) => { const el = document.querySelector(selector);
        return !!el && (el.dataset.state === 'failed' ||
          (el.dataset.engine === 'live' && el.dataset.state !== 'computing')); }""",
        arg=root,
        timeout=timeout_ms,
        polling=POLL_INTERVAL_MS,
    )
    return page.eval_on_selector(root, "el => el.dataset.state")
