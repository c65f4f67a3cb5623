"""A scaffolded entry with its placeholders left previews under ``scripts/serve`` with a "draft"
banner, and every other page with it; ``mkdocs build --strict`` still refuses it, by file and line."""

from __future__ import annotations

import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from roofline_site.glossary.errors import GlossaryError
from roofline_site.glossary.render import draft_banner_html
from roofline_site.glossary.scaffold import new_entry
from roofline_site.glossary.validator import load_glossary
from tests.hooks.glossary_fixture import entry
from tests.support.site_build import PROJECT_ROOT, free_port, mkdocs_build, mkdocs_serve

PLACEHOLDERS = ("the summary is still", "source 1 is still", "the body still holds")


def _glossary(root: Path) -> Path:
    folder = root / "glossary"
    folder.mkdir(parents=True)
    (folder / "alpha-term.md").write_text(entry("Alpha term"), encoding="utf-8")
    new_entry(folder, "Beam search", "serving")
    return folder


def test_a_scaffold_loads_as_a_draft_only_when_drafts_are_asked_for(tmp_path):
    folder = _glossary(tmp_path)
    glossary = load_glossary(folder, drafts=True)
    assert set(glossary.entries) == {"alpha-term", "beam-search"}
    assert set(glossary.drafts) == {"beam-search"}
    found = glossary.drafts["beam-search"]
    assert len(found) == 3 and all(p.what.startswith(w) for p, w in zip(found, PLACEHOLDERS, strict=True)), found
    with pytest.raises(GlossaryError) as refused:
        load_glossary(folder)
    assert str(refused.value).count("glossary/beam-search.md:") == 3


def test_a_draft_with_any_other_problem_is_refused_even_in_preview(tmp_path):
    folder = _glossary(tmp_path)
    scaffold = folder / "beam-search.md"
    scaffold.write_text(
        scaffold.read_text(encoding="utf-8").replace("category: serving", "category: servng"), encoding="utf-8"
    )
    with pytest.raises(GlossaryError) as refused:
        load_glossary(folder, drafts=True)
    message = str(refused.value)
    assert "unknown category 'servng'" in message
    assert "the summary is still the scaffold's placeholder" in message  # all of it, at once


def test_the_banner_names_each_placeholder_as_text(tmp_path):
    glossary = load_glossary(_glossary(tmp_path), drafts=True)
    banner = draft_banner_html(glossary.drafts["beam-search"])
    assert "Draft: not published until its placeholders are replaced" in banner
    assert "<code>glossary/beam-search.md:4</code>" in banner
    assert "&lt;" not in banner and "<script" not in banner


def _project(root: Path) -> Path:
    _glossary(root)
    (root / "docs").mkdir()
    (root / "docs" / "index.md").write_text("# Home\n\nSee [[alpha-term]].\n", encoding="utf-8")
    hooks = "".join(
        f"  - {(PROJECT_ROOT / 'hooks' / name).as_posix()}\n" for name in ("serve_errors.py", "glossary.py")
    )
    (root / "mkdocs.yml").write_text(
        f"site_name: Fixture\ntheme:\n  name: material\n  font: false\nhooks:\n{hooks}", encoding="utf-8"
    )
    return root / "mkdocs.yml"


def _get(url: str, server: subprocess.Popen, *, timeout_s: float = 120) -> tuple[int, str]:
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            with urllib.request.urlopen(url, timeout=10) as response:
                return response.status, response.read().decode("utf-8")
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode("utf-8")
        except OSError:
            if server.poll() is not None or time.monotonic() > deadline:
                server.kill()
                raise AssertionError(f"mkdocs serve never answered {url}:\n{server.communicate()[0]}") from None
            time.sleep(0.3)


def test_serve_previews_the_draft_with_a_banner_and_build_refuses_it(tmp_path):
    config = _project(tmp_path)
    port = free_port()
    server = mkdocs_serve(config, port, cwd=tmp_path)
    try:
        status, draft = _get(f"http://127.0.0.1:{port}/glossary/beam-search/", server)
        assert status == 200, draft[:2000]
        assert 'class="admonition warning glossary-draft"' in draft
        assert "<code>glossary/beam-search.md:4</code>" in draft
        # Every other page is the site, not the build's error.
        status, home = _get(f"http://127.0.0.1:{port}/", server)
        assert status == 200 and "The site did not build" not in home and "glossary-draft" not in home
        status, other = _get(f"http://127.0.0.1:{port}/glossary/alpha-term/", server)
        assert status == 200 and "glossary-draft" not in other
    finally:
        server.terminate()
        output = server.communicate(timeout=10)[0]
    assert "glossary/beam-search.md: previewed as a draft (3 placeholders left)" in output

    result = mkdocs_build(config, tmp_path / "site")
    assert result.returncode == 1
    for line in (4, 8, 13):
        assert f"glossary/beam-search.md:{line}: " in result.stdout + result.stderr
