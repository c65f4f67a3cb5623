"""The embed code a reader copies and the one the documentation shows: the same text, with the
frame allowed to use the clipboard, at the site's real address when the build knows it."""

from __future__ import annotations

import importlib.util

from roofline_site.calculators.embed import (
    ADDRESS_PLACEHOLDER,
    DOCUMENTED_EMBED,
    documented_snippet,
    embed_code,
    with_site_address,
)
from tests.support.site_build import PROJECT_ROOT

DOCS = PROJECT_ROOT / "docs" / "calculators" / "embedding.md"


def test_the_copied_code_lets_the_frame_write_to_the_clipboard():
    code = embed_code("https://example.org/embed/kv-cache/", "KV cache size")
    iframe = code.splitlines()[0]
    assert iframe.startswith('<iframe src="https://example.org/embed/kv-cache/"') and iframe.endswith("</iframe>")
    assert ' allow="clipboard-write" ' in iframe


def test_the_documentation_shows_exactly_the_code_the_site_copies():
    text = DOCS.read_text(encoding="utf-8")
    snippet = documented_snippet()
    calculator_id, query = DOCUMENTED_EMBED
    assert snippet == embed_code(f"{ADDRESS_PLACEHOLDER}embed/{calculator_id}/{query}", "Roofline explorer")
    assert f"```html\n{snippet}```\n" in text
    # The placeholder is explained where it appears.
    assert text.count(f"`{ADDRESS_PLACEHOLDER}`") == 1 and "SITE_URL" in text


def test_a_build_with_its_public_address_shows_that_address_in_the_snippet():
    page = f"Intro\n\n```html\n{documented_snippet()}```\n"
    shown = with_site_address(page, "https://user.github.io/roofline-glossary/")
    assert ADDRESS_PLACEHOLDER not in shown.split("```html")[1]
    assert (
        'src="https://user.github.io/roofline-glossary/embed/roofline-explorer/?accelerator=h100-sxm&amp;intensity=64"'
        in shown
    )
    assert with_site_address(page, None) == page


def test_the_hook_uses_site_url_only_when_the_build_was_given_one(monkeypatch):
    spec = importlib.util.spec_from_file_location("calculators_hook", PROJECT_ROOT / "hooks" / "calculators.py")
    hook = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hook)
    page = f"```html\n{documented_snippet()}```\n"
    config = {"site_url": "https://docs.example.org/rg/"}
    monkeypatch.delenv("SITE_URL", raising=False)
    assert hook.on_page_markdown(page, page=None, config=config, files=None) == page
    monkeypatch.setenv("SITE_URL", config["site_url"])
    assert "https://docs.example.org/rg/embed/roofline-explorer/" in hook.on_page_markdown(
        page, page=None, config=config, files=None
    )
