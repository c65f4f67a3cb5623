"""Pack ``roofline_core`` for Pyodide: a deterministic zip with a content-hashed name.

Pyodide loads a pure-Python package without micropip by unpacking a zip into its file system
(``pyodide.unpackArchive(bytes, "zip")``), which is what its docs recommend for pure-Python
code. Fixed timestamps and sorted entries make the zip byte-identical across builds, so its
hash (and so its URL) changes only when the code does.
"""

from __future__ import annotations

import hashlib
import io
import zipfile
import zlib
from pathlib import Path

import roofline_core
from roofline_core.version import package_digest
from roofline_site.atomic_write import write_atomic
from roofline_site.node_artifacts import input_key

# 1980-01-01, the earliest time a zip entry can carry.
_FIXED_DATE_TIME = (1980, 1, 1, 0, 0, 0)


def package_dir() -> Path:
    """Folder of the installed ``roofline_core`` package."""
    return Path(roofline_core.__file__).resolve().parent


def core_zip_bytes(cache_dir: Path | None = None) -> bytes:
    """``roofline_core``'s ``.py`` files as a zip whose top-level folder is ``roofline_core/``.

    With ``cache_dir``, the zip is kept there under a key of the package's sources, this module
    and the zlib that compressed it, so a warm build reads it rather than compressing sixty
    files again (16 ms).
    """
    if cache_dir is None:
        return _pack_core()
    path = cache_dir / f"roofline_core.{core_zip_key()}.zip"
    try:
        return path.read_bytes()
    except OSError:
        data = _pack_core()
        write_atomic(path, data)
        return data


def core_zip_key() -> str:
    """Key of the packed zip: the package's sources, this module and the zlib that compresses."""
    return input_key(
        [package_digest().encode(), Path(__file__).read_bytes(), zlib.ZLIB_RUNTIME_VERSION.encode()], shared=True
    )[:24]


def core_files(root: Path | None = None) -> list[Path]:
    """The files of ``roofline_core`` that the browser runs: every ``.py`` under ``root`` (the
    package's folder), in path order. The wheel the site publishes packs the same list
    (:mod:`roofline_site.wheel`), so a notebook runs exactly what the calculators run."""
    return sorted((root or package_dir()).rglob("*.py"))


def _pack_core() -> bytes:
    root = package_dir()
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for path in core_files(root):
            info = zipfile.ZipInfo(str(Path("roofline_core") / path.relative_to(root)), _FIXED_DATE_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, path.read_bytes())
    return buffer.getvalue()


def hashed_name(data: bytes, stem: str = "roofline_core", suffix: str = ".zip") -> str:
    """``roofline_core.<first 12 hex of sha256>.zip``."""
    return f"{stem}.{hashlib.sha256(data).hexdigest()[:12]}{suffix}"


def write_core_zip(dest_dir: Path) -> Path:
    """Write the zip into ``dest_dir`` under its hashed name and return its path."""
    data = core_zip_bytes()
    dest_dir.mkdir(parents=True, exist_ok=True)
    path = dest_dir / hashed_name(data)
    path.write_bytes(data)
    return path


def pyodide_package_dir(project_root: Path) -> Path:
    """The pinned npm ``pyodide`` package (``node_modules/pyodide``).

    Raises:
        FileNotFoundError: saying to run ``scripts/setup`` when it is missing.
    """
    path = project_root / "node_modules" / "pyodide"
    if not (path / "pyodide.mjs").is_file():
        raise FileNotFoundError(f"{path}: the npm package 'pyodide' is not installed; run scripts/setup (npm ci)")
    return path


#: Files of the npm package the browser needs at run time (the rest are types and source maps).
PYODIDE_RUNTIME_FILES: tuple[str, ...] = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
