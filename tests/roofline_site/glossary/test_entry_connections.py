"""The glossary and the calculators as one site, checked from the entries' own text.

Every entry whose quantity a calculator computes (the calculators' term table,
``roofline_core.calculators.terms.TERM_OF``) links that calculator in its body, with a scenario
(a query string of the calculator's inputs) that the calculator accepts; and every entry is
linked from at least one other entry's body, so no term is reachable only from the index.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import parse_qsl

import pytest

from roofline_core.calculators import CALCULATORS, compute, definition
from roofline_core.calculators.terms import TERM_OF
from tests.support.shipped_glossary import shipped_glossary

ROOT = Path(__file__).resolve().parents[3]
GLOSSARY = shipped_glossary()
# [[slug]], [[slug|text]], [[slug#part]] and plain Markdown links to another entry's file.
TERM_LINK = re.compile(r"\[\[([a-z0-9-]+)(?:[#|][^\]]*)?\]\]|\]\(([a-z0-9-]+)\.md(?:#[^)]*)?\)")
# A link from an entry to a calculator page with a scenario: ](../calculators/<id>.md?<query>)
CALCULATOR_LINK = re.compile(r"\]\(\.\./calculators/([a-z0-9-]+)\.md\?([^)#\s]+)\)")


def _calculators_of_terms() -> dict[str, set[str]]:
    """Each glossary slug in the term table, with the calculators that have an input or output it explains."""
    found: dict[str, set[str]] = {}
    for calculator_id in CALCULATORS:
        spec = definition(calculator_id)
        for item in [*spec["inputs"], *spec["outputs"]]:
            slug = TERM_OF.get(item["id"])
            if slug is not None:
                found.setdefault(slug, set()).add(calculator_id)
    return found


CALCULATORS_OF = _calculators_of_terms()


def _scenario_links(body: str) -> list[tuple[str, dict[str, str]]]:
    return [(cid, dict(parse_qsl(query, keep_blank_values=True))) for cid, query in CALCULATOR_LINK.findall(body)]


def test_the_term_table_names_the_terms_the_issue_asks_for() -> None:
    for slug in (
        "decode",
        "prefill",
        "speed-of-light",
        "arithmetic-intensity",
        "memory-bandwidth",
        "tensor-parallelism",
    ):
        assert slug in CALCULATORS_OF


@pytest.mark.parametrize("slug", sorted(CALCULATORS_OF))
def test_each_entry_a_calculator_explores_links_that_calculator_with_a_scenario(slug: str) -> None:
    linked = {cid for cid, _ in _scenario_links(GLOSSARY.entries[slug].body)}
    assert linked & CALCULATORS_OF[slug], (
        f"glossary/{slug}.md: expected a link to one of {sorted(CALCULATORS_OF[slug])} with a scenario, "
        f"such as [the calculator](../calculators/{sorted(CALCULATORS_OF[slug])[0]}.md?batch=1); found {sorted(linked)}"
    )


def test_every_scenario_link_in_an_entry_is_one_its_calculator_accepts() -> None:
    checked = 0
    for slug, entry in GLOSSARY.entries.items():
        for calculator_id, inputs in _scenario_links(entry.body):
            assert calculator_id in CALCULATORS, f"glossary/{slug}.md: no calculator {calculator_id!r}"
            names = {field["id"] for field in definition(calculator_id)["inputs"]}
            assert inputs and set(inputs) <= names, f"glossary/{slug}.md: {sorted(set(inputs) - names)} are not inputs"
            result = compute(calculator_id, inputs)
            assert not result["errors"], f"glossary/{slug}.md: {calculator_id} refuses {inputs}: {result['errors']}"
            checked += 1
    assert checked >= len(CALCULATORS_OF)


def test_every_entry_is_linked_from_another_entrys_text() -> None:
    inbound: dict[str, set[str]] = {slug: set() for slug in GLOSSARY.entries}
    for source, entry in GLOSSARY.entries.items():
        for groups in TERM_LINK.findall(entry.body):
            target = groups[0] or groups[1]
            if target in inbound and target != source:
                inbound[target].add(source)
    orphans = sorted(slug for slug, sources in inbound.items() if not sources)
    assert orphans == [], f"linked from no other entry's body: {', '.join(orphans)}"
