"""Calculator and figure fences in real MkDocs builds: found wherever Markdown allows a fence,
rendered there, or the build stops at the fence's line as the author sees it."""

from __future__ import annotations

import json
import re

import pytest

from tests.hooks.site_fixture import build, make_site

NESTED = """\
# Nested fences

> ```calculator
> id: kv-cache
> ```

- A list item holding a calculator:

    ```calculator
    id: roofline-explorer
    defaults: intensity=64
    ```

!!! note "An admonition"

    ```calculator
    id: prefill-ttft
    ```

> ~~~figure
> kind: kv-cache
> ~~~

- A list item holding a figure:

    ```figure
    kind: intensity
    ```
"""


@pytest.mark.slow
def test_fences_in_block_quotes_lists_and_admonitions_render(tmp_path):
    config = make_site(tmp_path / "project", {"index.md": "# Home\n", "nested.md": NESTED})
    result = build(config)
    assert result.returncode == 0, result.stdout + result.stderr
    html = (tmp_path / "project" / "site" / "nested" / "index.html").read_text(encoding="utf-8")
    for calculator_id in ("kv-cache", "roofline-explorer", "prefill-ttft"):
        assert html.count(f'data-calculator="{calculator_id}"') == 1, calculator_id
    assert html.count('<figure class="roofline-figure"') == 2
    assert 'data-figure-kind="kv-cache"' in html and 'data-figure-kind="intensity"' in html
    # Nothing of either fence reached the page as code.
    assert "language-calculator" not in html and "language-figure" not in html
    assert "id: kv-cache" not in html and "kind: kv-cache" not in html
    # The quoted calculator stays inside its block quote.
    quote = html[html.index("<blockquote>") : html.index("</blockquote>")]
    assert 'data-calculator="kv-cache"' in quote


CODE_BLOCK_MESSAGE = (
    "{language} block did not become a {language} (indented into a code block?); "
    "expected the fence at the top level or in a list, block quote, admonition or content tab"
)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("language", "body"),
    [("calculator", "id: kv-cache"), ("figure", "kind: kv-cache")],
)
def test_a_fence_indented_into_a_code_block_stops_the_build_at_its_line(tmp_path, language, body):
    page = f"---\ntitle: Bad\n---\n# Bad\n\nText.\n\n    ```{language}\n    {body}\n    ```\n"
    config = make_site(tmp_path / "project", {"index.md": "# Home\n", "bad.md": page})
    result = build(config)
    output = result.stdout + result.stderr
    assert result.returncode != 0
    assert f"docs/bad.md:8: {CODE_BLOCK_MESSAGE.format(language=language)}" in output, output
    assert "Traceback" not in output


# Nine lines of front matter (site_fixture.ENTRY), then the body from line 10.
GLOSSARY_BODY = """\
A term with a calculator and a figure.

```figure
kind: kv-cache
```

```calculator
id: kv-cache
defaults: {defaults}
```
"""


@pytest.mark.slow
def test_glossary_entries_report_lines_of_their_own_file(tmp_path):
    entries = {"fenced-term": GLOSSARY_BODY.format(defaults="bach=2")}
    config = make_site(tmp_path / "project", {"index.md": "# Home\n"}, glossary=entries)
    result = build(config)
    output = result.stdout + result.stderr
    assert result.returncode != 0
    assert "glossary/fenced-term.md:18: calculator 'kv-cache' has no input 'bach'; expected one of " in output, output
    assert "Traceback" not in output


@pytest.mark.slow
def test_glossary_entries_show_their_calculators_and_figures(tmp_path):
    entries = {"fenced-term": GLOSSARY_BODY.format(defaults="batch=2")}
    config = make_site(tmp_path / "project", {"index.md": "# Home\n"}, glossary=entries)
    result = build(config)
    assert result.returncode == 0, result.stdout + result.stderr
    html = (tmp_path / "project" / "site" / "glossary" / "fenced-term" / "index.html").read_text(encoding="utf-8")
    assert html.count("data-calculator-later=") == 1 and html.count('<figure class="roofline-figure"') == 1
    # The calculator itself is the file the summary names, written with the site.
    src = re.search(r'data-calculator-later="([^"]+)"', html).group(1)
    part = (tmp_path / "project" / "site" / "glossary" / "fenced-term" / src).resolve()
    assert json.loads(part.read_text(encoding="utf-8"))["html"].count('data-calculator="kv-cache"') == 1
    assert "language-calculator" not in html and "language-figure" not in html
