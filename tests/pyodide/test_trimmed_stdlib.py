"""The build's trimmed standard library (roofline_site.pyodide_stdlib): bytecode only, a fraction
of the stock zip. That it holds every module the calculators need is shown by the boots in
test_snapshot_boot.py and by the browser tests, which all run with it. That the same inputs give
the same bytes is the reproducible-build gate's check (tests/gates/test_reproducible.py): its
second build makes the library from scratch in a copy of the project at another path, with another
hash seed, time zone and clock, and compares it byte for byte with the shared build's; a third make
here would only repeat that."""

from __future__ import annotations

import io
import zipfile

import pytest

from roofline_site.pyodide_bundle import core_zip_bytes, hashed_name, pyodide_package_dir
from roofline_site.pyodide_stdlib import STOCK_NAME, build_stdlib
from tests.pyodide.test_pyodide_parity import PROJECT_ROOT, _node_or_skip

pytestmark = pytest.mark.pyodide


@pytest.fixture(scope="module")
def trimmed():
    _node_or_skip()
    data = core_zip_bytes()
    return build_stdlib(PROJECT_ROOT, core_zip_name=hashed_name(data), core_zip_bytes=data)


def test_it_holds_compiled_modules_only_and_what_roofline_core_imports(trimmed):
    names = zipfile.ZipFile(io.BytesIO(trimmed.data)).namelist()
    assert names == sorted(names)
    assert all(name.endswith(".pyc") for name in names)
    for module in ("dataclasses.pyc", "json/__init__.pyc", "difflib.pyc", "urllib/parse.pyc", "_pyodide/__init__.pyc"):
        assert module in names


def test_it_is_much_smaller_than_the_stock_library(trimmed):
    stock = (pyodide_package_dir(PROJECT_ROOT) / STOCK_NAME).stat().st_size
    assert len(trimmed.data) < 0.6 * stock
