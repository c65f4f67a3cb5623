"""Move roofline_core's top-level modules into layered subpackages, and rewrite every reference.

One-off and re-runnable (issue 37, part 1): it works from the mapping table below, so it can be
run again on a newer main where others have edited these modules or added references to them.
Run it from the repository root on a clean work tree, then commit its output as it is::

    .venv/bin/python scripts/dev/relayer_core.py

What it does, in order:

1. Refuses to run if a top-level module of roofline_core is in neither ``MOVES`` nor ``STAY``
   (a module added since: give it a row), or if a move's target already holds another file.
2. Reads, before anything moves, which names each "facade" module defines. A facade is a module
   whose old name becomes its package's name (``hardware.py`` becomes ``hardware/``): the new
   package's ``__init__`` re-exports the facade's public names, so ``roofline_core.hardware`` and
   ``roofline_core.models`` (public API, see ARCHITECTURE.md) keep every public name.
3. ``git mv`` of each module to its new place, and writes each new package's ``__init__.py``
   (its docstring, from ``PACKAGES``, says what it holds and what it may import).
4. Rewrites references in every file git tracks (Python, tests and their monkeypatch targets,
   Markdown, mkdocs.yml, JS/MJS, TOML, benchmarks): dotted names ``roofline_core.inference`` (in
   imports, strings and prose) and paths ``roofline_core/inference.py``; ``from roofline_core
   import inference`` becomes ``from roofline_core.estimates import inference``. A facade's name
   is left as it is, except inside its own package (where it would import the package from
   within) and for names the package does not re-export (private ones): those point at the
   module that defines them.
5. Sorts imports and formats the Python files it changed (ruff, as the test suite checks).

Delete this script once the layout has landed on main.
"""

from __future__ import annotations

import argparse
import ast
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CORE = ROOT / "roofline_core"
PACKAGE = "roofline_core"

#: Old top-level module -> new dotted place under roofline_core.
MOVES: dict[str, str] = {
    # Hardware: accelerators, their presets, number formats, compute-format choice.
    "hardware": "hardware.accelerators",
    "accelerator_presets": "hardware.accelerator_presets",
    "dtypes": "hardware.dtypes",
    "block_formats": "hardware.block_formats",
    "compute_format": "hardware.compute_format",
    # Models: the model type, config.json import, presets, short config code, attention shapes.
    "models": "models.presets",
    "model": "models.model",
    "model_presets": "models.preset_records",
    "hf_config": "models.hf_config",
    "config_error": "models.config_error",
    "config_code": "models.config_code",
    "attention": "models.attention",
    "quantisation": "models.quantisation",
    # Estimates: what one step costs on one setup.
    "inference": "estimates.inference",
    "communication": "estimates.communication",
    "headroom": "estimates.headroom",
    "efficiency": "estimates.efficiency",
    "speculative": "estimates.speculative",
    "operations": "estimates.operations",
    # Questions asked of the estimates.
    "inverse": "questions.inverse",
    "sensitivity": "questions.sensitivity",
    "reconcile": "questions.reconcile",
    "bench_output": "questions.bench_output",
    "pitfalls": "questions.pitfalls",
    # Evidence: published measurements and how well the estimates meet them.
    "measurements": "evidence.measurements",
    "validation": "evidence.validation",
    # Compares two scenarios of one calculator: it runs the calculators, so it sits with them.
    "compare": "calculators.compare",
}

#: Top-level modules that stay where they are (the package's face and its lowest floor).
STAY = {
    "__init__",
    "__main__",
    "cli",
    "engine_log",
    "formatting",
    "quantities",
    "roofline",
    "sources",
    "version",
    "vocabulary",
}

