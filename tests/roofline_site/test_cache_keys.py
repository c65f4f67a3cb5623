"""Every cache under ``.cache/`` misses when anything its output depends on changes.

Each cache below has a key function, the inputs a record depends on and, per input, a change to
it; the test changes one input at a time and expects a different key. The build's configuration
(``mkdocs.yml``, the hooks, the theme overrides) is one input of every cache but the precompressed
copies, which live in the user's cache folder and are keyed by their bytes alone.
"""

from __future__ import annotations

import sys
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from types import ModuleType
from typing import Any

import jinja2
import pytest

from roofline_site import (
    build_config,
    csp,
    link_cards,
    measurements_page,
    precompress,
    pyodide_bundle,
    pyodide_snapshot,
    pyodide_stdlib,
    render_cache,
    template_cache,
)
from roofline_site.calculators import render_cache as calculator_cache
from roofline_site.figures import cache as figure_cache
from roofline_site.glossary import check_cache, load_cache

Change = Callable[[dict[str, Any], pytest.MonkeyPatch, Path], None]


@dataclass
class Cache:
    """A cache's key as a function of named inputs, and one change per input."""

    key: Callable[[dict[str, Any], Path], str]
    inputs: dict[str, Any]
    changes: dict[str, Change] = field(default_factory=dict)


def _set(name: str, value: Any) -> Change:
    def change(inputs, monkeypatch, tmp_path):
        inputs[name] = value

    return change


def _edited_code(module: ModuleType) -> Change:
    """The module's source with one more line (keys read it through ``__file__``)."""

    def change(inputs, monkeypatch, tmp_path):
        copy = tmp_path / "edited" / Path(module.__file__).name
        copy.parent.mkdir(exist_ok=True)
        copy.write_bytes(Path(module.__file__).read_bytes() + b"\n# edited\n")
        monkeypatch.setattr(module, "__file__", str(copy))

    return change


def _patched(target: Any, name: str, value: Any) -> Change:
    def change(inputs, monkeypatch, tmp_path):
        monkeypatch.setattr(target, name, value)

    return change


def _package_version(package: str) -> Change:
    """Another installed version of ``package``, as the package metadata reports it."""
    real = metadata.version

    def change(inputs, monkeypatch, tmp_path):
        monkeypatch.setattr(metadata, "version", lambda name: "0.0-other" if name == package else real(name))

    return change


def _pyodide_package(root: Path) -> Path:
    """A stand-in for node_modules/pyodide holding the files the Node artifacts' keys read."""
    package = root / "node_modules" / "pyodide"
    package.mkdir(parents=True, exist_ok=True)
    for name in ("package.json", "pyodide.mjs", pyodide_stdlib.STOCK_NAME):
        if not (package / name).exists():
            (package / name).write_bytes(name.encode())
    return package


def _edited_pyodide_file(name: str) -> Change:
    def change(inputs, monkeypatch, tmp_path):
        path = _pyodide_package(tmp_path) / name
        path.write_bytes(path.read_bytes() + b" edited")

    return change


def _edited_file(module: ModuleType, attribute: str) -> Change:
    """A copy of the file ``module.<attribute>`` names, one byte longer, in its place."""

    def change(inputs, monkeypatch, tmp_path):
        original = Path(getattr(module, attribute))
        copy = tmp_path / "edited-file" / original.name
        copy.parent.mkdir(exist_ok=True)
        copy.write_bytes(original.read_bytes() + b"\n")
        monkeypatch.setattr(module, attribute, copy)

    return change


def _page_render_key(i: dict[str, Any], tmp_path: Path) -> str:
    build = render_cache.build_inputs_digest(
        extensions=i["extensions"],
        extension_configs=i["extension_configs"],
        file_urls=i["file_urls"],
        settings=i["settings"],
        code_digest=i["code_digest"],
    )
    return render_cache.page_key(i["markdown"], src_uri=i["src_uri"], url=i["url"], build_digest=build)


def _template_key(i: dict[str, Any], tmp_path: Path) -> str:
    env = jinja2.Environment(trim_blocks=i["trim_blocks"], extensions=i["extensions"])
    return template_cache.compile_settings_key(env)


