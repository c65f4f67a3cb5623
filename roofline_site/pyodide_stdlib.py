"""Make, at build time, the trimmed and precompiled standard library the calculators boot with.

Pyodide's ``python_stdlib.zip`` is the whole library as source: about 2.5 MB to download and
seconds of compiling at every boot. ``make_pyodide_stdlib.mjs`` (Node, pinned npm Pyodide)
records which library modules the calculators' worker loads, doing everything the worker does
and every branch that imports lazily, and packs just those as bytecode (about half the bytes;
``loadPyodide``'s public ``stdLibURL`` option then points at it). The result is cached in
``.cache/pyodide-stdlib/`` under a key of its inputs.

It is served as ``python_stdlib.<hash>.zip`` beside the runtime files; the memory snapshot is
made with the same bytes (zipimport's directory of the zip lives inside the snapshot).
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from roofline_site.node_artifacts import Artifact, cached_artifact, input_key, run_node
from roofline_site.pyodide_bundle import hashed_name, pyodide_package_dir

HERE = Path(__file__).resolve().parent
MAKER = HERE / "make_pyodide_stdlib.mjs"
CACHE_DIR_NAME = ".cache/pyodide-stdlib"
# Recording boots Python in Node and computes every calculator many times (about 6 CPU-s here).
# The bound only catches a hang: on a busy 2-core machine (a test run beside the build) a make
# took more than 180 s of wall time.
MAKE_TIMEOUT_S = 900
STOCK_NAME = "python_stdlib.zip"
#: The trimmed library is served as ``python_stdlib.<first 12 hex of its sha256>.zip``.
STEM = "python_stdlib"


def cache_key(project_root: Path, core_zip_bytes: bytes) -> str:
    """Hex digest of what the trimmed library is made from: Pyodide, roofline_core, the maker and
    this module (how the maker is run and its output named)."""
    package = pyodide_package_dir(project_root)
    return input_key(
        [
            (package / "package.json").read_bytes(),
            (package / STOCK_NAME).read_bytes(),
            core_zip_bytes,
            MAKER.read_bytes(),
            Path(__file__).read_bytes(),
        ],
        shared=True,
    )


def build_stdlib(project_root: Path, *, core_zip_name: str, core_zip_bytes: bytes) -> Artifact:
    """The trimmed library for this Pyodide and this packed roofline_core, cached or made now.

    Raises:
        roofline_site.node_artifacts.NodeArtifactError: when Node is missing or the maker fails.
    """
    return cached_artifact(
        project_root / CACHE_DIR_NAME,
        cache_key(project_root, core_zip_bytes),
        lambda: make_stdlib(project_root, core_zip_name=core_zip_name, core_zip_bytes=core_zip_bytes),
    )


def make_stdlib(project_root: Path, *, core_zip_name: str, core_zip_bytes: bytes) -> Artifact:
    """Run the maker in Node (no cache).

    Raises:
        roofline_site.node_artifacts.NodeArtifactError: when Node is missing or the maker fails.
    """
    package = pyodide_package_dir(project_root)
    with tempfile.TemporaryDirectory(prefix="pyodide-stdlib-") as tmp:
        zip_path = Path(tmp) / core_zip_name
        zip_path.write_bytes(core_zip_bytes)
        out = Path(tmp) / "stdlib.zip"
        run_node(MAKER, [str(package), str(zip_path), str(out)], timeout_s=MAKE_TIMEOUT_S)
        data = out.read_bytes()
    return Artifact(name=hashed_name(data, stem=STEM), data=data)
