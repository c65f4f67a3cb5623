"""roofline_site.pyodide_bundle: the zip the browser unpacks holds every module of roofline_core."""

from __future__ import annotations

import io
import zipfile

from roofline_site.pyodide_bundle import core_zip_bytes, package_dir


def test_the_core_zip_holds_every_module_including_the_engine_log_reader() -> None:
    names = set(zipfile.ZipFile(io.BytesIO(core_zip_bytes())).namelist())
    # The start-up log reader runs in the reader's browser, like the calculators that will use it.
    assert "roofline_core/engine_log.py" in names
    expected = {f"roofline_core/{p.relative_to(package_dir()).as_posix()}" for p in package_dir().rglob("*.py")}
    assert names == expected
