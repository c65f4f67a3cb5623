"""Every roofline_core name a reader is shown resolves: in the README, CONTRIBUTING, DESIGN, the
docs pages and glossary entries (dotted names in text, imports and ``rc.`` names in Python code
blocks), the "Copy as Python" snippets, the names the browser worker calls, and the public
contract ARCHITECTURE.md gives notebooks. A package layout change that forgets one fails here.
"""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import pytest

from tests.support.site_build import PROJECT_ROOT

#: Named by ARCHITECTURE.md as the public face readers and notebooks import.
CONTRACT = [
    "roofline_core.ridge_point",
    "roofline_core.attainable_flop_per_s",
    "roofline_core.bound",
    "roofline_core.matmul_cost",
    "roofline_core.op_time_s",
    "roofline_core.kv_cache_bytes",
    "roofline_core.decode_step",
    "roofline_core.prefill_step",
    "roofline_core.critical_batch",
    "roofline_core.hardware.ACCELERATORS",
    "roofline_core.hardware.get_accelerator",
    "roofline_core.hardware.Accelerator",
    "roofline_core.models.MODELS",
    "roofline_core.models.get_model",
    "roofline_core.models.Model",
    "roofline_core.models.from_hf_config",
    "roofline_core.models.ConfigError",
    "roofline_core.quantities.Value",
    "roofline_core.calculators.compute",
    "roofline_core.view.compute_view_json",
    "roofline_core.version.data_version",
]

_DOTTED = re.compile(r"(?<![\w./])roofline_core(?:\.[A-Za-z_]\w*)+")
_FENCE = re.compile(r"^```python\n(.*?)^```", re.MULTILINE | re.DOTALL)
_SNIPPET_IMPORT = re.compile(r"from (roofline_core[\w.]*) import ([\w, ]+)")
_PYIMPORT = re.compile(r"pyimport\(\"(roofline_core[\w.]*)\"\)")
#: ``rc.name`` in prose, where a page has shown ``import roofline_core as rc``.
_RC = re.compile(r"(?<![\w.])rc\.([A-Za-z_]\w*)")


def _markdown_files() -> list[Path]:
    top = [PROJECT_ROOT / name for name in ("README.md", "CONTRIBUTING.md", "DESIGN.md")]
    return top + sorted((PROJECT_ROOT / "docs").rglob("*.md")) + sorted((PROJECT_ROOT / "glossary").glob("*.md"))


def _names_in_code(code: str) -> set[str]:
    names: set[str] = set()
    aliases: set[str] = set()
    tree = ast.parse(code)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "roofline_core":
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "roofline_core":
                    names.add(alias.name)
                    if alias.asname:
                        aliases.add(alias.asname)
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in aliases:
            names.add(f"roofline_core.{node.attr}")
    return names


def documented_names() -> dict[str, str]:
    """Each documented dotted name -> where it was first seen."""
    found: dict[str, str] = {}

    def add(names, where: str) -> None:
        for name in names:
            found.setdefault(name, where)

    for path in _markdown_files():
        text = path.read_text(encoding="utf-8")
        where = str(path.relative_to(PROJECT_ROOT))
        add(_DOTTED.findall(text), where)
        if "import roofline_core as rc" in text:
            add((f"roofline_core.{name}" for name in _RC.findall(text)), where)
        for code in _FENCE.findall(text):
            add(_names_in_code(code), where)
    for rel in ("site_assets/calculators/share.mjs", "roofline_site/glossary/reproduce.py"):
        text = (PROJECT_ROOT / rel).read_text(encoding="utf-8")
        for module, imported in _SNIPPET_IMPORT.findall(text):
            add((f"{module}.{name.strip()}" for name in imported.split(",") if name.strip()), rel)
    for path in sorted((PROJECT_ROOT / "site_assets" / "calculators").glob("*.mjs")):
        add(_PYIMPORT.findall(path.read_text(encoding="utf-8")), str(path.relative_to(PROJECT_ROOT)))
    add(CONTRACT, "ARCHITECTURE.md (public API)")
    return found


def resolve(dotted: str) -> object:
    """Import the longest module prefix of ``dotted``, then read the rest as attributes."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        module_name = ".".join(parts[:cut])
        try:
            obj = importlib.import_module(module_name)
        except ModuleNotFoundError as error:
            if error.name is not None and module_name.startswith(error.name):
                continue  # no such module: read the last part as an attribute instead
            raise
        # An editable install shared by several checkouts can find a module this one lacks in
        # another; that is not this checkout resolving the name.
        origin = Path(getattr(obj, "__file__", None) or PROJECT_ROOT).resolve()
        if not origin.is_relative_to(PROJECT_ROOT.resolve()):
            raise ImportError(f"{module_name} was found outside this checkout, in {origin}")
        break
    for attribute in parts[cut:]:
        obj = getattr(obj, attribute)
    return obj


DOCUMENTED = documented_names()


def test_the_collection_finds_the_readme_and_the_snippets() -> None:
    assert DOCUMENTED["roofline_core.estimate_decode"] == "README.md"
    assert DOCUMENTED["roofline_core.calculators.compute"] in {"README.md", "site_assets/calculators/share.mjs"}
    assert "roofline_core.quantities.evaluate" in DOCUMENTED
    assert "roofline_core.from_hf_config" in DOCUMENTED  # README prose: rc.from_hf_config(...)


@pytest.mark.parametrize("name", sorted(DOCUMENTED))
def test_a_documented_name_resolves(name: str) -> None:
    try:
        resolve(name)
    except (ImportError, AttributeError) as error:
        pytest.fail(f"{name} (named in {DOCUMENTED[name]}) does not resolve: {error}")
