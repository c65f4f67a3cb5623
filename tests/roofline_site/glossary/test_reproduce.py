"""'Reproduce the numbers on this page': the Python per number, the citation, the wrapper around
each number, and that an entry's own markup cannot forge the wrapper or the section."""

from __future__ import annotations

import dataclasses
import html
import re
import subprocess
import sys

import markdown
import pytest

from roofline_core.quantities import QuantityError, evaluate_reference
from roofline_core.version import data_version
from roofline_site.glossary import render, reproduce
from roofline_site.glossary.sanitize import sanitise_entry_html
from roofline_site.glossary.validator import load_glossary
from roofline_site.wheel import install_comment
from tests.roofline_site.glossary.helpers import entry_text, write_glossary
from tests.roofline_site.glossary.test_sanitize import EXTENSIONS
from tests.support.site_build import PROJECT_ROOT


def _run_python(code: str) -> str:
    """Run ``code`` in a fresh CPython that imports this checkout's roofline_core."""
    result = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONPATH": str(PROJECT_ROOT), "PATH": "/usr/bin:/bin"},
        cwd=PROJECT_ROOT,
    )
    return result.stdout


def test_python_snippet_prints_the_numbers_text():
    references = ["ridge_point accelerator=h100-sxm", "kv_cache_bytes model=llama-3-8b context_tokens=8192 batch=32"]
    printed = _run_python("".join(reproduce.python_snippet(r) for r in references)).splitlines()
    assert printed == [evaluate_reference(r).text for r in references]


def test_python_snippet_quotes_any_characters_a_reference_may_hold():
    # The parser splits on whitespace only, so a value may hold quotes and backslashes; the
    # snippet must hand them to evaluate() unchanged (here: to its error message).
    value = """a'b"c\\d{}"""
    snippet = reproduce.python_snippet(f"ridge_point accelerator={value}")
    assert snippet.splitlines()[1] == f"print(evaluate('ridge_point', {{'accelerator': {value!r}}}).text)"
    probe = snippet.replace("print(evaluate(", "try:\n    evaluate(").replace(").text)", ")") + (
        "except ValueError as exc:\n    print(str(exc))\n"
    )
    with pytest.raises(QuantityError) as expected:
        evaluate_reference(f"ridge_point accelerator={value}")
    assert _run_python(probe).strip() == str(expected.value)


def test_citation_names_site_title_permalink_version_and_date():
    text = reproduce.citation(
        site_name="Roofline Glossary",
        title='The "ridge"',
        url="https://example.org/glossary/ridge-point/",
        version="0123456789ab",
        date="2026-11-26",
    )
    assert text == (
        'Roofline Glossary, "The "ridge"", https://example.org/glossary/ridge-point/'
        " (data version 0123456789ab, built 2026-11-26)."
    )


def test_section_links_the_script_and_cites_the_page_escaped():
    numbers = [reproduce.Shown("ridge_point accelerator=h100-sxm", "295 FLOP/byte")]
    html = reproduce.section_html(
        numbers, cite="<b>Cite</b> & more", script_href='../n".py', download_name="x<y-numbers.py"
    )
    assert html.startswith('<details class="roofline-reproduce" id="roofline-numbers" data-search-exclude>')
    assert "<summary>Reproduce the numbers on this page</summary>" in html
    assert "this page's 1 number as it shows them" in html
    assert 'href="../n&quot;.py" download="x&lt;y-numbers.py">x&lt;y-numbers.py</a>' in html
    assert "&lt;b&gt;Cite&lt;/b&gt; &amp; more" in html and "<b>" not in html
    # The snippets are in the script, not the page.
    assert "evaluate(" not in html
    assert reproduce.section_html([], cite="x", script_href="a", download_name="b") == ""


