"""The JavaScript modules a page is going to import, so that it can ask for them all at once.

A browser learns a module's imports only once the module has arrived and been parsed, so each
level of ``import`` costs a round trip. On every page, ``glossary.js`` waits for
``place-popover.mjs`` and ``inline-svg.mjs`` for ``near-viewport.mjs`` before the page's scripts
run (DOMContentLoaded); a page with a calculator then fetched ``calculator.mjs``, and only then
its five imports, before the calculator could start Python. ``<link rel="modulepreload">`` for
each of them in the head fetches them with the page instead (https://html.spec.whatwg.org/multipage/links.html#link-type-modulepreload).
They are files the page would fetch anyway, so no byte is added.

Only static imports count (``import ... from "./x.mjs"``, ``export ... from``): a dynamic
``import()`` is loaded on demand on purpose. The files are this project's own modules.
"""

from __future__ import annotations

import re
from pathlib import Path, PurePosixPath

# A static import or re-export of a relative module, at the start of a line (this project's
# modules write one per line; see site_assets/).
_STATIC_IMPORT = re.compile(
    r"""^\s*(?:(?:import|export)\b[^;"'()]*?\bfrom|import)\s*["'](\.{1,2}/[^"']+)["']""", re.MULTILINE
)


def static_imports(source_dir: Path, module: str) -> list[str]:
    """Every module that ``module`` imports statically, directly or through others.

    Args:
        source_dir: The folder that holds the modules (``site_assets/``).
        module: A module's path in ``source_dir`` (``calculators/calculator.mjs``).

    Returns:
        Paths in ``source_dir``, in the order first met (depth first), without ``module``.
    """
    found: list[str] = []

    def visit(path: str) -> None:
        text = (source_dir / path).read_text(encoding="utf-8")
        for target in _STATIC_IMPORT.findall(text):
            resolved = _join(path, target)
            if resolved != module and resolved not in found:
                found.append(resolved)
                visit(resolved)

    visit(module)
    return found


def _join(importer: str, target: str) -> str:
    """``target`` (``./x.mjs``, ``../y/z.mjs``) relative to the folder of ``importer``."""
    parts = list(PurePosixPath(importer).parent.parts)
    for part in PurePosixPath(target).parts:
        if part == "..":
            if not parts:
                raise ValueError(f"{importer} imports {target}, outside the asset folder")
            parts.pop()
        elif part != ".":
            parts.append(part)
    return "/".join(parts)
