"""Whole MkDocs builds of a small fixture project using the real hooks/fences.py.

A bad figure block in a docs page or in a generated glossary page stops the build with the
file and line and no traceback; a warm build draws nothing and never imports matplotlib.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.support.site_build import PROJECT_ROOT, mkdocs_build

GOOD_PAGE = """\
# Fixture

```figure
kind: roofline
batch: 1
```

!!! note "In an admonition"

    ```figure
    kind: kv-cache
    context: 1k, 32k
    ```

````markdown
```figure
kind: not-a-figure, only an example
```
````
"""

# A stand-in for the glossary hook: a virtual page generated from a source with front matter,
# served at the source's path under the project root (glossary/demo.md), as the glossary does.
GLOSSARY_HOOK = """\
from pathlib import Path
from mkdocs.structure.files import File

def on_files(files, config):
    source = Path(config.config_file_path).parent / "glossary" / "demo.md"
    if source.exists():
        files.append(File.generated(config, "glossary/demo.md", content=source.read_text()))
    return files
"""


def make_project(root: Path, pages: dict[str, str], glossary: str | None = None, *, fence: bool = True) -> Path:
    (root / "docs").mkdir(parents=True)
    for name, text in pages.items():
        (root / "docs" / name).write_text(text, encoding="utf-8")
    (root / "glossary_hook.py").write_text(GLOSSARY_HOOK, encoding="utf-8")
    if glossary is not None:
        (root / "glossary").mkdir()
        (root / "glossary" / "demo.md").write_text(glossary, encoding="utf-8")
    fence_config = "      custom_fences:\n" + "".join(
        f"        - name: {language}\n"
        f"          class: roofline-{language}\n"
        "          format: !!python/name:roofline_site.fences.format_fence\n"
        for language in ("figure", "calculator")
    )
    config = textwrap.dedent(
        f"""\
        site_name: Figures fixture
        theme:
          name: mkdocs
        hooks:
          - glossary_hook.py
          - {PROJECT_ROOT / "hooks" / "fences.py"}
        markdown_extensions:
          - admonition
          - pymdownx.superfences:
        """
    ) + (fence_config if fence else "      preserve_tabs: true\n")
    (root / "mkdocs.yml").write_text(config, encoding="utf-8")
    return root / "mkdocs.yml"


@pytest.fixture
def cache_env(tmp_path, monkeypatch) -> Path:
    cache = tmp_path / "figure-cache"
    monkeypatch.setenv("ROOFLINE_FIGURES_CACHE_DIR", str(cache))
    return cache


@pytest.mark.slow
def test_bad_block_in_a_docs_page_fails_with_file_and_line(tmp_path, cache_env):
    bad = "# Bad\n\nSome text.\n\n```figure\nkind: roofline\nbatch: 1, 0\n```\n"
    config = make_project(tmp_path / "project", {"index.md": "# Home\n", "bad.md": bad})
    result = mkdocs_build(config, tmp_path / "site")
    output = result.stdout + result.stderr
    assert result.returncode != 0
    assert (
        "ERROR   -  docs/bad.md:7: batch: '0' is out of range; expected a whole number from 1 to 65,536 sequences\n"
    ) in output
    assert "Traceback" not in output
    assert not cache_env.exists()  # nothing was drawn before the mistake was found


@pytest.mark.slow
def test_bad_block_in_a_generated_glossary_page_names_its_source(tmp_path, cache_env):
    glossary = (
        "---\ntitle: Demo\ncategory: serving\n---\n\nA term.\n\n```figure\nkind: roofline\naccelerators: h100\n```\n"
    )
    config = make_project(tmp_path / "project", {"index.md": "# Home\n"}, glossary=glossary)
    result = mkdocs_build(config, tmp_path / "site")
    output = result.stdout + result.stderr
    assert result.returncode != 0
    assert (
        "ERROR   -  glossary/demo.md:10: accelerators: unknown accelerator 'h100' (did you mean h100-sxm?); expected one of "
        in output
    )
    assert "Traceback" not in output


@pytest.mark.slow
def test_a_missing_fence_configuration_stops_the_build(tmp_path, cache_env):
    config = make_project(tmp_path / "project", {"index.md": GOOD_PAGE}, fence=False)
    result = mkdocs_build(config, tmp_path / "site")
    output = result.stdout + result.stderr
    assert result.returncode != 0
    assert (
        f"ERROR   -  {config}: pymdownx.superfences has no 'figure' custom fence; expected under markdown_extensions: "
        in output
    )
    assert "Traceback" not in output


BUILD_AND_REPORT = """\
import json, sys
from mkdocs.commands.build import build
from mkdocs.config import load_config
from roofline_site.fences import current_build
config = load_config(config_file=sys.argv[1], site_dir=sys.argv[2], strict=True)
build(config)
cache = current_build().kinds["figure"].cache
print(json.dumps({"drawn": cache.drawn, "hits": cache.hits, "matplotlib": "matplotlib" in sys.modules}))
"""


def build_and_report(config: Path, site: Path) -> dict:
    # A fixed build date: the theme writes it into every page.
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "SOURCE_DATE_EPOCH": "0"}
    result = subprocess.run(
        [sys.executable, "-c", BUILD_AND_REPORT, str(config), str(site)],
        capture_output=True,
        text=True,
        env=env,
        cwd=config.parent,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


@pytest.mark.slow
def test_warm_build_draws_nothing_and_never_imports_matplotlib(tmp_path, cache_env):
    config = make_project(tmp_path / "project", {"index.md": GOOD_PAGE})
    cold = build_and_report(config, tmp_path / "cold")
    assert cold == {"drawn": 2, "hits": 0, "matplotlib": True}
    warm = build_and_report(config, tmp_path / "warm")
    assert warm == {"drawn": 0, "hits": 2, "matplotlib": False}
    # Same page, byte for byte, whether drawn or read from the cache.
    cold_html = (tmp_path / "cold" / "index.html").read_text(encoding="utf-8")
    warm_html = (tmp_path / "warm" / "index.html").read_text(encoding="utf-8")
    assert cold_html == warm_html
    assert cold_html.count('<figure class="roofline-figure"') == 2
    assert 'id="roofline-figure-2" data-figure-kind="kv-cache"' in cold_html
    # The example inside the ````markdown fence stays code.
    assert "kind: not-a-figure, only an example" in cold_html
