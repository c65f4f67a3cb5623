"""The service worker's manifest (roofline_site/offline_manifest.py)."""

from __future__ import annotations

import base64
import hashlib
import json

import pytest

from roofline_site.offline_manifest import SLOT, integrity, offline_manifest, service_worker_text


def _site(tmp_path):
    files = {
        "index.html": b"<p>home",
        "glossary/roofline/index.html": b"<p>term",
        "404.html": b"<p>lost",
        "assets/javascripts/bundle.0123abcd.min.js": b"theme();",
        "assets/pyodide/1.0/pyodide.asm.wasm": b"\0asm",
        "assets/pyodide/1.0/roofline_core.aa.bb.snapshot-3.gz": b"snap",
        "assets/roofline/calculators/loader.mjs": b"load();",
        "sw.js": b"worker",
        "_headers": b"/*",
        "index.html.gz": b"gz",
    }
    for name, data in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_bytes(data)
    return tmp_path


def test_hashed_files_carry_their_digest_and_the_others_are_listed_without(tmp_path):
    manifest = offline_manifest(_site(tmp_path))
    digest = "sha256-" + base64.b64encode(hashlib.sha256(b"theme();").digest()).decode()
    assert manifest["files"] == {
        "": None,
        "404.html": None,
        "glossary/roofline/": None,
        "assets/javascripts/bundle.0123abcd.min.js": digest,
        "assets/pyodide/1.0/pyodide.asm.wasm": integrity(b"\0asm"),
        "assets/roofline/calculators/loader.mjs": None,
    }


def test_the_version_follows_every_file(tmp_path):
    site = _site(tmp_path)
    before = offline_manifest(site)["version"]
    (site / "glossary/roofline/index.html").write_bytes(b"<p>term")  # same bytes: same version
    assert offline_manifest(site)["version"] == before
    (site / "assets/pyodide/1.0/pyodide.asm.wasm").write_bytes(b"\0asm2")
    assert offline_manifest(site)["version"] != before
    (site / "new.html").write_bytes(b"x")
    assert "new.html" in offline_manifest(site)["files"]


def test_the_manifest_goes_into_its_slot_once(tmp_path):
    manifest = offline_manifest(_site(tmp_path))
    text = service_worker_text(f"const MANIFEST = {SLOT};\n", manifest)
    assert json.loads(text.removeprefix("const MANIFEST = ").rstrip(";\n")) == manifest
    with pytest.raises(ValueError, match="expected the manifest slot"):
        service_worker_text("const MANIFEST = null;", manifest)
    with pytest.raises(ValueError, match="found it 2 times"):
        service_worker_text(SLOT + SLOT, manifest)


def test_the_shipped_worker_has_the_slot():
    from pathlib import Path

    source = (Path(__file__).resolve().parents[2] / "site_assets" / "offline" / "sw.js").read_text(encoding="utf-8")
    assert source.count(SLOT) == 1
