"""The page ``mkdocs serve`` shows while the site does not build (see ``hooks/serve_errors.py``).

Plain Python, so it is testable without a server: it writes the error over the served folder.
"""

from __future__ import annotations

import html
from pathlib import Path

TITLE = "The site did not build"
#: Seconds between reloads of the 404 variant. A page the server sends as 404 does not get
#: MkDocs' live-reload script, so it reloads itself until the next good build replaces it.
NOT_FOUND_REFRESH_S = 2


def error_page_html(messages: list[str], *, refresh_s: int | None = None) -> str:
    """A self-contained page showing ``messages`` (each a ``file:line: ...`` line or a traceback) as text.

    Args:
        messages: What the build reported, most useful first.
        refresh_s: Reload the page every this many seconds; ``None`` leaves reloading to the
            live-reload script the server adds to pages it finds.
    """
    refresh = f'<meta http-equiv="refresh" content="{int(refresh_s)}">\n' if refresh_s is not None else ""
    items = "".join(f"<pre>{html.escape(message, quote=False)}</pre>\n" for message in messages)
    return (
        "<!doctype html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"{refresh}<title>{TITLE}</title>\n"
        "<style>body{font:16px/1.5 system-ui,sans-serif;margin:2rem;max-width:60rem}"
        "pre{white-space:pre-wrap;background:#fdecea;color:#5f2120;padding:1rem;border-radius:4px}</style>\n"
        "</head>\n<body>\n"
        f"<h1>{TITLE}</h1>\n"
        "<p>Fix what the build reports below and save the file: this page turns back into the site "
        "as soon as a build succeeds. The terminal running <code>scripts/serve</code> shows the same.</p>\n"
        f"{items}</body>\n</html>\n"
    )


def show_build_error(site_dir: Path, messages: list[str]) -> int:
    """Put the error page in place of every page of ``site_dir``; return how many files were written.

    Every ``.html`` file is overwritten, so whichever page a reader has open shows the error when
    it reloads; ``index.html`` and ``404.html`` are written even if the build got no further than
    cleaning the folder, and MkDocs' server sends ``404.html`` for any address it cannot find.
    Nothing else in the folder is touched: it is the server's temporary folder, and the next
    build replaces all of it.
    """
    site_dir.mkdir(parents=True, exist_ok=True)
    page = error_page_html(messages)
    targets = {path for path in site_dir.rglob("*.html") if path.is_file()} | {site_dir / "index.html"}
    for path in targets - {site_dir / "404.html"}:
        path.write_text(page, encoding="utf-8")
    (site_dir / "404.html").write_text(error_page_html(messages, refresh_s=NOT_FOUND_REFRESH_S), encoding="utf-8")
    return len(targets | {site_dir / "404.html"})
