"""The calculators' runtime manifest: where this build's Python runtime is, and its token.

The browser code takes every address it loads code from out of one build-made module on the
site's own origin, ``assets/roofline/calculators/runtime.mjs`` (:func:`runtime_module`), never
from the page: a calculator root placed by markup could otherwise point the worker at another
host, and a page's ``<meta>`` CSP does not reach inside workers. The worker resolves the
addresses against the module's own URL and refuses any that leave its origin
(``site_assets/calculators/runtime-urls.mjs``).

The same module carries the build's token (:func:`build_token`): the calculators the build
renders carry it in ``data-build-token`` and the browser mounts no other. It is a digest of
every page's Markdown, so no page can hold the token of the build that publishes it.
"""

from __future__ import annotations

import hashlib
import json
import posixpath
from collections.abc import Iterable

#: Site path of the module, beside the calculators' other scripts.
MODULE_PATH = "assets/roofline/calculators/runtime.mjs"
#: What the calculators' HTML holds in place of the token until the build stamps it
#: (:func:`stamp`); renderings are cached with it, so a new token costs no new rendering.
TOKEN_SLOT = "roofline-build-token-slot"


def build_token(sources: Iterable[tuple[str, str]]) -> str:
    """A digest of ``(source path, Markdown)`` of every page, in any order.

    >>> build_token([("a.md", "x"), ("b.md", "y")]) == build_token([("b.md", "y"), ("a.md", "x")])
    True
    >>> len(build_token([]))
    32
    """
    digest = hashlib.sha256(b"roofline-build-token-1\0")
    for path, text in sorted(sources):
        for part in (path, text):
            data = part.encode("utf-8", "surrogatepass")
            digest.update(len(data).to_bytes(8, "little") + data)
    return digest.hexdigest()[:32]


def stamp(calculator_html: str, token: str) -> str:
    """``calculator_html`` with the build's token in place of :data:`TOKEN_SLOT`."""
    return calculator_html.replace(f'data-build-token="{TOKEN_SLOT}"', f'data-build-token="{token}"')


def runtime_module(
    *, runtime_dir: str, core_zip: str, stdlib_zip: str, token: str, integrity: dict[str, str | list[str]] | None = None
) -> str:
    """The text of :data:`MODULE_PATH`: the runtime's site paths relative to the module itself.

    ``integrity`` maps file names the worker fetches itself (the packed roofline_core, the
    snapshot) to their digest, or a list of those it may have (``roofline_site.offline_manifest.integrity``): it checks the
    bytes against them before using them, from the network or from its own cache.

    >>> text = runtime_module(runtime_dir="assets/pyodide/1.0/", core_zip="assets/pyodide/c.zip",
    ...                       stdlib_zip="assets/pyodide/1.0/s.zip", token="t")
    >>> print(text.splitlines()[-1])
    export const RUNTIME = Object.freeze({"index": "../../pyodide/1.0/", "coreZip": "../../pyodide/c.zip", "stdLib": "../../pyodide/1.0/s.zip", "buildToken": "t", "integrity": {}});
    """
    here = posixpath.dirname(MODULE_PATH)

    def relative(site_path: str) -> str:
        path = posixpath.relpath(site_path, here)
        return path + "/" if site_path.endswith("/") else path

    fields = {
        "index": relative(runtime_dir),
        "coreZip": relative(core_zip),
        "stdLib": relative(stdlib_zip),
        "buildToken": token,
        "integrity": dict(sorted((integrity or {}).items())),
    }
    return (
        "// Written by the build (roofline_site/calculators/runtime_manifest.py): where this build's Python\n"
        "// runtime is, relative to this file, and the token of the calculators it rendered.\n"
        f"export const RUNTIME = Object.freeze({json.dumps(fields)});\n"
    )
