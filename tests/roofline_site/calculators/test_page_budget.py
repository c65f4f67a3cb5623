"""A page's calculator fences are counted and their defaults measured before any is computed."""

from __future__ import annotations

import pytest

from roofline_site.calculators import page as calculator_page
from roofline_site.calculators.fence import FenceError
from roofline_site.calculators.page import (
    MAX_CALCULATOR_FENCES_PER_PAGE,
    MAX_DEFAULTS_CHARS_PER_PAGE,
    CalculatorFences,
)
from roofline_site.fences import start_build
from tests.roofline_site.calculators.test_page import ASSETS

FENCE = "```calculator\nid: kv-cache\n{defaults}```\n\n"


def _page(fences: int, defaults: str = "") -> str:
    """``fences`` calculator fences: 4 lines each, 5 with a ``defaults`` line."""
    return "".join(FENCE.format(defaults=defaults) for _ in range(fences))


@pytest.fixture
def no_compute(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fail the test if any fence reaches rendering (and so computing)."""

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("a fence was rendered before the page's budget was checked")

    monkeypatch.setattr(calculator_page, "_render", refuse)


def test_the_sites_own_pages_are_well_inside_the_limits() -> None:
    from tests.support.site_build import PROJECT_ROOT

    for folder in ("docs", "glossary"):
        for path in (PROJECT_ROOT / folder).rglob("*.md"):
            text = path.read_text(encoding="utf-8")
            assert text.count("```calculator") <= MAX_CALCULATOR_FENCES_PER_PAGE // 4, path


def test_one_fence_too_many_stops_the_page_at_that_fence(no_compute: None) -> None:
    build = start_build([CalculatorFences(assets=lambda: ASSETS)])
    page = _page(MAX_CALCULATOR_FENCES_PER_PAGE + 1)
    with pytest.raises(FenceError) as caught:
        build.prepare_page(page, path="docs/p.md", source=page)
    line = 4 * MAX_CALCULATOR_FENCES_PER_PAGE + 1
    assert str(caught.value) == (
        f"docs/p.md:{line}: the page has {MAX_CALCULATOR_FENCES_PER_PAGE + 1} calculator fences; "
        f"expected at most {MAX_CALCULATOR_FENCES_PER_PAGE} per page (split it into pages)"
    )


def test_defaults_past_the_page_budget_stop_at_their_line_before_computing(no_compute: None) -> None:
    build = start_build([CalculatorFences(assets=lambda: ASSETS)])
    half = MAX_DEFAULTS_CHARS_PER_PAGE // 2
    page = "".join(
        FENCE.format(defaults=f"defaults: model=config, model_config=t-{'x' * (half - 10)}\n") for _ in range(3)
    )
    with pytest.raises(FenceError) as caught:
        build.prepare_page(page, path="docs/p.md", source=page)
    message = str(caught.value)
    assert message.startswith("docs/p.md:13: the page's calculator defaults reach ")
    assert message.endswith(
        f"characters here; expected at most {MAX_DEFAULTS_CHARS_PER_PAGE:,} on a page (link to a file instead of pasting it)"
    )


def test_a_page_at_the_fence_limit_still_builds() -> None:
    build = start_build([CalculatorFences(assets=lambda: ASSETS)])
    page = _page(MAX_CALCULATOR_FENCES_PER_PAGE, "defaults: batch=2\n")
    assert build.prepare_page(page, path="docs/p.md", source=page) == MAX_CALCULATOR_FENCES_PER_PAGE
