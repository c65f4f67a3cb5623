"""Deployment builds (``ROOFLINE_DEPLOY=1``) write ``.gz`` and ``.br`` copies of the site's text
files beside them, for hosts that serve precompressed files (docs/hosting.md);
``roofline_site.precompress`` does the work, keeping the copies in the user's cache folder
(``roofline_site.precompress.default_cache_dir``), shared by every checkout on the machine. Other
builds skip it: the local server and the tests compress on the fly or not at all.

Runs after every other hook has written its files (it is last in ``mkdocs.yml``).
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

from roofline_site.precompress import default_cache_dir, precompress

log = logging.getLogger("mkdocs.hooks.precompress")

# Hooks ---------------------------------------------------------------------------------


def on_post_build(config) -> None:
    if os.environ.get("ROOFLINE_DEPLOY") != "1":
        return
    count, brotli = precompress(Path(config["site_dir"]), default_cache_dir())
    formats = ".gz and .br" if brotli else ".gz (no Node for .br)"
    log.info("precompressed %d files (%s)", count, formats)
