"""Hand-written pages (``docs/``) that use the glossary: their term links and quantities.

Every page is checked before any renders, so one build reports every broken link at once (and,
as in entries, every worked example its devices cannot hold and every sentence whose words
about a number's parts the number contradicts: see :mod:`.composition`); then
each page's ``[[slug]]`` links and ``{{ quantity }}`` numbers are rewritten as it renders. A
hand-written page is trusted (it is reviewed like code), so its numbers get their wrapper straight
away, where an entry's are marked for the sanitiser first (:mod:`.reproduce`).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from roofline_site.glossary import reproduce
from roofline_site.glossary.errors import GlossaryError, Problem
from roofline_site.glossary.markup import Rewritten, rewrite
from roofline_site.glossary.prose_checks import find_contradicted_composition, find_unfit_scenarios
from roofline_site.glossary.validator import Glossary, check_relative_links


def display_path(docs_dir: Path, project_root: Path, src_uri: str) -> str:
    """How a contributor names a page in an error: ``docs/index.md``, relative to the project
    where the docs folder is inside it."""
    docs = docs_dir.resolve()
    try:
        prefix = docs.relative_to(project_root).as_posix()
    except ValueError:
        prefix = docs.as_posix()
    return f"{prefix}/{src_uri}"


def check(pages: Iterable[tuple[str, str, str]], glossary: Glossary) -> None:
    """Check every page's term links, quantities and relative links into the glossary.

    Args:
        pages: ``(src_uri, display path, text)`` per page.

    Raises:
        GlossaryError: with every problem in every page.
    """
    problems: list[Problem] = []
    slugs = set(glossary.entries)
    for src_uri, path, text in pages:
        problems += rewrite(
            text, path=path, src_uri=src_uri, first_line=1, titles=glossary.titles, suggest=glossary.suggest
        ).problems
        problems += check_relative_links(text, path=path, src_uri=src_uri, first_line=1, slugs=slugs)
        # The prose checks that hold for any page: a worked example must run, and words about
        # a number's parts must match them. (Hand-typed figures stay allowed here: a page such
        # as docs/hosting.md states file sizes, and the generated reference tables quote outputs.)
        problems += find_unfit_scenarios(text, path=path, first_line=1)
        problems += find_contradicted_composition(text, path=path, first_line=1)
    if problems:
        raise GlossaryError(problems)


def rewrite_page(markdown: str, *, source: str, src_uri: str, path: str, glossary: Glossary) -> Rewritten:
    """A page's Markdown with its term links and quantities rewritten.

    Args:
        markdown: The page's Markdown with its front matter cut off.
        source: The whole file (to count the lines cut, so errors name the file's lines).

    Raises:
        GlossaryError: if a link or quantity is wrong (``check`` has seen them all already).
    """
    first_line = 1 + source.count("\n") - markdown.count("\n") if source.endswith(markdown) else 1
    result = rewrite(
        markdown,
        path=path,
        src_uri=src_uri,
        first_line=first_line,
        titles=glossary.titles,
        suggest=glossary.suggest,
        mark=reproduce.wrapped,
    )
    if result.problems:
        raise GlossaryError(result.problems)
    return result


def read_pages(docs_dir: Path, project_root: Path) -> list[tuple[str, str, str]]:
    """``(src_uri, display path, text)`` of every Markdown page under ``docs_dir``, as
    :func:`check` takes them: what ``python -m roofline_site.glossary check`` checks without
    MkDocs."""
    return [
        (
            file.relative_to(docs_dir).as_posix(),
            display_path(docs_dir, project_root, file.relative_to(docs_dir).as_posix()),
            file.read_text(encoding="utf-8"),
        )
        for file in sorted(docs_dir.rglob("*.md"))
    ]
