"""Work out the build's configuration digest before anything reads a cache (roofline_site.build_config).

Every cache key mixes it in, so an edit to ``mkdocs.yml``, a hook or a theme override misses
every cache; under ``mkdocs serve`` each rebuild works it out afresh.
"""

from __future__ import annotations

from pathlib import Path

from mkdocs.plugins import event_priority

from roofline_site.build_config import start_build

# Hooks ---------------------------------------------------------------------------------


# Before every other hook's on_config: some read caches there.
@event_priority(100)
def on_config(config):
    start_build(Path(config.config_file_path).resolve())
    return config
