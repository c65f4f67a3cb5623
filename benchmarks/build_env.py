"""The environment the build benchmarks run ``mkdocs build`` in.

Python caches each module's bytecode after its first import (``__pycache__``); a shell that
sets ``PYTHONDONTWRITEBYTECODE`` (this machine's does) makes every build compile again whatever
had no cache yet. The installed packages (MkDocs, Material, Markdown) were compiled when pip
installed them, so only this project's own modules paid it: about 30 ms per build, which no
reader's or author's machine with Python's default pays. Both sides of every comparison run
with Python's default.
"""

from __future__ import annotations

import os


def build_environment() -> dict[str, str]:
    """This process's environment with Python's default bytecode caching and MkDocs' 2.0 notice off."""
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    env["NO_MKDOCS_2_WARNING"] = "1"
    return env