#: New subpackages and their docstrings. "It may import" names what the import-graph test
#: (tests/roofline_core/test_layers.py) allows; the two must agree.
PACKAGES: dict[str, str] = {
    "hardware": """Accelerators and number formats: what a chip can do, with every figure cited.

Holds the accelerator type and lookups (``accelerators``), the accelerator presets, each quoting
its spec sheet (``accelerator_presets``), the number formats (``dtypes``) and block-scaled
formats (``block_formats``), and which compute format a model's weights run in on a chip
(``compute_format``). ``roofline_core.hardware`` re-exports the accelerator names.
It may import: ``roofline_core.roofline``, ``roofline_core.sources`` (and the standard library).""",
    "models": """Models: the transformer architecture type, its presets and how a ``config.json`` becomes one.

Holds the model type and its parameter counts (``model``), the presets by slug (``presets``) and
their stored configs (``preset_records``), the Hugging Face ``config.json`` importer
(``hf_config``, raising ``config_error.ConfigError``), quantisation read from a config
(``quantisation``), the short config code a link carries (``config_code``) and attention shapes
(``attention``). ``roofline_core.models`` re-exports the public model names.
It may import: ``roofline_core.hardware``, ``roofline_core.roofline``, ``roofline_core.sources``.""",
    "estimates": """Estimates: what a decode step, a prefill or one operation costs on a given setup.

Holds decode and prefill estimates with memory fit (``inference``), communication between
devices (``communication``), memory headroom (``headroom``), fitted efficiencies
(``efficiency``), speculative decoding (``speculative``) and the per-operation catalogue
(``operations``). Each result carries the speed-of-light figure beside the expected one.
It may import: ``roofline_core.models``, ``roofline_core.hardware``, ``roofline_core.roofline``,
``roofline_core.sources``, ``roofline_core.formatting``.""",
    "questions": """Questions asked of the estimates: what fits, what matters most, why a measurement differs.

Holds the inverse questions (``inverse``: the largest batch or context that fits), sensitivity
of a result to each input (``sensitivity``), reconciling a measured speed with the bound
(``reconcile``) and reading pasted benchmark output for it (``bench_output``), and the common
pitfalls a setup falls into (``pitfalls``).
It may import: ``roofline_core.estimates``, ``roofline_core.models``, ``roofline_core.hardware``,
``roofline_core.roofline``, ``roofline_core.sources``, ``roofline_core.formatting``,
``roofline_core.vocabulary``.""",
    "evidence": """Evidence: published inference measurements and how far the estimates are from them.

Holds the cited measurements read from ``measurements/measurements.toml`` with their checks
(``measurements``) and the comparison and efficiency fit against the formula layer
(``validation``).
It may import: ``roofline_core.estimates``, ``roofline_core.models``, ``roofline_core.hardware``,
``roofline_core.roofline``, ``roofline_core.sources``, ``roofline_core.formatting``.""",
}

#: Files never rewritten: this script (it names the old modules on purpose) and lock files.
SKIP = {"scripts/dev/relayer_core.py", "package-lock.json", "requirements.lock"}
TEXT_SUFFIXES = {".py", ".md", ".mjs", ".js", ".toml", ".yml", ".yaml", ".json", ".cfg", ".txt", ".css", ".html", ""}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dry-run", action="store_true", help="say what would move; change nothing")
    args = parser.parse_args()
    _check_table()
    facades = _facades()
    exports = {name: _public_names(name) for name in facades}
    defined_in = {name: _definitions(name) for name in facades}
    moves = {old: new for old, new in MOVES.items() if (CORE / f"{old}.py").exists()}
    if args.dry_run:
        for old, new in moves.items():
            print(f"roofline_core/{old}.py -> {_path(new)}")
        return 0
    for old, new in moves.items():
        target = ROOT / _path(new)
        target.parent.mkdir(exist_ok=True)
        _git("mv", f"roofline_core/{old}.py", _path(new))
    for package, doc in PACKAGES.items():
        init = CORE / package / "__init__.py"
        if not init.exists():
            init.write_text(_init_text(package, doc, facades, exports, defined_in))
            _git("add", str(init.relative_to(ROOT)))
    changed = _rewrite_all(facades, exports, defined_in)
    python = [p for p in changed if p.endswith(".py")] + [f"roofline_core/{p}/__init__.py" for p in PACKAGES]
    ruff = str(Path(sys.executable).with_name("ruff"))
    subprocess.run([ruff, "check", "--select", "I", "--fix", "--quiet", *python], cwd=ROOT, check=False)
    subprocess.run([ruff, "format", "--quiet", *python], cwd=ROOT, check=True)
    print(f"moved {len(moves)} modules, rewrote {len(changed)} files")
    return 0