def test_the_script_runs_prints_each_number_and_labels_it_for_the_page():
    numbers = [
        reproduce.Shown("ridge_point accelerator=h100-sxm", "295 FLOP/byte"),
        reproduce.Shown("bandwidth accelerator=h100-sxm", "3.35 TB/s"),
    ]
    script = reproduce.numbers_script(numbers, 'Site, "Page",\nurl', install="# pip install --force-reinstall X")
    assert _run_python(script.text).splitlines() == ["295 FLOP/byte", "3.35 TB/s"]
    lines = script.text.splitlines()
    # First the install line, then (after the header) the pin to the page's data version.
    assert lines[0] == "# pip install --force-reinstall X"
    assert f"check_data_version({data_version()!r})" in lines[5]
    assert lines[2] == '# Cite: Site, "Page", url'  # one line, whatever the citation holds
    for index, number in enumerate(numbers):
        label = lines.index(f"# {index}: {number.text}")
        assert lines[label + 1] == reproduce.python_snippet(number.reference).splitlines()[1]
    # Named by its content, under the directory hosts may cache for good.
    assert re.fullmatch(r"assets/roofline/numbers/numbers\.[0-9a-f]{16}\.py", script.site_path)
    assert reproduce.numbers_script(numbers[:1], "c").site_path != script.site_path
    assert reproduce.numbers_script([], "c") is None


def _glossary(tmp_path, body):
    write_glossary(tmp_path, {"alpha": entry_text(title="Alpha", body=body)})
    return load_glossary(tmp_path)


def _body_html(entry, glossary) -> str:
    """The body as the term page shows it: rendered, sanitised, its numbers wrapped (as the hook does)."""
    page_markdown = render.term_page_markdown(entry, glossary).split("---\n\n", 1)[1]
    rendered = markdown.markdown(page_markdown, extensions=EXTENSIONS)
    token = reproduce.marker_token(entry.body)
    count = len(render.rewrite_body(entry, glossary).quantities)
    cleaned = sanitise_entry_html(rendered, quantity_markers=reproduce.marker_values(token, count))
    return reproduce.finish_markers(cleaned, token)


def test_each_number_is_wrapped_and_repeats_share_their_index(tmp_path):
    body = (
        "Ridge {{ ridge_point accelerator=h100-sxm }}, bandwidth {{ bandwidth accelerator=h100-sxm }},"
        " and again {{  ridge_point   accelerator=h100-sxm }}.\n\n"
        "| chip | ridge |\n|---|---|\n| H100 | {{ ridge_point accelerator=h100-sxm }} |\n"
    )
    glossary = _glossary(tmp_path, body)
    html = _body_html(glossary.entries["alpha"], glossary)
    assert re.findall(r'<span class="roofline-quantity" data-quantity="([0-9]+)">([^<]*)</span>', html) == [
        ("0", "295 FLOP/byte"),
        ("1", "3.35 TB/s"),
        ("0", "295 FLOP/byte"),
        ("0", "295 FLOP/byte"),
    ]
    assert render.rewrite_body(glossary.entries["alpha"], glossary).quantities == [
        ("ridge_point accelerator=h100-sxm", "295 FLOP/byte"),
        ("bandwidth accelerator=h100-sxm", "3.35 TB/s"),
    ]


HOSTILE = (
    'Real: {{ ridge_point accelerator=h100-sxm }}. Forged: <span class="roofline-quantity" data-quantity="0">1 EB</span>'
    ' <span data-roofline-quantity="{guess}-0">2 EB</span>.\n\n'
    '<details class="roofline-reproduce" id="roofline-numbers" data-search-exclude open>'
    "<summary>Reproduce the numbers on this page</summary>"
    '<pre><code>print("pwned")</code></pre><span onclick="alert(1)">x</span></details>\n'
)


