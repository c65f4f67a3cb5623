"""Keep the theme's compiled Jinja templates between builds.

MkDocs compiles Material's templates afresh in every build, whatever the number of pages: about
70 ms of a warm build on this machine (benchmarks/bench_glossary_build.py). Jinja can keep the
compiled code (a bytecode cache, ``jinja2.FileSystemBytecodeCache``). Each template is stored
under its name and file, and used only while the SHA-1 of its source matches, so an edited
template or override is compiled again; Python's version is part of Jinja's own record.

What else shapes the compiled code is the Jinja version and the environment's syntax and
extensions; they name the folder, so a change of any of them starts a fresh one. Two settings
are functions whose results Jinja bakes into the code when it compiles (a callable
``autoescape``, asked per template name; a ``finalize``, applied to constant output): no name
says what such a function does, so an environment with either keeps no cache. MkDocs sets
neither.
"""

from __future__ import annotations

import json
from importlib import metadata
from pathlib import Path

import jinja2

from roofline_site.node_artifacts import input_key

CACHE_DIR_NAME = ".cache/jinja-bytecode"

# Environment attributes the code generator reads (jinja2.Environment's constructor options).
_COMPILE_OPTIONS = (
    "block_start_string",
    "block_end_string",
    "variable_start_string",
    "variable_end_string",
    "comment_start_string",
    "comment_end_string",
    "line_statement_prefix",
    "line_comment_prefix",
    "trim_blocks",
    "lstrip_blocks",
    "newline_sequence",
    "keep_trailing_newline",
    "optimized",
    "autoescape",
)


def compile_settings_key(env: jinja2.Environment) -> str:
    """Hex digest of what, besides a template's source, decides its compiled code."""
    settings = {name: repr(getattr(env, name)) for name in _COMPILE_OPTIONS}
    settings["extensions"] = sorted(env.extensions)
    settings["jinja2"] = metadata.version("jinja2")
    return input_key([json.dumps(settings, sort_keys=True).encode()])


def compiled_template_cache(env: jinja2.Environment, project_root: Path) -> jinja2.FileSystemBytecodeCache | None:
    """A bytecode cache for ``env`` in the project's ``.cache``, one folder per compile settings;
    None when compiling runs one of the environment's own functions (see the module)."""
    if callable(env.autoescape) or env.finalize is not None:
        return None
    folder = project_root / CACHE_DIR_NAME / compile_settings_key(env)[:16]
    folder.mkdir(parents=True, exist_ok=True)
    # Jinja writes each record to a temporary file and renames it, so builds running at the
    # same time never read half a record.
    return jinja2.FileSystemBytecodeCache(str(folder))
