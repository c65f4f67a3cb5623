"""Publish ``roofline_core`` as a wheel: the browser's code, installable with ``pip install <URL>``.

The wheel holds exactly the files the Pyodide bundle packs (:func:`roofline_site.pyodide_bundle.
core_files`) plus ``py.typed``, so a notebook runs the code the calculators run, and
``roofline_core.version.data_version()`` gives the same stamp there as on the page. It is built
with the standard library alone, deterministically (fixed timestamps, sorted entries, the
``.dist-info`` files last), following the binary distribution format
(https://packaging.python.org/en/latest/specifications/binary-distribution-format/) and core
metadata 2.4 (https://packaging.python.org/en/latest/specifications/core-metadata/).

Where the site serves it (:func:`site_paths`): pip refuses a URL whose last part is not a valid
wheel file name (``{name}-{version}-{python}-{abi}-{platform}.whl``), so neither a content hash
in the name nor a short alias such as ``roofline_core.whl`` can work. The content hash is a
folder instead, ``wheels/<hash>/roofline_core-<version>-py3-none-any.whl`` (its bytes never
change: hosts may cache it for good), and the stable address is the same name one folder up,
``wheels/roofline_core-<version>-py3-none-any.whl``, which every build replaces. Copied snippets
name the stable one (:func:`install_comment`): an old page's hashed folder is gone once the site
is rebuilt, and the snippet's :func:`~roofline_core.version.check_data_version` says when the
installed code is not the page's.

Publishing it to an index is ``python -m roofline_site.wheel dist/`` and an upload of that file
(README, "Publishing roofline_core").
"""

from __future__ import annotations

import argparse
import base64
import csv
import hashlib
import io
import sys
import tomllib
import zipfile
from dataclasses import dataclass
from pathlib import Path

import roofline_core
from roofline_core.version import data_version
from roofline_site.pyodide_bundle import core_files, package_dir

PROJECT_ROOT = Path(__file__).resolve().parent.parent
#: The distribution's name as an index lists it; files and folders use its normalised form.
NAME = "roofline-core"
_FILE_NAME = "roofline_core"
#: The only tag: pure Python, standard library only, any Python 3 the metadata allows.
TAG = "py3-none-any"
#: The command of the install line (see :func:`install_comment` for the flag).
INSTALL_COMMAND = "pip install --force-reinstall"
#: Where the site serves the wheels (:func:`site_paths`).
SITE_DIR = "wheels"
# 1980-01-01, the earliest time a zip entry can carry.
_FIXED_DATE_TIME = (1980, 1, 1, 0, 0, 0)
#: Tells type checkers the package ships its annotations (PEP 561).
TYPED_MARKER = "py.typed"
#: What the index shows as the project's one-line summary.
SUMMARY = (
    "Roofline math, accelerator and model presets and LLM-inference estimates in pure Python "
    "(standard library only): the package behind every number on Roofline Glossary."
)
KEYWORDS = "roofline,llm,inference,performance,gpu,kv-cache"
#: README's section that the index shows as the package's description.
_README_SECTION = "## Using roofline_core from Python"


@dataclass(frozen=True)
class Wheel:
    """A built wheel: its file name (``roofline_core-0.1.0-py3-none-any.whl``) and bytes."""

    file_name: str
    data: bytes

    @property
    def digest(self) -> str:
        """First 16 hex digits of the wheel's SHA-256: the folder of its immutable address."""
        return hashlib.sha256(self.data).hexdigest()[:16]


def version() -> str:
    """The package's release (``roofline_core.__version__``; pyproject.toml states the same)."""
    return roofline_core.__version__


def file_name() -> str:
    """The wheel's file name, valid as PEP 427 and pip require."""
    return f"{_FILE_NAME}-{version()}-{TAG}.whl"


def site_paths(wheel: Wheel) -> tuple[str, str]:
    """``(immutable, stable)`` site paths: ``wheels/<hash>/<file>`` and ``wheels/<file>``."""
    return f"{SITE_DIR}/{wheel.digest}/{wheel.file_name}", stable_path()


