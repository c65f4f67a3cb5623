"""``scripts/serve`` reloads open pages after every save: the served pages' CSP allows MkDocs'
live-reload script by the serve process's nonce, and the published build's policy does not."""

from __future__ import annotations

import html
import re
import shutil
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest
from mkdocs.livereload import LiveReloadServer

from roofline_site import csp
from roofline_site.live_reload import with_nonce
from tests.support.browser_wait import HANG_MS
from tests.support.site_build import PROJECT_ROOT, free_port, mkdocs_build, mkdocs_serve

HOOKS = ("serve_errors.py", "live_reload.py", "security_headers.py")
# A theme override that carries the site's real policy partial, as the site's main.html does.
MAIN = '{% extends "base.html" %}\n{% block site_meta %}{{ super() }}{% include "partials/content-security-policy.html" %}{% endblock %}\n'
SCRIPT_SRC = re.compile(r'http-equiv="Content-Security-Policy" content="[^"]*script-src ([^;"]*)')


def _project(root: Path) -> Path:
    (root / "docs").mkdir(parents=True)
    (root / "docs" / "index.md").write_text("# Home\n\nFirst version.\n", encoding="utf-8")
    (root / "overrides" / "partials").mkdir(parents=True)
    (root / "overrides" / "main.html").write_text(MAIN, encoding="utf-8")
    shutil.copyfile(
        PROJECT_ROOT / "site_assets" / "overrides" / "partials" / "content-security-policy.html",
        root / "overrides" / "partials" / "content-security-policy.html",
    )
    hooks = "".join(f"  - {(PROJECT_ROOT / 'hooks' / name).as_posix()}\n" for name in HOOKS)
    (root / "mkdocs.yml").write_text(
        f"site_name: Fixture\ntheme:\n  name: material\n  font: false\n  custom_dir: overrides\nhooks:\n{hooks}",
        encoding="utf-8",
    )
    return root / "mkdocs.yml"


def _wait_until_served(url: str, server: subprocess.Popen, *, timeout_s: float = 120) -> str:
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            with urllib.request.urlopen(url, timeout=10) as response:
                return response.read().decode("utf-8")
        except OSError:
            if server.poll() is not None or time.monotonic() > deadline:
                server.kill()
                raise AssertionError(f"mkdocs serve never answered {url}:\n{server.communicate()[0]}") from None
            time.sleep(0.3)


def test_the_nonce_goes_on_the_script_mkdocs_injects_and_nowhere_else():
    page = b"<html><body><script>theme()</script><p>x</p></body></html>"
    served = LiveReloadServer._inject_js_into_html(None, page, 1)  # MkDocs' own injection
    nonced = with_nonce(served, page, "abc")
    assert nonced.count(b'<script nonce="abc">') == 1
    assert b"<script>theme()</script>" in nonced  # the page's own script is left as it was
    assert b'nonce="abc">\nvar livereload' in nonced
    with pytest.raises(ValueError, match="expected MkDocs' server to inject"):
        with_nonce(page, page, "abc")


def test_only_a_policy_given_a_nonce_allows_one():
    assert "'nonce-" not in csp.policy()
    assert "script-src 'self' 'wasm-unsafe-eval' 'nonce-abc';" in csp.policy(script_nonce="abc")


@pytest.mark.browser
def test_serve_reloads_the_open_page_after_a_save_and_the_published_build_allows_no_reload_script(browser, tmp_path):
    config = _project(tmp_path)
    port = free_port()
    url = f"http://127.0.0.1:{port}/"
    server = mkdocs_serve(config, port, cwd=tmp_path)
    context = browser.new_context()
    try:
        served = _wait_until_served(url, server)
        (sources,) = SCRIPT_SRC.findall(html.unescape(served))
        (nonce,) = re.findall(r"'nonce-([^']+)'", sources)
        assert f'<script nonce="{nonce}">' in served
        page = context.new_page()
        logs: list[str] = []
        page.on("console", lambda message: logs.append(message.text))
        page.goto(url, wait_until="load")
        page.wait_for_function("() => document.body?.textContent.includes('First version.')")
        (tmp_path / "docs" / "index.md").write_text("# Home\n\nSecond version.\n", encoding="utf-8")
        # No navigation by the test: the page reloads itself once the rebuild is done.
        # The predicate also runs while the reloaded document has no body yet.
        page.wait_for_function("() => document.body?.textContent.includes('Second version.')", timeout=HANG_MS)
        assert "Enabled live reload" in logs
        assert not [text for text in logs if "Content Security Policy" in text], logs
    finally:
        context.close()
        server.terminate()
        server.communicate(timeout=10)

    # The published build: no nonce, so MkDocs' script (were a server to inject it) is refused.
    result = mkdocs_build(config, tmp_path / "site")
    assert result.returncode == 0, result.stderr
    built = (tmp_path / "site" / "index.html").read_bytes()
    (sources,) = SCRIPT_SRC.findall(html.unescape(built.decode("utf-8")))
    assert "nonce" not in sources and "unsafe-inline" not in sources
    context = browser.new_context()
    try:
        page = context.new_page()
        logs = []
        page.on("console", lambda message: logs.append(message.text))
        injected = LiveReloadServer._inject_js_into_html(None, built, 1)
        # The later route wins: every other request is refused, the page is the built one.
        page.route("http://127.0.0.1:9/**", lambda route: route.abort())
        page.route("http://127.0.0.1:9/", lambda route: route.fulfill(body=injected, content_type="text/html"))
        page.goto("http://127.0.0.1:9/", wait_until="load")
        page.wait_for_function("() => document.readyState === 'complete'")
        assert "Enabled live reload" not in logs
        assert [text for text in logs if "Content Security Policy" in text], logs
    finally:
        context.close()
