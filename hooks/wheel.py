"""Publish ``roofline_core`` as a wheel with the site (``roofline_site.wheel``).

``on_config`` sets where this build publishes it before any page is made, so every copied
snippet names the same install line; ``on_files`` adds the wheel at its content-hashed address
(``wheels/<hash>/roofline_core-<version>-py3-none-any.whl``) and at the stable one every build
replaces (``wheels/roofline_core-<version>-py3-none-any.whl``).

The addresses in the metadata and the install line come from ``SITE_URL`` and ``REPOSITORY_URL``
only when they are set: their fallbacks in ``mkdocs.yml`` (the local server, a placeholder
repository) must not end up in a published package. Without ``SITE_URL`` the snippets name the
site-relative path and say so.
"""

from __future__ import annotations

import logging
import os

from mkdocs.structure.files import File, Files

from roofline_site import wheel

log = logging.getLogger("mkdocs.hooks.wheel")

# Hooks ---------------------------------------------------------------------------------


def on_config(config):
    wheel.configure(
        wheel.Publication(
            site_url=config["site_url"] if os.environ.get("SITE_URL") else None,
            repository_url=config["extra"].get("repository") if os.environ.get("REPOSITORY_URL") else None,
        )
    )
    return config


def on_files(files: Files, config) -> Files:
    built = wheel.current_publication().build()
    for site_path in wheel.site_paths(built):
        files.append(File.generated(config, site_path, content=built.data))
    log.info("roofline_core wheel: %s (%d bytes)", wheel.site_paths(built)[0], len(built.data))
    return files
