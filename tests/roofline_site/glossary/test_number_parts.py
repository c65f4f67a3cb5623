"""What each time-like number of a page is made of: the file its popover draws from."""

from __future__ import annotations

import json
import re

import pytest

from roofline_core.quantities import evaluate_reference
from roofline_site.glossary import number_parts, reproduce
from roofline_site.glossary.reproduce import Shown
from tests.support.view_tree import nodes_with_class, tree_text

TIME = "decode_step_time model=llama-3-70b accelerator=h100-sxm devices=8"
RATE = "decode_tokens_per_s model=llama-3-70b accelerator=h100-sxm devices=8"
PLAIN = "ridge_point accelerator=h100-sxm"


def _shown(reference: str) -> Shown:
    return Shown(reference, evaluate_reference(reference).text)


def test_the_file_holds_a_drawing_for_each_number_with_parts_by_its_index():
    made = number_parts.parts_file([_shown(PLAIN), _shown(TIME), _shown(RATE)])
    assert re.fullmatch(r"assets/roofline/numbers/numbers\.[0-9a-f]{16}\.json", made.site_path)
    trees = json.loads(made.text)["parts"]
    assert sorted(trees) == ["1", "2"]  # the ridge point is not a time
    time = evaluate_reference(TIME)
    equation = tree_text(nodes_with_class(trees["1"], "roofline-parts__equation")[0])
    # The equation starts with the number as the page shows it, then each part in order.
    assert equation.startswith(f"{time.text} = ")
    for part, (label, working) in zip(time.parts, time.working, strict=True):
        assert part.label == label
        assert f"({working})" in equation
    assert "communication latency" in equation


def test_a_rate_shows_the_parts_of_the_time_it_inverts_and_names_it():
    rate = evaluate_reference(RATE)
    tree = number_parts.value_parts(rate)
    assert tree_text(nodes_with_class(tree, "roofline-parts__inverts")[0]) == f"The time it inverts: {rate.inverts}."


def test_no_file_for_a_page_whose_numbers_have_no_parts():
    assert number_parts.parts_file([_shown(PLAIN)]) is None
    assert number_parts.value_parts(evaluate_reference(PLAIN)) is None


def test_the_file_is_named_by_its_content():
    one = number_parts.parts_file([_shown(TIME)])
    assert one == number_parts.parts_file([_shown(TIME)])
    assert one.site_path != number_parts.parts_file([_shown(RATE)]).site_path


@pytest.mark.parametrize("parts_path", [None, "assets/roofline/numbers/numbers.0123456789abcdef.json"])
def test_the_script_link_names_the_parts_file_when_there_is_one(parts_path):
    section, _ = reproduce.page_section(
        [_shown(TIME)], "C.", page_url="glossary/decode/", href=lambda path: "../../" + path, parts_path=parts_path
    )
    link = re.search(r'<a class="roofline-reproduce__script"[^>]*>', section).group(0)
    if parts_path is None:
        assert "data-parts" not in link
    else:
        assert f'data-parts="../../{parts_path}"' in link
