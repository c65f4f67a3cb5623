"""roofline_core's floors: no import cycle, and each part imports only the floors below it.

The graph is read from the source with ``ast``, not by importing: an edge is every
``import roofline_core...`` or ``from roofline_core... import ...`` a module runs, at its top or
inside a function (a lazy import still runs), except under ``if TYPE_CHECKING:`` (annotations
only, never executed). ``from roofline_core.pkg import name`` points at ``pkg.name`` when that is
a module, else at ``pkg``. A package's ``__init__`` is a module like any other; importing a
submodule is not counted as importing its parent's ``__init__`` (which re-exports its submodules).
"""

from __future__ import annotations

import ast
import graphlib
import re
from pathlib import Path

import pytest

from tests.support.site_build import PROJECT_ROOT

CORE = PROJECT_ROOT / "roofline_core"

#: The parts of roofline_core (a top-level module or a subpackage) and which parts each may
#: import, lowest floor first. A subpackage's docstring says the same ("It may import: ...").
BELOW_ESTIMATES = {"models", "hardware", "roofline", "sources", "formatting"}
ALLOWED: dict[str, set[str]] = {
    "roofline": set(),
    "sources": set(),
    "version": set(),
    # Reads pasted engine start-up logs; needs nothing else of the package.
    "engine_log": set(),
    "formatting": {"roofline"},
    "hardware": {"roofline", "sources"},
    "models": {"hardware", "roofline", "sources"},
    "vocabulary": {"models", "hardware", "roofline", "sources", "formatting"},
    "estimates": BELOW_ESTIMATES,
    # engine_log_check reproduces a parsed engine log (engine_log imports nothing of the package).
    "questions": BELOW_ESTIMATES | {"estimates", "vocabulary", "engine_log"},
    "evidence": BELOW_ESTIMATES | {"estimates"},
    "quantities": BELOW_ESTIMATES | {"estimates", "vocabulary"},
    "figures": BELOW_ESTIMATES | {"estimates", "vocabulary", "evidence"},
    "calculators": BELOW_ESTIMATES | {"estimates", "vocabulary", "questions", "figures"},
    # The data version stamps the CSV files a reader downloads (view/downloads.py's callers).
    "view": BELOW_ESTIMATES | {"estimates", "vocabulary", "questions", "figures", "calculators", "version"},
    "cli": BELOW_ESTIMATES
    | {"estimates", "vocabulary", "questions", "figures", "calculators", "view", "quantities", "engine_log"},
    "__main__": {"cli"},
    # The package's own face: re-exports of the formula layer, presets and estimates.
    "__init__": {"hardware", "models", "estimates", "roofline", "sources"},
}
MAX_TOP_LEVEL_MODULES = 12


def _module_name(path: Path) -> str:
    parts = path.relative_to(PROJECT_ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES: dict[str, Path] = {_module_name(p): p for p in sorted(CORE.rglob("*.py"))}


def _part(module: str) -> str:
    """The part of roofline_core a module belongs to: ``roofline_core.models.hf_config`` -> ``models``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


class _Imports(ast.NodeVisitor):
    """The roofline_core modules one module imports at run time, with the line of each."""

    def __init__(self, module: str, is_package: bool) -> None:
        self.module = module
        self.package = module if is_package else module.rpartition(".")[0]
        self.found: list[tuple[str, int]] = []

    def visit_If(self, node: ast.If) -> None:
        test = node.test
        if (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
            isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
        ):
            for child in node.orelse:
                self.visit(child)
            return
        self.generic_visit(node)

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            if alias.name.split(".")[0] == "roofline_core":
                self.found.append((alias.name, node.lineno))

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        if node.level:
            base = self.package.split(".")[: len(self.package.split(".")) - node.level + 1]
            source = ".".join(base + ([node.module] if node.module else []))
        else:
            source = node.module or ""
        if source.split(".")[0] != "roofline_core":
            return
        for alias in node.names:
            submodule = f"{source}.{alias.name}"
            self.found.append((submodule if submodule in MODULES else source, node.lineno))


def imports_of(module: str) -> list[tuple[str, int]]:
    path = MODULES[module]
    visitor = _Imports(module, path.name == "__init__.py")
    visitor.visit(ast.parse(path.read_text(encoding="utf-8"), str(path)))
    return [(target, line) for target, line in visitor.found if target != module]


GRAPH = {module: imports_of(module) for module in MODULES}


def test_the_graph_is_read() -> None:
    # Guards the reader itself: a module known to import another is seen to.
    assert "roofline_core.models.model" in {t for t, _ in GRAPH["roofline_core.models.hf_config"]}
    assert "roofline_core.vocabulary" in {t for t, _ in GRAPH["roofline_core.figures.parameters"]}


def test_no_import_cycle() -> None:
    sorter = graphlib.TopologicalSorter({m: {t for t, _ in edges if t in MODULES} for m, edges in GRAPH.items()})
    try:
        sorter.prepare()
    except graphlib.CycleError as error:
        pytest.fail(f"import cycle in roofline_core: {' -> '.join(error.args[1])}")


def test_every_part_has_a_floor_and_the_floors_do_not_loop() -> None:
    parts = {_part(m) for m in MODULES}
    assert parts - ALLOWED.keys() == set(), "give each new module or subpackage a row in ALLOWED"
    graphlib.TopologicalSorter(ALLOWED).prepare()  # raises CycleError if two floors allow each other


@pytest.mark.parametrize("module", sorted(MODULES))
def test_a_module_imports_only_the_floors_its_part_may(module: str) -> None:
    part = _part(module)
    wrong = [
        f"{MODULES[module].relative_to(PROJECT_ROOT)}:{line}: imports {target} ({_part(target)})"
        for target, line in GRAPH[module]
        if _part(target) != part and _part(target) not in ALLOWED.get(part, set())
    ]
    assert not wrong, f"{part} may import only {sorted(ALLOWED.get(part, set()))}:\n" + "\n".join(wrong)


SUBPACKAGES = sorted(p.parent.name for p in CORE.glob("*/__init__.py"))
_MAY_IMPORT = re.compile(r"It may import:(.*?)(?:\n\n|$)", re.DOTALL)


@pytest.mark.parametrize("package", SUBPACKAGES)
def test_a_subpackage_docstring_says_what_it_holds_and_may_import(package: str) -> None:
    doc = ast.get_docstring(ast.parse((CORE / package / "__init__.py").read_text(encoding="utf-8"))) or ""
    match = _MAY_IMPORT.search(doc)
    assert match, f"roofline_core/{package}/__init__.py: the docstring has no 'It may import: ...' sentence"
    named = set(re.findall(r"``roofline_core\.(\w+)``", match.group(1)))
    assert named == ALLOWED[package], f"roofline_core/{package}: the docstring allows {sorted(named)}"


def test_the_top_level_holds_at_most_twelve_modules() -> None:
    top = sorted(p.name for p in CORE.glob("*.py"))
    assert len(top) <= MAX_TOP_LEVEL_MODULES, f"{len(top)} modules at roofline_core's top level: {top}"
