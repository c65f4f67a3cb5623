"""Small files written by a second process while the build renders pages on this one.

Making a directory and a small file in a freshly cleaned site costs this machine's kernel about
a millisecond each, all of it CPU time. The glossary writes a redirect page, in a directory of
its own, for every alias and old slug (228 for 85 terms), and that alone was about a sixth of a
warm build. MkDocs renders pages on one core; a child process can make those files on another
at the same time. A thread cannot: each system call hands the interpreter lock back and forth
with the rendering thread, which holds it for milliseconds at a time.

The child is this file run as a script, with the standard library alone (``-I -S``): it reads
its list of files from a temporary JSON file, deletes that file, and writes each one under the
site directory (text given, or a copy of a file such as a cached link card). :meth:`PendingWrites.wait` must be called before the build ends (the hook does
it first thing in ``on_post_build``); it raises with the child's own error message if any write
failed. If no child can be started, the files are written here, at once.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath


class BackgroundWriteError(RuntimeError):
    """The child process could not write every file."""


@dataclass
class PendingWrites:
    """Files being written by a child process (``process`` is None once written or if written here)."""

    root: Path
    count: int
    process: subprocess.Popen | None

    def wait(self) -> None:
        """Block until every file is written.

        Raises:
            BackgroundWriteError: with the child's message, if it failed.
        """
        if self.process is None:
            return
        _stdout, stderr = self.process.communicate()
        code, self.process = self.process.returncode, None
        if code != 0:
            message = stderr.decode("utf-8", "replace").strip().splitlines()
            raise BackgroundWriteError(
                f"writing {self.count} files under {self.root} failed: {message[-1] if message else f'exit code {code}'}"
            )


def wait_all(pending: list[PendingWrites], *, quietly: bool = False) -> None:
    """Wait for every child in ``pending``, emptying it (a hook keeps one list per build).

    Raises:
        BackgroundWriteError: the first failure, once all are done (unless ``quietly``: a build
            that failed earlier only lets its writers finish).
    """
    failure: BackgroundWriteError | None = None
    while pending:
        try:
            pending.pop().wait()
        except BackgroundWriteError as exc:
            failure = failure or exc
    if failure is not None and not quietly:
        raise failure


def start_writing(
    root: Path, *, texts: Mapping[str, str] | None = None, copies: Mapping[str, Path] | None = None
) -> PendingWrites:
    """Start writing files under ``root``: ``texts`` maps a site-relative POSIX path to UTF-8
    text, ``copies`` to a file whose bytes it gets.

    Raises:
        ValueError: if a path is absolute or leaves ``root`` (checked here, before anything runs).
    """
    texts, copies = texts or {}, copies or {}
    for relative in (*texts, *copies):
        _check_relative(relative)
    count = len(texts) + len(copies)
    if not count:
        return PendingWrites(root, 0, None)
    with tempfile.NamedTemporaryFile("w", encoding="utf-8", suffix=".json", delete=False) as payload:
        json.dump({"root": str(root), "texts": dict(texts), "copies": {k: str(v) for k, v in copies.items()}}, payload)
    try:
        process = subprocess.Popen(
            [sys.executable, "-I", "-S", __file__, payload.name],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
    except OSError:
        _write_payload(Path(payload.name))
        return PendingWrites(root, count, None)
    return PendingWrites(root, count, process)


def _check_relative(relative: str) -> None:
    path = PurePosixPath(relative)
    if path.is_absolute() or ".." in path.parts or not path.parts:
        raise ValueError(f"{relative!r}: expected a path inside the site directory")


def _write_payload(payload_path: Path) -> None:
    payload = json.loads(payload_path.read_text(encoding="utf-8"))
    payload_path.unlink()
    root = Path(payload["root"])
    for relative, text in payload["texts"].items():
        _target(root, relative).write_bytes(text.encode("utf-8"))
    for relative, source in payload["copies"].items():
        shutil.copyfile(source, _target(root, relative))


def _target(root: Path, relative: str) -> Path:
    _check_relative(relative)
    target = root / relative
    target.parent.mkdir(parents=True, exist_ok=True)
    return target


if __name__ == "__main__":
    # The child: its only argument is the payload written by start_writing.
    _write_payload(Path(sys.argv[1]))
