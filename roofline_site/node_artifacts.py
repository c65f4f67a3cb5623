"""Files the build makes by running a script in Node with the pinned npm Pyodide, cached by key.

Two builds use this: the trimmed standard library (``pyodide_stdlib.py``) and the memory
snapshot (``pyodide_snapshot.py``). Each runs its maker once per distinct input and keeps the
result in ``.cache/<kind>/<key>/``, so a warm build only reads it back.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from roofline_site.atomic_write import exclusive_lock, write_atomic
from roofline_site.build_config import config_digest, repository_config_digest

# Each roofline_core edit makes new artifacts (a snapshot is several MB); keep the latest few (a
# branch switch back and forth stays warm) and delete older ones.
KEPT_ARTIFACTS = 4


class NodeArtifactError(RuntimeError):
    """An artifact could not be made (no Node, or its maker failed)."""


@dataclass(frozen=True)
class Artifact:
    """A made file.

    Attributes:
        name: Its file name in the site.
        data: Its bytes.
    """

    name: str
    data: bytes


def input_key(parts: Iterable[bytes], *, shared: bool = False) -> str:
    """Hex digest of everything an artifact is made from (each part hashed, then the list).

    Every cache under ``.cache/`` keys its records with this function, which also mixes in the
    build's configuration digest (:mod:`roofline_site.build_config`): a change to ``mkdocs.yml``,
    a hook or a theme override misses every cache. ``shared``: a cache in the repository's own
    ``.cache`` that every build with this code uses, whose records depend on no site's settings;
    it mixes in the repository's configuration files instead of the build's
    (:func:`~roofline_site.build_config.repository_config_digest`).
    """
    configuration = repository_config_digest() if shared else config_digest()
    digest = hashlib.sha256(configuration.encode())
    for part in parts:
        digest.update(hashlib.sha256(part).digest())
    return digest.hexdigest()


def run_node(maker: Path, args: list[str], *, timeout_s: float) -> str:
    """Run ``node maker args...`` and return its standard output.

    Raises:
        NodeArtifactError: when Node is missing, or the maker fails or outlives ``timeout_s``.
    """
    node = shutil.which("node")
    if node is None:
        raise NodeArtifactError(f"node is not installed; Node 20 runs {maker.name}")
    try:
        result = subprocess.run(
            [node, str(maker), *args],
            capture_output=True,
            text=True,
            timeout=timeout_s,
            # Emscripten copies the host's time zone into Python's memory; one for every build.
            env={**os.environ, "TZ": "UTC"},
        )
    except subprocess.TimeoutExpired:
        raise NodeArtifactError(f"{maker.name}: nothing within {timeout_s:g} s") from None
    if result.returncode != 0:
        raise NodeArtifactError(f"{maker.name} failed: {result.stderr.strip()[-2000:]}")
    return result.stdout


def cached_artifact(cache_root: Path, key: str, make: Callable[[], Artifact]) -> Artifact:
    """The artifact stored under ``key`` in ``cache_root``, or ``make()``'s, stored there.

    Raises:
        NodeArtifactError: as ``make`` does.
    """
    cache = cache_root / key[:24]
    manifest = cache / "artifact.json"
    # Builds side by side (the test suite's, a contributor's serve beside a build) that miss the
    # same record make it once: the first holds the lock while Node runs (seconds of CPU), the
    # others wait and then read its record.
    with exclusive_lock(cache / ".lock"):
        if manifest.is_file():
            name = json.loads(manifest.read_text(encoding="utf-8"))["name"]
            if (cache / name).is_file():
                return Artifact(name=name, data=(cache / name).read_bytes())
        artifact = make()
        _store(cache, artifact)
    _prune(cache_root, keep=KEPT_ARTIFACTS)
    return artifact


def _store(cache: Path, artifact: Artifact) -> None:
    """Write the file, then its manifest, each atomically (builds may run side by side)."""
    write_atomic(cache / artifact.name, artifact.data)
    write_atomic(cache / "artifact.json", json.dumps({"name": artifact.name}).encode())


def _prune(cache_root: Path, *, keep: int) -> None:
    """Delete all but the ``keep`` most recently written folders under ``cache_root``."""
    folders = sorted(
        (path for path in cache_root.iterdir() if path.is_dir()), key=lambda path: path.stat().st_mtime, reverse=True
    )
    for folder in folders[keep:]:
        shutil.rmtree(folder, ignore_errors=True)
