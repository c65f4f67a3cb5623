"""Ship the site's strict Content-Security-Policy as host configuration (a ``_headers`` file).

The policy itself, and the hashing of Material's inline bootstrap scripts, live in
``roofline_site.csp``. The hashes can only be known once every page is rendered, so the file is
written in ``on_post_build`` (as the search plugin writes its index), after every other
plugin and hook has written its pages (redirect pages included): hence the low priority.
"""

from __future__ import annotations

from pathlib import Path

from mkdocs.plugins import event_priority

from roofline_site import csp

HEADERS_FILE = "_headers"

# Hooks ---------------------------------------------------------------------------------


@event_priority(-100)
def on_post_build(config) -> None:
    _write_headers(Path(config.site_dir))


# Helper functions ----------------------------------------------------------------------


def _write_headers(site_dir: Path) -> None:
    found = csp.scan_site(site_dir)
    policy = csp.policy(
        script_hashes=found.script_hashes,
        style_hashes=found.style_hashes,
        style_attributes=bool(found.style_attributes),
    )
    (site_dir / HEADERS_FILE).write_text(csp.headers_file(policy), encoding="utf-8")
