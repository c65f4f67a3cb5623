"""The calculator HTML, built from each definition, is complete and accessible without JavaScript."""

from __future__ import annotations

import json
from html.parser import HTMLParser

import pytest

from roofline_core.calculators import CALCULATORS, compute, definition
from roofline_core.models.hf_config import MAX_CONFIG_CHARS
from roofline_site.calculators.fence import Placement
from roofline_site.calculators.placement import resolve
from roofline_site.calculators.render import (
    AssetUrls,
    box_text,
    browser_definition,
    render_calculator,
    slider_attributes,
    slider_stops,
)
from roofline_site.calculators.runtime_manifest import TOKEN_SLOT

ASSETS = AssetUrls(
    embed="../../embed/x/",
    glossary="../../glossary/",
)


class _Tree(HTMLParser):
    """Elements as (tag, attrs, text inside) in document order."""

    def __init__(self) -> None:
        super().__init__()
        self.elements: list[dict] = []
        self._open: list[dict] = []

    def handle_starttag(self, tag, attrs):
        element = {"tag": tag, "attrs": dict(attrs), "text": ""}
        self.elements.append(element)
        if tag not in ("input", "br", "img", "rect", "line", "path", "circle"):
            self._open.append(element)

    def handle_endtag(self, tag):
        # A closing tag of an element never opened here (an SVG </rect>) closes nothing.
        if not any(element["tag"] == tag for element in self._open):
            return
        while self._open:
            if self._open.pop()["tag"] == tag:
                break

    def handle_data(self, data):
        for element in self._open:
            element["text"] += data


def _render(calculator_id: str, **defaults: str) -> tuple[str, list[dict], dict]:
    resolved = resolve(Placement(calculator_id=calculator_id, defaults=defaults), path="x.md")
    html = render_calculator(resolved, dom_id=f"calculator-{calculator_id}", assets=ASSETS)
    tree = _Tree()
    tree.feed(html)
    return html, tree.elements, resolved.result


@pytest.mark.parametrize("calculator_id", sorted(CALCULATORS))
def test_every_input_labelled_with_unit_and_described(calculator_id):
    _html, elements, _result = _render(calculator_id)
    ids = {e["attrs"].get("id") for e in elements}
    labels = {e["attrs"]["for"]: e["text"] for e in elements if e["tag"] == "label"}
    for field in definition(calculator_id)["inputs"]:
        (control,) = [e for e in elements if e["attrs"].get("name") == field["id"]]
        assert labels[control["attrs"]["id"]].startswith(field["label"])
        if field.get("unit"):
            assert f"({field['unit']})" in labels[control["attrs"]["id"]]
        described = control["attrs"]["aria-describedby"].split()
        assert all(d in ids for d in described), described
        assert any(d.endswith("-error") for d in described)


@pytest.mark.parametrize("calculator_id", sorted(CALCULATORS))
def test_outputs_prerendered_from_roofline_core(calculator_id):
    _html, elements, result = _render(calculator_id)
    shown = {e["attrs"]["data-output"]: e["text"] for e in elements if "data-output" in e["attrs"]}
    expected = compute(calculator_id, {})["outputs"]
    assert shown == {key: str(value["text"]) for key, value in expected.items()}
    (region,) = [e for e in elements if e["attrs"].get("aria-live") == "polite"]
    assert "data-output" in region["text"] or all(text in region["text"] for text in shown.values())


