"""Whether this process is ``mkdocs serve``: a contributor's preview, never a build to publish.

MkDocs loads the hooks afresh for every rebuild under ``mkdocs serve`` but tells only the first
load which command runs (``on_startup``), so the answer is kept here, in a module loaded once
per process. ``hooks/serve_errors.py`` sets it; what differs under serve reads it (a scaffolded
entry previewed as a draft, hooks/glossary.py). ``mkdocs build`` never sets it.
"""

from __future__ import annotations

_serving = False


def start() -> None:
    """Mark this process as ``mkdocs serve`` (for the rest of its life)."""
    global _serving
    _serving = True


def serving() -> bool:
    """Whether this process is ``mkdocs serve``."""
    return _serving


def stop() -> None:
    """Forget it (a test that called :func:`start` in its own process)."""
    global _serving
    _serving = False
