"""Under ``mkdocs serve`` only: MkDocs' live-reload script runs under the pages' strict policy.

MkDocs' server adds an inline ``<script>`` before ``</body>`` of every HTML page it serves
(``mkdocs/livereload/__init__.py``, ``LiveReloadServer._inject_js_into_html``). Its text carries
the build's epoch and a per-request id, so no hash written at build time can authorise it, and
the pages' ``<meta>`` policy (:mod:`roofline_site.csp`) blocked it: a saved file rebuilt the
site but no open page reloaded.

The serve process draws one random nonce (:func:`start`); ``hooks/live_reload.py`` puts it on the
script the server injects (:func:`with_nonce`) and ``hooks/security_headers.py`` adds
``'nonce-<it>'`` to the served pages' ``script-src`` (:func:`nonce`). ``mkdocs build`` never
draws one, so a published page authorises no inline script but the theme's own.
"""

from __future__ import annotations

import secrets

#: What MkDocs 1.6 writes where it injects its script (requirements.lock pins MkDocs).
INJECTED_TAG = b"<script>"

_nonce: str | None = None


def start() -> str:
    """Draw this process's nonce (once) and return it; from now on :func:`nonce` gives it."""
    global _nonce
    if _nonce is None:
        _nonce = secrets.token_urlsafe(18)
    return _nonce


def nonce() -> str | None:
    """The serve process's nonce, or None outside ``mkdocs serve`` (every published build)."""
    return _nonce


def stop() -> None:
    """Forget the nonce (a test that called :func:`start` in its own process)."""
    global _nonce
    _nonce = None


def with_nonce(served: bytes, original: bytes, value: str) -> bytes:
    """``served`` (``original`` with MkDocs' script injected) with ``nonce="value"`` on that script.

    MkDocs injects at the last ``</body>`` of the original (or at its end), so the script
    starts at that offset in ``served``.

    >>> with_nonce(b"<p>x</p><script>reload()</script></body>", b"<p>x</p></body>", "n0")
    b'<p>x</p><script nonce="n0">reload()</script></body>'

    Raises:
        ValueError: if ``served`` holds no script where MkDocs injects it (another MkDocs version).
    """
    at = original.rfind(b"</body>")
    at = len(original) if at < 0 else at
    if served[:at] != original[:at] or not served[at:].startswith(INJECTED_TAG):
        raise ValueError(
            "live reload: expected MkDocs' server to inject '<script>' before </body> "
            "(mkdocs/livereload, MkDocs 1.6 as requirements.lock pins it); found another page"
        )
    tag = b'<script nonce="' + value.encode("ascii") + b'">'
    return served[:at] + tag + served[at + len(INJECTED_TAG) :]
