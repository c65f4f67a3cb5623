"""The repository's issue forms and pull-request template: valid for GitHub, and in step with what
the build enforces and with the links term pages carry.

GitHub rejects a malformed issue form only when someone opens it, so the schema's rules that
matter here are checked: https://docs.github.com/en/communities/using-templates-to-encourage-useful-issues-and-pull-requests/syntax-for-issue-forms
"""

from __future__ import annotations

import re

import pytest
import yaml

from roofline_site.glossary.contribute import SUGGEST_TERM_TEMPLATE
from roofline_site.glossary.schema import CATEGORIES
from tests.support.site_build import PROJECT_ROOT

GITHUB = PROJECT_ROOT / ".github"
FORMS = {
    "suggest-a-term.yml": {"term", "definition", "source", "why"},
    "report-an-error.yml": {"page", "problem", "source"},
}
INPUT_TYPES = {"input", "textarea", "dropdown", "checkboxes"}
CONFIG_KEYS = {"blank_issues_enabled", "contact_links"}


def _load(name: str) -> dict:
    return yaml.safe_load((GITHUB / "ISSUE_TEMPLATE" / name).read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", sorted(FORMS))
def test_issue_form_follows_githubs_schema(name):
    form = _load(name)
    assert isinstance(form.get("name"), str) and form["name"].strip()
    assert isinstance(form.get("description"), str) and form["description"].strip()
    assert set(form) <= {"name", "description", "title", "labels", "assignees", "body", "projects", "type"}
    body = form["body"]
    assert isinstance(body, list) and any(element["type"] in INPUT_TYPES for element in body)
    ids = []
    for element in body:
        assert element["type"] in INPUT_TYPES | {"markdown"}, element
        if element["type"] == "markdown":
            assert isinstance(element["attributes"]["value"], str)
            continue
        assert re.fullmatch(r"[A-Za-z0-9_-]+", element["id"]), element
        ids.append(element["id"])
        assert isinstance(element["attributes"]["label"], str) and element["attributes"]["label"].strip()
        if element["type"] == "dropdown":
            options = element["attributes"]["options"]
            assert options and len(set(options)) == len(options)
        assert set(element.get("validations", {})) <= {"required"}
    assert len(ids) == len(set(ids)), f"{name}: ids must be unique"


@pytest.mark.parametrize(("name", "required"), sorted(FORMS.items()))
def test_issue_form_requires_what_a_maintainer_needs(name, required):
    body = _load(name)["body"]
    marked = {e["id"] for e in body if e["type"] != "markdown" and e.get("validations", {}).get("required")}
    assert marked == required


def test_suggest_form_is_the_one_term_pages_link_to_and_offers_the_categories():
    assert SUGGEST_TERM_TEMPLATE in FORMS
    (category,) = [e for e in _load(SUGGEST_TERM_TEMPLATE)["body"] if e.get("id") == "category"]
    assert category["attributes"]["options"] == [*CATEGORIES, "not sure"]


def test_issue_chooser_config():
    config = _load("config.yml")
    assert set(config) <= CONFIG_KEYS
    assert isinstance(config["blank_issues_enabled"], bool)
    for link in config.get("contact_links", []):
        assert set(link) == {"name", "url", "about"} and link["url"].startswith("https://")


def test_pull_request_checklist_names_the_validator_and_the_required_front_matter():
    from roofline_site.glossary.schema import FRONT_MATTER

    text = (GITHUB / "PULL_REQUEST_TEMPLATE.md").read_text(encoding="utf-8")
    assert "`.venv/bin/python -m roofline_site.glossary check`" in text
    assert '`.venv/bin/python -m roofline_site.glossary new "<Title>" --category <category>`' in text
    for field in FRONT_MATTER.required:
        assert f"`{field}`" in text, field
    assert "Screenshots are not needed" in text
    # The same commands a contributor is told to run in CONTRIBUTING.md.
    contributing = (PROJECT_ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    assert ".venv/bin/python -m roofline_site.glossary check" in contributing
