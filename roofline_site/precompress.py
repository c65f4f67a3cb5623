"""Precompressed copies of a built site's text files, for hosts that serve them as they are.

nginx's ``gzip_static`` and ``brotli_static``, Caddy's ``precompressed``, and most CDNs in front
of an object store send ``<file>.gz`` (or ``<file>.br``) when the browser accepts it, instead of
compressing on every request or not at all. Writing them at build time gives such a host the
highest levels (gzip 9, Brotli 11), which are too slow to run per request.

Gzip comes from Python's ``gzip`` with no name and time in the header, so two builds give the same
bytes. Brotli comes from Node's built-in ``zlib`` (Node 20 is already needed for the build's
Pyodide files), all files in one process; without Node, only ``.gz`` is written.

Copies are kept between builds in the user's cache folder (:func:`default_cache_dir`), keyed by
the file's bytes alone, so every checkout on a machine shares them, as pip shares the wheels it
built: most of the work is Brotli 11 of Pyodide's files, which change only with its pinned
version, and a fresh clone need not redo it (about 45 CPU-seconds on the 2-core machine).
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import shutil
import subprocess
import time
import zlib
from collections.abc import Mapping
from pathlib import Path

from roofline_site.atomic_write import write_atomic

#: What a host would compress: text, and WebAssembly (it compresses to about a third).
COMPRESSED_SUFFIXES = frozenset(
    {".html", ".css", ".js", ".mjs", ".json", ".svg", ".xml", ".txt", ".md", ".py", ".wasm", ".map", ".csv"}
)
# Below this, a compressed copy saves less than a network packet.
MIN_BYTES = 1024
GZIP_LEVEL = 9
BROTLI_SCRIPT = """
const { brotliCompressSync, constants } = require("node:zlib");
const { readFileSync, writeFileSync } = require("node:fs");
for (const path of JSON.parse(readFileSync(0, "utf8"))) {
  const data = readFileSync(path);
  const params = {
    [constants.BROTLI_PARAM_QUALITY]: 11,
    [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
    [constants.BROTLI_PARAM_MODE]: path.endsWith(".wasm") ? constants.BROTLI_MODE_GENERIC : constants.BROTLI_MODE_TEXT,
  };
  writeFileSync(path + ".br", brotliCompressSync(data, { params }));
}
"""
# Brotli 11 on the whole site (the 9.6 MB WebAssembly file most of it) takes some seconds.
BROTLI_TIMEOUT_S = 300
#: Names the folder that holds the copies between builds, instead of the user's cache folder.
CACHE_DIR_VARIABLE = "ROOFLINE_PRECOMPRESS_CACHE"
#: A cached copy that no build has used for this long is deleted (other checkouts, other
#: branches and fixture sites share the folder, so one build's unused entries may be another's).
KEEP_UNUSED_S = 14 * 24 * 3600


def default_cache_dir(environ: Mapping[str, str] = os.environ) -> Path:
    """Where copies are kept between builds: ``$ROOFLINE_PRECOMPRESS_CACHE`` if set, else
    ``roofline-glossary/precompressed`` in ``$XDG_CACHE_HOME`` (``~/.cache`` when unset), the
    folder the XDG Base Directory specification gives for non-essential cached data."""
    if environ.get(CACHE_DIR_VARIABLE):
        return Path(environ[CACHE_DIR_VARIABLE])
    base = Path(environ["XDG_CACHE_HOME"]) if environ.get("XDG_CACHE_HOME") else Path.home() / ".cache"
    return base / "roofline-glossary" / "precompressed"


def compressible_files(site_dir: Path) -> list[Path]:
    """Files under ``site_dir`` a host would compress, large enough to gain from it."""
    return sorted(
        path
        for path in site_dir.rglob("*")
        if path.is_file() and path.suffix in COMPRESSED_SUFFIXES and path.stat().st_size >= MIN_BYTES
    )


def write_gzip(paths: list[Path]) -> None:
    """``<file>.gz`` beside each file: gzip level 9, no name or time in the header."""
    for path in paths:
        path.with_name(path.name + ".gz").write_bytes(gzip.compress(path.read_bytes(), GZIP_LEVEL, mtime=0))


def write_brotli(paths: list[Path]) -> bool:
    """``<file>.br`` beside each file (Brotli 11, through Node); False when Node is missing.

    Raises:
        RuntimeError: when Node fails, with its error output.
    """
    node = shutil.which("node")
    if node is None:
        return False
    if not paths:
        return True
    result = subprocess.run(
        [node, "-e", BROTLI_SCRIPT],
        input=json.dumps([str(path) for path in paths]),
        capture_output=True,
        text=True,
        timeout=BROTLI_TIMEOUT_S,
    )
    if result.returncode != 0:
        raise RuntimeError(f"Brotli compression failed: {result.stderr.strip()[-2000:]}")
    return True


def copy_key(path: Path) -> str:
    """Key of a file's compressed copies: its bytes, its suffix (Brotli's mode follows it), this
    module (levels, the Brotli script) and the zlib that gzips. Nothing of the site or the
    checkout: the copies of the same bytes are the same in every build, which shares them."""
    parts = [Path(__file__).read_bytes(), zlib.ZLIB_RUNTIME_VERSION.encode(), path.suffix.encode(), path.read_bytes()]
    digest = hashlib.sha256()
    for part in parts:
        digest.update(hashlib.sha256(part).digest())
    return digest.hexdigest()


def precompress(site_dir: Path, cache_dir: Path) -> tuple[int, bool]:
    """Write ``.gz`` and (with Node) ``.br`` copies of the site's text files.

    Compressed copies are kept in ``cache_dir`` by :func:`copy_key`, so a rebuild (or another
    checkout's build) compresses only what changed (Brotli 11 takes about 20 s on the
    WebAssembly file alone). Each is written atomically, since builds share the folder and may run
    side by side; entries used now are marked so, and entries no build has used for
    :data:`KEEP_UNUSED_S` are deleted.

    Returns:
        How many files have copies, and whether ``.br`` copies were written.
    """
    paths = compressible_files(site_dir)
    cache_dir.mkdir(parents=True, exist_ok=True)
    digests = {path: copy_key(path) for path in paths}
    used: set[str] = set()
    for suffix in (".gz", ".br"):
        missing = []
        for path, digest in digests.items():
            cached = cache_dir / (digest + suffix)
            used.add(cached.name)
            if cached.is_file():
                shutil.copyfile(cached, path.with_name(path.name + suffix))
                os.utime(cached)  # used now: kept for another KEEP_UNUSED_S
            else:
                missing.append(path)
        if suffix == ".gz":
            write_gzip(missing)
        elif not write_brotli(missing):
            continue
        for path in missing:
            write_atomic(cache_dir / (digests[path] + suffix), path.with_name(path.name + suffix).read_bytes())
    _prune(cache_dir, keep=used)
    brotli = all((path.with_name(path.name + ".br")).is_file() for path in paths)
    return len(paths), brotli


def _prune(cache_dir: Path, *, keep: set[str]) -> None:
    """Delete the entries of ``cache_dir`` not in ``keep`` that no build has used for
    :data:`KEEP_UNUSED_S` (left-over temporary files of an interrupted write included)."""
    oldest = time.time() - KEEP_UNUSED_S
    for entry in cache_dir.iterdir():
        if entry.name in keep:
            continue
        try:
            if entry.stat().st_mtime < oldest:
                entry.unlink()
        except FileNotFoundError:  # another build pruned it first
            pass
