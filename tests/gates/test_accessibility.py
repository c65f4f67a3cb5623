"""Gate: every page passes axe-core with no serious or critical violation, in light and dark
palettes, and a calculator can be used by keyboard alone."""

from __future__ import annotations

import pytest

from tests.gates.conftest import (
    ALL_RULES,
    COLOUR_RULES,
    PALETTES,
    PASSES,
    SHARDS,
    STRUCTURE_RULES,
    axe_findings,
    axe_rules,
    colour_pages,
    format_visits,
    parse_pass,
    pass_pages,
    shard_pages,
    visitable_pages,
)
from tests.support.browser_wait import HANG_MS
from tests.support.calculator_driver import (
    calculator_states,
    change_focused_control_with_keys,
    tab_to_calculator_control,
    wait_until_live,
)
from tests.support.site_pages import pages_with, url_path
from tests.support.style_cover import style_signatures

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_every_page_passes_axe_in_both_palettes(site_visits):
    assert site_visits, "no page was visited"
    findings = []
    for v in site_visits:
        if v.scheme_seen != PALETTES[v.palette]:
            findings.append(
                (
                    v,
                    "palette",
                    f"palette not applied (body shows '{v.scheme_seen}' for prefers-color-scheme: {v.palette})",
                )
            )
        findings += [(v, "axe", finding) for finding in axe_findings(v)]
    lines = [f"{v.page} [{v.palette}]: {text}" for v, _kind, text in findings]
    assert not lines, f"{len(lines)} serious/critical axe-core violations or unapplied palettes:\n" + "\n".join(lines)


def test_axe_ran_on_every_page_in_both_palettes(site_visits, built_site, request):
    # site_visits is one shard of one palette's pass; the fixture's parameters make this test run
    # for each, and the shards of a palette together hold every page once (checked below).
    name = request.node.callspec.params["site_visits"]
    palette = parse_pass(name)[0]
    assert palette in PALETTES and {v.palette for v in site_visits} == {palette}
    assert {(v.page, v.palette) for v in site_visits} == {(page, palette) for page in _shard_of(name, built_site)}
    assert not format_visits(site_visits, "problems")
    assert all(v.axe_rules == axe_rules(built_site, v.page, v.palette) for v in site_visits)


def test_every_rule_runs_on_every_page_and_the_colour_rules_on_pages_showing_every_element(built_site):
    # In light, every page gets every rule but the colour ones, and the colour rules run on the
    # pages that show every styled element (as in dark), in both palettes.
    colour = colour_pages(built_site)
    for palette in PALETTES:
        ran = {page: axe_rules(built_site, page, palette) for page in pass_pages(built_site, palette)}
        with_colour = sorted(page for page, rules in ran.items() if rules in (ALL_RULES, COLOUR_RULES))
        assert with_colour == sorted(colour), palette
    light = {page: axe_rules(built_site, page, "light") for page in visitable_pages(built_site)}
    assert set(light.values()) == {ALL_RULES, STRUCTURE_RULES}
    assert {axe_rules(built_site, page, "dark") for page in colour} == {COLOUR_RULES}


def test_the_shards_of_each_palette_hold_its_pages_once(built_site):
    for palette in PALETTES:
        shards = [_shard_of(name, built_site) for name in PASSES if parse_pass(name)[0] == palette]
        assert len(shards) == SHARDS and all(shards), f"{palette}: an empty shard among {len(shards)}"
        assert sorted(page for shard in shards for page in shard) == sorted(pass_pages(built_site, palette))
    assert pass_pages(built_site, "light") == visitable_pages(built_site)


def test_the_dark_pass_shows_every_styled_element_of_every_page(built_site):
    # The dark pass opens fewer pages than the light one, and the colour rules run on as few in
    # light; they must still hold every element of every page in its setting, or a contrast
    # failure could go unseen.
    def signatures(pages):
        return set().union(*(style_signatures((built_site / p).read_text(encoding="utf-8")) for p in pages))

    dark = pass_pages(built_site, "dark")
    assert signatures(dark) == signatures(visitable_pages(built_site))
    assert len(dark) < len(visitable_pages(built_site))
    assert colour_pages(built_site) == dark


def _shard_of(name: str, built_site) -> list[str]:
    palette, shard, count = parse_pass(name)
    return shard_pages(pass_pages(built_site, palette), shard, count)


def test_a_calculator_is_usable_by_keyboard_alone(built_site, hosted_site, page_factory):
    pages = pages_with(built_site, "data-calculator=")
    if not pages:
        pytest.skip("the built site has no [data-calculator] page yet (the calculators have not landed)")
    page, watch = page_factory()
    page.goto(hosted_site.url + url_path(pages[0]), wait_until="load")
    tabs = tab_to_calculator_control(page)
    change = change_focused_control_with_keys(page)
    assert change.after != change.before, f"{pages[0]}: arrow keys did not change {change.control} ({change.before!r})"
    # The keyboard change is enough to start Pyodide and get live results.
    states = wait_until_live(page)
    assert "failed" not in states, f"{pages[0]}: calculator states after a keyboard change: {states}"
    assert calculator_states(page)[0] == "live", f"{pages[0]}: first calculator not live after {tabs} Tabs and a key"
    assert page.evaluate("() => document.activeElement.closest('[data-calculator]') !== null"), (
        "focus left the calculator"
    )
    assert watch.page_errors == [] and watch.console_errors == []


def test_a_glossary_preview_opens_on_keyboard_focus(built_site, hosted_site, page_factory):
    pages = pages_with(built_site, "data-glossary-term")
    if not pages:
        pytest.skip("the built site has no glossary term links yet (the glossary has not landed)")
    page, watch = page_factory()
    page.goto(hosted_site.url + url_path(pages[0]), wait_until="networkidle")
    for _ in range(300):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.matches('a[data-glossary-term]')"):
            break
    else:
        raise AssertionError(f"{pages[0]}: no glossary term link reached with Tab")
    preview = page.locator("#glossary-preview")
    preview.wait_for(state="visible", timeout=HANG_MS)
    described = page.evaluate("() => document.activeElement.getAttribute('aria-describedby')")
    assert described == "glossary-preview", "the focused link is not described by its preview"
    assert watch.page_errors == [] and watch.console_errors == []
