"""Make, at build time, the Pyodide memory snapshot the calculators' worker boots from.

A memory snapshot is Pyodide's WebAssembly memory taken after ``import roofline_core`` (and one
computation per calculator); restoring it skips starting Python and importing the package,
most of a boot. Pyodide makes one through the private-by-convention options of ``loadPyodide``
(``_makeSnapshot``, then ``makeMemorySnapshot()``; restored with ``_loadSnapshot``), declared in
the pinned package's ``pyodide.d.ts``; its own test suite and Cloudflare's Python Workers use
them. Because they are underscore options of one pinned version, the worker keeps the ordinary
boot as a fallback.

Node runs ``make_pyodide_snapshot.mjs`` with the pinned npm package and the standard library
zip the site serves (about 5 to 7 s here); the result is gzipped and cached in
``.cache/pyodide-snapshot/`` under a key of everything it is made from.
"""

from __future__ import annotations

import gzip
import tempfile
import zlib
from pathlib import Path

from roofline_site.node_artifacts import Artifact, cached_artifact, input_key, run_node
from roofline_site.pyodide_bundle import pyodide_package_dir

HERE = Path(__file__).resolve().parent
MAKER = HERE / "make_pyodide_snapshot.mjs"
#: The container format and file name, shared with the worker.
SNAPSHOT_MODULE = HERE.parent / "site_assets" / "calculators" / "snapshot.mjs"
CACHE_DIR_NAME = ".cache/pyodide-snapshot"
# Making one boots Python in Node (a few CPU-s); the bound only catches a hang, with room for a
# busy machine, where wall time stretches many times.
MAKE_TIMEOUT_S = 900
# On a snapshot here, gzip level 6 is within 1 % of level 9's size in a sixth of the time.
GZIP_LEVEL = 6


def cache_key(project_root: Path, core_zip_bytes: bytes, stdlib_bytes: bytes) -> str:
    """Hex digest of what the snapshot is made from: Pyodide, roofline_core, the library, the maker
    and this module with the zlib that gzips its output."""
    package = pyodide_package_dir(project_root)
    return input_key(
        [
            (package / "package.json").read_bytes(),
            (package / "pyodide.mjs").read_bytes(),
            core_zip_bytes,
            stdlib_bytes,
            MAKER.read_bytes(),
            SNAPSHOT_MODULE.read_bytes(),
            Path(__file__).read_bytes(),
            zlib.ZLIB_RUNTIME_VERSION.encode(),
        ],
        shared=True,
    )


def build_snapshot(
    project_root: Path, *, core_zip_name: str, core_zip_bytes: bytes, stdlib_name: str, stdlib_bytes: bytes
) -> Artifact:
    """The snapshot for this Pyodide, packed roofline_core and standard library, cached or made now.

    Args:
        project_root: The project (its ``node_modules/pyodide`` and ``.cache/``).
        core_zip_name: The packed roofline_core's file name (``roofline_core.<hash>.zip``).
        core_zip_bytes: Its content.
        stdlib_name: The standard library zip's file name as served (``python_stdlib.<hash>.zip``,
            or the stock ``python_stdlib.zip``).
        stdlib_bytes: Its content; the worker must boot with the same bytes.

    Raises:
        roofline_site.node_artifacts.NodeArtifactError: when Node is missing or the maker fails.
    """
    return cached_artifact(
        project_root / CACHE_DIR_NAME,
        cache_key(project_root, core_zip_bytes, stdlib_bytes),
        lambda: make_snapshot(
            project_root,
            core_zip_name=core_zip_name,
            core_zip_bytes=core_zip_bytes,
            stdlib_name=stdlib_name,
            stdlib_bytes=stdlib_bytes,
        ),
    )


def make_snapshot(
    project_root: Path, *, core_zip_name: str, core_zip_bytes: bytes, stdlib_name: str, stdlib_bytes: bytes
) -> Artifact:
    """Run the maker in Node and gzip its output (no cache).

    Raises:
        roofline_site.node_artifacts.NodeArtifactError: when Node is missing or the maker fails.
    """
    package = pyodide_package_dir(project_root)
    with tempfile.TemporaryDirectory(prefix="pyodide-snapshot-") as tmp:
        zip_path = Path(tmp) / core_zip_name
        zip_path.write_bytes(core_zip_bytes)
        stdlib_path = Path(tmp) / stdlib_name
        stdlib_path.write_bytes(stdlib_bytes)
        raw_name = run_node(
            MAKER, [str(package), str(zip_path), str(stdlib_path), tmp], timeout_s=MAKE_TIMEOUT_S
        ).strip()
        raw = (Path(tmp) / raw_name).read_bytes()
    return Artifact(name=raw_name + ".gz", data=gzip.compress(raw, GZIP_LEVEL, mtime=0))