# Checks and reading -------------------------------------------------------------------------


def _check_table() -> None:
    present = {p.stem for p in CORE.glob("*.py")}
    unknown = sorted(present - set(MOVES) - STAY)
    if unknown:
        sys.exit(f"relayer_core: top-level modules with no row in MOVES or STAY: {', '.join(unknown)}")
    for old, new in MOVES.items():
        target = ROOT / _path(new)
        if target.exists() and (CORE / f"{old}.py").exists():
            sys.exit(f"relayer_core: {_path(new)} already exists; expected it free for roofline_core/{old}.py")


def _facades() -> dict[str, str]:
    """Old module -> its new dotted place, for modules whose old name becomes a package's name."""
    return {old: new for old, new in MOVES.items() if new.split(".")[0] == old}


def _submodules(package: str) -> set[str]:
    return {new.split(".")[1] for new in MOVES.values() if new.split(".")[0] == package}


def _source(old: str) -> ast.Module:
    path = CORE / f"{old}.py"
    if not path.exists():  # already moved (a second run)
        path = ROOT / _path(MOVES[old])
    return ast.parse(path.read_text(encoding="utf-8"))


def _definitions(old: str) -> dict[str, str]:
    """Every top-level name of module ``old`` -> the new dotted module that defines it."""
    found: dict[str, str] = {}
    for node in _source(old).body:
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith(f"{PACKAGE}."):
            source = node.module.removeprefix(f"{PACKAGE}.")
            for alias in node.names:
                if alias.asname is None and source in MOVES:
                    found[alias.name] = _definitions(source).get(alias.name, MOVES[source])
        else:
            for name in _bound_names(node):
                found[name] = MOVES[old]
    return found


def _bound_names(node: ast.stmt) -> list[str]:
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return [node.name]
    if isinstance(node, ast.Assign):
        return [t.id for t in node.targets if isinstance(t, ast.Name)]
    if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
        return [node.target.id]
    return []


def _public_names(old: str) -> list[str]:
    """What the new package re-exports for facade ``old``: its ``__all__``, else its public names."""
    tree = _source(old)
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
            return list(ast.literal_eval(node.value))
    return [n for node in tree.body for n in _bound_names(node) if not n.startswith("_")]


def _path(dotted: str) -> str:
    return f"{PACKAGE}/{dotted.replace('.', '/')}.py"


def _git(*args: str) -> str:
    return subprocess.run(["git", *args], cwd=ROOT, check=True, capture_output=True, text=True).stdout


# Writing -----------------------------------------------------------------------------------


def _init_text(package: str, doc: str, facades, exports, defined_in) -> str:
    lines = [f'"""{doc}\n"""', "", "from __future__ import annotations", ""]
    names: list[str] = []
    for old, new in facades.items():
        if new.split(".")[0] != package:
            continue
        by_module: dict[str, list[str]] = {}
        for name in exports[old]:
            by_module.setdefault(defined_in[old].get(name, new), []).append(name)
            names.append(name)
        for module, group in sorted(by_module.items()):
            lines.append(f"from {PACKAGE}.{module} import {', '.join(sorted(group))}")
    if names:
        lines += ["", "__all__ = [", *(f'    "{n}",' for n in sorted(names)), "]"]
    return "\n".join(lines) + "\n"


