"""Under ``mkdocs serve`` a failed build shows its error in the browser, first build and rebuild
alike, and the site comes back once the entry is fixed; ``mkdocs build`` still fails as before."""

from __future__ import annotations

import time
import urllib.error
import urllib.request
from pathlib import Path

from roofline_site.serve_errors import TITLE, error_page_html, show_build_error
from tests.hooks.glossary_fixture import entry
from tests.support.site_build import PROJECT_ROOT, free_port, mkdocs_build, mkdocs_serve

GOOD = entry("Alpha term")
BROKEN = entry("Alpha term", category="hardwar")
ERROR = "glossary/alpha-term.md:3: field 'category': unknown category 'hardwar' (did you mean hardware?)"


def _project(root: Path, text: str) -> Path:
    (root / "docs").mkdir(parents=True)
    (root / "glossary").mkdir()
    (root / "docs" / "index.md").write_text("# Home\n", encoding="utf-8")
    (root / "glossary" / "alpha-term.md").write_text(text, encoding="utf-8")
    hooks = "".join(
        f"  - {(PROJECT_ROOT / 'hooks' / name).as_posix()}\n" for name in ("serve_errors.py", "glossary.py")
    )
    (root / "mkdocs.yml").write_text(
        f"site_name: Fixture\ntheme:\n  name: material\n  font: false\nhooks:\n{hooks}", encoding="utf-8"
    )
    return root / "mkdocs.yml"


def _get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.read().decode("utf-8")
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode("utf-8")


def _wait_for(url: str, wanted: str, *, timeout_s: float = 20) -> tuple[int, str]:
    deadline = time.monotonic() + timeout_s
    last = (0, "")
    while time.monotonic() < deadline:
        try:
            last = _get(url)
        except OSError:  # not listening yet
            pass
        if wanted in last[1]:
            return last
        time.sleep(0.3)
    raise AssertionError(f"{url} never showed {wanted!r}; last response {last[0]}:\n{last[1][:2000]}")


def test_serve_shows_the_error_then_the_page_once_fixed(tmp_path):
    config = _project(tmp_path, BROKEN)
    source = tmp_path / "glossary" / "alpha-term.md"
    port = free_port()
    url = f"http://127.0.0.1:{port}/glossary/alpha-term/"
    server = mkdocs_serve(config, port, cwd=tmp_path)
    try:
        # The first build fails: the server still starts, and any address shows the error.
        status, page = _wait_for(url, TITLE)
        assert ERROR in page and "expected one of" in page
        assert status == 404  # no page was built; MkDocs' server sends 404.html for it

        source.write_text(GOOD, encoding="utf-8")
        status, page = _wait_for(url, '<p class="glossary-entry__summary">')
        assert status == 200 and TITLE not in page

        # A rebuild fails: the open page turns into the error instead of hanging.
        source.write_text(BROKEN, encoding="utf-8")
        status, page = _wait_for(url, TITLE)
        assert status == 200 and ERROR in page, page
        assert "livereload" in page  # the server's reload script: the next good build brings the page back
    finally:
        server.terminate()
        output = server.communicate(timeout=10)[0]
    # Each failure is reported in the terminal, the repeated one too (MkDocs logs an error once).
    assert output.count(f"The build failed; the browser shows this until a build succeeds:\n{ERROR}") == 2, output


def test_mkdocs_build_still_fails_and_writes_no_error_page(tmp_path):
    config = _project(tmp_path, BROKEN)
    result = mkdocs_build(config, tmp_path / "site")
    assert result.returncode == 1
    assert ERROR in result.stdout + result.stderr
    assert TITLE not in result.stdout + result.stderr
    assert not (tmp_path / "site" / "index.html").exists()


def test_error_page_shows_messages_as_text(tmp_path):
    page = error_page_html(["glossary/x.md:2: <script>alert(1)</script> & more"])
    assert "<script>" not in page
    assert "glossary/x.md:2: &lt;script&gt;alert(1)&lt;/script&gt; &amp; more" in page
    assert 'http-equiv="refresh"' not in page
    assert 'http-equiv="refresh" content="2"' in error_page_html(["x"], refresh_s=2)


def test_show_build_error_replaces_every_page_and_nothing_else(tmp_path):
    (tmp_path / "glossary" / "kv-cache").mkdir(parents=True)
    (tmp_path / "glossary" / "kv-cache" / "index.html").write_text("old page", encoding="utf-8")
    (tmp_path / "site.css").write_text("body{}", encoding="utf-8")
    assert show_build_error(tmp_path, ["glossary/kv-cache.md:1: wrong"]) == 3
    for name in ("index.html", "404.html", "glossary/kv-cache/index.html"):
        assert "glossary/kv-cache.md:1: wrong" in (tmp_path / name).read_text(encoding="utf-8"), name
    assert 'http-equiv="refresh"' in (tmp_path / "404.html").read_text(encoding="utf-8")
    assert 'http-equiv="refresh"' not in (tmp_path / "index.html").read_text(encoding="utf-8")
    assert (tmp_path / "site.css").read_text(encoding="utf-8") == "body{}"


def test_a_request_during_a_strict_rebuild_is_not_a_build_warning():
    # MkDocs' server logs a 404 (a page the rebuild has not written yet) as a warning, which a
    # strict build counted: a reader's refresh aborted the rebuild (seen once under CI load).
    import importlib.util
    import logging

    from mkdocs.utils import CountHandler

    hook_file = Path(__file__).resolve().parents[2] / "hooks" / "serve_errors.py"
    spec = importlib.util.spec_from_file_location("serve_errors_hook", hook_file)
    hook = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hook)
    server_log = logging.getLogger("mkdocs.livereload")
    counter = CountHandler()
    counter.setLevel(logging.WARNING)
    logging.getLogger("mkdocs").addHandler(counter)
    server_log.addFilter(hook._requests_are_not_build_warnings)
    try:
        server_log.warning('"GET /glossary/alpha-term/ HTTP/1.1" code 404')
        assert counter.get_counts() == []
        server_log.warning("a real warning from the server")
        assert counter.get_counts() == [("WARNING", 1)]
    finally:
        server_log.removeFilter(hook._requests_are_not_build_warnings)
        logging.getLogger("mkdocs").removeHandler(counter)
