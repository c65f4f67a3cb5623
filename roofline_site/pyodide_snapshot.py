"""Make, at build time, the Pyodide memory snapshot the calculators' worker boots from.

A memory snapshot is Pyodide's WebAssembly memory taken after ``import roofline_core`` (and one
computation per calculator); restoring it skips starting Python and importing the package,
most of a boot. Pyodide makes one through the private-by-convention options of ``loadPyodide``
(``_makeSnapshot``, then ``makeMemorySnapshot()``; restored with ``_loadSnapshot``), declared in
the pinned package's ``pyodide.d.ts``; its own test suite and Cloudflare's Python Workers use
them. Because they are underscore options of one pinned version, the worker keeps the ordinary
boot as a fallback.

Node runs ``make_pyodide_snapshot.mjs`` with the pinned npm package (about 5 to 7 s here); the
result is gzipped and cached in ``.cache/pyodide-snapshot/`` under a key of everything it is
made from, so a warm build only reads it back.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from roofline_site.pyodide_bundle import pyodide_package_dir

HERE = Path(__file__).resolve().parent
MAKER = HERE / "make_pyodide_snapshot.mjs"
#: The container format and file name, shared with the worker.
SNAPSHOT_MODULE = HERE.parent / "site_assets" / "calculators" / "snapshot.mjs"
CACHE_DIR_NAME = ".cache/pyodide-snapshot"
# Making one boots Python in Node; a minute means something is wrong.
MAKE_TIMEOUT_S = 120
# On a snapshot here, gzip level 6 is within 1 % of level 9's size in a sixth of the time.
GZIP_LEVEL = 6
# Each roofline_core edit makes a new snapshot (several MB); keep the latest few (a branch switch
# back and forth stays warm) and delete older ones.
KEPT_SNAPSHOTS = 4


class SnapshotError(RuntimeError):
    """The snapshot could not be made (no Node, or the maker failed)."""


@dataclass(frozen=True)
class Snapshot:
    """A made snapshot.

    Attributes:
        name: File name to serve beside the runtime files (``roofline_core.<hash>.snapshot-<n>.gz``).
        data: The gzipped container.
    """

    name: str
    data: bytes


def cache_key(project_root: Path, core_zip_bytes: bytes) -> str:
    """Hex digest of what the snapshot is made from: the Pyodide package, roofline_core, the maker."""
    package = pyodide_package_dir(project_root)
    digest = hashlib.sha256()
    for part in (
        (package / "package.json").read_bytes(),
        (package / "pyodide.mjs").read_bytes(),
        core_zip_bytes,
        MAKER.read_bytes(),
        SNAPSHOT_MODULE.read_bytes(),
    ):
        digest.update(hashlib.sha256(part).digest())
    return digest.hexdigest()


def build_snapshot(project_root: Path, *, core_zip_name: str, core_zip_bytes: bytes) -> Snapshot:
    """The snapshot for this Pyodide and this packed roofline_core, from the cache or made now.

    Args:
        project_root: The project (its ``node_modules/pyodide`` and ``.cache/``).
        core_zip_name: The packed roofline_core's file name (``roofline_core.<hash>.zip``).
        core_zip_bytes: Its content.

    Raises:
        SnapshotError: when Node is missing or making the snapshot fails.
    """
    key = cache_key(project_root, core_zip_bytes)
    cache = project_root / CACHE_DIR_NAME / key[:24]
    manifest = cache / "snapshot.json"
    if manifest.is_file():
        name = json.loads(manifest.read_text(encoding="utf-8"))["name"]
        if (cache / name).is_file():
            return Snapshot(name=name, data=(cache / name).read_bytes())
    snapshot = make_snapshot(project_root, core_zip_name=core_zip_name, core_zip_bytes=core_zip_bytes)
    _store(cache, snapshot)
    _prune(cache.parent, keep=KEPT_SNAPSHOTS)
    return snapshot


def make_snapshot(project_root: Path, *, core_zip_name: str, core_zip_bytes: bytes) -> Snapshot:
    """Run the maker in Node and gzip its output (no cache).

    Raises:
        SnapshotError: when Node is missing or the maker fails.
    """
    node = shutil.which("node")
    if node is None:
        raise SnapshotError("node is not installed; Node 20 makes the Pyodide snapshot")
    package = pyodide_package_dir(project_root)
    with tempfile.TemporaryDirectory(prefix="pyodide-snapshot-") as tmp:
        zip_path = Path(tmp) / core_zip_name
        zip_path.write_bytes(core_zip_bytes)
        try:
            result = subprocess.run(
                [node, str(MAKER), str(package), str(zip_path), tmp],
                capture_output=True,
                text=True,
                timeout=MAKE_TIMEOUT_S,
                # Emscripten copies the host's time zone into the memory; one for every build.
                env={**os.environ, "TZ": "UTC"},
            )
        except subprocess.TimeoutExpired:
            raise SnapshotError(f"{MAKER.name}: no snapshot within {MAKE_TIMEOUT_S} s") from None
        if result.returncode != 0:
            raise SnapshotError(f"{MAKER.name} failed: {result.stderr.strip()[-2000:]}")
        raw_name = result.stdout.strip()
        raw = (Path(tmp) / raw_name).read_bytes()
    return Snapshot(name=raw_name + ".gz", data=gzip.compress(raw, GZIP_LEVEL, mtime=0))


def _store(cache: Path, snapshot: Snapshot) -> None:
    """Write the snapshot, then its manifest, each atomically (builds may run side by side)."""
    cache.mkdir(parents=True, exist_ok=True)
    for name, data in ((snapshot.name, snapshot.data), ("snapshot.json", json.dumps({"name": snapshot.name}).encode())):
        fd, tmp = tempfile.mkstemp(dir=cache, prefix=".tmp-")
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp, cache / name)


def _prune(cache_root: Path, *, keep: int) -> None:
    """Delete all but the ``keep`` most recently written snapshot folders under ``cache_root``."""
    folders = sorted(
        (path for path in cache_root.iterdir() if path.is_dir()), key=lambda path: path.stat().st_mtime, reverse=True
    )
    for folder in folders[keep:]:
        shutil.rmtree(folder, ignore_errors=True)
