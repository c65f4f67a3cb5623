"""Make a matplotlib SVG themeable and safe to inline in a page.

The drawing code paints with *sentinel* colours (``#0f0fNN``), one per role (text, grid,
series 1..6, memory-bound, compute-bound). Here each sentinel becomes a CSS custom property
(``var(--rf-fg, <light fallback>)``), which ``site_assets/figures.css`` sets from Material's
palette variables, with other values under ``[data-md-color-scheme="slate"]``: one inline SVG
reads well in the light and the dark palette.

No ``style=""`` attribute is left, so the site's Content-Security-Policy needs no
``style-src-attr 'unsafe-inline'``: each declaration matplotlib writes becomes an SVG
presentation attribute (``stroke-width="0.8"``), except the sentinel colours, which become
classes (``rf-fill-fg``, ``rf-stroke-c0``; :func:`colour_class_rules` is their CSS, in
``site_assets/figures.css``) with the light colour as the attribute underneath, for an SVG
shown without the site's CSS. matplotlib's global ``*`` rule (round joins, butt caps) becomes
attributes of the root, which its elements inherit unless they set their own.

It also strips what would leak into the page or break determinism (the XML prolog, metadata, a
global ``*`` rule in matplotlib's ``<style>``), drops the fixed size so the SVG scales with its
container, and prefixes every id with :data:`ID_PLACEHOLDER`, which the HTML step replaces with
a prefix unique on the page (two figures on one page must not share ids).
"""

from __future__ import annotations

import re

#: Replaced in the HTML step by a prefix unique on the page. Short: glyphs are referenced
#: hundreds of times per figure.
ID_PLACEHOLDER = "@rfid@"

#: role -> (sentinel colour the drawing uses, CSS value in the themed SVG).
#: Fallbacks are the light-palette values, for an SVG shown outside the site's CSS.
COLOURS: dict[str, tuple[str, str]] = {
    "fg": ("#0f0f01", "var(--rf-fg, #1f1f1f)"),
    "muted": ("#0f0f02", "var(--rf-muted, #5f5f5f)"),
    "grid": ("#0f0f03", "var(--rf-grid, #e0e0e0)"),
    "bg": ("#0f0f04", "var(--rf-bg, #ffffff)"),
    "c0": ("#0f0f10", "var(--rf-c0, #0072b2)"),
    "c1": ("#0f0f11", "var(--rf-c1, #d55e00)"),
    "c2": ("#0f0f12", "var(--rf-c2, #009e73)"),
    "c3": ("#0f0f13", "var(--rf-c3, #cc79a7)"),
    "c4": ("#0f0f14", "var(--rf-c4, #e69f00)"),
    "c5": ("#0f0f15", "var(--rf-c5, #56b4e9)"),
    "memory": ("#0f0f20", "var(--rf-memory, #d55e00)"),
    "compute": ("#0f0f21", "var(--rf-compute, #009e73)"),
}

#: Sentinel of each role, for the drawing code.
SENTINEL = {role: sentinel for role, (sentinel, _) in COLOURS.items()}
#: Series colours in order.
SERIES = tuple(SENTINEL[f"c{i}"] for i in range(6))

_HEX = re.compile(r"#[0-9a-fA-F]{6}\b")


class UnthemedColourError(ValueError):
    """The drawing used a colour that has no CSS variable (it would not follow the palette)."""


def theme_svg(svg: str) -> str:
    """Turn matplotlib's SVG text into a themeable, inlinable fragment (see the module doc).

    Raises:
        UnthemedColourError: if a colour other than the sentinels is left.
    """
    svg = re.sub(r"<\?xml[^>]*\?>\s*", "", svg)
    svg = re.sub(r"<!DOCTYPE[^>]*>\s*", "", svg)
    svg = re.sub(r"<metadata>.*?</metadata>\s*", "", svg, flags=re.S)
    # matplotlib's <style> holds "*{stroke-linejoin: round; stroke-linecap: butt}": inline in a
    # page it would restyle every SVG there. figures.css scopes the same rule to the figures.
    svg = re.sub(r"<style[^>]*>.*?</style>\s*", "", svg, flags=re.S)
    svg = re.sub(r"<!--.*?-->\s*", "", svg, flags=re.S)
    svg = re.sub(r"<defs>\s*</defs>\s*", "", svg)
    svg = _root_without_size(svg)
    svg = _prefix_ids(svg)
    svg = _rounded_coordinates(svg)
    sentinels = {sentinel for sentinel, _ in COLOURS.values()}
    left = sorted(set(_HEX.findall(svg)) - sentinels)
    if left:
        raise UnthemedColourError(f"colours without a theme variable: {', '.join(left)}")
    svg = _TAG.sub(_attributes_for_styles, svg)
    stray = sorted(set(_HEX.findall(svg)) & sentinels)
    if stray:
        raise UnthemedColourError(f"theme colours outside a fill or stroke: {', '.join(stray)}")
    return svg.strip() + "\n"


