"""The site's Content-Security-Policy and the host configuration that ships it.

The policy is strict: nothing is allowed by default, and each directive below lists exactly the
sources the site needs, with the reason (``docs/hosting.md`` explains them for people who host
the site). The only inline code the site may carry is the theme's own small bootstrap scripts
(Material for MkDocs: storage scope, palette restore, tab restore) and any the project's template
overrides hold: :func:`known_inline_scripts` reads them from the templates, never from the
built pages, so content cannot get a script of its own authorised. Their SHA-256 hashes are
listed in ``script-src``, and a page with any other inline script fails the build
(:func:`authorise_scripts`). The result is written as a ``_headers`` file (the format Netlify
and Cloudflare Pages read) and as a ``<meta http-equiv>`` tag in every page
(:func:`meta_policy`), for hosts that ignore ``_headers``.

Everything here is plain Python over HTML text, so it can be tested without MkDocs.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import json
import re
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

from roofline_site.atomic_write import write_atomic
from roofline_site.node_artifacts import input_key

#: Script types that browsers execute; anything else (``application/json`` data islands) is data.
EXECUTABLE_SCRIPT_TYPES = frozenset({"", "text/javascript", "application/javascript", "module"})


@dataclass(frozen=True)
class Directive:
    """One CSP directive: its name, its sources, and why each is needed."""

    name: str
    sources: tuple[str, ...]
    reason: str


#: The fixed part of the policy, in the order it is written. ``script-src`` and ``style-src``
#: also receive the hashes of the inline scripts and styles found in the built pages.
DIRECTIVES: tuple[Directive, ...] = (
    Directive("default-src", ("'none'",), "deny everything that no directive below allows"),
    Directive(
        "script-src",
        ("'self'", "'wasm-unsafe-eval'"),
        "the site's own scripts (Material's bundle, the calculators, Pyodide's loader); "
        "'wasm-unsafe-eval' lets Pyodide compile its WebAssembly (no JavaScript eval is allowed); "
        "plus the SHA-256 hashes of Material's inline bootstrap scripts",
    ),
    Directive(
        "style-src",
        ("'self'",),
        "the site's own style sheets (Material's and site_assets/); no inline styles",
    ),
    Directive(
        "img-src",
        ("'self'", "data:", "blob:"),
        "favicon and figures; data: because Material's CSS draws its icons from data: SVG URIs; "
        "blob: because 'Download PNG' draws a chart's SVG, made into a blob by the page itself "
        "(site_assets/downloads.mjs), as an image on a canvas; a blob: URL names only bytes this "
        "page made, never another site's",
    ),
    Directive(
        "connect-src",
        ("'self'",),
        "instant navigation fetches pages and sitemap.xml; the search worker fetches its index; "
        "Pyodide fetches its wasm, standard library, lock file and the roofline_core zip",
    ),
    Directive(
        "worker-src",
        ("'self'",),
        "Material's search worker and the calculators' module worker that runs Pyodide",
    ),
    Directive("object-src", ("'none'",), "no plugins (stated explicitly, as CSP checkers expect)"),
    Directive("base-uri", ("'none'",), "no <base> element may re-point the site's relative URLs"),
    Directive("form-action", ("'self'",), "forms (search, calculators) never submit to another host"),
)

#: Other security headers shipped beside the policy, with their reasons.
EXTRA_HEADERS: tuple[tuple[str, str, str], ...] = (
    ("X-Content-Type-Options", "nosniff", "files are used only as the type the host declares"),
    ("Referrer-Policy", "strict-origin-when-cross-origin", "other sites see only our origin, never a page's query"),
    ("Permissions-Policy", "camera=(), microphone=(), geolocation=()", "the site needs no device access"),
)


#: ``(path pattern, Content-Type)`` for the files whose type a host may not know. With nosniff a
#: file is only what its type says, so each is declared.
CONTENT_TYPES: tuple[tuple[str, str], ...] = (
    # The term pages' Markdown twins (https://www.rfc-editor.org/rfc/rfc7763) and the llms.txt
    # files: hosts guess .md as application/octet-stream, or nothing.
    ("/*.md", "text/markdown; charset=utf-8"),
    ("/*.txt", "text/plain; charset=utf-8"),
    # The downloads of tables and figures (roofline_site/downloads.py): UTF-8, for names such as
    # "Kᵀ" and "µs" (RFC 7111 registers text/csv; its default charset is not UTF-8 everywhere).
    ("/*.csv", "text/csv; charset=utf-8"),
    # roofline_core's wheels (roofline_site/wheel.py): a wheel is a zip (PEP 427), and under
    # nosniff a host's guess for the unknown ".whl" would be the only type a browser saw.
    ("/wheels/*", "application/zip"),
)


class _InlineCollector(HTMLParser):
    """Collects the text of inline executable ``<script>`` and ``<style>`` elements."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=False)
        self.scripts: list[str] = []
        self.styles: list[str] = []
        self.style_attributes: list[str] = []
        self.style_attributes_outside_svg: list[str] = []
        self._svg_depth = 0
        self._current: list[str] | None = None
        self._buffer: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        if tag == "svg":
            self._svg_depth += 1
        if attributes.get("style") is not None:
            self.style_attributes.append(attributes["style"] or "")
            if not self._svg_depth:
                self.style_attributes_outside_svg.append(attributes["style"] or "")
        if tag == "script" and "src" not in attributes:
            script_type = (attributes.get("type") or "").strip().lower()
            if script_type in EXECUTABLE_SCRIPT_TYPES:
                self._current, self._buffer = self.scripts, []
        elif tag == "style":
            self._current, self._buffer = self.styles, []

    def handle_data(self, data: str) -> None:
        if self._current is not None:
            self._buffer.append(data)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag == "svg":
            self._svg_depth -= 1

    def handle_endtag(self, tag: str) -> None:
        if tag == "svg" and self._svg_depth:
            self._svg_depth -= 1
        if tag in ("script", "style") and self._current is not None:
            self._current.append("".join(self._buffer))
            self._current = None


