"""The project's own glossary, loaded once per test process.

Several test modules read the shipped entries at import time; each loading them again (reading,
checking and rendering every entry) cost about 1.6 CPU-s of every pytest-xdist worker's
collection. Tests only read the result, so one load is shared.
"""

from __future__ import annotations

import functools

from roofline_site.glossary.validator import Glossary, load_glossary
from tests.support.site_build import PROJECT_ROOT


@functools.cache
def shipped_glossary() -> Glossary:
    """``load_glossary`` of the project's ``glossary/``, as the build reads it (read-only: shared)."""
    return load_glossary(PROJECT_ROOT / "glossary")
