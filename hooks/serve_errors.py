"""Under ``mkdocs serve`` only: a build that fails shows its error in the browser.

How MkDocs 1.6 behaves without this (``mkdocs/commands/serve.py``, ``mkdocs/livereload``):

* the first build failing ends ``mkdocs serve`` before it listens, so the browser gets nothing;
* a rebuild failing is logged ("The server will appear stuck until build errors are
  resolved"): the server has started a new version of the site that never finishes, so every
  page request waits for it and the browser hangs without a word.

This hook wraps the build function the server calls. When a build fails, the wrapper writes the
errors the build logged (``glossary/<file>.md:<line>: ...``) as a page over every page of the
served folder (:mod:`roofline_site.serve_errors`) and returns normally: the server then treats
that as the new version, live reload moves open pages onto it, and the next good build replaces
it. The terminal still shows the error. ``mkdocs build`` (CI, ``--strict``) is left alone and
fails as before.
"""

from __future__ import annotations

import logging
import traceback
from pathlib import Path

import mkdocs.commands.build
import mkdocs.commands.serve
from mkdocs.exceptions import Abort, BuildError, PluginError

from roofline_site import serve_mode
from roofline_site.serve_errors import show_build_error

log = logging.getLogger("mkdocs.hooks.serve_errors")

# Hooks


def on_startup(command, dirty):
    # MkDocs calls this once per process, with "serve" for `mkdocs serve` (and "build" for
    # `mkdocs serve --clean`, which builds as `mkdocs build` does: left alone too).
    if command == "serve":
        serve_mode.start()
        _install()


# Helper functions


def _install() -> None:
    current = mkdocs.commands.serve.build
    if getattr(current, "shows_errors", False):
        return  # installed already (the hook module is loaded again with each config)
    if current is not mkdocs.commands.build.build:
        raise PluginError(
            "hooks/serve_errors.py: mkdocs.commands.serve.build is not MkDocs' build function; "
            "expected MkDocs 1.6's serve command (requirements.lock pins it), received "
            f"{getattr(current, '__qualname__', current)!r}"
        )
    mkdocs.commands.serve.build = _build_showing_errors(current)
    logging.getLogger("mkdocs.livereload").addFilter(_requests_are_not_build_warnings)


def _requests_are_not_build_warnings(record: logging.LogRecord) -> bool:
    """MkDocs' server logs every request it does not answer with 200 as a warning, and a strict
    build counts every warning logged while it runs: a reader's refresh that lands while a
    rebuild is writing the page (a 404 for a moment) aborted that build. A request is not the
    build's: it is logged as information."""
    if record.levelno == logging.WARNING and record.getMessage().startswith('"'):
        record.levelno, record.levelname = logging.INFO, "INFO"
    return True


def _build_showing_errors(build):
    def build_or_show_error(config, **kwargs) -> None:
        collected = _Collected()
        mkdocs_log = logging.getLogger("mkdocs")
        mkdocs_log.addHandler(collected)
        try:
            build(config, **kwargs)
            return
        except Exception as exc:  # shown below and in the terminal, not swallowed
            error = exc
        finally:
            mkdocs_log.removeHandler(collected)
        messages = _messages(error, collected.messages)
        show_build_error(Path(config.site_dir), messages)
        # MkDocs' command line logs a given error only once per process, so a fix that breaks
        # again would leave the terminal silent: say it here every time.
        log.error("The build failed; the browser shows this until a build succeeds:\n%s", messages[-1])

    build_or_show_error.shows_errors = True
    return build_or_show_error


def _messages(error: Exception, logged: list[str]) -> list[str]:
    """What to show for a failed build: the warnings it logged, then the error itself."""
    if isinstance(error, Abort) and isinstance(error.__context__, BuildError):
        # build() turns a BuildError (a hook's PluginError with its file:line) into
        # Abort("Aborted with a BuildError!") raised while handling it: the cause is the context.
        cause = str(error.__context__)
        return [message for message in logged if message != cause] + [cause]
    if isinstance(error, Abort):
        return [*logged, str(error)]  # strict mode: "Aborted with 2 warnings", the warnings above
    # Anything else is a bug somewhere: show where, as `mkdocs serve` would have.
    log.error("The build raised an exception", exc_info=error)
    return [*logged, "".join(traceback.format_exception(error))]


class _Collected(logging.Handler):
    """Warnings and errors logged during one build (a strict build fails on the warnings)."""

    def __init__(self) -> None:
        super().__init__(level=logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())
