"""Waiting on a condition a page can only answer asynchronously."""

from __future__ import annotations

import time

import pytest


def wait_for_async(page, expression: str, arg=None, *, timeout_s: float = 20, what: str = "") -> None:
    """Poll ``expression`` (a page function that may return a promise, e.g. one asking
    ``caches``) until it resolves truthy. Playwright's ``wait_for_function`` does not await a
    returned promise: a promise is truthy, so it would return at once."""
    deadline = time.monotonic() + timeout_s
    while not page.evaluate(expression, arg):
        if time.monotonic() > deadline:
            pytest.fail(f"timed out after {timeout_s:.0f} s waiting for {what or expression}")
        page.wait_for_timeout(100)
