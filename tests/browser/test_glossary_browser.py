"""The glossary in Chromium: previews on hover, focus and touch, the index filter, instant navigation.

The site is served under a sub-path (``/docs/``), as on GitHub Pages, so that every URL the
scripts build must be relative to the site, not to the host.
"""

from __future__ import annotations

import re
import unicodedata

import pytest

from tests.conftest import PageWatch
from tests.support.calculator_driver import save_data
from tests.support.shipped_glossary import shipped_glossary
from tests.support.static_server import StaticServer

pytestmark = pytest.mark.browser
# Pages here ask to save data (page_factory's saves_data): the checks read previews, the index and
# the prerendered calculators, so the pages boot no Python (several CPU-seconds each).

GLOSSARY = shipped_glossary()
PREVIEW = "#glossary-preview"


@pytest.fixture(scope="module")
def sub_site(built_site):
    with StaticServer(built_site, prefix="/docs") as server:
        yield server.url


def _assert_clean(watch: PageWatch) -> None:
    assert watch.external_requests == []
    assert watch.console_errors == []
    assert watch.page_errors == []


def _assert_preview_of(page, slug: str) -> None:
    preview = page.locator(PREVIEW)
    preview.wait_for(state="visible")
    entry = GLOSSARY.entries[slug]
    assert preview.locator(".glossary-preview__title").text_content() == entry.title
    assert preview.locator(".glossary-preview__category").text_content() == entry.category
    assert preview.locator(".glossary-preview__summary").text_content() == entry.summary
    open_link = preview.locator(".glossary-preview__open")
    assert open_link.text_content() == "Open full entry"
    assert re.search(rf"/docs/glossary/{slug}/(#.*)?$", open_link.evaluate("a => a.href"))


def test_hover_and_keyboard_focus_show_the_right_summary(sub_site, page_factory):
    page, watch = page_factory(saves_data=True)
    page.goto(sub_site + "glossary/roofline/", wait_until="networkidle")
    link = page.locator('article a[data-glossary-term="arithmetic-intensity"]').first
    link.hover()
    _assert_preview_of(page, "arithmetic-intensity")
    assert link.get_attribute("aria-describedby") == "glossary-preview"

    page.mouse.move(5, 5)
    page.locator(PREVIEW).wait_for(state="hidden")

    # Keyboard: Tab through the page until a term link has focus.
    page.locator("article h1").click()
    for _ in range(120):
        page.keyboard.press("Tab")
        slug = page.evaluate("document.activeElement.dataset ? document.activeElement.dataset.glossaryTerm || '' : ''")
        if slug:
            break
    assert slug, "no term link reached with Tab"
    _assert_preview_of(page, slug)
    page.keyboard.press("Escape")
    page.locator(PREVIEW).wait_for(state="hidden")
    _assert_clean(watch)


def test_previews_fetch_the_data_the_page_names(sub_site, built_site, page_factory):
    # The page names glossary.json relative to itself; the script follows that name, whatever
    # it is (here the page is changed to name another address, which serves the same data).
    page, watch = page_factory(saves_data=True)
    named = 'content="../../glossary.json"'
    pages_seen: list[str] = []

    def rename(route):
        response = route.fetch()
        pages_seen.append(response.text())
        route.fulfill(response=response, body=response.text().replace(named, 'content="../../moved/terms.json"'))

    requested: list[str] = []

    def serve_moved(route):
        requested.append(route.request.url)
        route.fulfill(path=built_site / "glossary.json", content_type="application/json")

    page.route("**/docs/glossary/roofline/", rename)
    page.route("**/docs/moved/terms.json", serve_moved)
    page.goto(sub_site + "glossary/roofline/", wait_until="networkidle")
    assert f'<meta name="roofline:glossary-json" {named}>' in pages_seen[0]
    page.locator('article a[data-glossary-term="arithmetic-intensity"]').first.hover()
    _assert_preview_of(page, "arithmetic-intensity")
    assert requested == [sub_site + "moved/terms.json"]
    _assert_clean(watch)


def test_touch_first_tap_previews_second_tap_follows(sub_site, browser):
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True, service_workers="block"
    )
    try:
        page = context.new_page()
        watch = PageWatch()
        watch.attach(page)
        save_data(page)
        page.goto(sub_site + "glossary/decode/", wait_until="networkidle")
        link = page.locator('article a[data-glossary-term="kv-cache"]').first
        link.scroll_into_view_if_needed()
        link.tap()
        _assert_preview_of(page, "kv-cache")
        assert page.url.endswith("/docs/glossary/decode/")
        link.tap()
        page.wait_for_url(re.compile(r"/docs/glossary/kv-cache/$"))
        page.locator("article h1", has_text="KV cache").wait_for()
        _assert_clean(watch)
    finally:
        context.close()