@dataclass(frozen=True)
class InlineCode:
    """Inline code found in one HTML document."""

    scripts: tuple[str, ...]
    styles: tuple[str, ...]
    style_attributes: tuple[str, ...]
    #: The ``style=""`` attributes that are not inside an inline ``<svg>``.
    style_attributes_outside_svg: tuple[str, ...] = ()


def inline_code(html: str) -> InlineCode:
    """The inline executable scripts, ``<style>`` elements and ``style=""`` attributes of a page."""
    collector = _InlineCollector()
    collector.feed(html)
    collector.close()
    return InlineCode(
        tuple(collector.scripts),
        tuple(collector.styles),
        tuple(collector.style_attributes),
        tuple(collector.style_attributes_outside_svg),
    )


@functools.cache
def _parser_digest() -> str:
    """What reads a page besides its HTML: this module (the collector, the executable script
    types) and Python's ``html.parser``, whose tokenising changes between versions."""
    return input_key([Path(__file__).read_bytes(), sys.version.encode()], shared=True)


class InlineCodeCache:
    """:func:`inline_code` of pages by a key of their HTML and the parser (:func:`_parser_digest`;
    the repository's configuration too, as in every shared cache's key), kept between builds in a JSON file:
    reading every page is most of the policy's cost, and a warm build rewrites most pages byte
    for byte. Only the entries a build used are saved, so the file never grows stale.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._stored: dict[str, list[list[str]]] = {}
        self._used: dict[str, InlineCode] = {}
        try:
            loaded = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            loaded = {}
        if isinstance(loaded, dict):
            self._stored = loaded

    @staticmethod
    def key(html: str) -> str:
        return input_key([_parser_digest().encode(), html.encode("utf-8", "surrogatepass")], shared=True)

    def get(self, html: str) -> InlineCode:
        key = self.key(html)
        if key not in self._used:
            stored = self._stored.get(key)
            if isinstance(stored, list) and len(stored) == 4:
                self._used[key] = InlineCode(*(tuple(str(part) for part in parts) for parts in stored))
            else:
                self._used[key] = inline_code(html)
        return self._used[key]

    def save(self) -> None:
        """Write the entries this build used."""
        entries = {
            key: [
                list(found.scripts),
                list(found.styles),
                list(found.style_attributes),
                list(found.style_attributes_outside_svg),
            ]
            for key, found in self._used.items()
        }
        write_atomic(self.path, json.dumps(entries).encode("utf-8"))


def sha256_source(text: str) -> str:
    """A CSP hash source (``'sha256-<base64>'``) for an inline script's or style's exact text."""
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return f"'sha256-{base64.b64encode(digest).decode('ascii')}'"


@dataclass(frozen=True)
class SiteInlineCode:
    """Hash sources for all inline code across a site, and where inline styles were found."""

    script_hashes: tuple[str, ...]
    style_hashes: tuple[str, ...]
    #: ``(page, attribute value)`` for every ``style=""`` attribute.
    style_attributes: tuple[tuple[str, str], ...]
    #: The same, for attributes outside inline ``<svg>`` figures (the site should have none).
    style_attributes_outside_svg: tuple[tuple[str, str], ...] = ()


def scan_site(
    site_dir: Path,
    *,
    parse: Callable[[str], InlineCode] = inline_code,
    check: Callable[[str, InlineCode], object] | None = None,
) -> SiteInlineCode:
    """Hash every inline script and style in the HTML pages under ``site_dir`` (sorted, unique).

    ``parse`` reads one page (:func:`inline_code`, or a cache of it: the build has already read
    every page it wrote once). ``check``, if given, is called with each page's site path and
    inline code as it is read (the build refuses unknown scripts in the same pass).
    """
    scripts: set[str] = set()
    styles: set[str] = set()
    attributes: list[tuple[str, str]] = []
    outside_svg: list[tuple[str, str]] = []
    for path in sorted(site_dir.rglob("*.html")):
        found = parse(path.read_text(encoding="utf-8"))
        relative = path.relative_to(site_dir).as_posix()
        if check is not None:
            check(relative, found)
        scripts.update(sha256_source(text) for text in found.scripts)
        styles.update(sha256_source(text) for text in found.styles)
        attributes.extend((relative, value) for value in found.style_attributes)
        outside_svg.extend((relative, value) for value in found.style_attributes_outside_svg)
    return SiteInlineCode(tuple(sorted(scripts)), tuple(sorted(styles)), tuple(attributes), tuple(outside_svg))


#: Added only while pages carry ``style=""`` attributes: matplotlib writes one on each element of
#: the inline SVG figures (colours from CSS variables, so that figures follow the palette). A
#: style attribute cannot run script, and img-src / connect-src still bound what CSS may load.
STYLE_ATTRIBUTES = Directive(
    "style-src-attr",
    ("'unsafe-inline'",),
    "style attributes of the inline SVG figures (matplotlib's output); present only while pages have them",
)


def policy(
    *,
    script_hashes: tuple[str, ...] = (),
    style_hashes: tuple[str, ...] = (),
    style_attributes: bool = False,
    script_nonce: str | None = None,
) -> str:
    """The Content-Security-Policy header value, with the given hash sources added.

    Args:
        script_hashes: Hash sources of the inline scripts, added to ``script-src``.
        style_hashes: Hash sources of inline ``<style>`` elements, added to ``style-src``.
        style_attributes: Whether to allow ``style=""`` attributes (``style-src-attr``).
        script_nonce: Under ``mkdocs serve`` only, the nonce MkDocs' live-reload script carries
            (:mod:`roofline_site.live_reload`); a published build has none.
    """
    nonce = (f"'nonce-{script_nonce}'",) if script_nonce else ()
    extra = {"script-src": (*script_hashes, *nonce), "style-src": style_hashes}
    directives = DIRECTIVES + ((STYLE_ATTRIBUTES,) if style_attributes else ())
    parts = []
    for directive in directives:
        sources = directive.sources + tuple(extra.get(directive.name, ()))
        parts.append(" ".join((directive.name, *sources)))
    return "; ".join(parts)


#: Directives a policy delivered by ``<meta http-equiv>`` cannot carry; browsers ignore them
#: there (https://www.w3.org/TR/CSP3/#meta-element). ``_headers`` still ships them.
META_UNSUPPORTED = frozenset({"frame-ancestors", "report-uri", "report-to", "sandbox"})


def meta_policy(csp: str) -> str:
    """The policy ``csp`` without the directives a ``<meta http-equiv>`` tag cannot carry."""
    parts = [part.strip() for part in csp.split(";") if part.strip()]
    return "; ".join(part for part in parts if part.split()[0] not in META_UNSUPPORTED)


# A template expression inside a theme script ({{ base_url }}, {{ config.extra.scope }}): in the
# built page it may only be a plain URL path, which cannot end the string literal it sits in.
_TEMPLATE_EXPRESSION = re.compile(r"\{\{.*?\}\}|\{%.*?%\}", re.S)
_SLOT_VALUE = r"[A-Za-z0-9._~/-]{0,200}"
_TEMPLATE_SCRIPT = re.compile(r"<script>(.*?)</script>", re.S)


@dataclass(frozen=True)
class KnownScript:
    """An inline script the site's templates write.

    Attributes:
        template: The template it comes from (for messages).
        pieces: Its text, split where the template has an expression.
    """

    template: str
    pieces: tuple[str, ...]

    @functools.cached_property
    def pattern(self) -> re.Pattern[str]:
        """Matches the script's exact text in a built page; each expression a URL path only.

        Built once per script (each of hundreds of pages asks for every script's pattern).
        """
        return re.compile("^" + f"(?:{_SLOT_VALUE})".join(re.escape(p) for p in self.pieces) + r"\Z", re.S)

    def instance(self, slot_value: str) -> str:
        """The script's text with every template expression written as ``slot_value``.

        Raises:
            ValueError: if ``slot_value`` is not a plain URL path.
        """
        if not re.fullmatch(_SLOT_VALUE, slot_value):
            raise ValueError(f"{slot_value!r} is not a plain URL path; expected letters, digits and . _ ~ / - only")
        return slot_value.join(self.pieces)


def known_inline_scripts(template_dirs: Iterable[Path]) -> tuple[KnownScript, ...]:
    """Every inline ``<script>`` (no attributes) in the HTML templates under ``template_dirs``.

    Args:
        template_dirs: The theme's template folders (Material's and the project's overrides).
    """
    known: dict[tuple[str, ...], KnownScript] = {}
    for directory in template_dirs:
        for template in sorted(Path(directory).rglob("*.html")):
            text = template.read_text(encoding="utf-8")
            for match in _TEMPLATE_SCRIPT.finditer(text):
                pieces = tuple(_TEMPLATE_EXPRESSION.split(match.group(1)))
                known.setdefault(pieces, KnownScript(template.relative_to(directory).as_posix(), pieces))
    return tuple(known.values())


def known_script_hashes(known: Iterable[KnownScript], *, base_url: str) -> tuple[str, ...]:
    """Hash sources of every known script as a page with ``base_url`` carries it (sorted)."""
    return tuple(sorted({sha256_source(k.instance(base_url)) for k in known}))


class UnknownInlineScript(ValueError):
    """A page carries an inline script that is not one of the templates' own."""


def authorise_scripts(scripts: Iterable[str], known: Iterable[KnownScript], *, page: str) -> tuple[str, ...]:
    """Hash sources of ``scripts`` (sorted, unique), each of which must be a known script.

    Args:
        scripts: Inline script texts found in a page (:func:`inline_code`).
        known: The site's known scripts (:func:`known_inline_scripts`).
        page: The page, for the message.

    Raises:
        UnknownInlineScript: naming the page and the start of the first unknown script.
    """
    patterns = [k.pattern for k in known]
    hashes = set()
    for text in scripts:
        if not any(p.match(text) for p in patterns):
            shown = " ".join(text.split())[:120]
            raise UnknownInlineScript(
                f"{page}: inline script {shown!r} is not one of the theme's or the project's own; "
                "expected no other inline script (entry content is sanitised, so this is a template or hook bug)"
            )
        hashes.add(sha256_source(text))
    return tuple(sorted(hashes))


def headers_file(csp: str) -> str:
    """A ``_headers`` file (Netlify / Cloudflare Pages format) applying the policy to every path,
    and the content type of each kind of file in :data:`CONTENT_TYPES`."""
    lines = [
        "# Security headers for every page and asset; generated by hooks/security_headers.py.",
        "# See docs/hosting.md for each source of the Content-Security-Policy and why it is needed.",
        "/*",
        f"  Content-Security-Policy: {csp}",
    ]
    lines.extend(f"  {name}: {value}" for name, value, _reason in EXTRA_HEADERS)
    for pattern, content_type in CONTENT_TYPES:
        lines += [pattern, f"  Content-Type: {content_type}"]
    return "\n".join(lines) + "\n"


def parse_headers_file(text: str) -> dict[str, dict[str, str]]:
    """Read a ``_headers`` file into ``{path pattern: {header: value}}``.

    Raises:
        ValueError: on a header line before any path, or a line that is neither.
    """
    rules: dict[str, dict[str, str]] = {}
    current: dict[str, str] | None = None
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if not line[0].isspace():
            current = rules.setdefault(line.strip(), {})
            continue
        name, colon, value = line.strip().partition(":")
        if current is None or not colon:
            raise ValueError(f"_headers:{number}: {line.strip()!r}; expected '<path>' or an indented 'Name: value'")
        current[name.strip()] = value.strip()
    return rules
