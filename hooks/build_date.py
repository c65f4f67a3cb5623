"""Date the build by the commit being built (``SOURCE_DATE_EPOCH``), for reproducible output.

An explicit ``SOURCE_DATE_EPOCH`` in the environment wins; outside a git checkout (an unpacked
archive) MkDocs keeps its default, the day of the build. See ``roofline_site.build_date``.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

from mkdocs.exceptions import PluginError

from roofline_site.build_date import commit_epoch_s

log = logging.getLogger("mkdocs.hooks.build_date")

# Hooks ---------------------------------------------------------------------------------


def on_config(config):
    _set_source_date_epoch(Path(config.config_file_path).resolve().parent)
    return config


# Helper functions ----------------------------------------------------------------------


def _set_source_date_epoch(project_root: Path) -> None:
    if "SOURCE_DATE_EPOCH" in os.environ:
        return
    try:
        epoch_s = commit_epoch_s(project_root)
    except RuntimeError as error:
        raise PluginError(f"{error}; expected a readable git checkout, or SOURCE_DATE_EPOCH set") from error
    if epoch_s is None:
        log.info("not a git checkout: pages are dated by the day of the build (set SOURCE_DATE_EPOCH to fix it)")
        return
    os.environ["SOURCE_DATE_EPOCH"] = str(epoch_s)
