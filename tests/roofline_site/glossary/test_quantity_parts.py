"""Every time a page quotes carries its parts, and they add up to it (issue 31).

The references are found the way the build finds them (``markup.find_quantities``, code masked),
in every glossary entry and every docs page.
"""

from __future__ import annotations

import pytest

from roofline_core.estimates.parts import LABEL_TEXT, adds_up
from roofline_core.quantities import QUANTITIES, TIMES, QuantityError, evaluate_reference, parse_reference
from roofline_site.glossary.markup import find_quantities
from tests.support.site_build import PROJECT_ROOT

PAGES = sorted((PROJECT_ROOT / "glossary").glob("*.md")) + sorted((PROJECT_ROOT / "docs").rglob("*.md"))


def _references() -> list[tuple[str, str]]:
    found = []
    for path in PAGES:
        text = path.read_text(encoding="utf-8")
        for ref in find_quantities(text):
            found.append((f"{path.relative_to(PROJECT_ROOT)}:{ref.line}", ref.reference))
    return found


REFERENCES = _references()
TIMED = [(where, ref) for where, ref in REFERENCES if ref.split()[0] in TIMES]


def test_the_pages_quote_times_at_all() -> None:
    # Guards the search: the glossary quotes over a hundred decode step times.
    assert len(TIMED) > 100


def test_every_time_a_page_quotes_has_parts_that_add_up() -> None:
    wrong = []
    for where, reference in TIMED:
        try:
            value = evaluate_reference(reference)
        except QuantityError:
            continue  # the build reports a reference that does not evaluate
        name, arguments = parse_reference(reference)
        time_name = TIMES[name]
        if time_name == name:
            total = value.number
        else:
            # A rate: its parts are those of the time it inverts, under the same parameters.
            time_arguments = {k: v for k, v in arguments.items() if k != "per"}
            total = evaluate_reference(" ".join([time_name, *(f"{k}={v}" for k, v in time_arguments.items())])).number
            if not value.inverts:
                wrong.append(f"{where}: {reference} does not say which time it inverts")
        if not (value.parts and all(p.label in LABEL_TEXT for p in value.parts) and adds_up(value.parts, total)):
            wrong.append(f"{where}: {reference} = {value.text}, parts {value.parts}")
        if [label for label, _ in value.working] != [p.label for p in value.parts]:
            wrong.append(f"{where}: {reference} has working {value.working} for parts {value.parts}")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("name", sorted(QUANTITIES))
def test_every_quantity_gives_its_number(name: str) -> None:
    value = evaluate_reference(QUANTITIES[name].example)
    words = {"accelerator_name", "memory_kind", "interconnect_kind", "decode_bound", "prefill_bound", "peak_basis"}
    if name in words or (name == "operation" and "what=bound" in QUANTITIES[name].example):
        assert value.number is None
    else:
        assert isinstance(value.number, float | int) and value.number > 0, value
    # Only a time or a rate of one has parts.
    assert bool(value.parts) == (name in TIMES)
