"""Waiting on a condition a page can only answer asynchronously."""

from __future__ import annotations

import time

import pytest

#: How long a wait may take before it counts as hung: a bound on a hang, not on speed. A new
#: service worker's install and activation took 8.5 s with two other processes busy, and more
#: than 20 s once in a full run on the 2-core machine, which then failed a passing test.
HANG_S = 90
#: The same bound for Playwright's waits, which take milliseconds.
HANG_MS = HANG_S * 1000


def wait_for_async(page, expression: str, arg=None, *, timeout_s: float = HANG_S, what: str = "") -> None:
    """Poll ``expression`` (a page function that may return a promise, e.g. one asking
    ``caches``) until it resolves truthy. Playwright's ``wait_for_function`` does not await a
    returned promise: a promise is truthy, so it would return at once."""
    deadline = time.monotonic() + timeout_s
    while not page.evaluate(expression, arg):
        if time.monotonic() > deadline:
            pytest.fail(f"timed out after {timeout_s:.0f} s waiting for {what or expression}")
        page.wait_for_timeout(100)