_MOVED = "|".join(sorted(MOVES, key=len, reverse=True))
_DOTTED = re.compile(rf"(?<![\w.]){PACKAGE}\.({_MOVED})\b(\.[A-Za-z_]\w*)?")
_PATH = re.compile(rf"(?<![\w.]){PACKAGE}/({_MOVED})\.py\b")
_FROM_FACADE = re.compile(
    rf"^(?P<indent>[ \t]*)from {PACKAGE}\.(?P<old>{'|'.join(_facades())}) import (?P<names>\([^)]*\)|[^\n#]*)",
    re.MULTILINE,
)
_FROM_PACKAGE = re.compile(rf"^(?P<indent>[ \t]*)from {PACKAGE} import (?P<names>\([^)]*\)|[^\n#]*)", re.MULTILINE)


def _rewrite_all(facades, exports, defined_in) -> list[str]:
    changed = []
    for rel in _git("ls-files").splitlines():
        path = ROOT / rel
        if rel in SKIP or path.suffix not in TEXT_SUFFIXES or not path.is_file():
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        if PACKAGE not in text:
            continue
        new = _rewrite(rel, text, facades, exports, defined_in)
        if new != text:
            path.write_text(new, encoding="utf-8")
            changed.append(rel)
    return changed


def _inside(rel: str, facade: str) -> bool:
    """Whether file ``rel`` sits in the package ``facade`` becomes (its ``__init__`` excepted)."""
    return rel.startswith(f"{PACKAGE}/{facade}/") and not rel.endswith("/__init__.py")


def _rewrite(rel: str, text: str, facades, exports, defined_in) -> str:
    def from_facade(match: re.Match) -> str:
        old = match["old"]
        aliases = [a.strip() for a in match["names"].strip("()").replace("\n", " ").split(",") if a.strip()]
        if not _inside(rel, old) and all(a.split(" as ")[0].strip() in exports[old] for a in aliases):
            return match.group(0)  # every name is on the package's face
        by_module: dict[str, list[str]] = {}
        for alias in aliases:
            name = alias.split(" as ")[0].strip()
            by_module.setdefault(defined_in[old].get(name, facades[old]), []).append(alias)
        indent = match["indent"]
        return "\n".join(
            f"{indent}from {PACKAGE}.{module} import {', '.join(group)}" for module, group in sorted(by_module.items())
        )

    def from_package(match: re.Match) -> str:
        aliases = [a.strip() for a in match["names"].strip("()").replace("\n", " ").split(",") if a.strip()]
        # A facade's name is its package now: ``from roofline_core import models`` stays.
        moved = [a for a in aliases if a.split(" as ")[0].strip() in MOVES.keys() - facades.keys()]
        if not moved:
            return match.group(0)
        indent = match["indent"]
        lines = []
        rest = [a for a in aliases if a not in moved]
        if rest:
            lines.append(f"{indent}from {PACKAGE} import {', '.join(rest)}")
        for alias in moved:
            name, _, asname = alias.partition(" as ")
            parent, _, leaf = MOVES[name.strip()].rpartition(".")
            lines.append(f"{indent}from {PACKAGE}.{parent} import {leaf} as {(asname or name).strip()}")
        return "\n".join(lines)

    def dotted(match: re.Match) -> str:
        old, attribute = match[1], match[2] or ""
        name = attribute[1:]
        if old in facades:
            if name in _submodules(old):
                return match.group(0)  # already the new layout
            if _inside(rel, old) or (name and name not in exports[old] and name in defined_in[old]):
                module = defined_in[old].get(name, facades[old]) if name else facades[old]
                return f"{PACKAGE}.{module}{attribute}"
            return match.group(0)
        return f"{PACKAGE}.{MOVES[old]}{attribute}"

    if rel.endswith(".py"):
        text = _FROM_FACADE.sub(from_facade, text)
        text = _FROM_PACKAGE.sub(from_package, text)
    text = _DOTTED.sub(dotted, text)
    return _PATH.sub(lambda m: _path(MOVES[m[1]]), text)


if __name__ == "__main__":
    sys.exit(main())
