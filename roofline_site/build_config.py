"""The build's configuration digest, which every cache under ``.cache/`` mixes into its keys.

A cache keys each record on the inputs it knows about; what no key names is the build's
configuration: ``mkdocs.yml`` (and the environment variables it reads with ``!ENV``), the hooks
and the theme overrides. Any of them can change what a cached record should hold, and a pull
request can change any of them, so a change to any one misses every cache:
:func:`roofline_site.node_artifacts.input_key`, the one function that turns inputs into a
cache key, mixes :func:`config_digest` into every key.

The digest is worked out once per build (``hooks/build_config.py`` calls :func:`start_build`
first, so ``mkdocs serve`` sees each edit) and, outside a build (tests, the command line), once
per process from the project's own ``mkdocs.yml``.

The caches' records must come from this machine's own builds, never from a commit: the build
refuses to start while git tracks anything under ``.cache`` in any letter case
(:func:`tracked_cache_paths`; ``.Cache/`` is the same folder on a case-insensitive checkout).
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent
#: Folders every build reads besides its ``mkdocs.yml`` (fixture sites use these too).
CONFIG_DIRS = ("hooks", "site_assets/overrides")
# `!ENV NAME`, `!ENV [NAME, default]` or `!ENV [NAME, OTHER, default]`: every name it may read.
_ENV_TAG = re.compile(rb"!ENV\s*\[?([^\]\n]*)")
# An unquoted item of that list is a variable's name; a quoted one is the default.
_ENV_NAME = re.compile(rb"(?:^|,)\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?=,|$)")

_current: str | None = None
_repository: str | None = None


def config_digest_of(config_file: Path, *, environment: bool = True) -> str:
    """Hex SHA-256 of ``config_file``, the variables it reads (unless ``environment`` is false)
    and every file of :data:`CONFIG_DIRS`."""
    digest = hashlib.sha256()

    def add(part: bytes) -> None:
        digest.update(hashlib.sha256(part).digest())

    try:
        config = config_file.read_bytes()
    except OSError:
        config = b""
    add(config)
    for tag in _ENV_TAG.findall(config) if environment else ():
        for name in _ENV_NAME.findall(tag):
            value = os.environ.get(name.decode("ascii"))
            add(name + b"=" + (b"\0unset" if value is None else value.encode("utf-8", "surrogatepass")))
    for folder in CONFIG_DIRS:
        for path in sorted((PROJECT_ROOT / folder).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                add(path.relative_to(PROJECT_ROOT).as_posix().encode("utf-8", "surrogatepass"))
                add(path.read_bytes())
    return digest.hexdigest()


def start_build(config_file: Path) -> str:
    """Work out the digest for a build of ``config_file``; :func:`config_digest` gives it until the next."""
    global _current, _repository
    _current = config_digest_of(config_file)
    _repository = config_digest_of(PROJECT_ROOT / "mkdocs.yml", environment=False)
    return _current


def config_digest() -> str:
    """The current build's configuration digest (the project's own outside a build)."""
    if _current is None:
        return start_build(PROJECT_ROOT / "mkdocs.yml")
    return _current


def repository_config_digest() -> str:
    """The digest of this checkout's own build configuration as files (its ``mkdocs.yml``, hooks
    and overrides), whatever site is being built: for the caches in the repository's ``.cache``
    that every build with this code shares (the packed core, the Pyodide library and snapshot,
    the CSP record, the link cards), whose records depend on no site's settings. A fixture
    site in a test, or another ``SITE_URL``, then reuses them; an edit to a hook still misses."""
    if _repository is None:
        start_build(PROJECT_ROOT / "mkdocs.yml")
    assert _repository is not None
    return _repository


def tracked_cache_paths(root: Path) -> list[str]:
    """The files git tracks under ``root``'s ``.cache``, in any letter case (``.Cache/``, ``.CACHE/``).

    Empty when ``root`` is not in a git checkout or git is not installed (nothing to refuse).
    """
    git = shutil.which("git")
    if git is None:
        return []
    listed = subprocess.run([git, "ls-files", "-z", "--", ":(icase).cache"], cwd=root, capture_output=True, check=False)
    if listed.returncode != 0:
        return []
    paths = listed.stdout.decode("utf-8", "surrogateescape").split("\0")
    # The pathspec already ignores case; the first component is checked here as well.
    return [path for path in paths if path and path.split("/", 1)[0].casefold() == ".cache"]
