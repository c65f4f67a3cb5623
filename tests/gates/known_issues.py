"""Gate failures that are known, owned by someone, and waiting for their fix.

Each entry matches precisely (pages, what kind of finding, the finding's text) and names who
owns the fix and what it is. The gates leave matching findings out; ``test_known_issues.py``
fails as soon as an entry matches nothing any more, so a fixed issue must be removed here and
the gate is strict again. Keep this list short: it is a queue, not a place to hide things.
"""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass


@dataclass(frozen=True)
class KnownIssue:
    """A finding the gates expect until its owner fixes it.

    Attributes:
        key: Short name.
        owner: Who fixes it (branch or area).
        pages: Glob of site pages it concerns (``embed/*``).
        kind: ``axe``, ``palette``, ``page_errors`` or ``console_errors``.
        text: Substring the finding must contain (rule id and target for ``axe``).
        fix: What the owner should change.
    """

    key: str
    owner: str
    pages: str
    kind: str
    text: str
    fix: str

    def matches(self, page: str, kind: str, finding: str) -> bool:
        return kind == self.kind and fnmatch.fnmatch(page, self.pages) and self.text in finding


KNOWN_ISSUES: tuple[KnownIssue, ...] = ()


def known_issue(page: str, kind: str, finding: str) -> KnownIssue | None:
    """The known issue a finding belongs to, if any."""
    return next((issue for issue in KNOWN_ISSUES if issue.matches(page, kind, finding)), None)
