"""Write the service worker's manifest into ``sw.js`` (roofline_site.offline_manifest).

After every hook that writes files into the site (it is listed after them in ``mkdocs.yml``)
and before the precompressed copies are made.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

from mkdocs.exceptions import PluginError

from roofline_site.offline_manifest import offline_manifest, service_worker_text

# Hooks ---------------------------------------------------------------------------------


def on_post_build(config) -> None:
    site_dir = Path(config.site_dir)
    worker = site_dir / "sw.js"
    if not worker.is_file():
        return
    try:
        text = service_worker_text(
            worker.read_text(encoding="utf-8"),
            offline_manifest(site_dir, base_path=urlsplit(config.site_url or "/").path),
        )
    except ValueError as exc:
        raise PluginError(str(exc)) from None
    worker.write_text(text, encoding="utf-8")
