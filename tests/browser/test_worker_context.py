"""The worker's shared browser context (tests/conftest.py) lends pages with site data of their
own: what one test's page stored is gone for the next, and two pages of one test share none."""

from __future__ import annotations

import pytest

from tests.conftest import clear_site_data

pytestmark = pytest.mark.browser

_STORE = """async () => {
  localStorage.setItem('left', 'behind');
  document.cookie = 'left=behind; path=/';
  await (await caches.open('left')).put('/left-behind', new Response('x'));
  await new Promise((resolve, reject) => {
    const open = indexedDB.open('left', 1);
    open.onupgradeneeded = () => open.result.createObjectStore('s');
    open.onsuccess = () => { open.result.close(); resolve(); };
    open.onerror = () => reject(open.error);
  });
}"""

_FOUND = """async () => {
  const found = [];
  if (localStorage.getItem('left') !== null) found.push('local storage');
  if (document.cookie.includes('left=behind')) found.push('cookie');
  if ((await caches.keys()).includes('left')) found.push('Cache Storage');
  if ((await indexedDB.databases()).some((d) => d.name === 'left')) found.push('IndexedDB');
  return found;
}"""

ALL = ["local storage", "cookie", "Cache Storage", "IndexedDB"]


def _stored_then_found(worker_context, site_server: str, *, clear: bool) -> list[str]:
    context, _keeper, session = worker_context
    page = context.new_page()
    page.goto(site_server, wait_until="load")
    page.evaluate(_STORE)
    page.close()
    if clear:
        clear_site_data(session, {site_server.rstrip("/")})
    page = context.new_page()
    try:
        page.goto(site_server, wait_until="load")
        return page.evaluate(_FOUND)
    finally:
        page.close()
        clear_site_data(session, {site_server.rstrip("/")})


def test_what_a_page_stored_stays_in_the_context_until_cleared(worker_context, site_server):
    # Without the clearing, every kind of site data outlives the page (so the next check can fail).
    assert _stored_then_found(worker_context, site_server, clear=False) == ALL


def test_clearing_leaves_the_next_page_no_site_data(worker_context, site_server):
    assert _stored_then_found(worker_context, site_server, clear=True) == []


def test_a_tests_pages_share_no_site_data(page_factory, site_server):
    first, _ = page_factory()
    first.goto(site_server, wait_until="load")
    first.evaluate(_STORE)
    second, _ = page_factory()
    second.goto(site_server, wait_until="load")
    assert second.evaluate(_FOUND) == []


# The next two run in this order on one worker (tests/conftest.py keeps a module on one): the
# first leaves site data behind in the page it was lent, the second is lent the next page.
def test_a_lent_page_stores_site_data(page_factory, site_server):
    page, _ = page_factory()
    page.goto(site_server, wait_until="load")
    page.evaluate(_STORE)
    assert page.evaluate(_FOUND) == ALL


def test_the_next_tests_lent_page_finds_none_of_it(page_factory, site_server):
    page, _ = page_factory()
    page.goto(site_server, wait_until="load")
    assert page.evaluate(_FOUND) == []
