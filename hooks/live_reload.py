"""Under ``mkdocs serve`` only: MkDocs' live-reload script carries the serve process's nonce, which
the served pages' policy allows, so every save reloads the open pages (roofline_site.live_reload).

``mkdocs build`` is left alone: no nonce is drawn, and the published policy allows no inline
script but the theme's own.
"""

from __future__ import annotations

from roofline_site import live_reload

# Hooks ---------------------------------------------------------------------------------


def on_startup(command, dirty):
    # "serve" for `mkdocs serve`; `mkdocs serve --clean` says "build" and builds as a build does.
    if command == "serve":
        live_reload.start()


def on_serve(server, config, builder):
    # Called once, with the server whose injection every served page goes through.
    value = live_reload.nonce()
    if value is not None:
        server._inject_js_into_html = _injecting_with_nonce(server._inject_js_into_html, value)
    return server


# Helper functions ----------------------------------------------------------------------


def _injecting_with_nonce(inject, value: str):
    def inject_with_nonce(content: bytes, epoch: int) -> bytes:
        return live_reload.with_nonce(inject(content, epoch), content, value)

    return inject_with_nonce
