"""roofline_core.version: the data version changes with any formula or preset, and only then."""

from __future__ import annotations

import shutil

from roofline_core.version import PACKAGE_DIR, check_data_version, data_version, source_digest


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


def test_check_data_version_is_quiet_when_it_matches(capsys):
    assert check_data_version(data_version()) is True
    assert capsys.readouterr() == ("", "")


def test_check_data_version_warns_in_one_line_naming_both(capsys):
    assert check_data_version("0123456789ab") is False
    out, err = capsys.readouterr()
    # Nothing on stdout: what a snippet prints stays exactly the page's text.
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("roofline_core: warning: ")
    assert "0123456789ab" in err and data_version() in err
