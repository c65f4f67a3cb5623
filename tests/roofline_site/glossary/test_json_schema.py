"""glossary.json's published JSON Schema (roofline_site.glossary.json_schema), with jsonschema."""

from __future__ import annotations

import json

import jsonschema
import pytest

from roofline_site.glossary import json_schema, render, site_files
from roofline_site.glossary.validator import load_glossary
from tests.roofline_site.glossary.helpers import entry_text, write_glossary


def _files(tmp_path, site_url="https://x.org/"):
    write_glossary(
        tmp_path,
        {"alpha": entry_text(title="Alpha", aliases=["First"]), "beta": entry_text(title="Beta", category="metrics")},
    )
    files = site_files.data_files(
        load_glossary(tmp_path),
        url_of=lambda slug: f"glossary/{slug}/",
        index_url="glossary/",
        site_name="Site",
        site_url=site_url,
    )
    return {f.src_uri: f.content for f in files}


def test_glossary_json_validates_against_its_published_schema(tmp_path):
    files = _files(tmp_path)
    schema = json.loads(files[site_files.SCHEMA_URI])
    document = json.loads(files[site_files.JSON_URI])
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.Draft202012Validator(schema, format_checker=jsonschema.FormatChecker()).validate(document)
    assert document["$schema"] == schema["$id"] == "https://x.org/glossary.schema.json"
    assert document["version"] == json_schema.SCHEMA_VERSION


def test_without_a_site_url_the_schema_is_named_from_the_root(tmp_path):
    files = _files(tmp_path, site_url=None)
    assert json.loads(files[site_files.JSON_URI])["$schema"] == "/glossary.schema.json"


@pytest.mark.parametrize(
    "change",
    [
        lambda d: d.pop("version"),
        lambda d: d.update(version="0.9"),
        lambda d: d["terms"][0].update(category="nonsense"),
        lambda d: d["terms"][0].update(added="12 January 2026"),
        lambda d: d["terms"][0].update(extra=1),
    ],
)
def test_the_schema_refuses_a_file_that_strays(tmp_path, change):
    files = _files(tmp_path)
    document = json.loads(files[site_files.JSON_URI])
    change(document)
    validator = jsonschema.Draft202012Validator(
        json.loads(files[site_files.SCHEMA_URI]), format_checker=jsonschema.FormatChecker()
    )
    assert list(validator.iter_errors(document))


def test_render_names_no_schema_unless_asked(tmp_path):
    write_glossary(tmp_path, {"alpha": entry_text(title="Alpha")})
    document = json.loads(render.glossary_json(load_glossary(tmp_path), path_of=lambda s: s, site_url=None))
    assert "$schema" not in document and document["version"] == json_schema.SCHEMA_VERSION
