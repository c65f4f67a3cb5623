"""roofline_site.wheel: the wheel of roofline_core follows the binary distribution format, holds
the files the browser runs, carries metadata an index accepts, and is the same bytes every time."""

from __future__ import annotations

import base64
import csv
import hashlib
import io
import re
import tomllib
import zipfile

import pytest

import roofline_core
from roofline_core.version import data_version
from roofline_site import wheel
from roofline_site.pyodide_bundle import core_files, package_dir
from tests.support.site_build import PROJECT_ROOT

# pip's own parsers (vendored in every pip): what pip and an index check a wheel with.
packaging_utils = pytest.importorskip("pip._vendor.packaging.utils")
packaging_metadata = pytest.importorskip("pip._vendor.packaging.metadata")


@pytest.fixture(scope="module")
def built() -> wheel.Wheel:
    return wheel.build_wheel(site_url="https://example.org/rg/", repository_url="https://example.org/repo")


def _archive(built: wheel.Wheel) -> zipfile.ZipFile:
    return zipfile.ZipFile(io.BytesIO(built.data))


def test_the_file_name_is_one_pip_accepts_and_says_pure_python(built):
    name, version, build, tags = packaging_utils.parse_wheel_filename(built.file_name)
    assert (name, str(version), build) == ("roofline-core", roofline_core.__version__, ())
    assert {str(tag) for tag in tags} == {"py3-none-any"}


def test_it_holds_the_files_the_browser_runs_and_py_typed(built):
    names = _archive(built).namelist()
    package = [n for n in names if n.startswith("roofline_core/")]
    root = package_dir()
    assert package == sorted(
        [f"roofline_core/{p.relative_to(root).as_posix()}" for p in core_files(root)] + ["roofline_core/py.typed"]
    )
    for path in core_files(root):
        assert _archive(built).read(f"roofline_core/{path.relative_to(root).as_posix()}") == path.read_bytes()
    # The .dist-info files come last, RECORD at the very end (the format's recommendation).
    info = f"roofline_core-{roofline_core.__version__}.dist-info/"
    assert names[len(package) :] == [info + n for n in ("METADATA", "WHEEL", "entry_points.txt", "RECORD")]


def test_record_lists_every_file_with_its_sha256_and_size(built):
    archive = _archive(built)
    names = archive.namelist()
    record_name = names[-1]
    rows = list(csv.reader(io.StringIO(archive.read(record_name).decode())))
    assert [row[0] for row in rows] == names
    assert rows[-1] == [record_name, "", ""]
    for name, digest, size in rows[:-1]:
        data = archive.read(name)
        expected = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        assert (digest, int(size)) == (f"sha256={expected}", len(data)), name


def test_wheel_file_declares_a_pure_python_wheel(built):
    text = _archive(built).read(f"roofline_core-{roofline_core.__version__}.dist-info/WHEEL").decode()
    assert text.splitlines() == [
        "Wheel-Version: 1.0",
        "Generator: roofline_site.wheel",
        "Root-Is-Purelib: true",
        "Tag: py3-none-any",
    ]


def test_metadata_is_valid_core_metadata_with_what_an_index_shows(built):
    raw = _archive(built).read(f"roofline_core-{roofline_core.__version__}.dist-info/METADATA")
    metadata = packaging_metadata.Metadata.from_email(raw, validate=True)
    project = tomllib.loads((PROJECT_ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert metadata.name == "roofline-core"
    assert str(metadata.version) == roofline_core.__version__ == project["version"]
    assert metadata.license_expression == project["license"] == "MIT"
    assert str(metadata.requires_python) == project["requires-python"]
    assert metadata.classifiers == project["classifiers"] and "Typing :: Typed" in metadata.classifiers
    assert metadata.project_urls == {
        "Homepage": "https://example.org/rg/",
        "Documentation": "https://example.org/rg/calculators/embedding/",
        "Source": "https://example.org/repo",
    }
    # The data version the wheel's code stamps itself with, for a reader of the index page.
    assert f"Data version: {data_version()} " in metadata.description
    assert metadata.description_content_type == "text/markdown; charset=UTF-8"


def test_without_addresses_the_metadata_names_none():
    raw = _archive(wheel.build_wheel()).read(f"roofline_core-{roofline_core.__version__}.dist-info/METADATA")
    assert packaging_metadata.Metadata.from_email(raw, validate=True).project_urls in (None, {})


def test_the_command_line_script_is_declared(built):
    text = _archive(built).read(f"roofline_core-{roofline_core.__version__}.dist-info/entry_points.txt").decode()
    assert text == "[console_scripts]\nroofline = roofline_core.cli:main\n"


def test_two_builds_are_byte_identical_and_named_by_content(built):
    again = wheel.build_wheel(site_url="https://example.org/rg/", repository_url="https://example.org/repo")
    assert again.data == built.data
    immutable, stable = wheel.site_paths(built)
    assert immutable == f"wheels/{hashlib.sha256(built.data).hexdigest()[:16]}/{built.file_name}"
    assert stable == f"wheels/{built.file_name}"
    # Every entry is dated 1980-01-01 and made "on Unix", whatever machine builds it.
    for info in _archive(built).infolist():
        assert info.date_time == (1980, 1, 1, 0, 0, 0) and info.create_system == 3


def test_the_install_line_names_the_stable_address_or_says_it_is_relative():
    assert wheel.install_comment("https://example.org/rg/") == (
        f"# pip install --force-reinstall https://example.org/rg/wheels/{wheel.file_name()}"
    )
    relative = wheel.install_comment(None)
    assert relative.startswith(f"# pip install --force-reinstall <site>/wheels/{wheel.file_name()} ")
    assert "built without SITE_URL" in relative


def test_the_command_writes_the_same_wheel(tmp_path, capsys):
    assert wheel.main([str(tmp_path), "--site-url", "https://example.org/rg/"]) == 0
    (path,) = tmp_path.iterdir()
    assert capsys.readouterr().out.strip() == str(path)
    assert path.read_bytes() == wheel.build_wheel(site_url="https://example.org/rg/").data
    assert re.fullmatch(r"roofline_core-[0-9.]+-py3-none-any\.whl", path.name)