def test_the_main_time_is_prerendered_with_its_parts_under_the_headline_and_chart():
    html, elements, result = _render("decode-speed-of-light", model="llama-3-70b", devices="4")
    (box,) = [e for e in elements if "data-parts-for" in e["attrs"]]
    assert box["tag"] == "div" and box["attrs"]["data-parts-for"] == "step_time"
    time = result["outputs"]["step_time"]["text"]
    assert box["text"].startswith("Time per decode step, part by part")
    assert f"{time} = " in box["text"]  # the equation, after the segments' titles
    assert "weights read" in box["text"] and "communication latency" in box["text"]
    # In the results, after the headline and the chart (which keep the first screen), before
    # the scenario line and the other outputs.
    at = html.index('data-parts-for="step_time"')
    assert html.index("roofline-calc__outputs--headline") < html.index("data-chart-box") < at
    assert at < html.index("data-scenario") and at < html.index('data-output="intensity"')
    drawing = html[at:].split("</div></div>", 1)[0]
    assert "<svg" in drawing and " style=" not in drawing  # the CSP forbids inline styles
    _html, elements, _result = _render("kv-cache")
    assert not [e for e in elements if "data-parts-for" in e["attrs"]]


def test_root_carries_the_dom_contract_and_the_token_slot_but_no_runtime_address():
    # The browser takes the runtime's addresses from the build's manifest, never from the page.
    _html, elements, _result = _render("roofline-explorer")
    root = elements[0]
    assert root["attrs"]["data-calculator"] == "roofline-explorer"
    assert root["attrs"]["data-build-token"] == TOKEN_SLOT
    assert not [name for name in root["attrs"] if "pyodide" in name or "zip" in name or "stdlib" in name]


def test_fence_defaults_show_in_the_boxes_and_the_results():
    _html, elements, result = _render("roofline-explorer", accelerator="a100-sxm-80gb", intensity="64")
    (box,) = [e for e in elements if e["attrs"].get("name") == "intensity"]
    assert box["attrs"]["value"] == "64"
    (peak,) = [e for e in elements if e["attrs"].get("name") == "peak_tflop_per_s"]
    assert peak["attrs"]["value"] == "312"
    (selected,) = [e for e in elements if e["tag"] == "option" and "selected" in e["attrs"]][:1]
    assert selected["attrs"]["value"] == "a100-sxm-80gb"
    attainable = next(e for e in elements if e["attrs"].get("data-output") == "attainable")
    assert (
        attainable["text"]
        == compute("roofline-explorer", {"accelerator": "a100-sxm-80gb", "intensity": "64"})["outputs"]["attainable"][
            "text"
        ]
    )


def test_log_sliders_move_by_powers_of_two_for_whole_numbers_and_by_decades_otherwise():
    batch = next(f for f in definition("decode-speed-of-light")["inputs"] if f["id"] == "batch")
    # 2^0 to 2^16: the shared batch limit (roofline_core.vocabulary.MAX_BATCH = 65,536).
    assert slider_attributes(batch, 16) == {"min": "0", "max": "16", "step": "1", "value": "4"}
    intensity = next(f for f in definition("roofline-explorer")["inputs"] if f["id"] == "intensity")
    assert slider_attributes(intensity, 100) == {"min": "-2", "max": "4", "step": "0.01", "value": "2"}
    _html, elements, _result = _render("decode-speed-of-light", batch="16")
    (slider,) = [e for e in elements if e["attrs"].get("data-slider-for") == "batch"]
    assert slider["attrs"]["aria-valuetext"] == "16 sequences"
    assert slider["attrs"]["aria-labelledby"].endswith("-batch-label")


def test_table_rows_choose_their_input_and_mark_the_current_one():
    _html, elements, result = _render("operations-table", operation="prefill-gemm")
    buttons = [e for e in elements if "data-choose" in e["attrs"]]
    assert [b["attrs"]["data-value"] for b in buttons] == [row["operation"]["value"] for row in result["table"]]
    pressed = [b["attrs"]["data-value"] for b in buttons if b["attrs"]["aria-pressed"] == "true"]
    assert pressed == ["prefill-gemm"]
    headers = [e["text"] for e in elements if e["tag"] == "th"]
    # The "why" sentences go on their own line under each row instead of a column.
    assert headers == [c["label"] for c in definition("operations-table")["table_columns"] if c["id"] != "why"]
    prose_rows = [e["text"] for e in elements if e["attrs"].get("class") == "roofline-calc__prose-row"]
    assert prose_rows == [f"Why: {row['why']['text']}" for row in result["table"]]


