"""The "Edit this page" and "Suggest a term" links of a term page.

They point at the project's repository (``extra.repository`` and ``extra.repository_branch`` in
``mkdocs.yml``) using GitHub's URL scheme. They are plain links written at build time: loading
a term page asks nothing of the repository's host. (Material's ``repo_url`` would fetch the
repository's stars and forks from GitHub on every page, which the site's policy forbids.)
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

#: The issue form behind "Suggest a term" (``.github/ISSUE_TEMPLATE/<this>``).
SUGGEST_TERM_TEMPLATE = "suggest-a-term.yml"
#: Class of the paragraph holding the two links (styled in glossary.css).
LINKS_CLASS = "glossary-contribute"

# An https address with a host and a path, and nothing that could end an attribute or a URL
# early: the value comes from an environment variable at build time, so it is checked, not trusted.
_REPOSITORY_URL = re.compile(r"https://[A-Za-z0-9.-]+(?::[0-9]+)?(?:/[A-Za-z0-9._~-]+)+/?")
# Git allows more in branch names, but these characters need no escaping in a URL path; no part
# may start with '.' (git refuses that too), so '..' cannot climb out of the edit URL's path.
_BRANCH = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9._-]*(?:/[A-Za-z0-9_-][A-Za-z0-9._-]*)*")


@dataclass(frozen=True)
class Repository:
    """Where the glossary's sources live.

    Attributes:
        url: The repository's address, e.g. ``https://github.com/<owner>/roofline-glossary``,
            without a trailing slash.
        branch: The branch edits are proposed against, e.g. ``main``.
    """

    url: str
    branch: str

    @classmethod
    def from_settings(cls, url: object, branch: object) -> Repository:
        """Check the two settings as ``mkdocs.yml`` gives them.

        Raises:
            ValueError: naming the setting, what it expects and what it received.
        """
        if not isinstance(url, str) or not _REPOSITORY_URL.fullmatch(url):
            raise ValueError(
                "extra.repository: expected the repository's https address, "
                f"e.g. https://github.com/<owner>/roofline-glossary, but received {url!r}"
            )
        if not isinstance(branch, str) or not _BRANCH.fullmatch(branch):
            raise ValueError(
                "extra.repository_branch: expected a branch name of letters, digits, '.', '_', '-' "
                f"and '/' (no part starting with '.'), e.g. main, but received {branch!r}"
            )
        return cls(url=url.rstrip("/"), branch=branch)

    def edit_url(self, path: str) -> str:
        """GitHub's editor for ``path`` (relative to the repository's root) on the branch."""
        return f"{self.url}/edit/{self.branch}/{path}"

    def suggest_term_url(self) -> str:
        """A new issue opened with the "Suggest a term" form."""
        return f"{self.url}/issues/new?template={SUGGEST_TERM_TEMPLATE}"


def links_html(repository: Repository, *, entry_path: str) -> str:
    """The paragraph with both links, for the term whose source file is ``entry_path``.

    Args:
        repository: Where the sources live.
        entry_path: The entry's file relative to the repository's root, e.g. ``glossary/kv-cache.md``.
    """
    e = html.escape
    return (
        # Out of the search index: a term's search text is its summary, aliases and body.
        f'<p class="{LINKS_CLASS}" data-search-exclude>'
        f'<a href="{e(repository.edit_url(entry_path))}" data-glossary-role="edit">Edit this page</a>'
        f' · <a href="{e(repository.suggest_term_url())}" data-glossary-role="suggest">Suggest a term</a></p>\n'
    )