def test_index_filter_narrows_the_list_as_you_type(sub_site, page_factory):
    page, watch = page_factory(saves_data=True)
    page.goto(sub_site + "glossary/", wait_until="networkidle")
    items = page.locator(".glossary-group li")
    total = items.count()
    assert total == len(GLOSSARY.entries)  # each term once; A-Z is a view of the same items
    box = page.locator("#glossary-filter-input")
    box.press_sequentially("cache", delay=20)
    visible = page.locator(".glossary-group li:visible")
    texts = visible.all_text_contents()
    assert 0 < len(texts) < total
    assert all("cache" in t.lower() for t in texts)
    matching = {
        slug for slug, e in GLOSSARY.entries.items() if "cache" in " ".join((e.title, e.summary, *e.aliases)).lower()
    }
    assert (
        page.locator(".glossary-filter__status").text_content()
        == f"{len(matching)} of {len(GLOSSARY.entries)} terms match."
    )
    # Groups with nothing left are hidden; the filter is in the address, to share.
    assert page.locator(".glossary-group:visible").count() < page.locator(".glossary-group").count()
    assert page.url.endswith("glossary/?filter=cache")

    box.fill("zzzz")
    assert page.locator(".glossary-group li:visible").count() == 0
    assert page.locator(".glossary-filter__status").text_content() == "No term matches “zzzz”."
    assert page.locator(".glossary-filter__empty").is_visible()
    page.locator("[data-glossary-clear]").click()
    assert box.input_value() == "" and page.locator(".glossary-filter__empty").is_hidden()
    assert page.locator(".glossary-group li:visible").count() == total
    assert page.url.endswith("glossary/")
    _assert_clean(watch)


def _normalised(text: str) -> str:
    # The index filter's normalise() and spelling(), in Python: the reference the page must follow.
    text = unicodedata.normalize("NFKD", text)
    text = re.sub(r"[^a-z0-9]+", " ", "".join(c for c in text if not unicodedata.combining(c)).lower()).strip()
    return re.sub(r"([iy])z", r"\1s", text)


def _expected_ranking(query: str, build_order: list[str]) -> list[str]:
    phrase = _normalised(query)
    ranked = []
    for slug in build_order:
        e = GLOSSARY.entries[slug]
        fields = [_normalised(e.title), _normalised(", ".join(e.aliases)), _normalised(e.summary)]
        places = [next((at for at, text in enumerate(fields) if word in text), -1) for word in phrase.split()]
        if -1 in places:
            continue
        rank = max(places)
        ranked.append((rank * 2 + (0 if rank == 0 and fields[0].startswith(phrase) else 1), slug))
    return [slug for _, slug in sorted(ranked, key=lambda pair: pair[0])]


def test_index_filter_ranks_title_then_alias_then_summary_matches(sub_site, page_factory):
    page, watch = page_factory(saves_data=True)
    page.goto(sub_site + "glossary/", wait_until="networkidle")
    build_order = page.locator("[data-glossary-listing] li a[data-glossary-term]").evaluate_all(
        "links => links.map((a) => a.dataset.glossaryTerm)"
    )
    box = page.locator("#glossary-filter-input")
    for query in ("cache", "bandwidth", "decode step", "attention"):
        box.fill(query)
        shown = page.locator(".glossary-group li:visible a[data-glossary-term]").evaluate_all(
            "links => links.map((a) => a.dataset.glossaryTerm)"
        )
        assert shown == _expected_ranking(query, build_order), query
        if " " not in query:
            # Read plainly: title matches, then alias matches, then summary-only ones.
            tiers = [
                0 if query in entry.title.lower() else 1 if query in " ".join(entry.aliases).lower() else 2
                for entry in (GLOSSARY.entries[slug] for slug in shown)
            ]
            assert tiers == sorted(tiers) and tiers[0] == 0 and tiers[-1] == 2, query
    assert page.locator(".glossary-group--ranked h3").text_content() == "Best matches first"
    # Cleared, every term is back in its category, in the build's order.
    box.fill("")
    back = page.locator("[data-glossary-listing] li a[data-glossary-term]").evaluate_all(
        "links => links.map((a) => a.dataset.glossaryTerm)"
    )
    assert back == build_order and page.locator(".glossary-group--ranked").is_hidden()
    _assert_clean(watch)


@pytest.mark.parametrize(
    ("typed", "finds"),
    [
        # Entries spelled the British way, with no American alias.
        ("quantization", "gguf-quantisation"),
        ("quantization", "w8a8-quantisation"),
        ("quantiz", "gguf-quantisation"),  # half typed
    ],
)
def test_index_filter_matches_british_and_american_spellings(sub_site, page_factory, typed, finds):
    page, watch = page_factory(saves_data=True)
    page.goto(sub_site + f"glossary/?filter={typed}", wait_until="networkidle")
    shown = page.locator(".glossary-group li:visible a[data-glossary-term]").evaluate_all(
        "links => links.map((a) => a.dataset.glossaryTerm)"
    )
    assert finds in shown
    _assert_clean(watch)