def test_definition_travels_in_an_escaped_attribute_not_a_script():
    html, elements, _result = _render("roofline-explorer")
    # Material's instant navigation re-runs every <script> in the content, whatever its type.
    assert "<script" not in html
    (holder,) = [e for e in elements if "data-calculator-data" in e["attrs"]]
    data = json.loads(holder["attrs"]["data-calculator-data"])
    whole = definition("roofline-explorer")
    assert data["definition"]["title"] == whole["title"]
    assert data["definition"]["conditions"] == whole.get("conditions", {})
    # Each input keeps what the script reads, with the same values as the whole definition.
    for slim, field in zip(data["definition"]["inputs"], whole["inputs"], strict=True):
        assert slim["id"] == field["id"] and slim["kind"] == field["kind"] and slim["label"] == field["label"]
        assert slim.get("unit", "") == (field.get("unit") or "")
        assert [c["value"] for c in slim.get("choices", [])] == [c["value"] for c in field.get("choices", [])]
        assert [c.get("fills", {}) for c in slim.get("choices", [])] == [c["fills"] for c in field.get("choices", [])]
    assert data["inputs"]["intensity"] == "1"


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (989.0, "989"),
        (3.35, "3.35"),
        (16, "16"),
        (-0.25, "-0.25"),
        ("h100-sxm", "h100-sxm"),
        (1e-7, "1e-7"),
        (5e-05, "0.00005"),
        (1.5e16, "15000000000000000"),
        (1e21, "1e+21"),
        (1.25e-9, "1.25e-9"),
    ],
)
def test_box_text_matches_how_the_browser_prints_numbers(value, text):
    assert box_text(value) == text


def test_log_slider_stops_are_computed_here_not_in_the_browser():
    batch = next(f for f in definition("decode-speed-of-light")["inputs"] if f["id"] == "batch")
    texts, thresholds = slider_stops(batch)
    assert texts == [str(2**e) for e in range(17)]
    # A typed 5 is nearer 4 than 8 on the log scale (the threshold is 2^2.5); 6 is nearer 8.
    assert slider_attributes(batch, 5)["value"] == "2" and slider_attributes(batch, 6)["value"] == "3"
    assert len(thresholds) == len(texts) - 1
    intensity = next(f for f in definition("roofline-explorer")["inputs"] if f["id"] == "intensity")
    texts, thresholds = slider_stops(intensity)
    assert texts[0] == "0.01" and texts[-1] == "10000" and len(texts) == 601
    # Position 2.01 stands for 10^2.01 = 102.3..., shown at three significant figures.
    assert texts[401] == "102"  # index 0 is position -2.00
    # 101.1 is below 10^2.005 (101.16), so it stays at 2.00; 101.2 moves to 2.01.
    assert slider_attributes(intensity, 101.1)["value"] == "2"
    assert slider_attributes(intensity, 101.2)["value"] == "2.01"
    # The rendered slider carries its stops for the browser.
    _html, elements, _result = _render("decode-speed-of-light", batch="16")
    (slider,) = [e for e in elements if e["attrs"].get("data-slider-for") == "batch"]
    assert json.loads(slider["attrs"]["data-stops"])[4] == "16"


def test_long_selects_are_grouped_by_vendor_and_family():
    html, _elements, _result = _render("decode-speed-of-light")
    from roofline_core.hardware import ACCELERATORS, accelerators_by_vendor
    from roofline_core.models import models_by_family

    for vendor, chips in accelerators_by_vendor().items():
        # A vendor's chips sit under its heading, under "<vendor> <family>" for the desktop and
        # edge families listed apart (GeForce, Radeon, Arc...), or under "CPUs: <vendor>" for its
        # CPUs; each heading appears once.
        for chip in chips:
            assert chip.group in (vendor, f"{vendor} {chip.family}", f"CPUs: {vendor}"), chip.slug
            assert html.count(f'<optgroup label="{chip.group}">') == 1, chip.group
            block = html.split(f'<optgroup label="{chip.group}">', 1)[1].split("</optgroup>", 1)[0]
            assert f'value="{chip.slug}"' in block, chip.slug
            assert html.count(f'<optgroup label="{chip.group}">') == 1, chip.group
            block = html.split(f'<optgroup label="{chip.group}">', 1)[1].split("</optgroup>", 1)[0]
            assert f'value="{chip.slug}"' in block, chip.slug
    for family in models_by_family():
        assert html.count(f'<optgroup label="{family}">') == 1, family
    # Every preset is listed once, and the Custom choice stands outside the groups.
    assert all(html.count(f'<option value="{slug}"') == 1 for slug in ACCELERATORS)
    assert '</optgroup><option value="custom"' in html


