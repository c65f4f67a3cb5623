"""The date a build reports, taken from the commit being built, so builds are reproducible.

MkDocs dates every page (``sitemap.xml``'s ``<lastmod>`` and the gzip header of
``sitemap.xml.gz``) with the day of the build unless ``SOURCE_DATE_EPOCH`` is set
(https://reproducible-builds.org/specs/source-date-epoch/). Two builds of the same commit on
different days would then differ. The commit's own time is the honest date for its content.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path


def commit_epoch_s(project_root: Path) -> int | None:
    """Committer time of ``HEAD`` in seconds since the epoch, or None outside a git checkout.

    Raises:
        RuntimeError: when git is present and the folder is a checkout but git fails anyway.
    """
    git = shutil.which("git")
    if git is None or not (project_root / ".git").exists():
        return None
    result = subprocess.run(
        [git, "log", "-1", "--format=%ct", "HEAD"], cwd=project_root, capture_output=True, text=True, check=False
    )
    if result.returncode != 0 or not result.stdout.strip().isdigit():
        raise RuntimeError(f"{project_root}: 'git log -1 --format=%ct HEAD' failed: {result.stderr.strip()}")
    return int(result.stdout.strip())
