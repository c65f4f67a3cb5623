"""Self-host Pyodide: add the pinned npm package's runtime files and the packed roofline_core to
the built site (``assets/pyodide/<version>/`` and ``assets/pyodide/roofline_core.<hash>.zip``),
the trimmed, precompiled standard library and the memory snapshot the worker boots from (beside
the runtime files; made in Node, cached in ``.cache/``). Without Node the build goes on with the
stock library and no snapshot, and the worker boots the ordinary way.

They are prepared once per build, here, and are generated files, so nothing lands in
``docs/``. Calculator fences read their site paths from the same preparation
(``roofline_site.calculators.assets.build_assets``), so pages without a calculator reference
none of it. The browser finds the runtime through ``assets/roofline/calculators/runtime.mjs``,
written here (``roofline_site.calculators.runtime_manifest``), never through the page.
"""

from __future__ import annotations

import gzip
import logging
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files

from roofline_site import offline_manifest
from roofline_site.calculators.assets import prepare_build_assets
from roofline_site.calculators.runtime_manifest import MODULE_PATH, build_token, runtime_module
from roofline_site.node_artifacts import NodeArtifactError
from roofline_site.pyodide_snapshot import build_snapshot

PROJECT_ROOT = Path(__file__).resolve().parent.parent
log = logging.getLogger("mkdocs.hooks.pyodide_assets")

# Hooks ---------------------------------------------------------------------------------


def on_files(files: Files, config) -> Files:
    # Every page is listed by now (hooks/glossary.py adds the term pages before this hook).
    token = build_token((file.src_uri, file.content_string) for file in files.documentation_pages())
    try:
        assets = prepare_build_assets(PROJECT_ROOT, build_token=token)
    except FileNotFoundError as error:
        raise PluginError(str(error)) from None
    for site_path, source in assets.runtime_files.items():
        files.append(File.generated(config, site_path, abs_src_path=str(source)))
    files.append(File.generated(config, assets.core_zip, content=assets.core_zip_bytes))
    integrity = {Path(assets.core_zip).name: offline_manifest.integrity(assets.core_zip_bytes)}
    if assets.stdlib_note:
        # Info, not a warning: the stock library works, only slower to start.
        log.info("stock Python standard library: %s", assets.stdlib_note)
    else:
        files.append(File.generated(config, assets.stdlib_zip, content=assets.stdlib_zip_bytes))
    try:
        snapshot = build_snapshot(
            PROJECT_ROOT,
            core_zip_name=Path(assets.core_zip).name,
            core_zip_bytes=assets.core_zip_bytes,
            stdlib_name=Path(assets.stdlib_zip).name,
            stdlib_bytes=assets.stdlib_zip_bytes,
        )
    except NodeArtifactError as error:
        # Info, not a warning: the site works without it (the worker's ordinary boot).
        log.info("no Pyodide snapshot: %s", error)
    else:
        files.append(File.generated(config, assets.runtime_dir + snapshot.name, content=snapshot.data))
        # A host may serve the .gz file with Content-Encoding: gzip, and the worker then reads
        # it decompressed: either form is the build's.
        integrity[snapshot.name] = [
            offline_manifest.integrity(snapshot.data),
            offline_manifest.integrity(gzip.decompress(snapshot.data)),
        ]
    manifest = runtime_module(
        runtime_dir=assets.runtime_dir,
        core_zip=assets.core_zip,
        stdlib_zip=assets.stdlib_zip,
        token=token,
        integrity=integrity,
    )
    files.append(File.generated(config, MODULE_PATH, content=manifest))
    return files
