""" "Reproduce the numbers on this page": the Python call behind each number, and a citation.

Every ``{{ quantity ... }}`` a page shows is one call of
:func:`roofline_core.quantities.evaluate`; this module writes that call as Python a reader can
paste into a notebook with the package installed, and it prints exactly the text the page shows.
A term page lists one such snippet per distinct number in a collapsed ``<details>`` at the end
of its sources (a docs page with numbers, at its end), with one citation for the page (title, permalink, data version, build date);
each number in the prose is wrapped in ``<span class="roofline-quantity" data-quantity="N">``
so the browser can offer "Copy as Python" and "Cite" on the number itself
(``site_assets/glossary/quantities.mjs``, which copies the text written here and computes
nothing).

An entry's body is contributor Markdown and is sanitised by allowlist after rendering
(:mod:`roofline_site.glossary.sanitize`), so the wrapper cannot be written into the Markdown
as it is: the class and the attribute would be stripped, and if they were allowed, an entry
could forge them. Instead the rewrite inserts a marker, ``<span data-roofline-quantity="T-N">``,
where ``T`` is :func:`marker_token` of the entry's own Markdown; the sanitiser keeps that
attribute only with those exact values, and :func:`finish_markers` turns the survivors into the
wrapper. The token is a digest of the body it must appear in, so the body cannot contain it.
"""

from __future__ import annotations

import hashlib
import html
from collections.abc import Sequence
from dataclasses import dataclass

from roofline_core.quantities import parse_reference

#: Class of the element around each number the build computed.
QUANTITY_CLASS = "roofline-quantity"
#: Attribute of the transient marker, between rewriting and sanitising a term page's body.
MARKER_ATTRIBUTE = "data-roofline-quantity"
#: Id of the "Reproduce the numbers" section; each number's item is ``<id>-<N>``. The sanitiser
#: reserves the ``roofline-`` prefix, so an entry cannot take these ids.
SECTION_ID = "roofline-numbers"
SUMMARY = "Reproduce the numbers on this page"


@dataclass(frozen=True)
class Shown:
    """A number a page shows: its reference (``ridge_point accelerator=h100-sxm``) and text."""

    reference: str
    text: str


def python_snippet(reference: str) -> str:
    """The Python that prints the number ``reference`` gives, as the page shows it.

    Names and values are written with :func:`repr`, so whatever characters a reference holds
    (the parser only splits on whitespace) they reach :func:`~roofline_core.quantities.evaluate`
    unchanged.

    >>> print(python_snippet("ridge_point accelerator=h100-sxm"), end="")
    from roofline_core.quantities import evaluate
    print(evaluate('ridge_point', {'accelerator': 'h100-sxm'}).text)

    Raises:
        QuantityError: for a reference that does not parse (the page could not have shown it).
    """
    name, arguments = parse_reference(reference)
    return f"from roofline_core.quantities import evaluate\nprint(evaluate({name!r}, {arguments!r}).text)\n"


def citation(*, site_name: str, title: str, url: str, version: str, date: str) -> str:
    """A short citation of a page's numbers: site, page title, permalink, data version, build date.

    Args:
        date: The day the page was built, ISO 8601 (``2026-11-26``).

    >>> citation(site_name="Roofline Glossary", title="KV cache", url="https://x.org/glossary/kv-cache/",
    ...          version="0123456789ab", date="2026-11-26")
    'Roofline Glossary, "KV cache", https://x.org/glossary/kv-cache/ (data version 0123456789ab, built 2026-11-26).'
    """
    return f'{site_name}, "{title}", {url} (data version {version}, built {date}).'


def marker_token(markdown: str) -> str:
    """The marker token for a body: a digest of its Markdown, which therefore cannot contain it."""
    return hashlib.sha256(markdown.encode("utf-8")).hexdigest()[:24]


def marker(token: str, index: int, text: str) -> str:
    """The Markdown put in place of number ``index`` of a term page's body (see the module)."""
    return f'<span {MARKER_ATTRIBUTE}="{token}-{index}">{text}</span>'


def marker_values(token: str, count: int) -> set[str]:
    """The marker attribute values the sanitiser may keep for a body with ``count`` numbers."""
    return {f"{token}-{index}" for index in range(count)}


def finish_markers(sanitised_html: str, token: str) -> str:
    """Turn the markers that came through the sanitiser into the numbers' wrappers."""
    # Split on the marker's fixed opening rather than a pattern made per body: compiling one
    # regular expression per term page was most of this step's time.
    opening = f'<span {MARKER_ATTRIBUTE}="{token}-'
    first, *rest = sanitised_html.split(opening)
    parts = [first]
    for piece in rest:
        index, closed, after = piece.partition('">')
        if closed and index.isascii() and index.isdigit():
            parts.append(wrapper_open(int(index)) + after)
        else:
            parts.append(opening + piece)
    return "".join(parts)


def wrapper_open(index: int) -> str:
    """The opening tag around number ``index`` (closed by ``</span>``)."""
    return f'<span class="{QUANTITY_CLASS}" data-quantity="{index}">'


def wrapped(index: int, text: str) -> str:
    """Number ``index`` in its wrapper, for a hand-written docs page (not sanitised: no marker)."""
    return f"{wrapper_open(index)}{text}</span>"


def section_html(numbers: Sequence[Shown], cite: str) -> str:
    """The collapsed "Reproduce the numbers on this page" section; empty without numbers.

    Per number: the text as shown and its snippet (a code block, which Material gives a copy
    button); then the citation. Kept out of the search index, which every page downloads.
    """
    if not numbers:
        return ""
    items = "".join(
        f'<li id="{SECTION_ID}-{index}"><p>{html.escape(number.text)}</p>'
        f"<pre><code>{html.escape(python_snippet(number.reference), quote=False)}</code></pre></li>"
        for index, number in enumerate(numbers)
    )
    return (
        f'<details class="roofline-reproduce" id="{SECTION_ID}" data-search-exclude>'
        f"<summary>{SUMMARY}</summary>\n"
        "<p>Each number, and the Python that prints it (with <code>roofline_core</code> installed):</p>\n"
        f'<ol class="roofline-reproduce__list">{items}</ol>\n'
        f'<p>Cite this page: <span class="roofline-reproduce__cite">{html.escape(cite, quote=False)}</span></p>\n'
        "</details>\n"
    )
