"""Build the real site (or a fixture project) with ``mkdocs build --strict`` into a folder."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parents[2]


def mkdocs_build(
    config_file: Path,
    site_dir: Path,
    *,
    strict: bool = True,
    cwd: Path | None = None,
    env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess:
    """Run ``mkdocs build`` in a subprocess, as a contributor would, and return the result.

    The caller asserts on ``returncode``, ``stdout`` and ``stderr``. ``env`` adds to (or
    overrides) the environment, e.g. ``{"SITE_URL": ...}``.
    """
    args = [sys.executable, "-m", "mkdocs", "build", "--config-file", str(config_file), "--site-dir", str(site_dir)]
    if strict:
        args.append("--strict")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", **(env or {})}
    return subprocess.run(args, cwd=cwd or config_file.parent, env=env, capture_output=True, text=True, timeout=600)