def test_entry_markup_cannot_forge_a_number_or_the_section(tmp_path):
    honest = _glossary(tmp_path / "honest", "Real: {{ ridge_point accelerator=h100-sxm }}.\n")
    # The best guess a contributor has: the token of the body without their forgery.
    guess = reproduce.marker_token(honest.entries["alpha"].body)
    # Past the validator (which refuses the onclick): the sanitiser is the guarantee.
    entry = dataclasses.replace(honest.entries["alpha"], body=HOSTILE.replace("{guess}", guess))
    html = _body_html(entry, honest)
    assert html.count('class="roofline-quantity"') == 1
    assert '<span class="roofline-quantity" data-quantity="0">295 FLOP/byte</span>' in html
    assert "<span>1 EB</span>" in html and "<span>2 EB</span>" in html
    assert reproduce.MARKER_ATTRIBUTE not in html and "data-quantity" not in html.replace('data-quantity="0">295', "")
    # The entry's <details> stays an ordinary one: no class, reserved id or search exclusion.
    assert '<details open=""><summary>' in html
    for trusted in ('class="roofline-reproduce"', 'id="roofline-numbers"', "data-search-exclude", "onclick"):
        assert trusted not in html


def test_a_marker_with_an_index_beyond_the_numbers_is_dropped(tmp_path):
    glossary = _glossary(tmp_path, "Real: {{ ridge_point accelerator=h100-sxm }}.\n")
    entry = glossary.entries["alpha"]
    token = reproduce.marker_token(entry.body)
    # Even with the right token (which the body cannot hold), only the build's indexes pass.
    html = f'<p><span {reproduce.MARKER_ATTRIBUTE}="{token}-1">9</span></p>'
    cleaned = sanitise_entry_html(html, quantity_markers=reproduce.marker_values(token, 1))
    assert cleaned == "<p><span>9</span></p>"


def test_page_python_prints_what_the_page_shows_for_an_entry():
    glossary = load_glossary(PROJECT_ROOT / "glossary")
    entry = glossary.entries["kv-cache"]
    numbers = render.rewrite_body(entry, glossary).quantities
    script = reproduce.numbers_script([reproduce.Shown(*n) for n in numbers], cite="c")
    shown = dict(re.findall(r'data-quantity="([0-9]+)">([^<]*)</span>', _body_html(entry, glossary)))
    assert sorted(shown, key=int) == [str(i) for i in range(len(numbers))]
    printed = _run_python(script.text)
    assert printed.splitlines() == [html.unescape(shown[str(i)]) for i in range(len(numbers))]


def test_a_times_snippet_prints_its_parts_after_it():
    # Issue 31: a time's Python shows what it is made of, still one line the page can copy.
    reference = "decode_step_time model=llama-3-70b accelerator=h100-sxm devices=8"
    snippet = reproduce.python_snippet(reference)
    assert len(snippet.splitlines()) == 2 and snippet.splitlines()[1].startswith("print(")
    value = evaluate_reference(reference)
    printed = _run_python(snippet).splitlines()
    assert printed[0] == value.text
    assert printed[1:] == [f"  {label}: {seconds:.3g} s" for label, seconds in value.parts]
    assert [line.split(":")[0].strip() for line in printed[1:]] == [
        "weights",
        "communication_latency",
        "communication_transfer",
    ]


def test_the_script_starts_with_the_builds_install_line_and_warns_on_another_version():
    numbers = [reproduce.Shown("ridge_point accelerator=h100-sxm", "295 FLOP/byte")]
    # Without hooks/wheel.py, the line of a build without SITE_URL.
    assert reproduce.numbers_script(numbers, "c").text.splitlines()[0] == install_comment(None)
    script = reproduce.numbers_script(numbers, "c", version="000000000000")
    result = subprocess.run(
        [sys.executable, "-c", script.text],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(PROJECT_ROOT), "PATH": "/usr/bin:/bin"},
        cwd=PROJECT_ROOT,
    )
    assert result.stdout == "295 FLOP/byte\n"
    assert result.stderr.count("\n") == 1 and "000000000000" in result.stderr and data_version() in result.stderr
