"""The data version: a stamp of every formula and preset, for citing a number.

It is the first 12 hex digits of a SHA-256 over this package's source files (path and bytes, in
path order), so it changes whenever any formula, preset or source quotation changes, and is the
same wherever the same code runs: the build, the reader's browser (Pyodide unpacks the same
files), or a notebook with the package installed. The site shows it in every page's footer and
in ``glossary.json``; "Copy as Python" and "Cite" carry it, and the copied Python checks it
(:func:`check_data_version`), so a reader whose installed package is older or newer than the
page learns it in one line rather than from numbers that differ.

>>> len(data_version()) == 12 and int(data_version(), 16) >= 0
True
"""

from __future__ import annotations

import hashlib
import sys
from functools import cache
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent


def source_digest(package_dir: Path) -> str:
    """Hex SHA-256 of the ``.py`` files under ``package_dir``: each relative path, then its bytes."""
    digest = hashlib.sha256()
    for path in sorted(package_dir.rglob("*.py")):
        digest.update(path.relative_to(package_dir).as_posix().encode())
        digest.update(b"\0")
        digest.update(path.read_bytes())
    return digest.hexdigest()


@cache
def package_digest() -> str:
    """:func:`source_digest` of this package, worked out once per process (the build's caches
    key on it too)."""
    return source_digest(PACKAGE_DIR)


def data_version() -> str:
    """This package's data version (12 hex digits)."""
    return package_digest()[:12]


def check_data_version(expected: str) -> bool:
    """Whether this package's data version is ``expected``; if not, one warning line on stderr.

    The site's copied snippets call it first with the data version of the page they were copied
    from, so a reader running them with another release of the package knows why a number may
    differ from the page. It warns rather than stops: most numbers survive most changes. The
    line goes to stderr so that what the snippet prints stays exactly the page's text.

    >>> check_data_version(data_version())
    True
    """
    installed = data_version()
    if installed == expected:
        return True
    print(
        f"roofline_core: warning: this code was copied at data version {expected}, but the installed "
        f"roofline_core is data version {installed}; its numbers may differ from the page "
        "(reinstall from the page's pip line to match)",
        file=sys.stderr,
    )
    return False
