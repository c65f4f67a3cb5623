"""hooks/pyodide_assets.py: the built site holds the pinned Pyodide runtime and packed roofline_core."""

from __future__ import annotations

import pytest

from roofline_site.calculators.assets import pyodide_site_assets
from tests.support.site_build import PROJECT_ROOT


@pytest.mark.slow
def test_runtime_and_core_zip_in_the_built_site(built_site):
    assets = pyodide_site_assets(PROJECT_ROOT)
    for site_path, source in assets.runtime_files.items():
        assert (built_site / site_path).read_bytes() == source.read_bytes(), site_path
    assert (built_site / assets.core_zip).read_bytes() == assets.core_zip_bytes
    # Only the runtime files: no type definitions or source maps from the npm package.
    shipped = sorted(p.name for p in (built_site / assets.runtime_dir).iterdir())
    assert shipped == sorted(path.name for path in assets.runtime_files.values())
