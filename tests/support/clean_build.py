"""A clean build of the project from a fresh copy of its files, in a different environment.

Used by the reproducible-build gate: the copy holds the files git tracks (plus untracked,
non-ignored ones, so that it matches the working tree being tested), lives at another absolute
path, has no caches (``.cache/`` is ignored, so a figures cache is not copied), and is built
with another hash seed, time zone and a clock shifted by days.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from tests.support.site_build import PROJECT_ROOT

CLOCK_SHIFT_DIR = Path(__file__).resolve().parent / "clock_shift"
THREE_DAYS_S = 3 * 24 * 3600 + 7 * 3600


def copy_checkout(dest: Path, project_root: Path = PROJECT_ROOT) -> Path:
    """Copy the project's files (tracked and untracked-but-not-ignored) into ``dest``.

    ``node_modules`` (installed, ignored) and ``.git`` (the build dates itself by the commit)
    are linked, not copied.
    """
    listed = (
        subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            cwd=project_root,
            capture_output=True,
            check=True,
        )
        .stdout.decode("utf-8")
        .split("\0")
    )
    for name in filter(None, listed):
        source = project_root / name
        if source.is_file():  # a file deleted in the working tree is still listed by --cached
            target = dest / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    for name in ("node_modules", ".git"):
        os.symlink(project_root / name, dest / name)
    return dest


def build_elsewhere(project: Path, site_dir: Path) -> subprocess.CompletedProcess:
    """``mkdocs build --strict`` of ``project`` with a different hash seed, time zone and clock."""
    env = {
        **os.environ,
        "NO_MKDOCS_2_WARNING": "1",
        "PYTHONHASHSEED": "12345",
        "TZ": "Pacific/Kiritimati",
        "ROOFLINE_CLOCK_SHIFT_S": str(THREE_DAYS_S),
        "PYTHONPATH": os.pathsep.join(filter(None, [str(CLOCK_SHIFT_DIR), os.environ.get("PYTHONPATH")])),
    }
    args = [
        sys.executable,
        "-m",
        "mkdocs",
        "build",
        "--strict",
        "--config-file",
        str(project / "mkdocs.yml"),
        "--site-dir",
        str(site_dir),
    ]
    return subprocess.run(args, cwd=project, env=env, capture_output=True, text=True, timeout=900)


def tree_bytes(root: Path) -> dict[str, bytes]:
    """Every file under ``root`` by POSIX relative path."""
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def first_difference(a: bytes, b: bytes, context: int = 60) -> str:
    """A short excerpt of both sides around the first differing byte."""
    index = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    start = max(0, index - context)
    return f"byte {index}: {a[start : index + context]!r} != {b[start : index + context]!r}"
