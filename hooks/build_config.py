"""Work out the build's configuration digest before anything reads a cache (roofline_site.build_config).

Every cache key mixes it in, so an edit to ``mkdocs.yml``, a hook or a theme override misses
every cache; under ``mkdocs serve`` each rebuild works it out afresh. A checkout whose git tracks
anything under ``.cache`` (any letter case) does not build.
"""

from __future__ import annotations

from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority

from roofline_site.build_config import start_build, tracked_cache_paths

# Hooks ---------------------------------------------------------------------------------


# Before every other hook's on_config: some read caches there.
@event_priority(100)
def on_config(config):
    config_file = Path(config.config_file_path).resolve()
    tracked = tracked_cache_paths(config_file.parent)
    if tracked:
        raise PluginError(
            f"{tracked[0]}: git tracks {len(tracked)} file(s) under a build cache folder; expected nothing "
            "under .cache (in any letter case) in git, since a warm build trusts it (git rm -r --cached)"
        )
    start_build(config_file)
    return config
