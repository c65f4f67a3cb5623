"""Problems found in glossary content, located by file and line.

A :class:`Problem` is data, not an exception: the validator collects every problem in every
entry, so a contributor sees them all at once. :class:`GlossaryError` carries them to the build,
which prints one line per problem in the form the issue asks for::

    glossary/kv-cache.md:4: field 'category': unknown category 'silicon'; expected one of hardware, ...
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, order=True)
class Problem:
    """One thing wrong in one file.

    Attributes:
        path: The file as a contributor names it, relative to the project (``glossary/x.md``).
        line: 1-based line in that file.
        what: What is wrong.
        expected: What is expected instead.
        draft: Whether it is only a scaffold placeholder left in place: ``mkdocs serve`` previews
            such an entry as a draft, ``mkdocs build`` refuses it like any other problem.
    """

    path: str
    line: int
    what: str
    expected: str
    draft: bool = field(default=False, compare=False)

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.what}; {self.expected}"


class GlossaryError(Exception):
    """The glossary (or a page linking into it) cannot be built; holds every problem found."""

    def __init__(self, problems: list[Problem]) -> None:
        if not problems:
            raise ValueError("GlossaryError needs at least one problem")
        self.problems = sorted(set(problems))
        super().__init__("\n".join(str(p) for p in self.problems))
