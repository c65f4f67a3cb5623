"""Refuse to deploy a site whose addresses are still the local defaults.

Two settings in mkdocs.yml come from the environment, each with a fallback that is right on a
contributor's machine and wrong on a host:

* ``site_url`` from ``SITE_URL`` (fallback: the local server's address), which canonical links,
  ``og:url`` and the sitemap use;
* ``extra.repository`` from ``REPOSITORY_URL`` (fallback: a placeholder on GitHub), which the
  "Edit this page" and "Suggest a term" links of term pages use.

A deployment build declares itself with ``ROOFLINE_DEPLOY=1`` (docs/hosting.md); with either
variable unset it stops with one line per missing variable saying what to set. Any other
``mkdocs build`` prints a notice on stderr instead (not a log warning, which ``--strict`` would
turn into a failure of every local build); ``scripts/serve`` and the tests rely on the fallbacks.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass

from mkdocs.exceptions import PluginError


@dataclass(frozen=True)
class _Setting:
    variable: str
    what: str  # what the value is, as the error and the notice name it
    example: str
    used_by: str
    config_key: tuple[str, ...]  # where mkdocs.yml puts the value, for the notice

    def value(self, config) -> object:
        value = config
        for key in self.config_key:
            value = value.get(key) if value is not None else None
        return value


DEPLOY_SETTINGS = (
    _Setting(
        "SITE_URL",
        "the public address",
        "https://<user>.github.io/roofline-glossary/",
        "canonical links and og:url",
        ("site_url",),
    ),
    _Setting(
        "REPOSITORY_URL",
        "the repository term pages link to",
        "https://github.com/<user>/roofline-glossary",
        '"Edit this page" and "Suggest a term"',
        ("extra", "repository"),
    ),
)

_command = ""


def on_startup(command, dirty):
    global _command
    _command = command


def on_config(config):
    # A project without the setting (a test fixture without extra.repository) needs no variable.
    missing = [s for s in DEPLOY_SETTINGS if s.value(config) is not None and not os.environ.get(s.variable)]
    if missing and os.environ.get("ROOFLINE_DEPLOY") == "1":
        raise PluginError(
            "\n".join(
                f"ROOFLINE_DEPLOY=1 but {s.variable} is not set; expected {s.what}, "
                f"e.g. {s.variable}={s.example} ({s.used_by} use it)"
                for s in missing
            )
        )
    if _command == "build":
        for s in missing:
            print(
                f"NOTICE: {s.variable} is not set, so {s.used_by} name {s.value(config)}; "
                f"set {s.variable} when building for a host (docs/hosting.md).",
                file=sys.stderr,
            )
    return config
