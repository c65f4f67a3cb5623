"""The service worker's manifest: which of the site's files it may keep, and what each must hold.

The service worker (``site_assets/offline/sw.js``, served as ``sw.js``) keeps files for offline
reading. Any page on the same origin can write into Cache Storage (another project under one
``github.io`` user, say), so the worker trusts nothing it did not check:

* it handles only the files this manifest lists (site paths, relative to the worker's scope);
* a file whose name changes with its content (:data:`IMMUTABLE`) carries a SHA-256 digest, in
  the form Subresource Integrity uses, and the worker checks the bytes against it before it
  stores them and again before it serves them from its cache;
* its caches are named by the site's path and the manifest's version, so a new build (a new
  manifest) or another site on the origin never reads them.

The manifest is written into ``sw.js`` itself (:func:`service_worker_text`), after every other
hook has written its files: a new build gives the worker new bytes, browsers install it, and it
drops the caches of the old manifest.

Reference: Subresource Integrity (https://www.w3.org/TR/SRI/), Service Workers
(https://www.w3.org/TR/service-workers/).
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from pathlib import Path

#: Where the build writes the manifest in ``sw.js``; a worker without it handles nothing.
SLOT = "/*roofline:offline-manifest*/ null"
#: Files whose name changes whenever their bytes do: the Pyodide runtime (a folder per version),
#: content-hashed zips and snapshots, Material's hashed bundle, search worker and sheets, the
#: site's one sheet, figures, term pages' calculators and the pages' numbers scripts.
IMMUTABLE: tuple[re.Pattern[str], ...] = tuple(
    re.compile(pattern)
    for pattern in (
        r"assets/pyodide/.+",
        r"assets/javascripts/bundle\.[0-9a-f]{8}\.min\.js",
        r"assets/javascripts/workers/search\.[0-9a-f]{8}\.min\.js",
        r"assets/stylesheets/[a-z]+\.[0-9a-f]{8}\.min\.css",
        r"assets/roofline/site\.[0-9a-f]{16}\.css",
        r"assets/roofline/figures/svg/figure\.[0-9a-f]{16}\.svg",
        r"assets/roofline/calculators/part/calculator\.[0-9a-f]{16}\.json",
        r"assets/roofline/numbers/numbers\.[0-9a-f]{16}\.py",
    )
)
#: Files the worker never handles: itself, host configuration, precompressed copies, and the
#: Pyodide snapshot (the calculators' worker keeps and checks it, worker.mjs).
_NEVER = re.compile(r"sw\.js|_headers|_redirects|.*\.(?:gz|br)|.*\.snapshot-\d+\.gz")


def integrity(data: bytes) -> str:
    """``sha256-<base64>``, as an ``integrity`` attribute writes a digest.

    >>> integrity(b"")
    'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='
    """
    return "sha256-" + base64.b64encode(hashlib.sha256(data).digest()).decode("ascii")


def request_path(site_path: str) -> str:
    """The path a browser asks for a file by (``x/index.html`` is asked for as ``x/``).

    >>> request_path("glossary/roofline/index.html"), request_path("index.html"), request_path("404.html")
    ('glossary/roofline/', '', '404.html')
    """
    return (
        site_path[: -len("index.html")] if site_path == "index.html" or site_path.endswith("/index.html") else site_path
    )


def offline_manifest(site_dir: Path) -> dict:
    """``{"version": ..., "files": {request path: digest or None}}`` for every file of a built site."""
    files: dict[str, str | None] = {}
    for path in sorted(p for p in site_dir.rglob("*") if p.is_file()):
        site_path = path.relative_to(site_dir).as_posix()
        if _NEVER.fullmatch(site_path):
            continue
        hashed = any(pattern.fullmatch(site_path) for pattern in IMMUTABLE)
        files[request_path(site_path)] = integrity(path.read_bytes()) if hashed else None
    version = hashlib.sha256(json.dumps(files, sort_keys=True).encode("utf-8")).hexdigest()[:16]
    return {"version": version, "files": files}


def service_worker_text(source: str, manifest: dict) -> str:
    """``sw.js`` with ``manifest`` in its slot.

    Raises:
        ValueError: if the source has no slot (or several).
    """
    if source.count(SLOT) != 1:
        raise ValueError(f"sw.js: expected the manifest slot {SLOT!r} once; found it {source.count(SLOT)} times")
    return source.replace(SLOT, json.dumps(manifest, sort_keys=True, separators=(",", ":")))
