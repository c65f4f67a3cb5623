"""roofline_core.version: the data version changes with any formula or preset, and only then."""

from __future__ import annotations

import shutil

from roofline_core.version import PACKAGE_DIR, data_version, source_digest


def test_the_stamp_is_twelve_hex_digits_of_the_sources():
    assert data_version() == source_digest(PACKAGE_DIR)[:12]
    assert len(data_version()) == 12 and int(data_version(), 16) >= 0


def test_a_changed_preset_changes_it_and_a_copy_does_not(tmp_path):
    copy = tmp_path / "roofline_core"
    shutil.copytree(PACKAGE_DIR, copy, ignore=shutil.ignore_patterns("__pycache__"))
    assert source_digest(copy) == source_digest(PACKAGE_DIR)
    (presets,) = copy.rglob("accelerator_presets.py")  # wherever the layout puts it
    presets.write_text(presets.read_text(encoding="utf-8") + "\n# one more line\n", encoding="utf-8")
    assert source_digest(copy) != source_digest(PACKAGE_DIR)
