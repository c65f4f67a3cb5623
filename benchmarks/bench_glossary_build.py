"""How much the glossary hook adds to a build: synthetic glossaries of 100 and 1000 terms.

For each size N, two throw-away projects are built in the same run with the same theme:

* **glossary**: ``glossary/term-<i>.md`` entries built through ``hooks/glossary.py`` (validation,
  term pages, index, glossary.json, feed, redirects, link annotation, "Mentioned in") and
  ``hooks/template_cache.py`` and ``hooks/render_cache.py``, as the site builds them; the
  glossary hook alone is timed too, so the table shows what the two build caches give;
* **plain**: the same Markdown (front matter, body with ordinary relative links, the same
  related and source lists written out, and an index listing every term twice) as
  hand-written pages in ``docs/glossary/``, built by MkDocs with no hook. Term pages are kept
  out of the navigation in both, as the hook does.

Each entry links to three others and quotes two numbers; the plain twin has the numbers as
text. The build is timed as a subprocess (``mkdocs build``, not strict, since the plain twin
is not in a nav), and the median of several runs is printed.

Run: ``.venv/bin/python benchmarks/bench_glossary_build.py [--sizes 100 1000] [--runs 3]``
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from benchmarks.build_env import build_environment  # noqa: E402
from roofline_site.glossary.schema import CATEGORIES  # noqa: E402

PROJECT_ROOT = Path(__file__).resolve().parents[1]
HOOK = PROJECT_ROOT / "hooks" / "glossary.py"
# The site's hooks that apply to any project, in its order: compiled theme templates kept in
# .cache, the glossary, and pages' Markdown conversions kept in .cache.
SITE_HOOKS = (PROJECT_ROOT / "hooks" / "template_cache.py", HOOK, PROJECT_ROOT / "hooks" / "render_cache.py")
# The schema's own categories, so the synthetic entries stay valid as the schema changes.
CATEGORY_NAMES = tuple(CATEGORIES)


def _front(i: int, n: int) -> str:
    related = "".join(f"  - term-{(i + k) % n}\n" for k in (1, 2))
    return (
        "---\n"
        f"title: Term {i}\n"
        f"category: {CATEGORY_NAMES[i % len(CATEGORY_NAMES)]}\n"
        f"summary: Synthetic term number {i}, used to time the glossary build.\n"
        "aliases:\n"
        f"  - Synthetic {i}\n"
        "related:\n"
        f"{related}"
        "sources:\n"
        "  - title: A source\n"
        "    url: https://example.org/source\n"
        "added: 2026-01-01\n"
        "---\n"
    )


def _body(i: int, n: int, *, glossary: bool) -> str:
    a, b, c = ((i + k) % n for k in (1, 7, 31))
    if glossary:
        links = f"[[term-{a}]], [[term-{b}|the term {b}]] and [term {c}](term-{c}.md)"
        numbers = "{{ ridge_point accelerator=h100-sxm }} and {{ decode_step_time params=8e9 accelerator=h100-sxm }}"
    else:
        links = f"[Term {a}](term-{a}.md), [the term {b}](term-{b}.md) and [term {c}](term-{c}.md)"
        numbers = "295 FLOP/byte and 4.78 ms"
    paragraph = (
        "Synthetic prose to give each page a realistic length. The roofline bounds throughput by "
        "compute or memory bandwidth, whichever is lower for the operation's intensity. "
    ) * 4
    return (
        f"Term {i} is defined here; see {links}. Its numbers: {numbers}.\n\n"
        f"## Why it matters\n\n{paragraph}\n\n## The numbers\n\n{paragraph}\n"
    )


def _plain_extras(i: int, n: int) -> str:
    # What the hook adds to a term page, written by hand so both builds render as much Markdown.
    return (
        "\n## Related terms\n\n"
        + "".join(f"- [Term {(i + k) % n}](term-{(i + k) % n}.md)\n" for k in (1, 2))
        + "\n## Sources\n\n- [A source](https://example.org/source)\n"
    )


def make_projects(root: Path, n: int) -> tuple[Path, Path]:
    """Write the glossary and plain projects for ``n`` terms; return their folders.

    The glossary project has two configurations: ``mkdocs.yml`` (the site's hooks) and
    ``glossary-only.yml`` (the glossary hook alone).
    """
    config = "site_name: Bench\nsite_url: https://example.org/\ntheme:\n  name: material\n  font: false\n"
    glossary_project, plain_project = root / "glossary-project", root / "plain-project"
    for project in (glossary_project, plain_project):
        (project / "docs").mkdir(parents=True)
        (project / "docs" / "index.md").write_text("# Home\n", encoding="utf-8")
    (glossary_project / "mkdocs.yml").write_text(
        config + "hooks:\n" + "".join(f"  - {hook.as_posix()}\n" for hook in SITE_HOOKS),
        encoding="utf-8",
    )
    (glossary_project / "glossary-only.yml").write_text(config + f"hooks:\n  - {HOOK.as_posix()}\n", encoding="utf-8")
    # Term pages stay out of the navigation in both projects (the hook marks them not-in-nav);
    # a 1000-entry nav rendered on every page would dominate the plain build otherwise.
    (plain_project / "mkdocs.yml").write_text(
        config
        + "markdown_extensions:\n  - attr_list\n  - md_in_html\n  - toc\n"
        + "nav:\n  - Home: index.md\n  - Glossary: glossary/index.md\n"
        + "not_in_nav: |\n  /glossary/term-*.md\n",
        encoding="utf-8",
    )
    (glossary_project / "glossary").mkdir()
    (plain_project / "docs" / "glossary").mkdir()
    for i in range(n):
        (glossary_project / "glossary" / f"term-{i}.md").write_text(
            _front(i, n) + _body(i, n, glossary=True), encoding="utf-8"
        )
        (plain_project / "docs" / "glossary" / f"term-{i}.md").write_text(
            _front(i, n) + _body(i, n, glossary=False) + _plain_extras(i, n), encoding="utf-8"
        )
    # The hook makes an index listing every term twice (by category, A-Z); the twin gets one too.
    listing = "".join(f"- [Term {i}](term-{i}.md) Synthetic term number {i}.\n" for i in range(n))
    (plain_project / "docs" / "glossary" / "index.md").write_text(
        f"# Glossary\n\n## By category\n\n{listing}\n## A-Z\n\n{listing}", encoding="utf-8"
    )
    return glossary_project, plain_project


def time_build(project: Path, config_name: str = "mkdocs.yml") -> float:
    env = build_environment()
    start = time.perf_counter()
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "mkdocs",
            "build",
            "--quiet",
            "--config-file",
            str(project / config_name),
            "--site-dir",
            str(project / "site"),
        ],
        env=env,
        capture_output=True,
        text=True,
    )
    elapsed = time.perf_counter() - start
    if result.returncode != 0:
        raise SystemExit(f"build of {project} failed:\n{result.stdout}\n{result.stderr}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 1000])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    print(f"mkdocs build wall time, median of {args.runs} runs (each a fresh process)")
    print(f"{'terms':>6}  {'build':<36}  {'median':>7}  {'overhead':>9}  {'per term':>9}  {'ratio':>6}")
    for n in args.sizes:
        with tempfile.TemporaryDirectory(prefix="bench-glossary-") as tmp:
            glossary_project, plain_project = make_projects(Path(tmp), n)
            builds = {
                "plain MkDocs": (plain_project, "mkdocs.yml"),
                "glossary hook alone": (glossary_project, "glossary-only.yml"),
                "as the site builds (+ build caches)": (glossary_project, "mkdocs.yml"),
            }
            # One build of each first: the glossary's check cache (.cache/glossary-checks), the
            # compiled templates and the OS's file cache warm up, so the timed builds are warm.
            cold = {name: time_build(*build) for name, build in builds.items()}
            times: dict[str, list[float]] = {name: [] for name in builds}
            for _ in range(args.runs):  # interleaved, so drift affects all alike
                for name, build in builds.items():
                    times[name].append(time_build(*build))
            site = glossary_project / "site"
            assert (site / "glossary" / f"term-{n - 1}" / "index.html").exists()
            assert (site / "glossary" / "synthetic-0" / "index.html").exists()  # alias redirect
            plain = statistics.median(times["plain MkDocs"])
            for name in builds:
                median = statistics.median(times[name])
                print(
                    f"{n:>6}  {name:<36}  {median:>6.2f}s  {median - plain:>+8.2f}s"
                    f"  {(median - plain) / n * 1000:>7.1f}ms  {median / plain:>5.2f}x   (cold: {cold[name]:.2f}s)"
                )


if __name__ == "__main__":
    main()
