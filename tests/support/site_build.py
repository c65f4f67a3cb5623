"""Build the real site (or a fixture project) with ``mkdocs build --strict`` into a folder."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

from roofline_site.atomic_write import exclusive_lock

PROJECT_ROOT = Path(__file__).resolve().parents[2]


def mkdocs_build(
    config_file: Path,
    site_dir: Path,
    *,
    strict: bool = True,
    cwd: Path | None = None,
    env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess:
    """Run ``mkdocs build`` in a subprocess, as a contributor would, and return the result.

    The caller asserts on ``returncode``, ``stdout`` and ``stderr``. ``env`` adds to (or
    overrides) the environment, e.g. ``{"SITE_URL": ...}``.
    """
    args = [sys.executable, "-m", "mkdocs", "build", "--config-file", str(config_file), "--site-dir", str(site_dir)]
    if strict:
        args.append("--strict")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", **(env or {})}
    return subprocess.run(args, cwd=cwd or config_file.parent, env=env, capture_output=True, text=True, timeout=600)


def shared_run_dir(tmp_path_factory) -> Path:
    """A folder every process of this test run sees: the run's base temp folder, or, under
    pytest-xdist, the folder above each worker's own (``pytest-N/`` above ``popen-gw0/``)."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def shared_build(tmp_path_factory, name: str, config_file: Path, **kwargs) -> tuple[Path, subprocess.CompletedProcess]:
    """Build ``config_file`` once per test run into ``<run dir>/<name>``, whichever worker asks first.

    The first caller builds under an exclusive lock and records the result; the others wait on
    the lock and get that recorded result (a failed build fails every worker with the same
    output, instead of being retried). ``kwargs`` go to :func:`mkdocs_build`.

    Returns:
        The site folder and the build's result.
    """
    run_dir = shared_run_dir(tmp_path_factory)
    site_dir = run_dir / name
    record = run_dir / f"{name}.result.json"
    with exclusive_lock(run_dir / f"{name}.lock"):
        if not record.is_file():
            result = mkdocs_build(config_file, site_dir, **kwargs)
            fields = {"returncode": result.returncode, "stdout": result.stdout, "stderr": result.stderr}
            record.write_text(json.dumps({"args": result.args, **fields}), encoding="utf-8")
        saved = json.loads(record.read_text(encoding="utf-8"))
    return site_dir, subprocess.CompletedProcess(**saved)


def measured_build(config_file: Path, site_dir: Path) -> tuple[int, str, float, int]:
    """``(return code, output, CPU seconds, peak resident bytes)`` of ``mkdocs build --strict``,
    run under a child process of its own so that its CPU time and peak memory are its own.

    CPU time (user + system, the build's processes together) rather than wall time: a bound on
    it holds however busy the machine is, and still catches a build that hangs in a slow parse.
    """
    code = (
        "import resource, subprocess, sys\n"
        "result = subprocess.run(sys.argv[1:], capture_output=True, text=True)\n"
        "sys.stdout.write(result.stdout + result.stderr)\n"
        "usage = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
        "sys.stderr.write(f'{usage.ru_utime + usage.ru_stime} {usage.ru_maxrss * 1024}')\n"
        "sys.exit(result.returncode)\n"
    )
    args = [sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file", str(config_file)]
    result = subprocess.run(
        [sys.executable, "-c", code, *args, "--site-dir", str(site_dir)],
        cwd=config_file.parent,
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    cpu_seconds, peak_bytes = result.stderr.split()
    return result.returncode, result.stdout, float(cpu_seconds), int(peak_bytes)


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def mkdocs_serve(config_file: Path, port: int, *, cwd: Path) -> subprocess.Popen:
    """``mkdocs serve --strict`` of ``config_file`` on 127.0.0.1:``port``, as a contributor runs
    it; its output (stdout and stderr together) is readable from the returned process."""
    args = [sys.executable, "-m", "mkdocs", "serve", "--strict", "--config-file", str(config_file)]
    return subprocess.Popen(
        [*args, "--dev-addr", f"127.0.0.1:{port}"],
        cwd=cwd,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
