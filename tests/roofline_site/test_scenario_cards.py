"""roofline_site.scenario_cards: the scenarios entries link to, their headline results (computed
by the calculator) and the preview pages that name their cards."""

from __future__ import annotations

import re
import struct

import pytest

from roofline_core.calculators import compute, definition
from roofline_site import scenario_cards
from roofline_site.link_cards import cached_scenario_card_file
from roofline_site.page_allowlist import check_page
from tests.support.site_build import PROJECT_ROOT
from tests.support.site_pages import is_redirect_stub

TEXT = """
See [the explorer](../calculators/roofline-explorer.md?accelerator=h100-sxm&intensity=64) and
[the cache](../calculators/kv-cache.md?model=llama-3-70b&batch=8&kv_dtype=fp8), again
[here](../calculators/kv-cache.md?kv_dtype=fp8&batch=8), and
[the defaults](../calculators/decode-speed-of-light.md?batch=1).
"""


def test_linked_scenarios_drop_defaults_sort_and_count_each_once():
    found = scenario_cards.linked_scenarios([TEXT])
    # kv-cache's default model is Llama 3 70B, the explorer's chip the H100 SXM: a link to the
    # calculator's defaults (decode at batch 1) is its page, whose own card stays.
    assert [(s.calculator_id, s.inputs) for s in found] == [
        ("kv-cache", (("batch", "8"), ("kv_dtype", "fp8"))),
        ("roofline-explorer", (("intensity", "64"),)),
    ]
    kv = found[0]
    assert kv.query == "batch=8&kv_dtype=fp8"
    assert re.fullmatch(r"calculators/kv-cache/scenario/[0-9a-f]{12}/", kv.page_path)
    assert kv.card_path == f"assets/cards/scenario/kv-cache.{kv.key}.png"


def test_every_entry_scenario_has_a_preview_with_the_calculators_own_results():
    scenarios = scenario_cards.entry_scenarios(PROJECT_ROOT / "glossary")
    assert len(scenarios) >= 10
    for scenario in scenarios:
        item = scenario_cards.preview(scenario)
        spec = definition(scenario.calculator_id)
        outputs = compute(scenario.calculator_id, dict(scenario.inputs))["outputs"]
        labels = {o["id"]: o["label"] for o in spec["outputs"]}
        expected = [(labels[key], outputs[key]["text"]) for key in spec["headline"] if key in outputs]
        assert list(item.results) == expected[: scenario_cards.CARD_RESULTS]
        assert item.title == spec["title"]


def test_the_card_names_the_model_even_where_the_link_leaves_it_at_its_default():
    (scenario,) = scenario_cards.linked_scenarios(["](../calculators/decode-speed-of-light.md?batch=64)"])
    item = scenario_cards.preview(scenario)
    assert dict(item.inputs)["Batch size"] == "64"
    assert dict(item.inputs)["Model"] == "Llama 3 8B"


def test_a_scenario_the_calculator_refuses_stops_with_its_link():
    (scenario,) = scenario_cards.linked_scenarios(["](../calculators/decode-speed-of-light.md?batch=-3)"])
    with pytest.raises(ValueError, match=r"decode-speed-of-light\?batch=-3"):
        scenario_cards.preview(scenario)


def _page(site_url):
    (scenario,) = scenario_cards.linked_scenarios(["](../calculators/kv-cache.md?batch=8&kv_dtype=fp8)"])
    item = scenario_cards.preview(scenario)
    text = scenario_cards.preview_html(
        item, target_href="../../?batch=8&kv_dtype=fp8", site_url=site_url, site_name="Roofline Glossary"
    )
    return scenario, item, text


def test_the_preview_page_names_the_card_absolutely_and_forwards_to_the_scenario():
    scenario, item, text = _page("https://example.org/rg/")
    assert f'<meta property="og:image" content="https://example.org/rg/{scenario.card_path}">' in text
    assert f'<meta property="og:url" content="https://example.org/rg/{scenario.page_path}">' in text
    assert '<meta name="twitter:card" content="summary_large_image">' in text
    assert f'<meta property="og:title" content="KV cache size: {item.results[0][1]}">' in text
    assert '<meta http-equiv="refresh" content="0; url=../../?batch=8&amp;kv_dtype=fp8">' in text
    # A redirect stub as the site's allowlist knows them: no script, a relative refresh.
    assert is_redirect_stub(text) and check_page(text, path="x", redirect=True) == []


def test_without_site_url_the_preview_page_has_no_og_image():
    _, item, text = _page(None)
    assert "og:image" not in text and "og:url" not in text
    assert item.description in text  # the result is still in its title and description


def test_the_card_is_a_deterministic_1200_by_630_png(tmp_path):
    (scenario,) = scenario_cards.linked_scenarios(["](../calculators/kv-cache.md?batch=8&kv_dtype=fp8)"])
    item = scenario_cards.preview(scenario)
    args = (item.title, list(item.results), item.inputs_text)
    first = cached_scenario_card_file(*args, site_name="Roofline Glossary", cache_dir=tmp_path / "a").read_bytes()
    again = cached_scenario_card_file(*args, site_name="Roofline Glossary", cache_dir=tmp_path / "b").read_bytes()
    assert first == again
    assert first[:8] == b"\x89PNG\r\n\x1a\n" and struct.unpack(">II", first[16:24]) == (1200, 630)


def test_share_previews_map_the_scenarios_query_to_the_published_preview():
    found = scenario_cards.linked_scenarios([TEXT])
    previews = scenario_cards.share_previews(found, "kv-cache", link_to=lambda path: "https://example.org/" + path)
    assert previews == (("batch=8&kv_dtype=fp8", "https://example.org/" + found[0].page_path),)