@pytest.mark.parametrize("calculator_id", ["decode-speed-of-light", "kv-cache", "prefill-ttft", "operations-table"])
def test_the_config_box_is_hidden_until_its_choice_is_made(calculator_id):
    _html, elements, _result = _render(calculator_id)
    (box,) = [e for e in elements if e["attrs"].get("data-field") == "model_config"]
    assert "hidden" in box["attrs"]
    (textarea,) = [e for e in elements if e["tag"] == "textarea" and "data-copy-text" not in e["attrs"]]
    assert textarea["attrs"]["name"] == "model_config"
    (picker,) = [e for e in elements if e["attrs"].get("type") == "file"]
    assert picker["attrs"]["data-file-for"] == "model_config"
    assert int(picker["attrs"]["data-max-chars"]) == MAX_CONFIG_CHARS
    code = "t-llama.l-32.h-4096.a-32.k-8.f-14336.v-128256"
    _html, elements, result = _render(calculator_id, model="config", model_config=code)
    (box,) = [e for e in elements if e["attrs"].get("data-field") == "model_config"]
    assert "hidden" not in box["attrs"]
    (textarea,) = [e for e in elements if e["tag"] == "textarea" and "data-copy-text" not in e["attrs"]]
    assert textarea["text"] == code
    assert result["inputs"]["model_config"] == code


def test_every_term_a_calculator_names_is_a_glossary_entry():
    from roofline_core.calculators.terms import TERM_OF
    from tests.support.shipped_glossary import shipped_glossary

    entries = shipped_glossary().entries
    assert sorted(slug for slug in set(TERM_OF.values()) if slug not in entries) == []
    # The table names ids the calculators use, not stale ones.
    used = {item["id"] for c in CALCULATORS for item in (*definition(c)["inputs"], *definition(c)["outputs"])}
    assert sorted(set(TERM_OF) - used) == []


@pytest.mark.parametrize("calculator_id", sorted(CALCULATORS))
def test_labels_link_their_glossary_terms(calculator_id):
    spec = definition(calculator_id)
    _html, elements, _result = _render(calculator_id)
    links = {e["attrs"]["data-glossary-term"]: e for e in elements if "data-glossary-term" in e["attrs"]}
    for item_id, slug in spec["terms"].items():
        assert slug in links, (calculator_id, item_id)
        assert links[slug]["attrs"]["href"] == f"{ASSETS.glossary.rstrip('/')}/{slug}/"
    # An output's name is the link; an input keeps its <label> and gets a named "?" beside it.
    outputs = {o["id"]: o["label"] for o in spec["outputs"]}
    for element in elements:
        if element["tag"] == "a" and "roofline-calc__term" in element["attrs"].get("class", ""):
            assert element["text"] in outputs.values() or (
                element["text"] == "?" and element["attrs"]["aria-label"].endswith(": glossary entry")
            )


def test_the_page_is_told_which_fields_a_link_never_carries() -> None:
    # The slimmed definition keeps `linked: false`: without it the page wrote a paste into the URL.
    for calc in CALCULATORS.values():
        shipped = {field["id"]: field for field in browser_definition(definition(calc.id))["inputs"]}
        for field in calc.inputs:
            assert shipped[field.id].get("linked", True) is field.linked, (calc.id, field.id)
