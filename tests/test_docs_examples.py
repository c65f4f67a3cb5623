"""README.md's and CONTRIBUTING.md's examples run as written, and what they state holds: the
values in the Python example's comments, the counts of calculators and steps, and the output of
the contributor's two commands."""

from __future__ import annotations

import ast
import io
import os
import re
import shutil
import subprocess
import tokenize

from roofline_core.calculators import CALCULATORS
from roofline_site import doc_facts
from tests.support.site_build import PROJECT_ROOT

README = (PROJECT_ROOT / "README.md").read_text(encoding="utf-8")
CONTRIBUTING = (PROJECT_ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
_FENCE = re.compile(r"^( *)```(\w+)\n(.*?)^\1```$", re.M | re.S)
_NUMBER = re.compile(r"(?<![\w.])(\d[\d_]*(?:\.\d+)?(?:e-?\d+)?)(?![\w.])")


def _blocks(text: str, language: str) -> list[str]:
    """The fenced blocks of ``language``, their indentation removed."""
    return [
        "\n".join(line[len(indent) :] for line in body.splitlines())
        for indent, lang, body in _FENCE.findall(text)
        if lang == language
    ]


def _comments(code: str) -> dict[int, str]:
    return {
        token.start[0]: token.string.lstrip("#").strip()
        for token in tokenize.generate_tokens(io.StringIO(code).readline)
        if token.type == tokenize.COMMENT
    }


def _agrees(value: float, written: str) -> bool:
    """Whether ``value`` rounds to ``written`` at the significant digits it was written with."""
    digits = written.replace("_", "").lstrip("0.").replace(".", "")
    return float(f"{value:.{max(len(digits), 1)}g}") == float(written.replace("_", ""))


def test_readme_python_example_runs_verbatim_and_its_comments_state_its_values():
    (code,) = _blocks(README, "python")
    comments = _comments(code)
    namespace: dict = {}
    checked = 0
    for statement in ast.parse(code).body:
        module = ast.Module(body=[statement], type_ignores=[])
        comment = comments.get(statement.end_lineno, "")
        stated = _NUMBER.findall(comment)
        if isinstance(statement, ast.Expr) and stated:
            value = eval(compile(ast.Expression(statement.value), "README.md", "eval"), namespace)  # noqa: S307
            values = value if isinstance(value, tuple) else (value,)
            assert len(values) == len(stated), (ast.unparse(statement), comment)
            for got, written in zip(values, stated, strict=True):
                assert _agrees(got, written), f"{ast.unparse(statement)} is {got}; README.md says {comment!r}"
            checked += 1
        else:
            exec(compile(module, "README.md", "exec"), namespace)  # noqa: S102
    assert checked >= 2  # the ridge point, and the decode step's time and speed


def test_the_counts_the_docs_state_are_the_code_s():
    # README's calculator and figure passages are generated (roofline_site.doc_facts); up to date:
    assert doc_facts.stale() == [], "run: .venv/bin/python -m roofline_site.doc_facts"
    (count,) = re.findall(r"(\w+) calculators \(", README)
    assert count.lower() == doc_facts.count_words(len(CALCULATORS))
    # "adds a term in four steps": CONTRIBUTING.md's numbered list.
    steps = re.findall(r"^\d+\. \*\*", CONTRIBUTING, re.M)
    for text in (README, CONTRIBUTING):
        (word,) = re.findall(r"(\w+) steps", text)
        assert word == doc_facts.count_words(len(steps)), text[:80]


def test_contributing_commands_run_verbatim_in_a_copy_of_the_project(tmp_path):
    shutil.copytree(PROJECT_ROOT / "glossary", tmp_path / "glossary")
    os.symlink(PROJECT_ROOT / ".venv", tmp_path / ".venv")
    commands = [line for block in _blocks(CONTRIBUTING, "sh") for line in block.splitlines() if line.strip()]
    assert [c.split()[3] for c in commands] == ["new", "check"], commands
    env = {**os.environ, "PYTHONPATH": str(PROJECT_ROOT)}
    new, check = (
        subprocess.run(c, shell=True, cwd=tmp_path, env=env, capture_output=True, text=True) for c in commands
    )
    assert new.returncode == 0, new.stderr
    assert (tmp_path / "glossary" / "beam-search.md").is_file()
    # The scaffold is refused, each placeholder named by file and line, as the docs say.
    assert check.returncode != 0
    named = re.findall(r"^glossary/beam-search\.md:\d+: .*placeholder", check.stdout + check.stderr, re.M)
    assert len(named) == 3, check.stdout + check.stderr  # summary, source, body
    # Without the new entry: the count the command prints is the glossary's.
    (tmp_path / "glossary" / "beam-search.md").unlink()
    clean = subprocess.run(commands[1], shell=True, cwd=tmp_path, env=env, capture_output=True, text=True)
    entries = len(list((PROJECT_ROOT / "glossary").glob("*.md")))
    assert clean.returncode == 0 and clean.stdout.strip().endswith(f"{entries} entries, all valid"), clean.stdout
