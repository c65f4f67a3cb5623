"""Write a build cache's file so that a reader never sees half of it, and make it only once.

Builds may run side by side (the tests, ``mkdocs serve`` and a benchmark), so each cache file is
written beside its final name and renamed into place, which POSIX makes atomic; a record that
costs seconds to make is made under :func:`exclusive_lock`, so the others wait and read it.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None


def write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically, creating its folder if needed."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


@contextlib.contextmanager
def exclusive_lock(lock_path: Path) -> Iterator[None]:
    """Hold an exclusive lock on ``lock_path`` while the block runs (where the platform has
    ``fcntl``; elsewhere side-by-side callers each run it, and atomic writes keep files whole)."""
    lock_path.parent.mkdir(parents=True, exist_ok=True)
    with open(lock_path, "a") as lock:
        if fcntl is not None:
            fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        yield