def stable_path() -> str:
    """The site path every build replaces, which copied snippets name."""
    return f"{SITE_DIR}/{file_name()}"


def install_address(site_url: str | None) -> str:
    """Where ``pip install`` finds the wheel: under ``site_url`` when the build has one
    (``SITE_URL``), else the site-relative path (``/wheels/...``), which :func:`install_comment`
    says needs the site's address in front."""
    if site_url:
        return site_url.rstrip("/") + "/" + stable_path()
    return "/" + stable_path()


def install_comment(site_url: str | None) -> str:
    """The one line a copied snippet starts with: a Python comment holding the install command.

    ``--force-reinstall``: every build's wheel has the same version number, and pip keeps an
    installed release of that number rather than download a newer build of it (checked with pip
    23.2 and 26.3); the package has no dependencies, so forcing costs one small download.

    >>> install_comment("https://example.org/rg/")
    '# pip install --force-reinstall https://example.org/rg/wheels/roofline_core-0.1.0-py3-none-any.whl'
    >>> install_comment(None)
    '# pip install --force-reinstall <site>/wheels/roofline_core-0.1.0-py3-none-any.whl (<site>: the address you read this at; built without SITE_URL)'
    """
    if site_url:
        return f"# {INSTALL_COMMAND} {install_address(site_url)}"
    return (
        f"# {INSTALL_COMMAND} <site>{install_address(None)} "
        "(<site>: the address you read this at; built without SITE_URL)"
    )


@dataclass(frozen=True)
class Publication:
    """Where this build publishes the wheel: the addresses its metadata and snippets name.

    Attributes:
        site_url: The site's public address (``SITE_URL``), or None for a build without one.
        repository_url: The source repository's address (``REPOSITORY_URL``), or None.
    """

    site_url: str | None = None
    repository_url: str | None = None

    @property
    def install_comment(self) -> str:
        return install_comment(self.site_url)

    def build(self) -> Wheel:
        return build_wheel(site_url=self.site_url, repository_url=self.repository_url)


# The build in progress, set by hooks/wheel.py before any page is made.
_publication: Publication | None = None


def configure(publication: Publication) -> Publication:
    """Make ``publication`` the build's: the snippets made from now on name its address."""
    global _publication
    _publication = publication
    return publication


def current_publication() -> Publication:
    """The build's publication; without hooks/wheel.py (a test of one page's parts), that of a
    build without ``SITE_URL``, whose snippets name the site-relative path."""
    return _publication or Publication()


def current_install_comment() -> str:
    """The install line of the build in progress (:func:`current_publication`)."""
    return current_publication().install_comment


