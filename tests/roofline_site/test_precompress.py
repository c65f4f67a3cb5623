"""roofline_site.precompress: .gz and .br copies of a built site's text files, cached by content."""

from __future__ import annotations

import gzip
import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from roofline_site import build_config
from roofline_site import precompress as module
from roofline_site.precompress import precompress

TEXT = ("<p>roofline</p>\n" * 200).encode()


def _site(tmp_path):
    site = tmp_path / "site"
    (site / "assets").mkdir(parents=True)
    (site / "index.html").write_bytes(TEXT)
    (site / "assets" / "app.mjs").write_bytes(TEXT.replace(b"p>", b"b>"))
    (site / "tiny.css").write_bytes(b"a{}")
    (site / "picture.png").write_bytes(bytes(4096))
    return site


def _brotli_decompress(path) -> bytes:
    script = 'process.stdout.write(require("node:zlib").brotliDecompressSync(require("node:fs").readFileSync(process.argv[1])))'
    return subprocess.run(["node", "-e", script, str(path)], capture_output=True, check=True).stdout


def test_text_files_get_gzip_copies_with_the_same_bytes_inside_and_small_or_binary_files_none(tmp_path, monkeypatch):
    monkeypatch.setattr(module.shutil, "which", lambda name: None)
    site = _site(tmp_path)
    count, brotli = precompress(site, tmp_path / "cache")
    assert (count, brotli) == (2, False)
    assert gzip.decompress((site / "index.html.gz").read_bytes()) == TEXT
    assert (site / "assets" / "app.mjs.gz").is_file()
    assert not (site / "tiny.css.gz").exists() and not (site / "picture.png.gz").exists()
    # No time or name in the header: two builds give the same bytes.
    again = _site(tmp_path / "again")
    precompress(again, tmp_path / "cache-again")
    assert (again / "index.html.gz").read_bytes() == (site / "index.html.gz").read_bytes()


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_with_node_brotli_copies_too_and_a_rebuild_reads_them_from_the_cache(tmp_path, monkeypatch):
    site = _site(tmp_path)
    cache = tmp_path / "cache"
    assert precompress(site, cache) == (2, True)
    assert _brotli_decompress(site / "index.html.br") == TEXT
    # The next build has the same files: copies come from the cache, without Node.
    rebuilt = _site(tmp_path / "rebuilt")
    monkeypatch.setattr(module.shutil, "which", lambda name: None)
    assert precompress(rebuilt, cache) == (2, True)
    assert (rebuilt / "index.html.br").read_bytes() == (site / "index.html.br").read_bytes()


def test_cache_entries_another_build_may_use_are_kept_and_long_unused_ones_deleted(tmp_path, monkeypatch):
    # The folder is shared by every checkout and fixture site on the machine: an entry this build
    # does not use may be another's, so only entries unused for KEEP_UNUSED_S go.
    monkeypatch.setattr(module.shutil, "which", lambda name: None)
    cache = tmp_path / "cache"
    site = _site(tmp_path)
    precompress(site, cache)
    before = {entry.name for entry in cache.iterdir()}
    (site / "index.html").write_bytes(TEXT + b"<p>changed</p>\n")
    precompress(site, cache)
    after = {entry.name for entry in cache.iterdir()}
    assert len(before) == 2 and len(after) == 3 and before < after
    stale = time.time() - module.KEEP_UNUSED_S - 60
    for entry in cache.iterdir():
        os.utime(entry, (stale, stale))
    precompress(site, cache)
    assert {entry.name for entry in cache.iterdir()} == {
        module.copy_key(path) + ".gz" for path in module.compressible_files(site)
    }


def test_the_copies_live_in_the_users_cache_folder_unless_a_variable_names_another(tmp_path):
    home = Path.home()
    assert module.default_cache_dir({}) == home / ".cache" / "roofline-glossary" / "precompressed"
    xdg = {"XDG_CACHE_HOME": str(tmp_path / "xdg")}
    assert module.default_cache_dir(xdg) == tmp_path / "xdg" / "roofline-glossary" / "precompressed"
    named = {**xdg, "ROOFLINE_PRECOMPRESS_CACHE": str(tmp_path / "here")}
    assert module.default_cache_dir(named) == tmp_path / "here"


def test_a_copy_is_keyed_by_the_files_bytes_not_by_where_or_in_which_checkout_it_is(tmp_path, monkeypatch):
    # So a fresh clone, another branch or a fixture site finds the copies of the same bytes.
    one, other = tmp_path / "one" / "a.wasm", tmp_path / "other" / "assets" / "b.wasm"
    for path in (one, other):
        path.parent.mkdir(parents=True)
        path.write_bytes(TEXT)
    key = module.copy_key(one)
    monkeypatch.setattr(build_config, "_repository", "another checkout's hooks and mkdocs.yml")
    monkeypatch.setattr(build_config, "_current", "another site's configuration")
    assert module.copy_key(other) == key