def _precompress_key(i: dict[str, Any], tmp_path: Path) -> str:
    path = tmp_path / "site" / i["name"]
    path.parent.mkdir(exist_ok=True)
    path.write_bytes(i["data"])
    return precompress.copy_key(path)


def _stdlib_key(i: dict[str, Any], tmp_path: Path) -> str:
    _pyodide_package(tmp_path)
    return pyodide_stdlib.cache_key(tmp_path, i["core"])


def _snapshot_key(i: dict[str, Any], tmp_path: Path) -> str:
    _pyodide_package(tmp_path)
    return pyodide_snapshot.cache_key(tmp_path, i["core"], i["stdlib"])


def _clear_cached_digests() -> None:
    csp._parser_digest.cache_clear()
    link_cards.drawing_digest.cache_clear()


CACHES: dict[str, Cache] = {
    "glossary-checks": Cache(
        key=lambda i, _: check_cache.CheckCache.key(i["text"], slug=i["slug"], path=i["path"]),
        inputs={"text": "---\ntitle: A\n---\nBody.\n", "slug": "a", "path": "glossary/a.md"},
        changes={
            "text": _set("text", "---\ntitle: A\n---\nBody!\n"),
            "slug": _set("slug", "b"),
            "path": _set("path", "elsewhere/a.md"),
            "checking code": _patched(check_cache, "checking_code_digest", lambda: "other code"),
        },
    ),
    "glossary-load": Cache(
        key=lambda i, _: load_cache.glossary_key([(i["name"], i["data"])], display_dir=i["display_dir"]),
        inputs={"name": "a.md", "data": b"entry", "display_dir": "glossary"},
        changes={
            "file name": _set("name", "b.md"),
            "file bytes": _set("data", b"entry!"),
            "display_dir": _set("display_dir", "terms"),
            "checking code": _patched(load_cache, "checking_code_digest", lambda: "other code"),
        },
    ),
    "page-render": Cache(
        key=_page_render_key,
        inputs={
            "markdown": "# Title\n",
            "src_uri": "index.md",
            "url": "",
            "extensions": ["toc"],
            "extension_configs": {"toc": {"permalink": True}},
            "file_urls": [("index.md", "")],
            "settings": {"use_directory_urls": True},
            "code_digest": "code",
        },
        changes={
            "markdown": _set("markdown", "# Other\n"),
            "src_uri": _set("src_uri", "other.md"),
            "url": _set("url", "other/"),
            "extensions": _set("extensions", ["toc", "tables"]),
            "extension_configs": _set("extension_configs", {"toc": {"permalink": False}}),
            "file_urls": _set("file_urls", [("index.md", ""), ("b.md", "b/")]),
            "settings": _set("settings", {"use_directory_urls": False}),
            "code_digest": _set("code_digest", "other code"),
            "render_cache code": _edited_code(render_cache),
            "markdown version": _package_version("markdown"),
        },
    ),
    "jinja-bytecode": Cache(
        key=_template_key,
        inputs={"trim_blocks": False, "extensions": []},
        changes={
            "compile option": _set("trim_blocks", True),
            "extensions": _set("extensions", ["jinja2.ext.loopcontrols"]),
            "jinja2 version": _package_version("jinja2"),
        },
    ),
    "figures": Cache(
        key=lambda i, tmp: figure_cache.FigureCache(tmp).key({"kind": i["kind"], "panels": i["panels"], "alt": "x"}),
        inputs={"kind": "roofline", "panels": [{"x": 1}]},
        changes={
            "kind": _set("kind", "intensity"),
            "panels": _set("panels", [{"x": 2}]),
            "drawing code": _patched(figure_cache, "drawing_code_digest", lambda: "other code"),
            "matplotlib version": _patched(figure_cache, "matplotlib_version", lambda: "0.0-other"),
        },
    ),
    "calculators": Cache(
        key=lambda i, _: calculator_cache.RenderCache.key(**i),
        inputs={"body": "id: kv-cache", "dom_id": "calculator-kv-cache", "urls": {"core": "a.zip"}, "page_path": "a/"},
        changes={
            "body": _set("body", "id: prefill-ttft"),
            "dom_id": _set("dom_id", "calculator-kv-cache-2"),
            "urls": _set("urls", {"core": "b.zip"}),
            "page_path": _set("page_path", "b/"),
            "rendering code": _patched(calculator_cache, "rendering_code_digest", lambda: "other code"),
        },
    ),
    "link-cards": Cache(
        key=lambda i, _: link_cards.card_key(i["title"], i["summary"], i["kind"], site_name=i["site_name"]),
        inputs={"title": "KV cache", "summary": "Keys and values.", "kind": "Glossary term", "site_name": "Site"},
        changes={
            "title": _set("title", "KV cache!"),
            "summary": _set("summary", "Keys and values!"),
            "kind": _set("kind", "Calculator"),
            "site_name": _set("site_name", "Another site"),
            "drawing code (layout, fonts, colours)": _edited_code(link_cards),
            "matplotlib version": _package_version("matplotlib"),
            "pillow version": _package_version("pillow"),
        },
    ),
    "csp-inline-code": Cache(
        key=lambda i, _: csp.InlineCodeCache.key(i["html"]),
        inputs={"html": "<script>a()</script>"},
        changes={
            "page html": _set("html", "<script>b()</script>"),
            "parser code": _edited_code(csp),
            "python version": _patched(sys, "version", "0.0-other"),
        },
    ),
    "pyodide-core": Cache(
        key=lambda i, _: pyodide_bundle.core_zip_key(),
        inputs={},
        changes={
            "roofline_core": _patched(pyodide_bundle, "package_digest", lambda: "other core"),
            "packing code": _edited_code(pyodide_bundle),
            "zlib version": _patched(zlib, "ZLIB_RUNTIME_VERSION", "0.0-other"),
        },
    ),
    "pyodide-stdlib": Cache(
        key=_stdlib_key,
        inputs={"core": b"core zip"},
        changes={
            "roofline_core zip": _set("core", b"other core zip"),
            "pyodide version": _edited_pyodide_file("package.json"),
            "stock library": _edited_pyodide_file(pyodide_stdlib.STOCK_NAME),
            "maker": _edited_file(pyodide_stdlib, "MAKER"),
            "module code": _edited_code(pyodide_stdlib),
        },
    ),
    "pyodide-snapshot": Cache(
        key=_snapshot_key,
        inputs={"core": b"core zip", "stdlib": b"library zip"},
        changes={
            "roofline_core zip": _set("core", b"other core zip"),
            "library zip": _set("stdlib", b"other library zip"),
            "pyodide version": _edited_pyodide_file("package.json"),
            "pyodide loader": _edited_pyodide_file("pyodide.mjs"),
            "maker": _edited_file(pyodide_snapshot, "MAKER"),
            "container format": _edited_file(pyodide_snapshot, "SNAPSHOT_MODULE"),
            "module code": _edited_code(pyodide_snapshot),
            "zlib version": _patched(zlib, "ZLIB_RUNTIME_VERSION", "0.0-other"),
        },
    ),
    "measurements-page": Cache(
        key=lambda i, _: measurements_page.page_cache_key(i["data"]),
        inputs={"data": b"[[measurement]]\n"},
        changes={
            "data file": _set("data", b"[[measurement]]\n# more\n"),
            "roofline_core": _patched(measurements_page, "package_digest", lambda: "other core"),
            "page writer": _edited_code(measurements_page),
        },
    ),
    "precompressed": Cache(
        key=_precompress_key,
        inputs={"name": "page.js", "data": b"x" * 2000},
        changes={
            "file bytes": _set("data", b"y" * 2000),
            "file suffix (Brotli mode)": _set("name", "page.wasm"),
            "compressing code": _edited_code(precompress),
            "zlib version": _patched(zlib, "ZLIB_RUNTIME_VERSION", "0.0-other"),
        },
    ),
}

