"""schema.org JSON-LD (roofline_site.glossary.structured_data), checked against the vocabulary.

The extract of schema.org (``tests/data/schemaorg/vocabulary-extract.json``) was taken from the
release named in it with, in a checkout of https://github.com/schemaorg/schemaorg::

    graph = {n["@id"]: n for n in json.load(open(release / "schemaorg-current-https.jsonld"))["@graph"]}
    # for each type used and its superclasses: graph["schema:T"]["rdfs:subClassOf"]
    # for each property used: graph["schema:p"]["schema:domainIncludes"], ["schema:rangeIncludes"]
"""

from __future__ import annotations

import dataclasses
import json

from roofline_site.glossary import structured_data
from roofline_site.glossary.validator import load_glossary
from tests.roofline_site.glossary.helpers import entry_text, write_glossary
from tests.support import json_ld

INDEX = "https://x.org/glossary/"


def _glossary(tmp_path, **fields):
    write_glossary(tmp_path, {"alpha": entry_text(title="Alpha", **fields), "beta": entry_text(title="Beta")})
    return load_glossary(tmp_path)


def test_a_term_is_a_defined_term_in_the_glossarys_set(tmp_path):
    entry = _glossary(tmp_path, aliases=["First", "Alpha model"]).entries["alpha"]
    document = structured_data.defined_term(entry, url=INDEX + "alpha/", site_name="Site", index_url=INDEX)
    assert json_ld.problems(document) == []
    assert document["@type"] == "DefinedTerm"
    assert (document["name"], document["description"]) == ("Alpha", "A term used only by the tests.")
    assert document["inDefinedTermSet"]["@id"] == INDEX
    # Aliases are words, not URLs of the same thing: alternateName, never sameAs.
    assert document["alternateName"] == ["First", "Alpha model"]
    assert "sameAs" not in document


def test_the_index_is_a_defined_term_set_and_the_table_a_dataset(tmp_path):
    glossary = _glossary(tmp_path)
    term_set = structured_data.defined_term_set(
        glossary, site_name="Site", index_url=INDEX, url_of=lambda slug: INDEX + slug + "/"
    )
    assert json_ld.problems(term_set) == []
    assert [t["name"] for t in term_set["hasDefinedTerm"]] == ["Alpha", "Beta"]
    dataset = structured_data.dataset(
        name="Model vs measurement", description="Rows.", url="https://x.org/m/", variables=["a"], site_name="Site"
    )
    assert json_ld.problems(dataset) == []


def test_the_check_refuses_what_schema_org_does_not_allow():
    bad = {
        "@context": "https://schema.org",
        "@type": "DefinedTerm",
        "sameAs": ["Roofline model"],  # an alias where sameAs wants a URL
        "hasDefinedTerm": [],  # a property of DefinedTermSet, not of DefinedTerm
        "termWeight": 1,  # no such property
        "inDefinedTermSet": {"@type": "Dataset", "name": "x"},  # the wrong type of node
    }
    found = json_ld.problems(bad)
    assert any("'Roofline model'" in p for p in found)
    assert any("'hasDefinedTerm' is not a property of DefinedTerm" in p for p in found)
    assert any("'termWeight' is not in the extract" in p for p in found)
    assert any("a 'Dataset' where ['DefinedTermSet', 'URL'] is expected" in p for p in found)


def test_script_text_cannot_close_its_element(tmp_path):
    # The validator refuses markup in a summary; the escaping holds even for text that got past it.
    entry = dataclasses.replace(
        _glossary(tmp_path).entries["alpha"], summary="Ends </script><script>alert(1)</script> & <!-- here."
    )
    text = structured_data.script_text(
        structured_data.defined_term(entry, url=INDEX + "alpha/", site_name="Site", index_url=INDEX)
    )
    assert "<" not in text and ">" not in text and "&" not in text
    assert json.loads(text)["description"] == "Ends </script><script>alert(1)</script> & <!-- here."
    page = f'<head><script type="application/ld+json">{text}</script></head>'
    assert [json.loads(block)["name"] for block in json_ld.json_ld_blocks(page)] == ["Alpha"]
