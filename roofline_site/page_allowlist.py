"""Every element and attribute of a finished page, checked against what its templates write.

The entry sanitiser guards the body of a term page; this guards the whole document, so a path
that goes round the sanitiser (the table of contents, a title, a card, a hook added later)
cannot put anything live on a page unnoticed. A finished page may hold only:

* the elements and attributes the theme, the overrides and the build write
  (:data:`ELEMENT_ATTRIBUTES`, :data:`GLOBAL_ATTRIBUTES`, :data:`DATA_ATTRIBUTES`), with no event
  handler and no URL that runs script, and metadata elements only in ``<head>``;
* inside an entry's body (``.glossary-entry__body``), only what the sanitiser allows
  (:mod:`roofline_site.glossary.sanitize`), apart from the figures and calculators the build puts
  there;
* ``<meta http-equiv>`` for the page's CSP, or, on a redirect page, a refresh to a relative URL.

The inventory was read off the built site (every page), then reviewed: adding a template or a
component that writes something new means adding it here, on purpose.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser

from roofline_site.glossary.render import BODY_CLASS as BODY_CLASS_NAME
from roofline_site.glossary.sanitize import ALIGN_VALUES, ALLOWED_ATTRIBUTES, ALLOWED_TAGS

#: Attributes any element may carry.
GLOBAL_ATTRIBUTES: frozenset[str] = frozenset({"class", "id", "title", "hidden", "tabindex", "role", "lang", "dir"})
#: ``data-*`` attributes the site's and Material's scripts read (any element).
DATA_ATTRIBUTES: frozenset[str] = frozenset(
    {
        # Material for MkDocs
        "data-md-component",
        "data-md-color-accent",
        "data-md-color-primary",
        "data-md-color-scheme",
        "data-md-color-media",
        "data-md-scrollfix",
        "data-md-toggle",
        "data-md-type",
        "data-md-level",
        "data-search-exclude",
        # glossary (site_assets/glossary/)
        "data-glossary-role",
        "data-glossary-term",
        "data-glossary-clear",
        "data-glossary-search-site",
        "data-glossary-view",
        "data-glossary-az",
        "data-glossary-filter",
        "data-glossary-listing",
        "data-prose-columns",
        "data-quantity",
        "data-parts",
        # the Model vs measurement table (site_assets/measurements/)
        "data-measurements-table",
        # figures
        "data-figure-kind",
        "data-svg-id-prefix",
        "data-svg-title",
        # calculators (site_assets/calculators/)
        "data-calculator",
        "data-calculator-later",
        "data-calculator-data",
        "data-state",
        "data-data-version",
        "data-embed-code",
        "data-embed-src",
        "data-embed-url",
        "data-glossary-url",
        "data-share-url",
        "data-build-token",
        "data-full-page-link",
        "data-choose",
        "data-value",
        "data-copy-cite",
        "data-copy-embed",
        "data-copy-link",
        "data-copy-python",
        "data-copy-feedback",
        "data-copy-text",
        "data-notice",
        "data-notice-text",
        "data-notice-dismiss",
        "data-pin",
        "data-unpin",
        "data-retry",
        "data-compare-box",
        "data-compare-summary-box",
        "data-failure",
        "data-failure-text",
        "data-results-for",
        "data-scenario",
        "data-scenario-for",
        "data-scenario-value",
        "data-size",
        "data-size-toggle",
        "data-drop-for",
        "data-field",
        "data-table",
        "data-figure-for",
        "data-parts-for",
        "data-output",
        "data-more-inputs",
        "data-error-for",
        "data-later-status",
        "data-status",
        "data-chart-box",
        "data-chart",
        "data-file-for",
        "data-file-note-for",
        "data-max-chars",
        "data-slider-for",
        "data-scale",
        "data-stops",
        "data-thresholds",
        "data-current",
        "data-slot",
        # downloads of tables, charts and figures (roofline_site/downloads.py, site_assets/downloads.mjs)
        "data-download",
    }
)
_FORM = {"name", "value", "type", "disabled", "required", "readonly", "placeholder", "autocomplete", "spellcheck"}
#: Elements the templates write, and the attributes each takes beyond the global ones.
ELEMENT_ATTRIBUTES: dict[str, frozenset[str]] = {
    name: frozenset(attributes)
    for name, attributes in {
        "html": {"xmlns"},
        "head": set(),
        "title": set(),
        "meta": {"charset", "content", "http-equiv", "name", "property"},
        "link": {"href", "rel", "type", "title", "as", "crossorigin", "sizes", "media"},
        "script": {"src", "type"},
        "body": set(),
        "header": set(),
        "footer": set(),
        "main": set(),
        "nav": set(),
        "article": set(),
        "section": set(),
        "aside": set(),
        "div": set(),
        "span": set(),
        "p": set(),
        "a": {"href", "rel", "target", "download", "hreflang"},
        "img": {"src", "alt", "width", "height", "loading", "decoding"},
        "figure": set(),
        "figcaption": set(),
        "form": {"name"},
        "label": {"for"},
        "input": _FORM
        | {"accept", "checked", "inputmode", "max", "min", "step", "autocapitalize", "autocorrect", "autofocus"},
        "select": _FORM,
        "optgroup": {"label"},
        "option": {"selected", "value", "label"},
        "textarea": _FORM | {"rows", "cols"},
        "button": _FORM | {"aria-pressed"},
        "output": {"for", "name"},
        "details": {"open"},
        "summary": set(),
        "dl": set(),
        "dt": set(),
        "dd": set(),
        "table": set(),
        "caption": set(),
        "thead": set(),
        "tbody": set(),
        "tfoot": set(),
        "tr": set(),
        "th": {"scope", "colspan", "rowspan", "align"},
        "td": {"colspan", "rowspan", "align"},
        "ul": set(),
        "ol": {"start"},
        "li": set(),
        "h1": set(),
        "h2": set(),
        "h3": set(),
        "h4": set(),
        "h5": set(),
        "h6": set(),
        "hr": set(),
        "br": set(),
        "pre": set(),
        "code": set(),
        "kbd": set(),
        "samp": set(),
        "var": set(),
        "em": set(),
        "strong": set(),
        "b": set(),
        "i": set(),
        "s": set(),
        "del": set(),
        "ins": set(),
        "mark": set(),
        "sub": set(),
        "sup": set(),
        "small": set(),
        "abbr": set(),
        "q": set(),
        "cite": set(),
        "blockquote": set(),
        "time": {"datetime"},
        # The calculators' charts, drawn inline (roofline_core.view).
        "svg": {"xmlns", "viewbox", "preserveaspectratio", "focusable", "width", "height"},
        "g": {"transform"},
        "line": {"x1", "x2", "y1", "y2", "vector-effect"},
        "path": {"d", "vector-effect"},
        "rect": {"x", "y", "width", "height", "rx"},
        "circle": {"cx", "cy", "r"},
        "text": {"x", "y", "transform", "text-anchor", "dominant-baseline"},
    }.items()
}
#: Elements that belong in ``<head>`` and nowhere else.
HEAD_ONLY: frozenset[str] = frozenset({"title", "meta", "link"})
#: ``rel`` values of ``<link>`` the templates write.
LINK_RELS: frozenset[str] = frozenset(
    # "markdown": a term page's Markdown twin (rel="alternate markdown", site_assets/overrides/main.html).
    {"stylesheet", "canonical", "icon", "prev", "next", "alternate", "feed", "markdown", "preload", "manifest"}
)
_URL_ATTRIBUTES = ("href", "src", "action", "formaction", "poster", "srcset", "xlink:href", "data")
_SCRIPT_URL = re.compile(r"(?:javascript|vbscript|data):", re.IGNORECASE)
_ASCII_TAB_OR_NEWLINE = re.compile(r"[\t\n\r]")
_LEADING_C0_OR_SPACE = re.compile(r"\A[\x00-\x20]+")
_VOID = frozenset(
    {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
)
#: Build markup inside an entry body: the figures and calculators it puts there.
_TRUSTED_IN_BODY = re.compile(r"(?:^|\s)(?:roofline-figure|roofline-calc|roofline-calculator|md-code__nav)(?:\s|$)")
_REFRESH = re.compile(r"\s*\d+\s*;\s*url=(?P<url>.*)\Z", re.IGNORECASE | re.DOTALL)


@dataclass
class _Frame:
    tag: str
    entry_body: bool  # inside an entry's body (its own element or below)
    trusted: bool  # inside build markup in a body (a figure, a calculator)


@dataclass
class _Checker(HTMLParser):
    path: str
    redirect: bool
    problems: list[str] = field(default_factory=list)
    stack: list[_Frame] = field(default_factory=list)

    def __post_init__(self) -> None:
        super().__init__(convert_charrefs=True)

    def _where(self) -> str:
        return f"{self.path}:{self.getpos()[0]}"

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._check(tag, attrs)
        if tag not in _VOID:
            parent = self.stack[-1] if self.stack else _Frame("", False, False)
            classes = (dict(attrs).get("class") or "").split()
            entry_body = parent.entry_body or BODY_CLASS_NAME in classes
            trusted = parent.trusted or (entry_body and bool(_TRUSTED_IN_BODY.search(" ".join(classes))))
            self.stack.append(_Frame(tag, entry_body, trusted))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._check(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        for depth in range(len(self.stack) - 1, -1, -1):
            if self.stack[depth].tag == tag:
                del self.stack[depth:]
                return

    def _check(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        frame = self.stack[-1] if self.stack else _Frame("", False, False)
        if tag not in ELEMENT_ATTRIBUTES:
            self.problems.append(f"{self._where()}: element <{tag}> is not one the templates write")
            return
        in_svg = any(f.tag == "svg" for f in self.stack)  # an SVG's <title> is its accessible name
        if (
            tag in HEAD_ONLY
            and not (tag == "title" and in_svg)
            and any(f.tag not in ("html", "head") for f in self.stack)
        ):
            self.problems.append(f"{self._where()}: <{tag}> outside <head>")
        own_class = dict(attrs).get("class") or ""
        in_body_rules = frame.entry_body and not frame.trusted and not _TRUSTED_IN_BODY.search(own_class)
        if in_body_rules and tag not in ALLOWED_TAGS:
            self.problems.append(
                f"{self._where()}: element <{tag}> in an entry body, outside the sanitiser's allowlist"
            )
        for name, value in attrs:
            self._check_attribute(tag, name, value or "", in_body_rules)
        if tag == "meta":
            self._check_meta(dict(attrs))
        if tag == "link":
            rels = set((dict(attrs).get("rel") or "").lower().split())
            if not rels or not rels <= LINK_RELS:
                self.problems.append(
                    f"{self._where()}: <link rel={dict(attrs).get('rel')!r}> is not one the templates write"
                )

    def _check_attribute(self, tag: str, name: str, value: str, in_body_rules: bool) -> None:
        known = (
            name in GLOBAL_ATTRIBUTES
            or name in ELEMENT_ATTRIBUTES[tag]
            or name in DATA_ATTRIBUTES
            or name.startswith("aria-")
        )
        if name.startswith("on") or not known:
            self.problems.append(f"{self._where()}: attribute <{tag} {name}> is not one the templates write")
            return
        if in_body_rules:
            allowed = ALLOWED_ATTRIBUTES.get(tag, set()) | ALLOWED_ATTRIBUTES["*"] | set(ALIGN_VALUES.get(tag, {}))
            if name not in allowed and name not in ("data-glossary-term", "data-glossary-role", "data-quantity"):
                self.problems.append(
                    f"{self._where()}: attribute <{tag} {name}> in an entry body, outside the sanitiser's allowlist"
                )
        if name in _URL_ATTRIBUTES:
            # As the URL parser reads it: leading C0 controls and spaces go, tabs and newlines anywhere.
            compact = _LEADING_C0_OR_SPACE.sub("", _ASCII_TAB_OR_NEWLINE.sub("", value))
            if _SCRIPT_URL.match(compact) and not (tag == "img" and compact.lower().startswith("data:image/")):
                self.problems.append(f"{self._where()}: <{tag} {name}={value[:60]!r}> runs script or embeds a document")

    def _check_meta(self, attrs: dict[str, str | None]) -> None:
        equiv = (attrs.get("http-equiv") or "").lower()
        if not equiv or equiv == "content-security-policy":
            return
        target = _REFRESH.match(attrs.get("content") or "")
        relative = target is not None and not re.match(r"[a-z][a-z0-9+.-]*:|//", target["url"].strip(), re.IGNORECASE)
        if not (equiv == "refresh" and self.redirect and relative):
            self.problems.append(f"{self._where()}: <meta http-equiv={equiv!r}> is not one the templates write")


def check_page(html: str, *, path: str, redirect: bool = False) -> list[str]:
    """Problems of one finished page (``path`` names it in each message); empty if none.

    ``redirect``: the page is one of the build's redirect stubs, which may refresh to a
    relative address.

    >>> check_page('<html><head><title>t</title></head><body><p>x</p></body></html>', path="a.html")
    []
    >>> check_page('<body><nav><a href="#x" onmouseover="go()">x</a><meta http-equiv="refresh" content="0;url=//e.example"></nav></body>', path="b.html")[:2]
    ['b.html:1: attribute <a onmouseover> is not one the templates write', 'b.html:1: <meta> outside <head>']
    """
    checker = _Checker(path=path, redirect=redirect)
    checker.feed(html)
    checker.close()
    return checker.problems