#: Caches in the repository's own .cache that every build with this code shares (fixture sites,
#: other SITE_URLs): they depend on the repository's configuration files, not on the site's.
SHARED = {"csp-inline-code", "link-cards", "pyodide-core", "pyodide-stdlib", "pyodide-snapshot"}
#: Caches in the user's cache folder, shared by every checkout on the machine: keyed by their
#: inputs' bytes alone (tests/roofline_site/test_precompress.py).
MACHINE_WIDE = {"precompressed"}

# Every cache depends on the build's configuration too (the shared ones on the repository's).
for _name, _cache in CACHES.items():
    if _name in MACHINE_WIDE:
        continue
    if _name in SHARED:
        _cache.changes["repository configuration"] = _patched(build_config, "_repository", "another configuration")
    else:
        _cache.changes["build configuration"] = _patched(build_config, "_current", "another configuration")


@pytest.mark.parametrize("name", sorted(SHARED))
def test_a_shared_cache_does_not_depend_on_the_site_being_built(name, monkeypatch, tmp_path):
    cache = CACHES[name]
    _clear_cached_digests()
    try:
        build_config.config_digest()  # the repository's digests are in place
        before = cache.key(dict(cache.inputs), tmp_path)
        monkeypatch.setattr(build_config, "_current", "a fixture site's configuration")
        _clear_cached_digests()
        assert cache.key(dict(cache.inputs), tmp_path) == before
    finally:
        monkeypatch.undo()
        _clear_cached_digests()


