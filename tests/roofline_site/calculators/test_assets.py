"""The self-hosted Pyodide runtime and the packed roofline_core, as the site will hold them."""

from __future__ import annotations

import io
import zipfile

from roofline_site import node_artifacts, pyodide_bundle
from roofline_site.calculators.assets import pyodide_site_assets
from roofline_site.pyodide_bundle import PYODIDE_RUNTIME_FILES
from roofline_site.pyodide_stdlib import STOCK_NAME
from tests.support.site_build import PROJECT_ROOT


def test_runtime_files_under_a_versioned_folder_and_a_hashed_core_zip():
    assets = pyodide_site_assets(PROJECT_ROOT)
    assert assets.runtime_dir == f"assets/pyodide/{assets.version}/"
    # The trimmed standard library replaces the stock one.
    shipped = sorted(assets.runtime_dir + name for name in PYODIDE_RUNTIME_FILES if name != STOCK_NAME)
    assert sorted(assets.runtime_files) == shipped
    assert assets.stdlib_zip.startswith(assets.runtime_dir + "python_stdlib.") and not assets.stdlib_note
    assert all(path.is_file() for path in assets.runtime_files.values())
    assert assets.core_zip.startswith("assets/pyodide/roofline_core.") and assets.core_zip.endswith(".zip")
    names = zipfile.ZipFile(io.BytesIO(assets.core_zip_bytes)).namelist()
    assert "roofline_core/calculators/__init__.py" in names
    # Same bytes, same name: a rebuild without code changes keeps the URL cacheable.
    assert pyodide_site_assets(PROJECT_ROOT).core_zip == assets.core_zip


def test_without_node_the_stock_standard_library_is_served(monkeypatch, tmp_path):
    monkeypatch.setattr(node_artifacts.shutil, "which", lambda name: None)
    project = tmp_path / "project"
    project.mkdir()
    (project / "node_modules").symlink_to(PROJECT_ROOT / "node_modules")
    assets = pyodide_site_assets(project)
    assert assets.stdlib_zip == assets.runtime_dir + STOCK_NAME
    assert assets.runtime_files[assets.stdlib_zip].read_bytes() == assets.stdlib_zip_bytes
    assert "node is not installed" in assets.stdlib_note


def test_the_packed_core_is_kept_by_its_sources_and_read_back(tmp_path, monkeypatch):
    cache = tmp_path / "core"
    fresh = pyodide_bundle.core_zip_bytes()
    assert pyodide_bundle.core_zip_bytes(cache) == fresh
    (kept,) = cache.iterdir()

    def no_packing():
        raise AssertionError("packed again")

    monkeypatch.setattr(pyodide_bundle, "_pack_core", no_packing)
    assert pyodide_bundle.core_zip_bytes(cache) == fresh  # read back, not packed
    # Other sources: another key, packed afresh.
    monkeypatch.undo()
    monkeypatch.setattr(pyodide_bundle, "package_digest", lambda: "other sources")
    assert pyodide_bundle.core_zip_bytes(cache) == fresh
    assert len(list(cache.iterdir())) == 2 and kept.exists()