#: Properties whose sentinel colours become classes (``rf-<property>-<role>``).
COLOUR_PROPERTIES = ("fill", "stroke")
_ROLE_OF_SENTINEL = {sentinel: role for role, (sentinel, _css) in COLOURS.items()}
_FALLBACK = re.compile(r"var\(--[\w-]+, (#[0-9a-fA-F]{6})\)")
_TAG = re.compile(r"<([a-zA-Z][\w:-]*)((?:\s+[\w:-]+=\"[^\"]*\")*)(\s*/?)>")
_ATTRIBUTE = re.compile(r'\s+([\w:-]+)="([^"]*)"')
# matplotlib's "*{stroke-linejoin: round; stroke-linecap: butt}", as inherited defaults.
_ROOT_DEFAULTS = (("stroke-linejoin", "round"), ("stroke-linecap", "butt"))


def colour_class(prop: str, role: str) -> str:
    """The class that paints ``prop`` (fill or stroke) in the theme colour ``role``."""
    return f"rf-{prop}-{role}"


def colour_class_rules() -> str:
    """The CSS of every colour class: ``.roofline-figure__svg .rf-fill-fg { fill: var(--rf-fg, ...) }``."""
    return "".join(
        f".roofline-figure__svg .{colour_class(prop, role)} {{ {prop}: {css}; }}\n"
        for prop in COLOUR_PROPERTIES
        for role, (_sentinel, css) in COLOURS.items()
    )


def _attributes_for_styles(match: re.Match) -> str:
    """One tag with its ``style`` declarations as attributes and its sentinel colours as classes."""
    name, attributes, end = match.group(1), match.group(2), match.group(3)
    values: dict[str, str] = dict(_ATTRIBUTE.findall(attributes))
    declarations = values.pop("style", "")
    for declaration in declarations.split(";"):
        prop, colon, value = declaration.partition(":")
        if colon:
            values[prop.strip()] = value.strip()  # as in CSS, the style attribute wins
    if name == "svg" and "viewBox" in values:
        for prop, value in _ROOT_DEFAULTS:
            values.setdefault(prop, value)
    classes = values.pop("class", "").split()
    for prop in COLOUR_PROPERTIES:
        role = _ROLE_OF_SENTINEL.get(values.get(prop, ""))
        if role is not None:
            classes.append(colour_class(prop, role))
            values[prop] = _FALLBACK.fullmatch(COLOURS[role][1]).group(1)
    if classes:
        values["class"] = " ".join(classes)
    written = "".join(f' {key}="{value}"' for key, value in values.items())
    return f"<{name}{written}{end}>"


def _root_without_size(svg: str) -> str:
    match = re.search(r"<svg\b[^>]*>", svg)
    if not match:
        raise ValueError("not an SVG document: no <svg> element")
    root = match.group(0)
    view_box = re.search(r'viewBox="([^"]+)"', root)
    if not view_box:
        raise ValueError("matplotlib SVG without a viewBox")
    new_root = (
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
        f'viewBox="{view_box.group(1)}" class="roofline-figure__svg">'
    )
    return svg[: match.start()] + new_root + svg[match.end() :]


_LONG_DECIMAL = re.compile(r"-?\d+\.\d{3,}")
# Coordinates in points: path data, use/text positions and translations (never scale factors,
# whose small values need every digit).
_COORDINATES = re.compile(r'( d="[^"]*"| (?:[xy]|width|height)="[^"]*"|translate\([^)]*\))', re.S)


def _rounded_coordinates(svg: str) -> str:
    """Round coordinates to 0.01 pt (1/7,200 inch, far below a pixel): a third smaller file."""

    def round_all(match: re.Match) -> str:
        return _LONG_DECIMAL.sub(lambda m: f"{float(m.group(0)):.2f}", match.group(0))

    return _COORDINATES.sub(round_all, svg)


_ID = re.compile(r'\sid="([^"]+)"')
_REFERENCE = re.compile(r'(url\(#|href="#)([^")]+)')


def _prefix_ids(svg: str) -> str:
    """Keep only ids something refers to, renamed ``<placeholder><n>`` in order of appearance."""
    referenced = {m.group(2) for m in _REFERENCE.finditer(svg)}
    short: dict[str, str] = {}

    def rename_id(match: re.Match) -> str:
        name = match.group(1)
        if name not in referenced:
            return ""
        short.setdefault(name, f"{ID_PLACEHOLDER}{len(short):x}")
        return f' id="{short[name]}"'

    svg = _ID.sub(rename_id, svg)
    missing = referenced - set(short)
    if missing:
        raise ValueError(f"SVG refers to ids it does not define: {', '.join(sorted(missing))}")
    return _REFERENCE.sub(lambda m: f"{m.group(1)}{short[m.group(2)]}", svg)
