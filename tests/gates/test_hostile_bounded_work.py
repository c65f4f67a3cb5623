"""Gate: glossary entries whose calculator fences would make the build's work unbounded stop it
with one located error each, no traceback, and quickly.

Fixtures: ``tests/fixtures/hostile/bounded-work/`` (a pasted default that the old vLLM reader
took hours over, a llama-bench row and a config.json integer past ``int()``'s digit limit, a
config.json nested 5,000 levels, seventeen calculators on one page). A fence error stops the
build at the first page, so each entry is built alone (the builds run side by side). Builds use
the real ``mkdocs.yml`` through ``tests/support/fixture_project.py``.
"""

from __future__ import annotations

import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.support.fixture_project import make_fixture_project
from tests.support.site_build import PROJECT_ROOT, measured_build

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        not (PROJECT_ROOT / "hooks" / "glossary.py").is_file(),
        reason="the glossary (hooks/glossary.py) has not landed",
    ),
]

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "hostile" / "bounded-work"

#: ``(file, line, words the message must hold)``: the one build error of each entry.
EXPECTED = [
    # The paste is read (now in milliseconds); the typo in the next fence is the error.
    ("cubic-paste-default.md", 20, "calculator 'kv-cache' has no input 'bach'"),
    ("huge-count-paste-default.md", 20, "calculator 'kv-cache' has no input 'bach'"),
    ("huge-integer-default.md", 15, "line 1: a number of 5,000 digits; expected at most 100 digits"),
    ("deep-config-default.md", 15, "the JSON is nested 5,000 levels deep; expected at most 32 levels"),
    ("too-many-calculators.md", 77, "the page has 17 calculator fences; expected at most 16 per page"),
]

#: One fixture build takes well under a minute of CPU time; the cubic paste alone once took hours.
BUILD_BOUND_S = 180.0


def _build(name: str, root: Path) -> tuple[int, str, float]:
    """``(return code, output, CPU seconds)``: CPU time, so the bound holds on a busy machine."""
    config = make_fixture_project(root, extra={name: (FIXTURES / name).read_text(encoding="utf-8")})
    returncode, output, cpu_seconds, _peak_bytes = measured_build(config, root / "site")
    return returncode, output, cpu_seconds


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[int, str, float]]:
    names = [name for name, _line, _words in EXPECTED]
    roots = [tmp_path_factory.mktemp(Path(name).stem) for name in names]
    with ThreadPoolExecutor(max_workers=len(names)) as pool:
        return dict(zip(names, pool.map(_build, names, roots), strict=True))


def test_every_fixture_is_listed() -> None:
    assert sorted(path.name for path in FIXTURES.glob("*.md")) == sorted(name for name, _, _ in EXPECTED)


@pytest.mark.parametrize(("name", "line", "words"), EXPECTED, ids=[name for name, _, _ in EXPECTED])
def test_each_entry_stops_the_build_with_one_located_error_quickly(builds, name: str, line: int, words: str) -> None:
    returncode, output, seconds = builds[name]
    assert returncode != 0, f"glossary/{name} built"
    assert "Traceback" not in output, output[-3000:]
    located = [found.group(0) for found in re.finditer(r"glossary/\S+\.md:\d+: [^\n]*", output)]
    assert len(located) == 1, located
    assert located[0].startswith(f"glossary/{name}:{line}: "), located
    assert words in located[0] and "; expected" in located[0], located
    assert seconds < BUILD_BOUND_S, f"{seconds:.1f} CPU seconds"