def build_wheel(*, site_url: str | None = None, repository_url: str | None = None, root: Path | None = None) -> Wheel:
    """Build the wheel of ``roofline_core`` (the package at ``root``, by default the imported one).

    Args:
        site_url: The site's address, named in the metadata as the project's home page.
        repository_url: The source repository's address, named there too.
    """
    root = root or package_dir()
    prefix = f"{_FILE_NAME}-{version()}.dist-info/"
    entries: list[tuple[str, bytes]] = [
        (f"{_FILE_NAME}/{path.relative_to(root).as_posix()}", path.read_bytes()) for path in core_files(root)
    ]
    entries.append((f"{_FILE_NAME}/{TYPED_MARKER}", b""))
    entries.sort()
    project = _pyproject()
    entries += [
        (prefix + "METADATA", metadata_text(project, site_url=site_url, repository_url=repository_url).encode()),
        (prefix + "WHEEL", _wheel_text().encode()),
        (prefix + "entry_points.txt", _entry_points_text(project).encode()),
    ]
    entries.append((prefix + "RECORD", _record_text(entries, prefix + "RECORD").encode()))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for name, data in entries:
            info = zipfile.ZipInfo(name, _FIXED_DATE_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            # A regular file, rw-r--r--, made "on Unix" whatever builds it: the same bytes everywhere.
            info.create_system = 3
            info.external_attr = 0o100644 << 16
            archive.writestr(info, data)
    return Wheel(file_name(), buffer.getvalue())


def metadata_text(project: dict, *, site_url: str | None, repository_url: str | None) -> str:
    """The ``METADATA`` file: core metadata 2.4, with the data version in its description."""
    headers = [
        ("Metadata-Version", "2.4"),
        ("Name", NAME),
        ("Version", version()),
        ("Summary", SUMMARY),
        ("Keywords", KEYWORDS),
        ("License-Expression", project["license"]),
        ("Requires-Python", project["requires-python"]),
    ]
    if site_url:
        headers.append(("Project-URL", f"Homepage, {site_url}"))
        headers.append(("Project-URL", f"Documentation, {site_url.rstrip('/')}/calculators/embedding/"))
    if repository_url:
        headers.append(("Project-URL", f"Source, {repository_url}"))
    headers += [("Classifier", classifier) for classifier in project.get("classifiers", [])]
    headers.append(("Description-Content-Type", "text/markdown; charset=UTF-8"))
    head = "".join(f"{name}: {value}\n" for name, value in headers)
    return f"{head}\n{description(site_url)}"


def description(site_url: str | None) -> str:
    """The index's description: what the package is, its data version, and README's tour of it."""
    where = f" ({site_url})" if site_url else ""
    return (
        "# roofline_core\n\n"
        f"The one source of truth for every number on Roofline Glossary{where}: roofline math, accelerator and "
        "model presets and LLM-inference estimates, in pure Python with the standard library only. The same "
        "files run in the site's calculators (in the browser, under Pyodide).\n\n"
        f"Data version: {data_version()} (`roofline_core.version.data_version()`), a stamp of every formula "
        "and preset in this build; the site's pages and copied snippets name the version they were made with.\n\n"
        + _readme_section()
    )


def _readme_section() -> str:
    text = (PROJECT_ROOT / "README.md").read_text(encoding="utf-8")
    start = text.index(_README_SECTION)
    end = text.find("\n## ", start + len(_README_SECTION))
    return text[start : end if end != -1 else len(text)].strip() + "\n"


def _pyproject() -> dict:
    with (PROJECT_ROOT / "pyproject.toml").open("rb") as file:
        return tomllib.load(file)["project"]


def _wheel_text() -> str:
    return f"Wheel-Version: 1.0\nGenerator: roofline_site.wheel\nRoot-Is-Purelib: true\nTag: {TAG}\n"


def _entry_points_text(project: dict) -> str:
    scripts = project.get("scripts", {})
    lines = [f"{name} = {target}" for name, target in sorted(scripts.items()) if target.startswith("roofline_core")]
    return "[console_scripts]\n" + "".join(line + "\n" for line in lines)


def _record_text(entries: list[tuple[str, bytes]], record_name: str) -> str:
    """``RECORD``: each file's path, ``sha256=`` urlsafe base64 digest without padding, and size."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    for name, data in entries:
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode("ascii")
        writer.writerow([name, f"sha256={digest}", len(data)])
    writer.writerow([record_name, "", ""])
    return out.getvalue()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m roofline_site.wheel",
        description="Write the wheel of roofline_core that the site publishes (the same bytes) into a folder.",
    )
    parser.add_argument("out_dir", type=Path, help="folder to write the wheel into (made if missing)")
    parser.add_argument("--site-url", help="the site's address, named as the project's home page")
    parser.add_argument("--repository-url", help="the source repository's address")
    args = parser.parse_args(argv)
    wheel = build_wheel(site_url=args.site_url, repository_url=args.repository_url)
    args.out_dir.mkdir(parents=True, exist_ok=True)
    path = args.out_dir / wheel.file_name
    path.write_bytes(wheel.data)
    print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
