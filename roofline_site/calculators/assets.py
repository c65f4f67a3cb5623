"""Where the self-hosted Pyodide runtime and the packed roofline_core go in the built site.

The runtime files come unchanged from the pinned npm package and sit under a folder named by
its version (``assets/pyodide/314.0.7/``); roofline_core sits beside it under a name carrying
its content hash. Both names change exactly when their bytes do, so a host can cache them
forever.

Packing roofline_core and listing the runtime happens once per build, in
:func:`prepare_build_assets` (called by ``hooks/pyodide_assets.py``, which adds the files to the
site); calculator fences read the site paths from :func:`build_assets`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from roofline_site.node_artifacts import NodeArtifactError
from roofline_site.pyodide_bundle import PYODIDE_RUNTIME_FILES, core_zip_bytes, hashed_name, pyodide_package_dir
from roofline_site.pyodide_stdlib import STOCK_NAME, build_stdlib

SITE_DIR = "assets/pyodide"
#: Where the packed roofline_core is kept between builds (roofline_site/pyodide_bundle.py).
CORE_ZIP_CACHE_DIR = ".cache/pyodide-core"


@dataclass(frozen=True)
class PyodideSiteAssets:
    """The files to add to the site and their site paths.

    Attributes:
        version: Version of the npm ``pyodide`` package.
        runtime_dir: Site path of the runtime folder, ending with ``/`` (``assets/pyodide/314.0.7/``).
        runtime_files: Site path -> absolute path in ``node_modules/pyodide``.
        core_zip: Site path of ``roofline_core.<hash>.zip``.
        core_zip_bytes: Its content.
        stdlib_zip: Site path of the standard library zip the worker boots with: the trimmed,
            precompiled ``python_stdlib.<hash>.zip``, or the npm package's own when it could not
            be made.
        stdlib_zip_bytes: Its content.
        stdlib_note: Why the stock library is served, or ``""``.
        build_token: The token this build's calculators carry (:mod:`.runtime_manifest`).
    """

    version: str
    runtime_dir: str
    runtime_files: dict[str, Path]
    core_zip: str
    core_zip_bytes: bytes
    stdlib_zip: str
    stdlib_zip_bytes: bytes
    stdlib_note: str = ""
    build_token: str = ""


def pyodide_site_assets(project_root: Path, *, build_token: str = "") -> PyodideSiteAssets:
    """Collect the runtime files of ``project_root/node_modules/pyodide``, pack roofline_core and
    trim the standard library for it (``roofline_site.pyodide_stdlib``; made in Node, cached).

    Raises:
        FileNotFoundError: when the npm package or one of its runtime files is missing.
    """
    package = pyodide_package_dir(project_root)
    version = json.loads((package / "package.json").read_text(encoding="utf-8"))["version"]
    runtime_dir = f"{SITE_DIR}/{version}/"
    runtime_files: dict[str, Path] = {}
    for name in PYODIDE_RUNTIME_FILES:
        source = package / name
        if not source.is_file():
            raise FileNotFoundError(
                f"{source}: missing from the npm package 'pyodide' {version}; run scripts/setup (npm ci)"
            )
        runtime_files[runtime_dir + name] = source
    data = core_zip_bytes(project_root / CORE_ZIP_CACHE_DIR)
    core_zip_name = hashed_name(data)
    stock = runtime_files.pop(runtime_dir + STOCK_NAME)
    try:
        stdlib = build_stdlib(project_root, core_zip_name=core_zip_name, core_zip_bytes=data)
    except NodeArtifactError as error:
        # The site works with the stock library, only slower to start.
        runtime_files[runtime_dir + STOCK_NAME] = stock
        stdlib_zip, stdlib_bytes, note = runtime_dir + STOCK_NAME, stock.read_bytes(), str(error)
    else:
        stdlib_zip, stdlib_bytes, note = runtime_dir + stdlib.name, stdlib.data, ""
    return PyodideSiteAssets(
        version=version,
        runtime_dir=runtime_dir,
        runtime_files=runtime_files,
        core_zip=f"{SITE_DIR}/{core_zip_name}",
        core_zip_bytes=data,
        stdlib_zip=stdlib_zip,
        stdlib_zip_bytes=stdlib_bytes,
        stdlib_note=note,
        build_token=build_token,
    )


# The assets of the build in progress, prepared once by hooks/pyodide_assets.py.
_build_assets: PyodideSiteAssets | None = None


def prepare_build_assets(project_root: Path, *, build_token: str = "") -> PyodideSiteAssets:
    """Collect and pack the assets of this build, once, and make them :func:`build_assets`.

    Raises:
        FileNotFoundError: as :func:`pyodide_site_assets`.
    """
    global _build_assets
    _build_assets = pyodide_site_assets(project_root, build_token=build_token)
    return _build_assets


def build_assets() -> PyodideSiteAssets:
    """The assets :func:`prepare_build_assets` prepared for this build.

    Raises:
        LookupError: when no hook prepared them.
    """
    if _build_assets is None:
        raise LookupError("no Pyodide assets were prepared in this build")
    return _build_assets