def test_index_a_to_z_is_a_view_of_the_same_list_kept_in_the_address(sub_site, page_factory):
    page, watch = page_factory(saves_data=True)
    page.goto(sub_site + "glossary/?filter=cache&view=a-z", wait_until="networkidle")
    # The link restores both: the letter groups hold the matching terms, A to Z.
    assert page.locator("#glossary-filter-input").input_value() == "cache"
    assert page.locator('[data-glossary-view="a-z"]').get_attribute("aria-pressed") == "true"
    shown = page.locator(".glossary-group li:visible a[data-glossary-term]")
    titles = shown.all_text_contents()
    by_title = sorted(
        (e.title for e in GLOSSARY.entries.values() if "cache" in " ".join((e.title, e.summary, *e.aliases)).lower()),
        key=lambda t: t.casefold(),
    )
    assert titles == by_title
    assert page.locator(".glossary-group li").count() == len(GLOSSARY.entries)
    page.locator('[data-glossary-view="category"]').click()
    assert page.url.endswith("glossary/?filter=cache")
    assert page.locator("[data-glossary-listing] li").count() == len(GLOSSARY.entries)
    _assert_clean(watch)


def test_index_is_a_plain_list_without_javascript(sub_site, page_factory):
    page, watch = page_factory(java_script_enabled=False)
    page.goto(sub_site + "glossary/")
    assert page.locator(".glossary-filter").is_hidden()
    assert page.locator(".glossary-group li:visible").count() == len(GLOSSARY.entries)
    assert watch.external_requests == []


def _serve_sitemap_as_if_hosted_at_site_url(page, site_base: str) -> None:
    """Material's instant navigation only intercepts links listed in sitemap.xml, whose
    addresses come from ``site_url`` (http://127.0.0.1:8000/); it adjusts protocol and host
    but not port or path. Rewrite them to where this test serves the site, as a deployment
    whose ``site_url`` matches its host would have them."""

    def route(route_obj):
        response = route_obj.fetch()
        body = response.text().replace("http://127.0.0.1:8000/", site_base)
        route_obj.fulfill(response=response, body=body)

    page.route("**/sitemap.xml", route)


def test_previews_work_after_instant_navigation(sub_site, page_factory):
    page, watch = page_factory(saves_data=True)
    _serve_sitemap_as_if_hosted_at_site_url(page, sub_site)
    page.goto(sub_site, wait_until="networkidle")
    page.evaluate("window.__sameDocument = true")

    page.locator(".md-nav__link", has_text="Glossary").first.click()
    page.wait_for_url(re.compile(r"/docs/glossary/$"))
    page.locator("#glossary-filter-input").wait_for(state="visible")  # filter re-mounted
    assert page.evaluate("window.__sameDocument === true"), "Material did a full page load"

    page.locator('article a[data-glossary-term="ridge-point"]').first.hover()
    _assert_preview_of(page, "ridge-point")

    page.locator('article a[data-glossary-term="decode"]').first.click()
    page.wait_for_url(re.compile(r"/docs/glossary/decode/$"))
    page.locator("article h1", has_text="Decode").wait_for()
    assert page.evaluate("window.__sameDocument === true")
    page.locator(PREVIEW).wait_for(state="hidden")  # a stale preview does not follow the reader

    page.locator('article a[data-glossary-term="prefill"]').first.hover()
    _assert_preview_of(page, "prefill")
    _assert_clean(watch)


@pytest.mark.parametrize(("scheme", "width"), [("light", 1280), ("dark", 1280), ("light", 390), ("dark", 390)])
def test_screenshots(sub_site, page_factory, screenshots, scheme, width):
    page, watch = page_factory(color_scheme=scheme, width=width, saves_data=True)
    for name, path in (("term", "glossary/roofline/"), ("index", "glossary/")):
        page.goto(sub_site + path, wait_until="networkidle")
        screenshots.take(page, f"glossary-{name}-{scheme}-{width}.png")
    page.goto(sub_site + "glossary/roofline/", wait_until="networkidle")
    link = page.locator('article a[data-glossary-term="memory-bandwidth"]').first
    link.scroll_into_view_if_needed()
    link.focus()
    page.locator(PREVIEW).wait_for(state="visible")
    box = page.locator(PREVIEW).bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= width  # stays on screen at 390 px
    screenshots.take(page, f"glossary-preview-{scheme}-{width}.png")
    _assert_clean(watch)


def test_calculator_labels_preview_their_glossary_terms(sub_site, page_factory):
    # A calculator page links the terms it uses: an output's name, and a "?" beside an input.
    page, watch = page_factory(saves_data=True)
    page.goto(sub_site + "calculators/decode-speed-of-light/", wait_until="networkidle")
    page.locator('.roofline-calc__output a.roofline-calc__term[data-glossary-term="ridge-point"]').hover()
    _assert_preview_of(page, "ridge-point")
    # The term's value in this scenario, as the result shows it, with the model and chip.
    shown = page.locator('[data-calculator] [data-output="ridge_point"]').text_content()
    here = page.locator(f"{PREVIEW} .glossary-preview__here")
    assert here.is_visible()
    assert here.text_content() == f"In this scenario: {shown} (Llama 3 8B, NVIDIA H100 SXM)."
    page.keyboard.press("Escape")
    page.locator('.roofline-calc__label-row a.roofline-calc__term[data-glossary-term="batching"]').focus()
    _assert_preview_of(page, "batching")
    # An input's term has no single value: no scenario line.
    assert not page.locator(f"{PREVIEW} .glossary-preview__here").is_visible()
    _assert_clean(watch)
