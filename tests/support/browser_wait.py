"""Waiting on a condition a page can only answer asynchronously."""

from __future__ import annotations

import time

import pytest

#: How long a browser test waits before a page counts as hung (a runtime that never answers, a
#: service worker that never activates): a bound on a hang, not on speed. A busy 2-core machine
#: stretches a calculator's boot to tens of seconds, and a new service worker's activation took
#: more than 20 s once in a full run (8.5 s with two other processes busy).
HANG_MS = 60_000
HANG_S = HANG_MS / 1000


def wait_for_async(page, expression: str, arg=None, *, timeout_s: float = HANG_S, what: str = "") -> None:
    """Poll ``expression`` (a page function that may return a promise, e.g. one asking
    ``caches``) until it resolves truthy. Playwright's ``wait_for_function`` does not await a
    returned promise: a promise is truthy, so it would return at once."""
    deadline = time.monotonic() + timeout_s
    while not page.evaluate(expression, arg):
        if time.monotonic() > deadline:
            pytest.fail(f"timed out after {timeout_s:.0f} s waiting for {what or expression}")
        page.wait_for_timeout(100)
