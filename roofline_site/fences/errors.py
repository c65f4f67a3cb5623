"""The one error type for a mistake in authored content: where it is, what is wrong, what to write."""

from __future__ import annotations


class LocatedError(ValueError):
    """A mistake in a page, located at its file and line as the author's editor shows them.

    ``str(error)`` is ``"<path>:<line>: <problem>; expected <expected>"``, or
    ``"<path>: <problem>; expected <expected>"`` when no single line is to blame.

    Attributes:
        path: The file as messages name it (``docs/figures.md``, ``glossary/roofline.md``).
        line: 1-based line in that file, or ``None``.
        problem: What is wrong.
        expected: What would be accepted.
    """

    def __init__(self, path: str, line: int | None, problem: str, expected: str) -> None:
        self.path = path
        self.line = line
        self.problem = problem
        self.expected = expected
        where = path if line is None else f"{path}:{line}"
        super().__init__(f"{where}: {problem}; expected {expected}")
