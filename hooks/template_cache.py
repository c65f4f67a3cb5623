"""Compiled theme templates are kept between builds (roofline_site.template_cache)."""

from __future__ import annotations

from pathlib import Path

from mkdocs.plugins import event_priority

from roofline_site.template_cache import compiled_template_cache

# Hooks ---------------------------------------------------------------------------------


# First, before any hook's on_env could load a template.
@event_priority(100)
def on_env(env, config, files):
    env.bytecode_cache = compiled_template_cache(env, Path(config.config_file_path).resolve().parent)
    return env
