"""Ship the site's strict Content-Security-Policy: a ``_headers`` file and a ``<meta>`` tag.

The policy itself, the list of inline scripts it authorises (read from the theme's templates,
never from content) and the checks live in ``roofline_site.csp``. Every page gets the policy as
``<meta http-equiv="Content-Security-Policy">`` (``site_assets/overrides/main.html`` calls
``content_security_policy(base_url)``), so hosts that ignore ``_headers`` still apply it. A page
carrying any inline script that is not the templates' own stops the build.

``_headers`` is written in ``on_post_build`` (as the search plugin writes its index), after every
other plugin and hook has written its pages (redirect pages included): hence the low priority.
"""

from __future__ import annotations

from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority

from roofline_site import csp, live_reload

HEADERS_FILE = "_headers"

_known: tuple[csp.KnownScript, ...] = ()

# Hooks ---------------------------------------------------------------------------------


def on_config(config):
    global _known
    _known = csp.known_inline_scripts(Path(d) for d in config.theme.dirs)
    return config


def on_env(env, config, files):
    env.globals["content_security_policy"] = _meta_policy
    return env


@event_priority(-100)
def on_post_page(output: str, page, config) -> str:
    _authorise(output, page.file.src_uri)
    return output


@event_priority(-100)
def on_post_template(output_content: str, template_name: str, config) -> str:
    if template_name.endswith(".html"):
        _authorise(output_content, template_name)
    return output_content


@event_priority(-100)
def on_post_build(config) -> None:
    _write_headers(Path(config.site_dir))


# Helper functions ----------------------------------------------------------------------


def _meta_policy(base_url: str) -> str:
    """The policy for a page whose theme scripts are written with ``base_url``; under ``mkdocs
    serve`` it also allows the live-reload script, by its nonce (hooks/live_reload.py). The
    ``_headers`` file never does: the local server does not send it, a host does."""
    hashes = csp.known_script_hashes(_known, base_url=base_url)
    return csp.meta_policy(csp.policy(script_hashes=hashes, script_nonce=live_reload.nonce()))


# Each page's inline code, by the SHA-256 of its HTML, kept between builds: reading a page is
# most of this hook's time, every page is read when it is rendered and again from disk after the
# build, and a warm build rewrites most pages unchanged.
CACHE_FILE = Path(__file__).resolve().parent.parent / ".cache" / "csp-inline-code.json"
_cache: csp.InlineCodeCache | None = None


def _inline_code(html: str) -> csp.InlineCode:
    global _cache
    if _cache is None:
        _cache = csp.InlineCodeCache(CACHE_FILE)
    return _cache.get(html)


def _authorise(html: str, where: str) -> tuple[str, ...]:
    return _authorise_code(where, _inline_code(html))


def _authorise_code(where: str, code: csp.InlineCode) -> tuple[str, ...]:
    try:
        return csp.authorise_scripts(code.scripts, _known, page=where)
    except csp.UnknownInlineScript as exc:
        raise PluginError(str(exc)) from None


def _write_headers(site_dir: Path) -> None:
    global _cache
    # Every page, redirect stubs included, must carry known scripts only: checked as it is read.
    found = csp.scan_site(site_dir, parse=_inline_code, check=_authorise_code)
    if _cache is not None:
        _cache.save()
        _cache = None
    if found.style_attributes:
        page, value = found.style_attributes[0]
        raise PluginError(
            f"{page}: style attribute '{value[:80]}'; expected none: the policy has no style-src-attr "
            "'unsafe-inline' (figures are styled by classes, roofline_site/figures/theme.py)"
        )
    policy = csp.policy(script_hashes=found.script_hashes, style_hashes=found.style_hashes)
    (site_dir / HEADERS_FILE).write_text(csp.headers_file(policy), encoding="utf-8")
