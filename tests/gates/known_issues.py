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


KNOWN_ISSUES: tuple[KnownIssue, ...] = (
    KnownIssue(
        key="embed-page-material-header",
        owner="calc (site_assets/overrides/calculator-embed.html)",
        pages="embed/*",
        kind="page_errors",
        text='Missing element: expected "[data-md-component=header]" to be present',
        fix="the embed template empties Material's header block, and Material's bundle throws on every "
        "embed page; keep an element with data-md-component=\"header\" (it may be visually minimal)",
    ),
    KnownIssue(
        key="embed-page-ignores-dark-preference",
        owner="calc (site_assets/overrides/calculator-embed.html)",
        pages="embed/*",
        kind="palette",
        text="palette not applied",
        fix="without the header's palette form the embed stays light when the reader prefers dark; "
        "keep the palette component (hidden) or declare embeds light-only and exempt them here",
    ),
    KnownIssue(
        key="calculator-output-label-contrast",
        owner="calc (site_assets/calculators/calculators.css, .roofline-calc__output dt)",
        pages="*",
        kind="axe",
        text="color-contrast at ['.roofline-calc__output",
        fix="output labels use --md-default-fg-color--light on --md-code-bg-color: 4.47:1 (#717171 on "
        "#f5f5f5), under WCAG AA's 4.5:1; use --md-default-fg-color (or a darker grey)",
    ),
)


def known_issue(page: str, kind: str, finding: str) -> KnownIssue | None:
    """The known issue a finding belongs to, if any."""
    return next((issue for issue in KNOWN_ISSUES if issue.matches(page, kind, finding)), None)
