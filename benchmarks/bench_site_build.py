"""Warm build of the whole site against plain MkDocs + Material on the same Markdown.

* **site**: ``mkdocs build`` of the project as it is (every hook: glossary, figures, calculators,
  Pyodide assets with the memory snapshot, CSP). One build first warms the caches (figures,
  snapshot), then the timed builds run.
* **plain**: a throw-away project holding the same Markdown (``docs/`` and ``glossary/*.md`` as
  ``docs/glossary/``) built by MkDocs with the same theme and Markdown extensions but no hook
  and no custom fence (figure and calculator fences stay code blocks).

Both are timed as subprocesses (not strict: the plain twin has links only the hooks resolve);
the median of several runs is printed with the ratio.

Run: ``.venv/bin/python benchmarks/bench_site_build.py [--runs 3]``
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(PROJECT_ROOT))  # run as a script or with -m
from benchmarks.build_env import build_environment  # noqa: E402

PLAIN_CONFIG = """\
site_name: Plain twin
site_url: http://127.0.0.1:8000/
theme:
  name: material
  font: false
  features: [navigation.instant, navigation.instant.progress, navigation.tracking, navigation.top, search.highlight, content.code.copy]
plugins: [search]
markdown_extensions:
  - admonition
  - attr_list
  - md_in_html
  - tables
  - toc:
      permalink: true
  - pymdownx.details
  - pymdownx.superfences
"""


def plain_twin(root: Path) -> Path:
    """Write the plain project under ``root``; return its config path."""
    docs = root / "docs"
    shutil.copytree(PROJECT_ROOT / "docs", docs)
    (docs / "glossary").mkdir(exist_ok=True)
    for entry in sorted((PROJECT_ROOT / "glossary").glob("*.md")):
        shutil.copy(entry, docs / "glossary" / entry.name)
    config = root / "mkdocs.yml"
    config.write_text(PLAIN_CONFIG, encoding="utf-8")
    return config


def timed_build(config: Path, site_dir: Path) -> float:
    """Seconds for ``mkdocs build`` of ``config`` into ``site_dir``; exits on failure."""
    started = time.perf_counter()
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(config), "-d", str(site_dir)],
        cwd=config.parent,
        capture_output=True,
        text=True,
        env=build_environment(),
    )
    elapsed = time.perf_counter() - started
    if result.returncode != 0:
        raise SystemExit(f"build of {config} failed:\n{result.stdout}\n{result.stderr}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-site-build-") as tmp:
        tmp_dir = Path(tmp)
        plain = plain_twin(tmp_dir / "plain")
        site = PROJECT_ROOT / "mkdocs.yml"
        # Warm-up: caches (figures, Pyodide snapshot) and the file system.
        timed_build(site, tmp_dir / "site-out")
        timed_build(plain, tmp_dir / "plain-out")
        site_s, plain_s = [], []
        for _ in range(options.runs):
            site_s.append(timed_build(site, tmp_dir / "site-out"))
            plain_s.append(timed_build(plain, tmp_dir / "plain-out"))
    site_median, plain_median = statistics.median(site_s), statistics.median(plain_s)
    pages = len(list((PROJECT_ROOT / "glossary").glob("*.md"))) + len(list((PROJECT_ROOT / "docs").rglob("*.md")))
    print(f"warm whole-site build, median of {options.runs} ({pages} Markdown files)")
    print(f"  site (all hooks)  {site_median:6.2f} s   runs: {', '.join(f'{s:.2f}' for s in site_s)}")
    print(f"  plain MkDocs      {plain_median:6.2f} s   runs: {', '.join(f'{s:.2f}' for s in plain_s)}")
    print(f"  ratio             {site_median / plain_median:6.2f}x")


if __name__ == "__main__":
    main()