CASES = [
    pytest.param(name, change, id=f"{name}: {change}") for name, cache in CACHES.items() for change in cache.changes
]


@pytest.mark.parametrize(("name", "change"), CASES)
def test_changing_an_input_misses_the_cache(name, change, monkeypatch, tmp_path):
    cache = CACHES[name]
    _clear_cached_digests()
    try:
        before = cache.key(dict(cache.inputs), tmp_path)
        assert cache.key(dict(cache.inputs), tmp_path) == before, "the key is not stable"
        inputs = dict(cache.inputs)
        cache.changes[change](inputs, monkeypatch, tmp_path)
        _clear_cached_digests()
        assert cache.key(inputs, tmp_path) != before, f"{name}: a change of {change} still hits the cache"
    finally:
        monkeypatch.undo()
        _clear_cached_digests()


def _project(root: Path) -> Path:
    (root / "hooks").mkdir(parents=True)
    (root / "hooks" / "a.py").write_text("x = 1\n")
    (root / "site_assets" / "overrides" / "partials").mkdir(parents=True)
    (root / "site_assets" / "overrides" / "main.html").write_text("{{ page.title }}\n")
    (root / "site_assets" / "overrides" / "partials" / "b.html").write_text("b\n")
    config = root / "mkdocs.yml"
    config.write_text('site_name: A\nsite_url: !ENV [SITE_URL, "http://x/"]\nextra:\n  b: !ENV PLAIN_NAME\n')
    return config


@pytest.mark.parametrize(
    "edit",
    [
        lambda root, mp: (root / "mkdocs.yml").write_text("site_name: B\n"),
        lambda root, mp: (root / "hooks" / "a.py").write_text("x = 2\n"),
        lambda root, mp: (root / "hooks" / "new.py").write_text(""),
        lambda root, mp: (root / "site_assets" / "overrides" / "main.html").write_text("{{ page.title|e }}\n"),
        lambda root, mp: (root / "site_assets" / "overrides" / "partials" / "b.html").write_text("c\n"),
        lambda root, mp: mp.setenv("SITE_URL", "https://example.org/sub/"),
        lambda root, mp: mp.setenv("PLAIN_NAME", "value"),
    ],
    ids=["mkdocs.yml", "a hook", "a new hook", "an override", "a partial", "an !ENV variable", "a bare !ENV"],
)
def test_the_configuration_digest_covers_the_config_its_variables_hooks_and_overrides(edit, monkeypatch, tmp_path):
    monkeypatch.setattr(build_config, "PROJECT_ROOT", tmp_path)
    monkeypatch.delenv("SITE_URL", raising=False)
    monkeypatch.delenv("PLAIN_NAME", raising=False)
    config = _project(tmp_path)
    before = build_config.config_digest_of(config)
    assert build_config.config_digest_of(config) == before
    (tmp_path / "hooks" / "__pycache__").mkdir()
    (tmp_path / "hooks" / "__pycache__" / "a.pyc").write_bytes(b"compiled")
    assert build_config.config_digest_of(config) == before, "compiled files are not configuration"
    edit(tmp_path, monkeypatch)
    assert build_config.config_digest_of(config) != before


def test_a_build_works_out_the_digest_of_its_own_config_file(monkeypatch, tmp_path):
    monkeypatch.setattr(build_config, "_current", None)
    project = build_config.config_digest()
    config = tmp_path / "mkdocs.yml"
    config.write_text("site_name: Fixture\n")
    assert build_config.start_build(config) == build_config.config_digest() != project
