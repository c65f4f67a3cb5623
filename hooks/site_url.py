"""Refuse to deploy a site whose canonical links and ``og:url`` point at 127.0.0.1.

``site_url`` comes from ``SITE_URL`` (mkdocs.yml), with the local server's address as the
fallback so that ``scripts/serve`` and the tests need no setting. A deployment build declares
itself with ``ROOFLINE_DEPLOY=1`` (docs/hosting.md); without ``SITE_URL`` it stops with one line
saying what to set. Any other ``mkdocs build`` without ``SITE_URL`` prints a notice on stderr
(not a log warning, which ``--strict`` would turn into a failure of every local build).
"""

from __future__ import annotations

import os
import sys

from mkdocs.exceptions import PluginError

_command = ""


def on_startup(command, dirty):
    global _command
    _command = command


def on_config(config):
    if os.environ.get("SITE_URL"):
        return config
    if os.environ.get("ROOFLINE_DEPLOY") == "1":
        raise PluginError(
            "ROOFLINE_DEPLOY=1 but SITE_URL is not set; expected the public address, "
            "e.g. SITE_URL=https://<user>.github.io/roofline-glossary/ (canonical links and og:url use it)"
        )
    if _command == "build":
        print(
            f"NOTICE: SITE_URL is not set, so canonical links, og:url and the sitemap name {config['site_url']}; "
            "set SITE_URL when building for a host (docs/hosting.md).",
            file=sys.stderr,
        )
    return config
