"""Every entry of known_issues.py still happens; once one is fixed, remove it (the gates then
hold the fix in place)."""

from __future__ import annotations

import pytest

from tests.gates.conftest import PALETTES, axe_findings
from tests.gates.known_issues import KNOWN_ISSUES

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.mark.parametrize("issue", KNOWN_ISSUES, ids=[issue.key for issue in KNOWN_ISSUES])
def test_known_issue_still_occurs(issue, site_visits):
    seen = False
    for visit in site_visits:
        findings = {
            "axe": axe_findings(visit),
            "palette": [] if visit.scheme_seen == PALETTES[visit.palette] else ["palette not applied"],
            "page_errors": visit.page_errors,
            "console_errors": visit.console_errors,
        }[issue.kind]
        seen = seen or any(issue.matches(visit.page, issue.kind, finding) for finding in findings)
    assert seen, f"known issue '{issue.key}' no longer occurs: remove it from tests/gates/known_issues.py ({issue.fix})"
