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

It also names the page the worker shows offline for an address it has not kept
(:data:`OFFLINE_PAGE`, with its digest) and every file that page loads (:func:`offline_page_files`):
the worker keeps them when it installs, so that page never depends on what the reader opened.

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
import posixpath
import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlsplit

#: Where the build writes the manifest in ``sw.js``; a worker without it handles nothing.
SLOT = "/*roofline:offline-manifest*/ null"
#: Files whose name changes whenever their bytes do: the Pyodide runtime (a folder per version),
#: content-hashed zips and snapshots, Material's hashed bundle, search worker and sheets, the
#: site's one sheet, figures, the CSV files of figures and calculators, term pages' calculators,
#: the pages' numbers scripts and parts, and roofline_core's wheel in its hashed folder.
IMMUTABLE: tuple[re.Pattern[str], ...] = tuple(
    re.compile(pattern)
    for pattern in (
        r"assets/pyodide/.+",
        r"assets/javascripts/bundle\.[0-9a-f]{8}\.min\.js",
        r"assets/javascripts/workers/search\.[0-9a-f]{8}\.min\.js",
        r"assets/stylesheets/[a-z]+\.[0-9a-f]{8}\.min\.css",
        r"assets/roofline/site\.[0-9a-f]{16}\.css",
        r"assets/roofline/figures/svg/figure\.[0-9a-f]{16}\.svg",
        r"assets/roofline/data/[a-z0-9-]+\.[0-9a-f]{16}\.csv",
        r"assets/roofline/calculators/part/calculator\.[0-9a-f]{16}\.json",
        r"assets/roofline/numbers/numbers\.[0-9a-f]{16}\.py",
        r"assets/roofline/numbers/numbers\.[0-9a-f]{16}\.json",
        # roofline_core's wheel under its content hash (the stable copy beside it is not).
        r"wheels/[0-9a-f]{16}/roofline_core-[^/]+\.whl",
    )
)
#: Files the worker never handles: itself, host configuration, precompressed copies, and the
#: Pyodide snapshot (the calculators' worker keeps and checks it, worker.mjs).
_NEVER = re.compile(r"sw\.js|_headers|_redirects|.*\.(?:gz|br)|.*\.snapshot-\d+\.gz")
#: The page the worker shows for an address it has not kept, offline (site_assets/overrides/503.html).
OFFLINE_PAGE = "503.html"
#: ``<link rel>`` values whose target a page loads as it opens.
_LOADING_RELS = frozenset({"stylesheet", "icon", "shortcut", "preload", "modulepreload"})
# A module's static imports of the site's own files: `import x from "./a.mjs"`, `import "./a.mjs"`,
# `export {x} from "../b.mjs"`. Dynamic `import("...")` is left out: it runs only when needed.
_STATIC_IMPORT = re.compile(r"""(?:\bfrom|\bimport)\s*["'](\.{1,2}/[^"'\s]+)["']""")


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


def offline_manifest(site_dir: Path, *, base_path: str = "/") -> dict:
    """The worker's manifest for a built site.

    ``{"version": ..., "files": {request path: digest or None}}`` for every file, and, when the
    site has :data:`OFFLINE_PAGE`, ``"offline": {"page": ..., "integrity": ..., "files": [...]}``:
    that page, its digest and the request paths of the files it loads.

    Args:
        site_dir: The built site.
        base_path: The path the site is served under (``site_url``'s), which the offline page's
            links are rooted at.
    """
    files: dict[str, str | None] = {}
    for path in sorted(p for p in site_dir.rglob("*") if p.is_file()):
        site_path = path.relative_to(site_dir).as_posix()
        if _NEVER.fullmatch(site_path):
            continue
        hashed = any(pattern.fullmatch(site_path) for pattern in IMMUTABLE)
        files[request_path(site_path)] = integrity(path.read_bytes()) if hashed else None
    manifest: dict = {"files": files}
    page = site_dir / OFFLINE_PAGE
    if page.is_file():
        manifest["offline"] = {
            "page": OFFLINE_PAGE,
            "integrity": integrity(page.read_bytes()),
            "files": [p for p in offline_page_files(site_dir, base_path=base_path) if p in files],
        }
    manifest["version"] = hashlib.sha256(json.dumps(manifest, sort_keys=True).encode("utf-8")).hexdigest()[:16]
    return manifest


class _Loads(HTMLParser):
    """The URLs a page loads as it opens: scripts, style sheets, icons, preloads and images."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        if tag in ("script", "img") and attributes.get("src"):
            self.urls.append(attributes["src"] or "")
        elif tag == "link" and attributes.get("href"):
            if _LOADING_RELS & set((attributes.get("rel") or "").lower().split()):
                self.urls.append(attributes["href"] or "")


def offline_page_files(site_dir: Path, *, base_path: str = "/") -> list[str]:
    """Site paths of the files :data:`OFFLINE_PAGE` loads, following its modules' static imports.

    Only files of the site itself (under ``base_path``) that exist are listed, each once, in
    the order they are found.

    >>> import tempfile
    >>> root = Path(tempfile.mkdtemp())
    >>> (root / "a").mkdir()
    >>> _ = (root / OFFLINE_PAGE).write_text('<link rel="stylesheet" href="/s.css"><script type="module" src="/a/m.mjs"></script>')
    >>> _ = (root / "s.css").write_text("")
    >>> _ = (root / "a" / "m.mjs").write_text('import { x } from "../n.mjs"; import("./later.mjs");')
    >>> _ = (root / "n.mjs").write_text("export const x = 1;")
    >>> offline_page_files(root)
    ['s.css', 'a/m.mjs', 'n.mjs']
    """
    base = "/" + base_path.strip("/") + "/" if base_path.strip("/") else "/"
    parser = _Loads()
    parser.feed((site_dir / OFFLINE_PAGE).read_text(encoding="utf-8"))
    parser.close()
    pending = [(url, base + OFFLINE_PAGE) for url in parser.urls]
    found: list[str] = []
    while pending:
        url, referrer = pending.pop(0)
        parts = urlsplit(url)
        if parts.scheme or parts.netloc or not parts.path:
            continue  # another host, or data: (Material's icons): nothing to keep
        path = posixpath.normpath(posixpath.join(posixpath.dirname(referrer), parts.path))
        if not path.startswith(base):
            continue
        site_path = path[len(base) :]
        file = site_dir / site_path
        if site_path in found or not file.is_file():
            continue
        found.append(site_path)
        if file.suffix in (".mjs", ".js"):
            text = file.read_text(encoding="utf-8", errors="replace")
            pending += [(target, path) for target in _STATIC_IMPORT.findall(text)]
    return found


def service_worker_text(source: str, manifest: dict) -> str:
    """``sw.js`` with ``manifest`` in its slot.

    Raises:
        ValueError: if the source has no slot (or several).
    """
    if source.count(SLOT) != 1:
        raise ValueError(f"sw.js: expected the manifest slot {SLOT!r} once; found it {source.count(SLOT)} times")
    return source.replace(SLOT, json.dumps(manifest, sort_keys=True, separators=(",", ":")))
