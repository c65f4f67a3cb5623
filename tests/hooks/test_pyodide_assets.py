"""hooks/pyodide_assets.py: the built site holds the pinned Pyodide runtime and packed roofline_core."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from roofline_site.calculators.assets import pyodide_site_assets
from roofline_site.pyodide_snapshot import build_snapshot
from tests.hooks.site_fixture import make_site
from tests.support.site_build import PROJECT_ROOT


@pytest.mark.slow
def test_runtime_and_core_zip_in_the_built_site(built_site):
    assets = pyodide_site_assets(PROJECT_ROOT)
    for site_path, source in assets.runtime_files.items():
        assert (built_site / site_path).read_bytes() == source.read_bytes(), site_path
    assert (built_site / assets.core_zip).read_bytes() == assets.core_zip_bytes
    # The trimmed standard library, not the stock one.
    assert not assets.stdlib_note, assets.stdlib_note
    assert (built_site / assets.stdlib_zip).read_bytes() == assets.stdlib_zip_bytes
    # The memory snapshot the worker boots from, made for this Pyodide, roofline_core and library.
    snapshot = build_snapshot(
        PROJECT_ROOT,
        core_zip_name=Path(assets.core_zip).name,
        core_zip_bytes=assets.core_zip_bytes,
        stdlib_name=Path(assets.stdlib_zip).name,
        stdlib_bytes=assets.stdlib_zip_bytes,
    )
    assert (built_site / assets.runtime_dir / snapshot.name).read_bytes() == snapshot.data
    # Only the runtime files, the library and the snapshot: no stock library, type definitions
    # or source maps from the npm package.
    shipped = sorted(p.name for p in (built_site / assets.runtime_dir).iterdir())
    expected = [*(path.name for path in assets.runtime_files.values()), Path(assets.stdlib_zip).name, snapshot.name]
    assert shipped == sorted(expected)
    assert "python_stdlib.zip" not in shipped


COUNT_PACKING = """\
import sys
from mkdocs.commands.build import build
from mkdocs.config import load_config
import roofline_site.calculators.assets as assets

packed = []
original = assets.core_zip_bytes

def counted(*args, **kwargs):
    packed.append(1)
    return original(*args, **kwargs)

assets.core_zip_bytes = counted
build(load_config(config_file=sys.argv[1], site_dir=sys.argv[2], strict=True))
print(len(packed))
"""


@pytest.mark.slow
def test_roofline_core_is_packed_once_per_build(tmp_path):
    # Two pages with calculators, plus the embed pages: still one packing for the whole build.
    page = "# Page\n\n```calculator\nid: kv-cache\n```\n"
    config = make_site(tmp_path / "project", {"index.md": page, "other.md": page})
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    result = subprocess.run(
        [sys.executable, "-c", COUNT_PACKING, str(config), str(tmp_path / "site")],
        capture_output=True,
        text=True,
        env=env,
        cwd=config.parent,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == "1"
    manifest = (tmp_path / "site" / "assets" / "roofline" / "calculators" / "runtime.mjs").read_text(encoding="utf-8")
    zip_name = pyodide_site_assets(PROJECT_ROOT).core_zip
    assert f'"coreZip": "../../{zip_name.removeprefix("assets/")}"' in manifest
