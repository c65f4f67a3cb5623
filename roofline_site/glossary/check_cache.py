"""Remember which entries passed their own checks, so a warm build does not check them again.

An entry's own checks (its body's safety, its prose: typed figures, scenarios that must fit,
scaffold text) depend only on its file, where it lives and the code that checks it, which
includes every formula and preset (:mod:`roofline_core`, for the scenarios), the Python whose
Unicode tables the name checks read, and the build's configuration (every cache key mixes it
in, :func:`roofline_site.node_artifacts.input_key`). The key is a SHA-256 of all of them; an entry whose key is on record passed those checks under the same code
and is not checked again. Only passes are recorded: an entry with a problem is checked every
time, so its messages are always fresh. Checks between entries (links, related terms, names)
always run, since they depend on the whole glossary.

The record is a JSON list of keys in ``.cache/glossary-checks/``, one file per code version,
written atomically; a missing, unreadable or foreign file means "nothing on record".
"""

from __future__ import annotations

import json
import sys
import unicodedata
from dataclasses import dataclass, field
from functools import cache
from importlib import metadata
from pathlib import Path

from roofline_core.version import package_digest, source_digest
from roofline_site.atomic_write import write_atomic
from roofline_site.node_artifacts import input_key

GLOSSARY_CODE_DIR = Path(__file__).resolve().parent
CACHE_DIR_NAME = ".cache/glossary-checks"
# Keys on record beyond this are dropped oldest first, so the file stays small.
MAX_KEYS = 20_000


# The prose checks render the body with Python-Markdown and these extensions.
RENDERING_PACKAGES = ("markdown", "pymdown-extensions", "pyyaml")


@cache
def checking_code_digest() -> str:
    """SHA-256 of the checking code: this package, roofline_core (formulas, presets), the
    versions of the packages that parse and render a body, and Python's (its Unicode tables
    decide which names look alike)."""
    versions = ",".join(f"{name}={metadata.version(name)}" for name in RENDERING_PACKAGES)
    python = f"{sys.version}:{unicodedata.unidata_version}"
    return input_key(part.encode() for part in (source_digest(GLOSSARY_CODE_DIR), package_digest(), versions, python))


@dataclass
class CheckCache:
    """The keys of entries that passed their own checks, read from and written to ``directory``."""

    directory: Path
    _passed: dict[str, None] = field(default_factory=dict, repr=False)
    _loaded: bool = field(default=False, repr=False)
    _changed: bool = field(default=False, repr=False)

    @property
    def path(self) -> Path:
        return self.directory / f"passed-{checking_code_digest()[:16]}.json"

    @staticmethod
    def key(text: str, *, slug: str, path: str) -> str:
        """The key of an entry: its text, its slug and how messages name it."""
        payload = json.dumps([checking_code_digest(), slug, path, text], ensure_ascii=False)
        return input_key([payload.encode("utf-8", "surrogatepass")])

    def passed(self, key: str) -> bool:
        self._load()
        return key in self._passed

    def record_pass(self, key: str) -> None:
        self._load()
        if key not in self._passed:
            self._passed[key] = None
            self._changed = True

    def save(self) -> None:
        """Write the record if anything was added (atomically; other builds may read it)."""
        if not self._changed:
            return
        keys = list(self._passed)[-MAX_KEYS:]
        self.directory.mkdir(parents=True, exist_ok=True)
        write_atomic(self.path, json.dumps(keys, separators=(",", ":")).encode())
        self._changed = False

    def _load(self) -> None:
        if self._loaded:
            return
        self._loaded = True
        try:
            keys = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return
        if isinstance(keys, list):
            self._passed.update((k, None) for k in keys if isinstance(k, str) and len(k) == 64)
