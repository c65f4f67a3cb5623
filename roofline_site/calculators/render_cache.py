"""Rendered calculators kept between builds, so a warm build does not compute and lay them out again.

What a calculator fence becomes depends on its body, where it sits (its DOM id and the URLs it
is given, which name the page's place, the hashed Pyodide files and the published address) and
the code: :mod:`roofline_core` (formulas, presets, definitions, data version), this package and
the fence parser. The key is a SHA-256 of all of them, so any change to one renders afresh.
Resolving and rendering the site's 32 calculators took about a twentieth of a warm build.

Each entry is a JSON file in ``.cache/calculators/``: the page's HTML for the fence, on a term
page the calculator's own file (:mod:`.later`), and the CSV files its download links name. Written atomically; a missing, unreadable or
foreign file is a miss.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from roofline_core.version import data_version, package_digest, source_digest
from roofline_site.atomic_write import write_atomic
from roofline_site.node_artifacts import input_key

CACHE_DIR_NAME = ".cache/calculators"
_CODE_DIRS = (Path(__file__).resolve().parent, Path(__file__).resolve().parent.parent / "fences")


@cache
def rendering_code_digest() -> str:
    """SHA-256 of the code a calculator's HTML depends on (see the module)."""
    parts = [package_digest(), data_version(), *(source_digest(directory) for directory in _CODE_DIRS)]
    return input_key(part.encode() for part in parts)


@dataclass(frozen=True)
class Rendered:
    """What a fence became: the page's HTML, on a term page its file ``(name, bytes)``, and the
    files its download links name (``(site path, bytes)`` pairs: the CSV of its table and chart)."""

    html: str
    fragment: tuple[str, bytes] | None = None
    files: tuple[tuple[str, bytes], ...] = ()


@dataclass(frozen=True)
class RenderCache:
    """Rendered calculators in ``directory`` (None: keep nothing, as a bare test project does)."""

    directory: Path | None

    @staticmethod
    def key(**inputs: object) -> str:
        """The key of a fence's rendering from everything it depends on besides the code."""
        payload = json.dumps(inputs, sort_keys=True, ensure_ascii=False, default=str)
        return input_key([rendering_code_digest().encode(), payload.encode("utf-8", "surrogatepass")])[:32]

    def get(self, key: str) -> Rendered | None:
        if self.directory is None:
            return None
        try:
            record = json.loads((self.directory / f"{key}.json").read_text(encoding="utf-8"))
            html, fragment = record["html"], record["fragment"]
            files = tuple((item["path"], item["data"].encode("utf-8")) for item in record["files"])
            if not isinstance(html, str) or not all(isinstance(path, str) for path, _ in files):
                return None
            if fragment is None:
                return Rendered(html, files=files)
            name, data = fragment["name"], fragment["data"]
            if not (isinstance(name, str) and isinstance(data, str)):
                return None
            return Rendered(html, fragment=(name, data.encode("utf-8")), files=files)
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def put(self, key: str, rendered: Rendered) -> None:
        if self.directory is None:
            return
        fragment = rendered.fragment
        record = {
            "html": rendered.html,
            "fragment": {"name": fragment[0], "data": fragment[1].decode("utf-8")} if fragment else None,
            "files": [{"path": path, "data": data.decode("utf-8")} for path, data in rendered.files],
        }
        write_atomic(self.directory / f"{key}.json", json.dumps(record, ensure_ascii=False).encode("utf-8"))
