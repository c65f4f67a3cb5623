"""Show the data version (``roofline_core.version.data_version``) in every page's footer.

The footer is Material's copyright line (``copyright`` in mkdocs.yml), extended here so that the
stamp is read from the code being built, never typed: a reader citing a number can say which
formulas and presets produced it.
"""

from __future__ import annotations

from roofline_core.version import data_version

# Hooks ---------------------------------------------------------------------------------


def on_config(config):
    stamp = data_version()
    base = (config.copyright or "").rstrip(".")
    config.copyright = f"{base}. Data version {stamp}." if base else f"Data version {stamp}."
    return config
